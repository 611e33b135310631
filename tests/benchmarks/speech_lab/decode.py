"""Decode the evaluation set once per front end / model, keeping what every confidence measure
needs: the best call and its word segmentation, the second-best call, and a free phone loop's
score and segmentation of the same audio.

Run: python tests/benchmarks/speech_lab/decode.py NAME [--frontend none|wiener] [--limit N] [--jobs 2]
(--mllr FILE hands a transform to the decoder; --ps '{"topn": 8}' any other setting)
Writes /tmp/speech-lab/runs/NAME.jsonl (one line per utterance).
"""

from __future__ import annotations

import argparse
import json
import os
import time
import wave
from multiprocessing import Pool
from pathlib import Path

import numpy as np
import pocketsphinx as ps

OUT = Path("/tmp/speech-lab")


def jsgf(calls: list[str]) -> str:
    """A grammar of the calls alone: what is no call is judged by the confidence measures."""
    return ("#JSGF V1.0;\ngrammar calls;\n"
            f"public <utt> = {' | '.join(calls)};\n")


_dec: dict = {}


def decoder(opts: dict) -> dict:
    """One decoder per process, made again when the transform asked for changes."""
    if "d" not in _dec or _dec.get("mllr") != opts.get("mllr"):
        _dec["mllr"] = opts.get("mllr")
        kw = {"lm": None, "loglevel": "FATAL", "bestpath": False}
        if opts.get("mllr"):
            kw["mllr"] = opts["mllr"]
        for k, v in (opts.get("ps") or {}).items():
            kw[k] = v
        d = ps.Decoder(**kw)
        for game, calls in _grammars().items():
            d.add_jsgf_string(game, jsgf(calls))
        model = os.path.join(ps.get_model_path(), "en-us")
        d.add_allphone_file("phones", os.path.join(model, "en-us-phone.lm.bin"))
        _dec["d"] = d
    return _dec["d"]


def read(path: str) -> np.ndarray:
    with wave.open(path) as w:
        return np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)


def wiener(x: np.ndarray) -> np.ndarray:
    """A decision-directed Wiener filter; the noise spectrum from the quietest 10% of frames."""
    n, hop = 512, 256
    win = np.hanning(n)
    pad = np.concatenate([np.zeros(n), x.astype(np.float64), np.zeros(n)])
    frames = np.lib.stride_tricks.sliding_window_view(pad, n)[::hop] * win
    spec = np.fft.rfft(frames, axis=1)
    power = np.abs(spec) ** 2
    energy = power.sum(axis=1)
    quiet = power[energy <= np.quantile(energy, 0.1)].mean(axis=0) + 1e-9
    gain = np.ones_like(power)
    prev = np.ones(power.shape[1])
    for i in range(len(power)):
        post = power[i] / quiet
        prio = 0.98 * prev + 0.02 * np.maximum(post - 1, 0)
        g = prio / (1 + prio)
        gain[i] = np.maximum(g, 0.1)
        prev = g ** 2 * post
    out = np.fft.irfft(spec * gain, n, axis=1) * win
    y = np.zeros(len(pad))
    for i, f in enumerate(out):
        y[i * hop: i * hop + n] += f
    y = y[n: n + len(x)] / (win ** 2).sum() * hop
    return np.clip(y, -32768, 32767).astype(np.int16)


def run(d, search: str, audio: bytes) -> None:
    d.activate_search(search)
    d.start_utt()
    d.process_raw(audio, full_utt=True)
    d.end_utt()


def segs(d) -> list:
    lm = d.get_logmath()
    return [(s.word, s.start_frame, s.end_frame, lm.log(s.ascore)) for s in d.seg()
            if s.start_frame >= 0] if d.hyp() else []


def decode_one(args: tuple[dict, dict]) -> dict:
    """The grammar's best call; the best call of the grammar without it (the N-best margin, as
    pocketsphinx's FSG N-best returns unfinished paths); a free phone loop over the same audio."""
    utt, opts = args
    d = decoder(opts)
    lm = d.get_logmath()
    x = read(utt["wav"])
    if opts.get("frontend") == "wiener":
        x = wiener(x)
    audio = x.tobytes()
    if opts.get("fresh_cmn"):  # live CMN otherwise carries over from the utterances before
        d.reinit_feat()
    t0 = time.process_time()
    run(d, utt["game"], audio)
    hyp = d.hyp()
    t_grammar = time.process_time() - t0
    res = {"hyp": hyp.hypstr if hyp else "", "score": lm.log(hyp.score) if hyp else None,
           "frames": d.n_frames(), "seg": segs(d), "t_grammar": t_grammar}
    keep = ("id", "game", "call", "text", "in_grammar", "voice", "fold", "noise")
    if opts.get("best_only"):  # the best path alone, no confidence measures
        return {**{k: utt[k] for k in keep}, **res}
    calls = _grammars()[utt["game"]]
    t2 = time.process_time()
    if res["hyp"] in calls:
        d.add_jsgf_string("second", jsgf([c for c in calls if c != res["hyp"]]))
        run(d, "second", audio)
        h2 = d.hyp()
        res["second"] = h2.hypstr if h2 else ""
        res["second_score"] = lm.log(h2.score) if h2 else None
    res["t_second"] = time.process_time() - t2
    t1 = time.process_time()
    run(d, "phones", audio)
    ph = d.hyp()
    res["phone_score"] = lm.log(ph.score) if ph else None
    res["phone_seg"] = segs(d)
    res["t_phones"] = time.process_time() - t1
    res["dur"] = len(x) / 16000
    return {**{k: utt[k] for k in keep}, **res}


def _grammars() -> dict:
    if "g" not in _dec:
        _dec["g"] = json.loads((OUT / "set.json").read_text())["grammars"]
    return _dec["g"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("name")
    ap.add_argument("--mllr")
    ap.add_argument("--frontend", default="none")
    ap.add_argument("--only-fold")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--fresh-cmn", action="store_true",
                    help="start each utterance from the model's CMN (reproducible in any order)")
    ap.add_argument("--ps", default="{}", help="extra decoder settings, JSON")
    a = ap.parse_args()
    utts = json.loads((OUT / "set.json").read_text())["utts"]
    if a.only_fold:
        utts = [u for u in utts if u["fold"] == a.only_fold]
    if a.limit:
        utts = utts[:: max(1, len(utts) // a.limit)]
    opts = {"mllr": a.mllr, "frontend": a.frontend, "ps": json.loads(a.ps),
            "fresh_cmn": a.fresh_cmn}
    (OUT / "runs").mkdir(exist_ok=True)
    with Pool(a.jobs) as pool, open(OUT / "runs" / f"{a.name}.jsonl", "w") as f:
        done = pool.imap(decode_one, [(u, opts) for u in utts], chunksize=4)
        f.writelines(json.dumps(r) + "\n" for r in done)
    print("done", a.name, len(utts))


if __name__ == "__main__":
    main()
