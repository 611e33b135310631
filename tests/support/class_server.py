"""What the class server's tests share: a real PostgreSQL (the packaged server) on the loopback
address, a class database per test, and progress files full of attempts."""

from __future__ import annotations

import atexit
import contextlib
import itertools
import json
import os
import shutil
import socket
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
from filelock import FileLock
from psycopg import sql

from trainer.classes.errors import ClassServerError
from trainer.classes.server import tables
from trainer.classes.server.logins import CLASS_LOGINS, add_login, enrol_workstation
from trainer.classes.server.postgres import Postgres
from trainer.classes.server.tables import OWNER, install
from trainer.classes.workstation.address import ClassAddress, class_address
from trainer.classes.workstation.push import class_uid, connect, push_batch, push_trainees
from trainer.classes.workstation.queue import Queue
from trainer.progress.records import AttemptRecord, Mode
from trainer.progress.store import Store

PASSWORD = "class-test-password"
T0 = 1_700_000_000.0
_classes = itertools.count(1)
#: xdist's worker (gw0, gw1 ...), or "main" in a run of one process: in every class's name, so that
#: no two tests of a run ever name the same database, whichever server they reach
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
#: the classes made by the test that runs: dropped after it (tests/support/class_server_fixtures.py)
made: list[Class] = []
#: for each server and list of migrations, a class database with all of them applied, which each
#: class copies (CREATE DATABASE ... TEMPLATE) instead of applying every migration again, and the
#: rights on it that install gave (`rights`), which each copy is given (`Class._copy`)
_templates: dict[tuple, tuple[str, list[tuple[str, str, bool]]]] = {}
#: the database cluster initdb made for this process, stopped cleanly, which `cluster` copies
_cluster: Path | None = None
#: a copy of it with the class's roles and a template made (`class_cluster`), which `start_server`
#: copies; the migrations its template has, and the template's name and rights
_class_cluster: Path | None = None
_class_cluster_key: tuple = ()
_class_template: tuple[str, list[tuple[str, str, bool]]] | None = None
CLUSTER_TEMPLATE = "class_template_0"
#: the folder every worker of the run shares (tests/support/paths.py `run_folder`), where the
#: first process to need them makes `cluster`'s and `class_cluster`'s clusters for the whole run
#: (`from_run`); None outside pytest (a benchmark makes its own)
run: Path | None = None
_from_run_tried = False
#: for each server that keeps its connections (`keep_admin`: the run's), its superuser's
#: connection to its `postgres` database (`administering`)
_kept: dict[Path, Held] = {}


#: a file system in memory (tmpfs) that a test's class servers keep their files in, where the
#: machine has one with room for them (Linux's /dev/shm); else the temporary folder (`server_folder`)
MEMORY = Path("/dev/shm")
MEMORY_ROOM = 2 << 30  # bytes free: a run's servers hold about 100 MB at once


def in_memory() -> str | None:
    """MEMORY, when it is a tmpfs this user may write in with MEMORY_ROOM free; else None."""
    try:
        mounts = Path("/proc/mounts").read_text().split("\n")
        room = os.statvfs(MEMORY)
    except OSError:
        return None
    tmpfs = any(line.split()[1:3] == [str(MEMORY), "tmpfs"] for line in mounts if line.strip())
    free = room.f_bavail * room.f_frsize
    return str(MEMORY) if tmpfs and free >= MEMORY_ROOM and os.access(MEMORY, os.W_OK) else None


def server_folder(prefix: str) -> Path:
    """A new folder of the test's own (mkdtemp: its owner's only) for a class server's files, in
    memory where the machine has room (`in_memory`). The server writes each class database a
    test makes (a copy of the template's files: 410, 8.5 MB, `compacted`) and its write-ahead
    log there. On the
    disk (ext4) the copy's statement alone took 59-96 ms of the server's CPU, most of it the
    kernel's, against 11 ms in memory; a class made, joined and dropped, 88-174 ms of all the
    server's processes' CPU against 39-42 ms (tests/benchmarks/class_copies.py; the 2-core
    machine, under load). What a test proves of the server holds as on a disk: PostgreSQL reads
    and writes the same files through the same calls, and a crash, a kill or a restart finds
    what the operating system was given (as `unsynced` says); only a power cut, which no test
    makes, would lose it. A run killed before its end leaves its servers' folders behind, in
    memory until the machine restarts, as it leaves them in the temporary folder otherwise."""
    return Path(tempfile.mkdtemp(prefix=prefix, dir=in_memory()))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(folder: Path, tries: int = 3, *, quick: bool = False) -> Postgres:
    """A class server in `folder` on a free port, with the class logins (`quick`: their passwords,
    and those of every login made later, derived as `quick_logins` says), its cluster a copy of
    the one made for this process with the class's roles and template in it (`class_cluster`).
    `folder` is under a folder of the test's own (made by mkdtemp, its owner's only), which is
    opened for passing through: as root the server runs as its own user, who must reach `folder`,
    and the server never opens a folder it was not named. A port found free can be taken before
    the server binds it (another process's free_port, in a parallel run): then the server starts
    on another.

    Its class database (tables.DATABASE, what `install` makes when it names none) is a copy of the
    template, as each Class is (`Class._copy`, which test_class_server_migrations proves is the
    class install makes), and install then finds every migration applied. Install's migrations ran
    twice for each server before, once for that database and once for the template: 0.3 s of the
    server's CPU and as much of the wall for each of a run's dozen servers."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.parent.chmod(folder.parent.stat().st_mode | 0o011)
    template_name, acl = class_cluster(folder)
    server = started(folder, tries)
    with_relcache(server, template_name)
    with psycopg.connect(server.admin_dsn(), autocommit=True) as admin:
        unsynced(admin)
        if quick:
            quick_logins(admin)
        _templates[(server.folder, _class_cluster_key)] = template_name, acl
        if _class_cluster_key == tuple(tables.MIGRATIONS):
            copied(admin, tables.DATABASE, template_name, acl)
            with psycopg.connect(server.admin_dsn(tables.DATABASE), autocommit=True) as conn:
                conn.execute("INSERT INTO class_info DEFAULT VALUES")
        install(admin)
        for name, group in CLASS_LOGINS.items():
            add_login(admin, name, group, PASSWORD)
    return server


def started(folder: Path, tries: int = 3) -> Postgres:
    """The server of the cluster in `folder`, started on a free port (another if the one found
    free was taken first, up to `tries` times)."""
    for attempt in range(tries):
        server = Postgres(folder, port=free_port())
        try:
            server.start()
            return server
        except ClassServerError:
            if attempt == tries - 1:
                raise
    raise AssertionError("no tries")


def cluster(folder: Path) -> None:
    """`folder` (a class server's data folder, new) given a copy of the database cluster initdb
    made once for this run (`from_run`), so that its server's first start finds one. What initdb
    makes is the same every time, and it is most of a first start: 1 s of CPU and a sync of 38 MB,
    seconds on a busy disk. A server of the test's own starts from it; the first start of a class
    server from nothing is still made in every run (the copy's own, `Postgres.start`), and by the
    tests of a folder with spaces, a normal user and the command's first start."""
    from_run()
    if _cluster is None:
        _make_cluster()
    assert _cluster is not None
    _copied(_cluster, folder)


def _make_cluster() -> None:
    """`cluster`'s cluster made in this process: initdb, a start and a clean stop."""
    global _cluster
    made = server_folder("dealer-trainer-cluster-")
    made.chmod(0o711)
    server = started(made / "class")  # initdb, a start and a clean stop: as a first start leaves it
    server.stop()
    _cluster = server.pgdata
    atexit.register(shutil.rmtree, made, ignore_errors=True)


def class_cluster(folder: Path) -> tuple[str, list[tuple[str, str, bool]]]:
    """`folder` (a class server's data folder, new) given a copy of a cluster made once for this
    run (`from_run`) from `cluster`'s, in which `install` made the class's roles and a class
    template (`template`: every migration applied, no rows); the template's name and rights. Each
    server `start_server` starts has them from its first start, as if its own install had made
    them."""
    from_run()
    if _class_cluster is None:
        _make_class_cluster()
    assert _class_cluster is not None and _class_template is not None
    _copied(_class_cluster, folder)
    return _class_template


def _make_class_cluster() -> None:
    """`class_cluster`'s cluster made in this process, from a copy of `cluster`'s."""
    global _class_cluster, _class_cluster_key, _class_template
    made = server_folder("dealer-trainer-class-cluster-")
    made.chmod(0o711)
    cluster(made / "class")
    server = started(made / "class")
    try:
        with psycopg.connect(server.admin_dsn(), autocommit=True) as admin:
            unsynced(admin)  # as every server start_server starts is
        key = tuple(tables.MIGRATIONS)
        _class_template = CLUSTER_TEMPLATE, made_template(server, CLUSTER_TEMPLATE)
    finally:
        server.stop()
    _class_cluster, _class_cluster_key = server.pgdata, key
    atexit.register(shutil.rmtree, made, ignore_errors=True)


def from_run() -> None:
    """`cluster`'s and `class_cluster`'s clusters taken from the run's folder (`run`), where the
    first process of the run to need them made them, under a lock, and left a copy of each with
    the template's name and rights: every worker of a parallel run made both before, each the same
    (initdb; a start, install's migrations and a stop), 0.9-1.0 s of CPU a worker (its own, its
    programs' and the servers'), where copying both for the run costs 0.15 s, once. Each server
    is still a copy of its own, started from it as before. The copies are taken only when they
    were made from the migrations this process has (by name); else, or outside pytest, this
    process makes its own. Removed at the run's end (class_server_fixtures)."""
    global _from_run_tried, _cluster, _class_cluster, _class_cluster_key, _class_template
    if run is None or _from_run_tried or _class_cluster is not None:
        return
    _from_run_tried = True  # once: making them below asks for `cluster` again
    kept = run / "class-clusters"
    made = kept / "made.json"
    names = [m.__name__ for m in tables.MIGRATIONS]
    with FileLock(str(kept) + ".lock"):
        if not made.exists():
            if _cluster is None:
                _make_cluster()
            _make_class_cluster()
            assert _cluster is not None and _class_cluster is not None and _class_template is not None
            shutil.rmtree(kept, ignore_errors=True)  # what a process killed while copying left
            _copied(_cluster, kept / "cluster")
            _copied(_class_cluster, kept / "class")
            part = made.with_name(made.name + ".part")
            part.write_text(json.dumps({"migrations": names, "template": _class_template[0],
                                        "rights": _class_template[1]}))
            part.replace(made)  # whole, or not there
            return
        given = json.loads(made.read_text())
    if given["migrations"] != names:
        return
    _cluster = kept / "cluster" / "pgdata"
    _class_cluster, _class_cluster_key = kept / "class" / "pgdata", tuple(tables.MIGRATIONS)
    _class_template = given["template"], [tuple(right) for right in given["rights"]]


def _copied(source: Path, folder: Path) -> None:
    """`folder` given a copy of the stopped cluster `source`, owned as it is."""
    pgdata = folder / source.name
    if pgdata.exists():
        raise AssertionError(f"{folder} holds a cluster already: the copy is for a new one")
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copytree(source, pgdata, symlinks=True)
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # as root, the server's own user's, as made
        owner = source.stat()
        for path in [pgdata, *pgdata.rglob("*")]:
            os.chown(path, owner.st_uid, owner.st_gid, follow_symlinks=False)


def alive(server: Postgres) -> bool:
    """Whether the server's postmaster runs: its pid file names a live process. What `running`
    says (pg_ctl status) without starting a program, asked before every class test."""
    try:
        os.kill(int((server.pgdata / "postmaster.pid").read_text().split()[0]), 0)
    except (OSError, ValueError, IndexError):
        return False
    return True


def postmaster(server: Postgres) -> int | None:
    """The pid its pid file names, or None where the server is stopped."""
    try:
        return int((server.pgdata / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


class Held:
    """A superuser's autocommit connection to one database of a server, kept between uses
    (`__call__`): made again when the server has started again since (its postmaster's pid is
    another) or the connection was lost. Each connection is a server process started, logged in
    and given its caches: 1.3-2.0 ms of the server's CPU and 0.3-0.7 ms of the test's on the quiet
    2-core machine (more under load), where a class made and dropped opened five."""

    def __init__(self, server: Postgres, database: str = "postgres"):
        self.server, self.database = server, database
        self.conn: psycopg.Connection | None = None
        self.pid: int | None = None

    def __call__(self) -> psycopg.Connection:
        pid = postmaster(self.server)
        if self.conn is None or self.conn.closed or self.conn.broken or pid is None or pid != self.pid:
            self.close()
            self.conn, self.pid = psycopg.connect(self.server.admin_dsn(self.database), autocommit=True), pid
        return self.conn

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def keep_admin(server: Postgres) -> None:
    """The server keeps superusers' connections (`Held`) from now on, until `let_go`: one for
    making, migrating and dropping classes (`administering`) and one to each class's database for
    its reads (`Class.read`). For the run's shared server, which makes and drops a class for each
    of hundreds of tests; a test's own server, which it may stop, freeze, crash or fill to its
    last connection, is given a connection for each use, closed after it."""
    _kept.setdefault(server.folder, Held(server))


def let_go(server: Postgres) -> None:
    """The connection the server kept (`keep_admin`) closed, and none kept from now on."""
    if held := _kept.pop(server.folder, None):
        held.close()


def keeps(server: Postgres) -> bool:
    return server.folder in _kept


@contextlib.contextmanager
def administering(server: Postgres) -> Iterator[psycopg.Connection]:
    """A superuser's autocommit connection to the server's `postgres` database, where classes are
    made and dropped (CREATE DATABASE, DROP DATABASE) and the class's roles are checked (install):
    the one the server keeps (`keep_admin`), else a new one, closed after the block."""
    if keeps(server):
        yield _kept[server.folder]()
        return
    with psycopg.connect(server.admin_dsn(), autocommit=True) as admin:
        yield admin


def unsynced(admin: psycopg.Connection) -> None:
    """A test server writes as a class's does but never waits for the disk (fsync off; and no
    whole page written after each checkpoint, which guards only against a torn write): a class
    database made and dropped per test cost 0.2-3.8 s of waiting on a busy disk, and a worker
    waiting runs no test. What a test can do to the server holds as before: a crash or a kill of
    PostgreSQL (`crash()`, SIGKILL) loses nothing the operating system was given, and each commit
    is still written there before it returns (synchronous_commit stays on). Only a power cut, which
    no test makes, would need the disk. Kept in the cluster's postgresql.auto.conf, so across a
    restart too."""
    for setting in ("fsync", "full_page_writes"):
        admin.execute(f"ALTER SYSTEM SET {setting} = off")
    admin.execute("SELECT pg_reload_conf()")


#: SCRAM's iterations for the passwords of a test server's logins, where PostgreSQL's default is
#: 4096 (what a class server started by the app keeps: test_class_logins proves it). The test
#: fixtures' servers only (`start_server(quick=True)`): a benchmark's logins cost what a class's do
SCRAM_ITERATIONS = 16


def quick_logins(admin: psycopg.Connection) -> None:
    """A test server's logins' passwords derived with SCRAM_ITERATIONS iterations: each login over
    TCP derives its proof from the password with as many, in the test's own process (2.2 ms of
    its CPU at 4096, 0.1 ms at 16), and each verifier the driver makes for a login the class
    makes too (logins.verifier, which takes the count the server reports). What a test proves of
    a login holds as before: the verifier is SCRAM-SHA-256 as the server checks it, the password
    is proven by SCRAM and never sent, a wrong one is refused; only the cost of guessing one from
    a stolen verifier is lower, which no test measures. Set for the cluster (the sessions to
    come) and for this session (the class logins it makes now)."""
    admin.execute(f"ALTER SYSTEM SET scram_iterations = {SCRAM_ITERATIONS}")
    admin.execute("SELECT pg_reload_conf()")
    admin.execute(f"SET scram_iterations = {SCRAM_ITERATIONS}")


def rights(admin: psycopg.Connection, database: str) -> list[tuple[str, str, bool]]:
    """Who may do what on the database `database`, as its ACL says: for each right of each role
    (or of PUBLIC), the privilege, the role and whether it may grant it."""
    acl = admin.execute(
        "SELECT a.privilege_type, CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(a.grantee) END, "
        "a.is_grantable FROM pg_database d, aclexplode(d.datacl) a WHERE d.datname = %s "
        "ORDER BY 2, 1", (database,)).fetchall()
    if not acl:  # PostgreSQL's default rights, which install never leaves
        raise AssertionError(f"{database} has the default rights: install gives a class its own")
    return acl


def given(database: str, acl: list[tuple[str, str, bool]]) -> sql.Composed:
    """The statements (one round trip) that leave the database `database` with the rights `acl`
    (`rights`) and no others, its owner's included."""
    name = sql.Identifier(database)
    role = {grantee: sql.SQL("PUBLIC") if grantee == "PUBLIC" else sql.Identifier(grantee)
            for _, grantee, _ in acl}
    return sql.SQL("; ").join([
        sql.SQL("REVOKE ALL ON DATABASE {} FROM PUBLIC, {}").format(name, sql.Identifier(OWNER)),
        *(sql.SQL("GRANT {} ON DATABASE {} TO {}" + (" WITH GRANT OPTION" if grantable else "")).format(
            sql.SQL(privilege), name, role[grantee]) for privilege, grantee, grantable in acl)])


def template(server: Postgres) -> tuple[str, list[tuple[str, str, bool]]]:
    """The server's class database with every migration applied, and no rows but the list of
    migrations: what a class's install makes, less the class's id (each copy makes its own); and
    the rights on it install gave (`rights`). A server `start_server` started has one from its
    cluster (`class_cluster`)."""
    key = (server.folder, tuple(tables.MIGRATIONS))
    if key not in _templates:
        name = f"class_template_{len(_templates) + 1}"
        _templates[key] = name, made_template(server, name)
    return _templates[key]


def made_template(server: Postgres, name: str) -> list[tuple[str, str, bool]]:
    """`name` made on the server as `template` says; the rights on it."""
    with administering(server) as admin:
        install(admin, name)
    with psycopg.connect(server.admin_dsn(name), autocommit=True) as conn:
        conn.execute("DELETE FROM class_info")
        names = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                             "AND tablename <> '_migrations' ORDER BY tablename").fetchall()
        filled = [t for (t,) in names if conn.execute(
            sql.SQL("SELECT EXISTS (SELECT FROM {})").format(sql.Identifier(t))).fetchone()[0]]
    if filled:  # every class would get the same rows: make them per class in Class._copy
        raise AssertionError(f"the migrations write rows in {filled}: each class needs its own")
    compacted(server, name)
    with administering(server) as admin:
        return rights(admin, name)


def compacted(server: Postgres, name: str) -> None:
    """The template `name` rewritten without the dead rows its migrations left in its catalogs
    (VACUUM FULL): 45 migrations made and replaced functions, policies and tables, and each
    replaced row stayed in its file. Every class copies the template's files (`copied`,
    FILE_COPY), so each copied those rows too: 9.6 MB in 482 files, where the compacted template
    is 8.5 MB in 410. A class made, joined and dropped cost the server 31.6 ms of CPU against
    35.6 before, with `with_relcache` (tests/benchmarks/class_copies.py, in memory, the means of
    three runs by turns on the loaded 2-core machine). What a class holds is the same: its
    rows, catalogs and rights are what they were (test_class_server_migrations compares a copy's
    catalog with install's); only the space the dead rows took is gone. Made once a run, with
    the template (`from_run`)."""
    with psycopg.connect(server.admin_dsn(name), autocommit=True) as conn:
        conn.execute("VACUUM (FULL, FREEZE)")


def with_relcache(server: Postgres, name: str) -> None:
    """The database `name` (a template) given the relation cache's init file a connection to it
    writes (pg_internal.init), which every copy then has, as PostgreSQL copies it with the
    database's other files: else each class's first connection built it anew from the
    catalogs. A server removes every such file when it starts, so this is done once a start,
    before the first copy (`start_server`), by one connection closed at once (a template with a
    connection cannot be copied)."""
    with psycopg.connect(server.admin_dsn(name), autocommit=True):
        pass


def copied(admin: psycopg.Connection, database: str, template: str, acl: list[tuple[str, str, bool]]) -> None:
    """The database `database` made as a copy of the class template `template`, with its rights
    `acl` (`template`): all of a class but its id (`Class._copy`)."""
    admin.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {} OWNER {} STRATEGY FILE_COPY").format(
        sql.Identifier(database), sql.Identifier(template), sql.Identifier(OWNER)))
    admin.execute(given(database, acl))


class Class:
    """One class database on the test server, and its logins' addresses."""

    def __init__(self, server: Postgres, *, upto: str | None = None):
        self.server = server
        self.database = f"class_{WORKER}_{next(_classes)}"
        self.seats: dict[str, str] = {}
        self._held = Held(server, self.database)
        made.append(self)
        if upto is None:
            self._copy(*template(server))
        else:
            self.install(upto)

    def install(self, upto: str | None = None) -> list[str]:
        """Bring the class's database up to date (with `upto`, only as far as that migration:
        a class made by an earlier version); the migrations applied."""
        saved = list(tables.MIGRATIONS)
        if upto is not None:
            tables.MIGRATIONS[:] = saved[:[m.__name__ for m in saved].index(upto) + 1]
        try:
            with administering(self.server) as admin:
                return install(admin, self.database)
        finally:
            tables.MIGRATIONS[:] = saved

    def _copy(self, template: str, acl: list[tuple[str, str, bool]]) -> None:
        """The class's database as a copy of `template`, with a class id of its own (s001 gives
        each class one when it makes the table) and the rights `acl` on it, the template's: a copy
        has PostgreSQL's default rights (CREATE DATABASE copies no database's), and they are all
        that install would still change in it, since the copy has every migration applied and
        the server has the class's roles. So install is not run again on each copy (its 26
        statements and a connection of its own: 6 ms of the server's CPU and 3 ms of the test's
        per class on the quiet 2-core machine, where `given` takes one statement);
        test_class_server_migrations proves that a copy is the class install makes, its rights
        included. Copied as files (FILE_COPY), not page by page
        through the write-ahead log (WAL_LOG, PostgreSQL's default): the same database, made in a
        quarter of the time and a third of the server's CPU (0.24 s and 0.06 s against 0.94 s and
        0.18 s, on the 2-core machine under load). FILE_COPY's checkpoints cost little on a test
        server, which never waits for the disk (`unsynced`)."""
        with administering(self.server) as admin:
            copied(admin, self.database, template, acl)
        self.read("INSERT INTO class_info DEFAULT VALUES")

    def drop(self) -> None:
        """Remove the class's database, ending any connection to it first."""
        self._held.close()
        with administering(self.server) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(self.database)))

    def address(self, login: str = "workstation", password: str = PASSWORD) -> ClassAddress:
        return class_address(f"postgresql://{login}:{password}@127.0.0.1:{self.server.port}/{self.database}")

    def seat(self, name: str = "Table 1") -> str:
        """The login of the workstation `name`, enrolled in the class by its instructor the first
        time it is asked for (its password PASSWORD): what a workstation that sits exams joins
        with, since no exam starts or steps with the shared `workstation` login (s040)."""
        if name not in self.seats:
            with self.connect("instructor") as instructor:
                self.seats[name] = enrol_workstation(instructor, name, PASSWORD)
        return self.seats[name]

    def connect(self, login: str = "instructor", password: str = PASSWORD) -> psycopg.Connection:
        return psycopg.connect(self.address(login, password).url, autocommit=True)

    def admin(self) -> psycopg.Connection:
        return psycopg.connect(self.server.admin_dsn(self.database), autocommit=True)

    def read(self, statement: str, params: tuple = ()) -> list[tuple]:
        """The rows of a superuser's statement on the class's database (a read, or the class's
        own row), which leaves nothing of the session behind: on the connection the class keeps
        (`Held`, closed when it is dropped) where its server keeps its connections
        (`keep_admin`), else on one of its own. A kept connection a test ended is made again."""
        if not keeps(self.server):
            with self.admin() as conn:
                cursor = conn.execute(statement, params)
                return cursor.fetchall() if cursor.description else []
        try:
            cursor = self._held().execute(statement, params)
        except psycopg.OperationalError:
            if not (self._held.conn and self._held.conn.broken):
                raise
            cursor = self._held().execute(statement, params)
        return cursor.fetchall() if cursor.description else []

    def count(self, table: str = "attempts") -> int:
        return self.read(f"SELECT count(*) FROM {table}")[0][0]

    def uids(self) -> list[str]:
        return [r[0] for r in self.read("SELECT uid FROM attempts ORDER BY uid")]


def attempt(trainee_id: int, n: int, **more) -> AttemptRecord:
    """An attempt with findings on some skills, so that findings and skills travel too."""
    missed = n % 3 == 0
    findings = ({"kind": "wrong amount", "severity": "major", "message": f"Paid $4 on round {n}",
                 "cite": "§ 577.6", "skill": "payouts", "expected": "$5",
                 "actual": {"do": "pay", "round": 1, "at": 2.5, "amount": 400}},) if missed else ()
    fields = dict(trainee_id=trainee_id, item_id=f"props-and-hops/{n % 5:02d}", game="props-and-hops",
                  mode=Mode.SCENARIO, started=T0 + 60 * n, ended=T0 + 60 * n + 30, procedure=100,
                  payouts=60 if missed else 100, speed=90, total=80 if missed else 97, passed=not missed,
                  critical=n % 7 == 0, target=45.0, skills=("payouts", "calls"), findings=findings,
                  log=({"do": "pay", "round": 1, "at": 2.5 + n % 4, "amount": 500},))
    return AttemptRecord(**{**fields, **more})


def progress_file(path: Path, attempts: dict[str, int], *, start: int = 0) -> Path:
    """A progress file with these trainees, each with this many attempts. Written as the app
    records them, one transaction each, but without waiting for the disk after each (SQLite's
    synchronous OFF on this connection alone): 500 attempts took 4-6 s of waiting and 0.5 s of
    work. The next Store.open of the file is the app's own, with synchronous FULL."""
    with Store.open(path) as store:
        store._db.execute("PRAGMA synchronous = OFF")
        for name, count in attempts.items():
            found = store.find_trainee(name)
            tid = found.id if found else store.add_trainee(name)
            for n in range(start, start + count):
                store.record_attempt(attempt(tid, n))
    return path


def made_under_login(path: Path, klass: Class, name: str, login: str, password: str, attempts: int, *,
                     start: int = 0) -> Path:
    """A progress file whose profile `name` was made under her own class login, as New trainee…
    makes it with her password (logins.own_trainee_uid: the class's id of her, or a new one her
    login made, its salt kept in the profile, m024), with `attempts` attempts from `start`."""
    from trainer.classes.server.logins import own_trainee_uid

    with klass.connect(login, password) as conn:
        identity = own_trainee_uid(conn, time.time())
    assert identity is not None
    with Store.open(path) as store:
        store.add_trainee(name, uid=identity.uid, uid_salt=identity.salt)
    return progress_file(path, {name: attempts}, start=start)


def settled_hers(klass: Class, path: Path, name: str, login: str, password: str) -> str:
    """The profile `name` of the file `path`, made before she had a login: her login claims its
    id (File › Send my results with my class login…), which the class keeps for the instructor
    (s039: her login did not make it), and the instructor settles it hers once (settle-claim --to
    claimant), so that her login's push registers it (s043). Its id."""
    from trainer.classes.server.logins import claim_trainee_uid
    from trainer.classes.server.people import settle

    with Store.open(path) as store:
        profile = store.find_trainee(name)
    with klass.connect(login, password) as conn:
        assert claim_trainee_uid(conn, profile.uid, profile.created) == "kept"
    with klass.connect("instructor") as instructor:
        assert settle(instructor, profile.uid, login, f"{name}'s own profile, made before her login") == 1
    return profile.uid


def flipped(text: str, at: int) -> str:
    """The text with the lowest bit of one character flipped (at 0, a log's "[" becomes "Z")."""
    return text[:at] + chr(ord(text[at]) ^ 1) + text[at + 1:]


def damaged_log(path, uid: str) -> None:
    """One bit of an attempt's log flipped in the file, as a disk would (no check runs)."""
    import sqlite3

    with contextlib.closing(sqlite3.connect(path)) as conn:
        log = conn.execute("SELECT log FROM attempts WHERE uid = ?", (uid,)).fetchone()[0]
    rewritten(path, uid, "log", flipped(log, 0))


def rewritten(path, uid: str, column: str, value) -> None:
    """An attempt's column changed in the file behind the app's back (no check runs, its
    triggers set aside for the write and made again): a damaged or hand-edited file."""
    import sqlite3

    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA ignore_check_constraints = 1")
        triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
                                "AND tbl_name = 'attempts'").fetchall()
        for name, _ in triggers:
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute(f"UPDATE attempts SET {column} = ? WHERE uid = ?", (value, uid))
        for _, sql in triggers:
            conn.execute(sql)
        conn.commit()


def server_clock_moves_on(klass, nonce: str, seconds: float) -> None:
    """For the sitting `nonce`, the class server's clock reads `seconds` later: its record of the
    start is moved back as much (the superuser, the append-only triggers off for this statement)."""
    with klass.admin() as admin:
        admin.execute("SET session_replication_role = replica")
        moved = admin.execute("UPDATE exam_sitting_steps SET received = received - %s "
                              "WHERE nonce = %s AND step = 1", (seconds, nonce)).rowcount
    assert moved == 1


def until(condition, *, within: float = 60.0, what: str = "the condition") -> None:
    """Wait for `condition()` to hold (a generous limit only guards against a hang: no test
    depends on how fast anything is)."""
    deadline = time.monotonic() + within
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {within:.0f} s")
        time.sleep(0.01)


def catalog(conn: psycopg.Connection) -> str:
    """A class database's schema as text, in a stable order: its migrations applied, the
    database's and the public schema's owner and grants, each table (owner, row-level security,
    grants, columns with their types and defaults, constraints, indexes, triggers, policies),
    each sequence, each type and each function (its definition as the server prints it, owner
    and grants). No rows but `_migrations`' names; grants sorted (their order means nothing).
    `conn`: a superuser's connection to the class's database."""
    out: list[str] = []

    def acl(items) -> str:
        return "{" + ",".join(sorted(items)) + "}" if items is not None else "default"

    applied = [r[0] for r in conn.execute("SELECT name FROM _migrations ORDER BY name")]
    out.append("migrations " + " ".join(applied))
    owner, encoding, grants = conn.execute(
        "SELECT pg_get_userbyid(datdba), pg_encoding_to_char(encoding), datacl::text[] "
        "FROM pg_database WHERE datname = current_database()").fetchone()
    out.append(f"database owner {owner} encoding {encoding} grants {acl(grants)}")
    owner, grants = conn.execute("SELECT pg_get_userbyid(nspowner), nspacl::text[] FROM pg_namespace "
                                 "WHERE nspname = 'public'").fetchone()
    out.append(f"schema public owner {owner} grants {acl(grants)}")
    relations = conn.execute("""
        SELECT oid, relname, relkind, pg_get_userbyid(relowner), relrowsecurity, relforcerowsecurity,
               relacl::text[], reloptions::text[]
        FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p', 'v', 'm', 'f')
        ORDER BY relname""").fetchall()
    for oid, name, kind, owner, rls, forced, grants, options in relations:
        out.append("")
        out.append(f"table {name} kind {kind} owner {owner} row-level-security {rls} forced {forced}"
                   + (f" options {options}" if options is not None else "") + f" grants {acl(grants)}")
        for col, typ, notnull, default, identity, generated, collation, grants in conn.execute("""
                SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
                       pg_get_expr(d.adbin, d.adrelid), a.attidentity, a.attgenerated,
                       CASE WHEN a.attcollation <> t.typcollation THEN a.attcollation::regcollation::text END,
                       a.attacl::text[]
                FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
                LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
                WHERE a.attrelid = %s AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum""", (oid,)):
            out.append(f"  column {col} {typ}" + (" NOT NULL" if notnull else "")
                       + (f" DEFAULT {default}" if default is not None and not generated else "")
                       + (f" GENERATED {generated} AS {default}" if generated else "")
                       + (f" IDENTITY {identity}" if identity else "")
                       + (f" COLLATE {collation}" if collation else "")
                       + (f" grants {acl(grants)}" if grants is not None else ""))
        for con, definition in conn.execute(
                "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = %s "
                "ORDER BY conname", (oid,)):
            out.append(f"  constraint {con} {definition}")
        for (definition,) in conn.execute(
                "SELECT pg_get_indexdef(indexrelid) FROM pg_index WHERE indrelid = %s "
                "ORDER BY indexrelid::regclass::text", (oid,)):
            out.append(f"  index {definition}")
        for definition, enabled in conn.execute(
                "SELECT pg_get_triggerdef(oid), tgenabled FROM pg_trigger WHERE tgrelid = %s "
                "AND NOT tgisinternal ORDER BY tgname", (oid,)):
            out.append(f"  trigger {definition} enabled {enabled}")
        for policy, permissive, roles, cmd, qual, check in conn.execute(
                "SELECT policyname, permissive, roles::text[], cmd, qual, with_check FROM pg_policies "
                "WHERE schemaname = 'public' AND tablename = %s ORDER BY policyname", (name,)):
            out.append(f"  policy {policy} {permissive} FOR {cmd} TO {', '.join(sorted(roles))}"
                       + (f" USING ({qual})" if qual is not None else "")
                       + (f" WITH CHECK ({check})" if check is not None else ""))
    for name, owner, grants, typ, start, step, top, bottom, cache, cycle, owned in conn.execute("""
            SELECT c.relname, pg_get_userbyid(c.relowner), c.relacl::text[], s.seqtypid::regtype::text,
                   s.seqstart, s.seqincrement, s.seqmax, s.seqmin, s.seqcache, s.seqcycle,
                   (SELECT refobjid::regclass::text || '.' || a.attname FROM pg_depend d
                    JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
                    WHERE d.objid = c.oid AND d.classid = 'pg_class'::regclass AND d.deptype IN ('a', 'i'))
            FROM pg_class c JOIN pg_sequence s ON s.seqrelid = c.oid
            WHERE c.relnamespace = 'public'::regnamespace ORDER BY c.relname"""):
        out.append("")
        out.append(f"sequence {name} of {owned} owner {owner} {typ} start {start} increment {step} "
                   f"min {bottom} max {top} cache {cache} cycle {cycle} grants {acl(grants)}")
    for name, kind, owner in conn.execute("""
            SELECT typname, typtype, pg_get_userbyid(typowner) FROM pg_type
            WHERE typnamespace = 'public'::regnamespace AND typrelid = 0 AND typelem = 0
            ORDER BY typname"""):
        out.append("")
        out.append(f"type {name} kind {kind} owner {owner}")
    for signature, owner, grants, definition in conn.execute("""
            SELECT oid::regprocedure::text, pg_get_userbyid(proowner), proacl::text[],
                   pg_get_functiondef(oid)
            FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1"""):
        out.append("")
        out.append(f"function {signature} owner {owner} grants {acl(grants)}")
        out.append(definition.rstrip("\n"))
    return "\n".join(out) + "\n"


def push_all(path, klass: Class, size: int = 50, *, address: ClassAddress | None = None) -> int:
    """What a Pusher does, in this thread: the trainees, then every waiting attempt (with the
    shared workstation login, or the login of `address`); how many were sent (those the class
    refused are set aside in the file)."""
    address = address or klass.address()
    queue = Queue(path)
    try:
        with connect(address) as conn:
            uid = class_uid(conn)
            queue.remember(uid, address.shown)
            push_trainees(conn, queue)
            sent = 0
            while sum(n := push_batch(conn, queue, uid, size)):
                sent += n[0]
            return sent
    finally:
        queue.close()


def server_rows(klass: Class, table: str) -> list[tuple]:
    return klass.read(f"SELECT * FROM {table}")


def server_processes(server: Postgres) -> list[int]:
    """The server's processes: the postmaster (its pid file's first line), then every process
    it started (Linux: read from /proc)."""
    main = int((server.pgdata / "postmaster.pid").read_text().split()[0])
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):  # gone meanwhile
                # the parent's pid is the second field after the command's name, which may hold spaces
                if int((entry / "stat").read_text().rpartition(")")[2].split()[1]) == main:
                    children.append(int(entry.name))
    return [main, *children]


@contextlib.contextmanager
def frozen(server: Postgres):
    """The server frozen while the block runs, as a machine that hangs: every one of its processes
    stopped (SIGSTOP; the postmaster first, so that it starts no other), its sockets open, its
    kernel still answering TCP; then let go on (SIGCONT), whatever happened in the block."""
    import signal

    main, *_ = server_processes(server)
    os.kill(main, signal.SIGSTOP)
    stopped = [main]
    try:
        for pid in server_processes(server)[1:]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)
                stopped.append(pid)
        yield stopped
    finally:
        for pid in stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
