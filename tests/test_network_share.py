"""The progress file stays on a local disk: on a network share (Linux's mountinfo, simulated;
Windows' UNC paths and network drives, simulated) it is refused in one line that says why and
what to do, before anything is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainer.progress import NetworkShareError, Store, disk
from trainer.progress.disk import mount_type, network_share

LOCAL = "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"


def mountinfo(*mounts: tuple[str, str]) -> str:
    """/proc/self/mountinfo with the root on ext4 and each (mount point, file system) after it,
    its point escaped as the kernel writes it."""
    lines = [LOCAL]
    for n, (point, fs) in enumerate(mounts, start=40):
        escaped = point.replace("\\", "\\134").replace(" ", "\\040")
        lines.append(f"{n} 22 0:{n} / {escaped} rw,relatime shared:{n} - {fs} server:/export rw,vers=4.2\n")
    return "".join(lines)


# --------------------------------------------------------------------------- Linux
@pytest.mark.parametrize("fs", ["nfs", "nfs4", "cifs", "smb3", "fuse.sshfs"])
def test_a_file_on_a_network_mount_is_on_a_share(tmp_path, fs):
    info = mountinfo((str(tmp_path), fs))
    assert network_share(tmp_path / "progress.db", platform="linux", mountinfo=info) == \
        f"a {fs} network share"


def test_a_folder_not_made_yet_is_judged_by_the_mount_it_will_be_on(tmp_path):
    info = mountinfo((str(tmp_path), "nfs4"))
    assert network_share(tmp_path / "new" / "deeper" / "progress.db", platform="linux", mountinfo=info)


def test_the_deepest_mount_decides_and_the_last_of_one_point(tmp_path):
    local = tmp_path / "local"
    local.mkdir()
    info = mountinfo((str(tmp_path), "cifs"), (str(local), "ext4"))
    assert network_share(local / "progress.db", platform="linux", mountinfo=info) is None
    assert network_share(tmp_path / "progress.db", platform="linux", mountinfo=info)
    over = mountinfo((str(tmp_path), "nfs"), (str(tmp_path), "tmpfs"))  # mounted over the share
    assert network_share(tmp_path / "progress.db", platform="linux", mountinfo=over) is None


def test_a_mount_point_with_a_space_is_read_as_the_kernel_escapes_it(tmp_path):
    shared = tmp_path / "Shared Drive"
    shared.mkdir()
    info = mountinfo((str(shared), "smb3"))
    assert mount_type(str(shared), info) == "smb3"
    assert network_share(shared / "progress.db", platform="linux", mountinfo=info)
    assert network_share(tmp_path / "progress.db", platform="linux", mountinfo=info) is None


def test_a_mount_whose_name_only_begins_the_same_is_not_above(tmp_path):
    info = mountinfo((str(tmp_path / "share"), "nfs"))
    (tmp_path / "shared").mkdir()
    assert network_share(tmp_path / "shared" / "progress.db", platform="linux", mountinfo=info) is None


def test_local_disks_and_garbled_lines_are_not_shares(tmp_path):
    assert network_share(tmp_path / "progress.db", platform="linux", mountinfo=LOCAL) is None
    assert network_share(tmp_path / "progress.db", platform="linux",
                         mountinfo="garbage\n\n1 2 3\n" + LOCAL) is None


def test_this_machines_own_temporary_folder_is_local(tmp_path):
    """The real /proc/self/mountinfo: the tests' folders are on a local disk (else every test
    that opens a progress file would be refused)."""
    assert network_share(tmp_path / "progress.db") is None


# --------------------------------------------------------------------------- Windows, simulated
def drives(remote: set[str]):
    """GetDriveTypeW's answers: DRIVE_REMOTE (4) for the drives in `remote`, DRIVE_FIXED (3)
    for the others; each root asked for is noted."""
    asked: list[str] = []

    def drive_type(root: str) -> int:
        asked.append(root)
        return disk.DRIVE_REMOTE if root[0] in remote else 3

    return drive_type, asked


@pytest.mark.parametrize("path", [r"\\fileserver\profiles$\ana\AppData\Roaming\Dealer Trainer\progress.db",
                                  "//fileserver/profiles/ana/progress.db"])
def test_a_unc_path_is_a_share_without_asking_windows(path):
    drive_type, asked = drives(set())
    share = network_share(path, platform="win32", drive_type=drive_type)
    assert share is not None and share.startswith("the network share ") and "fileserver" in share
    assert asked == []


def test_a_mapped_network_drive_is_a_share_and_a_fixed_one_is_not():
    drive_type, asked = drives({"H"})
    assert network_share(r"H:\Dealer Trainer\progress.db", platform="win32",
                         drive_type=drive_type) == "the network drive H:"
    assert network_share(r"C:\Users\ana\AppData\Local\Dealer Trainer\progress.db", platform="win32",
                         drive_type=drive_type) is None
    assert asked == ["H:\\", "C:\\"]


def test_a_drive_windows_cannot_answer_for_is_not_refused_on_a_guess():
    def broken(root: str) -> int:
        raise OSError("no answer")

    assert network_share(r"Z:\progress.db", platform="win32", drive_type=broken) is None


def test_macos_is_not_checked(tmp_path):
    assert network_share(tmp_path / "progress.db", platform="darwin", mountinfo=mountinfo(
        (str(tmp_path), "nfs"))) is None


# --------------------------------------------------------------------------- the refusal
def test_the_store_refuses_a_file_on_a_share_in_one_line_and_writes_nothing(tmp_path, monkeypatch):
    share = tmp_path / "share"
    share.mkdir()
    info = tmp_path / "mountinfo"
    info.write_text(mountinfo((str(share), "nfs4")), encoding="utf-8")
    monkeypatch.setattr(disk, "MOUNTINFO", str(info))
    path = share / "Dealer Trainer" / "progress.db"
    for allow in (False, True):
        with pytest.raises(NetworkShareError) as caught:
            Store.open(path, allow_unavailable=allow)
        message = str(caught.value)
        assert "\n" not in message
        assert message.startswith(f"Cannot keep progress in {path}: it is on a nfs4 network share")
        assert "write-ahead log needs shared memory on a local disk" in message
        assert "data folder setting" in message and "data_folder" in message
    assert list(share.iterdir()) == [], "nothing made on the share"
    with Store.open(tmp_path / "local" / "progress.db") as store:  # beside it, on the local disk
        assert store.problem is None


def test_the_refusal_is_a_store_error_the_start_offers_its_choices_for(qtbot, tmp_path, monkeypatch):
    from tests.support.screens import answer_with
    from ui.shell.app import open_store

    monkeypatch.setattr(disk, "network_share", lambda path, **_: "the network drive H:")
    seen = answer_with("Continue without saving")
    assert open_store(str(tmp_path / "progress.db")) is None
    assert "it is on the network drive H:, and SQLite's write-ahead log" in seen[0]
    assert not (tmp_path / "progress.db").exists()


def test_a_relative_path_is_judged_where_it_would_be(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    info = mountinfo((str(Path(tmp_path).resolve()), "cifs"))
    assert network_share("progress.db", platform="linux", mountinfo=info)
