"""The exam ledger on the class server, from the exam's side: when a machine
is joined to a class, the class server counts the attempts, not the machine's progress file, so
deleting, replacing or restoring a progress file gives no attempt back.

`classroom` is the app's ClassConnection (trainer.classes.workstation.connection) while the machine
is joined to a class, else None: then everything is counted in the files, as before.

- **Issuing** (the instructor, `certify.issue_sitting(..., classroom=)`): the attempt number is
  counted by the class (`attempts_used`), the sitting is recorded on the server before the
  instructor's file keeps it (`record_sitting`; a refusal keeps nothing), and the signed token
  names the class (`"class": <the class's id>`).
- **Starting** (a workstation, `session.start_exam(..., classroom=)`, `count_start`): a sitting
  is marked used on the server first, which refuses one not issued in this class, issued to
  someone else or for another form, expired by the server's clock or already used; an exam with
  no sitting is counted there, refused past the attempts its form allows. A refusal starts
  nothing (ClassLedgerError, NoAttemptsLeftError, naming why). A sitting issued with a start code
  is sealed under the code and a share the server keeps (s027), which the server returns only
  with its record of the start: its items open after the server's clock has started, and not
  at all while the server cannot be reached (`SHARE_NEEDED`). Asked again for the same result
  before any answer reached it (its reply lost, the start cancelled), the server returns the
  same record and share: the clock is not started again.
- **Attempts shown** (`attempts_used`): the larger of the file's count and the class's (results
  sat before the machine joined are in the file only; the class's count never goes down).
- **Certificates** (`certify.certify(..., classroom=)`): before anything is signed, the server's
  record of the sitting is asked (`not_certifiable`): a result is refused unless the server marked
  its sitting used, by that trainee, for that form, for that very result (a workstation whose
  engine skipped the server's count, or re-sat a sitting, gets no certificate), and refused when
  the sitting already has a certificate in the class (one use, one certificate). Then the
  certificate is kept on the server, one per sitting, insert-only; read back with
  `certify.class_certificates`, each checked with the instructor keys the reader trusts (the
  server holds no key and checks nothing).

**Whose attempts** (migrations s006 to s008 on the server). A sitting is spent only with its
token: the server wants its nonce (128 random bits, in the instructor's signed token and the
staff's tables, which no workstation login reads), issued to that trainee and unused. An exam
with no sitting names its trainee by name, and the count is kept by name on purpose: a fresh
progress file (a new trainee id, the same name) must not start the count again. So whoever may
claim a name may spend its attempts, and the server decides who may:

- a trainee's login is their name's in the class (s008): the instructor gives it with
  `dealer-trainer class-login NAME --class URL` (a password per trainee), before or after the
  trainee sends anything, and it reads that name's results from every workstation;
- that login starts exams for that trainee only, with a sitting or without (s006);
- once a name has a login, an exam with no sitting starts for it only with that login: the
  shared `workstation` login is refused for that name by the server, so a workstation asks for
  the trainee's class password (`count_start`'s `password`; TraineeLoginNeeded until it has it,
  or when the server refuses it) and counts the start with the trainee's own login;
- a name with no login is not protected from the shared login, and cannot be by the server:
  every workstation connects with that one login, so the server cannot tell one workstation from
  another. The instructor closes it per trainee (a login of their own) or per exam (sittings).

**The allowance is the class's** (s007): an exam with no sitting starts only at a form the
instructor gave to the class (`give_to_class`; Exam › Forms › Give to class, `dealer-trainer
give-form`; the class server gives the bundled forms when it starts), and is counted against
the attempts that form allows as the class keeps it. A workstation sends no allowance: one
whose copy of a form says more attempts (an edited file, an engine asking for more) gets the
instructor's number.

**The offline rule.** An exam that must be counted on the server does not start while the
server cannot be reached: ExamOfflineError says so, and nothing is written. That is any exam
started on a machine joined to a class, and any sitting whose token names a class, wherever it
is sat (a machine that left the class, or never joined it, cannot sit it). The count is the
class's, not the workstation's: an exam started offline and counted "later" would be counted
only if the workstation chose to tell. A start whose answer is lost on the way back (the cable
pulled just then), or that the window stopped waiting for (its Cancel), may be counted on the
server and not started here: a sitting that proves its start code is then started again with
its code, and the server gives back the same start (its clock already running) until an answer
has reached it; any other start is spent, and the instructor, who sees it used, voids it or
issues another. Counting too much is the safe side.
An exam with no sitting, on a machine in no class, is counted in its file as before.

**The time limit** (s014). The workstation's clock is the trainee's, so the class server keeps
the sitting's time: the instructor registers the form's time limit with the sitting, and the
server counts it from its own record of the start, by its own clock. A step that reaches it
more than `exam_queue_allowance()` (30 s since s031, for delivery only: the pusher gives a dead
connection up within 15 s, connects again within 5 s and retries within 4 s) after the limit is
kept in order, marked late; `counted_late` says what came late and why, `kept_answers` leaves
those answers out, and certification counts them as not answered (and a late end as a
time-out). An answer that arrives after the limit and within the allowance counts, and the
certificate names it (`delivered_late`, from the server's receipt time). The app tries an
answer again, with backoff, for as long as that allowance (`DELIVERY_GRACE`) while the server
cannot be reached or refuses it for a passing reason (trainer.exams.session `Undelivered`), before
it tells the trainee that the answer has not reached the class.
Once the time and its allowance are over by the server's clock (`over`), a sitting whose end never
reached the server is certified as it kept it, timed out, what it never received not answered
(`not_as_recorded` no longer waits for it): a workstation that sends nothing more cannot keep its
sitting from ever being certified. An answer held up by an outage is late on the same terms as
one held back on purpose: the server cannot tell them apart. The certificate names each late
item and by how much, for the instructor, who knows whether the network was down, to judge
(README, "An outage during a sitting").

**Sat online.** A sitting the class server keeps a record of (s012) is sat online
(trainer.exams.session, `ExamSession.send`): each answer is sent as it is given, with the app's
own sender, and the next item opens (`record` raises AwaitingClassError until then) only once
the server has acknowledged it; the attempt's result is given only once the server has
acknowledged every answer and the end. So no verdict is shown that the server does not hold, and
no answer is seen, then redone. The exam's clock does not stop while it waits: the server's
clock is what counts, time lost to an outage is lost, as the time limit above says, and the
instructor sees the sitting as it reached the server (below) and decides.

**A sitting that never ends.** A sitting started on the server and not ended there (a trainee who
cut the network and never sent) is listed for the instructor (`unended_lines`: `certify --class`
and the Class tab print it, "started 14:05, 1 of 3 answers received, not ended"), who records it
abandoned with a reason (`abandon`, s015; `dealer-trainer abandon-sitting`): it counts as a
fail, and `not_as_recorded` refuses any result of it handed in afterwards, so a withheld fail is
never turned silently into a fresh sitting. One whose time and allowance are over by the server's
clock (`over`) has ended, timed out, as it is certified: it no longer holds up a new sitting of
its form (trainer.exams.certify `issue_sitting`), recorded abandoned or not.

**Certified from the server's record.** In a class the server's record of a sitting is the
result, so a trainee need hand nothing in: `certify --class` (and the app's Certify… while the
instructor is joined to the class) certifies every sitting the instructor's file issued in the
class that ended on the server, or timed out there by its clock (`over`), or was recorded
abandoned, and is not certified yet (trainer.exams.certify `certify_recorded`), a pass and a fail
alike: the answers the server kept in time are re-graded as a handed-in result's are, the end is
the server's (an abandoned sitting is certified abandoned, a fail), and the date sat is the
server's record of the start. So a fail that nobody hands in still reaches the employer's export.
While a trainee has such a sitting of a form, issuing a new sitting of that form is refused,
naming it (UncertifiedSittingError), unless the instructor says so (`issue_sitting(...,
after_uncertified=True)`; `dealer-trainer sitting --after-uncertified`; the app asks).

**An attempt given back** (s026). An exam with no sitting is counted by the trainee's name, and a
name with no login is not protected from the shared login (above): a classmate can spend its
attempts, which then block every later start of that form and every sitting of it. The
instructor gives such an attempt back, with a reason the class keeps (`give_back`;
`dealer-trainer give-back-attempt`, which lists them without an id), insert-only: the class no
longer counts it, for an exam with no sitting or a sitting.

**An answer that cannot be re-graded.** The class server takes an answer only as a JSON array
of bounded size and depth (s012, s026), but what it holds is still a trainee's: `certify --class`
reads each answer as hostile data (trainer.files `loads_bounded`: too deep, too long a number, a
lone surrogate, a key named twice are refused) and re-reads it as a log of actions. An answer
that fails either is graded as wrong, as not answered, and named on the certificate
(`kept_answers`' `unusable`): the pass rule passes an item only when its round is shown worked
without a critical or major finding, and an answer no one can read shows nothing. So a trainee who
ends a failing sitting with such an answer is certified a fail, and one who hides a good answer in
one gains nothing; the sitting is never held up.

**Watched too soon.** A supervise item's round plays at the dealer's pace, and a flag's time
is seconds into it, so a round watched up to its last flag takes at least that long, and the
items open one after another only after the server has recorded the start. An answer to a
supervise item that reached the server sooner after its start than the flags given up to it add
up to (less `WATCH_EARLY` and `WATCH_SLACK`) was not watched: a client that holds the round's
faults in memory and sends its flags at once. `certify --class` counts it as not answered and
names it (`watched_too_soon`; the certificate's `too_soon`). The server needs no form for it:
its record of each answer's arrival, by its own clock, is enough. A client that waits out the
round's time is not caught by this: the faults are in the workstation's memory once the items
open, as every item's answer is (README, "What the design does not promise").

**A sitting voided** (s019). A genuine outage must not spend an attempt: the instructor voids the
sitting, with a reason the class keeps (`void`; `dealer-trainer void-sitting`, or the Class tab's
list of sittings), insert-only. The class no longer counts it (`exam_attempts_of` answers the
attempts spent), so a new sitting of the form may be issued in its place, numbered after it; a
voided sitting is never started, and never certified (`not_certifiable`; the server refuses its
certificate too). A sitting certified already is not voided.
"""

from __future__ import annotations

import time

from trainer import files
from trainer.classes.errors import ClassServerError, ClassUnreachableError, LoginRefusedError
from trainer.errors import RequestError
from trainer.exams.errors import ClassLedgerError, ExamOfflineError, NoAttemptsLeftError, TraineeLoginNeeded
from trainer.exams.forms import ExamForm
from trainer.practice import LOG_BYTES
from trainer.progress.records import clean_name
from trainer.regrade import read_log
from trainer.supervise.scoring import FlagsError, flags_from_json

#: seconds an answer not yet on the class server is tried again before the trainee is told it has
#: not reached the class: the server's allowance for delivery, `exam_queue_allowance()` (s031)
DELIVERY_GRACE = 30.0
OFFLINE = ("It does not start offline: the attempts are counted by the class server, not by this "
           "workstation. Check the connection to the class and try again.")


#: why a sitting sealed with the class server's share (trainer.exams.submission, "Sealed") does
#: not open before the server has recorded its start
SHARE_NEEDED = "the class server must record your start before the items open"
#: what the proctor does when it cannot (README, "The items open with the start")
SHARE_OFFLINE = ("Nothing was started and no item was opened: check the class connection (the "
                 "status bar says why it fails) and start again with the same code.")


class Server:
    """A call to the class server as an exam step: "cannot be reached" becomes ExamOfflineError
    (with `what`, then `then`: the offline rule), a refusal ClassLedgerError (or `refused`)."""

    def __init__(self, what: str, refused: type[Exception] = ClassLedgerError, then: str = ""):
        self.what, self.refused, self.then = what, refused, then

    def __enter__(self) -> Server:
        return self

    def __exit__(self, kind, e, tb) -> None:
        if isinstance(e, ClassUnreachableError):
            raise ExamOfflineError(f"{self.what}: {e}.{' ' + self.then if self.then else ''}") from None
        if isinstance(e, ClassServerError):
            raise self.refused(f"The class server refuses this: {e}.") from None


def class_named(token: dict | None) -> str | None:
    """The class a sitting token names (issued while the instructor was joined to it), if any."""
    named = token.get("class") if isinstance(token, dict) else None
    return str(named) if named is not None else None


def count_start(classroom, token: dict | None, trainee: str, form_uid: str, digest: str | None,
                result_uid: str, password: str | None = None, proof: bytes | None = None,
                sealed: bool = False):
    """Count the start of an attempt on the class server (see the module): returns when it is
    counted, with the server's record of the start of a sitting (trainer.classes.server.ledger
    `Opened`: its own nonce of the start and the share of a sitting sealed with one) or None for
    an exam with no sitting; raises, having counted nothing (ExamOfflineError,
    ClassLedgerError, NoAttemptsLeftError, TraineeLoginNeeded), when the exam must not start.
    `password`: the trainee's class password, for a trainee with a login of their own (an exam
    with no sitting is counted with that login). `proof`: the sitting's first link
    (trainer.exams.proof), for a sitting that asks for proof. `sealed`: the sitting's items wait
    for the share (`digest` None: the server checks its own), and a server not reached is said
    so (`SHARE_NEEDED`)."""
    named = class_named(token)
    if classroom is None:
        if named is not None:
            raise ExamOfflineError(
                "This sitting was issued in a class: it is counted on the class server, so it "
                "starts only on a workstation joined to that class (File › Join class).")
        return None
    what = "This exam is counted on the class server, which cannot be reached now (" \
           f"{classroom.address.shown}). {OFFLINE}"
    if token is not None:
        # one visit: the class the token names is checked there too
        with (Server(SHARE_NEEDED[:1].upper() + SHARE_NEEDED[1:], then=SHARE_OFFLINE) if sealed
              else Server(what)):
            return classroom.start_sitting(str(token["nonce"]), clean_name(trainee), digest,
                                           result_uid, proof, in_class=named)
    name = clean_name(trainee)
    with Server(what, NoAttemptsLeftError):
        login = classroom.login_of(name)
        counter = classroom
        if login is not None and login != classroom.address.user:  # not joined with it
            if password is None:
                raise TraineeLoginNeeded(name)
            counter = classroom.signed_in(login, password)
        try:
            counter.start_attempt(result_uid, name, form_uid)
        except LoginRefusedError:
            raise TraineeLoginNeeded(name, refused=True) from None
    return None


def give_to_class(classroom, form: ExamForm) -> bool:
    """An instructor gives a form to the class (s007): exams with no sitting start at it on the
    class's workstations, counted against its allowance as the class keeps it. True when given
    now, False when it was already. ClassLedgerError when the server refuses (a login that is
    not an instructor's, another form of that id), ExamOfflineError when it cannot be reached."""
    with Server(f"The class server cannot be reached now ({classroom.address.shown}): "
                f"{form.name!r} was not given to the class"):
        return classroom.give_form(form.uid, form.digest, form.name, form.attempts_allowed)


def attempts_used(classroom, trainee: str, form_uid: str, here: int) -> int:
    """The attempts counted at a form: the larger of the file's count (`here`) and the class's.
    For showing only: when the server cannot be reached the file's count is shown, and starting
    is what the server decides. While the background push says the server is not reached, it is
    not asked (a screen listing the exams does not wait on a dead connection per form)."""
    if classroom is None or getattr(classroom, "problem", None) is not None:
        return here
    try:
        return max(here, classroom.attempts_used(clean_name(trainee), form_uid))
    except ClassServerError:
        return here


def standing(classroom, trainee: str, form_uids: list[str]) -> dict[str, tuple[int, int | None]]:
    """What a list of exams shows from the class, in one visit: for each form the attempts the
    class counts and those it allows (None: not given to it). Empty when the machine is in no
    class, the background push says the server is not reached, or it cannot be read now (the
    files' counts are shown then; starting is what the server decides)."""
    if classroom is None or getattr(classroom, "problem", None) is not None or not form_uids:
        return {}
    try:
        return classroom.standing(clean_name(trainee), form_uids)
    except ClassServerError:
        return {}


def not_certifiable(use: dict | None, nonce: str, trainee: str, digest: str, result_uid: str) -> str | None:
    """Why the class server's record of a sitting (`use`, as ClassConnection.sitting_use gives
    it) refuses a certificate for this result of it; None when it does not."""
    if use is None:
        return f"sitting {nonce} was not issued in this class: the class server has no record of it"
    named = f"sitting {nonce} (attempt {use['attempt']} of {use['trainee']})"
    if use.get("voided"):
        gone = use["voided"]
        return (f"{named} was voided on the class server by {gone['by']} ({gone['reason']}): its "
                "attempt was given back, and no result of it is certified")
    if use["trainee"] != trainee or use["digest"] != digest:
        return f"{named} was issued on the class server to another trainee or for another form"
    if use["used"] is None:
        return (f"{named} was never started on the class server: a result sat under it was not "
                "counted by the class, so it is not certified")
    if use["certified"] is not None:
        return (f"{named} already has a certificate in this class (result {use['certified']}): a "
                "sitting used once is certified once")
    if use["used"] != result_uid:
        return f"{named} was used on the class server for result {use['used']}, not this one"
    return None


def not_as_recorded(kept: dict, record: dict, nonce: str, ending) -> str | None:
    """Why a result handed in is not the class server's record of its sitting (`kept`, as
    ClassConnection.sitting_record gives it: what the server received first), so that it is not
    certified; None when it is that record. `ending`: how the result says it ended (an Ending)."""
    named = f"sitting {nonce}"
    first = "the class certifies a sitting as the class server recorded it when it was first sat"
    if kept.get("abandoned"):
        gone = kept["abandoned"]
        return (f"{named} was recorded abandoned on the class server by {gone['by']} ({gone['reason']}): "
                "it counts as a fail, certified abandoned from the server's record (certify --class), "
                "and no result of it handed in is certified")
    if record.get("class_start") != kept["opened"]:
        return (f"{named}: the result handed in is not the one the class server started (it does "
                "not bear the server's start of it): it was sat again apart from the class, and "
                f"{first}")
    over = kept.get("over") is not None  # past the time limit and its allowance: nothing more counts
    if kept["ending"] is None and not over:
        return (f"{named} has not ended on the class server yet: its last answers may still be on "
                "their way from the workstation (its status bar says so); certify it once they "
                "have reached the class, or, when they never will, record it abandoned "
                f"(dealer-trainer abandon-sitting {nonce} --reason TEXT --class URL): a fail")
    given = {a.get("position"): a.get("log") for a in record.get("answers") or []
             if isinstance(a, dict)}
    server = {p: _log(t) for p, t in kept["answers"].items()}
    # once the time is over, an answer the server never received is one it would mark late: not
    # answered, rather than a difference that keeps the sitting from ever being certified
    never = set(given) - set(server) if over else set()
    differ = sorted((p for p in (set(given) | set(server)) - never
                     if given.get(p, _MISSING) != server.get(p, _MISSING)),
                    key=lambda p: (not isinstance(p, int), str(p) if not isinstance(p, int) else p))
    if differ:
        items = ", ".join(str(p + 1) if isinstance(p, int) else repr(p) for p in differ)
        return (f"{named}: the result handed in differs from the class server's record of it "
                f"(item{'s' if len(differ) != 1 else ''} {items}): {first}")
    if ending is not None and kept["ending"] is not None and str(ending) != kept["ending"]:
        return (f"{named}: the result handed in ended {ending}, the class server's record of it "
                f"{kept['ending']}: {first}")
    return None


def unended_lines(classroom, now: float | None = None, names: dict[str, str] | None = None) -> list[str]:
    """One line for each sitting started on the class server and not ended there (see "A
    sitting that never ends"), as the instructor sees it in `certify --class` and on the Class
    tab: "Sam Lee, Form, attempt 1 (sitting N): started 14:05, 1 of 3 answers received, not
    ended" and, once recorded, how it was recorded abandoned. A form the class was never given
    is named from `names` (form uid -> name: the instructor's own forms), else by its uid.
    ExamOfflineError or ClassLedgerError when the server cannot be read."""
    with Server(f"The class server cannot be reached now ({classroom.address.shown}): the sittings "
                "not ended are not known"):
        rows = classroom.unended_sittings()
    named = names or {}
    for r in rows:
        if r["form"] == r["form_uid"]:  # the class has no name for it
            r["form"] = named.get(r["form_uid"], r["form"])
    return [unended_line(r, now) for r in rows]


def unended_line(r: dict, now: float | None = None) -> str:
    today = time.localtime(time.time() if now is None else now)[:3]
    started = time.localtime(r["started"])
    when = time.strftime("%H:%M", started) + \
        ("" if started[:3] == today else time.strftime(" on %Y-%m-%d", started))
    line = (f"{r['trainee']}, {r['form']}, attempt {r['attempt']} (sitting {r['nonce']}): started {when}, "
            f"{r['answers']} of {r['items']} answers received, not ended")
    gone = r.get("abandoned")
    if gone:
        line += (f"; recorded abandoned by {gone['by']} at "
                 f"{time.strftime('%H:%M', time.localtime(gone['recorded']))} ({gone['reason']}): a fail")
    elif r.get("over") is not None:
        line += "; its time is over: it is certified as timed out"
    return line


def abandon(classroom, nonce: str, reason: str) -> None:
    """Record a sitting started on the class server and never ended as abandoned, with the
    reason (an instructor's): it counts as a fail, and no result of it is certified."""
    with Server(f"The class server cannot be reached now ({classroom.address.shown}): nothing was "
                "recorded"):
        classroom.abandon_sitting(nonce, reason)


def void(classroom, nonce: str, reason: str) -> None:
    """Void a sitting (an instructor's), with the reason: its attempt is given back, and no
    result of it is certified (see "A sitting voided")."""
    with Server(f"The class server cannot be reached now ({classroom.address.shown}): nothing was "
                "voided"):
        classroom.void_sitting(nonce, reason)


def give_back(classroom, result_uid: str, reason: str) -> str:
    """Give back an attempt started with no sitting (an instructor's), with the reason (see "An
    attempt given back"); the line that says it was (`dealer-trainer give-back-attempt` prints
    it, the Class tab's Give back… shows it in the status bar)."""
    with Server(f"The class server cannot be reached now ({classroom.address.shown}): nothing was "
                "given back"):
        classroom.give_back_start(result_uid, reason)
    return (f"Attempt {result_uid} given back in {classroom.address.database}: it no longer counts "
            "against its form's attempts.")


def start_line(start: dict) -> str:
    """An attempt started with no sitting (`starts_spent`), as the instructor is shown it: its id,
    the trainee, the form, the attempt's number and when it started."""
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(start["started"]))
    return (f"{start['result']}  {start['trainee']}, {start['form']}, attempt {start['attempt']}, "
            f"started {when}")


def starts_spent(classroom) -> list[dict]:
    """The attempts started with no sitting and not given back, as the instructor lists them."""
    with Server(f"The class server cannot be reached now ({classroom.address.shown})"):
        return classroom.starts_spent()


def kept_answers(kept: dict, supervised: frozenset[int] = frozenset()) -> tuple[list[dict], dict | None]:
    """The answers of the class server's record of a sitting that reached it in time, as a
    portable record gives them (position and log) for re-grading: an answer the server marked
    late (s014) counts as not answered. With them, what the record holds that cannot be
    re-graded (`unusable`, as a certificate names it; None when there is none): an answer its
    reader refuses (too deep, too long a number, a lone surrogate...) or that is no log of
    actions is graded as wrong, as not answered, so that the sitting is certified all the same
    (see "An answer that cannot be re-graded"). At the positions `supervised` (the form's
    supervise items) an answer is a supervisor's flags instead of a log of actions. An item the
    server holds no answer of, having refused one over an item's bounds (`oversized`), is named
    there too: the app never sends such an answer, so it is graded as not answered, never held."""
    late = kept.get("late") or {}
    answers, unusable = [], dict(oversized(kept))
    for p, t in sorted(kept["answers"].items()):
        if p in late:
            continue
        log = _log(t)
        why = log.why if isinstance(log, Unusable) else _not_a_log(log, p in supervised)
        if why is None:
            answers.append({"position": p, "log": log})
        else:
            unusable[p] = why
    if not unusable:
        return answers, None
    items = sorted(unusable)
    said = "; ".join(f"item {p + 1}: {unusable[p]}" for p in items)
    return answers, {
        "items": [{"position": p, "why": unusable[p]} for p in items],
        "why": (f"the class server holds answers that cannot be re-graded, or refused answers no "
                f"copy of the app sends ({said}): each is graded as wrong, as not answered, since "
                "an item passes only when its round is shown worked without a critical or major "
                "finding (the pass rule)")}


#: what a supervise item's round may have run ahead of the class server's clock: Qt's timers,
#: which pace the dealer, may fire up to 5 % early, and a second more for the rest
WATCH_EARLY = 0.05
WATCH_SLACK = 1.0


def watched_too_soon(kept: dict, answers: list[dict],
                     supervised: frozenset[int]) -> tuple[list[dict], dict | None]:
    """The answers (`kept_answers`' first part) less those to a supervise item that reached the
    class server sooner after its record of the start than the rounds could have been watched
    (see "Watched too soon"), with what a certificate names of them (None when there is none).
    A round plays at its pace from when its item opens, and the items open one after another
    after the server's start: so the flags given up to an answer, each round's latest flag's
    time into it, add up to the least time since the start that answer can reach the server."""
    received = kept.get("received") or {}
    flags = {a["position"]: a["log"] for a in answers if a["position"] in supervised}
    watched, soon = 0.0, {}
    for p in sorted(received, key=lambda q: (received[q], q)):
        if p not in flags:
            continue
        watched += max((f["at"] for f in flags[p] if isinstance(f, dict)), default=0.0)
        if received[p] < watched * (1 - WATCH_EARLY) - WATCH_SLACK:
            soon[p] = (received[p], watched)
    if not soon:
        return answers, None
    items = sorted(soon)
    return [a for a in answers if a["position"] not in soon], {
        "items": [{"position": p, "after_start": int(soon[p][0]), "watched": int(soon[p][1])}
                  for p in items],
        "why": (f"item{'s' if len(items) != 1 else ''} {', '.join(str(p + 1) for p in items)} reached "
                f"the class server {_span(min(soon[p][0] for p in items))} after its record of the "
                "start, sooner than the rounds could be watched up to the flags given (at the "
                "dealer's pace, by the server's clock): not answered")}


def oversized(kept: dict) -> dict[int, str]:
    """The items the class server's record of a sitting holds no answer of, having refused one
    over an item's bounds (s034: more than 262,144 bytes or 2,000 actions), each with why it is
    not answered. The app never sends such an answer (trainer.practice ends a round before its
    log reaches them), so one proves a client changed by its user: its item is graded as not
    answered and never holds the sitting (see `refused_unanswered`)."""
    answered = set(kept["answers"])
    found: dict[int, str] = {}
    for r in kept.get("refused_answers") or []:
        size, p = r.get("bytes"), r.get("position")
        if isinstance(size, int) and isinstance(p, int) and p not in answered and p not in found:
            over = "" if size > LOG_BYTES else f": {' '.join(str(r.get('why')).split())[:200]}"
            found[p] = f"an answer larger than the app sends ({size} bytes{over})"
    return found


def refused_unanswered(kept: dict, nonce: str) -> str | None:
    """Why the class server's record of a sitting is held, not certified: it refused an answer to
    an item it holds no answer of (a trainee who answered would be certified as one who did
    not), named with the server's reasons; None when every refused answer's item was answered
    first (first wins: the refusal changes nothing). The instructor voids the sitting
    (dealer-trainer void-sitting: the attempt is given back) or certifies it as recorded
    (certify --class --certify-held). An item refused an answer over its bounds holds nothing
    (`oversized`: the app never sends one, so it is the trainee's own doing), and neither does an
    answer sent after the step that ended the sitting: the app sends nothing after its end, so
    that item was left unanswered by the trainee's own end (the seventh cold review, #140)."""
    answered = set(kept["answers"]) | set(oversized(kept))
    end = kept.get("ended_step")
    refused = [r for r in kept.get("refused_answers") or []
               if r["position"] not in answered and (end is None or r["step"] <= end)]
    if not refused:
        return None
    items = sorted({r["position"] for r in refused if isinstance(r["position"], int)})
    said = "; ".join(f"step {r['step']}: {' '.join(str(r['why']).split())[:200]}" for r in refused[:3])
    more = f" and {len(refused) - 3} more" if len(refused) > 3 else ""
    return (f"held, not certified: the class server refused "
            f"{len(refused)} answer{'s' if len(refused) != 1 else ''} of item"
            f"{'s' if len(items) != 1 else ''} {', '.join(str(p + 1) for p in items)}, which it "
            f"holds no answer of ({said}{more}): void it to give the attempt back "
            f"(dealer-trainer void-sitting {nonce}), or certify it as recorded, those items not "
            "answered (dealer-trainer certify --class --certify-held)")


def _not_a_log(log, flags: bool = False) -> str | None:
    """Why a read answer is no log of actions (with `flags`, no supervisor's flags) to re-grade;
    None when it is one."""
    if flags:
        try:
            flags_from_json(log, "log")
        except FlagsError as e:
            return str(e)
        return None
    try:
        read_log(log)
    except RequestError as e:
        return f"{e.field}: {e.message}"
    return None


def counted_late(kept: dict) -> dict | None:
    """What of the class server's record of a sitting reached it after the time limit and the
    queue's allowance (s014; see the module, "The time limit"), as a certificate names it: the
    items (`position`, `after_limit` in whole seconds), counted as not answered, whether its end
    came late too (`ended_after_limit`: the sitting is then certified as timed out) and `why`, in
    words. None when everything came in time (or the server keeps no time for the sitting)."""
    late, ended = kept.get("late") or {}, kept.get("ended_late")
    unended = kept["ending"] is None and kept.get("over") is not None
    if not late and ended is None and not unended:
        return None
    said = []
    if late:
        items = sorted(late)
        said.append(f"item{'s' if len(items) != 1 else ''} {', '.join(str(p + 1) for p in items)} "
                    f"reached the class server up to {_span(max(late.values()))} after the time "
                    "limit and count as not answered")
    if ended is not None:
        said.append(f"its end reached it {_span(ended)} after the time limit (handed in then, "
                    "it timed out)")
    if unended:
        said.append(f"its end had not reached the class server {_span(kept['over'] + kept['allowance'])} "
                    "after the time limit: it timed out, and what the server had not received "
                    "counts as not answered")
    limit, allowance = kept.get("time_limit"), kept.get("allowance")
    why = (f"{'; '.join(said)} (the time limit is {_span(limit)} from the class server's own record "
           f"of the start, by its clock, and the class allows {_span(allowance)} more for the "
           "workstation's queue)")
    return {"items": [{"position": p, "after_limit": int(late[p])} for p in sorted(late)],
            "ended_after_limit": None if ended is None else int(ended), "ended": not unended,
            "why": why}


def delivered_late(kept: dict) -> dict | None:
    """The answers of the class server's record of a sitting that reached it after the time limit
    but within the allowance for delivery (see the module, "The time limit"): counted, as made in
    time and delivered late, and named on the certificate (`items`: `position` and `after_limit`
    in whole seconds, and `why`, in words). None when every answer came within the limit."""
    after = kept.get("delivered_late") or {}
    if not after:
        return None
    items = sorted(after)
    return {"items": [{"position": p, "after_limit": int(after[p])} for p in items],
            "why": (f"item{'s' if len(items) != 1 else ''} {', '.join(str(p + 1) for p in items)} "
                    f"reached the class server up to {_span(max(after.values()))} after the time "
                    f"limit, within the {_span(kept.get('allowance'))} the class allows for "
                    "delivery: counted as answered in time")}


def _span(seconds) -> str:
    seconds = int(seconds or 0)
    if seconds < 120:
        return f"{seconds} s"
    minutes = seconds // 60
    return f"{minutes} min" if minutes < 120 else f"{minutes // 60} h {minutes % 60} min"


_MISSING = object()

#: the largest answer the class server takes for one item (s012's bound on `answer`)
ANSWER_BYTES = 1048576


class Unusable:
    """An answer the class server holds that its reader refuses (`why`): equal to no answer
    handed in."""

    def __init__(self, why: str) -> None:
        self.why = why


def _log(text: object):
    """An answer's log as the class server holds it, read as hostile data; Unusable naming why
    when it cannot be read."""
    if not isinstance(text, str):
        return Unusable("not text")
    try:
        return files.loads_bounded(text, cap=ANSWER_BYTES, depth=ANSWER_DEPTH)
    except files.FileRefused as e:
        return Unusable(str(e))


#: how deep an answer's log may nest: a list of actions, each an object of plain values, or an
#: object holding that list
ANSWER_DEPTH = 8
