"""A program's text run as `python -c SOURCE ARGV` runs it, in a child forked from a program that
has already imported what the text uses (tests/support/killed.py's server, the concurrent writers
of tests/test_progress_store.py): the interpreter's start and the imports are paid once, not once
a run. Imported by those programs, in the child, never by a test."""

from __future__ import annotations

import sys
import traceback


def run_as_main(source: str, argv: list[str]) -> int:
    """Run `source` as `__main__` with `sys.argv` ["-c", *argv], and give its exit status as the
    interpreter would: a SystemExit's code (None is 0; any other code that is not a number is
    printed to stderr and is 1), 1 with its traceback on stderr for any other exception. Both
    streams are flushed, for the child ends by os._exit."""
    sys.argv = ["-c", *argv]
    status = 0
    try:
        exec(compile(source, "<string>", "exec"), {"__name__": "__main__"})
    except SystemExit as stop:
        if stop.code is None or isinstance(stop.code, int):
            status = stop.code or 0
        else:
            print(stop.code, file=sys.stderr)
            status = 1
    except BaseException:
        traceback.print_exc()
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    return status
