"""Names a person reads as one name, after Unicode TS #39 (Unicode Security Mechanisms): a
classmate who writes "Аna Ruiz" with a Cyrillic А beside "Ana Ruiz" would have the exports and
certificates read as hers.

- `skeleton(name)`: what a name looks like. TS #39's skeleton of the name's NFKC case fold,
  worked a character at a time: each character of the name's NFKD is replaced by its part
  (`FOLD` in trainer.progress.lookalikes: case folded, compatibility forms and look-alikes
  replaced by their prototype, default ignorable characters such as joiners and variation
  selectors removed), and the whole is put in NFD. "Ana Ruiz", "Аna Ruiz" (Cyrillic А), "ana
  ruiz", "Ａｎａ Ｒｕｉｚ" and "Ana\u200d Ruiz" have one skeleton. `skeleton(name, cased=True)`
  is the same without the case fold (`CASED`): TS #39's skeleton of the name as written, in
  which "Ian" reads as "lan" and "ΝΙΚΟ" (Greek capitals) as "NIKO", which the case fold tells
  apart. Two names read as one when either skeleton is the same;
- `mixed_scripts(name)`: the scripts of `MIXED` (Latin, Greek, Cyrillic, whose letters read
  alike across each other) that the name's letters come from, when more than one. A name
  written wholly in one of them ("Анна", "Ελένη") is a name like any other;
- `name_problem(name, names, where)`: why a new name cannot join `names` (one line naming the clash),
  or None. A name equal to one of them is the same person's, never a clash.

The data (`FOLD`, `SCRIPTS`) was made once from ICU's SpoofChecker by tests/support/confusables.py,
with its Unicode version; the class server's migration s017 holds the same data as SQL and
refuses the same names (trainer.classes.server.tables), so the app's one-line message comes
first and the server's refusal backs it on a workstation that is not to be trusted.
"""

from __future__ import annotations

import bisect
import unicodedata
from collections.abc import Iterable

from trainer.progress.lookalikes import CASED, FOLD, SCRIPTS

MIXED = tuple(SCRIPTS)
_STARTS = {script: [a for a, _ in ranges] for script, ranges in SCRIPTS.items()}


def skeleton(name: str, *, cased: bool = False) -> str:
    table = CASED if cased else FOLD
    parts = (table.get(ch, ch) for ch in unicodedata.normalize("NFKD", name))
    return unicodedata.normalize("NFD", "".join(parts))


def skeletons(name: str) -> tuple[str, str]:
    """Both skeletons of a name: of its case fold, and as written."""
    return skeleton(name), skeleton(name, cased=True)


def _script(ch: str) -> str | None:
    code = ord(ch)
    for script, ranges in SCRIPTS.items():
        at = bisect.bisect_right(_STARTS[script], code) - 1
        if at >= 0 and ranges[at][0] <= code <= ranges[at][1]:
            return script
    return None


def mixed_scripts(name: str) -> tuple[str, ...]:
    """The scripts of MIXED that `name` has letters of, in MIXED's order, when more than one
    (else empty)."""
    found = {s for ch in name if (s := _script(ch)) is not None}
    return tuple(s for s in MIXED if s in found) if len(found) > 1 else ()


def mixed_message(name: str, scripts: tuple[str, ...]) -> str:
    listed = ", ".join(scripts[:-1]) + " and " + scripts[-1]
    return f"'{name}' mixes {listed} letters, which read alike"


def look_alike_message(name: str, other: str, where: str) -> str:
    """"'Аna Ruiz' looks like 'Ana Ruiz', already in the class: the first letter is Cyrillic А,
    not Latin A": the clash, and where the two names differ (`differences`)."""
    said = f"'{name}' looks like '{other}', already {where}"
    return f"{said}: {differences(name, other)}" if name != other else said


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
            "tenth", "eleventh", "twelfth")


def _ordinal(n: int) -> str:
    if n <= len(ORDINALS):
        return ORDINALS[n - 1]
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _character(ch: str, *, cased: bool = False) -> str:
    """A character as a reader is told it: a letter by its script ("Cyrillic А", with "capital"
    or "small" where `cased`), anything else by its Unicode name."""
    name = unicodedata.name(ch, f"U+{ord(ch):04X}")
    if " LETTER " in f" {name} ":
        script, _, _ = name.partition(" LETTER")
        words = script.split()
        case = [w.lower() for w in words if w in ("CAPITAL", "SMALL")]
        kind = " ".join(w.title() for w in words if w not in ("CAPITAL", "SMALL"))
        return f"{kind} {(case[0] + ' ') if cased and case else ''}{ch}"
    if unicodedata.category(ch) in ("Cf", "Mn", "Me", "Zs") and ch != " ":
        return f"an invisible {name.lower()}"
    return f"'{ch}' ({name.lower()})"


def differences(name: str, other: str, *, most: int = 3) -> str:
    """Where `name` differs from `other`, a name it reads as: each character that is not the
    other's ("the first letter is Cyrillic А, not Latin A"), or is not in it ("the fourth
    character is an invisible combining grapheme joiner, which 'Ana Ruiz' has not"); at most
    `most`, the rest counted."""
    import difflib

    said: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, name, other, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        for k in range(i1, i2):
            ch, kind = name[k], "letter" if name[k].isalpha() else "character"
            if op == "replace" and j1 + (k - i1) < j2:
                theirs = other[j1 + (k - i1)]
                # of one script: which is capital and which small tells them apart (l and I)
                cased = _character(ch).rsplit(" ", 1)[0] == _character(theirs).rsplit(" ", 1)[0]
                said.append(f"the {_ordinal(k + 1)} {kind} is {_character(ch, cased=cased)}, not "
                            f"{_character(theirs, cased=cased)}")
            else:
                said.append(f"the {_ordinal(k + 1)} {kind} is {_character(ch)}, which '{other}' has not")
        if op in ("replace", "insert") and j2 - j1 > i2 - i1:
            missing = other[j1 + (i2 - i1):j2]
            said.append(f"it has no {', '.join(_character(c) for c in missing)} where '{other}' has")
    if not said:
        return "they differ only in how they are written"
    more = len(said) - most
    return "; ".join(said[:most]) + (f"; and {more} more" if more > 0 else "")


def look_alike(name: str, names: Iterable[str]) -> str | None:
    """The first of `names` that reads as `name` and is not `name` itself, or None."""
    folded, written = skeletons(name)
    return next((other for other in names if other != name
                 and (skeleton(other) == folded or skeleton(other, cased=True) == written)), None)


def name_problem(name: str, names: Iterable[str], where: str, *, mixed: bool = True) -> str | None:
    """Why `name` (written as clean_name writes it) cannot join `names`: a look-alike of one of
    them ("'Аna Ruiz' looks like 'Ana Ruiz', already in the class"), or (unless `mixed` is
    false) letters of scripts that read alike ("'Аna' mixes Latin and Cyrillic letters ...");
    None when it can."""
    if (other := look_alike(name, names)) is not None:
        return look_alike_message(name, other, where)
    if mixed and (scripts := mixed_scripts(name)):
        return mixed_message(name, scripts)
    return None
