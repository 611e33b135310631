"""THIRD-PARTY-NOTICES: what a Dealer Trainer bundle carries that others wrote, each with its
licence, written from the metadata of the distributions installed where it runs:

    python packaging/notices.py [OUT_FILE]      (stdout without OUT_FILE)

It walks what `dealer-trainer[class-server]` requires, as installed (the bundle's venv, `make
bundle`), and for each distribution writes its name, version, licence and home, the licence
files its wheel carries, and the compiled libraries it carries beside its modules. What no
metadata says is in packaging/licences/ and named in BESIDE: Qt inside PySide6-Essentials (its
wheel carries no licence text), the PostgreSQL pgserver carries, Python itself, and the fonts.
"""

from __future__ import annotations

import re
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
LICENCES = Path(__file__).resolve().parent / "licences"
PROJECT = "dealer-trainer"
EXTRAS = ("class-server",)
#: what a distribution carries that its metadata does not name, and the files of its licences
BESIDE = {
    "pyside6-essentials": ("Qt 6 (its libraries, plugins and translations, inside the PySide6 wheel): "
                           "LGPL-3.0-only, which takes in the GPL-3.0. Qt's source: "
                           "https://download.qt.io/official_releases/qt/",
                           ("LGPL-3.0.txt", "GPL-3.0.txt")),
    "shiboken6": ("LGPL-3.0-only (the texts are under pyside6-essentials)", ()),
    "pyside6-addons": ("Qt 6's add-on modules (Qt Multimedia, Qt TextToSpeech and the others, inside "
                       "the PySide6 Addons wheel): LGPL-3.0-only (the texts are under "
                       "pyside6-essentials)", ()),
    "pgserver": ("PostgreSQL 16 (its server, libraries and share/ tree, in pgserver/pginstall): "
                 "the PostgreSQL License", ("PostgreSQL.txt",)),
}
SEPARATOR = "=" * 78


def key(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def closure(project: str = PROJECT, extras: tuple[str, ...] = EXTRAS) -> list[metadata.Distribution]:
    """The installed distributions `project[extras]` needs, itself left out, by name."""
    seen: dict[str, metadata.Distribution] = {}
    todo = [(project, set(extras))]
    root = key(project)
    while todo:
        name, wanted = todo.pop()
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        if key(name) in seen:
            continue
        seen[key(name)] = dist
        for text in dist.requires or ():
            req = Requirement(text)
            env = default_environment()
            if req.marker is not None and not any(
                    req.marker.evaluate({**env, "extra": extra}) for extra in (wanted or {""})):
                continue
            todo.append((req.name, set(req.extras)))
    return sorted((d for k, d in seen.items() if k != root), key=lambda d: key(d.metadata["Name"]))


def licence_of(dist: metadata.Distribution) -> str:
    meta = dist.metadata
    for field in ("License-Expression", "License"):
        value = (meta.get(field) or "").strip()
        if value and "\n" not in value and len(value) < 120:
            return value
    classifiers = [c.split(" :: ")[-1] for c in meta.get_all("Classifier") or ()
                   if c.startswith("License ::")]
    return ", ".join(classifiers) or "see its licence text below"


def home_of(dist: metadata.Distribution) -> str:
    meta = dist.metadata
    if meta.get("Home-page"):
        return meta["Home-page"]
    for url in meta.get_all("Project-URL") or ():
        label, _, address = url.partition(",")
        if label.strip().lower() in ("homepage", "home", "source", "repository", "code"):
            return address.strip()
    return ""


def licence_files(dist: metadata.Distribution) -> list[tuple[str, str]]:
    """The licence texts in the distribution's .dist-info, with their names there."""
    out = []
    for f in dist.files or ():
        parts = f.parts
        if not parts or not parts[0].endswith(".dist-info"):
            continue
        name = parts[-1].upper()
        if "licenses" in parts or name.startswith(("LICENSE", "LICENCE", "COPYING", "NOTICE", "AUTHORS")):
            path = Path(str(dist.locate_file(f)))
            if path.is_file():
                out.append(("/".join(parts[1:]), path.read_text(encoding="utf-8", errors="replace")))
    return sorted(out)


def libraries(dist: metadata.Distribution) -> list[str]:
    """The compiled libraries a wheel carries in its `.libs` folder (auditwheel, delocate)."""
    return sorted({f.parts[-1] for f in dist.files or ()
                   if len(f.parts) > 1 and f.parts[0].endswith((".libs", ".dylibs"))
                   and not f.parts[-1].endswith(".py")})


def python_licence() -> str:
    for folder in (Path(sysconfig.get_paths()["stdlib"]), Path(sys.base_prefix)):
        if (folder / "LICENSE.txt").is_file():
            return (folder / "LICENSE.txt").read_text(encoding="utf-8", errors="replace")
    return "Python Software Foundation License Version 2: https://docs.python.org/3/license.html\n"


def section(title: str, lines: list[str], texts: list[tuple[str, str]]) -> str:
    out = [SEPARATOR, title, SEPARATOR, *lines, ""]
    for name, text in texts:
        out += [f"--- {name} ---", text.rstrip(), ""]
    return "\n".join(out)


def notices() -> str:
    dists = closure()
    try:
        ours = metadata.version(PROJECT)
    except metadata.PackageNotFoundError:
        ours = "?"
    parts = [
        f"Dealer Trainer {ours}: THIRD-PARTY NOTICES\n\n"
        "Dealer Trainer itself is under the MIT License (LICENSE). A Dealer Trainer bundle also carries\n"
        "the software below, each under its own licence. Written by packaging/notices.py from the\n"
        "installed distributions' metadata.\n\n"
        "Qt (LGPL-3.0): the bundle's Qt libraries are shared libraries, loaded at run time, that you may\n"
        "replace with your own build of the same Qt version; Qt's source is at the address below.\n",
        section(f"Python {sys.version.split()[0]} (the interpreter and its standard library)",
                ["Licence: PSF-2.0", "Home: https://www.python.org"], [("LICENSE.txt", python_licence())]),
    ]
    for dist in dists:
        name = dist.metadata["Name"]
        lines = [f"Licence: {licence_of(dist)}"]
        if home_of(dist):
            lines.append(f"Home: {home_of(dist)}")
        libs = libraries(dist)
        if libs:
            lines.append("Carries the compiled libraries: " + ", ".join(libs))
        texts = licence_files(dist)
        said, files = BESIDE.get(key(name), ("", ()))
        if said:
            lines.append(f"Also: {said}")
        texts += [(f, (LICENCES / f).read_text(encoding="utf-8")) for f in files]
        parts.append(section(f"{name} {dist.version}", lines, texts))
    fonts = ROOT / "resources" / "fonts" / "LICENSE"
    parts.append(section("DejaVu fonts 2.37 (resources/fonts)",
                         ["Licence: the Bitstream Vera and Arev fonts licences"],
                         [("LICENSE", fonts.read_text(encoding="utf-8"))]))
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    text = notices()
    if argv:
        Path(argv[0]).write_text(text, encoding="utf-8", newline="\n")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
