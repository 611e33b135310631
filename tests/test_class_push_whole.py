"""A workstation's push (push_attempts) does what the chain of before s045 did (s010's push and
the layers s018, s021, s023 and s043 wrapped around it, each a function of its own), now that
s045 made the four inner layers one function, `push_attempts_charged`, under s043's
push_attempts, and planned each statement once per connection; on a real PostgreSQL.

The same steps run in two classes, one migrated only up to s044 (the chain) and today's: pushes
by the shared workstation login, two enrolled workstations, a trainee's own login and the
instructor, of every kind of row (trainees, attempts with findings and skills, a repeated push)
and every refusal each layer makes (s043's claimed id and unproven new id, s023's quota, s021's
log bounds, s018's trainee served elsewhere or with a login of her own, s010's own results only,
a uid twice in the batch, a bad trainee, attempt, finding or skill, an unknown trainee, a
different attempt under a held uid, and batches PostgreSQL itself cannot read), and a claim's
push (claim_trainee_uid, which calls the push without s043's layer). Each step's answer (the
count added, or the SQLSTATE and message of the refusal) and, at the end, every row of the
tables a push writes must be the same in both, the logins' and the class's own ids read as
names. Each step's answer is also checked against what the migrations say it is, so that two
classes that both went wrong do not pass."""

from __future__ import annotations

import contextlib
import json
import secrets
from dataclasses import dataclass

import psycopg
from psycopg.types.json import Jsonb

from tests.support.class_server import PASSWORD, Class, progress_file
from trainer.classes.server.logins import class_login, committed_uid, enrol_workstation
from trainer.classes.workstation.queue import Queue

CHAIN = "s044_supervised_claims_held"  # the last class whose push was the chain of functions
#: the tables a push writes (s010, s018, s021, s023, s028, s039), each in a stable order
TABLES = {"trainees": "id", "attempts": "id", "findings": "id", "attempt_skills": "attempt_id, skill",
          "trainee_workstations": "id", "attempt_answer_gaps": "attempt_id", "login_totals": "rows, bytes",
          "login_storage": "id", "trainee_claims": "id"}


@dataclass
class Stage:
    """One class with its logins: {who: login}, and the names they are read as."""

    klass: Class
    logins: dict[str, str]
    class_id: str
    salts: dict[str, str]

    def made(self, who: str) -> str:
        """The trainee id `who`'s login makes with its salt (it holds the class's id)."""
        return committed_uid(self.class_id, self.logins[who], self.salts[who])

    def names(self) -> dict[str, str]:
        own = {login: f"<{who}>" for who, login in self.logins.items() if login != who}
        return own | {self.class_id: "<class>"} | {self.made(who): f"<{who}'s id>" for who in self.salts}

    def read_as_names(self, value) -> str:
        text = json.dumps(value, sort_keys=True, ensure_ascii=False)
        for real, name in sorted(self.names().items(), key=lambda kv: -len(kv[0])):
            text = text.replace(real, name)
        return text


def staged(klass: Class, salts: dict[str, str]) -> Stage:
    with klass.connect("instructor") as instructor:
        logins = {"ana": class_login(instructor, "Ana Ruiz", PASSWORD),
                  "tom": class_login(instructor, "Tom Reyes", PASSWORD),
                  "table 1": enrol_workstation(instructor, "Table 1", PASSWORD),
                  "table 2": enrol_workstation(instructor, "Table 2", PASSWORD)}
    class_id = klass.read("SELECT uid FROM class_info")[0][0]
    return Stage(klass, {**logins, "workstation": "workstation", "instructor": "instructor"}, class_id, salts)


def models(tmp_path) -> tuple[dict[str, dict], dict[str, list[dict]]]:
    """Trainees and their attempts as a workstation sends them (attempt 0 of each has a finding)."""
    queue = Queue(progress_file(tmp_path / "ws.sqlite", {"Bo Chen": 3, "Cy Diaz": 2, "Ana Ruiz": 1}))
    try:
        batch = queue.batch("a class", 50)[1]
    finally:
        queue.close()
    trainees = {t["name"]: t for t in batch["trainees"]}
    attempts = {name: [a for a in batch["attempts"] if a["trainee_uid"] == t["uid"]]
                for name, t in trainees.items()}
    return trainees, attempts


def steps(stage: Stage, trainees: dict[str, dict], attempts: dict[str, list[dict]]):
    """(who, what, batch, expected): a push by `who`'s login of `batch` (a dict, or the JSON text
    sent as it is), or a claim (`what` "claim"), or the instructor's change of a login's total
    (`what` "total"); `expected` the count added or the claim's answer, or a part of the refusal."""
    bo, cy, ana = trainees["Bo Chen"], trainees["Cy Diaz"], trainees["Ana Ruiz"]
    bos, cys = attempts["Bo Chen"], attempts["Cy Diaz"]
    ana_uid, tom_uid = stage.made("ana"), stage.made("tom")
    hers = {**ana, "uid": ana_uid, "salt": stage.salts["ana"]}
    her_attempts = [{**a, "trainee_uid": ana_uid} for a in attempts["Ana Ruiz"]]

    def changed(a: dict, **more) -> dict:
        return {**a, **more}

    return [
        ("table 1", "push", {"trainees": [bo], "attempts": bos[:2]}, 2),
        ("table 1", "push", {"trainees": [bo], "attempts": bos[:2]}, 0),  # a push repeated adds nothing
        ("table 2", "push", {"trainees": [bo], "attempts": bos[2:]},
         "registered in the class by another workstation's login"),
        ("table 1", "push", {"trainees": [], "attempts": bos[2:]}, 1),
        ("workstation", "push", {"trainees": [cy], "attempts": []}, 0),
        ("workstation", "push", {"trainees": [], "attempts": [cys[0], cys[0]]}, "it is in the batch twice"),
        ("workstation", "push", {"trainees": [changed(cy, uid="x" * 32, name=" Cy  Diaz")], "attempts": []},
         "not written as the class writes names"),
        ("workstation", "push", {"trainees": [], "attempts": [changed(cys[0], mode="exam")]},
         "it is an exam's"),
        ("workstation", "push", {"trainees": [], "attempts": [changed(cys[0], findings=[
            {**cys[0]["findings"][0], "severity": "grave"}])]}, "a finding's severity is not"),
        ("workstation", "push", {"trainees": [], "attempts": [changed(cys[0], skills=[""])]},
         "a skill's name is empty"),
        ("workstation", "push", {"trainees": [], "attempts": [changed(cys[0], trainee_uid="y" * 32)]},
         "its trainee is not in the class"),
        ("workstation", "push", {"trainees": [], "attempts": [changed(cys[0], uid=bos[0]["uid"])]},
         "holds a different attempt under this id"),
        ("workstation", "push", {"trainees": [], "attempts": [changed(cys[0], log="[" + " " * 262144 + "]")]},
         "more than the 262,144 an attempt's log may hold"),
        ("workstation", "push", {"trainees": [], "attempts": [changed(cys[0], log=json.dumps([{}] * 2001))]},
         "more than the 2,000 an attempt's log may hold"),
        ("workstation", "push", {"trainees": [], "attempts": cys}, 2),
        ("workstation", "push", {"trainees": [], "attempts": bos[:1]},
         "registered in the class by another workstation's login"),
        ("workstation", "push", {"trainees": [changed(ana, uid="z" * 32)], "attempts": []},
         "Ana Ruiz has a login of their own"),
        ("ana", "push", {"trainees": [bo], "attempts": []}, "a trainee pushes only their own results"),
        ("ana", "push", {"trainees": [ana], "attempts": []}, "this login did not make it"),
        ("ana", "push", {"trainees": [hers], "attempts": her_attempts}, 1),
        ("workstation", "push", {"trainees": [changed(ana, uid=ana_uid, name="Ann Ruiz")], "attempts": []},
         "under the name of another trainee, who has a login of their own"),
        ("tom", "claim", (tom_uid, trainees["Cy Diaz"]["created"], stage.salts["tom"]), "registered"),
        ("tom", "claim", (cy["uid"], cy["created"], None), "held"),
        ("workstation", "push", {"trainees": [cy], "attempts": []},
         "a trainee's own login claims this trainee id"),
        ("instructor", "push", {"trainees": [], "attempts": [changed(cys[1], uid="c" * 32)]}, 1),
        ("ana", "total", 50000, None),
        ("ana", "push", {"trainees": [], "attempts": [changed(her_attempts[0], uid="d" * 32)]},
         "the class keeps no more from login"),
        ("table 1", "push", {"trainees": [], "attempts": {"uid": "e" * 32}}, "non-array"),
        ("table 1", "push", {"trainees": [changed(bo, created="a day")], "attempts": []},
         "invalid input syntax"),
        ("table 1", "push", {"trainees": [bo]}, 0),
        ("table 1", "push", '"a batch"', 0),
        ("table 1", "push", "null", 0),
    ]


def answer(stage: Stage, who: str, what: str, batch, conns: dict[str, psycopg.Connection]):
    """What the class answers the step: the count added (the claim's answer), or the refusal's
    SQLSTATE and message, its context left out (it names the function that raised it)."""
    if what == "total":
        stage.klass.read("UPDATE login_totals SET rows = %s WHERE login = %s", (batch, stage.logins[who]))
        return None
    if who not in conns:  # one connection a login, made at its first step, not at every step
        conns[who] = stage.klass.connect(stage.logins[who])
    conn = conns[who]
    try:
        with conn.transaction():
            if what == "claim":
                return conn.execute("SELECT claim_trainee_uid(%s, %s, %s)", batch).fetchone()[0]
            sent = batch if isinstance(batch, str) else Jsonb(batch)
            return conn.execute("SELECT push_attempts(%s::jsonb)", (sent,)).fetchone()[0]
    except psycopg.Error as e:
        return [e.sqlstate, e.diag.message_primary, e.diag.message_detail, e.diag.message_hint]


def rows(stage: Stage) -> dict[str, list]:
    """Every row of the tables a push writes, as JSON with the times of now left out."""
    return {table: [r[0] for r in stage.klass.read(
        f"SELECT to_jsonb(t) - 'at' FROM {table} t ORDER BY {order}")] for table, order in TABLES.items()}


def test_the_one_push_answers_and_writes_as_the_chain_did(tmp_path, server, klass):
    trainees, attempts = models(tmp_path)
    salts = {"ana": secrets.token_hex(16), "tom": secrets.token_hex(16)}
    stages = {"chain": staged(Class(server, upto=CHAIN), salts), "today": staged(klass, salts)}
    answers: dict[str, list[str]] = {}
    for name, stage in stages.items():
        conns: dict[str, psycopg.Connection] = {}
        try:
            said = []
            for who, what, batch, expected in steps(stage, trainees, attempts):
                got = answer(stage, who, what, batch, conns)
                if isinstance(expected, str) and what == "push":
                    assert isinstance(got, list) and expected in got[1], (name, who, batch, got)
                else:
                    assert got == expected, (name, who, batch, got)
                said.append(stage.read_as_names(got))
        finally:
            for conn in conns.values():
                with contextlib.suppress(psycopg.Error):
                    conn.close()
        answers[name] = said
    assert answers["today"] == answers["chain"]
    written = {name: stage.read_as_names(rows(stage)) for name, stage in stages.items()}
    assert written["today"] == written["chain"]
    assert json.loads(written["today"])["attempts"], "the steps pushed attempts"
