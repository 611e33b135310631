"""A real PostgreSQL, run from the packaged server (pgserver) in a folder of the instructor's.

`Postgres(folder, host, port)` keeps the cluster in `folder/pgdata`, its log in
`folder/server.log` and its socket in `folder/socket`. `start()` makes the cluster the first time
(initdb), then runs it listening on `host:port`; `stop()` shuts it down cleanly, `crash()` stops
it as a power cut would (no checkpoint: the next start recovers from the write-ahead log).

Connections over TCP need a password (scram-sha-256). The superuser (`postgres`) connects only
through the socket, in a folder only the server's own user may enter.

**As root.** PostgreSQL refuses to run as root. pgserver's answer, used here too: the server
runs as the system user `pgserver` (made with useradd if missing), which owns `pgdata` and
`socket`; the folders above `folder` get search permission (o+x) so that user can reach it.
Unlike pgserver, the server's programs run in that user's group only, not in root's group 0
(pgserver keeps root's groups, and makes the folders above group-readable to match).
"""

from __future__ import annotations

import errno
import os
import socket
import stat
import subprocess
import warnings
from pathlib import Path

from trainer.classes.errors import ClassServerError

SYSTEM_USER = "pgserver"  # the user pgserver itself runs PostgreSQL as, under root
HBA = """# Dealer Trainer class server: the superuser through the private socket, everyone else
# with a password
local all all trust
host all all all scram-sha-256
"""


def _pgserver():
    with warnings.catch_warnings():  # it warns, on import, of a missing XDG_RUNTIME_DIR
        warnings.simplefilter("ignore")
        try:
            import pgserver
        except ImportError:
            raise ClassServerError("the packaged PostgreSQL server (pgserver) is not installed") from None
    return pgserver


class Postgres:
    def __init__(self, folder: str | os.PathLike, *, host: str = "127.0.0.1", port: int = 5432):
        self.folder = Path(folder).absolute()
        self.host, self.port = host, port
        self.pgdata = self.folder / "pgdata"
        self.socket_dir = self.folder / "socket"
        self.log = self.folder / "server.log"
        self.user = SYSTEM_USER if os.geteuid() == 0 else None

    # ------------------------------------------------------------------ checks
    def check_folder(self) -> None:
        """A folder that can hold the cluster, or ClassServerError naming the problem."""
        where = self.folder
        try:
            if where.exists() and not where.is_dir():
                raise ClassServerError(f"{where} is a file, not a folder")
            where.mkdir(parents=True, exist_ok=True)
            probe = where / ".write-test"
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as e:
            raise ClassServerError(f"cannot write in the folder {where}: {e.strerror or e}") from None
        if self.pgdata.exists() and any(self.pgdata.iterdir()) and not (self.pgdata / "PG_VERSION").exists():
            raise ClassServerError(f"{self.pgdata} holds files that are not a PostgreSQL cluster")

    def check_port(self) -> None:
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as s:
            # as PostgreSQL binds: connections it closed a moment ago (TIME_WAIT) do not count
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind((self.host, self.port))
            except OSError as e:
                if e.errno == errno.EADDRINUSE:
                    raise ClassServerError(f"port {self.port} on {self.host} is in use by another "
                                           "program: choose another with --port") from None
                raise ClassServerError(f"cannot listen on {self.host}:{self.port}: "
                                       f"{e.strerror or e}") from None

    @property
    def running(self) -> bool:
        return self._ctl("status", check=False) == 0

    # ------------------------------------------------------------------ life
    def start(self) -> None:
        self.check_folder()
        if self.running:
            raise ClassServerError(f"a class server is already running in {self.folder}")
        self.check_port()
        if not (self.pgdata / "PG_VERSION").exists():
            self._init()
        options = (f"-c listen_addresses='{self.host}' -p {self.port} -k {self.socket_dir} "
                   "-c unix_socket_permissions=0700")
        if self._ctl("start", "-w", "-t", "60", "-l", str(self.log), "-o", options, check=False):
            raise ClassServerError(f"PostgreSQL did not start: {self.last_log_line()}")

    def stop(self) -> None:
        """A clean shutdown (sessions are ended, everything committed is on disk)."""
        if self.running:
            self._ctl("stop", "-w", "-m", "fast")

    def crash(self) -> None:
        """Stop at once, as a power cut would: no checkpoint, the next start recovers."""
        if self.running:
            self._ctl("stop", "-w", "-m", "immediate")

    def admin_dsn(self, dbname: str = "postgres") -> str:
        return f"host={self.socket_dir} port={self.port} user=postgres dbname={dbname}"

    def last_log_line(self) -> str:
        try:
            lines = [ln for ln in self.log.read_text(errors="replace").splitlines() if ln.strip()]
        except OSError:
            return "no log was written"
        return lines[-1] if lines else "the log is empty"

    # ------------------------------------------------------------------ parts
    def _init(self) -> None:
        if self._run("initdb", "-D", str(self.pgdata), "--auth-local=trust",
                     "--auth-host=scram-sha-256", "--encoding=UTF8", "--no-locale", "-U", "postgres"):
            raise ClassServerError(f"could not make the database cluster in {self.pgdata} "
                                   "(initdb failed)")
        (self.pgdata / "pg_hba.conf").write_text(HBA)

    def _hand_over(self) -> None:
        """Running as root: the folders the server writes belong to its own user."""
        _pgserver()
        from pgserver.utils import ensure_user_exists

        entry = ensure_user_exists(self.user)
        self.folder.mkdir(parents=True, exist_ok=True)
        for d in (self.pgdata, self.socket_dir):
            d.mkdir(mode=0o700, exist_ok=True)
        for p in (self.log, self.folder / "commands.log"):
            p.touch()
        for p in (self.pgdata, self.socket_dir, self.log):
            os.chown(p, entry.pw_uid, entry.pw_gid)
        for parent in self.folder.parents:
            mode = parent.stat().st_mode
            if not mode & stat.S_IXOTH:
                parent.chmod(mode | stat.S_IXOTH)
        mode = self.folder.stat().st_mode
        self.folder.chmod(mode | stat.S_IXOTH)

    def _ctl(self, action: str, *args: str, check: bool = True) -> int:
        if self.user:
            self._hand_over()
        code = self._run("pg_ctl", "-D", str(self.pgdata), action, *args)
        if check and code:
            raise ClassServerError(f"pg_ctl {action} failed: {self.last_log_line()}")
        return code

    def _run(self, program: str, *args: str) -> int:
        """Run one of the packaged server's programs, as the server's user; its exit code. Its
        output goes to the log, never to the user's terminal."""
        binaries = Path(_pgserver()._commands.POSTGRES_BIN_PATH)
        self.folder.mkdir(parents=True, exist_ok=True)
        with open(self.folder / "commands.log", "ab") as out:
            user = {"user": self.user, "group": self.user, "extra_groups": []} if self.user else {}
            return subprocess.run([str(binaries / program), *args], **user, stdin=subprocess.DEVNULL,
                                  stdout=out, stderr=out, check=False).returncode
