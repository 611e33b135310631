"""The product's scrypt costs, which the tests' own process lowers everywhere else
(tests/support/kdf.py): with `real_kdf`, what the app writes carries them. The instructor key
file's (n = 2**17) is tests/test_exams_certify.py's strong-scrypt test."""

from __future__ import annotations

from trainer.exams.submission import seal, unseal
from trainer.progress.passphrase import check_passphrase, hash_passphrase


def test_a_profiles_passphrase_is_hashed_with_n_2_14(real_kdf):
    stored = hash_passphrase("correct horse battery")
    assert stored.split("$")[:4] == ["scrypt", str(2**14), "8", "1"]
    assert check_passphrase(stored, "correct horse battery")


def test_a_sitting_is_sealed_with_n_2_14(real_kdf):
    sealed = seal({"form": {"items": []}}, "ABCD-EFGH-JKLM-NPQR")
    assert sealed["kdf"]["n"] == 2**14
    assert unseal(sealed, "ABCD-EFGH-JKLM-NPQR", "sitting") == {"form": {"items": []}}


def test_the_tests_own_cost_is_lowered_and_still_read_back():
    """Without real_kdf: the lowered n is stored with what it derived, and read back from there."""
    from tests.support.kdf import FAST_N

    stored = hash_passphrase("correct horse battery")
    assert stored.split("$")[1] == str(FAST_N) and check_passphrase(stored, "correct horse battery")
    assert not check_passphrase(stored, "correct horse batteries")
