"""What can go wrong with an exam, each as one line an instructor or trainee can act on.

Every error derives from `ExamError` (str() is that line). A results file that cannot be imported
raises the progress store's `ResultsFileError`, which the app already reports for practice
results files.
"""

from __future__ import annotations

from trainer.errors import OneLine


class ExamError(OneLine):
    """Base of the exam errors; str() is one user-facing line."""


class FormError(ExamError, ValueError):
    """A form that cannot be built: the message names the field or the item and the problem."""


class FormFileError(FormError):
    """A form file that cannot be read; the message names the file, the field and the problem."""

    def __init__(self, message: str, *, path: str = ""):
        super().__init__(message)
        self.path = path


class NoAttemptsLeftError(ExamError):
    """The trainee has used every attempt the form allows (abandoned attempts count)."""


class ExamOverError(ExamError):
    """The attempt is no longer in progress: nothing more can be recorded."""


class TimeUpError(ExamOverError):
    """An answer came after the time limit; the attempt was closed as timed-out. `result` is it."""

    def __init__(self, message: str, result):
        super().__init__(message)
        self.result = result


class LockedError(ExamError, PermissionError):
    """A trainee asked for what only an instructor (or an unlocked session) may see."""


class KeyFileError(ExamError):
    """The installation secret cannot be read or created."""

    def __init__(self, message: str, *, path: str = ""):
        super().__init__(message)
        self.path = path


class ClassLedgerError(ExamError):
    """The class server refuses an exam step (a sitting already used, not issued in this class,
    every attempt had): the message says why."""


class ExamOfflineError(ClassLedgerError):
    """An exam step that must be counted on the class server, which cannot be reached now."""


class UncertifiedSittingError(ClassLedgerError):
    """A new sitting of a form for a trainee who has a sitting of it that ended on the class server
    and is not certified yet (trainer.exams.certify `issue_sitting`): the message names it, `nonce`
    is its; issued anyway with `after_uncertified=True` (`dealer-trainer sitting
    --after-uncertified`). `said`: the sitting named, without what the command line does about it."""

    def __init__(self, said: str, nonce: str):
        super().__init__(f"{said}: certify it first (dealer-trainer certify --class URL certifies it "
                         "from the server's record, a pass or a fail), or issue anyway "
                         "(--after-uncertified)")
        self.said, self.nonce = said, nonce


class AwaitingClassError(ClassLedgerError):
    """An exam sat online in a class: the class server has not acknowledged the last answer (or
    the end) yet, so the next item does not open and no result is shown."""


class TraineeLoginNeeded(ClassLedgerError):
    """The trainee has a login of their own in the class: an exam with no sitting starts for them
    only with its password (trainer.exams.classledger). `name` is the trainee's; `refused` is
    True when a password was given and the class server refused it."""

    def __init__(self, name: str, *, refused: bool = False):
        super().__init__(
            f"The class server refuses that password for {name}: type {name}'s class password "
            "again (the instructor can give a new one)." if refused else
            f"{name} has a login of their own in this class: the exam starts with {name}'s class "
            "password.")
        self.name, self.refused = name, refused
