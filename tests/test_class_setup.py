"""`dealer-trainer class-setup` on a school's own PostgreSQL (a cluster of the test's own, not the
class-server's): an administrator with CREATEROLE and CREATEDB and nothing more, a pg_hba.conf
that says md5 (and md5 passwords by default), two classes side by side whose logins never reach
each other, a server that says it is too old (a TCP proxy that rewrites the server_version the
server announces: the real server is 16), and each connection failure said in words.

No test depends on how fast anything is."""

from __future__ import annotations

import contextlib
import shutil
import socket
import struct
import threading
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from tests.support.class_server import cluster, free_port, progress_file, server_folder
from trainer.classes.errors import ClassServerError, LoginRefusedError
from trainer.classes.server.failures import said
from trainer.classes.server.postgres import Postgres
from trainer.classes.workstation.address import class_address
from trainer.classes.workstation.connection import ClassConnection, ClassLedger, with_login
from trainer.cli import main

ADMIN, ADMIN_PASSWORD = "school_admin", "school-admin-password"
#: a school's server: passwords proven by md5 over TCP, and md5 what a password is kept as
MD5_HBA = "local all all trust\nhost all all all md5\n"


@pytest.fixture(scope="module")
def school():
    """A PostgreSQL as a school runs it: md5 in pg_hba.conf, and an administrator role that is
    no superuser (CREATEROLE CREATEDB, what a managed service gives)."""
    folder = server_folder("dealer-trainer-school-")
    folder.chmod(0o755)
    cluster(folder / "pg")
    server = Postgres(folder / "pg", port=free_port())
    server.start()
    try:
        (server.pgdata / "pg_hba.conf").write_text(MD5_HBA)
        with psycopg.connect(server.admin_dsn(), autocommit=True) as su:
            su.execute("ALTER SYSTEM SET password_encryption = 'md5'")
            su.execute("SELECT pg_reload_conf()")
            su.execute("SET password_encryption = 'md5'")  # this session's: the reload comes later
            su.execute(f"CREATE ROLE {ADMIN} LOGIN CREATEROLE CREATEDB PASSWORD '{ADMIN_PASSWORD}'")
            assert su.execute(f"SELECT rolpassword LIKE 'md5%' FROM pg_authid WHERE rolname = '{ADMIN}'"
                              ).fetchone()[0], "the server keeps md5 passwords"
        yield server
    finally:
        server.crash()
        shutil.rmtree(folder, ignore_errors=True)


def admin_url(server: Postgres, user: str = ADMIN, password: str = ADMIN_PASSWORD,
              port: int | None = None) -> str:
    return f"postgresql://{user}:{password}@127.0.0.1:{port or server.port}/postgres"


def setup(capsys, server, name: str, logins: Path, *more: str) -> tuple[int, str, str]:
    code = main(["class-setup", "--admin", admin_url(server), "--class", name, "--logins", str(logins),
                 *more])
    out, err = capsys.readouterr()
    return code, out, err


def addresses(out: str) -> dict[str, str]:
    """The addresses class-setup printed: workstation, instructor, supervisor."""
    found = {}
    for line in out.splitlines():
        for kind, start in (("workstation", "  dealer-trainer --class "),
                            ("instructor", "The instructor's address: "),
                            ("supervisor", "The supervisor's address: ")):
            if line.startswith(start):
                found[kind] = line[len(start):].strip()
    return found


def printed(capsys, school, name, folder) -> dict[str, str]:
    code, out, err = setup(capsys, school, name, folder / f"{name}.json")
    assert code == 0, err
    return addresses(out)


# --------------------------------------------------------------------------- an administrator
def test_an_administrator_that_is_no_superuser_makes_a_class_and_runs_again(capsys, school, tmp_path):
    with psycopg.connect(admin_url(school)) as admin:
        assert admin.execute("SELECT NOT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()[0]
    code, out, err = setup(capsys, school, "first_class", tmp_path / "logins.json")
    assert code == 0, err
    first = addresses(out)
    assert set(first) == {"workstation", "instructor", "supervisor"}
    assert first["instructor"].startswith("postgresql://first_class_instructor:")
    assert first["instructor"].endswith(f"@127.0.0.1:{school.port}/first_class")
    # what only a superuser may do is printed for the server's administrator, as SQL
    assert "GRANT pg_signal_backend TO class_owner;" in out
    assert (tmp_path / "logins.json").stat().st_mode & 0o077 == 0
    with psycopg.connect(first["instructor"]) as conn:  # an md5 pg_hba.conf: proven by SCRAM
        assert conn.execute("SELECT count(*) FROM class_info").fetchone()[0] == 1
        assert conn.execute("SELECT count(*) FROM exam_forms_given").fetchone()[0] > 0
    # idempotent: the same addresses, nothing applied
    code, out, err = setup(capsys, school, "first_class", tmp_path / "logins.json")
    assert code == 0, err
    assert addresses(out) == first
    assert "nothing to change" in out


def test_what_the_superuser_is_asked_to_do_is_not_asked_once_done(capsys, school, tmp_path):
    code, out, _ = setup(capsys, school, "guarded_class", tmp_path / "logins.json")
    assert code == 0 and "Left to the server's administrator" in out
    sql = "\n".join(line[4:] for line in out.splitlines() if line.startswith("    "))
    with psycopg.connect(school.admin_dsn("guarded_class"), autocommit=True) as su:
        su.execute(sql.encode())
    code, out, _ = setup(capsys, school, "guarded_class", tmp_path / "logins.json")
    assert code == 0 and "Left to the server's administrator" not in out
    with psycopg.connect(school.admin_dsn("guarded_class"), autocommit=True) as su:
        assert not su.execute("SELECT has_function_privilege('public', 'pg_advisory_lock(bigint)', "
                              "'EXECUTE')").fetchone()[0]


@pytest.mark.parametrize(("change", "says"), [
    ("NOCREATEDB", "needs CREATEDB (a superuser gives them with: ALTER ROLE poor_admin CREATEDB)"),
    ("NOCREATEROLE", "needs CREATEROLE"),
])
def test_an_administrator_without_a_right_is_told_which(capsys, school, tmp_path, change, says):
    with psycopg.connect(school.admin_dsn(), autocommit=True) as su:
        su.execute("DROP ROLE IF EXISTS poor_admin")
        su.execute("CREATE ROLE poor_admin LOGIN CREATEROLE CREATEDB PASSWORD 'poor-password'")
        su.execute(f"ALTER ROLE poor_admin {change}")
    code = main(["class-setup", "--admin", admin_url(school, "poor_admin", "poor-password"), "--class",
                 "poor_class", "--logins", str(tmp_path / "l.json")])
    _, err = capsys.readouterr()
    assert code == 2
    assert says in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("url", "says"), [
    ("postgresql://school_admin:wrong-password@127.0.0.1:{port}/postgres",
     "the server refuses the password of the login school_admin"),
    ("postgresql://school_admin:x@127.0.0.1:{free}/postgres",
     "the server cannot be reached: nothing answers at its address and port"),
    ("postgresql://school_admin:school-admin-password@127.0.0.1:{port}/no_such_db",
     "the server has no class database no_such_db"),
])
def test_each_failure_of_the_administrator_is_one_line(capsys, school, tmp_path, url, says):
    code = main(["class-setup", "--admin", url.format(port=school.port, free=free_port()),
                 "--logins", str(tmp_path / "l.json")])
    _, err = capsys.readouterr()
    assert code == 2 and err.strip().splitlines() == [err.strip()]
    assert says in err


def test_a_bad_class_name_is_one_line(capsys, school, tmp_path):
    code = main(["class-setup", "--admin", admin_url(school), "--class", "Robert'); DROP", "--logins",
                 str(tmp_path / "l.json")])
    _, err = capsys.readouterr()
    assert code == 2 and "is not a class name" in err


# --------------------------------------------------------------------------- two classes
def test_two_classes_on_one_server_never_reach_each_other(capsys, school, tmp_path):
    a = printed(capsys, school, "room_a", tmp_path)
    b = printed(capsys, school, "room_b", tmp_path)
    # class A's instructor gives a trainee a login and enrols a workstation, as a class does
    ledger_a = ClassLedger(a["instructor"])
    trainee = ledger_a.class_login("Ana Ruiz", "ana-password-1")
    station = ledger_a.enrol_workstation("Table 1", "table-password-1")
    logins_a = {"workstation": class_address(a["workstation"]),
                "instructor": class_address(a["instructor"]),
                "supervisor": class_address(a["supervisor"]),
                "trainee": with_login(class_address(a["workstation"]), trainee, "ana-password-1"),
                "enrolled workstation": with_login(class_address(a["workstation"]), station,
                                                   "table-password-1")}
    # class B closes its shared login and opens it again: that gives the right back to B's own
    # shared login, never to the group every class's workstations are in
    ledger_b = ClassLedger(b["instructor"])
    ledger_b.enrol_workstation("Table 9", "table-password-9")
    ledger_b.close_shared_login()
    ledger_b.open_shared_login()
    for who, address in logins_a.items():
        with psycopg.connect(address.url) as conn:  # each of A's logins is in class A
            assert conn.execute("SELECT current_database()").fetchone()[0] == "room_a", who
        into_b = with_login(class_address(b["workstation"]), address.user, address.password)
        with pytest.raises(psycopg.OperationalError, match="permission denied for database") as e:
            psycopg.connect(into_b.url)
        assert said(e.value, address.user, "room_b") == \
            f"the login {address.user} may not connect to the class database room_b", who
    # and B's shared workstation still joins B, and pushes there
    path = progress_file(tmp_path / "ws.db", {"Bo": 2})
    conn = ClassConnection(str(path), b["workstation"])
    try:
        conn.send_now()
    finally:
        conn.close()
    with psycopg.connect(b["instructor"]) as staff:
        assert staff.execute("SELECT count(*) FROM attempts").fetchone()[0] == 2


# --------------------------------------------------------------------------- md5
def test_a_trainee_logs_in_on_an_md5_server_whatever_the_address_requires(capsys, school, tmp_path):
    a = printed(capsys, school, "md5_class", tmp_path)
    login = ClassLedger(a["instructor"]).class_login("Sam Lee", "sam-password-1")
    # a workstation's address written for a server of md5 logins (the app otherwise asks SCRAM)
    workstation = class_address(a["workstation"] + "?require_auth=md5,scram-sha-256")
    assert ClassLedger(workstation).signed_in(login, "sam-password-1").login_of("Sam Lee") == login
    only_md5 = class_address(a["workstation"] + "?require_auth=md5")
    assert ClassLedger(only_md5).signed_in(login, "sam-password-1").login_of("Sam Lee") == login
    with pytest.raises(LoginRefusedError, match="refuses the password of the login"):
        ClassLedger(only_md5).signed_in(login, "not-her-password").login_of("Sam Lee")


# --------------------------------------------------------------------------- too old
class VersionProxy:
    """A TCP proxy to a PostgreSQL that says another server_version in its ParameterStatus (the
    connection is otherwise the server's own). The client must not ask for SSL or GSS
    encryption (sslmode=disable, gssencmode=disable), so that every message after the startup
    is a typed one."""

    def __init__(self, port: int, version: str):
        self.target, self.version = port, version.encode()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target))
            threading.Thread(target=self._pipe, args=(client, server), daemon=True).start()
            threading.Thread(target=self._rewrite, args=(server, client), daemon=True).start()

    @staticmethod
    def _pipe(src, dst):
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                dst.sendall(data)
        with contextlib.suppress(OSError):
            dst.shutdown(socket.SHUT_WR)

    def _rewrite(self, src, dst):
        buffer = b""
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                buffer += data
                out = b""
                while len(buffer) >= 5:
                    kind, length = buffer[:1], struct.unpack("!I", buffer[1:5])[0]
                    if len(buffer) < 1 + length:
                        break
                    body, buffer = buffer[5:1 + length], buffer[1 + length:]
                    if kind == b"S" and body.startswith(b"server_version\0"):
                        body = b"server_version\0" + self.version + b"\0"
                    out += kind + struct.pack("!I", len(body) + 4) + body
                dst.sendall(out)
        with contextlib.suppress(OSError):
            dst.shutdown(socket.SHUT_WR)

    def close(self):
        self.listener.close()


@pytest.fixture
def old_server(school):
    proxy = VersionProxy(school.port, "15.4 (Debian 15.4-2.pgdg120+1)")
    yield proxy
    proxy.close()


def test_a_server_older_than_16_is_said_in_one_line(capsys, school, tmp_path, old_server):
    plain = "sslmode=disable&gssencmode=disable"
    code = main(["class-setup", "--admin", f"{admin_url(school, port=old_server.port)}?{plain}",
                 "--class", "old_class", "--logins", str(tmp_path / "l.json")])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.strip() == "needs PostgreSQL 16 or newer, this server is 15.4"
    # a workstation of a class on it: the pusher's status and a call say the same
    a = printed(capsys, school, "young_class", tmp_path)
    proxied = a["workstation"].replace(f":{school.port}/", f":{old_server.port}/") + f"?{plain}"
    with pytest.raises(ClassServerError, match=r"needs PostgreSQL 16 or newer, this server is 15\.4"):
        ClassLedger(proxied).login_of("Ana")
    direct = ClassLedger(a["workstation"] + f"?{plain}")
    assert direct.login_of("Ana") is None  # the same server, unproxied, is 16: the proxy says 15.4


# --------------------------------------------------------------------------- each failure, in words
def test_each_failure_of_a_workstation_is_said_in_words(capsys, school, tmp_path):
    a = printed(capsys, school, "words_class", tmp_path)
    ws = class_address(a["workstation"])
    with psycopg.connect(school.admin_dsn(), autocommit=True) as su:
        su.execute("DROP ROLE IF EXISTS crowded_login")
        su.execute("SET password_encryption = 'scram-sha-256'")  # as the class's own logins are
        su.execute("CREATE ROLE crowded_login LOGIN CONNECTION LIMIT 0 PASSWORD 'crowded-password'")
        su.execute("GRANT CONNECT ON DATABASE words_class TO crowded_login")
    cases = {
        "refused password": (with_login(ws, ws.user, "not-the-password"),
                             f"the class server refuses the password of the login {ws.user}"),
        "no class database": (class_address(a["workstation"].rpartition("/")[0] + "/no_class"),
                              "the class server has no class database no_class"),
        "full server": (with_login(ws, "crowded_login", "crowded-password"),
                        "the class server is full: no connection free for the login crowded_login "
                        "(too many connections for role \"crowded_login\")"),
        "unreachable": (class_address(a["workstation"].replace(f":{school.port}/", f":{free_port()}/")),
                        "the class server cannot be reached: nothing answers at its address and port"),
    }
    for what, (address, words) in cases.items():
        path = progress_file(tmp_path / f"{what}.db", {"Ana": 1})
        conn = ClassConnection(str(path), address, poll=0.05, backoff=(0.05, 0.5))
        try:
            with pytest.raises(ClassServerError) as e:
                conn.send_now()
            assert "\n" not in str(e.value)
            conn.start()
            waited = threading.Event()
            for _ in range(1200):  # a guard against a hang only
                if conn.problem is not None:
                    break
                waited.wait(0.05)
            assert conn.problem == words, what
        finally:
            conn.close()


def test_export_results_names_the_address_it_wants(capsys, school, tmp_path):
    with pytest.raises(SystemExit):
        main(["export-results", "--help"])
    out, _ = capsys.readouterr()
    assert "join a class" not in out and "instructor's or the supervisor's login" in " ".join(out.split())
    a = printed(capsys, school, "export_class", tmp_path)
    code = main(["export-results", "--class", a["workstation"], "--format", "csv", "--out",
                 str(tmp_path / "out.csv")])
    _, err = capsys.readouterr()
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "the login export_class_workstation may not read the class" in err
    assert "give the instructor's or the supervisor's address" in err


@pytest.mark.parametrize(("logins", "says"), [
    (b"{not json", "cannot read the class's logins in"),
    (b'{"room_x_instructor": 7}', "is not a class's logins file"),
    (b"[1, 2]", "is not a class's logins file"),
])
def test_a_damaged_logins_file_is_one_line_and_changes_nothing(capsys, school, tmp_path, logins, says):
    path = tmp_path / "logins.json"
    path.write_bytes(logins)
    code, _, err = setup(capsys, school, "damaged_class", path)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1
    assert path.read_bytes() == logins
    with psycopg.connect(school.admin_dsn(), autocommit=True) as su:
        made = su.execute("SELECT count(*) FROM pg_roles WHERE rolname LIKE 'damaged_class%'").fetchone()
    assert made == (0,)


@pytest.mark.parametrize("url", ["not an address", "postgresql://[::1", "host=127.0.0.1 port=notaport"])
def test_an_administrator_address_that_is_none_is_one_line(capsys, tmp_path, url):
    code = main(["class-setup", "--admin", url, "--logins", str(tmp_path / "l.json")])
    _, err = capsys.readouterr()
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err


# --------------------------------------------------------------------------- the watch
def test_class_setup_watches_the_class_as_class_server_does(capsys, school, tmp_path):
    """A class made by a non-superuser administrator is watched as class-server's is
    (`class-setup --watch`, the same looks): a default a workstation's or a trainee's login gave
    itself is reset at once; a session that holds up another is ended once the server's
    administrator has run the SQL class-setup printed for it (pg_signal_backend for the owner,
    pg_read_all_stats for the administrator), and not before; the logins' connection limits are
    class-server's. The watch here lets a session hold another for HOLD seconds, not the app's
    5 (sessions.HELD): what it proves of holding is the same at either length."""
    from psycopg.types.json import Jsonb

    from tests.support.class_server import until
    from trainer.classes.server.logins import SHARED_CONNECTIONS, class_login
    from trainer.classes.server.setup import watch_class

    with psycopg.connect(school.admin_dsn(), autocommit=True) as su:  # as a school's server starts
        su.execute(f"REVOKE pg_read_all_stats FROM {ADMIN}")
        if su.execute("SELECT 1 FROM pg_roles WHERE rolname = 'class_owner'").fetchone():  # an earlier test's
            su.execute("REVOKE pg_signal_backend FROM class_owner")
    code, out, err = setup(capsys, school, "watched", tmp_path / "logins.json")
    assert code == 0, err
    assert f'    GRANT pg_read_all_stats TO "{ADMIN}";' in out
    assert "GRANT pg_signal_backend TO class_owner;" in out
    assert "run this again with --watch" in out
    made = addresses(out)
    with psycopg.connect(made["instructor"], autocommit=True) as instructor:
        dee = class_login(instructor, "Dee", "dee-password-1234")
    with psycopg.connect(school.admin_dsn(), autocommit=True) as su:
        limits = dict(su.execute("SELECT rolname, rolconnlimit FROM pg_roles WHERE rolname IN (%s, %s)",
                                 ("watched_workstation", dee)).fetchall())
    assert limits == {"watched_workstation": SHARED_CONNECTIONS, dee: 4}

    said: list[str] = []
    stop = threading.Event()
    hold = 1.0
    watch = threading.Thread(target=watch_class, args=(admin_url(school), stop, said.append, 0.05, hold))
    watch.start()
    workstation = made["workstation"]
    trainee_row = {"uid": "d" * 32, "name": "Tra 1", "created": 1.8e9, "archived": 0,
                   "archived_at": None, "instructor": 0}
    holder, waiter = (psycopg.connect(workstation, autocommit=True) for _ in range(2))
    try:
        for login, address in (("watched_workstation", workstation),
                               (dee, make_conninfo(workstation, user=dee, password="dee-password-1234"))):
            with psycopg.connect(address, autocommit=True) as conn:
                conn.execute("ALTER ROLE CURRENT_USER SET enable_indexscan = off")
            until(lambda login=login: f"Reset the defaults the login {login} set for its sessions (only "
                  "the staff's may have any)." in said, what=f"{login}'s default reset")

        def hold_and_wait() -> None:
            holder.execute("BEGIN")
            holder.execute("SELECT push_attempts(%s)", (Jsonb({"trainees": [trainee_row],
                                                                "attempts": []}),))
            threading.Thread(target=lambda: waiter.execute(
                "SELECT push_attempts(%s)", (Jsonb({"trainees": [trainee_row], "attempts": []}),)),
                daemon=True).start()

        hold_and_wait()
        held_up = ("SELECT count(*) FROM pg_locks WHERE NOT granted AND pid = %s "
                   "AND waitstart < clock_timestamp() - make_interval(secs => %s)")
        with psycopg.connect(school.admin_dsn(), autocommit=True) as su:
            until(lambda: su.execute(held_up, (waiter.info.backend_pid, hold + 1)).fetchone()[0] > 0,
                  what="the waiter held up a second longer than the watch lets a session hold another")
        assert not [line for line in said if line.startswith("Ended")], "not without the rights"
        assert holder.execute("SELECT 1").fetchone() == (1,), "the holder is there still"
        dba = "\n".join(line[4:] for line in out.splitlines() if line.startswith("    "))
        with psycopg.connect(school.admin_dsn("watched"), autocommit=True) as su:
            su.execute(dba.encode())
        until(lambda: "Ended a session of the login watched_workstation (watched): it held up another for "
              "more than 1 s." in said, what="the holder ended")
        with pytest.raises(psycopg.OperationalError):
            holder.execute("SELECT 1")
        code, out, err = setup(capsys, school, "watched", tmp_path / "logins.json")
        assert code == 0 and "Left to the server's administrator" not in out
    finally:
        stop.set()
        watch.join(30)
        holder.close()
        waiter.close()
    assert not watch.is_alive()
