"""Exam forms in the progress file: add (idempotent by uid), list, get, archive and restore,
and import or export a form file.

A form's content never changes once stored (a trigger refuses it): an instructor who wants a
different exam builds a new form, so every result keeps pointing at the exam that was sat. A form
is archived, never deleted, for the same reason.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from functools import lru_cache

from trainer.exams.canonical import digest as content_digest
from trainer.exams.errors import FormError, FormFileError
from trainer.exams.forms import (
    CONTENT_FIELDS,
    ExamForm,
    bundled_form_files,
    item_from_json,
    read_form,
    write_form,
)
from trainer.progress.rows import READ_ERRORS, stored_json
from trainer.progress.store import Store


@dataclass(frozen=True)
class FormSummary:
    """What anyone may see of a form: no scenario, no answer key (see trainer.exams.access)."""

    uid: str
    name: str
    games: tuple[str, ...]
    item_count: int  # the items one sitting shows (a pool's draw)
    time_limit_seconds: int
    pass_mark: int
    attempts_allowed: int
    archived: bool


def add_form(store: Store, form: ExamForm) -> bool:
    """Store a form; True if added, False if the same form (same uid and content) is already
    there. A different form under the same uid raises FormError."""
    items = json.dumps([it.to_json() for it in form.items], ensure_ascii=False)
    with store.write() as db:
        row = db.execute("SELECT digest FROM exam_forms WHERE uid = ?", (form.uid,)).fetchone()
        if row is not None:
            if row[0] != form.digest:
                raise FormError(f"another form with the id {form.uid} is already here ({form.name!r} "
                                "differs from it); give the new form a new id")
            return False
        db.execute("INSERT INTO exam_forms (uid, name, items, time_limit_seconds, pass_mark, "
                   "attempts_allowed, created, created_by, digest, draw) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (form.uid, form.name, items, form.time_limit_seconds, form.pass_mark,
                    form.attempts_allowed, form.created, form.created_by, form.digest, form.draw))
    return True


def _form(row: dict) -> ExamForm:
    """The form a stored row holds, read and checked whole (every item's scenario played)."""
    return _form_of(tuple(row.items()))


@lru_cache(maxsize=16)
def _form_of(fields: tuple) -> ExamForm:
    """The same row read once per process: a form never changes once stored, and the result is
    immutable, so certifying N sittings of one form, or listing the forms again, reads it once
    (a form's read plays its items: tens of milliseconds). An error is raised each time."""
    row = dict(fields)
    try:
        items = tuple(item_from_json(it, f"items[{i}]")
                      for i, it in enumerate(stored_json(row["items"], "items", list)))
    except (*READ_ERRORS, KeyError, FormError) as e:
        raise FormError(f"the form {row['name']!r} ({row['uid']}) is damaged in the progress file "
                        f"({e})") from None
    form = ExamForm(uid=row["uid"], name=row["name"], items=items,
                    time_limit_seconds=row["time_limit_seconds"], pass_mark=row["pass_mark"],
                    attempts_allowed=row["attempts_allowed"], created=row["created"],
                    created_by=row["created_by"], archived=bool(row["archived"]), draw=row["draw"])
    if form.digest != row["digest"]:
        raise FormError(f"the form {row['name']!r} ({row['uid']}) was changed outside the app "
                        "(its content no longer matches its digest)")
    return form


def get_form(store: Store, uid: str) -> ExamForm:
    rows = store.query("SELECT * FROM exam_forms WHERE uid = ?", (uid,))
    if not rows:
        raise KeyError(uid)
    return _form(rows[0])


#: the forms' order: the instructor's (`move_form`), then the oldest first
ORDER = "ORDER BY position, created, id"


def list_forms(store: Store, *, archived: bool = False) -> list[ExamForm]:
    """The forms, in the instructor's order (`move_form`; the oldest first until a form is
    moved); the archived ones too if `archived`. A stored form that this version of the engine
    no longer accepts (see `unusable_forms`) is left out."""
    where = "" if archived else " WHERE archived = 0"
    out = []
    for r in store.query(f"SELECT * FROM exam_forms{where} {ORDER}"):
        try:
            out.append(_form(r))
        except FormError:
            continue
    return out


def unusable_forms(store: Store) -> list[tuple[str, str]]:
    """(form name, why) for every stored, unarchived form that cannot be sat with this version:
    changed outside the app, or holding a scenario the rules engine now refuses."""
    out = []
    for r in store.query("SELECT * FROM exam_forms WHERE archived = 0 ORDER BY created, id"):
        try:
            _form(r)
        except FormError as e:
            out.append((r["name"], str(e)))
    return out


def form_summaries(store: Store, *, archived: bool = False) -> list[FormSummary]:
    return [FormSummary(f.uid, f.name, f.games, f.sat_items, f.time_limit_seconds, f.pass_mark,
                        f.attempts_allowed, f.archived) for f in list_forms(store, archived=archived)]


def move_form(store: Store, uid: str, step: int, *, archived: bool = False) -> bool:
    """Move a form up (`step` -1) or down (+1) the list `list_forms(archived=...)` gives, past
    its neighbour there; the order is stored (`position`) and kept. False when it is already
    first (or last) and nothing moved."""
    get_form(store, uid)
    shown = [f.uid for f in list_forms(store, archived=archived)]
    if uid not in shown or not 0 <= shown.index(uid) + step < len(shown):
        return False
    neighbour = shown[shown.index(uid) + step]
    with store.write() as db:
        every = [r[0] for r in db.execute(f"SELECT uid FROM exam_forms {ORDER}")]
        every.remove(uid)
        at = every.index(neighbour) + (1 if step > 0 else 0)
        every.insert(at, uid)
        for position, one in enumerate(every):
            db.execute("UPDATE exam_forms SET position = ? WHERE uid = ? AND position IS NOT ?",
                       (position, one, position))
    return True


def archive_form(store: Store, uid: str) -> None:
    """Hide a form from the lists; its results stay, and no new attempt can start on it."""
    get_form(store, uid)
    with store.write() as db:
        db.execute("UPDATE exam_forms SET archived = 1, archived_at = ? WHERE uid = ? AND archived = 0",
                   (time.time(), uid))


def restore_form(store: Store, uid: str) -> None:
    get_form(store, uid)
    with store.write() as db:
        db.execute("UPDATE exam_forms SET archived = 0, archived_at = NULL WHERE uid = ?", (uid,))


def export_form(store: Store, uid: str, path: str | os.PathLike) -> None:
    write_form(get_form(store, uid), path)


def import_form(store: Store, path: str | os.PathLike) -> tuple[ExamForm, bool]:
    """Read a form file and store it: (the form, added?). Importing it twice adds it once; a
    malformed file raises FormFileError naming the file and the field."""
    form = read_form(path)
    try:
        return form, add_form(store, form)
    except FormError as e:
        name = os.fspath(path)
        raise FormFileError(f"{name}: {e}", path=name) from None


def add_bundled_forms(store: Store) -> int:
    """Store the example forms (one per game, then the floor supervisor's: a form with supervise
    items goes after the dealers'); how many were new. An earlier edition of an example form
    (uid "example-<game>-<n>") is archived: its results stay, it is not offered."""
    stored = {r["uid"]: r["digest"] for r in store.query("SELECT uid, digest FROM exam_forms")}
    current, added = set(), 0
    files = [(path, json.loads(path.read_text(encoding="utf-8"))) for path in bundled_form_files()]
    for path, doc in sorted(files, key=lambda f: any("supervise" in it for it in f[1]["items"])):
        # a form already stored as it is in the file is not read and checked again at every
        # start (building its scenarios is most of the exam setup's time)
        uid = doc.get("uid")
        content = {k: doc[k] for k in CONTENT_FIELDS if k in doc and (k != "draw" or doc[k])}
        if stored.get(uid) != content_digest(content):
            added += add_form(store, read_form(path))
        current.add(uid)
    families = {uid.rsplit("-", 1)[0] + "-" for uid in current if uid.startswith("example-")}
    older = [r["uid"] for r in store.query("SELECT uid FROM exam_forms WHERE archived = 0")
             if r["uid"] not in current and any(r["uid"].startswith(fam) for fam in families)]
    if older:  # a write only when there is one to make: a write waits for the file's full check
        with store.write() as db:
            for uid in older:
                db.execute("UPDATE exam_forms SET archived = 1, archived_at = ? WHERE uid = ? "
                           "AND archived = 0", (time.time(), uid))
    return added


__all__ = ["FormSummary", "add_bundled_forms", "add_form", "archive_form", "export_form", "form_summaries",
           "get_form", "import_form", "list_forms", "restore_form", "unusable_forms"]
