"""No login grows one of the class server's processes past a bound, on a real PostgreSQL. The
attack (the fourth cold review, mem_hold.py): any login may raise its own memory settings
(`SET work_mem = '64GB'`, PostgreSQL lets every role), and one sort of 20 rows of 100 MB then
grew its server process to 2,214 MB in 25 s; enough of them and the kernel kills one, and
PostgreSQL restarts, ending every session of the class. The bundled server now runs every
process under an operating system's bound (BACKEND_MEMORY, trainer.classes.server.postgres):
the statement that would pass it fails with "out of memory", and the session, the server and
everyone else's sessions go on."""

from __future__ import annotations

import sys

import psycopg
import pytest

from trainer.classes.server.logins import class_login
from trainer.classes.server.postgres import BACKEND_MEMORY

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the bound is the Linux kernel's")

#: what a login reaches of the settings that size a session's memory: each is taken (PostgreSQL
#: has no way to forbid them to an ordinary role), none lets it past the bound
RAISED = ["SET work_mem = '64GB'", "SET hash_mem_multiplier = 1000",
          "SELECT set_config('maintenance_work_mem', '64GB', false)",
          "SELECT set_config('logical_decoding_work_mem', '64GB', false)"]


def postmaster(klass) -> int:
    return int((klass.server.pgdata / "postmaster.pid").read_text().split()[0])


def test_a_login_that_raises_work_mem_cannot_sort_past_the_bound_and_the_class_goes_on(klass):
    with klass.connect("instructor") as instructor:
        login = class_login(instructor, "Tom Reyes", "Tom-Pass-1234-plum")
    before = postmaster(klass)
    rows, mb = 12, (BACKEND_MEMORY >> 20) // 8  # 1.5 times the bound, sorted in memory
    with klass.connect(login, "Tom-Pass-1234-plum") as tom:
        for raise_it in RAISED:
            tom.execute(raise_it)
        assert tom.execute("SHOW work_mem").fetchone()[0] == "64GB"  # the attack's setting, taken
        with pytest.raises(psycopg.errors.OutOfMemory):
            tom.execute(f"SELECT count(*) FROM (SELECT g, repeat(md5(g::text), {mb} * 32768) AS x "
                        f"FROM generate_series(1, {rows}) g ORDER BY x DESC, g) s")
        assert tom.execute("SELECT 1").fetchone() == (1,)  # the session itself goes on
    assert postmaster(klass) == before  # no process was killed, so nothing restarted
    with klass.connect("instructor") as instructor:
        assert instructor.execute("SELECT count(*) FROM trainees").fetchone()[0] >= 0
