"""Progress records: an attempt record, and a round played through the engine and recorded."""

from __future__ import annotations

from trainer.progress import AttemptRecord, Mode

DAY1 = 1_699_920_000.0  # 2023-11-14 00:00 UTC
T0 = 1_700_000_000.0


def played_round(store, trainee: int, scenario_id: str = "ph-first-shake"):
    """A round worked through the engine as the practice screen works it: every step due, with the
    first payout $1.00 short; recorded as the app records it. (the round, its attempt id)."""
    from tests.support.library import bundled
    from trainer.practice import PracticeRound
    from trainer.procedure import Do
    from trainer.progress import attempt_of

    clock = iter(float(k) for k in range(1000))
    r = PracticeRound(bundled().by_id(scenario_id), clock=lambda: next(clock))
    short = True
    states = []
    while (e := r.next_expected()) is not None:
        amount = e.amount
        if e.do is Do.PAY and short:
            amount, short = amount - 100, False
        r.perform(e.do, seat=e.seat, bet=e.bet, amount=amount, value=e.value)
        states.append(r.table_state())
    result = r.finish()
    return r, states, store.record_attempt(attempt_of(r, result, trainee_id=trainee, ended=DAY1 + 600))


def rec(trainee_id: int, n: int = 0, **more) -> AttemptRecord:
    fields = dict(trainee_id=trainee_id, item_id="props-and-hops/01", game="props-and-hops",
                  mode=Mode.SCENARIO, started=T0 + 60 * n, ended=T0 + 60 * n + 30, procedure=100,
                  payouts=90, speed=100, total=96, passed=True, critical=False, target=45.0,
                  skills=("payouts", "calls"), log=({"do": "pay", "round": 1, "at": 2.5, "amount": 500},))
    return AttemptRecord(**{**fields, **more})


def trainee_uid(path, name: str) -> str:
    """The trainee id of the file's trainee `name`. Read as the app opens a file (the full check,
    which reads every row and is the progress file's tests' to prove, left aside)."""
    from trainer.progress import Store

    with Store.open(path, full_check=False) as store:
        return store.find_trainee(name).uid
