"""The app's settings in layers (ui.shell.config): the defaults, the machine file, the user's own
choices and the command line; a lock; File › Leave class that sticks; a later change of the
machine file seen by whoever has not chosen otherwise; `dealer-trainer config --show`; a bad
machine file said in one line, in the terminal and in the status bar, the app on its defaults;
and File › Settings… showing a locked value as locked."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.command import run_command
from trainer import MachineConfig
from trainer.config import ENV

ROOM = "postgresql://workstation@classroom-2:5432/dealer_class"
OTHER = "postgresql://workstation@classroom-3:5432/dealer_class"


@pytest.fixture
def user(tmp_path):
    """A user's own settings: an INI file of the test's own."""
    from ui.qt import QSettings

    return QSettings(str(tmp_path / "user" / "settings.ini"), QSettings.Format.IniFormat)


def machine(path: Path | None = None, locked=(), **values) -> MachineConfig:
    return MachineConfig(path or Path("/etc/xdg/dealer-trainer/config.toml"), values, frozenset(locked))


def config(user, machine_config=None, **command_line):
    from ui.shell.config import Config

    return Config(user, machine_config, command_line)


def on_disk(user) -> str:
    user.sync()
    return Path(user.fileName()).read_text(encoding="utf-8") if Path(user.fileName()).exists() else ""


# --------------------------------------------------------------------------- the layers
def test_each_layer_lies_over_the_one_before(user):
    c = config(user)
    assert (c.value("theme"), c.source("theme")) == ("light", "default")
    c = config(user, machine(theme="dark"))
    assert (c.value("theme"), c.source("theme")) == ("dark", "/etc/xdg/dealer-trainer/config.toml")
    user.setValue("view/theme", "light")
    c = config(user, machine(theme="dark"))
    assert (c.value("theme"), c.source("theme")) == ("light", "user settings")
    c = config(user, machine(class_address=ROOM), class_address=OTHER)
    assert (c.value("class_address"), c.source("class_address")) == (OTHER, "command line")


def test_a_locked_key_keeps_the_machines_value_over_the_user_and_the_command_line(user):
    user.setValue("view/theme", "light")
    user.setValue("class/address", OTHER)
    c = config(user, machine(theme="dark", class_address=ROOM, locked=["theme", "class_address"]),
               class_address=OTHER)
    assert c.value("theme") == "dark" and c.locked("theme")
    assert c.value("class_address") == ROOM and c.source("class_address").endswith("config.toml")
    assert not c.choose("theme", "light") and c.value("theme") == "dark"
    [note] = c.notes
    assert note.startswith("class_address is locked by /etc/xdg/dealer-trainer/config.toml")
    assert not c.locked("large_print")


def test_a_key_locked_without_a_value_is_locked_at_the_default(user):
    user.setValue("view/large_print", True)  # chosen before IT locked it
    c = config(user, machine(locked=["large_print"]))
    assert c.value("large_print") is False and c.locked("large_print")
    assert not c.choose("large_print", True)


def test_a_choice_the_same_as_the_schools_is_no_choice_so_a_later_change_is_seen(user):
    c = config(user, machine(theme="dark"))
    assert c.choose("theme", "dark") and "theme" not in on_disk(user)
    later = config(user, machine(theme="light"))  # IT changes the file
    assert later.value("theme") == "light"
    later.choose("theme", "dark")  # this user chooses otherwise: it sticks
    assert config(user, machine(theme="light")).value("theme") == "dark"
    later.forget("theme")
    assert config(user, machine(theme="light")).source("theme").endswith("config.toml")


def test_leave_class_sticks_though_the_machine_file_names_a_class(user):
    c = config(user, machine(class_address=ROOM))
    assert c.value("class_address") == ROOM
    assert c.choose("class_address", "")
    for address in (ROOM, OTHER):  # the next start, and after IT moves the class
        again = config(user, machine(class_address=address))
        assert again.value("class_address") == "" and again.source("class_address") == "user settings"
    again.choose("class_address", OTHER.replace("workstation@", "workstation:pw@"))  # joined again
    assert "class/address" not in on_disk(user), "the machine's class: followed, not copied"


def test_a_users_setting_that_is_no_value_of_its_key_is_no_choice(user):
    """The user's settings are the user's to edit: what is not a value is passed over."""
    for key, junk in [("view/theme", "purple"), ("view/large_print", "maybe"),
                      ("data/folder", "relative/folder"), ("class/address", "http://x"),
                      ("view/theme", 7)]:
        user.setValue(key, junk)
    c = config(user, machine(theme="dark"))
    assert c.value("theme") == "dark" and c.value("large_print") is False
    assert c.source("data_folder") == "default" and Path(str(c.value("data_folder"))).is_absolute()
    assert c.value("class_address") == ""


def test_the_data_folder_holds_the_progress_file_and_db_wins_unless_locked(user, tmp_path):
    c = config(user, machine(data_folder=str(tmp_path / "school")))
    assert c.progress_file() == tmp_path / "school" / "progress.db"
    assert c.progress_file(str(tmp_path / "mine.db")) == tmp_path / "mine.db"
    locked = config(user, machine(data_folder=str(tmp_path / "school"), locked=["data_folder"]))
    assert locked.progress_file(str(tmp_path / "mine.db")) == tmp_path / "school" / "progress.db"


# --------------------------------------------------------------------------- config --show
def show(tmp_path, text: str | None, *args: str):
    path = tmp_path / "machine" / "config.toml"
    if text is not None:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return run_command("config", "--show", *args, env={ENV: str(path)}), path


def rows(stdout: str) -> dict[str, list[str]]:
    """config --show's table: each key's cells, split on the runs of spaces between columns."""
    import re

    return {line.split()[0]: re.split(r"\s{2,}", line.strip())[1:]
            for line in stdout.splitlines() if not line.startswith("machine file:")}


def test_config_show_prints_each_value_its_source_and_its_lock(tmp_path):
    text = (f'class_address = "{ROOM.replace("workstation@", "workstation:s3cret@")}"\n'
            'theme = "dark"\nlocked = ["class_address"]\n')
    done, path = show(tmp_path, text, "--db", str(tmp_path / "run" / "p.db"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == f"machine file: {path} (read)"
    table = rows(done.stdout)
    assert table["class_address"] == [ROOM, str(path), "locked"]
    assert table["theme"] == ["dark", str(path)]
    assert table["large_print"] == ["false", "default"]
    assert table["data_folder"] == [str(tmp_path / "run"), "command line"]
    assert "s3cret" not in done.stdout + done.stderr


def test_config_show_with_no_machine_file(tmp_path):
    done, path = show(tmp_path, None)
    assert done.returncode == 0
    assert f"machine file: {path} (not found)" in done.stdout
    assert rows(done.stdout)["theme"] == ["light", "default"]


def test_config_show_names_a_bad_files_line_and_problem_and_shows_the_defaults(tmp_path):
    done, path = show(tmp_path, 'theme = "dark"\nlarge_print = "yes"\n')
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line.startswith(f"The machine's settings file was not used: {path}, line 2: large_print "
                           "must be true or false, not 'yes'")
    assert "Traceback" not in done.stderr
    assert rows(done.stdout)["theme"] == ["light", "default"]
    assert done.stdout.splitlines()[0] == f"machine file: {path} (not used)"


# --------------------------------------------------------------------------- the app
@pytest.fixture
def started(monkeypatch, tmp_path):
    """The app's real start (ui.shell.app.run) with the machine file `write` makes: the trainee
    dialog answered with the file's first trainee, the event loop not entered; its window."""
    from ui.qt import QApplication
    from ui.shell.app import run
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    def choose(self, parent=None):
        self.trainee = self.store.trainees()[0]
        return True

    monkeypatch.setattr(Services, "choose_trainee", choose)
    monkeypatch.setattr(QApplication, "exec", lambda self: 0)
    windows = []

    def start(text: str, *args, **kwargs):
        path = tmp_path / "machine" / "config.toml"
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        monkeypatch.setenv(ENV, str(path))
        assert run(*args, **kwargs) == 0
        [window] = [w for w in QApplication.topLevelWidgets()
                    if isinstance(w, MainWindow) and w.isVisible() and w not in windows]
        windows.append(window)
        return window

    yield start
    for w in windows:
        w.close()
    from ui.shell import theme

    theme.apply(QApplication.instance(), "light")


def a_file_with_ana(folder: Path) -> Path:
    from trainer.progress import Store

    with Store.open(folder / "progress.db") as store:
        store.add_trainee("Ana")
    return folder / "progress.db"


def test_the_app_keeps_its_progress_in_the_machines_data_folder(qtbot, tmp_path, started):
    made = a_file_with_ana(tmp_path / "school")
    w = started(f"data_folder = '{tmp_path / 'school'}'\n")
    assert Path(w.services.store.path) == made and w.services.trainee_name == "Ana"
    assert (tmp_path / "school" / "installation.key").exists(), "the exam key beside it"


def test_a_bad_machine_file_says_so_in_the_status_bar_and_the_app_starts_on_its_defaults(
        qtbot, tmp_path, started, capsys):
    from ui.qt import QApplication

    db = a_file_with_ana(tmp_path / "mine")
    w = started('theme = "dark"\nlocked = ["theem"]\n', db=str(db))
    said = w.statusBar().currentMessage()
    w.statusBar().showMessage("The progress file was checked and nothing in it is damaged.")
    assert not w.settings_note.isHidden() and w.settings_note.text().startswith(
        "The machine's settings file was not used: the app uses its defaults")  # it stays
    assert w.settings_note.toolTip() == said
    w.open_settings()
    assert w.settings_dialog.problem.text() == said and not w.settings_dialog.problem.isHidden()
    w.settings_dialog.close()
    assert said.startswith("The machine's settings file was not used: ")
    assert "config.toml, line 2: locked names an unknown key 'theem'" in said
    assert said.endswith("the app uses its defaults.")
    assert QApplication.instance().property("theme") == "light", "the file's dark theme is not used"
    assert "line 2" in capsys.readouterr().err


def test_a_locked_theme_is_the_apps_and_the_view_menu_cannot_change_it(qtbot, tmp_path, started):
    from ui.qt import QApplication
    from ui.shell.config import user_settings

    mine = user_settings()
    mine.setValue("view/theme", "light")  # this user's choice, before IT locked it
    mine.sync()
    db = a_file_with_ana(tmp_path / "mine")
    w = started('theme = "dark"\nlocked = ["theme"]\n', db=str(db))
    assert QApplication.instance().property("theme") == "dark"
    light = w.theme_actions["light"]
    assert not light.isEnabled() and light.statusTip().startswith("Locked by ")
    w.set_theme("light")  # as a shortcut or a script would: refused
    assert QApplication.instance().property("theme") == "dark"
    mine.remove("view/theme")


def test_the_settings_dialog_shows_a_locked_value_as_locked(qtbot, tmp_path, user):
    from ui.qt import QApplication, Qt
    from ui.shell.config import Config
    from ui.shell.services import Services
    from ui.shell.settings import SettingsDialog
    from ui.shell.window import MainWindow

    path = tmp_path / "config.toml"
    c = Config(user, MachineConfig(path, {"theme": "dark", "large_print": True}, frozenset({"large_print"})))
    w = MainWindow(Services(None), settings=user, config=c)
    qtbot.addWidget(w)
    w.show()
    w.open_settings()
    dialog = w.settings_dialog
    assert isinstance(dialog, SettingsDialog)
    qtbot.waitExposed(dialog)
    assert dialog.large_print.isChecked() and not dialog.large_print.isEnabled()
    assert dialog.origins["large_print"].text() == f"Locked by your school ({path})"
    assert not dialog.resets["large_print"].isVisible()
    assert not w.large_print_action.isEnabled()
    w.set_locked(True)  # an exam starts, and ends
    w.set_locked(False)
    assert not w.large_print_action.isEnabled(), "still locked after an exam"
    # the theme is the school's, not locked: the user changes it, and can follow the school again
    assert dialog.theme.isEnabled() and dialog.origins["theme"].text() == f"Set by your school ({path})"
    dialog.theme.setFocus()
    qtbot.keyClick(dialog.theme, Qt.Key.Key_Up)  # Dark → Light, as a user picks it
    assert dialog.theme.currentData() == "light"
    assert QApplication.instance().property("theme") == "light"
    assert dialog.origins["theme"].text() == "Your choice" and c.user("theme") == "light"
    assert dialog.resets["theme"].isVisible() and dialog.resets["theme"].text() == "Follow the school"
    qtbot.mouseClick(dialog.resets["theme"], Qt.MouseButton.LeftButton)
    assert QApplication.instance().property("theme") == "dark"
    assert dialog.origins["theme"].text() == f"Set by your school ({path})"
    assert c.user("theme") is None and not dialog.resets["theme"].isVisible()
    dialog.close()
    from ui.shell import theme

    theme.apply(QApplication.instance(), "light")


# --------------------------------------------------------------------------- each way around a lock
SCHOOL = {"class_address": "", "data_folder": "/srv/school", "theme": "dark", "large_print": True}


def test_a_lock_holds_against_the_users_own_settings_file_edited(user, tmp_path):
    """The attack: the user's settings are theirs to edit (an INI file here, the registry on
    Windows): every key written there by hand, and every key keeps the machine's value."""
    Path(user.fileName()).parent.mkdir(parents=True, exist_ok=True)
    Path(user.fileName()).write_text(
        f"[view]\ntheme=light\nlarge_print=false\n[class]\naddress={OTHER}\n"
        f"[data]\nfolder={tmp_path / 'mine'}\n", encoding="utf-8")
    from ui.qt import QSettings

    edited = QSettings(user.fileName(), QSettings.Format.IniFormat)
    assert edited.value("view/theme") == "light", "the edit is what Qt reads"
    c = config(edited, machine(locked=list(SCHOOL), **SCHOOL))
    for key, value in SCHOOL.items():
        assert (c.value(key), c.source(key)) == (value, "/etc/xdg/dealer-trainer/config.toml"), key
    assert c.progress_file() == Path("/srv/school/progress.db")


def test_a_lock_holds_against_the_command_line(user, tmp_path):
    c = config(user, machine(locked=list(SCHOOL), **SCHOOL), class_address=OTHER,
               data_folder=str(tmp_path))
    assert c.value("class_address") == "" and c.value("data_folder") == "/srv/school"
    assert c.progress_file(str(tmp_path / "mine.db")) == Path("/srv/school/progress.db")
    assert [n.split(" is locked by ")[0] for n in c.notes] == ["class_address", "data_folder"]


@pytest.mark.parametrize("given", ["", "mine"])
def test_a_lock_holds_against_the_environment(user, tmp_path, monkeypatch, given):
    """DEALER_TRAINER_CONFIG emptied, or naming a file of the user's: the computer's own file is
    read all the same, and the app says the variable was not used."""
    import trainer.config
    from ui.shell.config import load

    own = tmp_path / "etc" / "config.toml"
    own.parent.mkdir()
    own.write_text('theme = "dark"\nlocked = ["theme"]\n', encoding="utf-8")
    mine = tmp_path / "mine.toml"
    mine.write_text('theme = "light"\n', encoding="utf-8")
    monkeypatch.setattr(trainer.config, "own_place", lambda platform=None: own)
    monkeypatch.setenv(ENV, str(mine) if given else "")
    c = load(settings=user)
    assert (c.value("theme"), c.locked("theme"), c.source("theme")) == ("dark", True, str(own))
    assert c.notes == [f"{ENV} is not used: this computer's own settings file {own} is read, "
                       "whatever the environment says."]


def test_the_app_started_every_way_around_its_locks_keeps_the_schools_values(qtbot, tmp_path, started):
    """The real start: the user's settings edited, --db and --class given; the machine file locks
    the theme, large print, the data folder and no class. The menus say each is locked."""
    from ui.qt import QApplication
    from ui.shell.config import user_settings
    from ui.shell.window import LOCKED

    mine = user_settings()
    for key, value in (("view/theme", "light"), ("view/large_print", False), ("class/address", OTHER)):
        mine.setValue(key, value)
    mine.sync()
    school = tmp_path / "school"
    a_file_with_ana(school)
    elsewhere = a_file_with_ana(tmp_path / "mine")
    try:
        from trainer.classes import class_address

        w = started(f"theme = 'dark'\nlarge_print = true\ndata_folder = '{school}'\nclass_address = ''\n"
                    f"locked = ['theme', 'large_print', 'data_folder', 'class_address']\n",
                    db=str(elsewhere), class_address=class_address(ROOM))
        app = QApplication.instance()
        assert app.property("theme") == "dark" and app.property("large_print") is True
        assert Path(w.services.store.path) == school / "progress.db"
        assert w.services.classroom is None, "--class: not joined, the class is locked at none"
        for action in (w.theme_actions["light"], w.large_print_action):
            assert not action.isEnabled() and action.text().endswith(LOCKED), action.text()
        assert w.settings_note.text() == "A setting of the command line was not used (File › Settings…)"
    finally:
        for key in ("view/theme", "view/large_print", "class/address"):
            mine.remove(key)
        mine.sync()


# --------------------------------------------------------------------------- Qt's older machine-wide settings
def older_file(folder: Path, text: str):
    """Qt's machine-wide settings as a school pushed them before the machine file: the INI file
    Qt's system scope reads on Linux."""
    from ui.qt import QSettings

    path = folder / "Dealer Trainer" / "Dealer Trainer.conf"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return QSettings(str(path), QSettings.Format.IniFormat)


def test_a_class_pushed_through_qts_older_machine_settings_is_still_joined_under_the_machine_file(
        user, tmp_path):
    from ui.shell.config import Config, show

    older = older_file(tmp_path, f"[class]\naddress={ROOM}\n[view]\ntheme=purple\n")
    c = Config(user, machine(), {}, older)
    assert (c.value("class_address"), c.source("class_address")) == (ROOM, older.fileName())
    assert c.source("theme") == "default", "a value the key cannot hold is passed over"
    assert (f"older machine settings: {older.fileName()} (read under the machine file: class_address; "
            "move them to config.toml)") in show(c).splitlines()
    assert Config(user, machine(class_address=OTHER), {}, older).value("class_address") == OTHER
    assert c.choose("class_address", "")  # File › Leave class sticks over it too
    assert Config(user, machine(), {}, older).value("class_address") == ""
    assert c.choose("class_address", ROOM) and "class/address" not in on_disk(user), "followed, not copied"


def test_config_show_names_qts_older_machine_settings(tmp_path):
    older = older_file(tmp_path / "xdg", f"[class]\naddress={ROOM}\n")
    done = run_command("config", "--show", env={ENV: str(tmp_path / "none.toml"),
                                                 "XDG_CONFIG_DIRS": str(tmp_path / "xdg")})
    assert done.returncode == 0, done.stderr
    assert f"older machine settings: {older.fileName()} (read under" in done.stdout
    assert rows(done.stdout)["class_address"] == [ROOM, older.fileName()]
