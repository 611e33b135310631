"""`dealer-trainer verify-results FILE --public-key KEY`: check exam certificates (a certificates
file, or the certificates a progress file keeps) with instructors' public keys; or
`verify-results --db PATH --secret PATH`: check a progress file's local results chain."""

from __future__ import annotations

import json
import sys

from trainer.commands._shared import EXIT_BAD_INPUT

NAME = "verify-results"
HELP = ("check exam certificates with an instructor's public key, or a progress file's results "
        "chain")
WHERE = f"dealer-trainer {NAME}"


def add_arguments(parser) -> None:
    parser.add_argument("file", nargs="?", metavar="FILE",
                        help="a certificates file (a list of certificates) or a progress file (its "
                             "certificates), with --public-key")
    parser.add_argument("--public-key", action="append", default=[], metavar="KEY",
                        help="an instructor's public key file (may be given more than once)")
    parser.add_argument("--db", metavar="PATH", help="a progress file whose local results chain to "
                        "check (with --secret): an integrity check of the file, not evidence")
    parser.add_argument("--secret", metavar="PATH",
                        help="the installation secret the results were written with")
    parser.add_argument("--require-pass", action="store_true",
                        help="exit 1 also when a certificate verifies but did not pass")


def run(args) -> int:
    """Exit 0 when every exam result verifies, 1 with one line per flagged result, 2 when the
    database or the secret cannot be read. Neither file is created: a missing one is an error."""
    from pathlib import Path

    from trainer.exams.errors import KeyFileError
    from trainer.exams.trust import read_installation_key, verify_results
    from trainer.progress.errors import StoreError
    from trainer.progress.store import Store

    if args.file is not None or args.public_key:
        return _verify_certificates(args)
    if not args.db or not args.secret:
        print(f"{WHERE}: give FILE --public-key KEY (certificates), or --db and --secret",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    if not Path(args.db).is_file():
        print(f"{WHERE}: {args.db}: no such progress file", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        key = read_installation_key(args.secret)
        with Store.open(args.db, allow_unavailable=True) as store:
            problems = verify_results(store, key)
            count = store.query("SELECT count(*) AS n FROM (SELECT id FROM exam_results "
                                "UNION SELECT result_id FROM exam_chain)")[0]["n"]
    except (KeyFileError, StoreError) as e:
        print(f"{WHERE}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not problems:
        print(f"{count} exam result{'s' if count != 1 else ''} verified")
        return 0
    by_result: dict[int, list] = {}
    for p in problems:
        by_result.setdefault(p.result_id, []).append(p)
    for rid, found in by_result.items():
        label = f" ({found[0].label})" if found[0].label else ""
        print(f"exam result {rid}{label}: {'; '.join(p.message for p in found)}")
    print(f"{len(by_result)} of {count} exam results flagged", file=sys.stderr)
    if len(by_result) == count and all("HMAC" in p.message for p in problems):
        print(f"{WHERE}: every record fails: is {args.secret} the installation secret this progress "
              "file was written with?", file=sys.stderr)
    return 1


def _verify_certificates(args) -> int:
    """Exit 0 when every certificate verifies with one of the public keys, 1 with a line per
    certificate that does not (or when there is none; with --require-pass, also when one did not
    pass), 2 when a file cannot be read. No secret is needed."""
    from trainer import files
    from trainer.errors import one_line
    from trainer.exams.certify import CertifyError, verification_code, verify_certificate
    from trainer.exams.errors import KeyFileError
    from trainer.exams.keys import read_public_key
    from trainer.exams.submission import MAX_FILE_BYTES
    from trainer.policy import rule

    if args.file is None or not args.public_key:
        print(f"{WHERE}: give the certificates FILE and at least one --public-key", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        keys = [read_public_key(k) for k in args.public_key]
    except KeyFileError as e:
        print(f"{WHERE}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:  # floats as written: a certificate is signed over its canonical JSON
        if _is_sqlite(args.file):
            doc = _certificates_in(args.file, MAX_FILE_BYTES)
        else:
            doc = files.loads(files.read_capped(args.file, MAX_FILE_BYTES).decode("utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        print(f"{WHERE}: {args.file}: cannot be read ({getattr(e, 'strerror', None) or e})",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    except files.FileRefused as e:
        print(f"{WHERE}: {args.file}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except files.DuplicateKey as e:  # two readers would read two certificates from one file
        print(f"{WHERE}: {args.file}: not a certificates file ({e})", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (ValueError, RecursionError) as e:  # not JSON, too deep, or a number too long to read
        why = (e.msg if isinstance(e, json.JSONDecodeError) else "nested too deeply"
               if isinstance(e, RecursionError) else "a number too long to read")
        print(f"{WHERE}: {args.file}: not JSON ({why})", file=sys.stderr)
        return EXIT_BAD_INPUT
    found = doc if isinstance(doc, list) else [doc]
    if not found:
        print(f"{WHERE}: {args.file}: holds no certificate: nothing verified", file=sys.stderr)
        return 1
    bad, failed, seen, repeated = 0, [], set(), 0
    for n, certificate in enumerate(found):
        copy = json.dumps(certificate, sort_keys=True)
        if copy in seen:  # one certificate is one result, however often the file holds it
            repeated += 1
            continue
        seen.add(copy)
        try:
            body = verify_certificate(certificate, keys)
        except CertifyError as e:
            bad += 1
            print(f"certificate {n + 1}: {e}")
            continue
        verdict = "passed" if body.get("passed") is True else "did not pass"
        if verdict != "passed":
            failed.append(n + 1)
        graded = rule(body["rule"].get("number") if isinstance(body.get("rule"), dict) else None)
        form, signer = (x if isinstance(x, dict) else {} for x in (body.get("form"), body["signer"]))
        print(one_line(f"certificate {n + 1}: {body.get('trainee')}, {form.get('name')}: {verdict} "
                       f"({body.get('total')}, pass rule {graded.number or '?'}), signed by "
                       f"{signer.get('name')} ({signer.get('fingerprint')}), verification code "
                       f"{verification_code(certificate)}"))
    again = f" ({repeated} repeated, counted once)" if repeated else ""
    if bad:
        print(f"{bad} of {len(seen)} certificates do not verify{again}", file=sys.stderr)
        return 1
    verified = len(seen)
    print(f"{verified} certificate{'s' if verified != 1 else ''} verified: {verified - len(failed)} "
          f"passed, {len(failed)} did not pass{again}")
    if args.require_pass and failed:
        print(f"{WHERE}: --require-pass: certificate{'s' if len(failed) > 1 else ''} "
              f"{', '.join(map(str, failed))} did not pass", file=sys.stderr)
        return 1
    return 0


def _is_sqlite(path: str) -> bool:
    """Whether the file begins as SQLite's do; a file that is not a regular file is left to the
    JSON reader to refuse, without being opened here."""
    from trainer import files

    try:
        with files.open_regular(path) as f:
            return f.read(16) == b"SQLite format 3\x00"
    except (OSError, files.FileRefused):
        return False


def _certificates_in(path: str, cap: int) -> list:
    """The certificates a progress file holds, read on a connection that cannot write it, from
    its table (a view could be endless), `cap` characters of them at most, each JSON text naming
    no key twice; files.FileRefused naming the certificate otherwise, OSError when it cannot be
    read."""
    import sqlite3
    from pathlib import Path

    from trainer import files

    found, size = [], 0
    try:
        db = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)
        try:
            kind = db.execute("SELECT type, sql FROM sqlite_master WHERE name = 'exam_certificates'"
                              ).fetchone()
            if kind is None:
                raise files.FileRefused("not a progress file with certificates (it has no "
                                        "exam_certificates table)")
            if kind[0] != "table" or not str(kind[1]).startswith("CREATE TABLE"):
                what = "a virtual table" if kind[0] == "table" else f"a {kind[0]}"
                raise files.FileRefused(f"not a progress file (its exam_certificates is {what}, "
                                        "not a table)")
            rows = db.execute("SELECT certificate FROM exam_certificates ORDER BY id")
            for n, (text,) in enumerate(rows, 1):
                if not isinstance(text, str):
                    held = {int: "a number", float: "a number", bytes: "bytes"}.get(type(text), "null")
                    raise files.FileRefused(f"certificate {n}: not a certificate ({held}, not JSON "
                                            "text)")
                size += len(text)
                if size > cap:
                    raise files.FileRefused(f"its certificates hold more than {cap:,} characters")
                try:
                    found.append(files.loads(text))
                except files.DuplicateKey as e:  # SQLite's json_extract reads the first, json the last
                    raise files.FileRefused(f"certificate {n}: {e}") from None
                except (ValueError, RecursionError):
                    raise files.FileRefused(f"certificate {n}: not JSON") from None
        finally:
            db.close()
    except sqlite3.Error as e:
        raise OSError(f"not a progress file with certificates: {e}") from None
    return found
