"""The class: one PostgreSQL for a class, each workstation's progress file its queue.

Two halves, the lower never importing the upper:

- `server`, what runs on the instructor's machine and inside PostgreSQL:
  - `postgres`: a real PostgreSQL run from the packaged server (`Postgres`), for
    `dealer-trainer class-server`;
  - `tables`: the server's schema (tables first made from trainer.progress.columns, append-only
    triggers, roles, row-level security, the push function), as named migrations, each frozen as
    the SQL it ran (`migrations/*.sql`);
  - `ledger`: the exam ledger's calls (sittings issued and used, insert-only);
  - `logins`: the class's logins (`add_login`), a trainee's own (`class_login`,
    `trainee_login`, `new_password`), a workstation's own (`enrol_workstation`,
    `revoke_workstation`, `workstations`), the shared workstation login closed or opened
    (`close_shared_login`, `open_shared_login`, `shared_login`), and the defaults a login gave
    itself removed at the class server's start (`reset_defaults`);
  - `sessions`: the sessions of the class watched by the class server (`end_holders`: a
    workstation's or trainee's session that holds up another is ended);
  - `retractions`: an instructor hides an attempt from the exports and the view, with a reason
    (`retract`, `retracted`);
  - `people`: one person, one trainee: the trainee ids of a login's name, and those an
    instructor merged (`merge`, `part`, `merges`; `people` groups them for the readers);
  - `command`: `dealer-trainer class-server`;
  - `stopping`: `dealer-trainer class-server --stop` (`stop_server`), and whether the command
    still runs in a folder (`command_pid`, `runs`), loading none of the server's code;
  - `setup`: `dealer-trainer class-setup`, a class on a PostgreSQL the school runs, with logins
    of its own (`setup_class`);
  - `failures`: why a connection failed, in words (`said`), and the versions a class runs on
    (`check_version`).
- `workstation`, what the app on a workstation (or the instructor's) does with a class:
  - `address`: a `--class` address checked without connecting (`class_address`), its password
    kept apart (`split_password`, `with_password`, `with_passfile`);
  - `passfile`: the class password in a libpq password file of the app's own;
  - `queue`: which attempts of the progress file were sent to which class;
  - `push`: sending the unsent attempts, a batch per transaction (`push_batch`; an attempt the
    server refuses found by halving the batch and set aside, `each_refused`), and `Pusher`, the
    thread that does it in the background and retries with backoff;
  - `classview`: the Class screen from the server (`server_class_overview`), what the live view
    adds (`class_activity`), one trainee's attempts (`attempts_of`) and `follow` (LISTEN/NOTIFY);
    two trainees of one name told apart by their ids (`told_apart`);
  - `results`: the class's attempts read back for the hand-off to the employer
    (`server_lines`, `class_lines`; trainer.progress.handoff writes them);
  - `connection`: `ClassConnection`, what the app holds while a workstation is in a class
    (`start`, `stop`, `close`, `wake`, `waiting`, `status`; for an instructor `class_overview`,
    `class_activity`, `attempts_of`, `follow`; the exam ledger's calls; the class's logins:
    `class_login`, `enrol_workstation`, `revoke_workstation`, `workstations`, the shared login's
    calls), and `with_login`
    (the same class's address with another login and its password).
- `errors`: `ClassServerError` (`ClassUnreachableError`: not reached; `LoginRefusedError`: its
  password refused);
- `demo`: `DemoClass`, a demonstration progress file answering as a class server would.

The class package sits above trainer.progress (a workstation's file is its queue) and below
trainer.exams (the exam ledger is kept here); the UI reaches it through this face only.
"""

from trainer.faces import lazy_face, names_from

FACE = {
    **names_from("trainer.classes.errors", "ClassServerError", "ClassUnreachableError", "LoginRefusedError"),
    **names_from("trainer.classes.demo", "DemoClass"),
    **names_from("trainer.classes.workstation.address", "ClassAddress", "class_address", "split_password",
                 "with_passfile", "with_password"),
    "passfile": ("trainer.classes.workstation.passfile", None),  # the class password file, as a namespace
    **names_from("trainer.classes.workstation.connection", "ClassConnection", "with_login"),
    **names_from("trainer.classes.workstation.push", "refused_line",  # "1 result refused by ...: why"
                 "pauses"),  # the pauses before each try again: doubling, capped, jittered
    # "Ana (trainee id 1a2b3c4d…)": one of two trainees of a name, as the Class tab shows her
    **names_from("trainer.classes.workstation.names", "told_apart",
                 "DISPUTED"),  # the mark after a name while a login claims one of its ids
    # "Trainee id … settled the claimant's …": what settling a claimed id did (settle-claim's line)
    **names_from("trainer.classes.server.people", "settled_line"),
    **names_from("trainer.classes.server.logins", "new_password",  # a trainee's class password
                 "CLOSE_SHARED_SAYS", "OPEN_SHARED_SAYS"),  # what closing the shared login does
}
__getattr__, __dir__, __all__ = lazy_face(__name__, FACE)
