"""A class's address: the postgresql:// URL a workstation joins with (`dealer-trainer --class URL`).

`class_address(text)` checks it without connecting (ClassServerError names what is wrong), and
`ClassAddress.shown` is the address without its password: what is printed, logged and kept in the
progress file.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, unquote, urlsplit

from trainer.progress.errors import ClassServerError

SCHEMES = ("postgresql", "postgres")


@dataclass(frozen=True, slots=True)
class ClassAddress:
    url: str  # as given, password included: only ever handed to the driver
    user: str
    host: str
    port: int
    database: str

    @property
    def shown(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"postgresql://{quote(self.user, safe='')}@{host}:{self.port}/{self.database}"


def class_address(text: str) -> ClassAddress:
    where = f"the class address {text!r}"
    try:
        parts = urlsplit(text.strip())
        port = parts.port or 5432
    except ValueError as e:
        raise ClassServerError(f"{where} is not a postgresql:// address ({e})") from None
    if parts.scheme not in SCHEMES:
        raise ClassServerError(f"{where} does not start with postgresql://")
    if not parts.hostname:
        raise ClassServerError(f"{where} names no server (postgresql://USER:PASSWORD@HOST:PORT/DATABASE)")
    if not parts.username:
        raise ClassServerError(f"{where} names no user (postgresql://USER:PASSWORD@HOST:PORT/DATABASE)")
    database = unquote(parts.path.lstrip("/"))
    if not database or "/" in database:
        raise ClassServerError(f"{where} names no database (postgresql://USER:PASSWORD@HOST:PORT/DATABASE)")
    return ClassAddress(text.strip(), unquote(parts.username), parts.hostname, port, database)
