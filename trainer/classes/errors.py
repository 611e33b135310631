"""The class server's errors: each a StoreError (the app shows its message as one line, as it
does every problem with results), and each message names what is wrong."""

from __future__ import annotations

from trainer.progress.errors import StoreError


class ClassServerError(StoreError):
    """The class server cannot be started, reached or used as asked; the message says why."""


class ClassUnreachableError(ClassServerError):
    """The class server cannot be reached now (not: it refused); the message says why."""


class LoginRefusedError(ClassServerError):
    """The class server was reached and refused the login's password."""


class PassingRefusalError(ClassServerError):
    """The class server refused for a passing reason and kept nothing (a serialization failure,
    a lock held, a step it could not record now): the same call, made again, may go through."""
