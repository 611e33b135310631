"""The bundle's tests' fixture: the bundle `make bundle` built, or a failure saying to build it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bundle.support import APP, BUNDLE


@pytest.fixture(scope="module")
def bundle() -> Path:
    if not APP.exists():
        pytest.fail(f"no bundle at {BUNDLE}: build it with `make bundle`")
    return BUNDLE
