"""Spoken calls made at test time with Debian's `flite` (a speech synthesiser with a few voices),
for the speech tests and the accuracy benchmark. Where flite or the recogniser is missing, a test
is skipped saying why (`needs_flite`), never passed. The tests' readings are made once per run,
in a folder every worker of the run shares (`voices`): a sentence of the room's crowd, or a
call, said by one voice is the same file for every test that asks for it."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from tests.support.paths import run_folder

#: flite's voices that say any text (its "awb_time" says only the time of day); kal is 8 kHz
VOICES = ("slt", "kal16", "awb", "rms", "kal")


def missing() -> str | None:
    """Why calls cannot be synthesised and heard here, or None."""
    from trainer.speech import unavailable

    if shutil.which("flite") is None:
        return "flite is not installed (apt-get install flite): no voice to make the calls with"
    return unavailable()


def needs_flite() -> None:
    if (why := missing()) is not None:
        pytest.skip(why)


def voices(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run's folder of flite's readings (`say` into it): skipped, saying why, where calls
    cannot be synthesised and heard here."""
    needs_flite()
    folder = run_folder(tmp_path_factory) / "flite"
    folder.mkdir(exist_ok=True)
    return folder


def say(text: str, voice: str, folder: Path) -> Path:
    """A WAV file of flite's `voice` saying `text`, made once in `folder` (named by both); two
    processes or threads making it at once each write their own part (the benchmark's cache is
    shared; a test's threads may ask for one reading together)."""
    name = hashlib.sha256(f"{voice}\0{text}".encode()).hexdigest()[:20]
    path = folder / f"{voice}-{name}.wav"
    if not path.exists():
        part = path.with_suffix(f".{os.getpid()}-{threading.get_ident()}.part.wav")
        subprocess.run(["flite", "-voice", voice, "-t", text, "-o", str(part)], check=True,
                       capture_output=True, timeout=60)
        part.replace(path)
    return path


def wav_header(path: Path, data_bytes: int, size: int | None = None) -> Path:
    """A WAV file of 16 kHz mono 16-bit PCM whose header says `data_bytes` bytes of samples,
    `size` bytes long in all (sparse: no disk is used for its zeros), by default just its header
    and a tenth of a second: a header that lies."""
    import struct

    header = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + data_bytes, b"WAVE", b"fmt ", 16, 1, 1,
                         16000, 32000, 2, 16, b"data", data_bytes)
    with open(path, "wb") as f:
        f.write(header)
        f.truncate(size if size is not None else len(header) + 3200)
    return path


def padded(raw: Path, out: Path, silence: float) -> float:
    """flite's 16 kHz mono reading `raw` written to `out` with `silence` seconds of silence before
    and after it; the seconds from the start of `out` to the end of the speech."""
    import array
    import wave

    with wave.open(str(raw), "rb") as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 16000)
        speech = w.readframes(w.getnframes())
    pad = array.array("h", [0] * round(silence * 16000)).tobytes()
    with wave.open(str(out), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(pad + speech + pad)
    return silence + len(speech) / 2 / 16000
