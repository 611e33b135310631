"""Findings as HTML, each with its regulation section: in a trainee's attempts on the Class tab
(ui.classroom.view) and in a replayed round (ui.classroom.replay)."""

from __future__ import annotations

import html

from trainer import readable


def findings_html(findings, *, empty: str = "No findings.") -> str:
    """Findings as a list, each with its regulation section."""
    if not findings:
        return f"<p>{html.escape(empty)}</p>"
    rows = "".join(f"<li><b>{html.escape(f.get('severity', ''))}</b> — {html.escape(readable(f['message']))}"
                   f"<br><i>{html.escape(readable(f.get('cite') or 'no section recorded'))}</i></li>"
                   for f in findings)
    return f"<ol>{rows}</ol>"
