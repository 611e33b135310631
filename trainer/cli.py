"""The engine's commands: `dealer-trainer settle|odds ...`, also run as `python -m trainer ...`.

    settle [--jsonl]     settle rounds given as JSON (../shared/spec/settle-contract.md)
    odds [--game G]      exact house edges
    grade SCENARIO --log LOG.json
                         grade a recorded action log (trainer.regrade)
    verify-results FILE --public-key KEY
                         check exam certificates (a certificates file or a progress file)
    class-server --data DIR [--host H] [--port N]
                         run a class's PostgreSQL server (trainer.progress.server.command)
    class-login NAME... --class URL
                         give trainees logins of their own in a class (an instructor's address)
    give-form FORM... --class URL
                         give exam forms to a class: exams with no sitting start at them
    export-results FILE|--class URL --format xapi|csv [--trainee NAME] [--out PATH] [--activity-base IRI]
                         results for the employer: xAPI statements or a CSV transcript
                         (trainer.progress.handoff)

`dealer-trainer` with no command opens the app (ui.main); these commands import no Qt, so they
start fast and run on machines with no display.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import sys
from decimal import Decimal

from trainer import __version__
from trainer.errors import DataError, RequestError
from trainer.procedure.model import Automation

EXIT_BAD_INPUT = 2
#: the largest settle request (one --jsonl line): a round of the largest game is a few kilobytes
MAX_REQUEST_CHARS = 1_000_000
EXIT_INTERNAL = 70  # a bug (sysexits' EX_SOFTWARE): never mistaken for "failed" (1) or bad input (2)


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line and exits 2, as every bad input does."""

    def error(self, message: str):
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="dealer-trainer", description="Dealer Trainer's engine commands.",
                epilog="Run dealer-trainer with no command to open the app.")
    p.add_argument("--version", action="version", version=f"dealer-trainer {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser, required=True)

    s = sub.add_parser("settle", help="settle a round given as JSON on stdin")
    s.add_argument("--jsonl", action="store_true", help="one request per line, one answer per line")

    c = sub.add_parser("check", help="validate scenario files (file:line: message on a problem)")
    c.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or folders")

    k = sub.add_parser("key", help="print a scenario's answer key: the expected procedure, cited")
    k.add_argument("scenario", metavar="SCENARIO", help="a scenario file, or a bundled scenario's id")
    k.add_argument("--json", action="store_true", help="print JSON instead of text")

    g = sub.add_parser("grade", help="grade a recorded action log against a scenario's key")
    g.add_argument("scenario", metavar="SCENARIO", help="a scenario file, or a bundled scenario's id")
    g.add_argument("--log", required=True, metavar="LOG.json",
                   help="the actions, as the app records them (a list, or an object with \"log\")")
    g.add_argument("--automation", choices=[a.value for a in Automation],
                   help="what the trainee did (default: the log's, else the scenario's)")
    g.add_argument("--json", action="store_true", help="print JSON instead of text")

    o = sub.add_parser("odds", help="exact house edge of every wager of a game")
    o.add_argument("--game", help="the game (default: every game and every paytable)")
    o.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a property option, such as sum_paytable=B")
    o.add_argument("--json", action="store_true", help="print JSON instead of a table")

    ik = sub.add_parser("instructor-key", help="make an instructor's key pair (private key sealed "
                        "under a passphrase, and PATH.pub to give to workstations and auditors)")
    ik.add_argument("name", help="the instructor's name, as certificates will show it")
    ik.add_argument("--out", required=True, metavar="PATH", help="the private key file to write")
    ik.add_argument("--passphrase-env", metavar="VAR",
                    help="read the passphrase from this environment variable (else it is asked)")

    st = sub.add_parser("sitting", help="issue a signed, one-time sitting: a file the trainee's "
                        "workstation opens to sit the exam")
    st.add_argument("--form", required=True, metavar="FORM.json", help="an exam form file")
    st.add_argument("--trainee", required=True, help="the trainee's name")
    st.add_argument("--key", required=True, metavar="KEY", help="your instructor key file")
    st.add_argument("--ledger", required=True, metavar="DB",
                    help="your progress file, which keeps the attempts issued")
    st.add_argument("--out", required=True, metavar="FILE", help="the sitting file to write")
    st.add_argument("--hours", type=float, default=4.0, help="how long it may be started (4)")
    st.add_argument("--unsealed", action="store_true", help="leave the form readable in the file "
                    "(by default it is sealed under a start code you give when the sitting starts)")
    st.add_argument("--passphrase-env", metavar="VAR", help="the key's passphrase, from this "
                    "environment variable (else it is asked)")
    class_option(st)  # joined: the class server counts the attempts and records the sitting

    ce = sub.add_parser("certify", help="re-grade a workstation's exam submission and sign a "
                        "certificate for each result")
    ce.add_argument("submission", metavar="SUBMISSION.json")
    ce.add_argument("--key", required=True, metavar="KEY", help="your instructor key file")
    ce.add_argument("--ledger", required=True, metavar="DB", help="the progress file that issued "
                    "the sittings")
    ce.add_argument("--out", required=True, metavar="CERTIFICATES.json")
    ce.add_argument("--passphrase-env", metavar="VAR", help="the key's passphrase, from this "
                    "environment variable (else it is asked)")
    class_option(ce)  # joined: the class server is asked first and keeps the certificates

    v = sub.add_parser("verify-results", help="check exam certificates with an instructor's public "
                       "key, or a progress file's results chain")
    v.add_argument("file", nargs="?", metavar="FILE",
                   help="a certificates file (a list of certificates) or a progress file (its "
                        "certificates), with --public-key")
    v.add_argument("--public-key", action="append", default=[], metavar="KEY",
                   help="an instructor's public key file (may be given more than once)")
    v.add_argument("--db", metavar="PATH", help="a progress file whose local results chain to check "
                   "(with --secret): an integrity check of the file, not evidence")
    v.add_argument("--secret", metavar="PATH",
                   help="the installation secret the results were written with")

    cs = sub.add_parser("class-server", help="run a class's PostgreSQL server on this machine and "
                        "print the address workstations join with (Ctrl+C stops it)")
    cs.add_argument("--data", required=True, metavar="DIR", help="the folder that keeps the class's data")
    cs.add_argument("--host", default="127.0.0.1",
                    help="the address to listen on (default 127.0.0.1, this machine only; 0.0.0.0: "
                         "every network)")
    cs.add_argument("--port", type=_port, default=5432, help="the port to listen on (default 5432)")

    cl = sub.add_parser("class-login", help="give trainees logins of their own in a class (an "
                        "instructor's --class address): exams with no sitting start for each only "
                        "with their password; a new password for a name that has a login")
    cl.add_argument("names", nargs="+", metavar="NAME", help="a trainee's name, as on their workstation")
    _required_class(cl)
    gf = sub.add_parser("give-form", help="give exam forms to a class (an instructor's --class "
                        "address): exams with no sitting start at a form given to the class only")
    gf.add_argument("forms", nargs="+", metavar="FORM", help="an exam form file (.json)")
    _required_class(gf)

    ex = sub.add_parser("export-results", help="write the results for the employer: xAPI statements "
                        "for a learning record store, or a CSV transcript for the personnel file")
    ex.add_argument("file", nargs="?", metavar="FILE", help="a progress file (or give --class)")
    class_option(ex)
    ex.add_argument("--format", required=True, choices=("xapi", "csv"),
                    help="xapi: a JSON list of xAPI statements; csv: a transcript, a row per attempt")
    ex.add_argument("--trainee", metavar="NAME", help="one trainee's results (default: everyone's)")
    ex.add_argument("--out", metavar="PATH", help="the file to write (default: standard output)")
    ex.add_argument("--home-page", type=_home_page, metavar="URL",
                    help="the address of the system the trainees' accounts are on, as xAPI "
                         "names them (default: the trainer's own)")
    ex.add_argument("--activity-base", type=_activity_base, metavar="IRI",
                    help="the school's or casino's IRI the activity ids are made under, e.g. "
                         "https://lms.example-casino.com/dealer-trainer/ (default: a placeholder)")
    return p


def _home_page(text: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or any(c.isspace() for c in text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a web address (http:// or https://...)")
    return text


def _activity_base(text: str) -> str:
    from trainer.progress.handoff import activity_base

    try:
        return activity_base(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _port(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (a whole number from 1 to 65535)")
    return int(text)


def _class_address(text: str):
    from trainer.progress.errors import ClassServerError
    from trainer.progress.server.address import class_address

    try:
        return class_address(text)
    except ClassServerError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _required_class(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--class", dest="class_address", type=_class_address, metavar="URL",
                        required=True, help="the class server's postgresql:// address with the "
                                            "instructor's login, as the class server printed it")


def class_option(parser: argparse.ArgumentParser) -> None:
    """`--class URL`: the class server the app joins (its address checked here, without
    connecting; the parsed value is a trainer.progress.server.address.ClassAddress)."""
    parser.add_argument("--class", dest="class_address", type=_class_address, metavar="URL",
                        help="join a class: its server's postgresql:// address, as the class "
                             "server printed it")


COMMANDS = ("settle", "odds", "check", "key", "grade", "instructor-key", "sitting", "certify",
            "verify-results", "class-server", "class-login", "give-form", "export-results")


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    for stream in (sys.stdout, sys.stderr):  # a lone surrogate in a request is escaped, not a crash
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    from trainer.exams.errors import ExamError
    from trainer.progress.errors import StoreError
    from trainer.scenario import ScenarioError

    try:
        return {"settle": _settle, "odds": _odds, "check": _check, "key": _key,
                "grade": _grade, "instructor-key": _instructor_key, "sitting": _sitting,
                "certify": _certify, "verify-results": _verify_results,
                "class-server": _class_server, "class-login": _class_login, "give-form": _give_form,
                "export-results": _export_results}[args.command](args)
    except (RequestError, DataError, ScenarioError, ExamError, StoreError) as e:
        print(f"{e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0
    except Exception as e:  # a bug: say so in one line, never a traceback
        if os.environ.get("DEALER_TRAINER_DEBUG"):
            raise
        print(f"dealer-trainer: internal error ({type(e).__name__}: {e}); "
              "set DEALER_TRAINER_DEBUG=1 for details", file=sys.stderr)
        return EXIT_INTERNAL


def _class_server(args) -> int:
    from trainer.exams.forms import bundled_forms
    from trainer.progress.server.command import serve

    forms = [(f.uid, f.digest, f.name, f.attempts_allowed) for f in bundled_forms()]
    return serve(args.data, args.host, args.port, say=lambda line: print(line, flush=True), forms=forms)


def _class_login(args) -> int:
    """Exit 0 with each trainee's login and password printed, 2 when the class refuses."""
    from trainer.progress.records import clean_name
    from trainer.progress.server.connection import ClassLedger
    from trainer.progress.server.logins import new_password

    names = [clean_name(n) for n in args.names]
    if not all(names):
        raise RequestError("NAME", "a trainee's name cannot be empty")
    ledger = ClassLedger(args.class_address)
    for n, name in enumerate(names):
        password = new_password()
        login = ledger.class_login(name, password)  # a refusal stops here, said in one line
        if n == 0:
            print(f"Logins in {ledger.address.database} (give each trainee their own line):")
        print(f"  {name}: password {password}  (login {login})", flush=True)
    return 0


def _give_form(args) -> int:
    from trainer.exams.classledger import give_to_class
    from trainer.exams.forms import read_form
    from trainer.progress.server.connection import ClassLedger

    ledger = ClassLedger(args.class_address)
    for path in args.forms:
        form = read_form(path)
        given = give_to_class(ledger, form)
        print(f"{form.name!r}: {'given to' if given else 'already given to'} the class, "
              f"{form.attempts_allowed} attempt{'s' if form.attempts_allowed != 1 else ''} each")
    return 0


def _export_results(args) -> int:
    """Exit 0 with the results written (whole, or no file at all), 2 when a file or the class
    cannot be read or the file cannot be written."""
    import io
    from pathlib import Path

    from trainer.paths import atomic_text
    from trainer.progress import handoff
    from trainer.progress.store import Store

    where = "dealer-trainer export-results"
    if (args.file is None) == (args.class_address is None):
        print(f"{where}: give a progress FILE or --class URL (one of them)", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.file is not None:
        if not Path(args.file).is_file():
            print(f"{where}: {args.file}: no such progress file", file=sys.stderr)
            return EXIT_BAD_INPUT
        with Store.open(args.file, allow_unavailable=True) as store:
            lines = handoff.file_lines(store, args.trainee)
    else:
        from trainer.progress.server.results import class_lines

        lines = class_lines(args.class_address, args.trainee)
    text = io.StringIO()
    n = handoff.write(lines, text, args.format, home_page=args.home_page or handoff.HOME_PAGE,
                      activity_base=args.activity_base or handoff.IRI)
    placeholder = args.format == "xapi" and args.activity_base is None  # said once, when written
    if args.out is None:
        sys.stdout.write(text.getvalue())
        if placeholder:
            print(handoff.PLACEHOLDER_NOTE, file=sys.stderr)
        return 0
    try:
        with atomic_text(args.out) as out:
            out.write(text.getvalue())
    except OSError as e:
        print(f"{where}: {args.out}: cannot be written ({e.strerror or e})", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"{args.out}: {n} attempt{'s' if n != 1 else ''} as "
          f"{'xAPI statements' if args.format == 'xapi' else 'a CSV transcript'}")
    if placeholder:
        print(handoff.PLACEHOLDER_NOTE, file=sys.stderr)
    return 0


def _loads(text: str):
    try:
        return json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as e:
        where = f"line {e.lineno}, column {e.colno}"
        raise RequestError("request", f"not valid JSON ({e.msg} at {where})") from None
    except RecursionError:
        raise RequestError("request", "JSON nested too deeply") from None
    except ValueError:  # an integer of more digits than Python converts
        raise RequestError("request", "a number too long to read (more than 4,300 digits)") from None


def _dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _settle(args) -> int:
    from trainer.settle import settle

    if not args.jsonl:
        text = sys.stdin.read(MAX_REQUEST_CHARS + 1)
        if len(text) > MAX_REQUEST_CHARS:
            raise RequestError("request", f"larger than {MAX_REQUEST_CHARS:,} characters; a request "
                                          "holds one round (use --jsonl for many)")
        response = settle(_loads(text))
        sys.stdout.write(json.dumps(response, ensure_ascii=False, indent=1) + "\n")
        return 0
    bad = 0
    out = sys.stdout
    # Answers make many small objects and no reference cycles; collecting cycles after every
    # 700 allocations (the default) costs a fifth of the run. Collect every 1,000 lines instead,
    # and leave what the imports made out of those collections (gc.freeze).
    gc.disable()
    gc.freeze()
    for n, line in enumerate(_lines(sys.stdin, MAX_REQUEST_CHARS), start=1):
        if n % 1000 == 0:
            gc.collect()
        try:
            if line is None:
                raise RequestError("request", f"a line longer than {MAX_REQUEST_CHARS:,} characters")
            if not line.strip():
                raise RequestError("request", "empty line")
            answer = _dump(settle(_loads(line)))
        except RequestError as e:
            bad += 1
            answer = _dump({"error": str(e)})
        except Exception as e:  # a bug must not stop the other lines from being answered
            if os.environ.get("DEALER_TRAINER_DEBUG"):
                raise
            bad += 1
            answer = _dump({"error": f"request: internal error ({type(e).__name__}: {e})"})
        out.write(answer + "\n")
    out.flush()
    gc.enable()
    return EXIT_BAD_INPUT if bad else 0


def _lines(stream, limit: int):
    """The lines of a stream, each at most `limit` characters; None for a longer one (read past
    in pieces, so a huge line costs no more memory than `limit`)."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) <= limit or line.endswith("\n"):
            yield line
            continue
        while line and not line.endswith("\n"):
            line = stream.readline(limit)
        yield None


def _odds(args) -> int:
    from trainer import odds

    options = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise RequestError(f"--option {item}", "expected KEY=VALUE, such as sum_paytable=B")
        options[key] = value
    if args.game is None:
        if options:
            raise RequestError("--option", "give --game with an option")
        reports = odds.every_report()
    else:
        reports = [odds.report(args.game, options, where="--game")]
    if args.json:
        payload = reports[0] if len(reports) == 1 else reports
        sys.stdout.write(json.dumps(payload, indent=1) + "\n")
    else:
        sys.stdout.write("\n\n".join(odds.render(r) for r in reports) + "\n")
    return 0


def _check(args) -> int:
    from pathlib import Path

    from trainer.procedure import build
    from trainer.scenario import ScenarioError, load

    files: list[Path] = []
    for raw in args.paths:
        path = Path(raw)
        if path.is_dir():
            files += sorted(path.rglob("*.toml"))
        elif path.exists():
            files.append(path)
        else:
            print(f"{raw}:1: no such file or folder", file=sys.stderr)
            files.append(None)
    bad = 0
    for path in files:
        if path is None:
            bad += 1
            continue
        try:
            build(load(path))
        except ScenarioError as e:
            print(str(e), file=sys.stderr)
            bad += 1
        except Exception as e:  # one bad file must not stop the check of the others
            print(f"{path}:1: cannot be checked ({type(e).__name__}: {e})", file=sys.stderr)
            bad += 1
    good = sum(1 for f in files if f is not None) - bad + sum(1 for f in files if f is None)
    print(f"{good} of {len(files)} scenario files are good", file=sys.stdout)
    return EXIT_BAD_INPUT if bad else 0


def _key(args) -> int:
    from trainer.answer_key import key_json, key_text

    scenario = _find_scenario(args.scenario)
    if args.json:
        sys.stdout.write(json.dumps(key_json(scenario), indent=1, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(key_text(scenario) + "\n")
    return 0


def _grade(args) -> int:
    """Exit 0 when the log passes, 1 when it fails, 2 when a file cannot be read."""
    from pathlib import Path

    from trainer.procedure import Automation
    from trainer.regrade import read_log, regrade, render, result_json

    scenario = _find_scenario(args.scenario)
    try:
        text = Path(args.log).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise RequestError(args.log, f"cannot be read ({e.strerror or e})") from None
    try:
        log, settings = read_log(_loads(text))
    except RequestError as e:
        raise RequestError(f"{args.log}: {e.field}", e.message) from None
    automation = Automation(args.automation) if args.automation else settings.get("automation")
    automation = automation or scenario.automation
    result = regrade(scenario, log, automation, settings.get("elapsed"))
    if args.json:
        sys.stdout.write(json.dumps(result_json(scenario, result, automation), indent=1,
                                    ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render(scenario, result, automation) + "\n")
    return 0 if result.score.passed else 1


def _find_scenario(arg: str):
    """A scenario file, or a bundled scenario found by file stem or id."""
    from pathlib import Path

    from trainer.paths import scenarios_dir
    from trainer.scenario import ScenarioError, load

    path = Path(arg)
    if not path.exists():
        by_id = [p for p in scenarios_dir().rglob("*.toml") if _scenario_id(p) == arg]
        found = by_id or [p for p in scenarios_dir().rglob("*.toml") if p.stem == arg]
        if not found:
            raise ScenarioError(arg, 1, "no such file, and no bundled scenario has this id")
        if len(found) > 1:
            names = ", ".join(sorted(f"{p.parent.name}/{p.stem}" for p in found))
            raise ScenarioError(arg, 1, f"more than one bundled scenario has this name ({names}); "
                                        "give its id or its file")
        path = found[0]
    return load(path)


def _scenario_id(path) -> str | None:
    import tomllib

    try:
        return tomllib.loads(path.read_text(encoding="utf-8")).get("id")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None


def _verify_results(args) -> int:
    """Exit 0 when every exam result verifies, 1 with one line per flagged result, 2 when the
    database or the secret cannot be read. Neither file is created: a missing one is an error."""
    from pathlib import Path

    from trainer.exams.errors import KeyFileError
    from trainer.exams.trust import read_installation_key, verify_results
    from trainer.progress.errors import StoreError
    from trainer.progress.store import Store

    where = "dealer-trainer verify-results"
    if args.file is not None or args.public_key:
        return _verify_certificates(args, where)
    if not args.db or not args.secret:
        print(f"{where}: give FILE --public-key KEY (certificates), or --db and --secret",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    if not Path(args.db).is_file():
        print(f"{where}: {args.db}: no such progress file", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        key = read_installation_key(args.secret)
        with Store.open(args.db, allow_unavailable=True) as store:
            problems = verify_results(store, key)
            count = store.query("SELECT count(*) AS n FROM (SELECT id FROM exam_results "
                                "UNION SELECT result_id FROM exam_chain)")[0]["n"]
    except (KeyFileError, StoreError) as e:
        print(f"{where}: {e}", file=sys.stderr)
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
        print(f"{where}: every record fails: is {args.secret} the installation secret this progress "
              "file was written with?", file=sys.stderr)
    return 1


def _verify_certificates(args, where: str) -> int:
    """Exit 0 when every certificate verifies with one of the public keys, 1 with a line per
    certificate that does not, 2 when a file cannot be read. No secret is needed."""
    from pathlib import Path

    from trainer.exams.certify import CertifyError, verification_code, verify_certificate
    from trainer.exams.errors import KeyFileError
    from trainer.exams.keys import read_public_key

    if args.file is None or not args.public_key:
        print(f"{where}: give the certificates FILE and at least one --public-key", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        keys = [read_public_key(k) for k in args.public_key]
    except KeyFileError as e:
        print(f"{where}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:  # floats as written: a certificate is signed over its canonical JSON
        if _is_sqlite(args.file):
            doc = _certificates_in(args.file)
        else:
            doc = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        print(f"{where}: {args.file}: cannot be read ({getattr(e, 'strerror', None) or e})",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    except (json.JSONDecodeError, RecursionError) as e:
        print(f"{where}: {args.file}: not JSON ({getattr(e, 'msg', 'nested too deeply')})",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    found = doc if isinstance(doc, list) else [doc]
    bad = 0
    for n, certificate in enumerate(found):
        try:
            body = verify_certificate(certificate, keys)
        except CertifyError as e:
            bad += 1
            print(f"certificate {n + 1}: {e}")
            continue
        verdict = "passed" if body.get("passed") else "did not pass"
        print(f"certificate {n + 1}: {body.get('trainee')}, {body.get('form', {}).get('name')}: "
              f"{verdict} ({body.get('total')}), signed by {body['signer']['name']} "
              f"({body['signer']['fingerprint']}), verification code "
              f"{verification_code(certificate)}")
    if bad:
        print(f"{bad} of {len(found)} certificates do not verify", file=sys.stderr)
        return 1
    print(f"{len(found)} certificate{'s' if len(found) != 1 else ''} verified")
    return 0


def _is_sqlite(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def _certificates_in(path: str) -> list:
    """The certificates a progress file holds, read on a connection that cannot write it."""
    import sqlite3
    from pathlib import Path

    try:
        db = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)
        try:
            rows = db.execute("SELECT certificate FROM exam_certificates ORDER BY id").fetchall()
        finally:
            db.close()
    except sqlite3.Error as e:
        raise OSError(f"not a progress file with certificates: {e}") from None
    return [json.loads(r[0]) for r in rows]


def _passphrase(args, *, new: bool = False) -> str:
    """The passphrase from --passphrase-env, or asked on the terminal (twice for a new key)."""
    import getpass

    if args.passphrase_env:
        value = os.environ.get(args.passphrase_env)
        if value is None:
            raise RequestError("--passphrase-env", f"the environment variable {args.passphrase_env} "
                                                   "is not set")
        return value
    if not sys.stdin.isatty():
        raise RequestError("--passphrase-env", "no terminal to ask the passphrase on: name an "
                                               "environment variable that holds it")
    first = getpass.getpass("Passphrase: ")
    if new and getpass.getpass("The same passphrase again: ") != first:
        raise RequestError("passphrase", "the two passphrases differ; nothing was written")
    return first


def _instructor_key(args) -> int:
    from pathlib import Path

    from trainer.exams.keys import InstructorKey, write_private_key, write_public_key
    from trainer.progress.records import clean_name

    name = clean_name(args.name)
    if not name:
        raise RequestError("name", "an instructor key needs the instructor's name")
    key = InstructorKey.generate(name)
    out = Path(args.out)
    public = out.with_name(out.name + ".pub")
    if public.exists():
        raise RequestError(str(public), "already exists; a key file is never overwritten")
    write_private_key(out, key, _passphrase(args, new=True))
    write_public_key(public, key.public)
    print(f"{out}: the private key of {name}, sealed under the passphrase: keep it on your machine")
    print(f"{public}: the public key to give to workstations and auditors")
    print(f"fingerprint: {key.public.fingerprint}")
    return 0


@contextlib.contextmanager
def _joined(args, ledger: str):
    """The class the command's `--class` names, as the app joins it (nothing pushed), or None."""
    if args.class_address is None:
        yield None
        return
    from trainer.progress.server.connection import ClassConnection

    classroom = ClassConnection(ledger, args.class_address)
    try:
        yield classroom
    finally:
        classroom.close()


def _sitting(args) -> int:
    from trainer.exams.certify import issue_sitting, sign_form, sitting_form
    from trainer.exams.forms import read_form
    from trainer.exams.keys import read_private_key
    from trainer.exams.submission import write_sitting_file
    from trainer.progress.store import Store

    form = read_form(args.form)
    if not 0 < args.hours <= 24 * 30:
        raise RequestError("--hours", "must be more than 0 and at most 720")
    key = read_private_key(args.key, _passphrase(args))
    with Store.open(args.ledger) as store, _joined(args, args.ledger) as classroom:
        token = issue_sitting(store, key, form, args.trainee, valid_for=args.hours * 3600,
                              classroom=classroom)
        shown = sitting_form(store, form, token)
    code = write_sitting_file(args.out, token, sign_form(shown, key), sealed=not args.unsealed)
    print(f"{args.out}: attempt {token['attempt']} of {form.attempts_allowed} at {form.name!r} for "
          f"{token['trainee']}, signed by {key.name} ({key.public.fingerprint})")
    if code:
        print(f"start code: {code}  (give it to the trainee when the sitting starts)")
    return 0


def _certify(args) -> int:
    """Exit 0 when every result was certified, 1 when some were refused (each named)."""
    from trainer.exams.keys import read_private_key
    from trainer.exams.submission import certify_submission, write_certificates
    from trainer.progress.store import Store

    key = read_private_key(args.key, _passphrase(args))
    with Store.open(args.ledger) as store, _joined(args, args.ledger) as classroom:
        summary = certify_submission(store, key, args.submission, classroom=classroom)
    write_certificates(args.out, summary.certificates)
    for c in summary.certificates:
        verdict = "passed" if c["passed"] else "did not pass"
        print(f"certified: {c['trainee']}, {c['form']['name']}, attempt {c['attempt']}: {verdict} "
              f"({c['total']})")
    for line in summary.refused:
        print(f"refused: {line}")
    print(f"{args.out}: {len(summary.certificates)} certificate"
          f"{'s' if len(summary.certificates) != 1 else ''}; {len(summary.refused)} refused")
    return 1 if summary.refused else 0
