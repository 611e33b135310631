"""A round's log never outgrows what the class server keeps of an item's answer (the fifth cold
review, #105): the server refuses an answer over 262,144 bytes or 2,000 actions (s023, s034), and
`certify --class` grades such a refusal as the trainee's own doing, so the app must never send
one. A trainee who keeps acting (a key held down, clicks on clicks) sees the round end first."""

from __future__ import annotations

import json

from tests.support.library import bundled
from trainer import Automation, Do, PracticeRound

LIBRARY = bundled()
#: the class server's bounds on an item's answer (s023, s034), read from its migration's words
SERVER_BYTES, SERVER_ACTIONS = 262_144, 2_000


def written(r: PracticeRound) -> bytes:
    """The round's log as an exam session writes it (ExamSession.record: json.dumps)."""
    return json.dumps([p.to_json() for p in r.log], ensure_ascii=False).encode()


def keep_acting(r: PracticeRound, most: int, **fields) -> int:
    """Announce again and again, up to `most` times or until the round ends; how many."""
    for n in range(most):
        if r.finished:
            return n
        r.perform(Do.ANNOUNCE, **fields)
    return most


def test_a_round_worked_forever_ends_before_the_server_would_refuse_its_log():
    r = PracticeRound(LIBRARY.by_id("ph-first-shake"), Automation.WHOLE_ROUND)
    keep_acting(r, 5_000, value="7")
    assert r.finished and r.log_full
    assert len(r.log) < SERVER_ACTIONS and len(written(r)) <= SERVER_BYTES
    assert r.finish().findings  # graded as worked: what was left undone is missing


def test_a_round_of_long_actions_ends_on_its_size():
    r = PracticeRound(LIBRARY.by_id("ph-first-shake"), Automation.WHOLE_ROUND)
    acted = keep_acting(r, 5_000, value="x" * 2_000)
    assert r.finished and r.log_full and acted < 200
    assert len(written(r)) <= SERVER_BYTES
    assert r.log_bytes == len(written(r))


def test_an_honest_round_is_not_cut_short():
    r = PracticeRound(LIBRARY.by_id("ph-first-shake"), Automation.WHOLE_ROUND)
    while not r.finished:
        e = r.next_expected()
        r.perform(e.do, seat=e.seat, bet=e.bet, amount=e.amount, value=e.value)
    assert not r.log_full and r.finish().score.passed
