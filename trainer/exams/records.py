"""An exam result as the app reads it back: the attempt, each answer given, and the sign-off;
and the *portable record*, the same result with no local row ids.

The portable record is what travels and what an instructor countersigns: the trainee by name
(ids differ between workstations), the form as it was sat, the times, the status and score
parts, and every answer with its findings (each with its citation) and its action log. It is
built the same way from the progress file's rows and from a results file, so that the
countersignature computed on a workstation is computed again on the instructor's machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from trainer.progress.records import action_json, finding_json
from trainer.progress.rows import READ_ERRORS, read_rows, stored_json
from trainer.progress.store import Store

#: the start of a supervised round's id (trainer.supervise.rounds ID_PREFIX, which
#: tests/test_supervise_exam.py holds this to), kept here so that reading results loads no
#: supervising
SUPERVISED_ID = "supervise-v1:"


class Status(StrEnum):
    IN_PROGRESS = "in-progress"
    PASSED = "passed"
    FAILED = "failed"
    TIMED_OUT = "timed-out"  # time ran out: the items not answered count 0
    ABANDONED = "abandoned"  # left, the app closed, or it crashed: the answers given are kept


RESULT_COLUMNS = ("id", "uid", "trainee_id", "trainee_name", "form_uid", "form_name", "form_digest",
                  "pass_mark", "time_limit_seconds", "item_count", "started", "ended", "status", "passed",
                  "critical", "procedure", "payouts", "speed", "total", "source", "imported")
ANSWER_COLUMNS = ("id", "result_id", "position", "item_id", "title", "game", "answered", "procedure",
                  "payouts", "speed", "total", "passed", "critical", "findings", "log")
SIGNOFF_COLUMNS = ("id", "result_id", "signer_id", "signer_name", "signed", "kdf", "countersignature")


@dataclass(frozen=True, slots=True)
class Answer:
    """One scenario's graded answer. `findings` are Finding.to_json() dicts (each with its
    "cite"), `log` Performed.to_json() dicts; for a supervise item (`supervised`), the
    supervisor's flags instead (Flag.to_json() dicts) and the grader's findings of the faults
    they missed."""

    id: int
    position: int
    item_id: str
    title: str
    game: str
    answered: float
    procedure: int
    payouts: int
    speed: int
    total: int
    passed: bool
    critical: bool
    findings: tuple[dict, ...]
    log: tuple[dict, ...]

    @property
    def supervised(self) -> bool:
        """Whether this is a supervise item's answer: its id is a supervised round's."""
        return supervised(self.item_id)


def supervised(item_id: object) -> bool:
    """Whether an answer's item id is a supervised round's (trainer.exams.forms, FormItem.key)."""
    return isinstance(item_id, str) and item_id.startswith(SUPERVISED_ID)


@dataclass(frozen=True, slots=True)
class SignOff:
    signer_id: int | None  # None when imported: the signer's profile is on the other machine
    signer_name: str
    signed: float
    kdf: str  # "scrypt$n$r$p$salt-hex": how the countersignature's key came from the passphrase
    countersignature: str  # hex HMAC-SHA256, made by earlier versions only (trainer.exams.trust)


@dataclass(frozen=True, slots=True)
class ExamResult:
    id: int
    uid: str
    trainee_id: int
    trainee_name: str
    form_uid: str
    form_name: str
    form_digest: str
    pass_mark: int
    time_limit_seconds: int
    item_count: int
    started: float
    ended: float | None
    status: Status
    passed: bool  # the verdict, by the pass rule `rule` (trainer.policy)
    critical: bool
    procedure: int | None  # the score parts: None while in progress
    payouts: int | None
    speed: int | None
    total: int | None
    source: str  # the workstation it was sat on
    imported: float | None  # when it came in a results file, if it did
    answers: tuple[Answer, ...]
    signoff: SignOff | None  # a passphrase sign-off made by an earlier version (no longer trusted)
    sitting: dict | None = None  # the signed sitting token it was sat under, if any
    rule: int | None = None  # the pass rule it was scored under; None: before rules were kept (1)

    @property
    def over(self) -> bool:
        return self.status is not Status.IN_PROGRESS

    @property
    def unanswered(self) -> tuple[int, ...]:
        done = {a.position for a in self.answers}
        return tuple(p for p in range(self.item_count) if p not in done)

    @property
    def findings(self) -> list[tuple[Answer, dict]]:
        """Every finding of every answer, in item order: the debrief."""
        return [(a, f) for a in self.answers for f in a.findings]


def answer_from_row(r: dict) -> Answer:
    """An answer read back; ValueError naming what is damaged (its findings and log are checked
    as a recorded attempt's are, and kept as they were written)."""
    findings, log = stored_json(r["findings"], "findings"), stored_json(r["log"], "log")
    for i, f in enumerate(findings):
        finding_json(f, f"findings[{i}]")
    if supervised(r["item_id"]):
        from trainer.supervise.scoring import flags_from_json

        flags_from_json(log, "log")
    else:
        for i, p in enumerate(log):
            action_json(p, f"log[{i}]")
    return Answer(r["id"], r["position"], r["item_id"], r["title"], r["game"], r["answered"], r["procedure"],
                  r["payouts"], r["speed"], r["total"], bool(r["passed"]), bool(r["critical"]),
                  tuple(findings), tuple(log))


def _answers(rows: list[dict]) -> tuple[Answer, ...]:
    out = []
    for a in sorted(rows, key=lambda a: a["position"]):
        try:
            out.append(answer_from_row(a))
        except READ_ERRORS as e:
            raise ValueError(f"its answer to part {a['position'] + 1}: {e}") from None
    return tuple(out)


def result_from_rows(r: dict, answers: list[dict], signoff: dict | None) -> ExamResult:
    """A result read back with its answers and sign-off; ValueError naming what is damaged."""
    so = None if signoff is None else SignOff(signoff["signer_id"], signoff["signer_name"], signoff["signed"],
                                              signoff["kdf"], signoff["countersignature"])
    return ExamResult(
        id=r["id"], uid=r["uid"], trainee_id=r["trainee_id"], trainee_name=r["trainee_name"],
        form_uid=r["form_uid"], form_name=r["form_name"], form_digest=r["form_digest"],
        pass_mark=r["pass_mark"], time_limit_seconds=r["time_limit_seconds"], item_count=r["item_count"],
        started=r["started"], ended=r["ended"], status=Status(r["status"]), passed=bool(r["passed"]),
        critical=bool(r["critical"]), procedure=r["procedure"], payouts=r["payouts"], speed=r["speed"],
        total=r["total"], source=r["source"], imported=r["imported"],
        answers=_answers(answers), signoff=so,
        sitting=stored_json(r["sitting"], "sitting", dict) if r.get("sitting") else None, rule=r.get("rule"))


def load_results(store: Store, where: str = "", params: tuple = ()) -> list[ExamResult]:
    """Results (with answers and sign-offs), oldest first; `where` filters exam_results (as r).
    A result that cannot be read (damaged) is left out and named (Store.note_unreadable)."""
    rows = store.query(f"SELECT r.* FROM exam_results r {where} ORDER BY r.started, r.id", params)
    ids = [r["id"] for r in rows]
    answers: dict[int, list[dict]] = {}
    signoffs: dict[int, dict] = {}
    for k in range(0, len(ids), 500):
        batch = ids[k:k + 500]
        marks = ", ".join("?" * len(batch))
        for a in store.query(f"SELECT * FROM exam_answers WHERE result_id IN ({marks})", batch):
            answers.setdefault(a["result_id"], []).append(a)
        for s in store.query(f"SELECT * FROM exam_signoffs WHERE result_id IN ({marks})", batch):
            signoffs[s["result_id"]] = s
    return read_rows(rows, lambda r: result_from_rows(r, answers.get(r["id"], []), signoffs.get(r["id"])),
                     lambda r: f"exam result {r['id']}", store.note_unreadable)


def get_result(store: Store, result_id: int) -> ExamResult:
    found = load_results(store, "WHERE r.id = ?", (result_id,))
    if not found:
        raise KeyError(result_id)
    return found[0]


def results(store: Store, *, trainee_id: int | None = None, form_uid: str | None = None) -> list[ExamResult]:
    where, params = [], []
    for column, value in (("trainee_id", trainee_id), ("form_uid", form_uid)):
        if value is not None:
            where.append(f"r.{column} = ?")
            params.append(value)
    return load_results(store, ("WHERE " + " AND ".join(where)) if where else "", tuple(params))


# --- the portable record -----------------------------------------------------------------------

def portable_answer(a: dict) -> dict:
    """An answer row (or a results file's answer) as it travels; flags as true/false."""
    findings, log = a["findings"], a["log"]
    return {"position": a["position"], "item_id": a["item_id"], "title": a["title"], "game": a["game"],
            "answered": a["answered"], "procedure": a["procedure"], "payouts": a["payouts"],
            "speed": a["speed"], "total": a["total"], "passed": bool(a["passed"]),
            "critical": bool(a["critical"]),
            "findings": stored_json(findings, "findings") if isinstance(findings, str) else findings,
            "log": stored_json(log, "log") if isinstance(log, str) else log}


def portable(r: dict, answers: list[dict]) -> dict:
    """A result row and its answer rows as the record that travels to the instructor."""
    return {"uid": r["uid"], "trainee": r["trainee_name"],
            "form": {"uid": r["form_uid"], "name": r["form_name"], "digest": r["form_digest"],
                     "pass_mark": r["pass_mark"], "time_limit_seconds": r["time_limit_seconds"],
                     "items": r["item_count"]},
            "started": r["started"], "ended": r["ended"], "status": r["status"], "passed": bool(r["passed"]),
            "critical": bool(r["critical"]), "procedure": r["procedure"], "payouts": r["payouts"],
            "speed": r["speed"], "total": r["total"], "source": r["source"],
            "answers": [portable_answer(a) for a in sorted(answers, key=lambda a: a["position"])],
            # that its sitting was opened with the start code (trainer.exams.proof); a result from
            # before proofs has none, and its record reads as it did
            **({"proof": r["proof"]} if r.get("proof") else {}),
            # the class server's own nonce for its start, for a sitting the server keeps
            **({"class_start": r["class_start"]} if r.get("class_start") else {})}


def portable_record(store: Store, result_id: int) -> dict:
    """The portable record of a stored result (its id)."""
    return portable(store.query("SELECT * FROM exam_results WHERE id = ?", (result_id,))[0],
                    store.query("SELECT * FROM exam_answers WHERE result_id = ?", (result_id,)))
