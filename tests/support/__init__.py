"""What the tests share: helpers to import (`from tests.support.class_server import Class`) and
fixtures, loaded once for the whole run as pytest plugins by tests/conftest.py."""
