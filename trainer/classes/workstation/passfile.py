"""The class password a workstation keeps between starts, in a password file of libpq's own format
(PostgreSQL's documentation, libpq, "The Password File"), which the driver reads itself: the app
connects with the address without its password (ClassAddress.kept) and `passfile=` naming this file
(trainer.classes.workstation.address.with_passfile), so the password is never in the app's settings.

The file is the app's own, per user, beside its settings, and holds the one class joined with
File › Join class…: a comment, then one line

    host:port:database:user:password

each field escaped as libpq requires (a `:` or `\\` written `\\:`, `\\\\`). It is written whole or
not at all (a temporary file beside it, flushed, renamed over it) and created readable by its
owner only (mode 0600): libpq ignores a password file that others may read (on POSIX systems; on
Windows the user's profile folder is what protects it). `lookup` reads it back, so that the app
can tell "no password kept here" (ask for it) from "the file cannot be read" or "is damaged" (say
so, in one line) before libpq silently finds nothing; `forget` removes it.

This is as safe as PostgreSQL's own ~/.pgpass: the password is not encrypted on the disk, but
only its owner (and the machine's administrators) can read it, and nothing else the app writes
(settings, progress file, logs, messages) holds it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from trainer.classes.errors import ClassServerError
from trainer.classes.workstation.address import ClassAddress
from trainer.paths import binary

NAME = "class.pgpass"
HEADER = ("# Dealer Trainer: the password of the class joined with File › Join class… (libpq's "
          "password file format; File › Leave class removes it)\n")
FIELDS = ("host", "port", "database", "user", "password")


class PasswordFileError(ClassServerError):
    """The password file cannot be read or written, or is damaged; the message says which file
    and why, in one line, and never holds a password."""


def escape(text: str) -> str:
    """A field as libpq reads it: `\\` and `:` escaped with a backslash."""
    return text.replace("\\", "\\\\").replace(":", "\\:")


def split(line: str) -> list[str]:
    """A password file's line as its fields, unescaped (ValueError: it ends in a lone backslash)."""
    found, field, chars = [], [], iter(line)
    for c in chars:
        if c == "\\":
            nxt = next(chars, None)
            if nxt is None:
                raise ValueError("it ends in a lone backslash")
            field.append(nxt)
        elif c == ":":
            found.append("".join(field))
            field = []
        else:
            field.append(c)
    found.append("".join(field))
    return found


def entry(address: ClassAddress, password: str) -> str:
    """The line that gives `password` to connections to the class at `address` (libpq matches
    the host, port, database and user the address connects with)."""
    fields = (address.host, str(address.port), address.database, address.user, password)
    return ":".join(escape(f) for f in fields) + "\n"


def store(path: str | os.PathLike, address: ClassAddress, password: str | None = None) -> None:
    """Keep the class's password (`password`, or the one in the address) in the file at `path`,
    in place of what it held. PasswordFileError when it cannot be written."""
    password = address.password if password is None else password
    if not password:
        raise ValueError("no password to keep")
    if "\n" in password or "\r" in password:
        raise PasswordFileError("the class password holds a line break, which a password file "
                                "cannot keep")
    path = Path(path)
    tmp = path.with_name(path.name + ".part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.unlink(missing_ok=True)
        fd = os.open(tmp, binary(os.O_WRONLY | os.O_CREAT | os.O_EXCL), 0o600)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
                out.write(HEADER + entry(address, password))
                out.flush()
                os.fsync(out.fileno())
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        os.replace(tmp, path)
    except OSError as e:
        raise PasswordFileError(f"the class password cannot be kept in {path} "
                                f"({e.strerror or type(e).__name__})") from None


def lookup(path: str | os.PathLike, address: ClassAddress) -> str | None:
    """The password kept for the class at `address`; None when no file or no line is for it.
    PasswordFileError when the file cannot be read, is damaged, or others may read it (libpq
    would ignore it)."""
    path = Path(path)
    where = f"the class password file {path}"
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise PasswordFileError(f"{where} is not a file")
        if os.name == "posix" and info.st_mode & 0o077:
            raise PasswordFileError(f"{where} can be read by other users (mode "
                                    f"{stat.filemode(info.st_mode)}), so it is not used; join the "
                                    "class again to write it anew")
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise PasswordFileError(f"{where} cannot be read ({e.strerror or type(e).__name__})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise PasswordFileError(f"{where} is damaged (it is not text)") from None
    want = (address.host, str(address.port), address.database, address.user)
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        try:
            fields = split(line)
        except ValueError as e:
            raise PasswordFileError(f"{where} is damaged (line {n}: {e})") from None
        if len(fields) != len(FIELDS):
            raise PasswordFileError(f"{where} is damaged (line {n} has {len(fields)} fields, not "
                                    f"{len(FIELDS)}: {':'.join(FIELDS)})")
        if tuple(fields[:4]) == want:
            return fields[4]
    return None


def forget(path: str | os.PathLike) -> None:
    """Remove the kept password (nothing to do when there is none)."""
    path = Path(path)
    try:
        path.unlink(missing_ok=True)
        path.with_name(path.name + ".part").unlink(missing_ok=True)
    except OSError as e:
        raise PasswordFileError(f"the class password file {path} cannot be removed "
                                f"({e.strerror or type(e).__name__})") from None
