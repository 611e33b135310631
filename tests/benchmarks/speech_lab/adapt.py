"""Speaker adaptation by enrolment: an MLLR transform of the stock model's means, estimated on 20
calls one voice read in one noise, then the other calls of that voice in that noise decoded with
it (never the enrolment calls, nor calls of the same words), against the same calls decoded
without it.

    adapt.py estimate TAG [--kind full|bias] [--passes N] [--frontend none|wiener] [--others]
    adapt.py decode RUN [--tag TAG] [--frontend ..] [--best-only] [--calls-only] [--every N]
    adapt.py score RUN [RUN ..]        (best path right of the calls, by voice and noise)
    (--voices and --noises choose a part of the set; --others enrols on 20 calls of the other
    speakers in the same noise: the room's transform, not the speaker's)

estimate: per voice and noise, 20 calls drawn with a fixed seed; each is force-aligned by
pocketsphinx to its words (states, that is senones, per frame), its cepstra logged by the
decoder (`mfclogdir`); the frames of speech phones (not SIL or fillers) give each Gaussian of
the senone's codebook its posterior, and the transform of each stream (13 by 13 and a bias:
`full`; a bias alone: `bias`) is solved row by row (diagonal covariances, Leggetter and Woodland).
With --passes 2 the calls are aligned again with the first transform and it is estimated again.
Writes /tmp/speech-lab/adapt/TAG/VOICE-NOISE.mllr and TAG/estimate.json (enrolment ids, CPU).
decode: decode.py's decode (--fresh-cmn) of every utterance of those voices but the enrolment's
calls, each with its voice and noise's transform (or none without --tag), into runs/RUN.jsonl
for evaluate.py.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path

import decode  # beside this script: its folder is on the path when it runs
import numpy as np
import pocketsphinx as ps

# the product's statistics and solve; the alignment below is the study's own (its decoder
# settings and --frontend wiener), as it ran
from trainer.speech import acoustic
from trainer.speech import enrolment as product

OUT = Path("/tmp/speech-lab")
ENROL = 20
VOICES = ("kal", "kal16", "awb", "rms", "slt")
NOISES = ("crowd", "broadband")
SKIP = {"SIL", "+NSN+", "+SPN+"}
FOLD = {"kal": "kal", "kal16": "kal", "awb": "awb", "rms": "rms", "slt": "slt"}


def enrolment(utts: list[dict], voice: str, noise: str) -> list[dict]:
    """The 20 calls this voice reads first, in this noise: drawn with a fixed seed."""
    calls = [u for u in utts if u["in_grammar"] and u["voice"] == voice and u["noise"] == noise]
    return random.Random(f"enrol:{voice}:{noise}").sample(calls, ENROL)


def others(utts: list[dict], voice: str, noise: str) -> list[dict]:
    """20 enrolment calls of the other speakers in the same noise (a room's transform, not the
    speaker's): drawn with a fixed seed from their enrolment calls."""
    pool = [u for v in VOICES if FOLD[v] != FOLD[voice] for u in enrolment(utts, v, noise)]
    return random.Random(f"others:{voice}:{noise}").sample(pool, ENROL)


def solve(model: acoustic.Model, st: product.Stats, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """A and b of each stream maximising the enrolment's likelihood (means only): the product's
    full transform, or a bias alone."""
    if kind != "bias":
        t = product.solve(model, st)
        return t.A, t.b
    A = np.tile(np.eye(model.dim), (model.n_feat, 1, 1))
    b = np.zeros((model.n_feat, model.dim))
    for f in range(model.n_feat):
        mu = model.means[:, f].reshape(-1, model.dim)
        occ = st.occ[:, f].reshape(-1)
        s = st.sum[:, f].reshape(-1, model.dim)
        iv = 1 / model.var[:, f].reshape(-1, model.dim)
        b[f] = ((s - occ[:, None] * mu) * iv).sum(0) / (occ[:, None] * iv).sum(0)
    return A, b


def align(d: ps.Decoder, logdir: str, text: str, audio: bytes) -> tuple[list, np.ndarray]:
    """The senone and base phone of every frame of the call's words, and its cepstra."""
    for mfc in Path(logdir).glob("*.mfc"):
        mfc.unlink()
    d.reinit_feat()  # as decode.py --fresh-cmn: the utterance's own cepstral mean
    d.set_align_text(text)
    d.start_utt()
    d.process_raw(audio, full_utt=True)
    d.end_utt()
    d.set_alignment()
    d.start_utt()
    d.process_raw(audio, full_utt=True)
    d.end_utt()
    frames = []
    for phone in d.get_alignment().phones():
        if phone.name in SKIP:
            continue
        cb = acoustic.PHONES.index(phone.name)
        for state in phone:
            frames += [(t, cb, int(state.name))
                       for t in range(state.start, state.start + state.duration)]
    last = max(Path(logdir).glob("*.mfc"))  # the second pass's (utterance ids count up)
    return frames, acoustic.read_mfc(last)


def estimate_one(job: tuple) -> dict:
    tag, voice, noise, enrol, kind, passes, frontend = job
    t0 = time.process_time()
    base = acoustic.model()
    model, A, b, mllr = base, None, None, None
    out = OUT / "adapt" / tag / f"{voice}-{noise}.mllr"
    audio = {}
    for u in enrol:
        x = decode.read(u["wav"])
        audio[u["wav"]] = (decode.wiener(x) if frontend == "wiener" else x).tobytes()
    for _ in range(passes):
        with tempfile.TemporaryDirectory(dir=OUT) as logdir:
            # the lattice pass off (its segmentation gives phones impossible durations, and
            # the state alignment then fails) and one beam for frames and words: in the noise,
            # every enrolment call of the probe aligned so, against 2 of 20 as set by default
            kw = {"lm": None, "loglevel": "FATAL", "mfclogdir": logdir, "bestpath": False,
                  "beam": 1e-60, "pbeam": 1e-60, "wbeam": 1e-60}
            if mllr:
                kw["mllr"] = str(mllr)
            d = ps.Decoder(**kw)
            st = product.Stats(base)
            failed = 0
            for u in enrol:
                try:
                    frames, cep = align(d, logdir, u["text"], audio[u["wav"]])
                except RuntimeError:  # no alignment reached the end: the call is left out
                    failed += 1
                    continue
                st.add_call(model, frames, acoustic.features(cep))
        A, b = solve(base, st, kind)
        model = base.adapted(A, b)
        product.Transform(A, b).write(out)
        mllr = out
    return {"voice": voice, "noise": noise, "cpu": time.process_time() - t0,
            "frames": st.frames, "failed": failed, "enrol": [u["id"] for u in enrol],
            "bias": np.round(b, 3).tolist(),
            "A_offdiag": float(np.abs(A - np.eye(A.shape[1])).mean())}


def pick(a: argparse.Namespace) -> list[tuple[str, str]]:
    return [(v, n) for v in a.voices.split(",") for n in a.noises.split(",")]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=("estimate", "decode", "score"))
    ap.add_argument("names", nargs="+")
    ap.add_argument("--kind", default="full", choices=("full", "bias"))
    ap.add_argument("--passes", type=int, default=1)
    ap.add_argument("--others", action="store_true",
                    help="enrol on the other speakers' calls in the same noise")
    ap.add_argument("--frontend", default="none")
    ap.add_argument("--tag")
    ap.add_argument("--best-only", action="store_true")
    ap.add_argument("--calls-only", action="store_true", help="no out-of-grammar phrases")
    ap.add_argument("--every", type=int, default=1, help="decode every Nth utterance")
    ap.add_argument("--voices", default=",".join(VOICES))
    ap.add_argument("--noises", default=",".join(NOISES))
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    utts = json.loads((OUT / "set.json").read_text())["utts"]
    if a.what == "estimate":
        tag = a.names[0]
        (OUT / "adapt" / tag).mkdir(parents=True, exist_ok=True)
        jobs = [(tag, v, n, others(utts, v, n) if a.others else enrolment(utts, v, n),
                 a.kind, a.passes, a.frontend) for v, n in pick(a)]
        with Pool(a.jobs) as pool:
            done = pool.map(estimate_one, jobs, chunksize=1)
        path = OUT / "adapt" / tag / "estimate.json"
        old = json.loads(path.read_text()) if path.exists() else []
        keep = [e for e in old if (e["voice"], e["noise"]) not in {(v, n) for v, n in pick(a)}]
        path.write_text(json.dumps(keep + done, indent=0))
        for e in done:
            print(f"{e['voice']}/{e['noise']}: {e['frames']} frames ({e['failed']} calls not "
                  f"aligned), CPU {e['cpu']:.1f} s, "
                  f"|A - I| {e['A_offdiag']:.4f}, static bias {e['bias'][0][:3]}")
    elif a.what == "decode":
        jobs = []
        for v, n in pick(a):
            # flite reads a text the same each time: a call of the same words as an enrolment
            # call (another game's "no roll") is left out too, not only the enrolment's own
            held = {u["text"] for u in enrolment(utts, v, n)}
            mllr = str(OUT / "adapt" / a.tag / f"{v}-{n}.mllr") if a.tag else None
            opts = {"mllr": mllr, "frontend": a.frontend, "fresh_cmn": True,
                    "best_only": a.best_only}
            group = [u for u in utts if u["voice"] == v and u["noise"] == n
                     and not (u["in_grammar"] and u["text"] in held)
                     and (u["in_grammar"] or not a.calls_only)]
            jobs += [(u, opts) for u in group[:: a.every]]
        (OUT / "runs").mkdir(exist_ok=True)
        t0 = time.time()
        with Pool(a.jobs) as pool, open(OUT / "runs" / f"{a.names[0]}.jsonl", "w") as f:
            f.writelines(json.dumps(r) + "\n"
                         for r in pool.imap(decode.decode_one, jobs, chunksize=8))
        print("done", a.names[0], len(jobs), f"{time.time() - t0:.0f} s wall")
    else:
        for run in a.names:
            rows = [json.loads(x) for x in (OUT / "runs" / f"{run}.jsonl").read_text().split("\n")
                    if x]
            held = {(u["voice"], u["noise"], u["text"]) for v, n in pick(a)
                    for u in enrolment(utts, v, n)}
            rows = [r for r in rows if (r["voice"], r["noise"], r["text"]) not in held]
            by: dict = {}
            for r in rows:
                k = (r["voice"], r["noise"])
                c = by.setdefault(k, {"right": 0, "calls": 0, "oog_heard": 0, "oog": 0})
                if r["in_grammar"]:
                    c["calls"] += 1
                    c["right"] += r["hyp"] == r["text"]
                else:
                    c["oog"] += 1
            tot = {k: sum(c[k] for c in by.values()) for k in ("right", "calls")}
            print(f"{run}: best path right {tot['right']}/{tot['calls']};",
                  ", ".join(f"{v}/{n} {c['right']}/{c['calls']}"
                            for (v, n), c in sorted(by.items())))


if __name__ == "__main__":
    main()
