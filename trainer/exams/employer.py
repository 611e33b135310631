"""Exam results for the employer: certificates only, each checked with an instructor's public key
when it is exported (`dealer-trainer export-results --public-key KEY`).

An exam attempt row (in a progress file or on the class server) is what a workstation says; a
certificate is what the instructor signed after grading every item again from its log. So the
export (trainer.progress.handoff) leaves exam attempts out and writes each certificate that
verifies, as a `Certified`: its trainee, form, verdict, total, when it was signed, its signer
(named as the caller's trusted key names them), the key's fingerprint and the verification code
printed on the paper. A certificate that does not verify is left out and named, never written.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from trainer.exams.certify import CertifyError, trusted_signer, verification_code, verify_certificate
from trainer.exams.keys import PublicKey
from trainer.progress.handoff import Certified
from trainer.progress.records import clean_name


class Checked(NamedTuple):
    """The certificates that verify, as the export writes them, and a line for each left out."""

    certified: list[Certified]
    left_out: list[str]


def _who(doc: object) -> str:
    if not isinstance(doc, dict):
        return "a certificate"
    trainee, result = doc.get("trainee"), doc.get("result")
    return (f"the certificate of {trainee if isinstance(trainee, str) else '?'} "
            f"({result if isinstance(result, str) else 'no result id'})")


def certified(certificates: Iterable[object], trusted: Sequence[PublicKey],
              trainee: str | None = None) -> Checked:
    """Each certificate that verifies with one of `trusted`, as a `Certified`, oldest first; one
    trainee's (by their name as the app cleans it) when `trainee` is given. A certificate kept
    twice (a file and the class both) is written once."""
    wanted = None if trainee is None else clean_name(trainee)
    out: dict[str, Certified] = {}
    left_out: list[str] = []
    for doc in certificates:
        try:
            body = verify_certificate(doc, trusted)
            item = _certified(doc, body, trusted_signer(doc, trusted))  # type: ignore[arg-type]
        except CertifyError as e:
            left_out.append(f"{_who(doc)}: {e}; left out")
            continue
        if wanted is not None and clean_name(item.trainee) != wanted:
            continue
        out.setdefault(item.result, item)
    return Checked(sorted(out.values(), key=lambda c: c.certified), left_out)


def _certified(doc: dict, body: dict, key: PublicKey | None) -> Certified:
    """The certificate's fields, each of the kind it must be (a signed certificate from another
    version may lack one): CertifyError names the first that is not."""
    given = body.get("form")
    form: dict = given if isinstance(given, dict) else {}
    return Certified(trainee=_field(body, "trainee", str), result=_field(body, "result", str),
                     form=_field(form, "name", str, "form.name"),
                     form_uid=_field(form, "uid", str, "form.uid"),
                     certified=float(_field(body, "certified", float)), status=_field(body, "status", str),
                     passed=_field(body, "passed", bool), total=_field(body, "total", int),
                     signer=key.name if key else "?", fingerprint=key.fingerprint if key else "?",
                     code=verification_code(doc),
                     sat=None if body.get("sat") is None else float(_field(body, "sat", float)))


def _field(doc: dict, name: str, kind: type, shown: str | None = None):
    value = doc.get(name)
    fits = {str: isinstance(value, str),
            bool: isinstance(value, bool),
            int: isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 100,
            float: isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value < 1e11}[kind]
    if not fits:
        raise CertifyError(f"its {shown or name} is {value!r}, not {KINDS[kind]}")
    return value


KINDS = {str: "text", bool: "true or false", int: "a total from 0 to 100", float: "a time"}
