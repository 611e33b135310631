"""Passphrases of instructor profiles: scrypt (hashlib) with a random 16-byte salt, stored with
its parameters as "scrypt$n$r$p$salt$hash" (hex) so that stronger parameters can come later
without breaking stored hashes, and checked in constant time (hmac.compare_digest). The text is
NFC-normalised first, so the same passphrase typed on another keyboard layout still matches.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata

#: n is read when a passphrase is hashed: the tests lower it where the cost is not what they test
#: (tests/support/kdf.py)
SCRYPT_N, SCRYPT_R, SCRYPT_P, SALT_BYTES, KEY_BYTES = 2**14, 8, 1, 16, 32


def hash_passphrase(passphrase: str, *, salt: bytes | None = None, n: int | None = None, r: int = SCRYPT_R,
                    p: int = SCRYPT_P) -> str:
    """"scrypt$n$r$p$salt$hash" of the passphrase (n: SCRYPT_N unless given)."""
    n = SCRYPT_N if n is None else n
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    key = _scrypt(passphrase, salt, n, r, p)
    return f"scrypt${n}${r}${p}${salt.hex()}${key.hex()}"


def check_passphrase(stored: str | None, passphrase: str) -> bool:
    if not stored:
        return False
    scheme, n, r, p, salt, key = stored.split("$")
    if scheme != "scrypt":
        raise ValueError(f"unknown passphrase scheme {scheme!r}")
    return hmac.compare_digest(_scrypt(passphrase, bytes.fromhex(salt), int(n), int(r), int(p)),
                               bytes.fromhex(key))


def _scrypt(passphrase: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    data = unicodedata.normalize("NFC", passphrase).encode("utf-8")
    return hashlib.scrypt(data, salt=salt, n=n, r=r, p=p, dklen=KEY_BYTES, maxmem=256 * n * r * p + 2**20)
