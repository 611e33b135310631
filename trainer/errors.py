"""The one error type for input the engine cannot use: it names the field and the problem; and
OneLine, which keeps every message a user sees to one line whatever the input held."""

import json
import re

#: the longest message: one that quotes a 70,000-character value names the problem in its start
LONGEST_MESSAGE = 1000
_BREAKS = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]")


def one_line(text: str) -> str:
    """A message as one line a terminal and a dialog can show: line breaks and other control
    characters written as escapes (\\n), a lone surrogate too, and no longer than LONGEST_MESSAGE."""
    text = _BREAKS.sub(lambda m: repr(m.group())[1:-1], text)
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= LONGEST_MESSAGE else text[:LONGEST_MESSAGE - 1] + "…"


class OneLine(Exception):
    """Base of the errors a user reads (RequestError, ScenarioError, StoreError, ExamError): str()
    is one line, though the message quotes a value of the input that held a line break."""

    def __str__(self) -> str:
        return one_line(super().__str__())


class RequestError(OneLine, ValueError):
    """A request, scenario or option that cannot be read.

    `field` is a path into the input, such as ``throws[3].dice``; str() gives ``field: message``,
    the one line a user sees.
    """

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message


class DataError(RuntimeError):
    """A bundled or property data file (paytable, layout) that is broken."""


_PLAIN_KEY = re.compile(r"[A-Za-z0-9_-]+")


def key_name(key: object) -> str:
    """A key of the input as a field path names it: a plain name as it is, any other (empty, with
    spaces or dots, a lone surrogate) quoted as JSON, so that `""` is seen."""
    text = str(key)
    return text if _PLAIN_KEY.fullmatch(text) else json.dumps(text)[:40]


def shown(value: object) -> str:
    """A value as a message shows it: a number of 400 digits or a long text is not printed whole."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:20]}… ({len(text)} characters)"
