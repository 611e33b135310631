"""scrypt at a lowered cost in the tests' own process: an instructor key file (n = 2**17, about
0.7 s of CPU and 128 MiB each time one is written or opened), a profile's passphrase and a sealed
sitting (n = 2**14, about 0.08 s each) are derived with n = FAST_N instead, here and only here.

Each of these stores its n beside what it derived (the key file's header, "scrypt$n$…", the sealed
sitting's kdf), and every reader takes the n it finds, so what the tests prove of writing,
reading, refusing and swapping is proved the same at either cost. The real cost is what
`real_kdf` gives back: a test of the cost itself takes that fixture. The programs the tests run
(`run_command`) are processes of their own and derive at the real cost."""

from __future__ import annotations

import pytest

FAST_N = 2**8  # what scrypt's n is lowered to

#: the product's constants this plugin lowers: (module, name)
LOWERED = (("trainer.exams.keys", "SCRYPT_N"), ("trainer.progress.passphrase", "SCRYPT_N"),
           ("trainer.exams.submission", "SEAL_N"))
REAL: dict[tuple[str, str], int] = {}


def pytest_configure(config: pytest.Config) -> None:
    import importlib

    for module, name in LOWERED:
        m = importlib.import_module(module)
        REAL[module, name] = getattr(m, name)
        setattr(m, name, FAST_N)


@pytest.fixture
def real_kdf(monkeypatch):
    """scrypt at the product's cost for this test."""
    import importlib

    for (module, name), value in REAL.items():
        monkeypatch.setattr(importlib.import_module(module), name, value)
