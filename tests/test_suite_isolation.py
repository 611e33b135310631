"""The suite runs on every core (make test: pytest-xdist workers, each a process of its own):
what one process's tests write must land nowhere another process of the run, or a second run,
or the developer's own session writes too (tests/support/home.py, tests/support/class_server.py);
and tests that must share a process do (tests/support/groups.py)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from tests.support import home


@pytest.mark.parametrize("location", ["ConfigLocation", "AppConfigLocation", "AppDataLocation",
                                      "GenericDataLocation"])
def test_qt_keeps_settings_and_data_in_the_runs_own_folder(request, location):
    """QFileDialog's QtProject.conf, QSettings in their default place, the default progress file
    and the class password file all live under these."""
    from ui.qt import QStandardPaths

    own = home.folder(request.config)
    where = Path(QStandardPaths.writableLocation(getattr(QStandardPaths.StandardLocation, location)))
    assert where.is_relative_to(own), f"{location} is {where}, outside the run's folder {own}"
    assert own.parent == Path(tempfile.gettempdir()) and own.name.startswith("dealer-trainer-home-")


def test_qt_file_dialogs_remember_their_folders_in_the_runs_own_settings(request):
    from ui.qt import QSettings

    remembered = QSettings(QSettings.Scope.UserScope, "QtProject")
    assert Path(remembered.fileName()).is_relative_to(home.folder(request.config))


def test_qts_machine_wide_settings_are_the_runs_own(request):
    """The app reads them under the machine file (ui.shell.config.older_settings): a
    developer's /etc/xdg would reach every test that starts the app."""
    from ui.shell.config import older_settings

    assert Path(older_settings().fileName()).is_relative_to(home.folder(request.config))


def test_a_class_database_is_named_for_the_worker_that_made_it(klass):
    """Each worker has a class server of its own; the worker's name in each class's name keeps
    two workers' tests from ever naming the same database, whichever server they reach."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    assert klass.database.startswith(f"class_{worker}_")
    assert klass.count() == 0


@pytest.mark.xdist_group("suite-isolation")
def test_a_grouped_test_carries_its_group_to_xdists_scheduler(request):
    """In a run grouped by xdist_group (make test), the scheduler sends a group to one worker as
    a whole only if the test's id ends with @GROUP."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not a parallel run with --dist loadgroup (make test is one)")
    assert request.node.nodeid.endswith("@suite-isolation"), request.node.nodeid


def test_a_test_that_writes_to_the_unchanged_class_is_caught(klass):
    """`unchanged_class` is one class for the run's tests that only read one, checked after each
    (class_server_fixtures.as_made): a row written, a function replaced, a right given on the
    database, a setting planted for a login there and its value changed, a sequence moved by an
    insert rolled back, a schema and a table outside the class's own schema, a setting for a
    login in every database and a role made on the server each show."""
    from tests.support.class_server_fixtures import as_made

    seen = [as_made(klass)]
    with klass.admin() as admin:
        admin.execute("INSERT INTO trainees (name, created, archived, instructor, uid) "
                      "VALUES ('Ana', 1.7e9, 0, 0, md5('Ana'))")
        seen.append(as_made(klass))
        admin.execute("CREATE OR REPLACE FUNCTION exam_queue_allowance() RETURNS integer "
                      "LANGUAGE sql AS 'SELECT 31'")
        seen.append(as_made(klass))
        admin.execute(f"GRANT CREATE ON DATABASE {klass.database} TO class_instructor")
        seen.append(as_made(klass))
        admin.execute(f"ALTER ROLE workstation IN DATABASE {klass.database} SET work_mem = '1MB'")
        seen.append(as_made(klass))
        admin.execute(f"ALTER ROLE workstation IN DATABASE {klass.database} SET work_mem = '2MB'")
        seen.append(as_made(klass))
        admin.execute("BEGIN")  # an insert rolled back still moves its sequence
        admin.execute("INSERT INTO trainees (name, created, archived, instructor, uid) "
                      "VALUES ('Bo', 1.7e9, 0, 0, md5('Bo'))")
        admin.execute("ROLLBACK")
        seen.append(as_made(klass))
        admin.execute("CREATE SCHEMA elsewhere")
        seen.append(as_made(klass))
        admin.execute("CREATE TABLE elsewhere.t (n integer)")
        seen.append(as_made(klass))
        try:  # the server's own, seen from every class: put back after
            admin.execute("ALTER ROLE workstation SET statement_timeout = '1h'")
            seen.append(as_made(klass))
            admin.execute("CREATE ROLE suite_isolation_probe")
            seen.append(as_made(klass))
            assert as_made(klass) == seen[-1], "reading changes nothing"
        finally:
            admin.execute("ALTER ROLE workstation RESET statement_timeout")
            admin.execute("DROP ROLE IF EXISTS suite_isolation_probe")
    assert len(set(seen)) == len(seen), "each change shows"
