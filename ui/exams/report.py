"""The printed report of an exam result: a PDF a casino can put in a personnel file.

It is laid out as HTML in a QTextDocument and printed with QPdfWriter (US Letter, 20 mm margins):
the trainee, the form, date and time taken, pass or fail with the score parts, every finding with
its citation, and the sign-off."""

from __future__ import annotations

import html
from datetime import datetime
from pathlib import Path

from trainer import __version__, policy, readable

CSS = """
body { font-family: 'DejaVu Serif', serif; font-size: 10.5pt; color: #111; }
h1 { font-size: 17pt; margin-bottom: 0; color: #0b3d27; }
.sub { color: #444; margin-top: 2px; }
table.facts td { padding: 2px 12px 2px 0; }
table.scores { border-collapse: collapse; margin-top: 6px; }
table.scores th, table.scores td { border: 1px solid #999; padding: 4px 10px; }
th { background: #ece7d8; }
.pass { color: #146c2e; font-weight: bold; font-size: 15pt; }
.fail { color: #a11d1d; font-weight: bold; font-size: 15pt; }
.small { font-size: 8.5pt; color: #444; }
"""


SUPERVISOR = "<p><br>Supervisor: ______________________________ &nbsp;&nbsp; Date: ______________</p>"


def _when(t: float | None) -> str:
    return datetime.fromtimestamp(t).strftime("%Y-%m-%d %H:%M") if t else "—"


def heading(r: dict) -> str:
    """What the paper is: a certificate only when a certified result passed; a failed one
    certified is a certified result, and one not certified a result."""
    if r.get("certificate"):
        return "Certificate" if r["passed"] else "Certified result (not passed)"
    return "Result"


#: the exam's name on the paper, by the roles its form certifies (trainer.exams' Form.roles)
EXAM_TITLES = {("dealer",): "Dealer Certification Exam",
               ("supervisor",): "Supervisor Certification Exam",
               ("dealer", "supervisor"): "Dealer and Supervisor Certification Exam"}


def exam_title(r: dict) -> str:
    """What exam the paper reports: by its form's roles; a dealer's exam when they are not
    known (a certificate signed before supervise items, or a form this file does not keep)."""
    roles = r.get("roles")
    return EXAM_TITLES.get(tuple(roles) if isinstance(roles, list) else ("dealer",),
                           EXAM_TITLES[("dealer",)])


def faults_html(faults: list[dict] | None) -> str:
    """A supervise item's faults, each caught or missed, with its section (nothing for a
    dealer's item)."""
    if faults is None:
        return ""
    lines = "".join(
        f"<li><b>{'Caught' if f['caught'] else 'Missed'}</b>: {html.escape(readable(f['words']))} "
        f"({html.escape(f['severity'])}) — <i>{html.escape(readable(f['section']))}</i></li>"
        for f in faults) or "<li>The dealer made no mistake in this round.</li>"
    caught = sum(bool(f["caught"]) for f in faults)
    return f"<p>The dealer's faults: {caught} of {len(faults)} caught.</p><ul>{lines}</ul>"


def report_html(r: dict) -> str:
    """The report as HTML. `r` holds: trainee, form, started, ended, duration, status, passed,
    total, procedure, payouts, speed, pass_mark, items [{title, total, findings [{kind,
    severity, message, cite}], and for a supervise item faults [{words, section, severity,
    caught}]}], result_id, and either certificate {signer, attempt, fingerprint,
    certified, sat, code, verified} or certification (what is said of an uncertified result)."""
    verdict = ("<span class='pass'>PASSED</span>" if r["passed"] else
               f"<span class='fail'>NOT PASSED</span> ({html.escape(r['status'])})")
    cert = r.get("certificate")
    facts = [("Trainee", r["trainee"]), ("Exam form", r["form"])]
    if r.get("started"):
        facts.append(("Taken", f"{_when(r['started'])} to {_when(r['ended'])} "
                               f"({r['duration']:.0f} s)"))
    graded = policy.rule(r.get("rule"))
    facts.append(("Pass mark", f"{r['pass_mark']}, with every item passed"))
    facts.append(("Graded under", f"{graded.title}" + ("" if graded.number == policy.RULE else
                                                        " (recorded under that rule, kept as it was)")))
    if cert:
        facts += [("Sat", f"{_when(cert['sat'])}, by the workstation's clock, within its sitting"
                   if cert.get("sat") else "not stated (certified before certificates signed it)"),
                  ("Certified", f"{_when(cert['certified'])} by {cert['signer']}, attempt "
                                f"{cert['attempt']}"),
                  ("Instructor key", cert["fingerprint"]),
                  ("Verification code", cert["code"] + ("" if cert["verified"]
                                                        else " — SIGNATURE DOES NOT VERIFY"))]
    else:
        facts.append(("Certification", r.get("certification", "not certified")))
    rows = "".join(f"<tr><td><b>{html.escape(k)}</b></td><td>{html.escape(str(v))}</td></tr>"
                   for k, v in facts)
    items = []
    for n, item in enumerate(r["items"], start=1):
        findings = "".join(
            f"<li><b>{html.escape(f['kind'])}</b> ({html.escape(f['severity'])}): "
            f"{html.escape(readable(f['message']))} — <i>{html.escape(readable(f['cite']))}</i></li>"
            for f in item["findings"]) or "<li>No findings.</li>"
        passed = "" if "passed" not in item else (", passed" if item["passed"] else ", not passed")
        items.append(f"<h3>{n}. {html.escape(item['title'])} — {item['total']}{passed}</h3>"
                     f"<ul>{findings}</ul>{faults_html(item.get('faults'))}")
    sign = ("Not certified. Only a certificate (the result re-graded and signed with an "
            "instructor's key on the instructor's machine) is evidence of this result.")
    if cert:
        sign = (f"Re-graded from the recorded actions and signed by <b>{html.escape(cert['signer'])}"
                f"</b> with the instructor key {html.escape(cert['fingerprint'])}.")
        trust = ("This certificate is an Ed25519 signature over the re-graded record. Anyone can "
                 "check the signed file with the instructor's public key: dealer-trainer "
                 "verify-results CERTIFICATES.json --public-key KEY.pub; the verification code "
                 "matches this paper to it.")
    else:
        trust = ("This report is printed from the workstation's own record, which is not signed: "
                 "it proves nothing outside the trainer.")
    return f"""<html><head><style>{CSS}</style></head><body>
<h1>{html.escape(exam_title(r))} — {html.escape(heading(r))}</h1>
<p class='sub'>Pennsylvania dice table games · 58 Pa. Code · Dealer Trainer {__version__}</p>
<table class='facts'>{rows}</table>
<p>{verdict}</p>
<table class='scores'><tr><th>Procedure</th><th>Payouts</th><th>Speed</th><th>Total</th></tr>
<tr><td align=center>{r['procedure']}</td><td align=center>{r['payouts']}</td>
<td align=center>{r['speed']}</td><td align=center><b>{r['total']}</b></td></tr></table>
<h2>Findings, with the regulation behind each</h2>
{''.join(items)}
<h2>Certification</h2>
<p>{sign}</p>
{SUPERVISOR if cert else ""}
<p class='small'>{html.escape(trust)} The Pai Gow Poker dice wagers are reconstructed: confirm
against the property's Rules Submission.</p>
</body></html>"""


def write_pdf(r: dict, path: Path) -> Path:
    """Print the report to a PDF file."""
    from ui.qt import QMarginsF, QPageLayout, QPageSize, QPdfWriter, QTextDocument

    writer = QPdfWriter(str(path))
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.Letter),
                                     QPageLayout.Orientation.Portrait, QMarginsF(20, 20, 20, 20),
                                     QPageLayout.Unit.Millimeter))
    writer.setResolution(300)
    writer.setTitle(f"{heading(r)} — {r['trainee']} — {r['form']}")
    writer.setCreator(f"Dealer Trainer {__version__}")
    doc = QTextDocument()
    doc.documentLayout().setPaintDevice(writer)  # lay out in the printer's resolution
    doc.setHtml(report_html(r))
    doc.setPageSize(writer.pageLayout().paintRectPixels(writer.resolution()).size().toSizeF())
    doc.print_(writer)
    return path
