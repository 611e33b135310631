"""A trainee's spoken calls kept, with their consent, so that a school can test the recogniser on
its own voices: each call heard in practice as a WAV file (16 kHz mono 16-bit, the sound the
listener was fed, from the start of listening to the verdict: the room before the call too)
beside a small JSON record of the same name (the game, the call owed, what was heard, the
verdict, when, the trainee). They are kept in the data folder, a folder for each
trainee (`folder`), and never sent anywhere.

Keeping is on for a trainee while their folder holds the consent file (`CONSENT`), written when
they say yes and removed when they say no; the calls kept stay until they are deleted
(`delete_all`). Each file is written whole or not at all (a temporary file renamed), the record
last: a WAV file without its record is a call whose keeping was cut short. At most `CAP` bytes
are kept for a trainee: past it, no more are (`Full`), and nothing kept is deleted to make room.

`read(folder)` finds every call kept under a folder (one trainee's, the data folder's
`spoken calls`, or a school's collection from many PCs), and names each file it cannot use.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import time
import wave
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from trainer.paths import atomic_bytes

#: the folder of the data folder the calls are kept in, a folder for each trainee in it
FOLDER = "spoken calls"
#: the file whose presence says the trainee agreed that their calls are kept
CONSENT = "consent.json"
#: the most a trainee's kept calls take (bytes): 100 MiB, about 1,500 calls of three seconds
CAP = 100 * 1024 * 1024
RATE = 16_000
#: a record's fields, and the kind each has
FIELDS: dict[str, type | tuple[type, ...]] = {
    "game": str, "expected": str, "heard": (str, type(None)), "verdict": str, "when": str,
    "trainee": str}
VERDICTS = ("right", "wrong", "unclear", "none")
#: the largest record read (a record the app writes takes a few hundred bytes)
RECORD_CAP = 64 * 1024


class Full(Exception):
    """The trainee's kept calls have reached the cap: this one is not kept."""


@dataclass(frozen=True)
class Kept:
    """A call kept: its WAV file and its record."""

    wav: Path
    game: str
    expected: str  # the call owed, as the engine words it
    heard: str | None  # the call heard, as the engine words it
    verdict: str  # right, wrong, unclear or none, as the app gave it
    when: str  # ISO 8601, UTC
    trainee: str


@dataclass(frozen=True)
class Unusable:
    """A file under the folder that is not a call kept, and why (one line)."""

    path: Path
    why: str

    def __str__(self) -> str:
        return f"{self.path}: {self.why}"


def folder(data_folder: str | os.PathLike, trainee_id: int) -> Path:
    """Where one trainee's calls are kept (by their number, which a rename does not change)."""
    return Path(data_folder) / FOLDER / f"trainee {trainee_id}"


def consented(where: Path) -> bool:
    return (where / CONSENT).is_file()


def consent(where: Path, yes: bool, trainee: str) -> None:
    """The trainee said yes (the consent file written) or no (removed; what was kept stays)."""
    if not yes:
        (where / CONSENT).unlink(missing_ok=True)
        return
    where.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"trainee": trainee, "agreed": _now(),
                       "kept": "each call heard in practice: its sound and the call owed",
                       "sent": "nowhere"}, ensure_ascii=False, indent=1) + "\n"
    atomic_bytes(where / CONSENT, text.encode("utf-8"), private=True)


def keep(where: Path, pcm: bytes, *, game: str, expected: str, heard: str | None, verdict: str,
         trainee: str, words: str = "", when: float | None = None) -> Path:
    """Keep one call (`pcm`: 16 kHz mono 16-bit): its WAV file, then its record. Full when the
    trainee's calls have reached CAP; OSError when the disk refuses."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(when))
    name = f"{stamp}-{secrets.token_hex(3)}"
    wav = where / f"{name}.wav"
    record = {"game": game, "expected": expected, "heard": heard, "verdict": verdict,
              "when": _now(when), "trainee": trainee, "words": words, "wav": wav.name}
    text = (json.dumps(record, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
    if used(where) + 44 + len(pcm) + len(text) > CAP:
        raise Full(f"The spoken calls kept for {trainee} have reached {CAP // 2 ** 20} MiB: no "
                   "more are kept until some are deleted (File › Settings…).")
    where.mkdir(parents=True, exist_ok=True)
    atomic_bytes(wav, _wav_bytes(pcm), private=True)
    atomic_bytes(where / f"{name}.json", text, private=True)
    return wav


def used(where: Path) -> int:
    """The bytes the calls kept here take (a file that went meanwhile, none)."""
    total = 0
    for p in _files(where):
        with contextlib.suppress(FileNotFoundError):
            total += p.stat().st_size
    return total


def count(where: Path) -> int:
    """How many calls are kept here (their records)."""
    return sum(1 for p in _files(where) if p.suffix == ".json")


def delete_all(where: Path) -> int:
    """Delete every call kept here (the consent stays); how many records went."""
    gone = 0
    for p in _files(where):
        p.unlink(missing_ok=True)
        gone += p.suffix == ".json"
    return gone


def read(where: Path) -> Iterator[Kept | Unusable]:
    """Every call kept under `where`, by file name, and each file that is not one (a record that
    cannot be read, its WAV file missing, a WAV file without its record)."""
    records = sorted(p for p in where.rglob("*.json") if p.name != CONSENT)
    claimed = set()
    for path in records:
        found = _record(path)
        if isinstance(found, Kept):
            claimed.add(found.wav)
        yield found
    for wav in sorted(where.rglob("*.wav")):
        if wav not in claimed and not wav.with_suffix(".json").is_file():
            yield Unusable(wav, "no record beside it (its .json file), so the call owed is unknown")


def _record(path: Path) -> Kept | Unusable:
    from trainer import files

    try:
        doc = json.loads(files.read_capped(path, RECORD_CAP).decode("utf-8"))
    except files.FileRefused as e:  # a named pipe, a device, a file far larger than a record
        return Unusable(path, f"not a record of a kept call ({e})")
    except (OSError, UnicodeDecodeError) as e:
        return Unusable(path, f"cannot be read ({getattr(e, 'strerror', None) or e})")
    except json.JSONDecodeError as e:
        return Unusable(path, f"not JSON ({e.msg} at line {e.lineno})")
    except RecursionError:
        return Unusable(path, "not JSON that can be read (nested too deeply)")
    if not isinstance(doc, dict):
        return Unusable(path, "not a record of a kept call (not a JSON object)")
    for key, kind in FIELDS.items():
        if key not in doc:
            return Unusable(path, f"not a record of a kept call (no {key!r})")
        if not isinstance(doc[key], kind):
            return Unusable(path, f"{key!r} is not text")
    if doc["verdict"] not in VERDICTS:
        return Unusable(path, f"the verdict {doc['verdict']!r} is none of {', '.join(VERDICTS)}")
    wav = path.with_suffix(".wav")
    if not wav.is_file():
        return Unusable(path, f"its sound, {wav.name}, is missing")
    return Kept(wav, doc["game"], doc["expected"], doc["heard"], doc["verdict"], doc["when"],
                doc["trainee"])


def _files(where: Path) -> list[Path]:
    """The kept calls' files here (and their halves left by a write cut short); OSError when the
    folder cannot be read. A trainee's voice (trainer.speech.enrolment), kept in the same folder,
    is none of them, nor is its half being written."""
    if not where.is_dir():
        return []
    return [p for p in where.iterdir() if p.is_file() and p.name != CONSENT
            and (p.suffix in (".wav", ".json") or p.name.endswith((".wav.part", ".json.part")))]


def _wav_bytes(pcm: bytes) -> bytes:
    import io

    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm[: len(pcm) // 2 * 2])
    return out.getvalue()


def _now(when: float | None = None) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(when))
