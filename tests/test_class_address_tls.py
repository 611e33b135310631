"""A workstation's address may require TLS of a school's own PostgreSQL: libpq's `sslmode` and
certificate options are kept with the address (never its password) and reach the driver. The
bundled class server has no TLS, so an address that requires it is refused there, in one line."""

from __future__ import annotations

import pytest

from trainer.classes import ClassServerError
from trainer.classes.workstation.address import class_address, split_password, with_passfile, with_password
from trainer.classes.workstation.connection import ClassLedger

TLS = "sslmode=verify-full&sslrootcert=%2Fetc%2Fdealer-trainer%2Fschool-ca.pem"
URL = f"postgresql://workstation_3f9c:s3cret@class.school.example:5432/dealer_class?{TLS}"


def test_the_tls_options_are_kept_with_the_address_and_its_password_is_not():
    address = class_address(URL)
    assert (address.user, address.host, address.port, address.database) == \
        ("workstation_3f9c", "class.school.example", 5432, "dealer_class")
    assert address.kept == f"postgresql://workstation_3f9c@class.school.example:5432/dealer_class?{TLS}"
    assert "s3cret" not in address.shown and "sslmode" not in address.shown
    for again in (with_password(address, "other-pass"), with_passfile(address, "/tmp/class.pgpass")):
        assert "sslmode=verify-full" in again.url and "sslrootcert=%2Fetc%2Fdealer-trainer" in again.url
    typed, password = split_password(URL)
    assert password == "s3cret" and typed.endswith(f"?{TLS}")


def test_an_address_requiring_tls_is_refused_by_a_server_without_it_in_one_line(unchanged_class):
    plain = unchanged_class.address("workstation").url
    with pytest.raises(ClassServerError) as refused:
        ClassLedger(class_address(plain + "?sslmode=require")).class_uid()
    assert "does not support SSL" in str(refused.value) and "\n" not in str(refused.value)
    assert ClassLedger(class_address(plain + "?sslmode=prefer")).class_uid()
