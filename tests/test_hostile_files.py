"""The second cold review's hostile files (its attacks/hostile_files.py, #42 and #43), each a test
that failed before its fix: a certificates file whose certificate names "trainee" twice (Python's
json read one trainee, SQLite's json_extract the other), 20,000 copies of one certificate counted
as 20,000, a named pipe, /dev/zero, a recursive view and a number where a certificate belongs.
Every file a certificate, submission, sitting or results file is read from goes through
trainer.files: a regular file only, read up to a cap, JSON that names each key once.

The commands that hung or filled memory before their fix run in a subprocess bounded in memory
(and in time, only so that a hang fails the test instead of the run); each passes by the exit
status and the one line it prints, never by how long it took."""

from __future__ import annotations

import json
import os
import resource
import sqlite3
import subprocess
import sys

import pytest

from tests.support.exams import PASS
from tests.support.fuzz import run_cli
from tests.support.paths import ROOT


@pytest.fixture(scope="module")
def signed(tmp_path_factory):
    """Two certificates (Sam Lee passed, then failed), the public key file, the signing key."""
    from tests.support.hostile_seeds import certificates

    return certificates(tmp_path_factory.mktemp("certified"))


def bounded(*argv: str, env: dict | None = None) -> tuple[int, str, str]:
    """`python -m trainer ARGV` in a subprocess of at most 2 GiB: (exit status, stdout, stderr)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    done = subprocess.run([sys.executable, "-m", "trainer", *argv], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, **(env or {})}, preexec_fn=limit,
                          timeout=60)
    return done.returncode, done.stdout, done.stderr


def twice(text: str, key: str) -> str:
    """JSON text whose outermost object names `key` a second time, first (null)."""
    return text.replace("{", '{' + json.dumps(key) + ': null, ', 1)


def refused(rc: int, out: str, err: str, path, why: str) -> None:
    """Exit 2, nothing on stdout, and one line on stderr naming the file and why."""
    assert (rc, out) == (2, ""), (rc, out, err)
    assert len(err.splitlines()) == 1 and f"{path}: " in err and why in err, err


# --- #43: what is not a regular file, or larger than any ---------------------------------------


def test_verify_results_refuses_a_named_pipe_without_waiting_on_it(tmp_path, signed):
    """It waited for a writer that never came."""
    _, public, _ = signed
    fifo = tmp_path / "certificates.json"
    os.mkfifo(fifo)
    refused(*bounded("verify-results", str(fifo), "--public-key", str(public)), fifo,
            "not a regular file (a named pipe)")


def test_verify_results_refuses_a_device_without_reading_it(tmp_path, signed):
    """/dev/zero, named as a certificates file: read until memory ran out, exit 70."""
    _, public, _ = signed
    zero = tmp_path / "certificates.json"
    zero.symlink_to("/dev/zero")
    refused(*bounded("verify-results", str(zero), "--public-key", str(public)), zero,
            "not a regular file (a device)")


def test_verify_results_refuses_a_progress_file_whose_certificates_are_an_endless_view(
        tmp_path, signed):
    """exam_certificates made a recursive view: the query never ended."""
    _, public, _ = signed
    path = tmp_path / "progress.sqlite"
    db = sqlite3.connect(path)
    db.executescript("CREATE VIEW exam_certificates AS WITH RECURSIVE r(id, certificate) AS "
                     "(SELECT 1, '{}' UNION ALL SELECT id + 1, '{}' FROM r) SELECT * FROM r;")
    db.close()
    refused(*bounded("verify-results", str(path), "--public-key", str(public)), path,
            "its exam_certificates is a view, not a table")


def test_certify_refuses_a_named_pipe_without_waiting_on_it(tmp_path, signed):
    from trainer.exams.keys import write_private_key

    _, _, ivy = signed
    write_private_key(tmp_path / "ivy.key", ivy, PASS)
    fifo = tmp_path / "submission.json"
    os.mkfifo(fifo)
    rc, out, err = bounded("certify", str(fifo), "--key", str(tmp_path / "ivy.key"), "--ledger",
                           str(tmp_path / "ledger.sqlite"), "--out", str(tmp_path / "c.json"),
                           "--passphrase-env", "IVY_PASS", env={"IVY_PASS": PASS})
    assert rc == 2 and "not a regular file (a named pipe)" in out + err, (rc, out, err)
    assert not (tmp_path / "c.json").exists()


def test_verify_results_refuses_a_certificates_file_over_its_cap(tmp_path, signed, monkeypatch):
    """Nothing bounded what it read: the cap is a submission's (64 MiB), made small here."""
    from trainer.exams import submission

    certificates, public, _ = signed
    path = tmp_path / "certificates.json"
    path.write_text(json.dumps(certificates))
    monkeypatch.setattr(submission, "MAX_FILE_BYTES", path.stat().st_size - 1)
    refused(*run_cli(["verify-results", str(path), "--public-key", str(public)]), path,
            f"larger than {path.stat().st_size - 1:,} bytes")
    monkeypatch.setattr(submission, "MAX_FILE_BYTES", path.stat().st_size)
    assert run_cli(["verify-results", str(path), "--public-key", str(public)])[0] == 0


def test_verify_results_names_a_progress_file_certificate_that_is_a_number(tmp_path, signed):
    """An integer in exam_certificates.certificate: json.loads(5) raised TypeError, exit 70."""
    certificates, public, _ = signed
    path = tmp_path / "progress.sqlite"
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE exam_certificates (id INTEGER PRIMARY KEY, certificate);")
    db.execute("INSERT INTO exam_certificates VALUES (1, ?), (2, 5)", (json.dumps(certificates[0]),))
    db.commit()
    db.close()
    refused(*run_cli(["verify-results", str(path), "--public-key", str(public)]), path,
            "certificate 2: not a certificate (a number, not JSON text)")


# --- #42: a key named twice, a certificate repeated --------------------------------------------


def test_verify_results_refuses_a_certificate_that_names_its_trainee_twice(tmp_path, signed):
    """json kept the last "trainee" (the signed one: "1 certificate verified"); SQLite's
    json_extract reads the first, "Ana Ruiz", from the same file."""
    certificates, public, _ = signed
    text = json.dumps(certificates[:1]).replace('"trainee": "', '"trainee": "Ana Ruiz", "trainee": "', 1)
    path = tmp_path / "certificates.json"
    path.write_text(text)
    db = sqlite3.connect(":memory:")
    assert db.execute("SELECT json_extract(?, '$[0].trainee')", (text,)).fetchone() == ("Ana Ruiz",)
    refused(*run_cli(["verify-results", str(path), "--public-key", str(public)]), path,
            'not a certificates file (the key "trainee" appears twice in one object)')
    # the same certificate kept in a progress file
    progress = tmp_path / "progress.sqlite"
    db = sqlite3.connect(progress)
    db.executescript("CREATE TABLE exam_certificates (id INTEGER PRIMARY KEY, certificate TEXT);")
    db.execute("INSERT INTO exam_certificates VALUES (1, ?)", (text[1:-1],))
    db.commit()
    db.close()
    refused(*run_cli(["verify-results", str(progress), "--public-key", str(public)]), progress,
            'certificate 1: the key "trainee" appears twice in one object')


def test_a_certificate_repeated_is_counted_once_and_said(tmp_path, signed):
    """20,000 copies of one certificate printed "20000 certificates verified"."""
    certificates, public, _ = signed
    passed, failed = certificates
    path = tmp_path / "certificates.json"
    reordered = json.loads(json.dumps(passed), object_pairs_hook=lambda p: dict(reversed(p)))
    path.write_text(json.dumps([passed] * 3 + [failed, reordered, failed]))
    rc, out, err = run_cli(["verify-results", str(path), "--public-key", str(public)])
    assert rc == 0, err
    assert out.splitlines()[-1] == ("2 certificates verified: 1 passed, 1 did not pass (4 repeated, "
                                    "counted once)")
    assert [line.split(":")[0] for line in out.splitlines()[:-1]] == ["certificate 1", "certificate 4"]


@pytest.mark.parametrize("kind", ["submission", "sitting file", "results file", "public key",
                                  "exam form"])
def test_every_file_a_certificate_is_made_from_refuses_a_key_named_twice(tmp_path, signed, kind):
    """A submission, a sitting file, a results file, a public key file and an exam form each
    naming their "version" twice: read before as whichever value json kept."""
    from tests.support.hostile_seeds import results_file, submission
    from trainer.exams import KeyFileError
    from trainer.exams.certify import CertifyError
    from trainer.exams.keys import read_public_key
    from trainer.exams.submission import read_sitting_file
    from trainer.progress import ResultsFileError, Store, import_results

    _, public, ivy = signed
    path = tmp_path / "hostile.json"
    if kind == "submission":
        from trainer.exams.submission import certify_submission

        doc, key, ledger_path, _, now = submission(tmp_path)
        path.write_text(twice(json.dumps(doc), "version"))
        with Store.open(ledger_path) as ledger, pytest.raises(CertifyError) as e:
            certify_submission(ledger, key, path, now=now)
    elif kind == "sitting file":
        from tests.support.exams import form, issuer
        from trainer.exams.certify import issue_sitting, sign_form
        from trainer.exams.submission import write_sitting_file

        issuer(ivy)
        with Store.open(tmp_path / "ledger.sqlite") as ledger:
            token = issue_sitting(ledger, ivy, form(), "Sam Lee")
        write_sitting_file(tmp_path / "s.json", token, sign_form(form(), ivy), sealed=False, key=ivy)
        path.write_text(twice((tmp_path / "s.json").read_text(), "version"))
        with pytest.raises(CertifyError) as e:
            read_sitting_file(path)
    elif kind == "results file":
        path.write_text(twice(json.dumps(results_file(tmp_path / "station.sqlite")), "version"))
        with Store.open(tmp_path / "other.sqlite") as store, pytest.raises(ResultsFileError) as e:
            import_results(store, path)
    elif kind == "public key":
        path.write_text(twice(public.read_text(), "version"))
        with pytest.raises(KeyFileError) as e:
            read_public_key(path)
    else:
        from tests.support.hostile_seeds import form_file
        from trainer.exams.errors import FormFileError
        from trainer.exams.forms import read_form

        path.write_text(twice(json.dumps(form_file()), "version"))
        with pytest.raises(FormFileError) as e:
            read_form(path)
    assert str(path) in str(e.value) and 'the key "version" appears twice' in str(e.value), e.value


@pytest.mark.parametrize("what", ["a named pipe", "a folder", "a device"])
def test_a_file_that_is_not_a_regular_file_is_refused_before_it_is_opened(tmp_path, what):
    """trainer.files, under every reader above: what is not a regular file is never opened (a
    named pipe would wait for a writer, a device be read for ever)."""
    from trainer import files

    path = tmp_path / "x.json"
    if what == "a named pipe":
        os.mkfifo(path)
    elif what == "a folder":
        path.mkdir()
    else:
        path.symlink_to("/dev/zero")
    with pytest.raises(files.FileRefused, match=f"^not a regular file \\({what}\\)$"):
        files.read_capped(path, 10)
    with pytest.raises(FileNotFoundError):
        files.read_capped(tmp_path / "missing.json", 10)
    (tmp_path / "ok.json").write_bytes(b"0123456789")
    assert files.read_capped(tmp_path / "ok.json", 10) == b"0123456789"
    with pytest.raises(files.FileRefused, match=r"^larger than 9 bytes$"):
        files.read_capped(tmp_path / "ok.json", 9)


def test_a_certificate_kept_in_a_progress_file_naming_its_trainee_twice_is_left_out_and_named(
        tmp_path, signed):
    """The instructor's own file edited with the sqlite3 command: the app read the certificate
    as json kept it (the signed trainee) while json_extract on the same row reads "Ana Ruiz"."""
    import shutil

    from trainer.exams.certify import certificates
    from trainer.progress import Store

    _, public, _ = signed
    path = tmp_path / "ledger.sqlite"
    shutil.copy(public.parent / "ledger.sqlite", path)
    db = sqlite3.connect(path)
    [(trigger,)] = db.execute("SELECT sql FROM sqlite_master WHERE name = "
                              "'exam_certificates_no_update'").fetchall()
    db.executescript("DROP TRIGGER exam_certificates_no_update; UPDATE exam_certificates SET "
                     "certificate = replace(certificate, '\"trainee\":', '\"trainee\": \"Ana Ruiz\", "
                     "\"trainee\":') WHERE id = (SELECT min(id) FROM exam_certificates);")
    db.executescript(trigger + ";")
    assert db.execute("SELECT json_extract(certificate, '$.trainee') FROM exam_certificates "
                      "ORDER BY id").fetchall() == [("Ana Ruiz",), ("Sam Lee",)]
    db.close()
    with Store.open(path) as store:
        assert [c["trainee"] for c in certificates(store)] == ["Sam Lee"]
        [(what, error)] = store.unreadable.items()
        assert what == "certificate 1"
        assert 'the key "trainee" appears twice in one object' in str(error), error
