"""A class's address: the postgresql:// URL a workstation joins with (`dealer-trainer --class URL`).

`class_address(text)` checks it without connecting (ClassServerError names what is wrong, the
password masked), and `ClassAddress.shown` is the address without its password: what is printed,
logged and kept in the progress file. `ClassAddress.kept` is the address to connect with, without
its password (what the app remembers); `with_passfile` gives the driver a libpq password file to
find the password in instead (trainer.classes.workstation.passfile).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

from trainer.classes.errors import ClassServerError

SCHEMES = ("postgresql", "postgres")
#: connection options in an address's query that hold a secret: never kept, shown or logged
SECRET_OPTIONS = ("password", "sslpassword")
MASK = "…"


@dataclass(frozen=True, slots=True)
class ClassAddress:
    url: str = field(repr=False)  # as given, password included: only ever handed to the driver
    user: str
    host: str
    port: int
    database: str
    passfile: str | None = None  # a libpq password file the driver reads the password from

    @property
    def shown(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"postgresql://{quote(self.user, safe='')}@{host}:{self.port}/{self.database}"

    @property
    def password(self) -> str | None:
        """The password the address holds (in the URL, or a `password=` option); None if none."""
        parts = urlsplit(self.url)
        if parts.password is not None:
            return unquote(parts.password)
        options = dict(parse_qsl(parts.query))
        return options.get("password")

    @property
    def kept(self) -> str:
        """The address without its password, for connecting: the user, server, port, database
        and connection options (sslmode=...) as given, secrets left out."""
        parts = urlsplit(self.url)
        host = f"[{self.host}]" if ":" in self.host else self.host
        netloc = f"{quote(self.user, safe='')}@{host}:{self.port}"
        query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
                           if k not in SECRET_OPTIONS])
        return urlunsplit(("postgresql", netloc, "/" + quote(self.database, safe=""), query, ""))


def with_passfile(address: ClassAddress, passfile: str) -> ClassAddress:
    """The same class, without the password in its URL: the driver (libpq) looks it up in
    `passfile`, a password file in libpq's format (trainer.classes.workstation.passfile)."""
    return replace(class_address(address.kept), passfile=str(passfile))


def with_password(address: ClassAddress, password: str) -> ClassAddress:
    """The same class with `password` in its URL (for the driver only: never shown or kept)."""
    parts = urlsplit(address.kept)
    netloc = f"{quote(address.user, safe='')}:{quote(password, safe='')}@{parts.netloc.rpartition('@')[2]}"
    return class_address(urlunsplit((parts.scheme, netloc, parts.path, parts.query, "")))


def split_password(text: str) -> tuple[str, str | None]:
    """An address as typed (or pasted), without its password, and the password (None if it has
    none): for a field that shows the address while the password goes to a masked field. The
    text need not be a whole address yet."""
    scheme, sep, rest = text.partition("://")
    if not sep:
        return text, None
    end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    netloc, after = rest[:end], rest[end:]
    password = None
    userinfo, at, hostport = netloc.rpartition("@")
    if at and ":" in userinfo:
        user, _, secret = userinfo.partition(":")
        password, netloc = unquote(secret), f"{user}@{hostport}"
    path, qmark, query = after.partition("?")
    if qmark:
        options = parse_qsl(query, keep_blank_values=True)
        kept = [(k, v) for k, v in options if k not in SECRET_OPTIONS]
        if len(kept) < len(options):
            secrets = [v for k, v in options if k == "password"]
            password = password if password is not None or not secrets else secrets[-1]
            after = path + ("?" + urlencode(kept) if kept else "")
    return scheme + sep + netloc + after, password


def masked(text: str) -> str:
    """An address as typed, its password (after USER: in the URL, or a password= option)
    replaced by …, for messages: it errs on the side of hiding too much."""
    scheme, sep, rest = text.partition("://")
    if sep and "@" in rest:
        userinfo, _, after = rest.rpartition("@")
        if ":" in userinfo:
            rest = f"{userinfo.partition(':')[0]}:{MASK}@{after}"
    elif sep:  # no @: USER:PASSWORD with the server left out reads as HOST:PORT, a port not a number
        netloc, slash, after = rest.partition("/")
        host, colon, port = netloc.rpartition(":")
        if colon and not port.isdigit() and "]" not in port:
            rest = f"{host}:{MASK}{slash}{after}"
    text = scheme + sep + rest
    return re.sub(rf"(?i)\b({'|'.join(SECRET_OPTIONS)})=[^&#\s]*", rf"\1={MASK}", text)


def class_address(text: str) -> ClassAddress:
    where = f"the class address {masked(text.strip())!r}"
    try:
        parts = urlsplit(text.strip())
        port = parts.port or 5432
    except ValueError as e:
        detail = re.sub(r"'.*'", f"'{MASK}'", str(e))  # the "port" may be a password typed without @
        raise ClassServerError(f"{where} is not a postgresql:// address ({detail})") from None
    if parts.scheme not in SCHEMES:
        raise ClassServerError(f"{where} does not start with postgresql://")
    if re.search(r"%(?![0-9A-Fa-f]{2})", text):  # libpq would refuse it, quoting the password
        raise ClassServerError(f"{where} has a % that is not followed by two hex digits "
                               "(write a % in a password as %25)")
    if not parts.hostname:
        raise ClassServerError(f"{where} names no server (postgresql://USER:PASSWORD@HOST:PORT/DATABASE)")
    if not parts.username:
        raise ClassServerError(f"{where} names no user (postgresql://USER:PASSWORD@HOST:PORT/DATABASE)")
    database = unquote(parts.path.lstrip("/"))
    if not database or "/" in database:
        raise ClassServerError(f"{where} names no database (postgresql://USER:PASSWORD@HOST:PORT/DATABASE)")
    return ClassAddress(text.strip(), unquote(parts.username), parts.hostname, port, database)
