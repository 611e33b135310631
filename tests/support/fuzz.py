"""The hostile-input fuzz: every engine command a trainee's file reaches (`settle`, `key`,
`grade`, `check`, `verify-results`) and every import (results files, exam forms, scenario files,
sitting files, exam submissions), each given thousands of hostile variants of valid input
(tests.support.hostile), run in this process through the command's entry (`trainer.cli.main`,
stdin and stdout redirected) or the function the app calls.

What counts as a failure (`Outcome.problem`):
- a command: exit 70 (an internal error), a traceback, an exit status the command never gives,
  an error exit with no message, or a message that does not name what is wrong (`check`'s
  "cannot be checked (SomeError: ...)" is an internal error in other words, and counts);
- an import: any exception but the one the app reports for a bad file (which names the file),
  or a file accepted that cannot be read back afterwards.

`fuzz(target, n, seed)` gives a Report: how each case ended, the failures with their case
number and input, the time. tests/test_hostile_input.py runs a few hundred cases of each in
the default run; tests/benchmarks/fuzz_hostile.py runs 5,000 of each.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.hostile import Mutator, dumps

#: how long one case may take before it is reported as slow (not a failure: a note)
SLOW_CASE = 5.0


@dataclass
class Outcome:
    kind: str  # how it ended: "exit 0", "exit 2", "refused", "imported" ...
    problem: str = ""  # what is wrong with how it ended; empty when nothing is


@dataclass
class Report:
    target: str
    count: int = 0
    outcomes: Counter = field(default_factory=Counter)
    failures: list[tuple[int, str, bytes]] = field(default_factory=list)  # (case, problem, input)
    seconds: float = 0.0
    slowest: tuple[float, int] = (0.0, -1)  # (seconds, case)

    def line(self) -> str:
        kinds = ", ".join(f"{k}: {n}" for k, n in sorted(self.outcomes.items()))
        return (f"{self.target:<16} {self.count:>6} cases  {len(self.failures):>4} failures  "
                f"{self.seconds:7.1f} s  slowest {self.slowest[0]:.2f} s (case {self.slowest[1]})"
                f"  [{kinds}]")

    def explain(self, limit: int = 5) -> str:
        """The summary line, then each kind of failure once (its count, first case and input)."""
        out = [self.line()]
        kinds: dict[str, list] = {}
        for case, problem, data in self.failures:
            kinds.setdefault(_kind(problem), []).append((case, problem, data))
        for kind, found in list(kinds.items())[:limit]:
            case, problem, data = found[0]
            out.append(f"  {len(found)} x {kind}\n  first, case {case}: {problem}\n"
                       f"    input: {data[:300]!r}")
        return "\n".join(out)


def _kind(problem: str) -> str:
    """A failure's kind: the exception at the end of its traceback, or its first line, without
    the values that change from case to case."""
    lines = [x for x in problem.strip().splitlines() if x.strip()]
    last = lines[-1] if len(lines) > 1 and not lines[-1].startswith(" ") else lines[0]
    return re.sub(r"(0x[0-9a-f]+|\d+|'[^']*'|\"[^\"]*\")", "…", last)[:160]


def fuzz(target: Target, n: int, seed: int = 29, *, only: int | None = None) -> Report:
    """Run `n` hostile cases of `target` from `seed` (or only case number `only`)."""
    report = Report(target.name)
    mutator = Mutator(seed)
    with tempfile.TemporaryDirectory(prefix=f"fuzz-{target.name}-") as tmp:
        target.prepare(Path(tmp))
        start = time.perf_counter()
        for case in range(n):
            data, run = target.case(mutator)
            if only is not None and case != only:
                continue
            t0 = time.perf_counter()
            try:
                outcome = run()
            except BaseException as e:  # the harness itself must not stop
                if isinstance(e, KeyboardInterrupt):
                    raise
                outcome = Outcome(f"raised {type(e).__name__}",
                                  f"uncaught {type(e).__name__}: {_short(e)}\n{_tail(e)}")
            took = time.perf_counter() - t0
            report.slowest = max(report.slowest, (took, case))
            report.count += 1
            report.outcomes[outcome.kind] += 1
            if outcome.problem:
                report.failures.append((case, outcome.problem, data))
        report.seconds = time.perf_counter() - start
        target.close()
    return report


# --- running a command in this process ----------------------------------------------------------


def run_cli(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    """`dealer-trainer ARGV` in this process: (exit status, stdout, stderr). Its stdin is UTF-8
    read strictly, as on a machine whose locale is not C.UTF-8 (Windows, PYTHONIOENCODING)."""
    from trainer.cli import main

    out, err = io.StringIO(), io.StringIO()
    old_in = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(argv)
            except SystemExit as e:
                rc = e.code if isinstance(e.code, int) else 2
    finally:
        sys.stdin = old_in
    return rc, out.getvalue(), err.getvalue()


def debug_trace(argv: list[str], stdin: bytes) -> str:
    """Where an exit 70 came from: the same command again with DEALER_TRAINER_DEBUG=1."""
    os.environ["DEALER_TRAINER_DEBUG"] = "1"
    try:
        run_cli(argv, stdin)
    except BaseException as e:  # the command raised instead of exiting
        return _tail(e)
    finally:
        del os.environ["DEALER_TRAINER_DEBUG"]
    return "(no exception the second time)"


_NAMED = re.compile(r"^\S[^\n]*?: \S")  # "field: message", "file:12: message", "prog: message"


def command_problem(argv, stdin, rc, out, err, allowed: set[int], *, quiet: bool = False) -> str:
    """What is wrong with how a command ended, or ""."""
    if rc == 70 or "internal error" in err or "internal error" in out:
        return f"exit {rc}: {err.strip()[:300]}\n{debug_trace(argv, stdin)}"
    if "Traceback" in err:
        return f"a traceback: {err[-500:]}"
    if rc not in allowed:
        return f"exit {rc}, which this command never gives: {err.strip()[:300]}"
    if rc == 2 and not quiet:
        lines = err.strip().splitlines()
        if not lines:
            return "exit 2 with no message"
        if len(lines) != 1:
            return f"exit 2 with {len(lines)} lines, not one: {err[:300]}"
        if not all(_NAMED.match(x) for x in lines):
            return f"a message that names no field or file: {lines[0][:200]}"
    return ""


# --- the targets --------------------------------------------------------------------------------


class Target:
    """One entry point under fuzz: `prepare` makes its valid inputs once, `case` makes one hostile
    input and returns (its bytes, what runs it)."""

    name = ""

    def prepare(self, folder: Path) -> None:
        self.folder = folder

    def case(self, m: Mutator) -> tuple[bytes, Callable[[], Outcome]]:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def write(self, data: bytes, name: str) -> Path:
        path = self.folder / name
        path.write_bytes(data)
        return path


def _scenario_texts() -> list[str]:
    from trainer.paths import scenarios_dir
    from trainer.scenario import bundled

    return [p.read_text(encoding="utf-8") for p in bundled(scenarios_dir())]


class Settle(Target):
    name = "settle"

    def prepare(self, folder):
        super().prepare(folder)
        from tests.support.hostile_seeds import settle_requests

        self.requests = settle_requests()

    def case(self, m):
        from trainer.commands.settle import MAX_REQUEST_CHARS

        if m.rng.random() < 0.15:  # --jsonl: a hostile line among good ones
            lines = [json.dumps(m.rng.choice(self.requests)).encode() for _ in range(m.rng.randrange(1, 4))]
            lines.insert(m.rng.randrange(len(lines) + 1), m.json_bytes(m.rng.choice(self.requests)))
            data, argv = b"\n".join(lines) + b"\n", ["settle", "--jsonl"]
        else:
            data, argv = m.json_bytes(m.rng.choice(self.requests), size_cap=MAX_REQUEST_CHARS), ["settle"]

        def run():
            rc, out, err = run_cli(argv, data)
            jsonl = argv[-1] == "--jsonl"  # its bad lines are answered on stdout
            problem = command_problem(argv, data, rc, out, err, {0, 2}, quiet=jsonl)
            if not problem and argv == ["settle"]:
                if rc == 2 and out:
                    problem = "exit 2, and something on stdout"
                if rc == 0:
                    json.loads(out)
            if not problem and jsonl:
                for line in out.splitlines():
                    answer = json.loads(line)
                    if "error" in answer and not _NAMED.match(answer["error"]):
                        problem = f"an error line that names no field: {line[:200]}"
            return Outcome(f"exit {rc}", problem)

        return data, run


class Key(Target):
    name = "key"

    def prepare(self, folder):
        super().prepare(folder)
        self.texts = _scenario_texts()

    def case(self, m):
        data = m.toml_bytes(m.rng.choice(self.texts))
        path = self.write(data, "scenario.toml")
        argv = [self.name, str(path), *(["--json"] if m.rng.random() < 0.5 else [])]

        def run():
            rc, out, err = run_cli(argv)
            return Outcome(f"exit {rc}", command_problem(argv, b"", rc, out, err, {0, 2}))

        return data, run


class Check(Key):
    name = "check"

    def case(self, m):
        data = m.toml_bytes(m.rng.choice(self.texts))
        path = self.write(data, "scenario.toml")
        argv = ["check", str(path)]

        def run():
            rc, out, err = run_cli(argv)
            problem = command_problem(argv, b"", rc, out, err, {0, 2})
            if not problem and "cannot be checked (" in err:
                problem = f"an internal error, reported as a problem of the file: {err.strip()[:300]}"
            if not problem and not re.fullmatch(r"\d+ of 1 scenario files are good\n", out):
                problem = f"no summary line: {out[:200]!r}"
            return Outcome(f"exit {rc}", problem)

        return data, run


class Supervise(Key):
    """Scenario files with [[fault]] entries, made hostile, through `supervise`."""

    name = "supervise"

    def prepare(self, folder):
        super().prepare(folder)
        from trainer.scenario import parse
        from trainer.supervise.catalogue import of_game
        from trainer.supervise.rounds import setting

        scripted = []
        for text in self.texts[::4]:
            rnd = setting(parse(text))
            kind = next(k for k in of_game(rnd.scenario.game) if k.sites(rnd))
            step = json.dumps(kind.sites(rnd)[0].id(rnd))
            scripted.append(f'{text}\n[[fault]]\nstep = {step}\nkind = "{kind.id}"\n')
        self.texts = scripted

    def case(self, m):
        data = m.toml_bytes(m.rng.choice(self.texts))
        path = self.write(data, "scenario.toml")
        argv = [self.name, str(path), "--faults", str(m.rng.randint(0, 3)), "--seed",
                str(m.rng.randint(0, 99)), *(["--json"] if m.rng.random() < 0.5 else [])]

        def run():
            rc, out, err = run_cli(argv)
            return Outcome(f"exit {rc}", command_problem(argv, b"", rc, out, err, {0, 2}))

        return data, run


class Grade(Target):
    name = "grade"

    def prepare(self, folder):
        super().prepare(folder)
        from tests.support.hostile_seeds import graded_logs

        self.logs = graded_logs()
        self.files = {sid: str(self.write(text.encode(), f"{sid}.toml")) for sid, text, _ in self.logs}

    def case(self, m):
        sid, text, log = m.rng.choice(self.logs)
        argv = ["grade", self.files[sid], "--log"]
        if m.rng.random() < 0.1:  # the scenario file is the hostile one
            data = m.toml_bytes(text)
            argv[1] = str(self.write(data, "scenario.toml"))
            log_path = self.write(json.dumps(log).encode(), "log.json")
        else:
            data = m.json_bytes(log)
            log_path = self.write(data, "log.json")
        argv += [str(log_path), *(["--json"] if m.rng.random() < 0.3 else [])]

        def run():
            rc, out, err = run_cli(argv)
            return Outcome(f"exit {rc}", command_problem(argv, b"", rc, out, err, {0, 1, 2}))

        return data, run


class _Imports(Target):
    """An import into a progress file: the app's call, its own error allowed (naming the file)."""

    allowed: tuple[type[BaseException], ...] = ()
    every = 100  # a fresh progress file every so many cases

    def prepare(self, folder):
        super().prepare(folder)
        self.n = 0
        self.store = None

    def fresh_store(self):
        from trainer.progress import Store

        if self.store is not None:
            self.store.close()
        for p in self.folder.glob("target.sqlite*"):
            p.unlink()
        self.store = Store.open(self.folder / "target.sqlite")
        self.ready(self.store)

    def ready(self, store) -> None:
        pass

    def close(self):
        if self.store is not None:
            self.store.close()

    def import_case(self, data: bytes, call: Callable[[Path], object], check=None):
        if self.n % self.every == 0:
            self.fresh_store()
        self.n += 1
        path = self.write(data, "import.json")

        def run():
            try:
                got = call(path)
            except self.allowed as e:
                message = str(e)
                if not message.strip() or "\n" in message.strip() or str(path) not in message:
                    return Outcome("refused", f"a message that does not name the file in one "
                                              f"line: {message[:300]!r}")
                return Outcome("refused")
            if check is not None:
                check(got)
            return Outcome("imported")

        return run


class ResultsImport(_Imports):
    name = "results-import"

    def prepare(self, folder):
        super().prepare(folder)
        from tests.support.hostile_seeds import results_file
        from trainer.progress import StoreError

        self.allowed = (StoreError,)
        self.doc = results_file(folder / "station.sqlite")

    def case(self, m):
        from trainer.progress import export_results, import_results

        data = m.json_bytes(self.doc)

        def check(summary):
            for line in summary.left_out:
                line.encode("utf-8")
            export_results(self.store, io.StringIO())  # what was imported reads back

        return data, self.import_case(data, lambda p: import_results(self.store, p), check)


class FormImport(_Imports):
    name = "form-import"

    def prepare(self, folder):
        super().prepare(folder)
        from tests.support.hostile_seeds import form_file
        from trainer.exams import ExamError

        self.allowed = (ExamError,)
        self.doc = form_file(supervise=True)  # a supervise item's entry is hostile too

    def case(self, m):
        from trainer.exams import get_form, import_form, list_forms

        if m.rng.random() < 0.3:  # one of its scenarios is the hostile part
            doc = json.loads(json.dumps(self.doc))
            item = m.rng.choice(doc["items"])
            item["toml"] = m.toml_bytes(item["toml"]).decode("utf-8", "surrogateescape")
            data = json.dumps(doc).encode()
        else:
            data = m.json_bytes(self.doc)

        def check(got):
            form, _ = got
            assert get_form(self.store, form.uid).digest == form.digest  # it reads back
            list_forms(self.store)

        return data, self.import_case(data, lambda p: import_form(self.store, p), check)


class ScenarioImport(Target):
    """A scenario file added to an exam form (ui.exams.forms.FormBuilder.add_from_file): read,
    then played through the rules engine."""

    name = "scenario-import"

    def prepare(self, folder):
        super().prepare(folder)
        self.texts = _scenario_texts()

    def case(self, m):
        from trainer import ScenarioError, build, load_scenario

        data = m.toml_bytes(m.rng.choice(self.texts))
        path = self.write(data, "item.toml")

        def run():
            try:
                build(load_scenario(path))
            except ScenarioError as e:
                if not str(e).startswith(f"{path}:") or "\n" in str(e).strip():
                    return Outcome("refused", f"a message that does not name the file and line: "
                                              f"{str(e)[:300]!r}")
                return Outcome("refused")
            return Outcome("read")

        return data, run


class SittingFile(Target):
    """A sitting file opened on the workstation and its exam started there
    (ui.exams.certify.Certification.sit, then start_exam). Its signer is whoever it names, so a
    hostile file is re-signed half the time (with a key of its own, as a trainee could) to reach
    what is read after the signatures."""

    name = "sitting-file"

    def prepare(self, folder):
        super().prepare(folder)
        from tests.support.hostile_seeds import sitting_files
        from trainer.exams import installation_key
        from trainer.progress import Store

        self.files, self.key = sitting_files(folder)
        with Store.open(folder / "workstation.sqlite") as ws:
            self.sam = ws.add_trainee("Sam Lee")
        self.secret = installation_key(folder / "installation.key")

    def started(self, token, form, code) -> Outcome:
        """The exam a sitting file grants, started on a copy of the workstation's file."""
        import shutil

        from trainer.exams import ExamError, start_exam
        from trainer.progress import Store, StoreError

        shutil.copy(self.folder / "workstation.sqlite", self.folder / "sitting.sqlite")
        with Store.open(self.folder / "sitting.sqlite") as ws:
            try:
                session = start_exam(ws, form, self.sam, self.secret, sitting=token, start_code=code)
            except (ExamError, StoreError):
                return Outcome("refused at the start")
            for p in range(len(session.form.items)):
                session.scenario(p)
            session.abandon()
        return Outcome("started")

    def case(self, m):
        from trainer.exams import ExamError
        from trainer.exams.submission import read_sitting_file

        doc, code = m.rng.choice(self.files)
        if "form" in doc and m.rng.random() < 0.5:
            data = dumps(self._resigned(m, doc)).encode()
        else:
            data = m.json_bytes(doc)
        path = self.write(data, "exam.sitting")
        given = code if m.rng.random() < 0.9 else m.rng.choice(
            ("", "AAAA-AAAA-AAAA-AAAA", "\ud800", "x" * 500))

        def run():
            try:
                _, token, form = read_sitting_file(path, given)
            except ExamError as e:
                if str(path) not in str(e):
                    return Outcome("refused", f"a message that does not name the file: {str(e)[:300]!r}")
                return Outcome("refused")
            return self.started(token, form, given)

        return data, run

    def _resigned(self, m: Mutator, doc: dict) -> dict:
        """The sitting file with its token or its form broken, then signed again."""
        from trainer.exams.certify import _signer

        doc = json.loads(json.dumps(doc))
        part = m.rng.choice(("sitting", "form"))
        body = {k: v for k, v in doc[part].items() if k != "signature"}
        if part == "form" and m.rng.random() < 0.6:
            body["form"] = m.json_doc(body["form"])
            if m.rng.random() < 0.5:  # its digest made to match, as a forger would
                with contextlib.suppress(Exception):
                    from trainer.exams.forms import form_from_json

                    body["digest"] = form_from_json(body["form"]).digest
        else:
            body = m.json_doc(body)
        if isinstance(body, dict):
            body["signer"] = _signer(self.key.public)
            with contextlib.suppress(Exception):  # a body that cannot be signed stays unsigned
                body = {**body, "signature": self.key.sign(body)}
        doc[part] = body
        if part == "sitting" and isinstance(doc.get("form"), dict):
            form = {k: v for k, v in doc["form"].items() if k != "signature"}
            form["signer"] = _signer(self.key.public)
            doc["form"] = {**form, "signature": self.key.sign(form)}
        return doc


class Submission(_Imports):
    """An exam submission certified by the instructor (ui.exams.certify.Certification.certify).
    A sitter's own app holds the proof key while the attempt runs, so a hostile record is
    re-proved half the time, to reach the re-grade behind the proof."""

    name = "submission"
    every = 1_000_000  # one ledger, put back as it was after a case that certified

    def prepare(self, folder):
        super().prepare(folder)
        from tests.support.hostile_seeds import submission
        from trainer.exams import ExamError
        from trainer.progress import StoreError

        self.allowed = (ExamError, StoreError)
        self.doc, self.key, self.ledger_path, self.codes, self.now = submission(folder)

    def fresh_store(self):
        """The ledger as it was before any case (a certified sitting is never changed again)."""
        import shutil

        from trainer.progress import Store

        if self.store is not None:
            self.store.close()
        else:
            shutil.copy(self.ledger_path, self.folder / "pristine.sqlite")
        shutil.copy(self.folder / "pristine.sqlite", self.ledger_path)
        # a copy of the file the last case began with: the cheap checks, as the app opens a file
        # (the full check of a file the fuzz never breaks proves nothing of the submission)
        self.store = Store.open(self.ledger_path, full_check=False)

    def case(self, m):
        from trainer.exams.proof import proof_key, prove
        from trainer.exams.submission import certify_submission

        doc = m.json_doc(self.doc)
        if m.rng.random() < 0.5:
            with contextlib.suppress(Exception):
                for entry in doc["results"]:
                    record, nonce = entry["record"], entry["sitting"]["nonce"]
                    record["proof"] = prove(proof_key(self.codes[nonce], nonce), record)

        data = dumps(doc).encode()
        if m.rng.random() < 0.1:
            data = m.bytes_(data)

        def check(summary):
            for line in summary.refused:
                line.encode("utf-8")
            if summary.certificates:  # the sittings usable again for the next case
                self.fresh_store()

        return data, self.import_case(
            data, lambda p: certify_submission(self.store, self.key, p, now=self.now), check)


class Certificates(Target):
    """`verify-results FILE --public-key KEY`: a certificates file checked with the public key
    alone. A third of the hostile files are signed again with the trusted key itself (as if it
    were stolen), to reach what is read after the signature."""

    name = "certificates"

    def prepare(self, folder):
        super().prepare(folder)
        from tests.support.hostile_seeds import certificates

        self.doc, self.public, self.key = certificates(folder)

    def case(self, m):
        from trainer.exams.certify import _signer

        if m.rng.random() < 0.33:
            doc = json.loads(json.dumps(self.doc))
            k = m.rng.randrange(len(doc))
            body = m.json_doc({k: v for k, v in doc[k].items() if k != "signature"})
            if isinstance(body, dict):
                body["signer"] = _signer(self.key.public)
                with contextlib.suppress(Exception):  # a body that cannot be signed stays unsigned
                    body = {**body, "signature": self.key.sign(body)}
            doc[k] = body
            data = dumps(doc).encode()
        else:
            data = m.json_bytes(self.doc)
        path = self.write(data, "certificates.json")
        argv = ["verify-results", str(path), "--public-key", str(self.public),
                *(["--require-pass"] if m.rng.random() < 0.2 else [])]

        def run():
            rc, out, err = run_cli(argv)
            return Outcome(f"exit {rc}", command_problem(argv, b"", rc, out, err, {0, 1, 2}))

        return data, run


TARGETS: dict[str, type[Target]] = {t.name: t for t in (
    Settle, Key, Check, Supervise, Grade, ResultsImport, FormImport, ScenarioImport, SittingFile, Submission,
    Certificates)}


def _short(e: BaseException) -> str:
    return str(e)[:300]


def _tail(e: BaseException) -> str:
    return "".join(traceback.format_exception(e)[-4:])[-1500:]


__all__ = ["TARGETS", "Outcome", "Report", "fuzz", "run_cli"]
