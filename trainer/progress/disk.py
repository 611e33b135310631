"""Whether a progress file would sit on a network share, where it is refused: SQLite's
write-ahead log (WAL) keeps its index in shared memory beside the file, which works only on a
local disk; on a network share two computers may corrupt it, or the file cannot be opened.

Linux: the file system of the mount the folder is on, from /proc/self/mountinfo (nfs, cifs,
smb3, sshfs and the like). Windows: a UNC path (\\\\server\\share\\...), or a drive whose
GetDriveTypeW is DRIVE_REMOTE (a mapped network drive, a redirected profile). Elsewhere (macOS)
nothing is checked."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path, PureWindowsPath

MOUNTINFO = "/proc/self/mountinfo"
#: file systems that are network shares (the mountinfo's type; FUSE's are "fuse.NAME")
NETWORK = frozenset({
    "nfs", "nfs4", "cifs", "smb", "smb2", "smb3", "smbfs", "ncpfs", "afs", "coda", "ceph",
    "glusterfs", "lustre", "gpfs", "beegfs", "davfs", "sshfs", "fuse.sshfs",
    "fuse.rclone", "fuse.glusterfs", "fuse.cephfs", "fuse.s3fs", "fuse.gcsfuse", "fuse.davfs2",
})
DRIVE_REMOTE = 4  # GetDriveTypeW's answer for a network drive


def network_share(path: str | os.PathLike, *, platform: str = sys.platform,
                  mountinfo: str | None = None,
                  drive_type: Callable[[str], int] | None = None) -> str | None:
    """What share `path` (a file, perhaps not made yet) is on, in words ("an nfs4 network
    share"); None on a local disk or where it cannot be told. `mountinfo` (the text of
    /proc/self/mountinfo) and `drive_type` (GetDriveTypeW) stand in for the OS's in tests."""
    if platform == "win32":
        return _windows(os.path.abspath(path) if os.name == "nt" else str(path), drive_type)
    if platform.startswith("linux"):
        if mountinfo is None:
            try:
                with open(MOUNTINFO, encoding="utf-8", errors="surrogateescape") as f:
                    mountinfo = f.read()
            except OSError:
                return None
        kind = mount_type(_existing(Path(path)), mountinfo)
        return f"a {kind} network share" if kind in NETWORK else None
    return None


@lru_cache(maxsize=8)  # every open asks again, of the same table (read anew each time)
def mount_type(folder: str, mountinfo: str) -> str | None:
    """The file system type of the mount `folder` (a whole path) is on: the deepest mount point
    above it, the last mounted where several share one."""
    best, kind = -1, None
    for line in mountinfo.splitlines():
        fields = line.split(" ")
        if "-" not in fields[6:] or len(fields) < 5:
            continue
        point = _unescape(fields[4])
        fs = fields[fields.index("-", 6) + 1] if len(fields) > fields.index("-", 6) + 1 else ""
        inside = folder == point or point == "/" or folder.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= best:
            best, kind = len(point), fs
    return kind


def _existing(path: Path) -> str:
    """The deepest folder of `path` that exists, its links resolved (the file may not be made
    yet, nor its folder)."""
    path = Path(os.path.abspath(path))
    for folder in (path, *path.parents):
        try:
            if folder.is_dir():
                return str(folder.resolve())
        except OSError:
            continue
    return "/"


def _unescape(text: str) -> str:
    """A mountinfo path: a space, tab, newline and backslash are written in octal (\\040)."""
    for code in ("\\040", "\\011", "\\012", "\\134"):
        text = text.replace(code, chr(int(code[1:], 8)))
    return text


def _windows(path: str, drive_type: Callable[[str], int] | None) -> str | None:
    drive = PureWindowsPath(path).drive
    if drive.startswith(("\\\\", "//")):
        return f"the network share {drive}"
    if not drive:
        return None
    if drive_type is None:
        drive_type = _get_drive_type
    try:
        remote = drive_type(drive + "\\") == DRIVE_REMOTE
    except (OSError, AttributeError, ValueError):  # no answer: not refused on a guess
        return None
    return f"the network drive {drive}" if remote else None


def _get_drive_type(root: str) -> int:
    import ctypes

    return int(ctypes.windll.kernel32.GetDriveTypeW(root))  # type: ignore[attr-defined]


def refusal(share: str) -> str:
    """Why a progress file on `share` is refused and what to do, in one line."""
    return (f"it is on {share}, and SQLite's write-ahead log needs shared memory on a local disk; "
            "choose a folder on this computer's own disk with the data folder setting "
            "(File › Settings…, or data_folder in the machine's config.toml)")
