"""Hostile variants of valid input, from a seed: what a trainee can do to a file before handing it
to the engine. `Mutator(seed)` turns a valid JSON document or TOML scenario text into
bytes that are broken in one to three places:

- in the document: a value swapped for a hostile one (huge, negative, NaN, Infinity, an
  exponent no Decimal survives, a lone surrogate, NUL, a huge string, deep nesting, the wrong
  type) or for another value of the same document (a type swap that still looks plausible), a key
  removed, an unknown key added, a key written twice, a list emptied or lengthened;
- in the bytes: bits flipped, cut short, a piece repeated or dropped, NUL inserted, written in
  UTF-16 or Latin-1, a byte-order mark in front.

The same seed gives the same variants, so a failure is reproduced from its seed and number
(`tests/benchmarks/fuzz_hostile.py --only TARGET --seed S --case N`).
"""

from __future__ import annotations

import copy
import json
import math
import random
import tomllib
from dataclasses import dataclass

#: a string that JSON carries as an escape: a lone surrogate Python reads into a str that
#: UTF-8 cannot encode (the class of crash the results import had)
SURROGATES = ("\ud800", "\udfff", "a\udc80b", "\udbff\ud800")
HOSTILE_STRINGS = (
    "", " ", "\x00", "a\x00b", "\n", "\r\n", "\t", "\u202e", "\ufeff", "😀", "é", "null", "true",
    "NaN", "Infinity", "-Infinity", "1e999999", "-1e999999", "5.00", "5.001", "-5", "0", "-0",
    "0x10", "1_000", "١٢", "²", "../../../etc/passwd", "%s%n%x", "{}", "[]", "\\", '"',
    "13 · 2nd Down · play x", "13 · 2nd Down", "5 · a · b · c", "play 3", " · · ",
    *SURROGATES,
)


@dataclass(frozen=True)
class Raw:
    """A JSON token written as it is: numbers json.dumps cannot write (1e999999, -0, 1.0e-400,
    a number of 5,000 digits)."""

    text: str


class Pairs(list):
    """A JSON object written from (key, value) pairs, so that a key can come twice."""


HOSTILE_NUMBERS = (
    0, -1, 1, 2, 7, 99, 100, 101, 255, 256, 65535, 2**31 - 1, 2**31, 2**32, 2**53 + 1, 2**63 - 1,
    2**63, -(2**63), 2**64, 10**30, -(10**30), 1.5, -1.5, 0.1, 1e-7, 1e300, -1e300, 5.0,
    Raw("1e999999"), Raw("-1e999999"), Raw("1e-999999"), Raw("-0"), Raw("-0.0"), Raw("NaN"),
    Raw("Infinity"), Raw("-Infinity"), Raw("5.00"), Raw("5.001"), Raw("1E+2"), Raw("0.30000000000000004"),
    Raw("1" * 5000), Raw("-" + "9" * 4301), Raw("0." + "0" * 400 + "1"),
)


_STRING = json.encoder.encode_basestring_ascii  # what json.dumps writes for a str (ensure_ascii)


def dumps(value) -> str:
    """JSON text of a document that may hold Raw tokens and Pairs (duplicated keys); lone
    surrogates are written as their escapes, as a hand-edited file would carry them.

    For str, int, dict and list the text json.dumps writes, without a call of it for every
    value: the same text in two fifths of the time (a results file: 1.1 ms, not 2.8)."""
    kind = type(value)
    if kind is str:
        return _STRING(value)
    if kind is dict:
        return "{" + ", ".join([f"{_STRING(k) if type(k) is str else dumps(str(k))}: {dumps(v)}"
                                for k, v in value.items()]) + "}"
    if kind is list:
        return "[" + ", ".join([dumps(v) for v in value]) + "]"
    if kind is int:
        return int.__repr__(value)
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, Pairs):
        return "{" + ", ".join(f"{dumps(str(k))}: {dumps(v)}" for k, v in value) + "}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{dumps(str(k))}: {dumps(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(dumps(v) for v in value) + "]"
    if isinstance(value, float) and value != value:
        return "NaN"
    return json.dumps(value)  # ensure_ascii: a surrogate becomes "\ud800"


class Mutator:
    """Hostile variants of valid documents, from one seed (see the module's docstring)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    # --- JSON documents -------------------------------------------------------------------------

    def json_doc(self, doc):
        """A copy of the document broken in one to three places (still a Python value)."""
        doc = _copied(doc)
        for _ in range(self.rng.choice((1, 1, 1, 2, 3))):
            doc = self._mutate(doc)
        return doc

    def json_bytes(self, doc, *, size_cap: int | None = None) -> bytes:
        """A hostile JSON file made from a valid document: mostly a broken document, written
        as it is; a quarter of the time its bytes are broken too (or it is replaced whole by
        something that is no document at all)."""
        roll = self.rng.random()
        if roll < 0.03:
            return self._pathological_json(size_cap)
        text = dumps(self.json_doc(doc) if roll < 0.93 else doc)
        data = text.encode("utf-8")
        if self.rng.random() < 0.25:
            data = self.bytes_(data)
        return data

    def _pathological_json(self, size_cap: int | None) -> bytes:
        depth = self.rng.choice((200, 1000, 5000, 100_000))
        big = (size_cap or 200_000) + self.rng.choice((1, 1000))
        return self.rng.choice((
            b"[" * depth + b"]" * depth,
            b'{"a":' * depth + b"1" + b"}" * depth,
            b'"' + b"x" * big + b'"',
            b"[" + b"1," * 50_000 + b"1]",
            b"",
            b"\x00" * 64,
            b"null", b"0", b"[]", b"{}", b'"text"', b"NaN", b"-1e999999",
            "\ufeff{}".encode(),
            bytes(self.rng.randrange(256) for _ in range(self.rng.randrange(1, 300))),
        ))

    def _mutate(self, doc):
        paths = _paths(doc)
        path = self.rng.choice(paths)
        node = _get(doc, path)
        op = self.rng.random()
        if op < 0.30:
            new = self.hostile_value()
        elif op < 0.50:  # another value of the document in this place: a plausible type swap
            new = _copied(_get(doc, self.rng.choice(paths)))
        elif op < 0.65:
            new = self._tweak(node)
        elif op < 0.75 and path:  # remove it
            parent = _get(doc, path[:-1])
            if isinstance(parent, Pairs):
                return doc
            del parent[path[-1]]
            return doc
        elif op < 0.85 and isinstance(node, dict):
            if self.rng.random() < 0.5:  # a key written twice, the second one hostile
                if not node:
                    return doc
                key = self.rng.choice(list(node))
                pairs = Pairs(node.items())
                pairs.insert(self.rng.randrange(len(pairs) + 1), (key, self.hostile_value()))
                new = pairs
            else:
                node[self.rng.choice(("extra", "__proto__", "format", "log", "x" * 300, "\ud800", ""))] = \
                    self.hostile_value()
                return doc
        elif op < 0.92 and isinstance(node, list):
            if node and self.rng.random() < 0.6:
                k = self.rng.choice((2, 10, 1000))
                node.extend(_copied(self.rng.choice(node)) for _ in range(k))
            else:
                node.clear()
            return doc
        else:
            new = self.rng.choice(([node], {"value": node}, [], {}, None, str(node)[:50]))
        return _set(doc, path, new)

    def hostile_value(self):
        roll = self.rng.random()
        if roll < 0.35:
            return self.rng.choice(HOSTILE_NUMBERS)
        if roll < 0.75:
            return self.rng.choice(HOSTILE_STRINGS)
        if roll < 0.80:
            return "x" * self.rng.choice((201, 5000, 70_000))
        if roll < 0.85:  # nested deeper than any reader recurses
            depth = self.rng.choice((50, 500, 3000))
            return Raw("[" * depth + "1" + "]" * depth)
        return self.rng.choice((None, True, False, [], {}, [None], [1, 2, 3], {"a": 1}, [[1]], ["a"]))

    def _tweak(self, node):
        """A value like the one here, a little wrong."""
        if isinstance(node, bool):
            return self.rng.choice((int(node), str(node).lower(), not node, None))
        if isinstance(node, int):
            return self.rng.choice((node + 1, node - 1, -node, node * 10**self.rng.choice((2, 12, 400)),
                                    str(node), float(node) if abs(node) < 2**1000 else Raw(f"{node}.5"),
                                    Raw(f"{node}.00"), Raw(f"{node}e999999"),
                                    0, -abs(node) - 1))
        if isinstance(node, float):
            return self.rng.choice((-node, node * 1e308, int(node) if math.isfinite(node) else 0,
                                    str(node), Raw("NaN")))
        if isinstance(node, str):
            k = self.rng.randrange(len(node) + 1)
            return self.rng.choice((
                node[:k] + self.rng.choice(SURROGATES) + node[k:], node[:k] + "\x00" + node[k:],
                node.upper(), node + node, node[:k], " " + node + " ", node * 1000,
                node.replace("1", "7"), node.replace(".", ","), node + ".00", "-" + node,
            ))
        if isinstance(node, list):
            return list(reversed(node)) if self.rng.random() < 0.5 else node + node
        if isinstance(node, dict):
            return {k: self.hostile_value() if self.rng.random() < 0.3 else v for k, v in node.items()}
        return self.hostile_value()

    # --- bytes ---------------------------------------------------------------------------------

    def bytes_(self, data: bytes) -> bytes:
        """The bytes of a file broken by one of the things disks, editors and people do."""
        data = bytearray(data)
        op = self.rng.randrange(10)
        if op == 0 and data:  # bits flipped
            for _ in range(self.rng.choice((1, 1, 2, 8))):
                data[self.rng.randrange(len(data))] ^= 1 << self.rng.randrange(8)
        elif op == 1:  # cut short
            data = data[:self.rng.randrange(len(data) + 1)]
        elif op == 2 and data:  # a piece dropped
            a = self.rng.randrange(len(data))
            del data[a:a + self.rng.randrange(1, 40)]
        elif op == 3 and data:  # a piece repeated
            a = self.rng.randrange(len(data))
            piece = data[a:a + self.rng.randrange(1, 200)]
            data[a:a] = piece * self.rng.choice((1, 2, 50))
        elif op == 4:  # NUL or junk inserted
            a = self.rng.randrange(len(data) + 1)
            data[a:a] = self.rng.choice((b"\x00", b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b"\x1b[2J"))
        elif op == 5:
            return _encoded(bytes(data), "utf-16")
        elif op == 6:
            return _encoded(bytes(data), "latin-1", "é")
        elif op == 7:
            return b"\xef\xbb\xbf" + bytes(data)
        elif op == 8:
            return bytes(data).replace(b"\n", b"\r")
        elif data:  # one byte replaced by any byte
            data[self.rng.randrange(len(data))] = self.rng.randrange(256)
        return bytes(data)

    # --- TOML scenario files -------------------------------------------------------------------

    def toml_bytes(self, text: str) -> bytes:
        """A hostile scenario file made from a valid one: its document broken and written again
        as TOML, one of its lines broken, or its bytes broken."""
        roll = self.rng.random()
        if roll < 0.45:
            doc = tomllib.loads(text)
            out = toml_dumps(self._toml_mutate(doc)).encode("utf-8", "surrogatepass")
        elif roll < 0.75:
            out = self._toml_line(text).encode("utf-8", "surrogatepass")
        elif roll < 0.97:
            out = self.bytes_(text.encode("utf-8"))
        else:
            out = self.rng.choice((b"", b"\x00", b"[" * 5000, b"a = " + b"[" * 3000 + b"]" * 3000,
                                   b"x = 1\n" * 20_000, b"schema_version = " + b"9" * 5000))
        if self.rng.random() < 0.1:
            out = self.bytes_(out)
        return out

    def _toml_mutate(self, doc):
        for _ in range(self.rng.choice((1, 1, 2, 3))):
            doc = self._mutate(doc)
        return doc

    def _toml_line(self, text: str) -> str:
        lines = text.split("\n")
        k = self.rng.randrange(len(lines))
        line = lines[k]
        op = self.rng.randrange(6)
        if op == 0 and "=" in line:  # the value replaced by a hostile TOML value
            key = line.split("=", 1)[0]
            lines[k] = f"{key}= {self.rng.choice(HOSTILE_TOML)}"
        elif op == 1:
            del lines[k]
        elif op == 2:  # a line twice: a key written twice, or a table header twice
            lines.insert(k, line)
        elif op == 3:
            j = self.rng.randrange(len(lines))
            lines[k], lines[j] = lines[j], lines[k]
        elif op == 4:
            lines.insert(k, self.rng.choice(("[[events]]", "[[wagers]]", "[[players]]", "[options]",
                                             "[options.hop_regions]", "type = \"throw\"", "seat = 0",
                                             'amount = "-1e999999"', "[[events]]\ntype = \"throw\"")))
        else:  # a number in it changed
            digits = [i for i, ch in enumerate(line) if ch.isdigit()]
            if digits:
                i = self.rng.choice(digits)
                lines[k] = line[:i] + self.rng.choice(("0", "9", "-1", "99999999999", "1e999999",
                                                       "5.00", "nan", "inf")) + line[i + 1:]
        return "\n".join(lines)


HOSTILE_TOML = (
    '"-1e999999"', "-1e999999", "1e999999", "nan", "inf", "-inf", "-0", "0", "-1", "7",
    "99999999999999999999999", "9" * 5000, '"5.00"', "5.00", '"5.001"', "1.5", '"\\u0000"', '""',
    '"\\uD800"', "true", "[]", "{}", "[1, 2, 3]", "[[1]]", "1979-05-27T07:32:00Z", "07:32:00",
    '"' + "x" * 70_000 + '"', "[" * 2000 + "]" * 2000, '{a = 1}', '"NaN"', '"Infinity"', "'\\x'",
    '"\u202e"', '"é"', '"13 · 2nd Down · play x"',
)


def toml_dumps(doc: dict) -> str:
    """TOML text of a scenario document: its plain keys first, then [table]s and [[array]]s of
    tables, as the bundled scenarios are written. What TOML cannot hold (null, a duplicated key,
    a token of Raw) is written anyway, as a hand-edited file would have it."""
    head, tables = [], []
    items = (doc if isinstance(doc, Pairs) else list(doc.items()) if isinstance(doc, dict)
             else [("value", doc)])
    for key, value in items:
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for v in value:
                tables.append(f"[[{_key(key)}]]\n" + _body(v))
        elif isinstance(value, dict) and not isinstance(value, Pairs) and value:
            tables.append(f"[{_key(key)}]\n" + _body(value))
        else:
            head.append(f"{_key(key)} = {_value(value)}")
    return "\n".join(head) + "\n\n" + "\n".join(tables)


def _body(table: dict) -> str:
    items = table if isinstance(table, Pairs) else table.items()
    return "".join(f"{_key(k)} = {_value(v)}\n" for k, v in items)


def _key(key) -> str:
    key = str(key)
    return key if key and all(ch.isalnum() or ch in "-_" for ch in key) and key.isascii() else _string(key)


def _value(value) -> str:
    if isinstance(value, Raw):
        return value.text
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value) if isinstance(value, int) or value == value else "nan"
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, dict):
        items = value if isinstance(value, Pairs) else value.items()
        return "{" + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in items) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return _string(str(value))


def _string(text: str) -> str:
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F or 0xD800 <= ord(ch) <= 0xDFFF:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _encoded(data: bytes, codec: str, extra: str = "") -> bytes:
    text = data.decode("utf-8", "replace") + extra
    return text.encode(codec, "replace")


# --- paths into a document -----------------------------------------------------------------------


#: values a copy of a document shares with it, as copy.deepcopy does: none can change
_IMMUTABLE = frozenset((str, int, float, bool, type(None), Raw))


def _copied(value, memo: dict | None = None):
    """copy.deepcopy(value) of a document: the same value, each list and dict copied, one copied
    once however often it comes (a document made in Python may hold one list in two places),
    in under a third of deepcopy's time; what is neither (a Pairs, a tuple) by deepcopy itself."""
    kind = type(value)
    if kind in _IMMUTABLE:
        return value
    if memo is None:
        memo = {}
    if (done := memo.get(id(value))) is not None:
        return done
    if kind is dict:
        out: dict | list = {}
        memo[id(value)] = out
        for k, v in value.items():
            out[k] = v if type(v) in _IMMUTABLE else _copied(v, memo)
        return out
    if kind is list:
        out = []
        memo[id(value)] = out
        out.extend(v if type(v) in _IMMUTABLE else _copied(v, memo) for v in value)
        return out
    return copy.deepcopy(value, memo)



def _paths(doc) -> list[tuple]:
    """The path of every value of the document, depth first, each before those inside it (not
    inside a Pairs, a list of 2,000 values or more, or deeper than 13 levels)."""
    out: list[tuple] = []
    todo = [((), doc)]
    while todo:
        path, node = todo.pop()
        out.append(path)
        if isinstance(node, Pairs) or len(path) > 12:
            continue
        if isinstance(node, dict):
            todo += reversed([((*path, k), v) for k, v in node.items()])
        elif isinstance(node, list) and len(node) < 2000:
            todo += reversed([((*path, i), v) for i, v in enumerate(node)])
    return out


def _get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def _set(doc, path, value):
    if not path:
        return value
    _get(doc, path[:-1])[path[-1]] = value
    return doc
