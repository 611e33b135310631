"""A real PostgreSQL, run from the packaged server (pgserver) in a folder of the instructor's.

`Postgres(folder, host, port)` keeps the cluster in `folder/pgdata`, its log in
`folder/server.log` and its socket in `folder/socket` (or, when that path is longer than a socket's
address may be, in a short folder of its own under the temporary folder). `start()` makes the
cluster the first time (initdb), then runs it listening on `host:port`; `stop()` shuts it down
cleanly, `crash()` stops it as a power cut would (no checkpoint: the next start recovers from the
write-ahead log). Any path works, spaces included.

Connections over TCP need a password (scram-sha-256). The superuser (`postgres`) connects only
through the socket, in a folder only the server's own user may enter.

**As root.** PostgreSQL refuses to run as root. pgserver's answer, used here too: the server
runs as the system user `pgserver` (made with useradd if missing), which owns `pgdata` and
`socket`, in that user's group only (not in root's group 0, as pgserver has it). That user must
reach the data folder: a folder above it that it cannot enter is named, with what to change, and
never changed here (pgserver opens every folder above to everyone; a private home would be open
to every local user). The packaged server's programs, when that user cannot reach them (the app
installed under a private folder), are copied once into the data folder and run from there.

**On Windows.** No root and no user ids: nothing is handed over (`as_root`), the socket folder's
owner is not checked by number, and paths given to pg_ctl are quoted as its command line is split
there (`option`).
"""

from __future__ import annotations

import errno
import hashlib
import os
import shlex
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from trainer.classes.errors import ClassServerError
from trainer.paths import binary

if TYPE_CHECKING:
    import pwd  # POSIX only: the hand-over to the server's user happens under root alone

SYSTEM_USER = "pgserver"  # the user pgserver itself runs PostgreSQL as, under root
#: the longest path a Unix socket's address holds (sun_path: 108 bytes on Linux, 104 on macOS,
#: each with its terminating NUL); PostgreSQL's socket is `<folder>/.s.PGSQL.<port>`
SOCKET_PATH_MAX = 103
#: connections the server takes, and of them those kept for the instructor (a login holding the
#: others, the shared workstation login's most, leaves the instructor room; the superuser has 3
#: of its own besides, superuser_reserved_connections)
CONNECTIONS = 200
RESERVED = 10
#: the temporary files one session may write (its sorts and hashes that outgrow work_mem), over
#: all its files at once: a trainee's login spilled 1.9 GB in 22 s with none. A superuser's
#: setting (no login raises it for itself, nor with ALTER ROLE); the class's own statements
#: spill nothing near it
TEMP_FILE_LIMIT = "256MB"
#: seconds a connection may take to log in: PostgreSQL counts a connection among
#: max_connections before its login is known, so 205 that never answered the password's challenge
#: held every slot, the instructor's too, for the default 60 s each. A flood from the network is
#: the firewall's to bound (README, "Class server": a limit of connections per address)
AUTHENTICATION_TIMEOUT = 5
#: what the server writes to `server.log`: only what stops a session or the server (FATAL,
#: PANIC), never a statement's text nor a failing statement's error, whose words a login chooses:
#: any login filled 100 MB in 13 s with failing statements written whole
#: (log_min_error_statement = error, the default). A failed statement is told to its client; a
#: FATAL line needs a new connection, which the firewall bounds (README, "Class server")
LOG_MIN_MESSAGES = "fatal"
#: the memory one of the server's processes may take for itself (Linux: RLIMIT_DATA, its heap and
#: private mappings; the buffers the processes share are not counted). Any login may raise its
#: own work_mem, hash_mem_multiplier and the like (PostgreSQL lets every role), and one sort then
#: grew a process to 2,214 MB in 25 s: past this bound the statement fails with "out of memory",
#: and the session and the server go on. The class's own statements stay far below it
BACKEND_MEMORY = 512 << 20
LOG_KEPT = 1 << 20  # bytes of the commands' log before it is set aside as commands.log.1
#: bytes of `server.log` kept: a FATAL line carries words a login chose (a startup option's
#: refused value, up to 10,000 bytes a connection), and a login's reconnecting wrote 4.6 MB in
#: 10 s. Past this, its last SERVER_LOG_KEPT bytes are kept as server.log.1 (`keep_log`, at the
#: start and at every look of `class-server`), so the two hold twice this and a look's worth
SERVER_LOG_KEPT = 1 << 20
PROGRAMS = ".postgresql"  # the packaged server's programs, copied here when its user cannot reach them
#: what `class-server` says without the optional extra that brings the packaged PostgreSQL
NOT_INSTALLED = ("the class server's packaged PostgreSQL (pgserver) is not installed: pip install "
                 "'dealer-trainer[class-server]' (Python 3.11 or 3.12), or point the workstations at "
                 "an existing PostgreSQL with --class postgresql://…")
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
            raise ClassServerError(NOT_INSTALLED) from None
    return pgserver


def packaged_server() -> None:
    """ClassServerError (NOT_INSTALLED) unless the packaged PostgreSQL can be imported."""
    _pgserver()


class Postgres:
    def __init__(self, folder: str | os.PathLike, *, host: str = "127.0.0.1", port: int = 5432):
        self.folder = Path(folder).absolute()
        self.host, self.port = host, port
        self.pgdata = self.folder / "pgdata"
        self.socket_dir = socket_folder(self.folder, port)
        self.log = self.folder / "server.log"
        self.user = SYSTEM_USER if as_root() else None

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
        """PostgreSQL answers `pg_ctl status`. Asked every few seconds while the class runs, so its
        answer is not logged (it was 13 MB a day of "server is running")."""
        return self._ctl("status", check=False, logged=False) == 0

    # ------------------------------------------------------------------ life
    def start(self) -> None:
        self.check_folder()
        if self.running:
            raise ClassServerError(f"a class server is already running in {self.folder}")
        self.check_port()
        if not (self.pgdata / "PG_VERSION").exists():
            self._init()
        self._socket_folder()
        self.keep_log()  # grown while no class-server looked at it
        options = (f"-c listen_addresses={option(self.host)} -p {self.port} "
                   f"-k {option(str(self.socket_dir))} -c unix_socket_permissions=0700 "
                   f"-c max_connections={CONNECTIONS} -c reserved_connections={RESERVED} "
                   f"-c temp_file_limit={TEMP_FILE_LIMIT} "
                   f"-c authentication_timeout={AUTHENTICATION_TIMEOUT}s "
                   f"-c log_min_messages={LOG_MIN_MESSAGES} -c log_min_error_statement=panic")
        if self._ctl("start", "-w", "-t", "60", "-l", str(self.log), "-o", options, check=False,
                     bounded=True):
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
        from psycopg.conninfo import make_conninfo  # each value quoted: a folder may hold spaces

        return make_conninfo(host=str(self.socket_dir), port=self.port, user="postgres", dbname=dbname)

    def last_log_line(self) -> str:
        """The server log's last line (server.log's, or the one set aside's when it was just
        emptied)."""
        for log in (self.log, self.log.with_name(self.log.name + ".1")):
            try:
                lines = [ln for ln in log.read_text(errors="replace").splitlines() if ln.strip()]
            except OSError:
                lines = []
            if lines:
                return lines[-1]
        return "the log is empty" if self.log.exists() else "no log was written"

    def keep_log(self) -> None:
        """`server.log` held to SERVER_LOG_KEPT bytes: when it is longer, its last whole lines up
        to that many are kept as server.log.1 (its owner's only), the one before gone, and it is
        emptied in place. PostgreSQL appends to it (pg_ctl opened it so), so it writes on from its
        start; a line written between the copy and the emptying is lost. Where the file cannot be
        emptied while the server has it open (Windows), it is left as it is."""
        try:
            if self.log.stat().st_size <= SERVER_LOG_KEPT:
                return
            with open(self.log, "rb") as log:
                log.seek(-SERVER_LOG_KEPT, os.SEEK_END)
                tail = log.read(SERVER_LOG_KEPT)
            kept = self.log.with_name(self.log.name + ".1")
            part = kept.with_name(kept.name + ".part")
            part.unlink(missing_ok=True)
            with open(os.open(part, binary(os.O_WRONLY | os.O_CREAT | os.O_EXCL), 0o600), "wb") as out:
                out.write(tail[tail.find(b"\n") + 1:])  # from the first whole line
            os.replace(part, kept)
            os.truncate(self.log, 0)
        except OSError:
            return

    # ------------------------------------------------------------------ parts
    def _init(self) -> None:
        if self._run("initdb", "-D", str(self.pgdata), "--auth-local=trust",
                     "--auth-host=scram-sha-256", "--encoding=UTF8", "--no-locale", "-U", "postgres"):
            raise ClassServerError(f"could not make the database cluster in {self.pgdata} "
                                   "(initdb failed)")
        (self.pgdata / "pg_hba.conf").write_text(HBA)

    def _socket_folder(self) -> None:
        """The socket's folder, the server's own user's only (made on every start: one under the
        temporary folder does not outlive a restart of the machine)."""
        self.socket_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not hasattr(os, "geteuid"):  # Windows: no owners by number; the folder's ACL guards it
            return
        owner = _system_user(self.user).pw_uid if self.user else os.geteuid()
        st = os.lstat(self.socket_dir)  # one made by someone else (or a link) is never used
        if not stat.S_ISDIR(st.st_mode) or st.st_uid not in (owner, os.geteuid()):
            raise ClassServerError(f"{self.socket_dir}, the server's socket folder, belongs to someone "
                                   "else: remove it, or give a data folder with a shorter path")
        if self.user:
            os.chown(self.socket_dir, owner, _system_user(self.user).pw_gid, follow_symlinks=False)
        self.socket_dir.chmod(0o700)

    def _hand_over(self) -> None:
        """Running as root: the folders the server writes belong to its own user, who must be able
        to reach them (ClassServerError naming the folder that stops it, and what to do)."""
        entry = _system_user(self.user)
        self.folder.mkdir(parents=True, exist_ok=True)
        blocked = unreachable(self.folder.parent, entry.pw_uid, entry.pw_gid)
        if blocked is not None:
            raise ClassServerError(
                f"the class server runs PostgreSQL as the system user {self.user}, who cannot enter "
                f"{blocked} (mode {stat.S_IMODE(blocked.stat().st_mode):o}): give a data folder it can "
                f"reach (e.g. /srv/dealer-class), or let it pass with: chmod o+x {shlex.quote(str(blocked))}")
        for d in (self.pgdata,):
            d.mkdir(mode=0o700, exist_ok=True)
        for p in (self.log, self.folder / "commands.log"):
            p.touch(mode=0o600)
        for p in (self.pgdata, self.log):
            os.chown(p, entry.pw_uid, entry.pw_gid)
        mode = self.folder.stat().st_mode  # the folder named: its user may pass through it
        self.folder.chmod(mode | stat.S_IXOTH)

    def _programs(self) -> Path:
        """The packaged server's programs, where the server's user can run them: where pgserver
        keeps them, or a copy in the data folder when that user cannot reach them there (the app
        installed under a private folder)."""
        binaries = Path(_pgserver()._commands.POSTGRES_BIN_PATH)
        if not self.user:
            return binaries
        entry = _system_user(self.user)
        if unreachable(binaries, entry.pw_uid, entry.pw_gid) is None:
            return binaries
        install = binaries.parent  # site-packages/pgserver/pginstall
        site = install.parent.parent
        made = (binaries / "postgres").stat()  # this version of the programs, where it is installed
        version = hashlib.sha256(f"{install}:{made.st_size}:{made.st_mtime_ns}".encode()).hexdigest()[:16]
        copy = self.folder / PROGRAMS / version
        if not (copy / install.relative_to(site) / "bin" / "postgres").exists():
            partial = self.folder / PROGRAMS / f"{version}.part"
            shutil.rmtree(partial, ignore_errors=True)
            # the programs find their libraries beside the package (pgserver.libs, their RPATH
            # $ORIGIN/../../../pgserver.libs): both are copied, in the same places
            for part in (install, site / "pgserver.libs"):
                if part.is_dir():
                    shutil.copytree(part, partial / part.relative_to(site), symlinks=True)
            for d in (self.folder / PROGRAMS, partial, *(partial / install.relative_to(site)).parents):
                if d.is_relative_to(self.folder / PROGRAMS):
                    d.chmod(0o755)
            partial.rename(copy)
        return copy / install.relative_to(site) / "bin"

    def _ctl(self, action: str, *args: str, check: bool = True, logged: bool = True,
             bounded: bool = False) -> int:
        if self.user:
            self._hand_over()
        code = self._run("pg_ctl", "-D", str(self.pgdata), action, *args, logged=logged, bounded=bounded)
        if check and code:
            raise ClassServerError(f"pg_ctl {action} failed: {self.last_log_line()}")
        return code

    def _run(self, program: str, *args: str, logged: bool = True, bounded: bool = False) -> int:
        """Run one of the packaged server's programs, as the server's user; its exit code. Its
        output goes to the commands' log (not `logged`: nowhere), never to the user's terminal.
        `bounded`: the program, and every process it starts (the server's), runs under
        BACKEND_MEMORY where the operating system bounds a process's memory (`memory_bound`)."""
        binaries = self._programs()
        self.folder.mkdir(parents=True, exist_ok=True)
        user: dict[str, Any] = ({"user": self.user, "group": self.user, "extra_groups": []}
                                if self.user else {})
        if bounded and sys.platform == "linux":
            user["preexec_fn"] = memory_bound
        with self._commands_log() if logged else open(os.devnull, "ab") as out:
            return subprocess.run([str(binaries / program), *args], **user, stdin=subprocess.DEVNULL,
                                  stdout=out, stderr=out, check=False).returncode

    def _commands_log(self) -> IO[bytes]:
        """The commands' log to append to, readable by its owner only, the one before kept as
        `commands.log.1` once it passes LOG_KEPT bytes (so the folder never fills)."""
        path = self.folder / "commands.log"
        try:
            if path.stat().st_size > LOG_KEPT:
                os.replace(path, path.with_name("commands.log.1"))
        except FileNotFoundError:
            pass
        return open(os.open(path, binary(os.O_WRONLY | os.O_CREAT | os.O_APPEND), 0o600), "ab")


def memory_bound() -> None:
    """Bound the memory of this process and of every process it starts to BACKEND_MEMORY (run in
    the child before pg_ctl: the server it starts inherits it, and each of its sessions' processes
    from it). Linux counts in RLIMIT_DATA every private page a process maps, which is what a
    session's sorts and hashes take; macOS does not enforce it and Windows has no such limit, so
    there the bound is the school's (README, "Class server")."""
    import resource

    resource.setrlimit(resource.RLIMIT_DATA, (BACKEND_MEMORY, BACKEND_MEMORY))


def as_root() -> bool:
    """Run by root (POSIX): PostgreSQL is then handed over to its own system user. Windows has no
    effective user id, and no root to refuse."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


def option(value: str) -> str:
    """`value` quoted for pg_ctl's `-o`, which the server splits as its OS splits a command line:
    a POSIX shell's quoting, or on Windows the C runtime's (double quotes; a `'` is a letter there)."""
    if os.name == "nt":
        return subprocess.list2cmdline([value])
    return shlex.quote(value)


def socket_folder(folder: Path, port: int) -> Path:
    """Where the server's socket goes: `folder/socket`, or, when that path is too long for a
    socket's address, a short folder under the temporary folder named from `folder`."""
    inside = folder / "socket"
    if len(os.fsencode(inside / f".s.PGSQL.{port}")) <= SOCKET_PATH_MAX:
        return inside
    name = hashlib.sha256(os.fsencode(folder)).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"dealer-trainer-{name}"


def unreachable(path: Path, uid: int, gid: int) -> Path | None:
    """The first folder on the way to `path` (itself included) that the user `uid` (of group
    `gid`) may not pass through, or None."""
    for folder in (*reversed(path.parents), path):
        try:
            st = folder.stat()
        except OSError:
            return None  # made later, by the one who may
        bit = (stat.S_IXUSR if st.st_uid == uid else stat.S_IXGRP if st.st_gid == gid else stat.S_IXOTH)
        if not st.st_mode & bit:
            return folder
    return None


def _system_user(name: str | None) -> pwd.struct_passwd:
    """The system user the server runs as under root (made when missing)."""
    assert name is not None, "only root hands the server over to its own user"
    _pgserver()
    from pgserver.utils import ensure_user_exists

    return ensure_user_exists(name)
