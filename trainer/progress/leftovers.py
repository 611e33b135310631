"""What a kill leaves beside the progress file, and how the next start cleans it.

Two steps of opening make names of their own beside the progress file NAME, and remove them when
done (trainer.progress.opening): a new file is made whole as `.NAME.<12 hex>.new` (with its -wal,
-shm or -journal while SQLite works on it) before it is linked into place (`create_whole`), and a
file with a -wal a crash left is checked through links in a folder `.NAME.check-<8 hex>`
(`apart`). A kill in between leaves them. Neither holds anything of value: the new file was never
anyone's, and the folder holds links (other names of the file and its -wal) and the -shm made
there.

Each is made, and removed, under an OS lock that its maker holds for as long as the leftover
exists (`held`: on `<its name>.lock`, the lock trainer.progress.journal holds on a journal of
waiting attempts). At each start, `clean` removes what no live process holds: for each leftover
of these names it takes the lock (at once, or not at all: one held belongs to a start under way),
then removes the leftover and its lock file. It never removes a name of another pattern, another
user's file, a symbolic link, or a folder holding anything `apart` does not put there. Removing
never fails a start: what cannot be removed stays, for the next one.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

SQLITE_SIDES = ("-wal", "-shm", "-journal")  # what SQLite keeps beside a file it works on


def new_name(target: Path, token: str) -> Path:
    """The name a new progress file is made under before it is linked into place."""
    return target.with_name(f".{target.name}.{token}.new")


def check_folder(path: Path, token: str) -> Path:
    """The folder a file with a crash's -wal is checked in, through links."""
    return path.with_name(f".{path.name}.check-{token}")


@contextmanager
def held(leftover: Path) -> Iterator[None]:
    """Hold the lock of a leftover-to-be while the block makes, uses and removes it: a start that
    cleans meanwhile leaves it alone. Where no lock can be made (a folder that cannot be written),
    the block runs without one: it cannot make its leftover there either."""
    from filelock import FileLock, Timeout  # loaded only when a leftover is made

    # the name is new: only a start cleaning at this moment can hold its lock, for an instant
    lock = FileLock(f"{leftover}.lock", timeout=5, mode=0o600)
    try:
        lock.acquire()
        locked = True
    except (OSError, Timeout):
        locked = False
    try:
        yield
    finally:
        if locked:
            _let_go(lock)


def clean(path: str | os.PathLike) -> list[Path]:
    """Remove the leftovers of killed starts beside the progress file at `path` (and beside the
    file a link there names): the ones no live process holds (see the module). What was removed."""
    removed: list[Path] = []
    for file in {Path(path), Path(os.path.realpath(path))}:
        with suppress(OSError):  # a folder that cannot be listed: nothing there can be cleaned
            removed += _clean_beside(file)
    return removed


def _clean_beside(file: Path) -> list[Path]:
    # a leftover's name, or a name beside it: SQLite's files beside a new file, a lock's
    named = re.compile(rf"(\.{re.escape(file.name)}\.(?:[0-9a-f]{{12}}(?P<new>\.new)|check-[0-9a-f]{{8}}))"
                       r"(?:-wal|-shm|-journal)?(?:\.lock)?")
    found: dict[Path, bool] = {}  # each leftover, and whether it is a folder a file was checked in
    with os.scandir(file.parent) as entries:
        for entry in entries:
            if m := named.fullmatch(entry.name):
                found[file.parent / m[1]] = m["new"] is None
    removed: list[Path] = []
    for leftover, folder in sorted(found.items()):
        removed += _remove(leftover, folder=folder)
    return removed


def _remove(leftover: Path, *, folder: bool) -> list[Path]:
    """Remove one leftover (and its lock file) if it is ours and no live process holds it."""
    if folder:
        inside = leftover.name.rsplit(".check-", 1)[0][1:]  # ".NAME.check-TOKEN": NAME
        names = [leftover / f"{inside}{side}" for side in ("", "-wal", "-shm")]
        if not _ours(leftover, stat.S_ISDIR) or not _only(leftover, {p.name for p in names}):
            return []
    else:
        names = [leftover, *(Path(f"{leftover}{side}") for side in SQLITE_SIDES)]
        if not all(_ours(p, stat.S_ISREG, missing=True) for p in names):
            return []
    from filelock import FileLock, Timeout  # loaded only when there is something to clean

    lock = FileLock(f"{leftover}.lock", timeout=0, mode=0o600)
    try:
        lock.acquire()
    except (OSError, Timeout):  # a start under way holds it (or the folder is read-only)
        return []
    removed: list[Path] = []
    try:
        for p in names:
            try:
                p.unlink()
                removed.append(p)
            except FileNotFoundError:
                pass
        if folder:
            leftover.rmdir()
            removed.append(leftover)
    except OSError:
        pass  # what cannot be removed now stays, for the next start
    finally:
        _let_go(lock)
    return removed


def _ours(p: Path, kind, *, missing: bool = False) -> bool:
    """`p` is of this kind (not a link) and this user's; with `missing`, absent counts too."""
    try:
        st = p.lstat()
    except FileNotFoundError:
        return missing
    return kind(st.st_mode) and (not hasattr(os, "geteuid") or st.st_uid == os.geteuid())


def _only(folder: Path, names: set[str]) -> bool:
    """The folder holds nothing but these names, each a file (not a link, not a folder)."""
    try:
        return all(e.name in names and e.is_file(follow_symlinks=False) for e in os.scandir(folder))
    except OSError:
        return False


def _let_go(lock) -> None:
    """Release a lock and remove its file (the leftover it guarded is gone)."""
    lock.release()
    with suppress(OSError):
        Path(lock.lock_file).unlink(missing_ok=True)
