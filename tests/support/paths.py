"""Where the tests find the project, and the spec folder it shares with its sibling projects."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
EXAMPLES = SHARED / "spec" / "examples"
