"""The progress file's full check: what `PRAGMA integrity_check` finds on a connection that can
write, found on one that cannot (trainer.progress.opening, trainer.progress.background).

SQLite does not even read a table's CHECK constraints on a read-only connection, so there
`integrity_check` reads every page and index but never checks `json_valid(log)`, `total BETWEEN 0
AND 100` or a mode's name: a file with a flipped bit in a log passed, was opened and written, and
the first screen that read the log failed. Here each table's CHECK constraints, taken from its
`CREATE TABLE` text, are evaluated over its rows by one query, as `integrity_check` does where it
can write. The same query asks that every text be UTF-8: SQLite keeps any bytes as text, and a
flipped high bit makes a value that no query from Python can return. A table with no row (one
query asks which have any) has only its CHECK constraints read, which is all that query could find
there: a constraint SQLite cannot read. Building the texts' part cost two thirds of the check of a
new file (2 of 3 ms of CPU), whose tables are nearly all empty.

`schema_problems`, cheap enough for every open, holds the file's tables and indexes against those
its own migrations make: a flipped bit in the schema's text (a column renamed, an index gone) is
damage the other checks pass, and every reader of that column would fail. SQLite makes a table's
columns and an index's from their `CREATE` text alone, so a file whose every table and index has
the very text the migrations give it has their shape: that is one read of the schema, which the
open does anyway (`texts`), where asking SQLite for each one's columns took two thirds of an
existing file's cheap checks. A text that differs (a flipped bit; or written by another SQLite)
is held against the migrations' column by column, as before. The texts every migration makes are
written down (trainer.progress.schema_texts): making them in memory, by running the migrations,
cost about 10 ms of CPU in every process that opened a file (the app's start, each command).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from functools import cache, lru_cache

#: a text with a character outside ASCII (or a byte that is not one): only those are decoded
NOT_ASCII = "*[^\x01-\x7f]*"
SHOWN = 10  # problems named at most
SHORT_TEXT = 64  # bytes: a text up to this long is looked at by GLOB, a longer one decoded
#: the schema's rows held against the migrations': the tables and indexes, SQLite's own left out
SHAPED = "type IN ('table', 'index') AND name NOT LIKE 'sqlite^_%' ESCAPE '^'"


def full_check(conn: sqlite3.Connection, stopped: Callable[[], bool] = lambda: False) -> list[str]:
    """`integrity_check`, then the CHECK constraints and the texts of every table: ["ok"] when
    sound, else what was found (at most SHOWN lines, as integrity_check gives them). `stopped`
    is asked between the tables (`conn.interrupt()` stops the one being read)."""
    problems = [r[0] for r in conn.execute("PRAGMA integrity_check")]
    if problems != ["ok"]:
        return problems
    problems = []
    conn.create_function("dt_utf8", -1, _utf8, deterministic=True)
    tables = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND "
                          "name NOT LIKE 'sqlite^_%' ESCAPE '^' AND sql IS NOT NULL").fetchall()
    filled = with_rows(conn, [name for name, _ in tables])
    for name, sql in tables:
        if stopped():
            raise sqlite3.OperationalError("interrupted")
        if name in filled:
            problems += table_problems(conn, name, sql, SHOWN - len(problems))
        else:
            problems += constraints_read(conn, name, sql)
        if len(problems) >= SHOWN:
            break
    return problems or ["ok"]


def with_rows(conn: sqlite3.Connection, tables: list[str]) -> set[str]:
    """The tables that hold a row, asked in one query; every table where that query fails (the
    check of each then says why)."""
    if not tables:
        return set()
    asked = " UNION ALL ".join(f"SELECT {k} WHERE EXISTS (SELECT 1 FROM {quoted(t)})"
                               for k, t in enumerate(tables))
    try:
        return {tables[r[0]] for r in conn.execute(asked)}
    except sqlite3.Error as e:
        if "interrupt" in str(e):
            raise
        return set(tables)


def table_problems(conn: sqlite3.Connection, table: str, sql: str, limit: int = SHOWN) -> list[str]:
    """The rows of `table` that break one of its CHECK constraints or hold a text that is not
    UTF-8, named by their rowid."""
    columns = [(quoted(r[1]), r[2].upper() == "TEXT") for r in
               conn.execute(f"PRAGMA table_info({quoted(table)})")]
    failed = " OR ".join(f"NOT coalesce(({e}), 1)" for e in check_constraints(sql)) or "0"
    text = texts_read(columns)
    rowid = "NULL" if without_rowid(sql) else "rowid"
    try:
        rows = conn.execute(f"SELECT {rowid}, {failed}, {text} FROM {quoted(table)} "
                            f"WHERE ({failed}) OR NOT ({text}) LIMIT {int(limit)}",
                            {"pattern": NOT_ASCII}).fetchall()
    except (sqlite3.OperationalError, sqlite3.ProgrammingError) as e:
        return [unread(table, e)]
    out = []
    for row_id, bad_check, good_text in rows:
        where = f"{table} (row {row_id})" if row_id is not None else table
        if bad_check:
            out.append(f"CHECK constraint failed in {where}")
        if not good_text:
            out.append(f"a text that is not UTF-8 in {where}")
    return out


def constraints_read(conn: sqlite3.Connection, table: str, sql: str) -> list[str]:
    """A table with no row breaks no constraint and holds no text: only whether SQLite can read
    its CHECK constraints, as `table_problems` finds it, without the texts' part of its query."""
    failed = " OR ".join(f"NOT coalesce(({e}), 1)" for e in check_constraints(sql))
    if not failed:
        return []
    try:
        conn.execute(f"SELECT {failed} FROM {quoted(table)} WHERE ({failed}) LIMIT 0").fetchall()
    except (sqlite3.OperationalError, sqlite3.ProgrammingError) as e:
        return [unread(table, e)]
    return []


def unread(table: str, e: sqlite3.OperationalError | sqlite3.ProgrammingError) -> str:
    """What a table's check query that SQLite refused says of the table."""
    if "interrupt" in str(e):
        raise e
    if isinstance(e, sqlite3.ProgrammingError) or str(e).startswith(("no such column",
                                                                     "no such function")):
        # a constraint naming what the table lacks, or a parameter (a flipped bit in the
        # schema): where it can write, SQLite refuses to read the schema at all
        return f"malformed database schema ({table}) - {e}"
    return f"CHECK constraint failed in {table} ({e})"  # a row its constraint cannot read


def texts_read(columns: list[tuple[str, bool]]) -> str:
    """An expression true when every text of a row is UTF-8 (`columns`: each quoted name, and
    whether it is declared TEXT). A row whose TEXT columns are short and all ASCII is seen so
    by GLOB; a row with a longer text (a log) or another character goes to Python's decoder, in
    one call for the row. A text in another column (a flipped bit can make a number a text)
    goes to the decoder alone."""
    texts = [c for c, text in columns if text]
    short = " AND ".join([f"coalesce(length(CAST({c} AS BLOB)) <= {SHORT_TEXT}, 1)" for c in texts]
                         + [f"(typeof({c}) != 'text' OR {c} NOT GLOB :pattern)" for c in texts])
    decoded = ", ".join(f"CAST({c} AS BLOB)" for c in texts)
    checks = [f"(CASE WHEN {short} THEN 1 ELSE dt_utf8({decoded}) END)"] if texts else []
    checks += [f"(typeof({c}) != 'text' OR dt_utf8(CAST({c} AS BLOB)))" for c, text in columns if not text]
    return "(" + (" AND ".join(checks) or "1") + ")"


def check_constraints(sql: str) -> list[str]:
    """The expressions of the CHECK constraints in a CREATE TABLE statement, in order (its
    string literals, quoted names and comments never mistaken for one)."""
    return list(_read_create(sql)[0])


def without_rowid(sql: str) -> bool:
    return _read_create(sql)[1]


@lru_cache(maxsize=64)  # every open reads the same few CREATE TABLE texts
def _read_create(sql: str) -> tuple[tuple[str, ...], bool]:
    """A CREATE TABLE statement's CHECK expressions, and whether it is WITHOUT ROWID."""
    out = []
    tokens = list(_tokens(sql))
    for k, (kind, start, end) in enumerate(tokens):
        if kind != "word" or sql[start:end].upper() != "CHECK":
            continue
        if k + 1 >= len(tokens) or tokens[k + 1][0] != "(":
            continue
        depth, opened = 0, tokens[k + 1][2]
        for kind2, start2, _ in tokens[k + 1:]:
            depth += {"(": 1, ")": -1}.get(kind2, 0)
            if depth == 0:
                out.append(sql[opened:start2].strip())
                break
    words = [sql[s:e].upper() for kind, s, e in tokens if kind == "word"]
    return tuple(out), words[-2:] == ["WITHOUT", "ROWID"]


def quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _utf8(*texts: bytes | None) -> int:
    try:
        for text in texts:
            if text:
                text.decode("utf-8")
    except UnicodeDecodeError:
        return 0
    return 1


def _tokens(sql: str):
    """(kind, start, end) of the SQL text's words and parentheses; literals, quoted names and
    comments are skipped (kind "other")."""
    i, n = 0, len(sql)
    closing = {"'": "'", '"': '"', "`": "`", "[": "]"}
    while i < n:
        c = sql[i]
        if c in closing:
            end = sql.find(closing[c], i + 1)
            while c != "[" and end != -1 and sql[end + 1:end + 2] == c:  # a doubled quote
                end = sql.find(c, end + 2)
            end = n if end == -1 else end + 1
            yield "other", i, end
            i = end
        elif sql.startswith("--", i):
            end = sql.find("\n", i)
            i = n if end == -1 else end + 1
        elif sql.startswith("/*", i):
            end = sql.find("*/", i + 2)
            i = n if end == -1 else end + 2
        elif c in "()":
            yield c, i, i + 1
            i += 1
        elif c.isalnum() or c == "_":
            start = i
            while i < n and (sql[i].isalnum() or sql[i] in "_$"):
                i += 1
            yield "word", start, i
        else:
            i += 1


def schema_problems(conn: sqlite3.Connection, applied: tuple[str, ...],
                    texts: dict[str, str | None] | None = None) -> list[str]:
    """The tables and indexes the file's migrations (`applied`, by name) make that it lacks or
    has otherwise, each named; a table or index of its own beside them is left alone. `texts`:
    the file's schema as already read, each `CREATE` text by "table NAME" and "index NAME"."""
    if texts is not None and all(texts.get(what) == text for what, text in _made_texts(applied).items()):
        return []  # the migrations' very texts: their shape (see the module)
    found = shape(conn)
    out = []
    for what, expected in _made_by(applied)[0].items():
        if what not in found:
            out.append(f"the {what} its migrations make is missing")
        elif found[what] != expected:
            out.append(f"the {what} is not as its migrations make it")
    return out


def shape(conn: sqlite3.Connection) -> dict[str, tuple]:
    """Each table's columns and each index's, by "table NAME" and "index NAME". Triggers are not
    held to it: one dropped to edit a result outside the app is the exams' chain's to flag
    (trainer.exams.trust), not damage."""
    out: dict[str, tuple] = {}
    for name, kind in conn.execute(f"SELECT name, type FROM sqlite_master WHERE {SHAPED}").fetchall():
        pragma = "table_info" if kind == "table" else "index_xinfo"
        out[f"{kind} {name}"] = tuple(conn.execute(f"PRAGMA {pragma}({quoted(name)})").fetchall())
    return out


def schema_texts(conn: sqlite3.Connection) -> dict[str, str | None]:
    """Each table's and index's `CREATE` text, by "table NAME" and "index NAME"."""
    return {f"{kind} {name}": sql for kind, name, sql in
            conn.execute(f"SELECT type, name, sql FROM sqlite_master WHERE {SHAPED}")}


def _made_texts(applied: tuple[str, ...]) -> dict[str, str | None]:
    """The texts of a file these migrations made: every migration's written down
    (trainer.progress.schema_texts), others made in memory."""
    from trainer.progress import schema_texts

    return schema_texts.TEXTS if applied == schema_texts.MIGRATIONS else _made_by(applied)[1]


@cache
def _made_by(applied: tuple[str, ...]) -> tuple[dict[str, tuple], dict[str, str | None]]:
    """The shape of a file these migrations made, and its texts, made once in memory."""
    from trainer.progress import schema
    from trainer.progress._sqlite import Database

    conn = sqlite3.connect(":memory:", isolation_level=None)
    db = Database(conn, execute_plugins=False)
    if applied:
        db.execute("CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
    for fn in schema.MIGRATIONS:
        if fn.__name__ in applied:
            fn(db)
    made = shape(conn), schema_texts(conn)
    conn.close()
    return made
