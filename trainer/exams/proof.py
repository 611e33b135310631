"""Proof that a sitting was opened with its start code, so that a certificate is only ever for
the person who sat.

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

In a class (trainer.exams.classledger), the class server checks the code too, without ever
holding it or the instructor's key: when the sitting is issued, the instructor registers the
end of a hash chain the proof key seeds (`links`: `link(k)` is SHA-256 applied `items + 2 - k`
times to the seed, and the server keeps `link(0)`). Each call the workstation makes for the
sitting reveals the next link: the start `link(1)`, each answer in turn, the end last; the server
checks that the SHA-256 of what it is given is the link it holds, and keeps it. A link that was
revealed is spent, and the next cannot be made from it, so neither a token read from a sitting
file, nor a look at the server's tables or at the traffic, lets anyone act for the sitting. A
spent link sent again is refused and leaves nothing behind: the server keeps a refusal only for a
step not taken yet, from the login that started the sitting, and once (migration s038).

A pool's draw (trainer.exams.forms) is named in the token by a salted digest (`drawn_digest`):
the digest of the drawn form under a salt derived from the proof key, so the token read before
the start says nothing of which items were drawn, however many sittings of the pool were seen.

In a class the code alone does not open the items either: a sitting issued in a class is sealed
under its code and a share (`class_share`, derived from the instructor's key and the nonce, as the
code is) that the instructor records on the class server when issuing it, and that the server
releases only with its record of the sitting's start (trainer.exams.submission, "Sealed"). So the
server's clock, which times the sitting, starts before anyone has seen its items.

A supervise item's faults (trainer.exams.forms, "supervise items") are dealt for each sitting
whose token says so (`"deal": "sitting"`, `deals_per_sitting`), from a seed the proof key gives
(`deal_seed`): nobody knows them before the proctor types the code, two sittings of one form get
other faults, and the instructor, who derives the code, deals the same again at certification.
The form's own seed deals only a sitting issued before (whose token does not say so) and a form
sat with no sitting, which nothing certifies.

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
_LINKS = b"dealer-trainer class server links\0"
_SALT = b"dealer-trainer draw salt\0"
_SHARE = b"dealer-trainer class share\0"
_DEAL = b"dealer-trainer supervise deal\0"
#: what a sitting token says when its supervise items are dealt for the sitting (`deal_seed`)
DEAL_PER_SITTING = "sitting"


def start_code(key, nonce: str) -> str:
    """The start code of the sitting `nonce`, derived from the instructor's key (an InstructorKey):
    the same on every machine that holds the key, and on none that does not."""
    secret = key.private.private_bytes_raw()
    n = int.from_bytes(hmac.new(secret, _CODE + nonce.encode("ascii"), hashlib.sha256).digest()[:10])
    chars = "".join(CODE_ALPHABET[(n >> (5 * i)) & 31] for i in range(CODE_LENGTH))
    return "-".join(chars[i:i + 4] for i in range(0, CODE_LENGTH, 4))


def class_share(key, nonce: str) -> bytes:
    """The share a sitting issued in a class is sealed under with its start code (32 bytes),
    derived from the instructor's key (an InstructorKey) as the code is: the instructor records it
    on the class server when issuing the sitting and derives it again to write the sitting file;
    no workstation holds it before the server records the start."""
    secret = key.private.private_bytes_raw()
    return hmac.new(secret, _SHARE + nonce.encode("ascii"), hashlib.sha256).digest()


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
    if not code or not isinstance(check, str) or not isinstance(nonce, str) \
            or not (check + nonce).isascii():
        return False  # a token a workstation was handed can hold anything: no code fits it
    return hmac.compare_digest(code_check(code, nonce), check)


def links(items: int) -> int:
    """How many links a sitting of `items` items has after its verifier: its start, one per
    item answered, its end."""
    return items + 2


def link(key: bytes, items: int, step: int) -> bytes:
    """The link the workstation reveals at `step` of a sitting (1: its start; then each answer
    and its end, in order; 0: the verifier the instructor registers)."""
    if not 0 <= step <= links(items):
        raise ValueError(f"a sitting of {items} items has no step {step}")
    value = hmac.new(key, _LINKS, hashlib.sha256).digest()
    for _ in range(links(items) - step):
        value = hashlib.sha256(value).digest()
    return value


def drawn_digest(code: str, nonce: str, digest: str) -> str:
    """What a sitting token of a pool names its drawn form by: the form's digest under a salt
    only the start code gives (the token alone says nothing of the draw)."""
    salt = hmac.new(proof_key(code, nonce), _SALT, hashlib.sha256).digest()
    return hashlib.sha256(salt + digest.encode("ascii")).hexdigest()


def names_form(token: dict, digest: str, code: str | None) -> bool:
    """Whether the sitting `token` is for the form of `digest`: its digest as it is, or, for a
    pool's token (`"salted"`), as the start code salts it."""
    form = token.get("form") if isinstance(token.get("form"), dict) else {}
    named = form.get("digest")
    if not form.get("salted"):
        return named == digest
    return bool(code) and isinstance(named, str) and hmac.compare_digest(
        drawn_digest(code, str(token.get("nonce")), digest), named)


def deals_per_sitting(token: object) -> bool:
    """Whether a sitting token's supervise items are dealt for the sitting, from its proof key
    (`deal_seed`): a token issued with a start code since sittings were dealt so; one issued
    before is sat and certified on its form's own seeds, as it always was."""
    return isinstance(token, dict) and bool(token.get("proof")) and token.get("deal") == DEAL_PER_SITTING


def deal_seed(key: bytes, position: int, tried: int = 0) -> str:
    """The seed a sitting's proof key gives the supervise item at `position` of the form it
    shows (`tried`: the next seed, when one leaves no room for the item's faults): 64 bits, as
    16 hex digits, which a supervised round's id carries."""
    return hmac.new(key, _DEAL + f"{position}:{tried}".encode("ascii"), hashlib.sha256).hexdigest()[:16]


def proven(record: dict) -> dict:
    """What a proof covers of a result's portable record: what certification reads of it (and
    the class server's start of it, for a result sat in a class that keeps one)."""
    form = record.get("form") if isinstance(record.get("form"), dict) else {}
    answers = record.get("answers") if isinstance(record.get("answers"), list) else []
    opened = record.get("class_start")
    return {"uid": record.get("uid"), "trainee": record.get("trainee"), "form": form.get("digest"),
            "status": record.get("status"),
            "answers": [{"position": a.get("position"), "log": a.get("log")} if isinstance(a, dict)
                        else None for a in answers],
            **({"class_start": opened} if opened is not None else {})}


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
