"""THIRD-PARTY-NOTICES: what a Dealer Trainer bundle carries that others wrote, each with its
licence, written from the metadata of the distributions installed where it runs:

    python packaging/notices.py [OUT_FILE]      (stdout without OUT_FILE)

It walks what `dealer-trainer[class-server]` requires, as installed (the bundle's venv, `make
bundle`), and for each distribution writes its name, version, licence and home, the licence
files its wheel carries, and the compiled libraries it carries beside its modules. What no
metadata says is in packaging/licences/ and named in BESIDE: Qt inside PySide6-Essentials (its
wheel carries no licence text), the PostgreSQL pgserver carries, Python itself, and the fonts.

Two things a wheel carries have a licence of their own that its metadata does not name, and each
is written from the installed files: FFmpeg's libraries, which PySide6's Qt Multimedia carries as
its back end (`ffmpeg`: each library states its licence and its build's configuration in itself,
read from its bytes; the text of that licence is in packaging/licences/, chosen by what the
libraries state: FFMPEG_TEXTS), and pocketsphinx's English model (`CARRIED`: the licence in its
folder, read from the wheel).
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
#: files a distribution carries whose licence is not its own, found by their path in the wheel:
#: what they are, and the files that hold their licence
CARRIED = {
    "pocketsphinx": ("pocketsphinx's US English model (acoustic model, dictionary and language "
                     "model, in pocketsphinx/model/en-us), under its own licence",
                     re.compile(r"pocketsphinx/model/en-us/en-us/README")),
}
#: FFmpeg's libraries, as PySide6 names them on each OS (libavcodec.so.61, avcodec-61.dll,
#: libavcodec.61.dylib)
FFMPEG_LIBRARY = re.compile(r"^(?:lib)?(avcodec|avformat|avutil|swresample|swscale|avfilter|avdevice|"
                            r"postproc)[-.]")
#: what each FFmpeg library says of itself (its `*_license()` and `av_version_info()`)
FFMPEG_STATES = re.compile(rb"\0(lib\w+) license: ([ -~]+)\0")
FFMPEG_VERSION = re.compile(rb"\0FFmpeg version ([ -~]+)\0")
FFMPEG_CONFIGURATION = re.compile(rb"\0(--[ -~]*--prefix[ -~]*)\0")
#: the licence an FFmpeg library states, and the file of its text in packaging/licences/
FFMPEG_TEXTS = {"LGPL version 2.1 or later": "LGPL-2.1.txt"}
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


def carried(dist: metadata.Distribution) -> tuple[str, list[tuple[str, str]]]:
    """What `dist` carries under a licence of its own (CARRIED), and the texts of that licence
    as its wheel has them; SystemExit when they are not where CARRIED says."""
    said, where = CARRIED.get(key(dist.metadata["Name"]), ("", None))
    if where is None:
        return "", []
    texts = [(str(f), Path(str(dist.locate_file(f))).read_text(encoding="utf-8", errors="replace"))
             for f in dist.files or () if where.fullmatch(str(f))]
    if not texts:
        raise SystemExit(f"{dist.metadata['Name']} {dist.version} carries no file {where.pattern}: "
                         "the licence of what it carries must be found again (packaging/notices.py, CARRIED)")
    return said, texts


def ffmpeg(dists: list[metadata.Distribution]) -> str | None:
    """The notice of FFmpeg's libraries where a distribution carries them, written from what
    each library states of itself; SystemExit when one states a licence FFMPEG_TEXTS has no text
    for (a build with --enable-gpl, say)."""
    found: dict[str, tuple[str, str]] = {}  # library: its licence, and where it is
    version = configuration = ""
    carriers = set()
    for dist in dists:
        for f in dist.files or ():
            match = FFMPEG_LIBRARY.match(f.parts[-1])
            if match is None or f"lib{match.group(1)}" in found or f.parts[-1].endswith(".py"):
                continue
            path = Path(str(dist.locate_file(f)))
            if not path.is_file() or path.is_symlink():
                continue
            data = path.read_bytes()
            for name, licence in FFMPEG_STATES.findall(data):
                found.setdefault(name.decode(), (licence.decode(), str(f.parent)))
            if (v := FFMPEG_VERSION.search(data)) is not None:
                version = v.group(1).decode()
            if (c := FFMPEG_CONFIGURATION.search(data)) is not None:
                configuration = c.group(1).decode()
            carriers.add(f"{dist.metadata['Name']} {dist.version}")
    if not found:
        return None
    unknown = sorted({licence for licence, _ in found.values()} - set(FFMPEG_TEXTS))
    if unknown:
        raise SystemExit(f"FFmpeg's libraries state {', '.join(unknown)}, for which packaging/licences "
                         "has no text (packaging/notices.py, FFMPEG_TEXTS)")
    lines = [f"Licence: {name}: {licence} (as the library states it)" for name, (licence, _) in
             sorted(found.items())]
    folders = sorted({where for _, where in found.values()})
    lines += [f"Carried by: {', '.join(sorted(carriers))}, in {', '.join(folders)} "
              "(Qt Multimedia's back end)",
              "Home: https://ffmpeg.org (its source: https://ffmpeg.org/download.html)"]
    if configuration:
        lines.append(f"Built with: {configuration}")
    texts = [(FFMPEG_TEXTS[licence], (LICENCES / FFMPEG_TEXTS[licence]).read_text(encoding="utf-8"))
             for licence in sorted({licence for licence, _ in found.values()})]
    return section(f"FFmpeg {version or '(its version not stated)'} ({', '.join(sorted(found))})",
                   lines, texts)


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
        what, theirs = carried(dist)
        if what:
            lines.append(f"Also: {what}")
            texts += theirs
        parts.append(section(f"{name} {dist.version}", lines, texts))
    if (notice := ffmpeg(dists)) is not None:
        parts.append(notice)
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
