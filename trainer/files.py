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
