"""`dealer-trainer class-server --stop DIR`: the class server in DIR stopped from anywhere
(trainer.classes.server.command says how), and what it reads of the running command: its process
id (PID_FILE) and whether that process runs. Without the server's own code (psycopg, the class's
tables and ledger), which a stop does not use: `--stop` starts in a third of the processor."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from trainer.classes.errors import ClassServerError
from trainer.classes.server.postgres import Postgres

PID_FILE = "class-server.pid"  # the running command's process id
STOP_FILE = "class-server.stop"  # --stop's request to the running command
STOP_WAIT = 60.0  # seconds `stop` waits for the running command to stop the server
PROCESS_QUERY_LIMITED_INFORMATION, STILL_ACTIVE = 0x1000, 259  # Windows: asking whether a process runs


def stop_server(folder: str, *, say: Callable[[str], None] = print, wait: float = STOP_WAIT) -> int:
    """Stop the class server whose data is in `folder`: ask its command to stop it (STOP_FILE)
    and wait up to `wait` seconds, or, when that command is gone, stop PostgreSQL here. 0 when
    stopped or not running."""
    server = Postgres(folder)
    if not (server.pgdata / "PG_VERSION").exists():
        raise ClassServerError(f"{server.folder} holds no class server's data")
    if not server.running:
        say(f"No class server is running in {server.folder}.")
        return 0
    if command_pid(server) is not None:
        try:
            (server.folder / STOP_FILE).write_text("stop\n", encoding="ascii")
        except OSError as e:
            raise ClassServerError(f"cannot ask the class server in {server.folder} to stop "
                                   f"({e.strerror or e}): stop it with Ctrl+C in its window") from None
        waited = time.monotonic() + wait
        while command_pid(server) is not None and time.monotonic() < waited:
            time.sleep(0.1)
    server.stop()  # the command is gone (or did not stop it in time): stop PostgreSQL itself
    say(f"Class server in {server.folder} stopped.")
    return 0


def command_pid(server: Postgres) -> int | None:
    """The process id of the class-server command running in the folder, if it still runs."""
    try:
        pid = int((server.folder / PID_FILE).read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        return None
    if not runs(pid):
        return None
    try:  # another program given the same id since: not ours
        if b"class-server" not in Path(f"/proc/{pid}/cmdline").read_bytes():
            return None
    except OSError:
        pass  # no /proc here: the id is believed
    return pid


def runs(pid: int) -> bool:
    """Whether the process `pid` runs: signal 0 on POSIX; on Windows, where os.kill(pid, 0) would
    end the process (TerminateProcess), its exit code is asked for instead."""
    if sys.platform == "win32":
        import ctypes

        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
        handle = kernel32.OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, False, pid)
        if not handle:
            return False
        try:
            code = ctypes.c_ulong()
            asked = kernel32.GetExitCodeProcess(handle, ctypes.byref(code))
            return bool(asked) and code.value == STILL_ACTIVE
        finally:
            kernel32.CloseHandle(handle)
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True
