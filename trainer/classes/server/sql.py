"""What every call to the class server's functions shares."""

from __future__ import annotations

from typing import Any

import psycopg


def value(cursor: psycopg.Cursor) -> Any:
    """The one value a `SELECT f(...)` returns (a function's result: always one row)."""
    row = cursor.fetchone()
    if row is None:  # a function call always gives a row; a query that gave none is a bug
        raise LookupError("the class server answered with no row")
    return row[0]
