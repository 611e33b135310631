"""A trainee's own voice (trainer.speech.enrolment): a transform estimated from calls of one
voice makes a noisy call of that voice right that was not; a transform file round-trips; a file
that is no transform of this model (cut short, a header pocketsphinx would allocate gigabytes
for, a NaN, another model's sizes, not text, far too large) is refused with a message naming the
file and the problem, by `Transform.read` and by a `Listener` given it, and never reaches
pocketsphinx. The calls are flite's voices in tests/support/room.py's noise, made once per run
(tests/support/voice.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support import voice
from tests.support.flite import needs_flite, say, voices
from tests.support.room import crowd_of, noisy, pcm_of
from trainer.errors import RequestError
from trainer.speech import Listener, enrolment, hear, spoken_calls
from trainer.speech.enrolment import DIM, STREAMS, Transform

GAME = "props-and-hops"


def test_the_prompts_are_calls_of_the_games_and_read_every_die_s_word():
    prompts = enrolment.prompts()
    assert len(prompts) == enrolment.CALLS == len({p.words for p in prompts})
    for p in prompts:
        assert p.words in p.call.said and p.call in spoken_calls(p.game)
    read = {w for p in prompts for w in p.words.split()}
    assert {"one", "two", "three", "four", "five", "six", "no", "roll"} <= read
    assert len({p.game for p in prompts}) >= 4
    assert enrolment.prompts() == prompts  # the same for every trainee


def some_transform(seed: int = 3) -> Transform:
    rng = np.random.default_rng(seed)
    A = np.eye(DIM)[None].repeat(STREAMS, 0) + rng.normal(0, 0.1, (STREAMS, DIM, DIM))
    return Transform(A, rng.normal(0, 2, (STREAMS, DIM)))


def test_a_transform_file_round_trips(tmp_path):
    t = some_transform()
    path = enrolment.path(tmp_path / "trainee 4", "USB Audio: Mic #1")
    t.write(path)
    back = Transform.read(path)
    # the file keeps 7 significant digits: the decoder reads no more than a float's
    assert np.allclose(back.A, t.A, rtol=1e-6, atol=1e-9)
    assert np.allclose(back.b, t.b, rtol=1e-6, atol=1e-9)
    assert back.text() == t.text()
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]  # no part file left


def test_a_trainee_s_transform_is_kept_beside_their_calls(tmp_path):
    from trainer.speech import kept

    where = enrolment.kept_at(tmp_path, 4, "USB Audio: Mic #1")
    assert where.parent == kept.folder(tmp_path, 4)
    assert where != enrolment.kept_at(tmp_path, 5, "USB Audio: Mic #1")
    some_transform().write(where)
    kept.keep(where.parent, bytes(3200), game=GAME, expected="No more bets", heard=None,
              verdict="none", trainee="Ann")
    assert [type(k).__name__ for k in kept.read(tmp_path)] == ["Kept"]  # not a call kept


def test_each_microphone_has_a_file_of_its_own(tmp_path):
    names = ["USB Audio: Mic #1", "USB Audio: Mic #2", "USB Audio_ Mic _1", "", "../../etc"]
    paths = [enrolment.path(tmp_path, n) for n in names]
    assert len(set(paths)) == len(names)
    assert all(p.parent == tmp_path for p in paths)


def good_text() -> str:
    return some_transform().text()


def with_first_value(value: str) -> str:
    """A good transform with its matrix's first number written as `value`."""
    lines = good_text().split("\n")
    lines[3] = " ".join([value, *lines[3].split()[1:]])
    return "\n".join(lines)


HOSTILE = {
    "cut short": (lambda: good_text()[: len(good_text()) // 2], "not a whole voice transform"),
    "empty": (lambda: "", "must begin with 1 class and 3 streams of 13"),
    # pocketsphinx allocates 100000 x 100000 floats for this header and ends the process
    "a stream of 100000": (lambda: "1\n3\n100000\n" + " 0" * 587,
                           "stream 1 is of '100000', not 13"),
    "a million classes": (lambda: "1000000\n3\n" + good_text()[4:],
                          "must begin with 1 class and 3 streams of 13"),
    "five streams": (lambda: "1\n5\n" + good_text()[4:], "must begin with 1 class"),
    "a NaN": (lambda: with_first_value("nan"), "a number is not finite or past"),
    "a huge number": (lambda: with_first_value("1e300"), "a number is not finite or past"),
    "a word for a number": (lambda: with_first_value("one"), "could not convert"),
    "variances scaled": (lambda: good_text()[: -2] + "0\n", "scales the variances"),
    "words": (lambda: "hello world\n", "must begin with 1 class"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_file_that_is_no_transform_is_refused_naming_the_problem(tmp_path, case):
    make, why = HOSTILE[case]
    path = tmp_path / "voice.mllr"
    path.write_text(make(), encoding="ascii")
    with pytest.raises(RequestError) as e:
        Transform.read(path)
    assert str(path) in str(e.value) and why in str(e.value)


def test_a_binary_or_huge_file_is_refused(tmp_path):
    binary = tmp_path / "binary.mllr"
    binary.write_bytes(b"1\n3\n13\n\xff\xfe" + bytes(range(256)))
    with pytest.raises(RequestError, match="not plain text"):
        Transform.read(binary)
    huge = tmp_path / "huge.mllr"
    huge.write_text(good_text() * 20, encoding="ascii")
    with pytest.raises(RequestError, match="not a voice transform"):
        Transform.read(huge)
    with pytest.raises(RequestError, match="cannot be read"):
        Transform.read(tmp_path / "none.mllr")


def test_a_listener_given_a_hostile_file_says_so_and_the_process_lives(tmp_path):
    needs_flite()
    path = tmp_path / "voice.mllr"
    path.write_text("1\n3\n100000\n" + " 0" * 587, encoding="ascii")
    with pytest.raises(RequestError, match="not a voice transform of this speech model"):
        Listener(GAME, "Eight, two-six", voice=path)


def test_the_voice_s_own_transform_makes_its_noisy_calls_right(tmp_path_factory, tmp_path):
    """slt, the voice the garbage branch takes most in noise, enrolled on the product's 20 prompts
    in the room at 10 dB (tests/support/voice.py's readings, their speech as the listener finds
    it); then Props & Hops calls (no prompt's words) in other draws of that room, each heard from
    the same audio without the transform and with it: unclear without, and right with it for
    most (on the development machine: 6 of 6 right with, none without). The estimate is the
    product's own, run once per run for these readings (the enrolment dialog's test fits the
    same readings)."""
    readings = voice.readings(tmp_path_factory)
    found = voice.fitted(tmp_path_factory, voice.pairs(readings))
    assert found.left_out == () and found.frames > 2000
    kept = tmp_path / "slt.mllr"
    found.transform.write(kept)

    flite = voices(tmp_path_factory)
    crowd = crowd_of(flite, voices=voice.CROWD)
    prompted = {p.words for p in enrolment.prompts()}
    wavs = []
    for call, words in CALLS:
        assert words not in prompted
        for seed in SEEDS:
            wavs.append((tmp_path / f"{words} {seed}.wav", call))
            voice.write_wav(wavs[-1][0], noisy(pcm_of(say(words, voice.VOICE, flite)), voice.SNR,
                                               np.random.default_rng(seed), crowd))
    # all without, then all with: the process holds one recogniser at a time (a voice's or the
    # model's own), made again for each change; each call is heard from the same file both ways
    without = [hear(wav, GAME, call).kind for wav, call in wavs]
    with_ = [hear(wav, GAME, call, voice=kept).kind for wav, call in wavs]
    assert without.count("right") == 0, without
    assert with_.count("right") >= 4, with_
    assert "wrong" not in with_


def test_a_reading_with_no_sound_is_left_out_and_counted_not_the_whole_fit(tmp_path_factory):
    """A reading with no audio at all (pocketsphinx's IndexError) among readings that align: left
    out by its index, and the others fitted (one pass, the two others enough)."""
    given = voice.pairs(voice.readings(tmp_path_factory))[:2]
    found = enrolment.estimate([*given, (b"", given[0][1])], passes=1, least=2)
    assert found.left_out == (2,) and found.frames > 200


def test_a_codebook_s_log_densities_are_its_gaussians_written_out():
    """Model.log_gauss (what the estimate's posteriors come from) against the log of a diagonal
    Gaussian's density, summed term by term here, for frames far from the means and near them."""
    from trainer.speech import acoustic, unavailable

    if (why := unavailable()) is not None:
        pytest.skip(why)
    model = acoustic.model()
    rng = np.random.default_rng(5)
    cb = acoustic.PHONES.index("EY")
    feat = np.concatenate([rng.normal(0, 10, (2, 39)), model.means[cb, :, 3].reshape(1, 39)])
    got = model.log_gauss(cb, feat)
    assert got.shape == (3, STREAMS, model.n_den)
    for t, f, k in [(0, 0, 0), (1, 2, 127), (2, 1, 3), (2, 0, 64)]:
        o, mu, var = feat[t, DIM * f: DIM * (f + 1)], model.means[cb, f, k], model.var[cb, f, k]
        want = sum(-0.5 * np.log(2 * np.pi * v) - (x - m) ** 2 / (2 * v)
                   for x, m, v in zip(o, mu, var, strict=True))
        assert got[t, f, k] == pytest.approx(want, rel=1e-9, abs=1e-9), (t, f, k)


#: calls of slt's that the room at 10 dB makes unclear without the transform at these seeds (of
#: seeds 0 to 7 tried, those where both calls were unclear without it)
CALLS = (("Seven, one-six", "seven one six"), ("Nine, four-five", "nine four five"))
SEEDS = (3, 4, 5)
