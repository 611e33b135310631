"""The app's settings in layers, each over the one before: the defaults; Qt's machine-wide
settings, where a school pushed the class before the machine file (`older_settings`: read, never
written, and named by `config --show` so that IT moves them); the machine file a
school's IT person sets once (trainer.config: its places, keys and checks); the user's own
choices (QSettings, Qt's user settings: an INI file on Linux, the registry on Windows, a plist on
macOS); and this run's command line (`--class`, `--db`). A key the machine file locks keeps the
machine's value, whatever the user chose or the command line says.

A user's choice is kept only while it differs from what lies under it (the machine's value, else
the default): a later change of the machine file reaches every user who has not chosen otherwise,
and a choice set back to the school's value follows the school again. File › Leave class is a
choice too, of no class: it sticks though the machine file names a class. A user's setting that
is not a value the key can hold (the file is the user's to edit) is no choice.

`dealer-trainer config --show` (`main`) prints each value, where it came from and whether it is
locked."""

from __future__ import annotations

import sys
from pathlib import Path

from trainer import KEYS, MachineConfig, data_folder, machine_config, themes

ORGANIZATION = APPLICATION = "Dealer Trainer"  # Qt's names: the user's settings and data folders
#: each key's place in the user's settings (QSettings)
USER = {"class_address": "class/address", "data_folder": "data/folder", "theme": "view/theme",
        "large_print": "view/large_print"}
DEFAULT, USER_SETTINGS, COMMAND_LINE = "default", "user settings", "command line"
#: the app's own values (the data folder's is the OS's: `default_data_folder`)
DEFAULTS: dict[str, object] = {"class_address": "", "theme": "light", "large_print": False}
PROGRESS_FILE = "progress.db"


def identify() -> None:
    """Qt's names for the app, which place its settings and data folders (no QApplication needed)."""
    from ui.qt import QCoreApplication

    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APPLICATION)


def user_settings():
    """This user's own settings, alone: Qt's machine-wide settings are not read under them (the
    machine's are trainer.config's file)."""
    from ui.qt import QSettings

    identify()
    settings = QSettings(QSettings.defaultFormat(), QSettings.Scope.UserScope, ORGANIZATION,
                         APPLICATION)
    settings.setFallbacksEnabled(False)
    return settings


def older_settings():
    """Qt's machine-wide settings (its system scope, no fallback): Linux's `/etc/xdg/Dealer
    Trainer/Dealer Trainer.conf` (or under $XDG_CONFIG_DIRS), Windows'
    `HKEY_LOCAL_MACHINE\\Software\\Dealer Trainer\\Dealer Trainer`, macOS's `/Library/Preferences`.
    The app read them under each user's settings before the machine file; a class pushed there is
    still joined, under the machine file's."""
    from ui.qt import QSettings

    identify()
    settings = QSettings(QSettings.defaultFormat(), QSettings.Scope.SystemScope, ORGANIZATION,
                         APPLICATION)
    settings.setFallbacksEnabled(False)
    return settings


def default_data_folder() -> Path:
    """The data folder when neither the machine nor the user sets one: the user's local
    application data (on Windows %LOCALAPPDATA%, never the roaming profile that folder
    redirection may put on a network share)."""
    from ui.qt import QStandardPaths

    identify()
    return Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppLocalDataLocation))


class Config:
    """The settings of this run: `value`, `source` and `locked` of each key of trainer.config's
    KEYS; `choose` and `forget` the user's choices. `notes`: what the user should be told (a
    machine file that could not be used, a command-line option a lock overrode), one line each."""

    def __init__(self, settings, machine: MachineConfig | None = None,
                 command_line: dict[str, object] | None = None, older=None):
        """`older`: Qt's machine-wide settings (`older_settings`), None for none."""
        self.settings = settings
        self.machine = machine if machine is not None else MachineConfig()
        self.older_file = older.fileName() if older is not None else None
        #: what Qt's machine-wide settings give, each value as the key takes it
        self.older = {key: value for key in KEYS
                      if older is not None and (value := _read(older, key)) is not None}
        self.command_line = dict(command_line or {})
        self.notes: list[str] = []
        if self.machine.passed_over is not None:
            self.notes.append(f"{self.machine.passed_over}.")
        if self.machine.problem is not None:
            self.notes.append(f"The machine's settings file was not used: {self.machine.problem}; "
                              "the app uses its defaults.")
        for key in [k for k in self.command_line if self.locked(k)]:
            del self.command_line[key]
            self.notes.append(f"{key} is locked by {self.machine.path}: its value "
                              f"{shown(key, self.value(key))} is used, not the command line's.")

    def default(self, key: str) -> object:
        if key == "data_folder":
            return str(default_data_folder())
        return DEFAULTS[key]

    def locked(self, key: str) -> bool:
        return key in self.machine.locked

    def value(self, key: str) -> object:
        return self._layer(key)[0]

    def source(self, key: str) -> str:
        """Where the value comes from: default, the machine file's path, user settings or
        command line."""
        return self._layer(key)[1]

    def under(self, key: str) -> object:
        """What the key is when the user chooses nothing: the machine's value, else the older
        machine settings', else the default."""
        return self.machine.values.get(key, self.older.get(key, self.default(key)))

    def _layer(self, key: str) -> tuple[object, str]:
        if self.locked(key):  # the file's value, or the default the file locks
            return self.machine.values.get(key, self.default(key)), str(self.machine.path)
        if key in self.command_line:
            return self.command_line[key], COMMAND_LINE
        mine = self.user(key)
        if mine is not None:
            return mine, USER_SETTINGS
        if key in self.machine.values:
            return self.machine.values[key], str(self.machine.path)
        if key in self.older:
            return self.older[key], str(self.older_file)
        return self.default(key), DEFAULT

    def user(self, key: str) -> object | None:
        """The user's own choice, None when there is none (or the setting holds no value the key
        can take)."""
        return _read(self.settings, key)

    def choose(self, key: str, value: object) -> bool:
        """Keep the user's choice (the key's setting removed when it is what lies under it);
        False, and nothing kept, when the key is locked."""
        if self.locked(key):
            return False
        if same(key, value, self.under(key)):
            self.settings.remove(USER[key])
        else:
            self.settings.setValue(USER[key], value)
        self.settings.sync()
        return True

    def forget(self, key: str) -> None:
        """Follow the machine's value (or the default) again."""
        self.settings.remove(USER[key])
        self.settings.sync()

    def progress_file(self, db: str | None = None) -> Path:
        """The progress file: `db` (--db) unless the data folder is locked, else in the data folder."""
        if db is not None and not self.locked("data_folder"):
            return Path(db)
        return Path(str(self.value("data_folder"))) / PROGRESS_FILE


def _read(settings, key: str) -> object | None:
    raw = settings.value(USER[key])
    return None if raw is None else readable(key, raw)


def readable(key: str, raw: object) -> object | None:
    """A user's setting as the key's value, None when it is none the key can take."""
    if KEYS[key].kind is bool:
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        return {"true": True, "false": False}.get(text)
    if not isinstance(raw, str):
        return None
    if key == "theme":
        return raw if raw in themes() else None
    if key == "data_folder":
        try:
            return str(data_folder(raw))
        except ValueError:
            return None
    if key == "class_address" and raw:
        from trainer.classes import ClassServerError, class_address

        try:
            class_address(raw)
        except ClassServerError:
            return None
    return raw


def same(key: str, a: object, b: object) -> bool:
    """Whether two values of `key` are one: class addresses as the class they reach (a password
    in one of them aside)."""
    if key == "class_address" and a and b:
        from trainer.classes import ClassServerError, class_address

        try:
            return class_address(str(a)).kept == class_address(str(b)).kept
        except ClassServerError:
            return False
    return a == b


def shown(key: str, value: object) -> str:
    """A value as `config --show` and the settings dialog write it: a class address without its
    password, a truth as true or false, nothing as (none)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if key == "class_address" and value:
        from trainer.classes import ClassServerError, class_address

        try:
            return class_address(str(value)).kept
        except ClassServerError:
            return "(not a class address)"
    return str(value) if value != "" else "(none)"


def load(*, db: str | None = None, class_address: str | None = None, settings=None) -> Config:
    """This run's settings: the machine file (read now), the user's settings, and the command
    line's --db (its folder is the data folder) and --class."""
    command_line: dict[str, object] = {}
    if db is not None:
        command_line["data_folder"] = str(Path(db).absolute().parent)
    if class_address is not None:
        command_line["class_address"] = class_address
    return Config(settings if settings is not None else user_settings(), machine_config(), command_line,
                  older_settings())


def show(config: Config) -> str:
    """`config --show`'s lines: the machine files looked for, then each key's value, source and
    lock, in aligned columns."""
    machine = config.machine
    lines = []
    for place in machine.looked:
        found = "not found" if place != machine.path else "not used" if machine.problem else "read"
        lines.append(f"machine file: {place} ({found})")
    if not machine.looked:
        lines.append("machine file: none (DEALER_TRAINER_CONFIG is empty)")
    if config.older:
        lines.append(f"older machine settings: {config.older_file} (read under the machine file: "
                     f"{', '.join(config.older)}; move them to config.toml)")
    rows = [(key, shown(key, config.value(key)), config.source(key),
             "locked" if config.locked(key) else "") for key in KEYS]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines += ["  ".join(cell.ljust(widths[i]) if i < 3 else cell for i, cell in enumerate(row)).rstrip()
              for row in rows]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """`dealer-trainer config --show [--db FILE] [--class URL]`."""
    import argparse

    from trainer import cli

    p = argparse.ArgumentParser(
        prog="dealer-trainer config",
        description="The app's settings: each value, where it came from (default, the machine's "
                    "config file, the user's settings or the command line) and whether the machine "
                    "file locks it.")
    p.add_argument("--show", action="store_true", required=True, help="print every setting")
    p.add_argument("--db", metavar="FILE", help="as the app's --db: the progress file of this run")
    cli.class_option(p)
    args = p.parse_args(argv)
    address = args.class_address.kept if args.class_address is not None else None
    config = load(db=args.db, class_address=address)
    print(show(config))
    for note in config.notes:
        print(note, file=sys.stderr)
    return 1 if config.machine.problem else 0
