"""The regulation texts (resources/regulations/) and the sentence behind a citation.

Feedback quotes the regulation: `quote("58 Pa. Code § 668a.3(i)")` finds § 668a.3 in the
bundled text and the paragraph (i) inside it. Paragraph labels nest as (a) › (1) › (i); a label
is read as the next one expected at its level, which tells roman (i) from letter (i).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from trainer import games
from trainer.cite import READING
from trainer.paths import resources_dir
from trainer.readings import BY_ID

_SECTION = re.compile(r"^[#\s]*(?:§|Section)\s*(\d+[a-z]?\.\d+)(?:\.|\s+-)\s+([A-Z].*)$")
_LABEL = re.compile(r"^[-*\s]*\((\d+|[a-z]+)\)\s+(.*)$")
_CITE = re.compile(r"§\s*(\d+[a-z]?\.\d+)((?:\([0-9a-z]+\))*)")
_READING = re.compile(re.escape(READING) + r" '([a-z0-9-]+)'")
ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")


@dataclass
class Paragraph:
    label: str
    text: str
    children: list[Paragraph] = field(default_factory=list)


@dataclass
class Section:
    number: str
    title: str
    lead: str  # text before the first labelled paragraph
    paragraphs: list[Paragraph]


def _clean(lines: list[str]) -> str:
    text = ""
    for raw in lines:
        line = raw.strip().lstrip("#").strip()
        if not line:
            continue
        if text.endswith("-") and line[:1].islower():
            text = text[:-1] + line
        else:
            text = f"{text} {line}" if text else line
    return text


def _parse(text: str) -> dict[str, Section]:
    sections: dict[str, Section] = {}
    current: tuple[str, str] | None = None
    body: list[str] = []

    def close():
        if current:
            sections[current[0]] = _paragraphs(current[0], current[1], body)

    for line in text.splitlines():
        if m := _SECTION.match(line):
            close()
            current, body = (m.group(1), m.group(2).strip()), []
        elif current:
            body.append(line)
    close()
    return sections


def _paragraphs(number: str, title: str, lines: list[str]) -> Section:
    top: list[Paragraph] = []
    lead: list[str] = []
    level1: Paragraph | None = None
    level2: Paragraph | None = None
    level3: Paragraph | None = None
    pending: list[str] = []
    target: Paragraph | None = None

    def flush():
        if target is not None:
            target.text = _clean([target.text, *pending])
        else:
            lead.extend(pending)
        pending.clear()

    for line in lines:
        if m := _LABEL.match(line):
            label, text = m.group(1), m.group(2)
            next_letter = chr(ord(level1.label) + 1) if level1 else "a"
            next_number = str(int(level2.label) + 1) if level2 else "1"
            next_roman = ROMAN[ROMAN.index(level3.label) + 1] if level3 else "i"
            if level2 is not None and label == next_roman:
                flush()
                level3 = Paragraph(label, text)
                level2.children.append(level3)
                target = level3
                continue
            if level1 is not None and label == next_number:
                flush()
                level2, level3 = Paragraph(label, text), None
                level1.children.append(level2)
                target = level2
                continue
            if label == next_letter:
                flush()
                level1, level2, level3 = Paragraph(label, text), None, None
                top.append(level1)
                target = level1
                continue
        pending.append(line)
    flush()
    return Section(number, title, _clean(lead), top)


@cache
def chapter(game: str) -> dict[str, Section]:
    return _parse(chapter_text(game))


#: the transcription of Chapter 668a writes the section sign of its authority line ("4 Pa.C.S.
#: § 1202(b)(30)") as a markdown-escaped dollar, which renders as "$ 1202"
_SECTION_SIGN_AS_DOLLAR = re.compile(r"(Pa\.C\.S\.) \\\$ ")


@cache
def chapter_text(game: str) -> str:
    """The chapter as the Rules screen shows it, with the transcription's section signs restored."""
    text = (resources_dir() / "regulations" / games.get(game).regulation_file).read_text(encoding="utf-8")
    return _SECTION_SIGN_AS_DOLLAR.sub(r"\1 § ", text)


@cache
def _all() -> dict[str, Section]:
    out: dict[str, Section] = {}
    for name in sorted({games.get(g).regulation_file for g in games.GAME_IDS}):
        out |= _parse((resources_dir() / "regulations" / name).read_text(encoding="utf-8"))
    return out


def quote(citation: str) -> str | None:
    """The text a citation points at (a section's paragraph, or a reading's text), or None when
    the bundled text does not have it. Citations joined by "; " are quoted one after another."""
    if "; " in citation:
        found = [q for part in citation.split("; ") if (q := _quote_one(part))]
        return "\n\n".join(found) or None
    return _quote_one(citation)


#: what the printed Code puts between and after the rules: page furniture, cross references
_FURNITURE = re.compile(r"\s*(\d+[a-z]?-\d+ \(\d+\) No\. \d+ \w+\.? \d+ Copyright © \d+ Commonwealth of "
                        r"Pennsylvania|\[Next page is [^\]]*\.\])")
_AFTER_RULES = re.compile(r"\s*(\*\*)?(Cross References|Authority|Source)(\*\*)?\s.*$", re.S)


def _tidy(text: str) -> str:
    return _AFTER_RULES.sub("", _FURNITURE.sub("", text)).strip()


def _quote_one(citation: str) -> str | None:
    m = _CITE.search(citation)
    if not m:
        r = _READING.search(citation)
        reading = BY_ID.get(r.group(1)) if r else None
        return f"{reading.title}: {reading.text}" if reading else None
    section = _all().get(m.group(1))
    if section is None:
        return None
    labels = re.findall(r"\(([0-9a-z]+)\)", m.group(2))
    if not labels:
        return _tidy(section.lead) or section.title
    found = _paragraph(section.paragraphs, labels)
    if found is None:
        return None
    text = f"({found.label}) {found.text}"
    if found.children and len(found.text) < 120:
        text += " " + " ".join(f"({c.label}) {c.text}" for c in found.children)
    return text


def _paragraph(nodes: list[Paragraph], labels: list[str]) -> Paragraph | None:
    """The paragraph at the end of a path of labels ("f", "2", "ii"), if the section has it."""
    found = None
    for label in labels:
        found = next((p for p in nodes if p.label == label), None)
        if found is None:
            return None
        nodes = found.children
    return found
