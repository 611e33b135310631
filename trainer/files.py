"""Reading a file someone else may have made (a certificates file, a submission, a sitting file, a
results file, a key): only a regular file, opened without blocking and read up to a cap, and JSON
in which no object names a key twice. A FIFO or a device (`/dev/zero`) is refused before it is
opened, so it can neither hang the reader nor fill its memory; a key named twice is refused
because two readers of one file would see two different documents (Python's json keeps the last
value, SQLite's json_extract the first). Each refusal is a FileRefused (a ValueError) whose text
names the problem, for the caller to prefix with the file's name."""

from __future__ import annotations

import json
import os
import stat
from typing import IO


class FileRefused(ValueError):
    """A file that is not read (not a regular file, or larger than its cap) or whose content a
    reader refuses; its text names why."""


class DuplicateKey(ValueError):
    """JSON whose object names one key twice."""

    def __init__(self, key: str) -> None:
        self.key = key
        shown = json.dumps(key if len(key) <= 60 else key[:60] + "…")
        super().__init__(f"the key {shown} appears twice in one object")


def what_it_is(mode: int) -> str:
    """The kind of file a mode says, in words."""
    for test, words in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"),
                        (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
                        (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return words
    return "a regular file" if stat.S_ISREG(mode) else "not a file"


def open_regular(path: str | os.PathLike) -> IO[bytes]:
    """The file open for reading in binary; FileRefused when it is not a regular file (checked
    before it is opened, and again on what was opened, in case it was swapped between); OSError
    when it cannot be opened."""
    mode = os.stat(path).st_mode  # follows a symbolic link, as open does
    if not stat.S_ISREG(mode):
        raise FileRefused(f"not a regular file ({what_it_is(mode)})")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(
        os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise FileRefused(f"not a regular file ({what_it_is(mode)})")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_capped(path: str | os.PathLike, cap: int) -> bytes:
    """A regular file's bytes; FileRefused when it is not one or holds more than `cap` bytes
    (never more than cap + 1 read), OSError when it cannot be read."""
    with open_regular(path) as f:
        if os.fstat(f.fileno()).st_size > cap:
            raise FileRefused(f"larger than {cap:,} bytes")
        data = f.read(cap + 1)
    if len(data) > cap:
        raise FileRefused(f"larger than {cap:,} bytes")
    return data


def unique_keys(pairs: list[tuple[str, object]]) -> dict:
    """An object's members as a dict; DuplicateKey when a key comes twice (json's object_pairs_hook)."""
    members: dict = {}
    for key, value in pairs:
        if key in members:
            raise DuplicateKey(key)
        members[key] = value
    return members


def loads(text: str | bytes, **options):
    """json.loads(text), refusing an object that names a key twice (DuplicateKey)."""
    return json.loads(text, object_pairs_hook=unique_keys, **options)


#: how deep a document someone else made may nest (arrays and objects): every file and record the
#: engine reads nests a few levels; a deeper one is refused before anything walks it
MAX_DEPTH = 64


def loads_bounded(text: str | bytes, *, cap: int, depth: int = MAX_DEPTH):
    """trainer.files.loads(text) for data someone else made (a record on the class server, a
    file's part): FileRefused naming the problem when it holds more than `cap` bytes (or
    characters), is not JSON, nests deeper than `depth`, holds a number too long to read or a
    lone surrogate (text no UTF-8 writer can write), or names a key twice. Never another
    exception, however the text was made."""
    if len(text) > cap:
        raise FileRefused(f"larger than {cap:,} bytes")
    try:
        value = loads(text)
    except DuplicateKey as e:
        raise FileRefused(str(e)) from None
    except RecursionError:
        raise FileRefused(f"nested deeper than {depth} levels") from None
    except (ValueError, TypeError) as e:
        if "digits" in str(e):  # an integer longer than Python converts
            raise FileRefused("a number too long to read") from None
        raise FileRefused("not JSON") from None
    _check_depth(value, depth)
    return value


def _check_depth(value: object, depth: int) -> None:
    """FileRefused when `value` nests deeper than `depth`, or holds a lone surrogate (walked
    without recursion)."""
    todo = [(value, 1)]
    while todo:
        v, level = todo.pop()
        if isinstance(v, str):
            _whole_text(v)
        elif isinstance(v, dict | list):
            if level > depth:
                raise FileRefused(f"nested deeper than {depth} levels")
            items = v.items() if isinstance(v, dict) else ((None, x) for x in v)
            for key, x in items:
                if key is not None:
                    _whole_text(key)
                todo.append((x, level + 1))


def _whole_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise FileRefused("a lone surrogate in its text (\\ud800 to \\udfff alone), which is no "
                          "character") from None
