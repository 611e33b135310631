"""Enrolment: the recogniser fitted to one trainee's voice at one microphone.

The trainee reads a few calls (`prompts`); each is heard as a call is (the speech found over the
room's floor by trainer.speech.endpoint: `speech_of`), and from those (PCM, words) pairs
`estimate` gives an MLLR transform of the model's means (`Transform`: for each of the model's
three streams of 13, a 13 by 13 matrix and a bias). pocketsphinx applies it to every mean when a
decoder is made with it (trainer.speech.recogniser.Recogniser(voice=...)).

The estimate: each call is force-aligned by pocketsphinx to its words, down to the model's states
(senones), with the recogniser's own front end (trainer.speech.acoustic: the features the decoder
sees); each frame of a speech phone (not silence or a filler) gives the Gaussians of its phone's
codebook their posteriors, and each stream's transform is solved row by row for diagonal
covariances (Leggetter and Woodland). PASSES aligns the calls again with the first transform and
estimates again. A call that does not align to its words (the trainee said something else, or
nothing) is left out and counted. It takes about 2.5 s of CPU for 20 calls: never on the GUI
thread.

A transform file is pocketsphinx's `-mllr` text. pocketsphinx reads one without a check that
holds: a stream length of 100000 in the header ends the process (it asks for 5.6 GB and exits),
a NaN is taken as a number. So a file is read here, strictly (`Transform.parse`: the model's
streams and sizes, finite numbers of a bounded size), and pocketsphinx is only ever given the
text `Transform.text` writes. Each trainee's transforms are kept in their folder under the data
folder (trainer.speech.kept.folder), a file per microphone (`kept_at`), written whole or not at
all.
"""

from __future__ import annotations

import hashlib
import os
import random
import re
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from trainer import games
from trainer.errors import RequestError, shown
from trainer.paths import atomic_bytes
from trainer.speech import acoustic
from trainer.speech.calls import SpokenCall, spoken_calls
from trainer.speech.endpoint import FRAME_BYTES, Endpointer
from trainer.vocabulary import Do

#: the calls a trainee reads, and the passes of the estimate
CALLS = 20
PASSES = 2
#: the model's streams and their length (its feat.params: `-svspec 0-12/13-25/26-38`)
STREAMS, DIM = 3, 13
#: the largest magnitude of a number in a transform file (the benchmark's voices' are under 5)
LIMIT = 1e4
#: the largest transform file read (one written here takes about 6 KB)
FILE_CAP = 64 * 1024
#: phones whose frames are not the trainee's speech
_SKIP = {"SIL", "+NSN+", "+SPN+"}


@dataclass(frozen=True)
class Prompt:
    """A call the trainee reads: the game's call, the words to say (shown to the trainee), and why
    it is among the prompts (`prompts`)."""

    game: str
    call: SpokenCall
    words: str
    why: str = ""


#: the calls read first, whatever words the others bring, and why: the calls a dealer says most
FIRST = ((Do.NO_MORE_BETS, "the call of every round in four of the five games"),
         (Do.NO_ROLL, "the start of every no roll, in every game"))


def prompts(count: int = CALLS, seed: str = "enrol") -> list[Prompt]:
    """`count` calls across the games. FIRST: "No more bets", then a no roll (the one of the most
    words). Then each next call is the one with the most words not yet in the prompts (the
    digits, colours, counts and the football words: a word never read is a word the fit cannot
    move the model for), among those the one of the game with the fewest prompts so far (so
    that each game's calls are heard as its grammar holds them), ties in a seeded order."""
    # "no roll" alone left out: its words are every no roll's, and the prompts stay those the
    # enrolment was measured with
    pool = [Prompt(g, c, c.said[0]) for g in games.GAME_IDS for c in spoken_calls(g)
            if not (c.do is Do.NO_ROLL and c.value is None)]
    random.Random(seed).shuffle(pool)
    chosen: list[Prompt] = []
    for do, why in FIRST:
        first = max((p for p in pool if p.call.do is do and p.words not in
                     {c.words for c in chosen}), key=lambda p: len(p.words.split()))
        chosen.append(replace(first, why=why))
    seen = {w for p in chosen for w in p.words.split()}
    said = {p.words for p in chosen}
    pool = [p for p in pool if p.words not in said]
    while len(chosen) < count and pool:
        by_game = Counter(p.game for p in chosen)
        best = max(pool, key=lambda p: (len(set(p.words.split()) - seen), -by_game[p.game]))
        pool = [p for p in pool if p.words != best.words]
        new = sorted(set(best.words.split()) - seen, key=best.words.split().index)
        chosen.append(replace(best, why="new words: " + ", ".join(new) if new else
                              "no new words left: a call of the game with the fewest prompts"))
        said.add(best.words)
        seen |= set(best.words.split())
    return chosen[:count]


def speech_of(pcm: bytes) -> bytes:
    """The speech in a recording as the listener finds it (trainer.speech.endpoint), with its
    margins; the whole recording where no speech ended in it."""
    ep = Endpointer()
    for at in range(0, len(pcm) - FRAME_BYTES + 1, FRAME_BYTES):
        ep.process(pcm[at:at + FRAME_BYTES])
        if ep.speech_end is not None:
            return ep.speech()
    ep.end_stream()
    return ep.speech() if ep.speech_end is not None else pcm


@dataclass(frozen=True)
class Transform:
    """An MLLR transform of the means: each stream's mean mu becomes A mu + b."""

    A: np.ndarray  # [stream, DIM, DIM]
    b: np.ndarray  # [stream, DIM]

    def text(self) -> str:
        """pocketsphinx's `-mllr` text: one class, the streams, then for each its length, A's
        rows, b and the variances' scales (1: the means only)."""
        lines = ["1", str(STREAMS)]
        for f in range(STREAMS):
            lines.append(str(DIM))
            lines += [" ".join(f"{v:.7g}" for v in row) for row in self.A[f]]
            lines.append(" ".join(f"{v:.7g}" for v in self.b[f]))
            lines.append(" ".join("1" for _ in range(DIM)))
        return "\n".join(lines) + "\n"

    @classmethod
    def parse(cls, text: str, where: str = "transform") -> Transform:
        """A transform as `text` writes it; a RequestError naming what is not (the decoder is
        never given a file this has not read)."""
        tokens = text.split()
        expected = 2 + STREAMS * (1 + DIM * DIM + 2 * DIM)
        head = f"1 class and {STREAMS} streams of {DIM} (the speech model's)"
        if tokens[:2] != ["1", str(STREAMS)]:
            raise RequestError(where, f"not a voice transform of this speech model: it must "
                                      f"begin with {head}")
        if len(tokens) != expected:
            raise RequestError(where, f"not a whole voice transform: {len(tokens)} numbers where "
                                      f"one of {head} has {expected}")
        stride = 1 + DIM * DIM + 2 * DIM
        for f in range(STREAMS):
            if tokens[2 + f * stride] != str(DIM):
                raise RequestError(where, f"not a voice transform of this speech model: stream "
                                          f"{f + 1} is of {shown(tokens[2 + f * stride])}, "
                                          f"not {DIM}")
        try:
            values = np.array([float(t) for t in tokens], dtype=np.float64)
        except ValueError as e:
            raise RequestError(where, f"not a voice transform: {e}") from None
        if not np.all(np.isfinite(values)) or np.abs(values).max() > LIMIT:
            raise RequestError(where, f"not a voice transform: a number is not finite or past "
                                      f"{LIMIT:g}")
        A = np.empty((STREAMS, DIM, DIM))
        b = np.empty((STREAMS, DIM))
        for f in range(STREAMS):
            at = 3 + f * stride
            A[f] = values[at: at + DIM * DIM].reshape(DIM, DIM)
            b[f] = values[at + DIM * DIM: at + DIM * DIM + DIM]
            if not np.all(values[at + DIM * DIM + DIM: at + stride - 1] == 1):
                raise RequestError(where, "not a voice transform made here: it scales the "
                                          "variances (a transform of the means has scales of 1)")
        return cls(A, b)

    @classmethod
    def read(cls, path: Path) -> Transform:
        """The transform kept in a file; a RequestError naming the file and the problem."""
        from trainer import files

        try:
            data = files.read_capped(path, FILE_CAP)
            text = data.decode("ascii")
        except files.FileRefused as e:
            raise RequestError(str(path), f"not a voice transform ({e})") from None
        except UnicodeDecodeError:
            raise RequestError(str(path), "not a voice transform (not plain text)") from None
        except OSError as e:
            raise RequestError(str(path), f"cannot be read ({e.strerror or e})") from None
        return cls.parse(text, str(path))

    def write(self, path: Path) -> None:
        """Kept in a file, written whole or not at all."""
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_bytes(path, self.text().encode("ascii"), private=True)


def kept_at(data_folder: str | os.PathLike, trainee_id: int, microphone: str) -> Path:
    """Where a trainee's transform for a microphone is kept: beside their kept calls
    (trainer.speech.kept.folder), whether or not they keep calls."""
    from trainer.speech import kept

    return path(kept.folder(data_folder, trainee_id), microphone)


def path(trainee_folder: Path, microphone: str) -> Path:
    """The file of a trainee's transform for a microphone (named by the microphone's name, made
    safe for a file name, and a digest of the whole name: two names never share a file)."""
    safe = re.sub(r"[^A-Za-z0-9._ -]+", "_", microphone).strip(" .")[:40] or "microphone"
    digest = hashlib.sha256(microphone.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return trainee_folder / f"voice {safe} {digest}.mllr"


@dataclass(frozen=True)
class Estimate:
    transform: Transform
    frames: int  # the frames of speech the last pass used
    left_out: tuple[int, ...]  # the calls (by index) that did not align to their words
    cpu: float  # seconds of this thread's CPU


class TooLittle(Exception):
    """Too few of the calls aligned to their words to estimate a transform from."""


def estimate(pairs: Sequence[tuple[bytes, str]], passes: int = PASSES,
             least: int = CALLS // 2) -> Estimate:
    """The transform of one voice from (PCM, words said) pairs, the PCM 16 kHz mono 16-bit (as
    `speech_of` gives it). TooLittle where fewer than `least` calls align."""
    from pocketsphinx import Decoder

    from trainer.speech.recogniser import fresh_stream, settings

    cpu = time.thread_time()
    base = acoustic.model()
    model = base
    transform: Transform | None = None
    for _ in range(passes):
        with tempfile.TemporaryDirectory(prefix="dealer-trainer-enrol-") as logdir:
            # the lattice pass off and one wide beam: in a room's noise every call of the study
            # aligned so, against 2 of 20 with the decoder's own beams
            kw = {**settings(), "mfclogdir": logdir, "beam": 1e-60, "pbeam": 1e-60,
                  "wbeam": 1e-60}
            if transform is not None:
                kw["mllr"] = str(Path(logdir) / "voice.mllr")
                (Path(logdir) / "voice.mllr").write_text(transform.text(), encoding="ascii")
            decoder = Decoder(**kw)
            stats = Stats(base)
            left_out = []
            for i, (pcm, words) in enumerate(pairs):
                try:
                    frames, cep = _align(decoder, Path(logdir), words, pcm, fresh_stream)
                except (RuntimeError, IndexError):  # no alignment reached the end of the
                    # words (IndexError: pocketsphinx's, for a reading with no audio at all)
                    left_out.append(i)
                    continue
                stats.add_call(model, frames, acoustic.features(cep))
        if len(pairs) - len(left_out) < least:
            raise TooLittle(f"{len(pairs) - len(left_out)} of {len(pairs)} calls were heard as "
                            f"their words; at least {least} are needed")
        # read back as a file is (finite, bounded): the decoder of the next pass, and the file
        # kept, are never given numbers `parse` would refuse
        transform = Transform.parse(solve(base, stats).text(), "the fitted transform")
        model = base.adapted(transform.A, transform.b)
    assert transform is not None
    return Estimate(transform, stats.frames, tuple(left_out), time.thread_time() - cpu)


class Stats:
    """For each Gaussian of each codebook: its occupancy and the sum of the frames given it."""

    def __init__(self, model: acoustic.Model) -> None:
        self.occ = np.zeros((model.means.shape[0], model.n_feat, model.n_den))
        self.sum = np.zeros(model.means.shape)
        self.frames = 0

    def add_call(self, model: acoustic.Model, frames: list[tuple[int, int, int]],
                 feat: np.ndarray) -> None:
        by_cb: dict[int, list[tuple[int, int]]] = {}
        for t, cb, sen in frames:
            by_cb.setdefault(cb, []).append((t, sen))
        for cb, ts in by_cb.items():
            idx = np.array([t for t, _ in ts])
            self._add(model, cb, np.array([s for _, s in ts]), feat[idx])

    def _add(self, model: acoustic.Model, cb: int, sen: np.ndarray, feat: np.ndarray) -> None:
        lg = model.log_gauss(cb, feat) + model.logw[sen]  # [frame, stream, density]
        post = np.exp(lg - lg.max(axis=-1, keepdims=True))
        post /= post.sum(axis=-1, keepdims=True)
        o = feat.reshape(len(feat), model.n_feat, model.dim)
        self.occ[cb] += post.sum(axis=0)
        self.sum[cb] += post.transpose(1, 2, 0) @ o.transpose(1, 0, 2)  # [stream, density, dim]
        self.frames += len(feat)


def solve(model: acoustic.Model, st: Stats) -> Transform:
    """A and b of each stream maximising the calls' likelihood (the means only)."""
    n_feat, dim = model.n_feat, model.dim
    A = np.tile(np.eye(dim), (n_feat, 1, 1))
    b = np.zeros((n_feat, dim))
    for f in range(n_feat):
        mu = model.means[:, f].reshape(-1, dim)
        occ = st.occ[:, f].reshape(-1)
        s = st.sum[:, f].reshape(-1, dim)
        iv = 1 / model.var[:, f].reshape(-1, dim)
        xi = np.concatenate([mu, np.ones((len(mu), 1))], axis=1)  # the extended mean
        # G[i] = sum over the Gaussians of occ iv_i xi xi^T; k[i] = sum of s_i iv_i xi
        G = (xi.T[None] * (occ[:, None] * iv).T[:, None, :]) @ xi  # [dim, dim + 1, dim + 1]
        k = (s * iv).T @ xi
        for i in range(dim):
            w = np.linalg.solve(G[i], k[i])
            A[f, i], b[f, i] = w[:dim], w[dim]
    return Transform(A, b)


def _align(decoder, logdir: Path, words: str, pcm: bytes,
           fresh_stream) -> tuple[list[tuple[int, int, int]], np.ndarray]:
    """The (frame, codebook, senone) of every frame of the words' speech phones, and the
    utterance's cepstra as the decoder computed them; a RuntimeError where it does not align."""
    for mfc in logdir.glob("*.mfc"):
        mfc.unlink()
    decoder.set_align_text(words)
    for second in (False, True):  # words to phones, then phones to states
        if second:
            decoder.set_alignment()
        fresh_stream(decoder)
        decoder.start_utt()
        decoder.process_raw(pcm, full_utt=True)
        decoder.end_utt()
    frames = []
    for phone in decoder.get_alignment().phones():
        if phone.name in _SKIP:
            continue
        cb = acoustic.PHONES.index(phone.name)
        for state in phone:
            frames += [(t, cb, int(state.name))
                       for t in range(state.start, state.start + state.duration)]
    last = max(logdir.glob("*.mfc"))  # the second pass's (utterance ids count up)
    return frames, acoustic.read_mfc(last)
