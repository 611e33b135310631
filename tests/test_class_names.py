"""Names a person reads as one name are one name in the class, on a real PostgreSQL (s017;
trainer.progress.names): the first cold review's look-alike attack, a classmate whose
workstation registers "Аna Ruiz" (a Cyrillic А) beside "Ana Ruiz" so that the exports and
certificates read as hers, through the real push path; the same refused from a trainee's own
login, by class_login, and by the New trainee dialog before the profile is made. The data the
server holds is the app's (trainer/progress/lookalikes.py), so both refuse the same names."""

from __future__ import annotations

import sqlite3
import threading
import time

import psycopg
import pytest
from psycopg.types.json import Jsonb

from tests.support.class_server import Class, attempt, progress_file, push_all
from trainer.classes import ClassServerError
from trainer.classes.server import tables
from trainer.classes.server.logins import class_login
from trainer.classes.workstation.connection import ClassLedger
from trainer.classes.workstation.queue import Queue
from trainer.progress import Store
from trainer.progress.lookalikes import CASED, FOLD, SCRIPTS
from trainer.progress.names import mixed_scripts, skeleton

ANA = "Ana Ruiz"
#: the migration before s017: a class of the version before
BEFORE = tables.known()[tables.known().index("s017_confusable_names") - 1]
CYRILLIC_A = "\u0410na Ruiz"


def patched_workstation(path, name: str, attempts: int = 2):
    """A progress file whose trainee a patched app named `name` (the app refuses a mixed name):
    made as Bo, renamed in the file."""
    progress_file(path, {"Bo": attempts})
    with sqlite3.connect(path) as db:
        db.execute("UPDATE trainees SET name = ? WHERE name = 'Bo'", (name,))
    db.close()
    return path


def refused(path, klass: Class) -> list[str]:
    uid = klass.read("SELECT uid FROM class_info")[0][0]
    queue = Queue(path)
    try:
        return [why for _, why in queue.refused(uid)]
    finally:
        queue.close()


def server_names(klass: Class) -> list[str]:
    return sorted(name for (name,) in klass.read("SELECT name FROM trainees"))


def trainee_row(uid: str, name: str) -> dict:
    return {"uid": uid, "name": name, "created": 1.8e9, "archived": 0, "archived_at": None, "instructor": 0}


def test_a_classmates_look_alike_of_ana_is_refused_through_the_real_push(tmp_path, klass):
    """The attack: Ana's workstation sends her results; a classmate's (its app patched) sends
    results under "Аna Ruiz". Before s017 the class took both, and the exports read as two
    Ana Ruiz. Now the look-alike trainee is refused at push, with every attempt of theirs set
    aside in their file, named; Ana's are the class's only Ana Ruiz."""
    ana = progress_file(tmp_path / "ana.db", {ANA: 2})
    assert push_all(ana, klass) == 2
    attacker = patched_workstation(tmp_path / "bo.db", CYRILLIC_A, 3)
    assert push_all(attacker, klass) == 0
    why = f"'{CYRILLIC_A}' looks like '{ANA}', already in the class"
    assert len(refused(attacker, klass)) == 3
    assert all(r.startswith("trainee ") and r.endswith(why) for r in refused(attacker, klass))
    assert server_names(klass) == [ANA] and klass.count() == 2


@pytest.mark.parametrize(("spelling", "why"), [
    ("\u0391na Ruiz", "looks like 'Ana Ruiz'"),                  # Greek Α
    ("An\u0430 Ru\u0456z", "looks like 'Ana Ruiz'"),             # Cyrillic а and і
    ("ana ruiz", "looks like 'Ana Ruiz'"),                       # case
    ("ANA RUIZ", "looks like 'Ana Ruiz'"),
    ("Ana\u034f Ruiz", "looks like 'Ana Ruiz'"),                 # a combining grapheme joiner
    ("Ana Ruiz\ufe0f", "looks like 'Ana Ruiz'"),                 # a variation selector
    ("\uff21\uff4e\uff41 \uff32\uff55\uff49\uff5a", "not written as the class writes names"),  # full width
    ("An\u200da Ruiz", "not written as the class writes names"),  # a zero-width joiner
    ("lan Ruiz", "looks like 'Ian Ruiz'"),                       # a small l for a capital I
    ("\u039d\u0399\u039a\u039f", "looks like 'NIKO'"),              # Greek capitals
    ("\u0410nna Lee", "mixes Latin and Cyrillic letters"),       # no clash, two alphabets
    ("\u0391nna Lee", "mixes Latin and Greek letters"),
])
def test_every_spelling_that_reads_as_another_name_is_refused_with_the_workstations_login(
        tmp_path, klass, spelling, why):
    ana = progress_file(tmp_path / "ana.db", {ANA: 1, "Ian Ruiz": 1, "NIKO": 1})
    assert push_all(ana, klass) == 3
    with klass.connect("workstation") as conn, pytest.raises(psycopg.errors.CheckViolation) as e, \
            conn.transaction():
        conn.execute("SELECT push_attempts(%s)", (Jsonb({"trainees": [trainee_row("e" * 32, spelling)],
                                                         "attempts": []}),))
    first = str(e.value).splitlines()[0]
    assert first.startswith(f"refused trainee {'e' * 32}: ") and why in first, first
    assert server_names(klass) == [ANA, "Ian Ruiz", "NIKO"]


@pytest.mark.parametrize("name", ["Анна", "Ελένη", "Анна Иванова", "Ana Ruíz", "Anna Ruiz", "李小龍"])
def test_a_name_in_one_alphabet_that_reads_as_nobody_elses_joins(tmp_path, klass, name):
    assert push_all(progress_file(tmp_path / "ana.db", {ANA: 1}), klass) == 1
    assert push_all(progress_file(tmp_path / "other.db", {name: 2}), klass) == 2
    assert server_names(klass) == sorted([ANA, name])


def test_one_trainee_from_two_workstations_is_one_name_not_a_clash(tmp_path, klass):
    assert push_all(progress_file(tmp_path / "one.db", {ANA: 1}), klass) == 1
    assert push_all(progress_file(tmp_path / "two.db", {ANA: 2}, start=5), klass) == 2
    assert server_names(klass) == [ANA, ANA]


def test_the_look_alike_is_refused_to_a_login_and_by_class_login(tmp_path, klass):
    """The instructor gives no login to a look-alike name; a trainee's own login pushes its own
    name only (s008), so a look-alike login never exists to push with."""
    assert push_all(progress_file(tmp_path / "ana.db", {ANA: 1}), klass) == 1
    with klass.connect("instructor") as instructor:
        why = f"'{CYRILLIC_A}' looks like '{ANA}', already in the class"
        with pytest.raises(ClassServerError, match=why):
            class_login(instructor, CYRILLIC_A, "a-password-for-bo")
        with pytest.raises(ClassServerError, match="mixes Latin and Cyrillic"):
            class_login(instructor, "\u0410nna Lee", "a-password-for-bo")
        assert class_login(instructor, ANA, "ana-password-1234").startswith("trainee_")
    with klass.admin() as conn:
        assert [n for (n,) in conn.execute("SELECT name FROM trainee_logins")] == [ANA]


def test_a_login_made_first_holds_the_name_for_the_pushes(tmp_path, klass):
    """A login made before any result: a look-alike pushed after it is refused (without the
    name it looks like, which the workstation's login does not serve: s023)."""
    with klass.connect("instructor") as instructor:
        class_login(instructor, ANA, "ana-password-1234")
    attacker = patched_workstation(tmp_path / "bo.db", "ana ruiz", 1)
    assert push_all(attacker, klass) == 0
    assert refused(attacker, klass)[0].endswith("'ana ruiz' looks like a name already in the class")


def test_two_look_alikes_pushed_at_once_one_is_refused(tmp_path, klass):
    """Ana's push holds its transaction open; the look-alike's push waits on the name's row and is
    refused once Ana's is committed (never both taken because neither saw the other)."""
    outcome = {}
    with klass.connect("workstation") as first:
        first.execute("BEGIN")
        first.execute("SELECT push_attempts(%s)", (Jsonb({"trainees": [trainee_row("a" * 32, ANA)],
                                                          "attempts": []}),))

        def second():
            with klass.connect("workstation") as conn:
                try:
                    with conn.transaction():
                        conn.execute("SELECT push_attempts(%s)", (Jsonb(
                            {"trainees": [trainee_row("b" * 32, CYRILLIC_A)], "attempts": []}),))
                    outcome["second"] = "taken"
                except psycopg.Error as e:
                    outcome["second"] = str(e).splitlines()[0]

        thread = threading.Thread(target=second)
        thread.start()
        deadline = time.monotonic() + 30
        with klass.admin() as admin:  # the second waits on the lock of the name's row
            while time.monotonic() < deadline and not admin.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'").fetchone()[0]:
                time.sleep(0.05)
        first.execute("COMMIT")
        thread.join(30)
    assert outcome["second"].endswith(f"'{CYRILLIC_A}' looks like '{ANA}', already in the class")
    assert server_names(klass) == [ANA]


def test_a_class_that_held_a_pair_before_keeps_taking_both(tmp_path, server):
    """A class made before s017 took Ana and her look-alike. The migration keeps the first of
    each skeleton (Ana, pushed first); both trainees' later attempts are still taken, and a new
    profile of the look-alike (a third workstation) is refused."""
    old = Class(server, upto=BEFORE)
    assert push_all(progress_file(tmp_path / "ana.db", {ANA: 1}), old) == 1
    attacker = patched_workstation(tmp_path / "bo.db", CYRILLIC_A, 1)
    assert push_all(attacker, old) == 1
    assert "s017_confusable_names" in old.install()
    with old.admin() as conn:
        assert conn.execute("SELECT skeleton, cased, name FROM class_names ORDER BY cased").fetchall() == [
            ("ana ruiz", False, ANA), ("Ana Ruiz", True, ANA)]
    assert push_all(progress_file(tmp_path / "ana.db", {ANA: 1}, start=1), old) == 1
    with Store.open(attacker) as store:
        store.record_attempt(store_attempt(store, 7))
    assert push_all(attacker, old) == 1
    third = patched_workstation(tmp_path / "third.db", CYRILLIC_A, 1)
    assert push_all(third, old) == 0
    assert old.count() == 4


def store_attempt(store, n: int):
    return attempt(store.trainees()[0].id, n)


def test_any_login_asks_which_name_a_new_one_reads_as(tmp_path, klass):
    assert push_all(progress_file(tmp_path / "ana.db", {ANA: 1}), klass) == 1
    ledger = ClassLedger(klass.address("workstation"))
    assert ledger.look_alike(CYRILLIC_A) == ANA
    assert ledger.look_alike("ana ruiz") == ANA
    assert ledger.look_alike("An\u0430 Ru\u0131z") == ANA  # a Cyrillic а, a dotless ı: as written
    assert ledger.look_alike(ANA) is None  # her own name: no clash
    assert ledger.look_alike("Sam Lee") is None
    assert ledger.look_alike("A" * 50_000) is None  # no name of the class is that long


def test_the_server_holds_the_apps_data(klass):
    """The frozen fold and scripts of s017 are trainer/progress/lookalikes.py's: the server's
    skeleton and scripts of every character the fold names, and of names, are the app's."""
    with klass.admin() as conn:
        assert conn.execute("SELECT name_fold(), name_fold_cased()").fetchone() == (FOLD, CASED)
        names = [*FOLD, *CASED, ANA, CYRILLIC_A, "Ελένη Παπαδοπούλου", "Анна", "Zoë O'Brien", "rn m", "lan"]
        got = conn.execute("SELECT n, name_skeleton(n), name_skeleton(n, true), name_scripts(n) "
                           "FROM unnest(%s::text[]) AS n", (names,)).fetchall()
        assert {n: (f, w) for n, f, w, _ in got} == {n: (skeleton(n), skeleton(n, cased=True)) for n in names}
        assert {n: len(s) > 1 for n, _, _, s in got} == {n: bool(mixed_scripts(n)) for n in names}
        for script, ranges in SCRIPTS.items():
            edges = [c for a, b in ranges for c in (a - 1, a, b, b + 1) if c and not 0xD800 <= c <= 0xDFFF]
            held = dict(conn.execute(f"SELECT c, name_has_{script.lower()}(chr(c)) "
                                     "FROM unnest(%s::int[]) AS c", (edges,)).fetchall())
            assert held == {c: any(a <= c <= b for a, b in ranges) for c in edges}, script


def test_the_new_trainee_dialog_names_the_clash_in_one_line(qtbot, tmp_path, klass, monkeypatch):
    """At a workstation of the class: "Аna Ruiz" is refused before the profile is made, naming
    Ana, in one line; so is a look-alike of a trainee of this file, and a name mixing alphabets.
    A name of nobody else's is added."""
    from ui.qt import QInputDialog, QPushButton
    from ui.shell.profiles import ProfileDialog

    assert push_all(progress_file(tmp_path / "ana.db", {ANA: 1}), klass) == 1
    store = Store.open(tmp_path / "bo.db")
    dialog = ProfileDialog(store, classroom=ClassLedger(klass.address("workstation")))
    qtbot.addWidget(dialog)
    dialog.show()
    [new] = [b for b in dialog.findChildren(QPushButton) if b.text() == "New trainee…"]
    typed = iter([CYRILLIC_A, "ana ruiz", "Bo Lee", "B\u043e Lee", "\u0410nna Lee"])
    monkeypatch.setattr(QInputDialog, "getText", lambda *_args, **_kw: (next(typed), True))
    said = []
    for n in range(5):
        qtbot.mouseClick(new, qtbot_left())
        said.append(dialog.message.text())
        qtbot.wait(50)  # a message that wraps: the dialog grows to hold it
        dialog.grab().save(str(tmp_path / f"dialog-{n}.png"))  # to look at
    assert said == [f"Not added: '{CYRILLIC_A}' looks like '{ANA}', already in the class: the first "
                    "letter is Cyrillic \u0410, not Latin A.",
                    f"Not added: 'ana ruiz' looks like '{ANA}', already in the class: the first "
                    "letter is Latin small a, not Latin capital A; the fifth letter is Latin small "
                    "r, not Latin capital R.",
                    "",
                    "Not added: 'B\u043e Lee' looks like 'Bo Lee', already on this workstation: the "
                    "second letter is Cyrillic \u043e, not Latin o.",
                    "Not added: '\u0410nna Lee' mixes Latin and Cyrillic letters, which read alike."]
    assert [t.name for t in store.trainees()] == ["Bo Lee"]
    dialog.close()
    store.close()


def qtbot_left():
    from ui.qt import Qt

    return Qt.MouseButton.LeftButton


def test_switch_trainee_in_a_class_asks_the_class(qtbot, tmp_path, klass, monkeypatch):
    """The dialog the app opens (Switch trainee…) at a workstation that joined a class asks that
    class; before any class is joined it asks the file only."""
    from types import SimpleNamespace

    from ui.shell import profiles
    from ui.shell.services import Services

    assert push_all(progress_file(tmp_path / "ana.db", {ANA: 1}), klass) == 1
    opened = []

    def shown(dialog):
        opened.append(dialog._in_class(CYRILLIC_A))
        return 0

    monkeypatch.setattr(profiles.ProfileDialog, "exec", shown)
    store = Store.open(tmp_path / "bo.db")
    services = Services(store)
    services.choose_trainee()
    services.classroom = SimpleNamespace(connection=ClassLedger(klass.address("workstation")))
    services.choose_trainee()
    assert opened == [None, f"'{CYRILLIC_A}' looks like '{ANA}', already in the class: the first "
                            "letter is Cyrillic \u0410, not Latin A"]
    store.close()
