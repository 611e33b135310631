"""Where the tests find the project, and the spec folder it shares with its sibling projects."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
EXAMPLES = SHARED / "spec" / "examples"


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run's folder that every worker shares (pytest's base folder's parent in a parallel
    run, the base folder itself in one process): what is made there is made once per run, and
    goes with the run's temporary files, never into the repository."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if "PYTEST_XDIST_WORKER" in os.environ else base
