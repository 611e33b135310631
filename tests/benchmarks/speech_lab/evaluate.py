"""Grade a decoded run under each confidence lever, thresholds chosen leave-one-speaker-out:
for each speaker (kal and kal16 are one), the thresholds are fitted on the other speakers' calls
and phrases and applied to that speaker's; the table adds up the held-out speakers.

Verdicts: a call spoken is right (heard as itself), wrong (heard as another call) or unclear
(rejected); an out-of-grammar phrase is unclear (rejected) or accepted (heard as a call). A
wrong call graded right: each call spoken is also graded against a fixed neighbour (a call of the
game one word away, seeded) as if that were expected, and counts when it is heard as that.

Run: python tests/benchmarks/speech_lab/evaluate.py [--max-wrong 0.005] RUN [RUN ...]
(each run is graded on the utterances every named run holds, so that a run cut short is
compared with the others on the same utterances)
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import decode  # beside this script: its folder is on the path when it runs

OUT = Path("/tmp/speech-lab")
FOLDS = ("kal", "awb", "rms", "slt")


def neighbour(call: str, calls: list[str]) -> str:
    """A call of the same game one word away (the wrong call a trainee says instead)."""
    w = call.split()
    near = [c for c in calls if c != call and len(c.split()) == len(w)
            and sum(a != b for a, b in zip(c.split(), w, strict=True)) == 1]
    return random.Random(call).choice(near) if near else ""


def loud_span(wav: str) -> tuple[int, int]:
    """The first and last 10 ms frame of the recording within 12 dB of its loudest (energy
    smoothed over 100 ms): where the speech is, as an endpointer would find it."""
    x = decode.read(wav).astype(float)
    frames = x[: len(x) // 160 * 160].reshape(-1, 160)
    e = np.convolve(10 * np.log10((frames ** 2).mean(axis=1) + 1), np.ones(10) / 10, "same")
    loud = np.flatnonzero(e > e.max() - 12)
    return int(loud[0]), int(loud[-1])


def features(r: dict) -> dict:
    """The confidence measures of one decoded utterance, per frame where scores are compared."""
    f = {"hyp": r["hyp"], "second": r.get("second"), "frames": max(r["frames"], 1)}
    n = f["frames"]
    s1, s2, sp = r["score"], r.get("second_score"), r["phone_score"]
    # the search's own error: the grammar without the best call found a better-scoring call
    f["repaired"] = r["hyp"]
    if s1 is not None and s2 is not None and s2 > s1:
        f["repaired"] = r["second"]
    best = max(x for x in (s1, s2) if x is not None) if s1 is not None else None
    f["fa"] = (s1 - sp) / n if s1 is not None and sp is not None else -1e9
    f["fa_rep"] = (best - sp) / n if best is not None and sp is not None else -1e9
    f["margin"] = abs(s1 - s2) / n if s1 is not None and s2 is not None else (
        1e9 if s1 is not None else -1e9)
    # per-frame phone-loop score, spread evenly over each phone's frames
    loop = np.zeros(n + 1)
    speech = np.zeros(n + 1, dtype=bool)
    for ph, a, b, sc in r.get("phone_seg", []):
        loop[a: b + 1] = sc / (b - a + 1)
        if ph != "SIL":
            speech[a: b + 1] = True
    words = [(w, a, b, sc) for w, a, b, sc in r["seg"] if not w.startswith(("<", "[", "("))]
    if words:
        covered = np.zeros(n + 1, dtype=bool)
        ratios = []
        for _, a, b, sc in words:
            covered[a: b + 1] = True
            ratios.append((sc - loop[a: b + 1].sum()) / (b - a + 1))
        f["worst_word"] = min(ratios)
        f["coverage"] = (covered & speech).sum() / max(speech.sum(), 1)
    else:
        f["worst_word"], f["coverage"] = -1e9, 0.0
    # how much of the loud stretch the call's words span (a long phrase heard as a short call)
    f["span"] = 0.0
    if words and "wav" in r:
        a, b = loud_span(r["wav"])
        f["span"] = max(0, min(words[-1][2], b) - max(words[0][1], a)) / max(b - a, 1)
    return f


#: lever -> (which hypothesis, the measures it thresholds; accept when every one is >= its t)
LEVERS = {
    "best path alone": ("hyp", ()),
    "forced-alignment ratio (call vs phone loop)": ("hyp", ("fa",)),
    "N-best margin (best vs second call)": ("hyp", ("margin",)),
    "worst word vs phone loop": ("hyp", ("worst_word",)),
    "word coverage of the heard speech": ("hyp", ("coverage",)),
    "margin + forced-alignment": ("hyp", ("margin", "fa")),
    "margin + worst word": ("hyp", ("margin", "worst_word")),
    "repaired search + margin + worst word": ("repaired", ("margin", "worst_word")),
    "repaired search + margin + fa + worst word": ("repaired", ("margin", "fa_rep", "worst_word")),
    "loud-stretch span + fa": ("hyp", ("span", "fa")),
    "loud-stretch span + fa + margin": ("hyp", ("span", "fa", "margin")),
}
#: levers of two runs of one set (two front ends): the first run's call, accepted when the second
#: run heard the same call, and each run's forced-alignment ratio clears its threshold
PAIR_LEVERS = {
    "two front ends agree": ("hyp", ("agree",)),
    "two front ends agree + fa of each": ("hyp", ("agree", "fa", "fa_other")),
    "two front ends agree + span + fa": ("hyp", ("agree", "span", "fa")),
}


class Rows:
    """The rows of a run as arrays, so that a threshold is graded at once over all of them."""

    def __init__(self, rows: list[dict]):
        self.rows = rows
        self.calls = np.array([r["in_grammar"] for r in rows])
        self.cols = {k: np.array([r["f"][k] for r in rows], dtype=float)
                     for k in ("fa", "fa_rep", "margin", "worst_word", "coverage", "span", "agree",
                               "fa_other") if k in rows[0]["f"]}
        self.has = {}
        self.right = {}
        self.near = {}
        for key in ("hyp", "repaired"):
            self.has[key] = np.array([bool(r["f"][key]) for r in rows])
            self.right[key] = np.array([r["f"][key] == r["text"] for r in rows])
            self.near[key] = np.array([bool(r["neighbour"]) and r["f"][key] == r["neighbour"]
                                       for r in rows])

    def take(self, mask: np.ndarray) -> Rows:
        return Rows([r for r, m in zip(self.rows, mask, strict=True) if m])

    def grade(self, hyp_key: str, keys: tuple, t: tuple) -> dict:
        acc = self.has[hyp_key].copy()
        for k, v in zip(keys, t, strict=True):
            acc &= self.cols[k] >= v
        calls, oog = self.calls, ~self.calls
        right = acc & calls & self.right[hyp_key]
        return {"right": int(right.sum()), "wrong": int((acc & calls & ~right).sum()),
                "unclear": int((calls & ~acc).sum()), "calls": int(calls.sum()),
                "oog": int(oog.sum()), "oog_unclear": int((oog & ~acc).sum()),
                "wrong_graded_right": int((acc & calls & self.near[hyp_key]).sum())}


MAX_WRONG = 0.005  # --max-wrong: the share of calls heard as another call the fit allows


def fit(rows: Rows, hyp_key: str, keys: tuple) -> tuple:
    """Thresholds that maximise right calls with at most 5% of phrases accepted and MAX_WRONG of
    calls wrong on the calibration rows; failing that, the fewest such faults."""
    grids = []
    for k in keys:
        vals = rows.cols[k][np.abs(rows.cols[k]) < 1e8]
        steps = 61 if len(keys) < 3 else 25
        grids.append(np.unique(np.quantile(vals, np.linspace(0, 1, steps))) if len(vals) else [0])
    best, best_key = (), None
    for t in itertools.product(*grids):
        c = rows.grade(hyp_key, keys, t)
        oog_acc = 1 - c["oog_unclear"] / max(c["oog"], 1)
        wrong = c["wrong"] / max(c["calls"], 1)
        ok = oog_acc <= 0.05 and wrong <= MAX_WRONG
        key = (ok, c["right"] if ok else -(oog_acc + 10 * wrong))
        if best_key is None or key > best_key:
            best, best_key = t, key
    return best


def main() -> None:
    global MAX_WRONG
    args = sys.argv[1:]
    if args[:1] == ["--max-wrong"]:
        MAX_WRONG, args = float(args[1]), args[2:]
    every_set = json.loads((OUT / "set.json").read_text())
    grammars = every_set["grammars"]
    wavs = {(u["id"], u["voice"], u["noise"]): u["wav"] for u in every_set["utts"]}
    runs = {run: [json.loads(line)
                  for line in (OUT / "runs" / f"{run}.jsonl").read_text().splitlines()]
            for run in args}
    for rows in runs.values():
        for r in rows:
            r["wav"] = wavs[(r["id"], r["voice"], r["noise"])]
    held = set.intersection(*({(r["id"], r["voice"], r["noise"]) for r in rows}
                              for rows in runs.values()))
    pair = []
    if len(runs) == 2:  # the first run's call, confirmed by the second's
        first, second = runs.values()
        other = {(r["id"], r["voice"], r["noise"]): features(r) for r in second}
        for r in first:
            f = other.get((r["id"], r["voice"], r["noise"]))
            if f is not None:
                r = dict(r, pair=f)
                pair.append(r)
        runs = {**runs, " and ".join(runs): pair}
    for run, every in runs.items():
        rows = [r for r in every if (r["id"], r["voice"], r["noise"]) in held]
        for r in rows:
            r["f"] = features(r)
            if "pair" in r:
                r["f"]["agree"] = float(bool(r["hyp"]) and r["pair"]["hyp"] == r["hyp"])
                r["f"]["fa_other"] = r["pair"]["fa"]
            r["neighbour"] = neighbour(r["text"], grammars[r["game"]]) if r["in_grammar"] else ""
        table = Rows(rows)
        t_g = np.mean([r["t_grammar"] for r in rows])
        t_p = np.mean([r["t_phones"] for r in rows])
        t_s = np.mean([r.get("t_second", np.nan) for r in rows])
        print(f"\n## {run}: {len(rows)} utterances; CPU per utterance: grammar {t_g:.3f} s, "
              f"second call {t_s:.3f} s, phone loop {t_p:.3f} s; "
              f"mean audio {np.mean([r['dur'] for r in rows]):.2f} s")
        print("| lever | right | wrong | unclear | out-of-grammar unclear | wrong graded right |"
              " thresholds per held-out speaker |")
        print("|---|---|---|---|---|---|---|")
        levers = PAIR_LEVERS if "pair" in rows[0] else LEVERS
        for lever, (hyp_key, keys) in levers.items():
            total: dict = {}
            ths = []
            for fold in FOLDS:
                mask = np.array([r["fold"] == fold for r in rows])
                t = fit(table.take(~mask), hyp_key, keys) if keys else ()
                ths.append("/".join(f"{v:.2f}" for v in t) or "-")
                for k, v in table.take(mask).grade(hyp_key, keys, t).items():
                    total[k] = total.get(k, 0) + v
            n, m = max(total["calls"], 1), max(total["oog"], 1)
            print(f"| {lever} | {total['right']}/{n} ({100 * total['right'] / n:.1f}%) | "
                  f"{total['wrong']} | {total['unclear']} | {total['oog_unclear']}/{m} "
                  f"({100 * total['oog_unclear'] / m:.1f}%) | {total['wrong_graded_right']} | "
                  f"{' '.join(ths)} |")
        by = {}
        for r in rows:
            if r["in_grammar"]:
                k = (r["noise"], r["voice"])
                by.setdefault(k, [0, 0])
                by[k][0] += r["f"]["repaired"] == r["text"]
                by[k][1] += 1
        print("best path (repaired) right, by noise and voice:",
              {f"{a}/{b}": f"{x}/{y}" for (a, b), (x, y) in sorted(by.items())})


if __name__ == "__main__":
    main()
