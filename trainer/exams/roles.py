"""Who may be an instructor on a machine: whoever holds an instructor key and its passphrase.

An instructor profile is made with an instructor key (trainer.exams.keys): a new one sealed
under the passphrase (the passphrase policy applies), or an existing key file brought from the
instructor's own machine. The profile keeps the key's public half; opening the profile means
opening the key with the passphrase, so a trainee who presses "New instructor…" on a shared
file gets a profile of their own key only, which no instructor's ledger or auditor trusts.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from trainer.exams.errors import KeyFileError, LockedError
from trainer.exams.keys import InstructorKey, PublicKey, read_private_key, write_private_key, write_public_key
from trainer.progress.passphrase import hash_passphrase
from trainer.progress.records import Trainee, clean_name
from trainer.progress.store import Store


def new_instructor(store: Store, name: str, passphrase: str, key_dir: str | os.PathLike,
                   *, key_file: str | os.PathLike | None = None) -> tuple[int, Path]:
    """Make an instructor profile: with `key_file`, an existing instructor key opened with the
    passphrase; otherwise a new key written to `key_dir` (NAME.key and NAME.key.pub). Returns
    (the profile id, the key file). KeyFileError for a weak or wrong passphrase or a bad file."""
    return add_instructor(store, instructor_key(name, passphrase, key_dir, key_file=key_file))


class PreparedKey(NamedTuple):
    """An instructor's key made or opened, and their passphrase's hash: the slow part of making
    an instructor profile, which touches no progress file (so a window runs it on a thread)."""

    name: str
    key: InstructorKey
    path: Path
    passphrase_hash: str


def instructor_key(name: str, passphrase: str, key_dir: str | os.PathLike,
                   *, key_file: str | os.PathLike | None = None) -> PreparedKey:
    """The key of a new instructor profile (see `new_instructor`), its file written when new."""
    name = clean_name(name)
    if not name:
        raise KeyFileError("An instructor needs a name.")
    if key_file is not None:
        key = read_private_key(key_file, passphrase)
        path = Path(key_file)
    else:
        key = InstructorKey.generate(name)
        path = Path(key_dir) / ("".join(ch if ch.isalnum() else "-" for ch in name) + ".key")
        write_private_key(path, key, passphrase)
        write_public_key(path.with_name(path.name + ".pub"), key.public)
    return PreparedKey(name, key, path, hash_passphrase(passphrase))


def add_instructor(store: Store, prepared: PreparedKey) -> tuple[int, Path]:
    """The instructor profile of a prepared key, added to the progress file (on the thread that
    owns it); (the profile id, the key file)."""
    trainee = store.add_trainee(prepared.name, instructor=True, passphrase_hash=prepared.passphrase_hash,
                                public_key=prepared.key.public.raw.hex(),
                                key_path=str(prepared.path.resolve()))
    return trainee, prepared.path


def open_instructor(trainee: Trainee, passphrase: str,
                    key_file: str | os.PathLike | None = None) -> InstructorKey:
    """The instructor key of a profile, opened with the passphrase (from `key_file` when the
    key has moved). LockedError when the key is not this profile's; KeyFileError when it cannot
    be opened (wrong passphrase, missing or damaged file)."""
    if not trainee.instructor or not trainee.public_key:
        raise LockedError(f"{trainee.name} has no instructor key.")
    key = read_private_key(key_file or trainee.key_path or "", passphrase)
    if key.public.raw.hex() != trainee.public_key:
        raise LockedError(f"That key file is not {trainee.name}'s instructor key.")
    return key


def trusted_keys(store: Store) -> list[PublicKey]:
    """The instructor keys of this file's instructor profiles: the only keys this machine checks a
    certificate against (never the key a certificate merely names)."""
    return [PublicKey(t.name, bytes.fromhex(t.public_key)) for t in store.trainees(include_archived=True)
            if t.instructor and t.public_key]
