"""The digest of `settle`'s answers: run it before and after a change to `settle` or anything it
calls, and the two digests must be equal (a faster `settle` answers byte for byte as before).

What it answers, each digested apart and then together:
  - the worked examples of ../shared/spec/examples (when they are there);
  - every outcome of High Roll Dice's 6-dice variation (6^6 throws, twelve wagers each, as
    tests/test_payouts_exhaustive.py asks them), and every multiset of its 10 dice (3,003 throws,
    with two seats' Pip Street, Like Kind and Millionaire Row wagers);
  - seeded mixed rounds of every game (tests/benchmarks/rounds.py);
  - the same rounds spoiled, one field each (a wrong type, a bad amount, an unknown key, a
    missing field), whose answers are the error's field and message.

Each answer is written as `json.dumps(..., ensure_ascii=False)`, as `dealer-trainer settle`
writes it (key order included). Run: `python tests/benchmarks/settle_answers.py [ROUNDS]`.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks.rounds import mixed_rounds
from tests.support.paths import EXAMPLES
from trainer.errors import RequestError
from trainer.settle import settle

HRD6_BETS = ([f"pip-{f}" for f in ("ace", "2", "3", "4", "5", "6")]
             + [f"like-kind-{k}" for k in ("none", "2", "3", "4", "5", "6")])
#: what a spoiled field is given instead: wrong types, bad amounts, odd text
SPOILS = (None, True, 0, -1, 1.5, "", "0.001", "1e3", " 5", "5.", "$5", "10000000", "x", [], {},
          "\ud800", "٥")


def answer(request: object) -> str:
    try:
        return json.dumps(settle(request), ensure_ascii=False)
    except RequestError as e:
        return json.dumps({"error": {"field": e.field, "message": e.message}}, ensure_ascii=False)


def hrd6_requests():
    for i, dice in enumerate(itertools.product(range(1, 7), repeat=6)):
        amount = ("3.35", "7.00", "0.05")[i % 3]
        yield {"game": "high-roll-dice-6", "options": {},
               "wagers": [{"seat": 1 + i % 6, "bet": b, "amount": amount} for b in HRD6_BETS],
               "throws": [{"dice": list(dice)}]}


def hrd10_requests():
    bets = ([f"pip-{f}" for f in ("ace", "2", "3", "4", "5", "6")]
            + [f"like-kind-{k}" for k in range(2, 9)])
    for i, dice in enumerate(itertools.combinations_with_replacement(range(1, 7), 10)):
        wagers = []
        for seat, amount, row in ((1, "7.00", "1"), (2, "3.35", "0.50")):
            wagers += [{"seat": seat, "bet": b, "amount": amount} for b in bets]
            wagers += [{"seat": seat, "bet": f"millionaire-{n}", "amount": row} for n in (9, 10)]
        order = list(dice)
        random.Random(i).shuffle(order)
        yield {"game": "high-roll-dice", "options": {}, "wagers": wagers, "throws": [{"dice": order}]}


def spoiled(rounds: list[dict], seed: int = 7):
    """Each round with one of its fields (chosen by a seeded draw) spoiled."""
    rng = random.Random(seed)
    for request in rounds:
        bad = copy.deepcopy(request)
        places = [(bad, k) for k in bad]
        for w in bad.get("wagers", []):
            places += [(w, k) for k in w]
        for t in bad.get("throws", []):
            places += [(t, k) for k in t]
            for w in t.get("wagers", []):
                places += [(w, k) for k in w]
        holder, key = rng.choice(places)
        what = rng.randrange(3)
        if what == 0:
            holder[key] = rng.choice(SPOILS)
        elif what == 1:
            del holder[key]
        else:
            holder[rng.choice(["extra", "Amount", "seat ", "\u00e9"])] = 1
        yield bad


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    rounds = mixed_rounds(n)
    parts = {
        "examples": [json.loads(p.read_text())["request"] for p in sorted(EXAMPLES.glob("*.json"))]
        if EXAMPLES.is_dir() else [],
        "hrd6-every-outcome": hrd6_requests(),
        "hrd10-every-multiset": hrd10_requests(),
        f"mixed-{n}": rounds,
        f"spoiled-{n}": spoiled(rounds),
    }
    whole = hashlib.sha256()
    for name, requests in parts.items():
        h, count = hashlib.sha256(), 0
        for request in requests:
            line = answer(request).encode("utf-8", "surrogatepass") + b"\n"
            h.update(line)
            whole.update(line)
            count += 1
        print(f"{name}: {count} answers, sha256 {h.hexdigest()}")
    print(f"all: sha256 {whole.hexdigest()}")


if __name__ == "__main__":
    main()
