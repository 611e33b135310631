"""A trainee's voice for the speech tests, made once per run in the folder every worker shares
(tests/support/paths.py's `run_folder`): flite's slt reading the enrolment's 20 prompts in
tests/support/room.py's room at 10 dB (`readings`, WAV files), and the product's own estimate of
a transform from the speech of those readings (`fitted`: trainer.speech.enrolment.estimate
itself, run once per run for the same readings and settings, its answer kept beside them).

The readings are the audio a trainee's microphone would give the enrolment dialog; the estimate
takes about 3 s of CPU, so the two tests that fit a voice from them (the engine's whole chain in
tests/test_speech_enrolment.py, the dialog's in tests/test_speech_enrol_ui.py) pay for it once:
an answer is reused only for the very (speech, words) pairs and settings it was made from."""

from __future__ import annotations

import hashlib
import json
import wave
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from filelock import FileLock

from tests.support.flite import say, voices
from tests.support.paths import run_folder
from tests.support.room import crowd_of, noisy, pcm_of
from trainer.speech import SAMPLE_RATE, enrolment
from trainer.speech.enrolment import Estimate, Transform

#: the voice that reads, the room's signal-to-noise ratio (dB), the crowd's voices and the seed of
#: the room's draws: slt is the voice the garbage branch takes most in noise
VOICE, SNR, CROWD, SEED = "slt", 10, ("slt", "awb", "rms", "kal16"), 7
#: the product's estimate, whatever a test puts in its place (a test hands the dialog `fitted`)
ESTIMATE = enrolment.estimate


def readings(tmp_path_factory) -> list[Path]:
    """The 20 prompts read by VOICE in the room, a WAV file each, in the prompts' order (made
    once per run; the room's draws follow each other, from SEED, in that order)."""
    folder = run_folder(tmp_path_factory) / "readings"
    flite = voices(tmp_path_factory)
    prompts = enrolment.prompts()
    paths = [folder / f"{n:02d}.wav" for n in range(len(prompts))]
    with FileLock(str(folder) + ".lock"):
        if not all(p.exists() for p in paths):
            folder.mkdir(exist_ok=True)
            crowd = crowd_of(flite, CROWD)
            rng = np.random.default_rng(SEED)
            for path, p in zip(paths, prompts, strict=True):
                write_wav(path, noisy(pcm_of(say(p.words, VOICE, flite)), SNR, rng, crowd))
    return paths


def pairs(paths: Sequence[Path]) -> list[tuple[bytes, str]]:
    """What the estimate is given for these readings: the speech in each (enrolment.speech_of),
    with its prompt's words. The samples are the file's own, as a microphone's input gives them
    (trainer.speech.audio.read_wav scales them by 32767/32768)."""
    prompts = enrolment.prompts()
    return [(enrolment.speech_of(frames(path)), p.words)
            for path, p in zip(paths, prompts, strict=True)]


def frames(path: Path) -> bytes:
    """The samples of a WAV file written by `write_wav`, as they are in it."""
    with wave.open(str(path), "rb") as w:
        return w.readframes(w.getnframes())


def fitted(tmp_path_factory, given: Sequence[tuple[bytes, str]], **settings) -> Estimate:
    """enrolment.estimate(given, **settings), run once per run for the same pairs and settings
    (the first test to ask runs it, under a lock; the others read its answer)."""
    digest = hashlib.sha256(repr(sorted(settings.items())).encode())
    for pcm, words in given:
        digest.update(hashlib.sha256(pcm).digest() + words.encode() + b"\0")
    path = run_folder(tmp_path_factory) / "fits" / f"{digest.hexdigest()[:24]}.json"
    path.parent.mkdir(exist_ok=True)
    with FileLock(str(path) + ".lock"):
        if not path.exists():
            found = ESTIMATE(given, **settings)
            part = path.with_suffix(".part")
            part.write_text(json.dumps({"transform": found.transform.text(),
                                        "frames": found.frames,
                                        "left_out": list(found.left_out), "cpu": found.cpu}))
            part.replace(path)
            return found
        kept = json.loads(path.read_text())
    # the estimate's own transform is read back from this text (Transform.parse): the same numbers
    return Estimate(Transform.parse(kept["transform"]), kept["frames"], tuple(kept["left_out"]),
                    kept["cpu"])


def write_wav(path: Path, pcm: bytes) -> None:
    """16 kHz mono 16-bit PCM as a WAV file, written whole or not at all."""
    part = path.with_suffix(".part")
    with wave.open(str(part), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SAMPLE_RATE)
        w.writeframes(pcm)
    part.replace(path)
