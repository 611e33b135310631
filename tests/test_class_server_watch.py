"""What a trainee's login (or no login at all) could fill on the class server, closed: each attack
as the second cold review of issue 22 ran it (branch cold-review2, attacks/), on a real
PostgreSQL.

- temp_fill.py (#37): a trainee's sort spilled 1.9 GB of temporary files in 22 s; the server
  bounds what one session writes (temp_file_limit, a setting no login may raise)."""

from __future__ import annotations

import psycopg
import pytest

from trainer.classes.server.logins import class_login


def ana(klass) -> str:
    with klass.connect("instructor") as instructor:
        return class_login(instructor, "Ana Ruiz", "ana-password")


def test_a_trainees_sort_that_spills_past_the_limit_is_refused_by_name(klass):
    """temp_fill.py: 300 rows of ~1 MB sorted, which spill ~290 MB to disk; refused past 256 MB,
    and the login can raise the limit neither for its session nor for its role."""
    with klass.connect(ana(klass), "ana-password") as conn:
        with pytest.raises(psycopg.errors.ConfigurationLimitExceeded, match="temp_file_limit"):
            conn.execute("SELECT count(*) FROM (SELECT repeat(md5(g::text), 30000) x "
                         "FROM generate_series(1, 300) g ORDER BY x) s")
        for raise_it in ("SET temp_file_limit = -1", "ALTER ROLE CURRENT_USER SET temp_file_limit = -1"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(raise_it)
