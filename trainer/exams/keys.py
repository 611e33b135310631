"""Instructor keys: Ed25519 signatures (PyCA cryptography) that anyone can check and only the
instructor can make.

An instructor has one key pair. The private key lives on the instructor's machine, encrypted
under the instructor's passphrase: scrypt derives a key from the passphrase (n = 2**17, r = 8,
about 128 MiB and half a second, so every guess costs the same), and AES-256-GCM seals the 32
private bytes, with the file's header (name, public key, scrypt parameters) as associated data
so that no part of the file can be swapped. The public key, named by a short fingerprint, is
what workstations and auditors hold: it checks signatures and can make none.

    key = InstructorKey.generate("Ivy Park")
    write_private_key(path, key, passphrase)          # 0600, refuses a weak passphrase
    write_public_key(path.with_suffix(".pub"), key.public)
    key = read_private_key(path, passphrase)          # KeyFileError if wrong or damaged
    signature = key.sign(payload)                      # payload: any canonical-JSON value
    key.public.verify(payload, signature)              # True / False
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from trainer import files
from trainer.exams.canonical import canonical
from trainer.exams.errors import KeyFileError
from trainer.paths import binary

PRIVATE_FORMAT = "dealer-trainer-instructor-key"
PUBLIC_FORMAT = "dealer-trainer-public-key"
VERSION = 1
#: scrypt for the private key file: about 128 MiB and half a second per guess on this hardware
#: (read when a key is written: the tests lower n where the cost is not what they test,
#: tests/support/kdf.py)
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**17, 8, 1
#: the most a key file may ask for, so that a crafted file cannot take minutes or gigabytes
MAX_N, MAX_R, MAX_P = 2**20, 16, 4
MIN_PASSPHRASE = 12
MAX_FILE_BYTES = 64 * 1024
#: words a guesser of this project's passphrases tries first, beside zxcvbn's own lists
OURS = ("dealer", "trainer", "casino", "instructor", "pennsylvania", "props", "hops", "football")
#: zxcvbn reads this much of a passphrase (its cost grows with the length; more is no weaker)
MEASURED = 100


def passphrase_problem(passphrase: str, *, name: str = "") -> str | None:
    """Why a passphrase is too weak for an instructor key, or None: at least 12 characters, and
    zxcvbn's strongest score (about 10^10 guesses or more), the instructor's name and this
    project's words counted as known to a guesser."""
    from zxcvbn import zxcvbn

    text = unicodedata.normalize("NFKC", passphrase)
    if len(text) < MIN_PASSPHRASE:
        return f"use at least {MIN_PASSPHRASE} characters (a few words make a good one)"
    found = zxcvbn(text[:MEASURED], user_inputs=[*name.split(), name, *OURS])
    if found["score"] < 4:
        feedback = found.get("feedback") or {}
        why = (feedback.get("warning") or "it could be guessed").rstrip(".")
        tip = " ".join(feedback.get("suggestions") or []) or "Add another word or two that are not common."
        return f"{why[0].lower()}{why[1:]}. {tip}"
    return None


def fingerprint(raw_public: bytes) -> str:
    """A short name for a public key that people can read aloud and compare: 16 hex digits."""
    h = hashlib.sha256(b"dealer-trainer-ed25519:" + raw_public).hexdigest()[:16]
    return " ".join(h[i:i + 4] for i in range(0, 16, 4))


@dataclass(frozen=True)
class PublicKey:
    name: str
    raw: bytes  # 32 bytes

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.raw)

    def verify(self, payload, signature: object) -> bool:
        """True when `signature` (hex) is this key's signature of the canonical payload."""
        if not isinstance(signature, str) or len(signature) != 128:
            return False
        try:
            Ed25519PublicKey.from_public_bytes(self.raw).verify(bytes.fromhex(signature),
                                                                canonical(payload))
        except (InvalidSignature, ValueError):
            return False
        return True

    def to_json(self) -> dict:
        return {"format": PUBLIC_FORMAT, "version": VERSION, "name": self.name,
                "public": self.raw.hex(), "fingerprint": self.fingerprint}


@dataclass(frozen=True)
class InstructorKey:
    name: str
    private: Ed25519PrivateKey

    @classmethod
    def generate(cls, name: str) -> InstructorKey:
        return cls(name, Ed25519PrivateKey.generate())

    @classmethod
    def from_seed(cls, name: str, seed: bytes) -> InstructorKey:
        """The key 32 bytes make, the same every time: a demonstration's, never a real one."""
        return cls(name, Ed25519PrivateKey.from_private_bytes(seed))

    @property
    def public(self) -> PublicKey:
        return PublicKey(self.name, self.private.public_key().public_bytes_raw())

    def sign(self, payload) -> str:
        """The Ed25519 signature (hex) of the canonical payload."""
        return self.private.sign(canonical(payload)).hex()


# --- files --------------------------------------------------------------------------------------


def write_private_key(path: str | os.PathLike, key: InstructorKey, passphrase: str, *,
                      n: int | None = None, r: int = SCRYPT_R, p: int = SCRYPT_P) -> None:
    """Write the key encrypted under the passphrase (scrypt's `n`: SCRYPT_N unless given),
    readable by its owner only; never over an existing file. KeyFileError for a weak passphrase
    or a file that cannot be written."""
    n = SCRYPT_N if n is None else n
    if problem := passphrase_problem(passphrase, name=key.name):
        raise KeyFileError(f"That passphrase is too weak: {problem.rstrip('.')}.")
    if Path(path).exists():  # refused before scrypt's time and memory (_write_new still decides)
        raise _never_overwritten(Path(path))
    salt, nonce = secrets.token_bytes(16), secrets.token_bytes(12)
    header = {"format": PRIVATE_FORMAT, "version": VERSION, "name": key.name,
              "public": key.public.raw.hex(),
              "kdf": {"name": "scrypt", "n": n, "r": r, "p": p, "salt": salt.hex()}}
    sealed = AESGCM(_derive(passphrase, header["kdf"])).encrypt(
        nonce, key.private.private_bytes_raw(), canonical(header))
    _write_new(path, {**header, "nonce": nonce.hex(), "sealed": sealed.hex()})


def read_private_key(path: str | os.PathLike, passphrase: str) -> InstructorKey:
    """The instructor key at `path`, opened with the passphrase; KeyFileError naming the file
    when it is missing, damaged, not a key, or the passphrase is wrong."""
    doc = _read(path, PRIVATE_FORMAT, "instructor key")
    name = os.fspath(path)
    header = {k: doc.get(k) for k in ("format", "version", "name", "public", "kdf")}
    try:
        nonce, sealed = bytes.fromhex(doc["nonce"]), bytes.fromhex(doc["sealed"])
        secret = AESGCM(_derive(passphrase, doc["kdf"])).decrypt(nonce, sealed, canonical(header))
        private = Ed25519PrivateKey.from_private_bytes(secret)
    except InvalidTag:
        raise KeyFileError(f"{name}: the passphrase is not right (or the file was changed)",
                           path=name) from None
    except (KeyError, TypeError, ValueError) as e:
        raise KeyFileError(f"{name}: a damaged instructor key ({e})", path=name) from None
    key = InstructorKey(str(doc.get("name") or ""), private)
    if key.public.raw.hex() != doc.get("public"):
        raise KeyFileError(f"{name}: its public key does not match its private key", path=name)
    return key


def write_public_key(path: str | os.PathLike, public: PublicKey) -> None:
    _write_new(path, public.to_json(), mode=0o644)


def read_public_key(path: str | os.PathLike) -> PublicKey:
    doc = _read(path, PUBLIC_FORMAT, "public key")
    name = os.fspath(path)
    try:
        raw = bytes.fromhex(doc["public"])
        Ed25519PublicKey.from_public_bytes(raw)
    except (KeyError, TypeError, ValueError):
        raise KeyFileError(f"{name}: not an Ed25519 public key", path=name) from None
    if not isinstance(doc.get("name"), str):
        raise KeyFileError(f"{name}: name: must be text", path=name)
    return PublicKey(doc["name"], raw)


def _derive(passphrase: str, kdf: object) -> bytes:
    if not isinstance(kdf, dict) or kdf.get("name") != "scrypt":
        raise ValueError("kdf: not a scrypt description")
    n, r, p, salt = kdf.get("n"), kdf.get("r"), kdf.get("p"), kdf.get("salt")
    if not all(type(v) is int for v in (n, r, p)) or not isinstance(salt, str):
        raise ValueError("kdf: n, r and p must be whole numbers and salt hex")
    if not (2 <= n <= MAX_N and n & (n - 1) == 0 and 1 <= r <= MAX_R and 1 <= p <= MAX_P):
        raise ValueError(f"kdf: scrypt parameters out of range (n={n}, r={r}, p={p})")
    data = unicodedata.normalize("NFC", passphrase).encode("utf-8")
    return hashlib.scrypt(data, salt=bytes.fromhex(salt), n=n, r=r, p=p, dklen=32,
                          maxmem=256 * n * r * p + 2**20)


def _read(path: str | os.PathLike, fmt: str, kind: str) -> dict:
    name = os.fspath(path)
    try:
        data = files.read_capped(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise KeyFileError(f"no {kind} at {name}", path=name) from None
    except OSError as e:
        raise KeyFileError(f"cannot read the {kind} {name} ({e.strerror or e})", path=name) from None
    except files.FileRefused as e:
        raise KeyFileError(f"{name}: {e}, which no {kind} is", path=name) from None
    try:
        doc = files.loads(data.decode("utf-8"))
    except files.DuplicateKey as e:
        raise KeyFileError(f"{name} is not a {kind} ({e})", path=name) from None
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError):
        raise KeyFileError(f"{name} is not a {kind} (not JSON)", path=name) from None
    if not isinstance(doc, dict) or doc.get("format") != fmt:
        raise KeyFileError(f"{name} is not a Dealer Trainer {kind}", path=name)
    if doc.get("version") != VERSION:
        raise KeyFileError(f"{name}: {kind} version {doc.get('version')!r}; this app reads "
                           f"{VERSION}", path=name)
    return doc


def _never_overwritten(target: Path) -> KeyFileError:
    return KeyFileError(f"{target} already exists; a key file is never overwritten", path=str(target))


def _write_new(path: str | os.PathLike, doc: dict, mode: int = 0o600) -> None:
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(target, binary(os.O_WRONLY | os.O_CREAT | os.O_EXCL), mode)
    except FileExistsError:
        raise _never_overwritten(target) from None
    except OSError as e:
        raise KeyFileError(f"cannot write {target} ({e.strerror or e})", path=str(target)) from None
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
        json.dump(doc, out, indent=1)
        out.write("\n")
        out.flush()
        os.fsync(out.fileno())
