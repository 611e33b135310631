"""The machine-wide configuration: what a school's IT person sets once for every user of a
computer, in a TOML file at the OS's machine-wide place (`own_place`), which no environment
variable moves:

- Linux: `/etc/xdg/dealer-trainer/config.toml`;
- Windows: `Dealer Trainer\\config.toml` in the common application data folder Windows names
  (`C:\\ProgramData`);
- macOS: `/Library/Application Support/Dealer Trainer/config.toml`.

Where that file exists it is the one read, whatever the environment says, so its locks hold for
every user. On a computer without one, `DEALER_TRAINER_CONFIG` may name a file instead (a trial,
the tests; empty: none): there no lock is set that it could lift (`places`).

Its keys (`KEYS`) are the app's settings a school pushes to a classroom, and `locked = [...]`
names the keys a user cannot change. The app
reads this file before the user's own settings and lays the user's choices on top (ui.shell.config
holds the layers); this module only reads the file, strictly: a file that cannot be used is a
ConfigError of one line naming the file, the line and the problem, and the app then starts with
its defaults."""

from __future__ import annotations

import os
import re
import stat
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from trainer.errors import OneLine
from trainer.paths import resources_dir

NAME = "config.toml"
ENV = "DEALER_TRAINER_CONFIG"  # the one machine file instead of the OS's places (tests, a trial)
#: the folder's name under the machine-wide place: Linux's lower-case custom, the others' title
FOLDER = {"linux": "dealer-trainer", "win32": "Dealer Trainer", "darwin": "Dealer Trainer"}
LONGEST = 64 * 1024  # bytes: a file of settings is a few lines; a larger one is not this file
LOCKED = "locked"


@dataclass(frozen=True)
class Key:
    name: str
    kind: type
    meaning: str  # for `config --show`'s readers and the README


#: the settings a machine file may give, in the order `config --show` prints them
KEYS: dict[str, Key] = {k.name: k for k in (
    Key("class_address", str, "the class server's postgresql:// address the workstation joins at start "
                              "(an empty string: no class)"),
    Key("data_folder", str, "the folder of the progress file, the installation key and the sittings "
                            "seen (a folder on this computer's own disk; ~ and environment variables "
                            "are expanded, unless it is locked: then it is written whole)"),
    Key("theme", str, "the app's theme"),
    Key("large_print", bool, "larger words everywhere"),
)}


class ConfigError(OneLine):
    """A configuration file that cannot be used: the file, the line (when known) and the problem."""

    def __init__(self, path: str | os.PathLike, problem: str, line: int | None = None):
        where = f"{os.fspath(path)}, line {line}" if line else os.fspath(path)
        super().__init__(f"{where}: {problem}")
        self.path = os.fspath(path)
        self.line = line


@dataclass(frozen=True)
class MachineConfig:
    """What the machine file gives: `path` the file found (None when none was), its `values`
    and `locked` keys; `problem` the one line when the file found could not be used (then
    nothing of it is used); `looked` every place looked at; `passed_over` the line saying that
    DEALER_TRAINER_CONFIG was set and not used."""

    path: Path | None = None
    values: Mapping[str, object] = field(default_factory=dict)
    locked: frozenset[str] = frozenset()
    problem: str | None = None
    looked: tuple[Path, ...] = ()
    passed_over: str | None = None


def themes() -> tuple[str, ...]:
    """The themes the app has: one style sheet each in resources/theme."""
    return tuple(sorted(p.stem for p in (resources_dir() / "theme").glob("*.qss")))


def own_place(platform: str = sys.platform) -> Path:
    """The OS's machine-wide place of the file, which no environment variable moves: Windows'
    common application data folder as Windows itself names it (platformdirs asks the shell for
    it, not %PROGRAMDATA%), macOS's /Library/Application Support, elsewhere XDG's system folder
    /etc/xdg (not each of $XDG_CONFIG_DIRS: a user sets those)."""
    folder = FOLDER.get(platform, FOLDER["linux"])
    if platform == "win32":
        from platformdirs.windows import Windows

        return Path(Windows(appname=folder, appauthor=False).site_config_dir) / NAME
    if platform == "darwin":
        return Path("/Library/Application Support") / folder / NAME
    return Path("/etc/xdg") / folder / NAME


def places(platform: str = sys.platform, environ: Mapping[str, str] = os.environ,
           own: Path | None = None) -> list[Path]:
    """The machine files looked for: the OS's own place (`own`, by default `own_place`) when a
    file is there, whatever the environment says; else the one `DEALER_TRAINER_CONFIG` names
    (none when it is empty), else the OS's place."""
    own = own_place(platform) if own is None else own
    if not _found(own) and ENV in environ:
        return [Path(environ[ENV])] if environ[ENV] else []
    return [own]


def machine_config(looked: list[Path] | None = None, *, own: Path | None = None,
                   environ: Mapping[str, str] = os.environ) -> MachineConfig:
    """The first machine file of `looked` (by default `places()`) that exists, read; one that
    cannot be used gives its problem and nothing else. DEALER_TRAINER_CONFIG set where the OS's
    own file is read is said (`passed_over`)."""
    passed_over = None
    if looked is None:
        looked = places(environ=environ, own=own)
        if ENV in environ and looked and looked[0] != Path(environ[ENV] or "."):
            passed_over = (f"{ENV} is not used: this computer's own settings file {looked[0]} is "
                           "read, whatever the environment says")
    for path in looked:
        if not _found(path):
            continue
        try:
            values, locked = read(path)
        except ConfigError as e:
            return MachineConfig(path, problem=str(e), looked=tuple(looked), passed_over=passed_over)
        return MachineConfig(path, values, locked, None, tuple(looked), passed_over)
    return MachineConfig(looked=tuple(looked), passed_over=passed_over)


def _found(path: Path) -> bool:
    try:
        return path.exists() or path.is_symlink()
    except OSError:  # a path the OS cannot even look at (NUL, too long): found, and refused
        return True


def read(path: Path) -> tuple[dict[str, object], frozenset[str]]:
    """The file's values and locked keys; ConfigError names the line and the problem."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a pipe would hold the start up for good
            raise ConfigError(path, "is not a file")
        with open(path, "rb") as f:
            data = f.read(LONGEST + 1)
    except OSError as e:
        raise ConfigError(path, f"cannot be read ({e.strerror or e})") from None
    if len(data) > LONGEST:
        raise ConfigError(path, f"is larger than {LONGEST // 1024} KiB, so not a settings file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError(path, "is not UTF-8 text", data[:e.start].count(b"\n") + 1) from None
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        reason = str(e).split(" (at ", 1)[0]
        raise ConfigError(path, f"is not valid TOML ({reason})",
                          getattr(e, "lineno", None) or _line_of_message(str(e))) from None
    except RecursionError:  # arrays or tables nested deeper than the parser goes
        raise ConfigError(path, "is not valid TOML (nested too deeply)") from None
    except ValueError:  # an integer of more digits than Python reads
        raise ConfigError(path, "is not valid TOML (a number too long to read)") from None
    values: dict[str, object] = {}
    locked = _locked(table.get(LOCKED, []), path, key_line(text, LOCKED))
    for name, value in table.items():
        line = key_line(text, name)
        if name == LOCKED:
            continue
        key = KEYS.get(name)
        if key is None:
            raise ConfigError(path, f"unknown key {name!r} (the keys are {', '.join(KEYS)} and "
                                    f"{LOCKED})", line)
        variable = user_variable(value) if name == "data_folder" and isinstance(value, str) else None
        if variable is not None and name in locked:
            raise ConfigError(path, f"data_folder is locked, so it is written whole: {variable!r} is "
                                    "the user's to set, and would move the folder (write the folder "
                                    "itself, or do not lock it)", line)
        values[name] = check(key, value, path, line)
    return values, locked


def check(key: Key, value: object, path: Path, line: int | None) -> object:
    """The value `key` may hold, or ConfigError saying what it should be."""
    if not isinstance(value, key.kind):
        wanted = "true or false" if key.kind is bool else "a string in quotes"
        raise ConfigError(path, f"{key.name} must be {wanted}, not {_shown(value)}", line)
    if key.name == "theme" and value not in themes():
        raise ConfigError(path, f"theme must be one of {', '.join(map(repr, themes()))}, not "
                                f"{_shown(value)}", line)
    if key.name == "class_address" and value:
        from trainer.classes.errors import ClassServerError
        from trainer.classes.workstation.address import class_address

        try:
            class_address(str(value))
        except ClassServerError as e:
            raise ConfigError(path, f"class_address: {e}", line) from None
    if key.name == "data_folder":
        try:
            return str(data_folder(str(value)))
        except ValueError as e:
            raise ConfigError(path, f"data_folder: {e}", line) from None
    return value


def data_folder(text: str) -> Path:
    """A data folder as written (in the machine file or the user's settings): ~ and environment
    variables expanded ($HOME, %LOCALAPPDATA% on Windows); ValueError unless it is then a whole
    path."""
    if not text.strip():
        raise ValueError("is empty")
    if "\x00" in text:
        raise ValueError("holds a NUL character")
    folder = Path(os.path.expandvars(os.path.expanduser(text.strip())))
    if not folder.is_absolute():
        raise ValueError(f"{text!r} is not a whole path (such as "
                         f"{'D:/Dealer Trainer' if os.name == 'nt' else '/srv/dealer-trainer'})")
    return folder


#: what a data folder expands from the environment, on any OS: ~ or ~user at its start, $NAME,
#: ${NAME}, %NAME%
_VARIABLE = re.compile(r"^~[^/\\]*|\$(?:\{[^}]*\}?|\w+)|%[^%]*%")


def user_variable(text: str) -> str | None:
    """The first part of a data folder as written that the environment of whoever runs the app
    decides (`_VARIABLE`: ~, $HOME, %LOCALAPPDATA%), None when there is none. Each user sets their
    own environment, so a locked data folder is refused with one: it would follow the user."""
    found = _VARIABLE.search(text.strip())
    return found.group(0) if found else None


def _locked(value: object, path: Path, line: int | None) -> frozenset[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(path, f"{LOCKED} must be a list of key names such as [\"class_address\"], "
                                f"not {_shown(value)}", line)
    unknown = [v for v in value if v not in KEYS]
    if unknown:
        raise ConfigError(path, f"{LOCKED} names an unknown key {unknown[0]!r} (the keys are "
                                f"{', '.join(KEYS)})", line)
    return frozenset(value)


def key_line(text: str, name: str) -> int | None:
    """The line that sets the top-level key `name` (bare or quoted), or opens a table of that
    name, if one does."""
    for n, line in enumerate(text.splitlines(), start=1):
        head = line.split("=", 1)[0].strip().strip("\"'")
        table = line.strip().strip("[]").strip().strip("\"'")
        if ("=" in line and head == name) or (line.strip().startswith("[") and table == name):
            return n
    return None


def _line_of_message(message: str) -> int | None:
    marker = "(at line "
    if marker not in message:
        return None
    digits = message.split(marker, 1)[1].split(",", 1)[0]
    return int(digits) if digits.isdigit() else None


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value if len(value) <= 60 else value[:59] + "…")
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__ if not isinstance(value, int | float) else repr(value)
