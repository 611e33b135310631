"""Proof that a sitting was opened with its start code (issue: a certificate only for the person
who sat).

A sitting token can be read by anyone who sees its file; its start code cannot: the proctor
types it when the sitting starts. So the code, not the token, is what a result must show it
knew. The instructor does not keep the code: it is derived from the instructor's own key and
the sitting's nonce (`start_code`), so certification derives it again.

- When the attempt starts, the workstation turns the code into the sitting's proof key
  (`proof_key`: HMAC-SHA256 of the nonce under the code) and holds it with the attempt.
- When the attempt ends, it writes `proof`: the HMAC under that key of what certification
  re-grades (`proven`: the result's id, trainee, form, status and every answer's log), and
  clears the key. The submission carries the proof beside the record.
- `certify` derives the code and the key again and checks the proof: a result written for a
  sitting by someone who never had its code, or changed after it ended, is refused.

The code carries 80 bits: a proof cannot be guessed, nor the code found from a proof offline.
"""

from __future__ import annotations

import hashlib
import hmac

from trainer.exams.canonical import canonical

#: start codes: 16 characters of an alphabet with no look-alikes (80 bits), read aloud in fours
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 16
_CODE = b"dealer-trainer start code\0"
_KEY = b"dealer-trainer sitting proof\0"


def start_code(key, nonce: str) -> str:
    """The start code of the sitting `nonce`, derived from the instructor's key (an InstructorKey):
    the same on every machine that holds the key, and on none that does not."""
    secret = key.private.private_bytes_raw()
    n = int.from_bytes(hmac.new(secret, _CODE + nonce.encode("ascii"), hashlib.sha256).digest()[:10])
    chars = "".join(CODE_ALPHABET[(n >> (5 * i)) & 31] for i in range(CODE_LENGTH))
    return "-".join(chars[i:i + 4] for i in range(0, CODE_LENGTH, 4))


def plain_code(code: str) -> str:
    """The code as typed, without spaces, dashes or case: what it means."""
    return "".join(ch for ch in code.upper() if ch in CODE_ALPHABET)


def proof_key(code: str, nonce: str) -> bytes:
    """The sitting's proof key: what knowing its start code gives."""
    return hmac.new(plain_code(code).encode("ascii"), _KEY + nonce.encode("ascii"), hashlib.sha256).digest()


def code_check(code: str, nonce: str) -> str:
    """What the signed token carries to tell a right start code from a typo at the start (64 bits
    of an HMAC under the proof key: no help in finding an 80-bit code)."""
    return hmac.new(proof_key(code, nonce), b"check", hashlib.sha256).hexdigest()[:16]


def code_is_right(code: str | None, token: dict) -> bool:
    """Whether `code` is the start code of the sitting `token` (one that asks for proof)."""
    check, nonce = token.get("code_check"), token.get("nonce")
    if not code or not all(isinstance(v, str) and v.isascii() for v in (check, nonce)):
        return False  # a token a workstation was handed can hold anything: no code fits it
    return hmac.compare_digest(code_check(code, nonce), check)


def proven(record: dict) -> dict:
    """What a proof covers of a result's portable record: what certification reads of it."""
    form = record.get("form") if isinstance(record.get("form"), dict) else {}
    answers = record.get("answers") if isinstance(record.get("answers"), list) else []
    return {"uid": record.get("uid"), "trainee": record.get("trainee"), "form": form.get("digest"),
            "status": record.get("status"),
            "answers": [{"position": a.get("position"), "log": a.get("log")} if isinstance(a, dict)
                        else None for a in answers]}


def prove(key: bytes, record: dict) -> str:
    return hmac.new(key, canonical(proven(record)), hashlib.sha256).hexdigest()


def proof_holds(key: bytes, record: dict, proof: object) -> bool:
    """Whether `proof` is the record's proof under the key (a record that cannot be written as
    JSON proves nothing)."""
    if not isinstance(proof, str) or not proof.isascii():
        return False
    try:
        return hmac.compare_digest(prove(key, record), proof)
    except (TypeError, ValueError, RecursionError):
        return False
