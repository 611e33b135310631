"""Best-path accuracy of decoder and front-end settings on a fixed sample of spoken calls
(grammar decode only), to choose which settings get a full run.

Run: python tests/benchmarks/speech_lab/frontend_probe.py N [OPTION ...]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pocketsphinx as ps

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import decode  # beside this script: its folder is on the path when it runs

OPTIONS = {
    "default": ({}, None),
    "fresh cmn": ({}, "fresh"),
    "wiener + fresh cmn": ({}, "wiener fresh"),
    "remove_noise": ({"remove_noise": True}, None),
    "cmn batch": ({"cmn": "batch"}, None),
    "remove_noise + cmn batch": ({"remove_noise": True, "cmn": "batch"}, None),
    "wiener": ({}, "wiener"),
    "topn 8": ({"topn": 8}, None),
    "wide beams": ({"beam": 1e-60, "pbeam": 1e-60, "wbeam": 1e-40}, None),
    "wiener + wide beams": ({"beam": 1e-60, "pbeam": 1e-60, "wbeam": 1e-40}, "wiener"),
    "wiener + wide beams + topn 8": (
        {"beam": 1e-60, "pbeam": 1e-60, "wbeam": 1e-40, "topn": 8}, "wiener"),
}


def main() -> None:
    n = int(sys.argv[1])
    only = sys.argv[2:] or list(OPTIONS)
    utts = [u for u in json.loads((decode.OUT / "set.json").read_text())["utts"]
            if u["in_grammar"]]
    utts = utts[7:: len(utts) // n][:n]
    for name in only:
        kw, front = OPTIONS[name]
        d = ps.Decoder(lm=None, loglevel="FATAL", bestpath=False, **kw)
        for game, calls in decode._grammars().items():
            d.add_jsgf_string(game, decode.jsgf(calls))
        right, cpu = 0, 0.0
        for u in utts:
            x = decode.read(u["wav"])
            if front and "wiener" in front:
                x = decode.wiener(x)
            if front and "fresh" in front:  # each call from the model's CMN, not the last call's
                d.reinit_feat()
            t = time.process_time()
            decode.run(d, u["game"], x.tobytes())
            cpu += time.process_time() - t
            h = d.hyp()
            right += bool(h) and h.hypstr == u["text"]
        print(f"{name}: {right}/{len(utts)} right, {cpu / len(utts):.3f} s CPU per call",
              flush=True)


if __name__ == "__main__":
    main()
