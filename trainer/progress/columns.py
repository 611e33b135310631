"""The columns of the tables a workstation's file and the class server share, described once.

The progress file's tables are made by its migrations (trainer.progress.schema), which are never
edited; the class server's were made from these descriptions by its migrations
(trainer.classes.server.tables), which are frozen too. tests/test_class_server_schema.py checks
that the file's migrated tables have exactly these columns, of these types, and
tests/test_class_server_migrations.py that every shared column is the server's, so the three
cannot drift apart unseen: a shared column added here needs a new server migration.

A column's `kind` says what it holds, and so its type and check in either database:
- `key`: the row's own integer id (made by each database: ids are never shared, uids are);
- `ref`: another table's id (`ref` names the table);
- `text`, `real` (seconds, times), `integer`;
- `score`: a whole number from 0 to 100; `flag`: 0 or 1; `json`: JSON text;
- `choice`: one of `choices`.
`local` columns are the file's only (passphrases, key files; a sitting's use, which the server
keeps as rows of its own; a trainee id's salt, which a trainee's login's push carries and the
server checks, s043): the server's table has no such column.
"""

from __future__ import annotations

from dataclasses import dataclass

#: the modes of an attempt: the progress file's migrations (trainer.progress.schema) and the class
#: server's take them from here, which loads neither SQLite's nor PostgreSQL's code
MODES = ("practice", "scenario", "drill", "payout-drill", "exam")
SEVERITIES = ("critical", "major", "minor")


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    kind: str
    null: bool = False
    ref: str = ""
    choices: tuple[str, ...] = ()
    local: bool = False

    @property
    def sqlite_type(self) -> str:
        return {"real": "REAL", "text": "TEXT", "json": "TEXT", "choice": "TEXT"}.get(self.kind, "INTEGER")


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    columns: tuple[Column, ...]
    unique: tuple[str, ...] = ()  # the column that names a row across machines (uid)

    def names(self, *, key: bool = False, local: bool = True) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns
                     if (key or c.kind != "key") and (local or not c.local))

    def shared(self) -> tuple[Column, ...]:
        """The columns the class server has too."""
        return tuple(c for c in self.columns if not c.local)


def _c(name: str, kind: str, **more) -> Column:
    return Column(name, kind, **more)


def _scores(null: bool = False) -> tuple[Column, ...]:
    return tuple(_c(n, "score", null=null) for n in ("procedure", "payouts", "speed", "total"))


TRAINEES = Table("trainees", (
    _c("id", "key"), _c("name", "text"), _c("created", "real"), _c("archived", "flag"),
    _c("archived_at", "real", null=True), _c("instructor", "flag"),
    _c("passphrase", "text", null=True, local=True), _c("public_key", "text", null=True, local=True),
    _c("key_path", "text", null=True, local=True), _c("uid", "text"),
    _c("uid_salt", "text", null=True, local=True)), unique=("uid",))

ATTEMPTS = Table("attempts", (
    _c("id", "key"), _c("uid", "text"), _c("trainee_id", "ref", ref="trainees"), _c("item_id", "text"),
    _c("game", "text"), _c("mode", "choice", choices=MODES), _c("seed", "text", null=True),
    _c("started", "real"), _c("ended", "real"), _c("duration", "real"), _c("target", "real", null=True),
    *_scores(), _c("passed", "flag"), _c("critical", "flag"), _c("abandoned", "flag"), _c("log", "json"),
    _c("source", "text"), _c("rule", "integer", null=True)), unique=("uid",))

FINDINGS = Table("findings", (
    _c("id", "key"), _c("attempt_id", "ref", ref="attempts"), _c("kind", "text"), _c("skill", "text"),
    _c("citation", "text"), _c("severity", "choice", choices=SEVERITIES), _c("message", "text"),
    _c("expected", "text", null=True), _c("actual", "json", null=True)))

ATTEMPT_SKILLS = Table("attempt_skills", (
    _c("attempt_id", "ref", ref="attempts"), _c("skill", "text"), _c("trainee_id", "integer"),
    _c("started", "real")))

EXAM_SITTINGS = Table("exam_sittings", (
    _c("nonce", "text"), _c("trainee_name", "text"), _c("form_uid", "text"), _c("form_digest", "text"),
    _c("attempt", "integer"), _c("issued", "real"), _c("expires", "real"), _c("signer", "text"),
    _c("token", "json"), _c("result_uid", "text", null=True, local=True),
    _c("certified", "real", null=True, local=True), _c("draw", "json", null=True)))

#: the tables of attempts, in the order rows are written (a row's references first)
ATTEMPT_TABLES = (TRAINEES, ATTEMPTS, FINDINGS, ATTEMPT_SKILLS)
