"""No login can stop the class or another trainee, on a real PostgreSQL.
Each attack here is one a trainee can make with a login they hold (the shared workstation login
is in every shared workstation's password file), and each must leave the others working:

- defaults a login gives itself (ALTER ROLE ... SET) reach no connection of the app, and the
  class server's start removes them;
- a workstation enrolled with a login of its own keeps what its trainee does with that login
  (a new password, its settings) to itself, and a revoked one stops at once;
- nothing a login can lock (advisory locks, the tables it may read) holds up an exam start,
  a trainee's login or a workstation's enrolment;
- new attempts are announced to the staff only;
- once every workstation is enrolled, the instructor closes the shared login: it connects no
  more, a session of it still open sends nothing, and no start of the class server opens it."""

from __future__ import annotations

import json
import threading
import uuid

import psycopg
import pytest
from psycopg import sql
from psycopg.types.json import Jsonb

from tests.support.class_server import PASSWORD, progress_file, push_all, server_rows, until
from tests.support.command import run_command, run_here
from tests.support.exams import form
from trainer.classes import ClassServerError
from trainer.classes.server.command import holders_ended, prepare
from trainer.classes.server.logins import (
    CLASS_LOGINS,
    class_login,
    close_shared_login,
    enrol_workstation,
    new_password,
    open_shared_login,
    revoke_workstation,
    workstations,
)
from trainer.classes.server.sessions import Ended, end_holders
from trainer.classes.workstation import push
from trainer.classes.workstation.address import class_address
from trainer.classes.workstation.classview import follow
from trainer.classes.workstation.connection import ClassLedger, with_login
from trainer.classes.workstation.queue import Queue
from trainer.exams.classledger import give_to_class

WITHIN = 60.0  # seconds: only a guard against a hang (a call held up waits for ever)

#: what a trainee holding a login can make it start with: each stops the app's statements (or
#: changes what they do) unless the app's connection sets its own
PLANTED = {
    "default_transaction_read_only": ("on", "off"),
    "statement_timeout": ("1", "0"),
    "lock_timeout": ("1", f"{push.LOCK_WAIT}s"),
    "idle_session_timeout": ("1", "0"),
    "idle_in_transaction_session_timeout": ("1", "0"),
    "search_path": ("''", "public"),
    "row_security": ("off", "on"),
    "default_transaction_isolation": ("serializable", "read committed"),
    "client_encoding": ("'SQL_ASCII'", "UTF8"),
    "synchronous_commit": ("off", "on"),
    "exit_on_error": ("on", "off"),
    "extra_float_digits": ("-15", "1"),
    "TimeZone": ("'Pacific/Kiritimati'", "UTC"),  # the second cold review's #39
    "client_min_messages": ("debug5", "notice"),
}


@pytest.fixture
def planted(server):
    """Resets the defaults logins gave themselves after the test: a login is the whole server's,
    and outlives the class database the test drops; the class server's start (`prepare`), which
    removes those of every login of the server, would find them in a later test and say so."""
    yield
    with psycopg.connect(server.admin_dsn(), autocommit=True) as admin:
        given = admin.execute("SELECT r.rolname FROM pg_db_role_setting s JOIN pg_roles r "
                              "ON r.oid = s.setrole WHERE s.setdatabase = 0").fetchall()
        for (login,) in given:
            admin.execute(sql.SQL("ALTER ROLE {} RESET ALL").format(sql.Identifier(login)))


def plant(conn: psycopg.Connection, login: str, database: str | None = None) -> None:
    """What the attacker runs with `login`'s own connection: every default of PLANTED."""
    where = f" IN DATABASE {database}" if database else ""
    for name, (value, _) in PLANTED.items():
        conn.execute(f'ALTER ROLE "{login}"{where} SET {name} = {value}')


def sam_starts(ledger: ClassLedger, exam) -> int:
    return ledger.start_attempt(uuid.uuid4().hex, "Sam Lee", exam.uid)


def finishes(call, *args):
    """`call(*args)` on a thread of its own: what it returns. A call held up by a lock fails
    here (after WITHIN seconds, a guard only: a call that is not held up returns at once)."""
    got: list = []
    thread = threading.Thread(target=lambda: got.append(call(*args)), daemon=True)
    thread.start()
    thread.join(WITHIN)
    assert not thread.is_alive(), f"{getattr(call, '__name__', call)} is held up"
    assert got, f"{getattr(call, '__name__', call)} failed"
    return got[0]


# --------------------------------------------------------------------------- defaults planted
def test_defaults_the_shared_login_gives_itself_stop_no_workstation(tmp_path, klass, joined, planted):
    """The attack: the shared workstation login makes itself read-only (and worse);
    every workstation still pushes, as each connection sets its own session (and an exam on it is
    refused for what it is, s040, not for what was planted)."""
    exam = form()
    give_to_class(joined("instructor"), exam)
    with klass.connect("workstation") as attacker:
        plant(attacker, "workstation")
        plant(attacker, "workstation", klass.database)
    with klass.admin() as admin:
        assert admin.execute("SELECT count(*) FROM pg_db_role_setting WHERE setrole = "
                             "'workstation'::regrole").fetchone()[0] == 2
    path = progress_file(tmp_path / "ws.sqlite", {"Sam Lee": 3, "Ana Ruiz": 2})
    assert push_all(path, klass) == 5 and klass.count() == 5
    with pytest.raises(ClassServerError, match="enrol this workstation"):
        sam_starts(joined("workstation"), exam)
    with push.connect(klass.address("workstation")) as conn:
        for name, (_, ours) in PLANTED.items():
            assert conn.execute(f"SHOW {name}").fetchone()[0] == ours, name


def test_an_address_with_options_of_its_own_still_gets_the_apps_session(klass, planted):
    with klass.connect("workstation") as attacker:
        plant(attacker, "workstation")
    given = class_address(klass.address("workstation").url + "?options=-c%20work_mem%3D5MB"
                                                             "%20-c%20statement_timeout%3D1")
    with push.connect(given) as conn:
        assert conn.execute("SHOW work_mem").fetchone()[0] == "5MB"  # the address's own, kept
        assert conn.execute("SHOW statement_timeout").fetchone()[0] == "0"
        assert conn.execute("SHOW default_transaction_read_only").fetchone()[0] == "off"


def test_the_class_servers_start_removes_the_defaults_and_password_a_login_gave_itself(server, planted):
    """Planted defaults would survive every restart, and the instructor cannot remove them; the
    class server's start (prepare) removes those of every login of the class, and puts back the
    shared logins' passwords."""
    address = class_servers_own(server)
    with psycopg.connect(address.format("instructor", PASSWORD), autocommit=True) as instructor:
        ana = class_login(instructor, "Ana Ruiz", "ana-password")
    for login, password in (("workstation", PASSWORD), (ana, "ana-password")):
        with psycopg.connect(address.format(login, password), autocommit=True) as attacker:
            plant(attacker, login)
            plant(attacker, login, "dealer_class")
            if login == "workstation":
                attacker.execute("ALTER ROLE workstation PASSWORD 'only-mine-now'")
    said: list[str] = []
    prepare(server, say=said.append)
    assert planted_for(server, "workstation", ana) == []
    assert len(said) == 2 * 2 * len(PLANTED)
    assert "Removed a default a login of the class had given itself: workstation: " \
           "default_transaction_read_only=on." in said
    with psycopg.connect(address.format("workstation", PASSWORD)) as conn:  # its own password again
        assert conn.execute("SELECT current_user").fetchone()[0] == "workstation"


def test_the_class_servers_start_removes_the_defaults_of_an_enrolled_workstation(server):
    address = class_servers_own(server)
    with psycopg.connect(address.format("instructor", PASSWORD), autocommit=True) as instructor:
        station = enrol_workstation(instructor, "Table 9", "station-password")
    with psycopg.connect(address.format(station, "station-password"), autocommit=True) as attacker:
        plant(attacker, station, "dealer_class")
    prepare(server, say=lambda _: None)
    assert planted_for(server, station) == []


def class_servers_own(server) -> str:
    """The class server's own class database (dealer_class) on the test server, made as the
    class-server command makes it; its address, to format with a login and its password."""
    (server.folder / "logins.json").write_text(json.dumps({n: PASSWORD for n in CLASS_LOGINS}))
    prepare(server, say=lambda _: None)
    return f"postgresql://{{}}:{{}}@127.0.0.1:{server.port}/dealer_class"


def planted_for(server, *logins: str) -> list[tuple]:
    with psycopg.connect(server.admin_dsn(), autocommit=True) as admin:
        return admin.execute("SELECT r.rolname FROM pg_db_role_setting s JOIN pg_roles r "
                             "ON r.oid = s.setrole WHERE r.rolname = ANY (%s)", (list(logins),)).fetchall()


# --------------------------------------------------------------------------- workstations enrolled
def test_an_enrolled_workstation_keeps_its_trainees_mischief_to_itself(tmp_path, klass, planted):
    """The trainee at Table 1 changes its login's password and makes it read-only: Table 1 stops,
    Table 2 goes on; and Table 1's login can change nothing of Table 2's."""
    with klass.connect("instructor") as instructor:
        one = enrol_workstation(instructor, "Table 1", first := new_password())
        two = enrol_workstation(instructor, "Table 2", second := new_password())
    listed = ClassLedger(klass.address("supervisor")).workstations()
    assert one != two and [(w.name, w.login) for w in listed] == [("Table 1", one), ("Table 2", two)]
    with klass.connect(one, first) as attacker:
        attacker.execute(f"ALTER ROLE {one} SET default_transaction_read_only = on")
        attacker.execute(f"ALTER ROLE {one} PASSWORD 'only-mine-now'")
        for other in (two, "workstation"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                attacker.execute(f"ALTER ROLE {other} PASSWORD 'only-mine-now'")
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                attacker.execute(f"ALTER ROLE {other} SET default_transaction_read_only = on")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            attacker.execute("SELECT enrol_workstation('Table 2', 'SCRAM-SHA-256$x')")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            attacker.execute("SELECT revoke_workstation('Table 2')")
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        klass.connect(one, first)
    path = progress_file(tmp_path / "two.sqlite", {"Bo Chen": 2})
    assert push_all(path, klass, address=klass.address(two, second)) == 2 and klass.count() == 2


def test_a_revoked_workstation_stops_at_once_and_may_be_enrolled_again(tmp_path, klass):
    with klass.connect("instructor") as instructor:
        login = enrol_workstation(instructor, "Table 1", password := new_password())
        with klass.connect(login, password) as station:  # connected before it is revoked
            assert station.execute("SELECT push_attempts('{\"trainees\": [], \"attempts\": []}')"
                                   ).fetchone()[0] == 0
            assert revoke_workstation(instructor, "Table 1") == login
            with pytest.raises(psycopg.OperationalError):  # its session ended with the revocation
                station.execute("SELECT push_attempts('{\"trainees\": [], \"attempts\": []}')")
        with pytest.raises(psycopg.OperationalError):
            klass.connect(login, password)
        with pytest.raises(ClassServerError, match="was revoked already"):
            revoke_workstation(instructor, "Table 1")
        with pytest.raises(ClassServerError, match="no workstation named 'Table 7'"):
            revoke_workstation(instructor, "Table 7")
        listed = workstations(instructor)
        assert [(w.name, w.login, w.revoked is not None) for w in listed] == [("Table 1", login, True)]
        again = new_password()
        assert enrol_workstation(instructor, "Table 1", again) == login
        with pytest.raises(ClassServerError, match="not written as the class writes names"):
            enrol_workstation(instructor, "Table\u200b 2", new_password())
    with klass.connect(login, again) as station:
        assert station.execute("SELECT uid FROM class_info").fetchone()[0]
    with klass.admin() as admin:
        events = admin.execute("SELECT name, event, done_by FROM workstation_logins ORDER BY id").fetchall()
        first = admin.execute("SELECT at FROM workstation_logins ORDER BY id LIMIT 1").fetchone()[0]
        assert events == [("Table 1", "enrolled", "instructor"), ("Table 1", "revoked", "instructor"),
                          ("Table 1", "enrolled", "instructor")]
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"):
            admin.execute("DELETE FROM workstation_logins")
    listed = ClassLedger(klass.address("instructor")).workstations()
    assert [(w.name, w.enrolled, w.revoked) for w in listed] == [("Table 1", first, None)]


def test_only_an_instructor_enrols_lists_or_revokes(klass):
    for login in ("workstation", "supervisor"):
        with pytest.raises(ClassServerError, match=f"refuses this login \\({login}\\)"):
            ClassLedger(klass.address(login)).enrol_workstation("Table 1", new_password())
    with pytest.raises(ClassServerError, match="refuses this login \\(workstation\\)"):
        ClassLedger(klass.address("workstation")).workstations()
    assert ClassLedger(klass.address("supervisor")).workstations() == []
    with klass.connect("workstation") as ws, pytest.raises(psycopg.errors.InsufficientPrivilege):
        ws.execute("SELECT * FROM workstation_logins")


def test_the_class_workstation_command(klass):
    url = klass.address("instructor").url
    done = run_command("class-workstation", "add", "Table 1", "  Table   2 ", "--class", url)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"Workstations enrolled in {klass.database}")
    addresses = dict(ln.strip().split(": ", 1) for ln in lines[1:] if ln.startswith("  "))
    assert set(addresses) == {"Table 1", "Table 2"}
    ledger = ClassLedger(addresses["Table 2"])
    assert ledger.address.user.startswith("workstation_") and ledger.class_uid()
    listed = run_here("class-workstation", "list", "--class", klass.address("supervisor").url)
    assert listed.returncode == 0, listed.stderr
    assert [ln.split()[0:2] for ln in listed.stdout.splitlines()[1:-1]] == [["Table", "1"], ["Table", "2"]]
    assert listed.stdout.splitlines()[-1] == ("The shared workstation login is open: workstations not "
                                              "enrolled join with it.")
    revoked = run_here("class-workstation", "revoke", "Table 2", "--class", url)
    assert revoked.returncode == 0 and "Table 2: revoked" in revoked.stdout
    with pytest.raises(ClassServerError):
        ledger.class_uid()
    again = run_here("class-workstation", "revoke", "Table 2", "--class", url)
    assert again.returncode == 2 and "revoked already" in again.stderr and "Traceback" not in again.stderr
    refused = run_here("class-workstation", "add", "Table 3", "--class", klass.address("workstation").url)
    assert refused.returncode == 2 and "refuses this login (workstation)" in refused.stderr
    empty = run_here("class-workstation", "add", " ", "--class", url)
    assert empty.returncode == 2 and "name cannot be empty" in empty.stderr
    after = run_here("class-workstation", "list", "--class", klass.address("supervisor").url)
    assert [ln.split()[1:3] for ln in after.stdout.splitlines()[1:-1]] == [["1", "enrolled"],
                                                                          ["2", "revoked"]]


# --------------------------------------------------------------------------- locks
def test_no_lock_a_login_holds_holds_up_an_exam_start_a_login_or_an_enrolment(klass, joined):
    """s004's start_exam_attempt and s008's class_login each took an advisory lock, which any
    login may take for the same key and hold for as long as it likes: the classmate's exam start
    (on the app's GUI thread) and the instructor's class-login waited until it let go. Held here
    by the shared login, with every table it or a trainee's login may read locked besides."""
    exam = form()
    give_to_class(joined("instructor"), exam)
    with klass.connect("instructor") as instructor:
        ana = class_login(instructor, "Ana Ruiz", "ana-password")
    keys = ["exam attempts\nSam Lee\n" + exam.uid, "trainee login\nBo Chen", "trainee login\nAna Ruiz"]
    with klass.connect("workstation") as shared, klass.connect(ana, "ana-password") as trainee:
        for key in keys:  # refused since s016 (tests/test_class_server_limits.py): no login takes one
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                shared.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", (key,))
        for attacker in (shared, trainee):
            attacker.execute("BEGIN")
            readable = attacker.execute(
                "SELECT c.relname FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace "
                "AND c.relkind = 'r' AND has_table_privilege(c.oid, 'SELECT')").fetchall()
            for (table,) in readable:
                attacker.execute(f"LOCK TABLE {table} IN ACCESS SHARE MODE")
        assert finishes(sam_starts, joined.seat(), exam) == 1
        assert finishes(sam_starts, joined.seat(), exam) == 2
        with klass.connect("instructor") as instructor:
            assert finishes(class_login, instructor, "Bo Chen", "bo-password").startswith("trainee_")
            assert finishes(class_login, instructor, "Ana Ruiz", "new-password") == ana
            assert finishes(enrol_workstation, instructor, "Table 1", new_password())
    assert [r[3] for r in server_rows(klass, "exam_starts")] == [1, 2]


def test_starts_at_once_are_each_counted_and_none_past_the_allowance(klass, joined):
    """Without the lock, the attempt numbers keep two starts at once apart: of 8 starts of one
    trainee at once at a form that allows 3, three are counted (1, 2, 3) and five refused."""
    exam = form()
    give_to_class(joined("instructor"), exam)
    ledgers = [joined.seat(f"Table {n}") for n in range(8)]  # a login holds 4 connections at most
    barrier = threading.Barrier(len(ledgers))
    got: list = []

    def start(ledger):
        barrier.wait()
        try:
            got.append(sam_starts(ledger, exam))
        except ClassServerError as e:
            got.append(str(e))

    threads = [threading.Thread(target=start, args=(ledger,)) for ledger in ledgers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(WITHIN)
    assert sorted(g for g in got if isinstance(g, int)) == [1, 2, 3]
    refused = [g for g in got if not isinstance(g, int)]
    assert len(refused) == 5 and all("has used 3 of the 3 attempt(s)" in r for r in refused)


def test_a_lock_held_too_long_is_said_in_one_line(klass, joined, monkeypatch):
    """Whatever still makes a call wait (here the server's owner, mid-migration) ends it after
    push.LOCK_WAIT seconds with one line, not a GUI thread waiting for ever."""
    monkeypatch.setitem(push.SESSION, "lock_timeout", "100ms")
    exam = form()
    give_to_class(joined("instructor"), exam)
    with klass.admin() as owner:
        owner.execute("BEGIN")
        owner.execute("LOCK TABLE exam_starts IN ACCESS EXCLUSIVE MODE")
        with pytest.raises(ClassServerError, match=r"is busy: .* nothing was changed, try again"):
            sam_starts(joined.seat(), exam)
        owner.execute("ROLLBACK")
    assert server_rows(klass, "exam_starts") == []


def test_no_function_of_the_class_takes_an_advisory_lock(unchanged_class):
    with unchanged_class.admin() as admin:
        found = admin.execute("SELECT proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace "
                              "AND prosrc ~* 'pg_(try_)?advisory'").fetchall()
    assert found == []


def test_a_row_a_login_keeps_uncommitted_holds_up_a_classmate_only_until_the_server_ends_it(tmp_path, klass):
    """The shared login adds Sam's trainee row (his id read from the shared progress file) in a
    transaction it keeps open: Sam's workstation's push of that row waits on it, for ever had
    nobody ended it. The class server ends a workstation's or trainee's session that holds up
    another (trainer.classes.server.sessions), the staff's never."""
    path = progress_file(tmp_path / "sam.sqlite", {"Sam Lee": 2})
    queue = Queue(path)
    try:
        trainees = queue.trainees()
    finally:
        queue.close()
    with klass.connect("instructor") as staff:
        staff.execute("BEGIN")
        staff.execute("SELECT push_attempts(%s)", (Jsonb({"trainees": trainees, "attempts": []}),))
        pushed = threading.Thread(target=push_all, args=(path, klass), daemon=True)
        pushed.start()
        until(lambda: waiting(klass), what="Sam's push waiting")
        with klass.admin() as admin:
            assert end_holders(admin, held=0) == []  # the staff's session is not ended
        staff.execute("ROLLBACK")
        pushed.join(WITHIN)
    assert not pushed.is_alive() and klass.count() == 2
    path = progress_file(tmp_path / "more.sqlite", {"Sam Lee": 2}, start=5)
    with klass.connect("workstation") as attacker:
        attacker.execute("BEGIN")
        queue = Queue(path)
        try:
            pending = queue.batch("a class", 10)[1]  # Sam's results not sent yet, and his id
        finally:
            queue.close()
        attacker.execute("SELECT push_attempts(%s)", (Jsonb(pending),))
        got: list = []
        pushed = threading.Thread(target=lambda: got.append(push_all(path, klass)), daemon=True)
        pushed.start()
        until(lambda: waiting(klass), what="Sam's push waiting")
        assert holders_ended(klass.server, held=0) == [Ended("workstation", klass.database)]
        pushed.join(WITHIN)
        assert got == [2] and klass.count() == 4
        with pytest.raises(psycopg.OperationalError):
            attacker.execute("COMMIT")


def waiting(klass) -> bool:
    return klass.read("SELECT count(*) FROM pg_locks WHERE NOT granted")[0][0] > 0


# --------------------------------------------------------------------------- announcements
def test_new_attempts_are_announced_to_the_staff_only(tmp_path, klass):
    """LISTEN needs no right: every login heard each attempt's id on the channel every login
    knew. The class's channel is a name only the staff may read."""
    with klass.connect("instructor") as instructor:
        ana = class_login(instructor, "Ana Ruiz", "ana-password")
    stop, heard = threading.Event(), []

    def supervisor_follows():
        for attempt in follow(klass.address("supervisor"), stop, wait=0.05):
            heard.append(attempt)

    follower = threading.Thread(target=supervisor_follows, daemon=True)
    eavesdroppers = {"workstation": klass.connect("workstation"), ana: klass.connect(ana, "ana-password")}
    got: dict[str, list] = {login: [] for login in eavesdroppers}
    try:
        for login, conn in eavesdroppers.items():
            conn.add_notify_handler(lambda n, login=login: got[login].append(n.payload))
            conn.execute("LISTEN class_attempts")
        follower.start()
        until(lambda: _listening(klass), what="the supervisor listening")
        assert push_all(progress_file(tmp_path / "ws.sqlite", {"Sam Lee": 2}), klass) == 2
        until(lambda: len(heard) == 2, what="the supervisor hearing of both attempts")
        for conn in eavesdroppers.values():
            conn.execute("SELECT 1")  # what was announced to it by now is delivered with the answer
        assert got == {"workstation": [], ana: []}
        with klass.admin() as admin:
            channel = admin.execute("SELECT channel FROM class_info").fetchone()[0]
        for conn in eavesdroppers.values():  # the channel's name is nowhere a login can read
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute("SELECT channel FROM class_info")
            assert channel not in conn.execute("SELECT string_agg(prosrc, ' ') FROM pg_proc").fetchone()[0]
            assert channel not in str(conn.execute("SELECT * FROM pg_stat_activity").fetchall())
    finally:
        stop.set()
        follower.join(WITHIN)
        for conn in eavesdroppers.values():
            conn.close()


def _listening(klass) -> bool:
    return klass.read("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                      "AND usename = 'supervisor' AND query LIKE 'LISTEN%%'")[0][0] > 0


def test_the_shared_login_still_joins_a_class_that_enrols_no_workstation(tmp_path, klass):
    address = klass.address("workstation")
    assert with_login(address, "workstation", PASSWORD).user == "workstation"
    assert push_all(progress_file(tmp_path / "ws.sqlite", {"Sam Lee": 1}), klass) == 1


# --------------------------------------------------------------------------- the shared login closed
def test_the_shared_login_closed_connects_and_sends_nothing_and_enrolled_workstations_go_on(tmp_path, klass,
                                                                                           joined):
    """The attack: a trainee at a shared workstation holds the shared login (its password file)
    and a session of it opened before the instructor closes it. Once every workstation is
    enrolled and the shared login closed, that password connects no more, the session still open
    pushes nothing and starts no exam, and a start of the class server (install) does not open it
    again; the enrolled workstations, one of them enrolled after the close, push and start exams."""
    exam = form()
    give_to_class(joined("instructor"), exam)
    instructor = ClassLedger(klass.address("instructor"))
    with pytest.raises(ClassServerError, match="no workstation is enrolled in this class"):
        instructor.close_shared_login()  # every workstation would stop
    assert ClassLedger(klass.address("supervisor")).shared_login().closed is False
    one = with_login(klass.address(), instructor.enrol_workstation("Table 1", first := new_password()), first)
    held = klass.connect("workstation")  # the trainee's session, opened before the close
    try:
        for login in ("workstation", "supervisor"):
            with pytest.raises(ClassServerError, match=f"refuses this login \\({login}\\)"):
                ClassLedger(klass.address(login)).close_shared_login()
        assert instructor.close_shared_login() == 1
        state = ClassLedger(klass.address("supervisor")).shared_login()
        assert state.closed and state.by == "instructor"
        with pytest.raises(psycopg.OperationalError, match="permission denied for database"):
            klass.connect("workstation")
        with pytest.raises(psycopg.OperationalError, match="permission denied for database"):
            push_all(progress_file(tmp_path / "shared.sqlite", {"Sam Lee": 2}), klass)
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="shared workstation login is closed"):
            held.execute("SELECT push_attempts(%s)", (Jsonb({"trainees": [], "attempts": []}),))
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="enrol this workstation"):  # s040
            held.execute("SELECT start_exam_attempt(%s, 'Sam Lee', %s)", (uuid.uuid4().hex, exam.uid))
    finally:
        held.close()
    assert klass.count() == 0 and klass.count("exam_starts") == 0
    klass.install()  # what every start of the class server runs
    with pytest.raises(psycopg.OperationalError, match="permission denied for database"):
        klass.connect("workstation")
    second = new_password()
    two = with_login(klass.address(), instructor.enrol_workstation("Table 2", second), second)
    assert push_all(progress_file(tmp_path / "one.sqlite", {"Bo Chen": 2}), klass, address=one) == 2
    assert push_all(progress_file(tmp_path / "two.sqlite", {"Ana Ruiz": 1}), klass, address=two) == 1
    assert sam_starts(ClassLedger(one), exam) == 1 and sam_starts(ClassLedger(two), exam) == 2
    with pytest.raises(ClassServerError, match="closed already"):
        instructor.close_shared_login()
    instructor.open_shared_login()
    assert push_all(progress_file(tmp_path / "again.sqlite", {"Sam Lee": 1}), klass) == 1
    with klass.admin() as admin:
        assert admin.execute("SELECT event, done_by FROM shared_login_events ORDER BY id").fetchall() == [
            ("closed", "instructor"), ("opened", "instructor")]
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"):
            admin.execute("DELETE FROM shared_login_events")


def test_the_class_servers_start_keeps_the_shared_login_closed_and_says_so(server):
    """A restart puts the shared login's password back (prepare): it must not open it again."""
    address = class_servers_own(server)
    with psycopg.connect(address.format("instructor", PASSWORD), autocommit=True) as instructor:
        enrol_workstation(instructor, "Table 1", new_password())
        close_shared_login(instructor)
    try:
        addresses = prepare(server, say=lambda _: None)
        assert "workstation" not in addresses and set(addresses) == {"instructor", "supervisor"}
        with pytest.raises(psycopg.OperationalError, match="permission denied for database"):
            psycopg.connect(address.format("workstation", PASSWORD))
    finally:
        with psycopg.connect(address.format("instructor", PASSWORD), autocommit=True) as instructor:
            open_shared_login(instructor)  # the test server's class database is every test's
    assert "workstation" in prepare(server, say=lambda _: None)
    with psycopg.connect(address.format("workstation", PASSWORD)) as conn:
        assert conn.execute("SELECT current_user").fetchone()[0] == "workstation"


def test_the_class_workstation_command_closes_and_opens_the_shared_login_when_confirmed(klass):
    url = klass.address("instructor").url
    refused = run_here("class-workstation", "close-shared", "--yes", "--class", url)
    assert refused.returncode == 2 and "no workstation is enrolled" in refused.stderr
    assert run_here("class-workstation", "add", "Table 1", "--class", url).returncode == 0
    unasked = run_command("class-workstation", "close-shared", "--class", url)  # no terminal to ask at
    assert unasked.returncode == 1 and "Nothing was changed." in unasked.stdout
    assert "it connects to this class no more" in unasked.stdout and "Table 1" in unasked.stdout
    assert not ClassLedger(klass.address("supervisor")).shared_login().closed
    done = run_here("class-workstation", "close-shared", "--yes", "--class", url)
    assert done.returncode == 0, done.stderr
    assert "The shared workstation login is closed: the 1 enrolled workstation go on" in done.stdout
    listed = run_here("class-workstation", "list", "--class", klass.address("supervisor").url)
    assert listed.stdout.splitlines()[-1].startswith("The shared workstation login is closed since ")
    with pytest.raises(psycopg.OperationalError, match="permission denied for database"):
        klass.connect("workstation")
    again = run_here("class-workstation", "close-shared", "--yes", "--class", url)
    assert again.returncode == 2 and "closed already" in again.stderr and "Traceback" not in again.stderr
    opened = run_here("class-workstation", "open-shared", "--yes", "--class", url)
    assert opened.returncode == 0 and "is open: workstations not enrolled join" in opened.stdout
    assert klass.connect("workstation").close() is None
