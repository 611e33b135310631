"""One byte string per record, so that an HMAC or a digest computed on one machine is computed
again, byte for byte, on another: JSON with sorted keys, no spaces, UTF-8, and no NaN (which
JSON cannot carry). Floats are written by Python's shortest round-trip repr, so a time read back
from SQLite's REAL or from a JSON file gives the same bytes.
"""

from __future__ import annotations

import hashlib
import json


def canonical(obj) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def check_header(doc, fmt: str, newest: int, kind: str, fail) -> None:
    """The head every exam file shares: its "format" and a "version" this app can read.
    `fail(message)` raises the caller's error, which names the file."""
    if not isinstance(doc, dict) or doc.get("format") != fmt:
        fail(f"not a Dealer Trainer {kind} (no \"format\": \"{fmt}\")")
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        fail(f"version: must be a whole number, not {version!r}")
    if version > newest:
        fail(f"made by a newer version of Dealer Trainer ({kind} version {version}; this one reads "
             f"{newest}); update the app to import it")


def digest(obj) -> str:
    """SHA-256 (hex) of the canonical bytes: names a content, with no key (anyone can recompute it)."""
    return hashlib.sha256(canonical(obj)).hexdigest()
