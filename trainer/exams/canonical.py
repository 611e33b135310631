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


def digest(obj) -> str:
    """SHA-256 (hex) of the canonical bytes: names a content, with no key (anyone can recompute it)."""
    return hashlib.sha256(canonical(obj)).hexdigest()
