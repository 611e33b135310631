"""The class server: one PostgreSQL for a class, each workstation's progress file its queue.

- `postgres`: a real PostgreSQL run from the packaged server (`Postgres`), for
  `dealer-trainer class-server`;
- `tables`: the server's schema (tables made from trainer.progress.columns, append-only
  triggers, roles, row-level security, the push function), as named migrations, each frozen as
  the SQL it ran (`migrations/*.sql`);
- `queue`: the workstation's side: which attempts of the progress file were sent to which class;
- `push`: sending the unsent attempts, a batch per transaction (`push_once`), and `Pusher`, the
  thread that does it in the background and retries with backoff;
- `classview`: the Class screen from the server (`server_class_overview`), what the live view
  adds (`class_activity`: workstations connected, the last result, who is working on what), one
  trainee's attempts opened from it (`attempts_of`) and `follow`, the new attempts as the server
  announces them (LISTEN/NOTIFY);
- `ledger`: the exam ledger on the server (sittings issued and used, insert-only);
- `logins`: the class's logins (`add_login`) and a trainee's own (`trainee_login`);
- `address`: a `--class` address checked without connecting (`class_address`);
- `connection`: `ClassConnection`, what the app holds while a workstation is in a class;
- `results`: the class's attempts read back for the hand-off to the employer
  (`server_lines`, `class_lines`; trainer.progress.handoff writes them);
- `command`: `dealer-trainer class-server`.
"""
