"""`dealer-trainer hear FILE.wav --game G --expect "CALL"`: the verdict and its timings, exit 0 when
the call is heard right and 1 when not; bad input (a file that is no WAV, a rate out of reach, an
unknown game, a call the game does not have) is one line naming the problem and exit 2, never a
traceback; where the recogniser is missing, one line saying so."""

from __future__ import annotations

import struct
import sys
import wave

import pytest

from tests.support.command import run_command, run_here
from tests.support.flite import needs_flite, say, voices, wav_header

PH = ("--game", "props-and-hops")


def wav(path, frames: bytes, rate: int = 16000, channels: int = 1, width: int = 2):
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(width)
        w.setframerate(rate)
        w.writeframes(frames)
    return str(path)


@pytest.fixture(scope="module")
def call(tmp_path_factory):
    return say("seven three four", "rms", voices(tmp_path_factory))


def test_a_call_heard_right_prints_the_verdict_and_its_timings(call):
    out = run_command("hear", str(call), *PH, "--expect", "Seven, three-four")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == 'right: "Seven, three-four"'
    assert lines[1] == "words: seven three four"
    assert lines[2].startswith("speech: from ") and lines[3].endswith(" ms after the end of speech")
    assert out.stderr == ""


def test_a_wrong_call_says_what_was_heard_and_exits_1(call):
    out = run_here("hear", str(call), *PH, "--expect", "Seven, two-five")
    assert out.returncode == 1
    assert out.stdout.splitlines()[0] == 'wrong: heard "Seven, three-four", expected "Seven, two-five"'


def test_a_call_at_another_rate_width_and_channels_is_converted_and_heard(call, tmp_path):
    with wave.open(str(call)) as w:
        mono = w.readframes(w.getnframes())
    samples = struct.unpack(f"<{len(mono) // 2}h", mono)
    # 44.1 kHz stereo, each sample repeated (a crude upsampling that keeps the words)
    up = [s for s in samples for _ in range(3)][: int(len(samples) * 44100 / 16000)]
    stereo = struct.pack(f"<{2 * len(up)}h", *(v for s in up for v in (s, s)))
    path = wav(tmp_path / "stereo.wav", stereo, rate=44100, channels=2)
    out = run_here("hear", path, *PH, "--expect", "Seven, three-four")
    assert (out.returncode, out.stdout.splitlines()[0]) == (0, 'right: "Seven, three-four"')


def test_a_16_bit_file_at_16_khz_is_heard_sample_for_sample(tmp_path):
    """`hear FILE` gives the recogniser a 16-bit, 16 kHz mono file's samples as they are, as the
    microphone's path does (ui.speech.audio.read_wav): it scaled them by 32767/32768 before, one
    step off for every sample louder than half the range."""
    import array
    import wave

    from trainer.speech.audio import read_wav

    pcm = array.array("h", [-32768, -32767, -16385, -1, 0, 1, 16385, 20000, 32767] * 100).tobytes()
    path = tmp_path / "exact.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(pcm)
    assert read_wav(path) == pcm


def test_silence_is_no_call(tmp_path):
    needs_flite()
    out = run_here("hear", wav(tmp_path / "quiet.wav", bytes(32000)), *PH, "--expect", "No more bets")
    assert (out.returncode, out.stdout) == (1, "no call: no speech was heard\n")


@pytest.mark.parametrize(("make", "args", "message"), [
    (lambda p: p.write_bytes(b"ID3\x03 an mp3, not a wav"), (*PH, "--expect", "No more bets"),
     "not a WAV file (file does not start with RIFF id)"),
    (lambda p: p.write_bytes(b"RIFF\x10\x00\x00\x00WAVEfmt "), (*PH, "--expect", "No more bets"),
     "call.wav: not a WAV file (fmt chunk and/or data chunk missing)"),
    (lambda p: wav(p, bytes(8000), rate=4000), (*PH, "--expect", "No more bets"),
     "sampled at 4000 Hz; a WAV file from 8000 to 192000 Hz is read (16000 Hz best)"),
    (lambda p: wav_header(p, 2_000_000_000), (*PH, "--expect", "No more bets"),  # it lies
     "call.wav: its header says 62,500.0 seconds of sound; a call is heard from at most 12 (a call "
     "is a few seconds)"),
    (lambda p: wav(p, bytes(2 * 16000 * 13)), (*PH, "--expect", "No more bets"),
     "call.wav: its header says 13.0 seconds of sound; a call is heard from at most 12"),
    (lambda p: wav(p, bytes(3200)), ("--game", "craps", "--expect", "No more bets"),
     "--game: unknown game 'craps'"),
    (lambda p: wav(p, bytes(3200)), (*PH, "--expect", "Red one, blue one and one"),
     "--expect: 'Red one, blue one and one' is not a call of Props & Hops"),
    (lambda p: wav(p, bytes(3200)), ("--game", "three-dice-football", "--expect", "No more bets"),
     "--expect: 'No more bets' is not a call of Three Dice Football"),
])
def test_bad_input_is_one_line_naming_the_problem_and_exit_2(tmp_path, make, args, message):
    needs_flite()
    path = tmp_path / "call.wav"
    make(path)
    out = run_here("hear", str(path), *args)
    assert out.returncode == 2, out
    assert message in out.stderr and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert out.stdout == ""


def test_no_file_and_a_folder_with_expect_are_named(tmp_path):
    """A folder is heard as the calls kept in it (tests/test_speech_kept.py), each against the
    call it was owed: one call expected of it is refused by name."""
    needs_flite()
    out = run_here("hear", str(tmp_path / "none.wav"), *PH, "--expect", "No more bets")
    assert out.returncode == 2 and out.stderr.strip().endswith(f"{tmp_path / 'none.wav'}: no such file")
    out = run_here("hear", str(tmp_path), *PH, "--expect", "No more bets")
    assert out.returncode == 2 and out.stderr.strip().endswith(": give no --expect")


def test_without_the_recogniser_it_says_so_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pocketsphinx", None)  # an import of it fails, as uninstalled
    from trainer.speech import unavailable

    assert unavailable() == ("Spoken calls need the speech recogniser pocketsphinx, which is not "
                             "installed (pip install pocketsphinx).")
    out = run_here("hear", wav(tmp_path / "call.wav", bytes(3200)), *PH, "--expect", "No more bets")
    assert out.returncode == 2
    assert out.stderr == f"{unavailable()}\n"


def test_without_the_model_folder_it_says_so_in_one_line(tmp_path, monkeypatch):
    """A bundle that carries pocketsphinx without its model folder: pocketsphinx's own lookup of
    the folder fails (as a built bundle's did, with an AttributeError); the missing model is
    said in one line, not as an internal error."""
    pocketsphinx = pytest.importorskip("pocketsphinx")

    def no_model_folder():
        raise AttributeError("'NoneType' object has no attribute 'submodule_search_locations'")

    monkeypatch.setattr(pocketsphinx, "get_model_path", no_model_folder)
    from trainer.speech import unavailable

    assert unavailable() == ("The speech recogniser's English model is missing (pocketsphinx "
                             "finds no model folder beside it).")
    out = run_here("hear", wav(tmp_path / "call.wav", bytes(3200)), *PH, "--expect", "No more bets")
    assert (out.returncode, out.stderr) == (2, f"{unavailable()}\n")


def test_a_header_is_judged_by_its_rate_and_format_before_its_length(tmp_path):
    """A file sampled at a rate never read is refused for its rate, however long its header says
    it is; the longest call at the highest rate read, in four channels of 32-bit samples (a
    studio's file), is not too long (the cap was once two channels' worth, refusing it)."""
    from trainer.errors import RequestError
    from trainer.speech.audio import LONGEST, read_wav, too_long, unreadable

    path = tmp_path / "slow.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(4000)
        w.writeframes(bytes(8000))
    raw = bytearray(path.read_bytes())
    raw[40:44] = struct.pack("<I", 2_000_000_000)  # the data chunk's size: it lies
    path.write_bytes(bytes(raw))
    with pytest.raises(RequestError, match="sampled at 4000 Hz"):
        read_wav(path)
    frames = 8 * 192_000
    assert unreadable(192_000, 4, 4) is None and too_long(frames, 4 * 4, 192_000) is None
    assert too_long(int((LONGEST + 1) * 192_000), 4 * 4, 192_000) is not None
    assert unreadable(16_000, 2, 9) is not None
