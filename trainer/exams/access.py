"""Who sees what: a trainee sees only their own results, and sees exam forms and answer
keys only when an instructor has unlocked them for the session; an instructor sees everything.

The UI holds one `ExamAccess` per session (the profile signed in). Listing the exams one may sit
(`available`) shows no scenario: a name, games, item count, time limit, pass mark and attempts
left. Sitting an exam needs the form itself, which `start_exam` reads on the trainee's behalf;
the trainee's screen shows one scenario at a time, never the list or the key. On a machine joined
to a class (`classroom`), the attempts left are counted by the class server as well
(trainer.exams.classledger).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from trainer.answer_key import key_json
from trainer.exams.errors import LockedError
from trainer.exams.forms import ExamForm
from trainer.exams.formstore import FormSummary, form_summaries, get_form, list_forms
from trainer.exams.records import ExamResult, get_result, results
from trainer.exams.session import standings
from trainer.progress.errors import UnknownTraineeError
from trainer.progress.records import Trainee
from trainer.progress.store import Store


@dataclass(frozen=True)
class Available(FormSummary):
    """A form summary, with the attempts the viewer has left on it."""

    attempts_left: int


def results_for(store: Store, viewer: Trainee | int) -> list[ExamResult]:
    """The results `viewer` may see: their own (a trainee), or everyone's (an instructor)."""
    viewer = store.trainee(viewer) if isinstance(viewer, int) else viewer
    return results(store) if viewer.instructor else results(store, trainee_id=viewer.id)


class ExamAccess:
    def __init__(self, store: Store, viewer: Trainee | int, classroom=None):
        self.store, self.classroom = store, classroom
        self.viewer = store.trainee(viewer) if isinstance(viewer, int) else viewer
        self._unlocked = False

    @property
    def unlocked(self) -> bool:
        return self.viewer.instructor or self._unlocked

    def unlock(self, instructor_id: int, passphrase: str) -> bool:
        """Let this session see forms and answer keys, with an instructor's passphrase; whether it
        was right."""
        try:
            instructor = self.store.trainee(instructor_id)
        except UnknownTraineeError:
            return False
        ok = instructor.instructor and self.store.verify_passphrase(instructor_id, passphrase)
        self._unlocked = self._unlocked or ok
        return ok

    def lock(self) -> None:
        self._unlocked = False

    def _need_unlocked(self, what: str) -> None:
        if not self.unlocked:
            raise LockedError(f"{what} are for instructors: ask an instructor to unlock them.")

    def available(self) -> list[Available]:
        """The exams this viewer may sit, with no content."""
        forms = form_summaries(self.store)
        shown = standings(self.store, self.viewer.id, {f.uid: f.attempts_allowed for f in forms},
                          self.classroom)
        return [Available(**{**asdict(f), "attempts_allowed": shown[f.uid][0]},
                          attempts_left=shown[f.uid][1]) for f in forms]

    def forms(self, *, archived: bool = False) -> list[ExamForm]:
        self._need_unlocked("Exam forms")
        return list_forms(self.store, archived=archived)

    def form(self, uid: str) -> ExamForm:
        self._need_unlocked("Exam forms")
        return get_form(self.store, uid)

    def answer_key(self, form_uid: str, position: int) -> dict:
        """The answer key of one item of a form (trainer.answer_key.key_json)."""
        self._need_unlocked("Answer keys")
        return key_json(get_form(self.store, form_uid).scenarios[position])

    def results(self) -> list[ExamResult]:
        return results_for(self.store, self.viewer)

    def result(self, result_id: int) -> ExamResult:
        r = get_result(self.store, result_id)
        if not self.viewer.instructor and r.trainee_id != self.viewer.id:
            raise LockedError("That exam result is another trainee's.")
        return r
