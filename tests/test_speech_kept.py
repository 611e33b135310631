"""The trainee's spoken calls kept with their consent (trainer.speech.kept): each file written
whole, the cap held, every call deleted on request, and each file of a folder that is not a call
kept named in a line. The window's half (File › Settings…, the practice screen) is in
tests/test_speech_kept_ui.py; `dealer-trainer hear FOLDER` is here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import wave

import pytest

from tests.support.command import run_here
from tests.support.flite import needs_flite, say, wav_header
from tests.support.paths import ROOT
from trainer.speech import kept

PCM = bytes(range(256)) * 25  # 3,200 samples: a fifth of a second


def keep(where, **more):
    fields = dict(game="props-and-hops", expected="Seven, three-four", heard="Seven, three-four",
                  verdict="right", trainee="Rosa Diaz")
    return kept.keep(where, more.pop("pcm", PCM), **{**fields, **more})


def test_a_call_is_kept_as_a_wav_file_of_what_was_heard_beside_its_record(tmp_path):
    where = kept.folder(tmp_path, 3)
    wav = keep(where, heard="Seven, two-five", verdict="wrong", when=1_700_000_000.0)
    assert wav.parent == tmp_path / "spoken calls" / "trainee 3"
    with wave.open(str(wav)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 16_000)
        assert w.readframes(w.getnframes()) == PCM
    record = json.loads(wav.with_suffix(".json").read_text(encoding="utf-8"))
    assert record == {"game": "props-and-hops", "expected": "Seven, three-four",
                      "heard": "Seven, two-five", "verdict": "wrong", "when": "2023-11-14T22:13:20Z",
                      "trainee": "Rosa Diaz", "words": "", "wav": wav.name}
    assert sorted(p.name for p in where.iterdir()) == sorted([wav.name, wav.stem + ".json"])
    [found] = kept.read(where)
    assert (found.wav, found.expected, found.verdict) == (wav, "Seven, three-four", "wrong")


def test_a_call_cut_short_leaves_no_file_half_written(tmp_path, monkeypatch):
    """The disk fails as the record is written: the WAV file is whole, no record and no
    temporary file are left, and reading the folder says the WAV has no record."""
    where = kept.folder(tmp_path, 1)
    real = os.replace

    def failing(src, dst):
        if str(dst).endswith(".json"):
            raise OSError(28, "No space left on device")
        return real(src, dst)

    monkeypatch.setattr(os, "replace", failing)
    with pytest.raises(OSError):
        keep(where)
    names = [p.name for p in where.iterdir()]
    assert len(names) == 1 and names[0].endswith(".wav")
    [problem] = kept.read(where)
    assert str(problem).endswith("no record beside it (its .json file), so the call owed is unknown")


def test_past_the_cap_no_more_are_kept_and_none_is_deleted(tmp_path, monkeypatch):
    """The cap counts the record too: a call whose WAV file alone would just fit is not kept."""
    where = kept.folder(tmp_path, 1)
    first = keep(where)
    monkeypatch.setattr(kept, "CAP", kept.used(where) + 44 + len(PCM))
    with pytest.raises(kept.Full, match="have reached 0 MiB: no more are kept"):
        keep(where)
    assert kept.count(where) == 1 and first.is_file()


def test_consent_is_a_file_and_delete_all_keeps_it(tmp_path):
    where = kept.folder(tmp_path, 1)
    assert not kept.consented(where)
    kept.consent(where, True, "Rosa Diaz")
    assert kept.consented(where)
    for _ in range(3):
        keep(where)
    voice = where / "voice Microphone 1a2b3c4d.mllr"  # a trainee's voice, and its half written
    voice.write_text("kept")
    voice.with_name(voice.name + ".part").write_text("being written")
    assert kept.count(where) == 3
    assert kept.delete_all(where) == 3
    assert kept.count(where) == 0 and kept.consented(where)
    assert sorted(p.name for p in where.iterdir() if p.name != kept.CONSENT) == [
        voice.name, voice.name + ".part"]
    voice.unlink()
    voice.with_name(voice.name + ".part").unlink()
    kept.consent(where, False, "Rosa Diaz")
    assert not kept.consented(where) and list(where.iterdir()) == []


def test_each_file_that_is_not_a_call_kept_is_named(tmp_path):
    where = kept.folder(tmp_path, 1)
    good = keep(where)
    (where / "a.json").write_text("{not json", encoding="utf-8")
    (where / "b.json").write_text("[1, 2]", encoding="utf-8")
    (where / "c.json").write_text(json.dumps({"game": "props-and-hops"}), encoding="utf-8")
    record = json.loads(good.with_suffix(".json").read_text(encoding="utf-8"))
    (where / "d.json").write_text(json.dumps(record), encoding="utf-8")  # its d.wav is missing
    (where / "e.json").write_text(json.dumps({**record, "verdict": "maybe"}), encoding="utf-8")
    (where / "f.json").write_bytes(b"\xff\xfe\x00")
    (where / "orphan.wav").write_bytes(b"RIFF")
    fifo = hasattr(os, "mkfifo")  # not on Windows
    if fifo:
        os.mkfifo(where / "g.json")  # read, it would wait for a writer forever
    (where / "h.json").write_text(" " * (kept.RECORD_CAP + 1), encoding="utf-8")
    found = {p.path.name if isinstance(p, kept.Unusable) else p.wav.name: str(p)
             for p in kept.read(tmp_path)}
    assert found.pop(good.name).startswith("Kept(")
    assert {name: line.split(": ", 1)[1] for name, line in found.items()} == {
        "a.json": "not JSON (Expecting property name enclosed in double quotes at line 1)",
        "b.json": "not a record of a kept call (not a JSON object)",
        "c.json": "not a record of a kept call (no 'expected')",
        "d.json": "its sound, d.wav, is missing",
        "e.json": "the verdict 'maybe' is none of right, wrong, unclear, none",
        "f.json": "cannot be read ('utf-8' codec can't decode byte 0xff in position 0: invalid "
                  "start byte)",
        "orphan.wav": "no record beside it (its .json file), so the call owed is unknown",
        "h.json": "not a record of a kept call (larger than 65,536 bytes)",
    } | ({"g.json": "not a record of a kept call (not a regular file (a named pipe))"}
         if fifo else {})


# ------------------------------------------------------------------------- dealer-trainer hear FOLDER
def pcm_of(path) -> bytes:
    from trainer.speech.audio import read_wav

    return read_wav(path)


def test_hear_a_folder_hears_each_call_against_the_call_it_was_owed(tmp_path):
    """A school's own test set: flite's voice saying "seven three four", kept once owed as that
    call and once as another; a record of a game that is none, and a WAV file with no record.
    Each call heard gets a line, each file not used a line naming why, then the counts."""
    needs_flite()
    sound = pcm_of(say("seven three four", "rms", tmp_path))
    data = tmp_path / "data"
    rosa, lee = kept.folder(data, 1), kept.folder(data, 2)
    right = keep(rosa, pcm=sound)
    wrong = keep(lee, pcm=sound, expected="Seven, two-five", heard=None, verdict="unclear")
    craps = keep(lee, pcm=sound, game="craps")
    (rosa / "stray.wav").write_bytes(b"RIFF")
    out = run_here("hear", str(data / "spoken calls"))
    assert out.returncode == 1, out.stderr
    lines = out.stdout.splitlines()
    assert f'trainee 1/{right.name}: right: "Seven, three-four"' in lines
    assert (f'trainee 2/{wrong.name}: wrong: heard "Seven, three-four", expected "Seven, two-five"'
            in lines)
    assert (f"not used: {craps.with_suffix('.json')}: game: unknown game 'craps'; expected one of "
            in out.stdout)
    assert f"not used: {rosa / 'stray.wav'}: no record beside it" in out.stdout
    assert lines[-1] == ("2 calls heard: 1 right, 1 wrong, 0 no call, 0 unclear; 2 files not used")
    assert "Traceback" not in out.stdout + out.stderr
    one = run_here("hear", str(rosa), "--game", "props-and-hops")
    assert one.returncode == 0 and one.stdout.splitlines()[-2:] == [
        f"not used: {rosa / 'stray.wav'}: no record beside it (its .json file), so the call owed "
        "is unknown", "1 call heard: 1 right, 0 wrong, 0 no call, 0 unclear; 1 file not used"]


#: the memory `hear` runs in below (bytes of data, RLIMIT_DATA): the recogniser and its model
#: take some 100 MB; reading the huge file whole would need its 3 GB
HEAR_MEMORY = 1 << 30


def test_a_huge_or_lying_wav_file_is_refused_by_its_header_before_it_is_read(tmp_path):
    """A trainee can put any file in the folder: a WAV file whose header says 2 GB (with a tenth
    of a second in it), and one that is 3 GB (sparse, made here) are each named in a line, by
    what their header says, and `hear` goes on to the call beside them. It runs in a process
    whose memory is bounded below the big file's size, so a reading of either whole would end it
    (MemoryError), not name them."""
    needs_flite()
    resource = pytest.importorskip("resource")
    if not sys.platform.startswith("linux"):
        pytest.skip("RLIMIT_DATA bounds a process's memory on Linux only")
    where = kept.folder(tmp_path / "data", 1)
    right = keep(where, pcm=pcm_of(say("seven three four", "rms", tmp_path)))
    lying, huge = keep(where), keep(where)
    wav_header(lying, 2_000_000_000)
    wav_header(huge, 3_000_000_000 - 44, size=3_000_000_000)
    assert huge.stat().st_size == 3_000_000_000

    def bounded():
        resource.setrlimit(resource.RLIMIT_DATA, (HEAR_MEMORY, HEAR_MEMORY))

    out = subprocess.run([sys.executable, "-m", "ui.main", "hear", str(where)], capture_output=True,
                         text=True, cwd=ROOT, preexec_fn=bounded, timeout=120)
    assert out.returncode == 0, out.stderr  # every call heard was heard right
    lines = out.stdout.splitlines()
    assert (f"not used: {lying}: its header says 62,500.0 seconds of sound; a call is heard from at "
            "most 12 (a call is a few seconds)") in lines
    assert (f"not used: {huge}: its header says 93,750.0 seconds of sound; a call is heard from at "
            "most 12 (a call is a few seconds)") in lines
    assert f'{right.name}: right: "Seven, three-four"' in lines
    assert lines[-1] == "1 call heard: 1 right, 0 wrong, 0 no call, 0 unclear; 2 files not used"
    assert out.stderr == ""


def test_hear_an_empty_folder_or_a_folder_with_expect_is_one_line(tmp_path):
    needs_flite()
    out = run_here("hear", str(tmp_path))
    assert out.returncode == 2
    assert out.stderr == f"{tmp_path}: no call kept by the app is in this folder\n"
    out = run_here("hear", str(tmp_path), "--expect", "No more bets")
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "is a folder of kept calls, each heard against the call it was owed: give no --expect" \
        in out.stderr
    out = run_here("hear", str(tmp_path / "x.wav"), "--game", "props-and-hops")
    assert (out.returncode, out.stderr) == (2, "--expect: needed with a WAV file (or give a folder "
                                               "of kept calls)\n")
