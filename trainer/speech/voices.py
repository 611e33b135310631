"""A trainee's voices kept (trainer.speech.enrolment makes them): a transform for each microphone
in their folder (`enrolment.kept_at`), the microphone's name beside it, so that every voice of the
trainee can be listed (`kept_voices`: the microphone and when it was taught, whether it is
plugged in now or not) and any one forgotten (`forget`)."""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from trainer.paths import atomic_bytes

if TYPE_CHECKING:  # numpy's, loaded only where a voice is taught
    from trainer.speech.enrolment import Transform

#: beside each transform, the name of its microphone as the trainee knew it (the file is named
#: by the microphone's id, which a person may not read: `named`), and the most of it read
NAME_SUFFIX = ".microphone"
NAME_CAP = 1024


def keep(transform: Transform, path: Path, microphone: str) -> None:
    """A trainee's transform kept at `path` (`enrolment.kept_at`), its microphone's name beside it: the
    name first, so that a voice listed has its name unless its writing was cut short between;
    a transform that cannot be written takes a name this call wrote with it (never listed, it
    could never be forgotten)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    name = path.with_suffix(NAME_SUFFIX)
    had_name = name.exists()
    atomic_bytes(name, microphone.encode("utf-8", "replace"), private=True)
    try:
        transform.write(path)
    except BaseException:
        if not had_name:
            name.unlink(missing_ok=True)
        raise


@dataclass(frozen=True)
class KeptVoice:
    """A voice kept in a trainee's folder: its file, its microphone's name, when it was taught."""

    path: Path
    microphone: str
    when: float  # seconds since the epoch: the file's last change


def kept_voices(trainee_folder: Path) -> list[KeptVoice]:
    """Every voice kept in a trainee's folder, for any microphone, plugged in now or not: newest
    first; OSError where the folder cannot be read. The microphone is named by the name kept
    beside the voice, else (a voice kept before names were) by its file's name."""
    if not trainee_folder.is_dir():
        return []
    found = []
    with os.scandir(trainee_folder) as entries:  # an unreadable folder raises (glob says nothing)
        files = [trainee_folder / e.name for e in entries
                 if fnmatch.fnmatchcase(e.name, "voice *.mllr")]
    for file in files:
        try:
            when = file.stat().st_mtime
        except FileNotFoundError:  # forgotten meanwhile
            continue
        found.append(KeptVoice(file, named(file), when))
    return sorted(found, key=lambda v: (-v.when, v.path.name))


def named(path: Path) -> str:
    """The name of the microphone a voice was taught at: as kept beside it (its first line, at
    most NAME_CAP bytes, no control characters), else the file's name less "voice", its digest
    and its suffix."""
    from trainer import files

    try:
        text = files.read_capped(path.with_suffix(NAME_SUFFIX), NAME_CAP).decode("utf-8",
                                                                                "replace")
    except (files.FileRefused, OSError):
        text = ""
    line = "".join(c for c in (text.splitlines() or [""])[0] if c.isprintable()).strip()
    return line or path.stem.removeprefix("voice ").rpartition(" ")[0] or path.stem


def forget(path: Path) -> None:
    """A kept voice deleted: its transform, a half-written one, and its microphone's name;
    OSError where one cannot be."""
    path.unlink(missing_ok=True)
    path.with_name(path.name + ".part").unlink(missing_ok=True)  # a write cut short
    path.with_suffix(NAME_SUFFIX).unlink(missing_ok=True)
    path.with_name(path.with_suffix(NAME_SUFFIX).name + ".part").unlink(missing_ok=True)
