"""The bundle's recipe (packaging/dealer-trainer.spec) carries what spoken calls load, checked
without PyInstaller or a build: the spec is run as PyInstaller runs it, with PyInstaller's
functions replaced by stand-ins that list what it is given (the data and hooks collected as
PyInstaller collects them: a package's files that are not Python), and what it keeps is compared
with what the app loads here when it listens and speaks. This proves the recipe's lists, not the
built bundle: `make bundle && make test-bundle` starts that (tests/bundle)."""

from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from tests.support.paths import ROOT

SPEC = ROOT / "packaging" / "dealer-trainer.spec"


def package_files(package: str) -> list[tuple[str, str]]:
    """As PyInstaller's collect_data_files: each file of the package that is not Python, with the
    folder it goes to in the bundle (its folder under site-packages)."""
    module = __import__(package)
    folder = Path(module.__file__).resolve().parent
    site = folder.parent
    return [(str(f), f.parent.relative_to(site).as_posix()) for f in sorted(folder.rglob("*"))
            if f.is_file() and f.suffix not in (".py", ".pyc") and "__pycache__" not in f.parts]


def fake_pyinstaller(monkeypatch) -> None:
    hooks = types.ModuleType("PyInstaller.utils.hooks")

    def collect_data_files(package):
        if package == "trainer":  # an editable install has no trainer/_data: the wheel's layout
            return [(str(ROOT / "resources"), "trainer/_data/resources")]
        return package_files(package)

    def get_package_paths(package):
        raise ImportError(package)  # as without the class-server extra: no PostgreSQL

    hooks.collect_data_files = collect_data_files
    hooks.collect_submodules = lambda package: []
    hooks.get_package_paths = get_package_paths
    bindepend = types.ModuleType("PyInstaller.depend.bindepend")
    bindepend.get_imports = lambda path: []
    for name in ("PyInstaller", "PyInstaller.utils", "PyInstaller.depend"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, "PyInstaller.utils.hooks", hooks)
    monkeypatch.setitem(sys.modules, "PyInstaller.depend.bindepend", bindepend)


#: plugin folders PyInstaller's hook for QtGui brings whole, into PySide6/Qt/plugins/ (Linux)
HOOKED_PLUGINS = ("imageformats", "platforminputcontexts")


def hooked_plugins() -> list[tuple[str, str]]:
    """As PyInstaller's hook for QtGui: every plugin of HOOKED_PLUGINS installed, with its folder
    in the bundle."""
    import PySide6
    from PySide6.QtCore import QLibraryInfo

    root = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath))
    site = Path(PySide6.__file__).resolve().parent.parent
    return [(str(f), f.parent.resolve().relative_to(site).as_posix())
            for kind in HOOKED_PLUGINS if (root / kind).is_dir()
            for f in sorted((root / kind).iterdir()) if f.is_file()]


class Analysis:
    """PyInstaller's Analysis as far as the spec uses it: its tables of (name in the bundle, file,
    kind), from what it is given and what PyInstaller's hooks add (`hooked_plugins`)."""

    def __init__(self, scripts, *, hiddenimports, datas, excludes, binaries=(), **_):
        self.hiddenimports, self.excludes = list(hiddenimports), list(excludes)
        binaries = [*binaries, *hooked_plugins()]
        self.binaries = [(f"{d}/{Path(s).name}", s, "BINARY") for s, d in binaries]
        self.datas = [(f"{d}/{Path(s).name}", s, "DATA") for s, d in datas]
        self.pure, self.scripts = [], []


@pytest.fixture
def recipe(monkeypatch, tmp_path):
    """The spec run with the stand-ins: the Analysis it made."""
    fake_pyinstaller(monkeypatch)
    (tmp_path / "dealer-trainer").mkdir()
    made: list[Analysis] = []

    def analysis(*args, **kwargs):
        made.append(Analysis(*args, **kwargs))
        return made[-1]

    monkeypatch.setenv("DEALER_TRAINER_ICONS", str(tmp_path / "no-icons"))
    monkeypatch.setenv("DEALER_TRAINER_NOTICES", str(tmp_path / "no-notices"))
    nothing = lambda *a, **k: None  # noqa: E731 (PYZ, EXE, COLLECT, BUNDLE: the build itself)
    names = {"__file__": str(SPEC), "SPECPATH": str(SPEC.parent), "DISTPATH": str(tmp_path),
             "Analysis": analysis, "PYZ": nothing, "EXE": nothing, "COLLECT": nothing,
             "BUNDLE": nothing}
    exec(compile(SPEC.read_text(encoding="utf-8"), str(SPEC), "exec"), names)
    assert len(made) == 1
    return made[0]


def loaded_by_spoken_calls() -> set[str]:
    """The modules of Qt and pocketsphinx the app loads once it listens and speaks, in a process
    of their own (one that loaded them already would hide nothing)."""
    code = ("import sys, ui.qt as q; q.multimedia(); q.texttospeech();"
            "from trainer.speech import recogniser; recogniser.unavailable();"
            "print(*sorted(m for m in sys.modules if m.startswith(('PySide6.', 'pocketsphinx'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"},
                          timeout=120)
    if done.returncode != 0:
        pytest.skip(f"spoken calls' modules cannot be loaded here: {done.stderr.strip()[-300:]}")
    return set(done.stdout.split())


def left_out(name: str, excludes) -> bool:
    return any(name == e or name.startswith(e + ".") for e in excludes)


def test_nothing_spoken_calls_load_is_left_out_of_the_bundle(recipe):
    """Qt Multimedia imports QtNetwork as it loads: a recipe that leaves QtNetwork out makes
    a bundle whose microphone cannot be loaded."""
    loaded = loaded_by_spoken_calls()
    assert {"PySide6.QtMultimedia", "PySide6.QtNetwork", "PySide6.QtTextToSpeech"} <= loaded
    assert not [m for m in loaded if left_out(m, recipe.excludes)]
    hidden = set(recipe.hiddenimports)
    # loaded by name inside functions, so named to PyInstaller
    assert {"PySide6.QtMultimedia", "PySide6.QtTextToSpeech", "pocketsphinx"} <= hidden


def test_the_recognisers_english_model_travels_where_pocketsphinx_finds_it(recipe):
    pocketsphinx = pytest.importorskip("pocketsphinx")
    model = Path(pocketsphinx.get_model_path())
    site = Path(pocketsphinx.__file__).resolve().parent.parent
    kept = {name for name, _src, _kind in recipe.datas}
    files = [f for f in model.rglob("*") if f.is_file()]
    assert any(f.name == "mdef" for f in files) and any(f.suffix == ".dict" for f in files)
    missing = [f.relative_to(site).as_posix() for f in files
               if f.resolve().relative_to(site).as_posix() not in kept]
    assert not missing, f"{len(missing)} of the model's {len(files)} files are not in the bundle"


def test_the_sound_and_speech_plugins_are_kept_and_the_silent_engine_left_out(recipe):
    """Qt Multimedia's back end (the microphone's) and the speech engines are plugins, which
    PyInstaller's hooks for PySide6 do not all collect: the recipe names their folders."""
    pytest.importorskip("PySide6.QtMultimedia")
    from PySide6.QtCore import QLibraryInfo

    plugins = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath))
    kept = {Path(name).name for name, _src, _kind in recipe.binaries}
    for kind in ("multimedia", "texttospeech"):
        found = [f.name for f in (plugins / kind).iterdir() if f.is_file()]
        assert found, kind
        assert {n for n in found if "mock" not in n} <= kept, kind
    assert not [n for n in kept if "texttospeech_mock" in n]


#: the screens the app is drawn on to see what it loads (every kind: tables, charts, the class,
#: an exam's result, the supervise screen)
DRAWN = ("practice", "table-pai-gow-dice", "progress", "class", "exam-result", "rules", "supervise")


@pytest.mark.qt  # the app, drawn in a program of its own, whose code the markers cannot read
def test_the_app_reads_no_image_format_but_svg_and_loads_no_virtual_keyboard(tmp_path):
    """What the recipe leaves out, the app never loads: drawn on screens of every kind, with its
    speech modules loaded, it loads of Qt's image formats SVG's alone (its icon; its PNGs are
    Qt's own), not Qt Pdf, nor the virtual keyboard (Linux: the process's mapped files)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the libraries a process loaded are read from /proc/self/maps (Linux)")
    code = ("import sys; from ui.shell.app import run; import ui.qt as q\n"
            "for s in sys.argv[2:]: run(screenshot=f'{sys.argv[1]}/{s}.png', screen=s)\n"
            "q.multimedia().QMediaDevices.audioInputs(); q.texttospeech()\n"
            "print(*sorted({l.split()[-1] for l in open('/proc/self/maps') if 'PySide6' in l}))")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path), *DRAWN], capture_output=True,
                          text=True, cwd=ROOT, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen",
                               "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    loaded = [Path(f) for f in done.stdout.split()]
    assert len(list(tmp_path.glob("*.png"))) == len(DRAWN)
    formats = {f.name for f in loaded if f.parent.name == "imageformats"}
    assert formats == {"libqsvg.so"}
    assert not [f.name for f in loaded if "Pdf" in f.name or "VirtualKeyboard" in f.name]
    assert not [f.name for f in loaded if f.parent.name == "platforminputcontexts" and "virtual" in f.name]


def test_what_the_app_never_loads_is_left_out_and_what_it_may_load_kept(recipe):
    """PDF's image format (which brings Qt Pdf) and the virtual keyboard's input context (which
    brings Qt Virtual Keyboard) are left out; SVG's format and a PC keyboard's input contexts
    (compose, IBus), which the app loads, are kept (the names the spec leaves out are Linux's)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the spec names the plugins it leaves out as Linux names them")
    kept = {Path(name).name for name, _src, _kind in recipe.binaries}
    installed = {Path(src).name for src, _folder in hooked_plugins()}
    assert {"libqpdf.so", "libqtvirtualkeyboardplugin.so"} <= installed
    assert "libqpdf.so" not in kept and "libqtvirtualkeyboardplugin.so" not in kept
    assert {"libqsvg.so", "libcomposeplatforminputcontextplugin.so",
            "libibusplatforminputcontextplugin.so"} <= kept
