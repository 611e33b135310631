"""The machine-wide config file (trainer.config): where each OS keeps it, read strictly, and a
file that cannot be used named in one line with its line and problem, never a traceback."""

from __future__ import annotations

import os
from pathlib import Path, PureWindowsPath

import pytest

from trainer.config import ENV, ConfigError, machine_config, own_place, places, read

GOOD = """\
# pushed to every PC of room 2 by IT
class_address = "postgresql://workstation@classroom-2:5432/dealer_class"
data_folder = "/srv/dealer-trainer"
theme = "dark"
large_print = true
locked = ["class_address", "theme"]
"""


def written(tmp_path: Path, text: str | bytes, name: str = "config.toml") -> Path:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


# --------------------------------------------------------------------------- the places
def test_on_linux_the_file_is_under_etc_xdg_whatever_xdg_config_dirs_says(monkeypatch, tmp_path):
    """$XDG_CONFIG_DIRS is the user's to set: a folder of theirs first would be read instead of
    the school's, and its locks gone."""
    own = Path("/etc/xdg/dealer-trainer/config.toml")
    assert own_place("linux") == own
    monkeypatch.setenv("XDG_CONFIG_DIRS", f"{tmp_path}:/etc/xdg")
    assert places("linux", {"XDG_CONFIG_DIRS": f"{tmp_path}:/etc/xdg"}) == [own]


def test_on_windows_the_file_is_in_programdata(monkeypatch):
    """Simulated: platformdirs asks Windows for its common application data folder
    (CSIDL_COMMON_APPDATA, C:\\ProgramData); the answer stands in for the call."""
    import platformdirs.windows

    asked = []
    monkeypatch.setattr(platformdirs.windows, "get_win_folder",
                        lambda name: asked.append(name) or "C:\\ProgramData")
    [path] = places("win32", {})
    assert asked == ["CSIDL_COMMON_APPDATA"]
    assert PureWindowsPath(path) == PureWindowsPath(r"C:\ProgramData\Dealer Trainer\config.toml")


def test_on_macos_the_file_is_in_the_library_whatever_the_environment_says():
    """platformdirs would look in $XDG_CONFIG_DIRS and Homebrew's prefix first on macOS too."""
    place = Path("/Library/Application Support/Dealer Trainer/config.toml")
    assert own_place("darwin") == place
    assert places("darwin", {"XDG_CONFIG_DIRS": "/tmp", "HOMEBREW_PREFIX": "/tmp"}) == [place]


def test_the_environment_variable_names_the_one_file_and_empty_names_none(tmp_path):
    """Only where the computer has no file of its own: a trial, the tests."""
    absent = tmp_path / "absent" / "config.toml"
    assert places("linux", {ENV: str(tmp_path / "c.toml")}, own=absent) == [tmp_path / "c.toml"]
    assert places("win32", {ENV: ""}, own=absent) == []
    assert places("linux", {}, own=absent) == [absent]


@pytest.mark.parametrize("given", ["", "mine.toml"])
def test_the_computers_own_file_is_read_whatever_the_environment_names(tmp_path, given):
    """The attack: DEALER_TRAINER_CONFIG set to nothing, or to a file of the user's, and the
    school's locks were gone. The computer's own file is read, and the variable passed over is said."""
    own = written(tmp_path, GOOD, "school.toml")
    mine = written(tmp_path, 'theme = "light"\n')
    environ = {ENV: str(mine) if given else ""}
    assert places("linux", environ, own=own) == [own]
    found = machine_config(own=own, environ=environ)
    assert found.path == own and found.locked == {"class_address", "theme"}
    assert found.passed_over == (f"{ENV} is not used: this computer's own settings file {own} is read, "
                                 "whatever the environment says")
    assert machine_config(own=own, environ={}).passed_over is None
    assert machine_config(own=own, environ={ENV: str(own)}).passed_over is None


def test_the_first_file_found_is_read_and_the_others_are_not(tmp_path):
    first = written(tmp_path, 'theme = "dark"\n', "first.toml")
    second = written(tmp_path, 'theme = "light"\nlarge_print = true\n', "second.toml")
    found = machine_config([tmp_path / "absent.toml", first, second])
    assert found.path == first and dict(found.values) == {"theme": "dark"} and found.problem is None
    none = machine_config([tmp_path / "absent.toml"])
    assert none.path is None and not none.values and none.problem is None


# --------------------------------------------------------------------------- a good file
def test_a_good_file_gives_its_values_and_locks(tmp_path):
    values, locked = read(written(tmp_path, GOOD))
    assert values == {"class_address": "postgresql://workstation@classroom-2:5432/dealer_class",
                      "data_folder": "/srv/dealer-trainer", "theme": "dark", "large_print": True}
    assert locked == {"class_address", "theme"}


def test_a_data_folder_expands_the_home_and_environment_variables(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("SCHOOL_DATA", "/srv/school")
    values, _ = read(written(tmp_path, 'data_folder = "~/Dealer Trainer"\n'))
    assert values["data_folder"] == str(tmp_path / "home" / "Dealer Trainer")
    values, _ = read(written(tmp_path, "data_folder = '${SCHOOL_DATA}/dealer'\n"))
    assert values["data_folder"] == "/srv/school/dealer"


LOCKED_WITH_A_VARIABLE = [
    # (the data folder as written, what the user would set)
    ("~/Dealer Trainer", "~"),
    ("$HOME/Dealer Trainer", "$HOME"),
    ("/srv/${SCHOOL_DATA}/dealer", "${SCHOOL_DATA}"),
    ("%LOCALAPPDATA%/Dealer Trainer", "%LOCALAPPDATA%"),
    ("D:/Dealer Trainer/%USERNAME%", "%USERNAME%"),
]


@pytest.mark.parametrize(("folder", "variable"), LOCKED_WITH_A_VARIABLE)
def test_a_locked_data_folder_with_a_variable_the_user_sets_is_refused(tmp_path, monkeypatch, folder,
                                                                         variable):
    """The trainee sets the variable (HOME, SCHOOL_DATA, LOCALAPPDATA: each user's environment is
    their own) and a locked folder written with it would follow, their data moved elsewhere: the
    file is refused in one line naming the variable, and none of its locks is taken for granted.
    Unlocked, the same folder is the user's to move anyway, and is expanded."""
    for name in ("HOME", "SCHOOL_DATA", "LOCALAPPDATA", "USERNAME"):
        monkeypatch.setenv(name, str(tmp_path / "elsewhere"))
    path = written(tmp_path, f"theme = 'dark'\ndata_folder = '{folder}'\nlocked = ['data_folder', 'theme']\n")
    found = machine_config([path])
    assert found.problem == (f"{path}, line 2: data_folder is locked, so it is written whole: "
                             f"{variable!r} is the user's to set, and would move the folder (write the "
                             "folder itself, or do not lock it)")
    assert not found.values and not found.locked
    if not variable.startswith("%") or os.name == "nt":  # %NAME% is a variable on Windows only
        values, locked = read(written(tmp_path, f"data_folder = '{folder}'\n", "unlocked.toml"))
        assert str(tmp_path / "elsewhere") in values["data_folder"] and not locked


def test_a_locked_data_folder_written_whole_stays_whatever_the_user_sets(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "elsewhere"))
    path = written(tmp_path, "data_folder = '/srv/dealer-trainer'\nlocked = ['data_folder']\n")
    values, locked = read(path)
    assert values == {"data_folder": "/srv/dealer-trainer"} and locked == {"data_folder"}


def test_an_empty_class_address_is_no_class(tmp_path):
    values, locked = read(written(tmp_path, 'class_address = ""\nlocked = ["class_address"]\n'))
    assert values == {"class_address": ""} and locked == {"class_address"}


# --------------------------------------------------------------------------- bad files
BAD = [
    # (the file, its line, words of the problem)
    ('theme = "purple"\n', 1, "theme must be one of 'dark', 'light', not 'purple'"),
    ('\nlarge_print = "yes"\n', 2, "large_print must be true or false, not 'yes'"),
    ("theme = 1\n", 1, "theme must be a string in quotes, not 1"),
    ('thme = "dark"\n', 1, "unknown key 'thme'"),
    ('theme = "dark"\ntheme = "light"\n', 2, "is not valid TOML"),
    ('theme = "dark\n', 1, "is not valid TOML"),
    ('data_folder = "C:\\Dealer"\n', 1, "is not valid TOML"),  # a backslash in a basic string
    ('data_folder = "relative/folder"\n', 1, "data_folder: 'relative/folder' is not a whole path"),
    ('data_folder = ""\n', 1, "data_folder: is empty"),
    ('\n\nclass_address = "http://classroom/db"\n', 3, "does not start with postgresql://"),
    ('locked = "theme"\n', 1, "locked must be a list of key names"),
    ('theme = "dark"\nlocked = ["theme", "colour"]\n', 2, "locked names an unknown key 'colour'"),
    ("[view]\ntheme = 'dark'\n", 1, "unknown key 'view'"),
    (b'theme = "dark"\n# caf\xe9\n', 2, "is not UTF-8 text"),
]


@pytest.mark.parametrize(("text", "line", "problem"), BAD)
def test_a_bad_file_is_one_line_naming_the_file_the_line_and_the_problem(tmp_path, text, line, problem):
    path = written(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        read(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}, line {line}: "), message
    assert problem in message, message
    found = machine_config([path])
    assert found.problem == message and not found.values and not found.locked and found.path == path


def test_a_password_in_a_bad_class_address_is_not_repeated(tmp_path):
    path = written(tmp_path, 'class_address = "postgres://ws:s3cret@host:notaport/db"\n')
    with pytest.raises(ConfigError) as caught:
        read(path)
    assert "s3cret" not in str(caught.value) and "line 1" in str(caught.value)


def test_a_huge_file_a_folder_and_an_unreadable_name_are_each_one_line(tmp_path):
    huge = written(tmp_path, "# padding\n" * 20_000)
    assert "larger than 64 KiB" in machine_config([huge]).problem
    folder = tmp_path / "config.toml.d"
    folder.mkdir()
    assert machine_config([folder]).problem == f"{folder}: is not a file"
    if hasattr(os, "mkfifo"):  # a pipe is refused before it is opened: reading it would wait for good
        pipe = tmp_path / "pipe.toml"
        os.mkfifo(pipe)
        assert machine_config([pipe]).problem == f"{pipe}: is not a file"
    unnamable = machine_config([tmp_path / "bad\x00name.toml"])  # no file can have it: none found
    assert unnamable.path is None and unnamable.problem is None


def test_hostile_variants_of_a_good_file_are_each_read_or_one_line(tmp_path):
    """A few hundred broken copies of a good file (tests/support/hostile.py): each is read whole
    or refused with one line naming the file; never another exception."""
    from tests.support.hostile import Mutator

    mutator = Mutator(24)
    path = tmp_path / "config.toml"
    refused = 0
    for _ in range(300):
        path.write_bytes(mutator.toml_bytes(GOOD))
        found = machine_config([path])
        if found.problem is not None:
            refused += 1
            assert found.problem.startswith(f"{path}") and "\n" not in found.problem
            assert not found.values and not found.locked
        else:
            assert set(found.values) <= {"class_address", "data_folder", "theme", "large_print"}
    assert refused > 100, "most variants are broken"


@pytest.mark.parametrize(("text", "problem"), [
    ("theme = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
    ("large_print = " + "9" * 5000 + "\n", "a number too long to read"),
])
def test_what_the_toml_parser_itself_chokes_on_is_one_line(tmp_path, text, problem):
    found = machine_config([written(tmp_path, text)])
    assert found.problem == f"{tmp_path / 'config.toml'}: is not valid TOML ({problem})"
