"""A speech-dispatcher of a test's (or a benchmark's) own: started on a socket in a folder of its
own, with ALSA's "null" device for sound (no sound card here: what is proven is that the engine is
found and takes the words, not that anything is heard), and ended by whoever started it. The app
reaches it through SPEECHD_ADDRESS, as libspeechd reads it.

A speech-dispatcher a test starts (here, or by the app's engine in the run: tests/support/home.py)
has espeak-ng's English voices only (`english_only`, ESPEAK_DATA_PATH): Qt's plugin lists every
voice of the engine when it is set, and espeak-ng has 13,362 (its 131 languages, each in its 102
variants), which cost the test's process 1.05 s of CPU each time (the 20 here: 0.01 s), five to
eight times a run (the four files of speech tests took 14.4 s of CPU, now 8.5 s). The English
voices are the real ones, and what the app does with them is what it does on a computer with
every language. A test of the slow listing itself starts one with `every_language=True`."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

#: the file name of Qt's plugin for speech-dispatcher
PLUGIN = "libqtexttospeech_speechd"
CONF = Path("/etc/speech-dispatcher")
#: the variable espeak-ng reads for the folder that holds its espeak-ng-data
DATA_PATH = "ESPEAK_DATA_PATH"
#: espeak-ng's own data: its phonemes, English dictionary and English voices, one variant;
#: Bishnupriya Manipuri's voice: Qt's plugin starts on the voice of the system's locale, and where
#: LANG is C (or C.UTF-8, as here) it takes this one, as it does with every language (with English
#: alone it would fail: "Failed to initialize default locale and voice."); and Afrikaans, a
#: language ahead of English, so that the app must choose English among others
ENGLISH = ("intonations", "phondata", "phondata-manifest", "phonindex", "phontab", "en_dict",
           "lang/gmw/en*", "voices/!v/m1", "lang/inc/bpy", "lang/gmw/af", "af_dict")
#: English and nothing else: no voice for a computer whose language is C, where Qt's plugin fails
#: to start on its language and the app must give it English itself
ENGLISH_ALONE = tuple(pattern for pattern in ENGLISH
                      if pattern not in ("lang/inc/bpy", "lang/gmw/af", "af_dict"))
#: what `english_only` must have linked to be of use
NEEDED = ("lang/gmw/en-US", "lang/inc/bpy")


def missing() -> str | None:
    """Why no speech-dispatcher of one's own can be started here, or None."""
    if shutil.which("speech-dispatcher") is None or not (CONF / "speechd.conf").exists():
        return "speech-dispatcher is not installed (apt-get install speech-dispatcher espeak-ng)"
    from PySide6.QtCore import QLibraryInfo

    folder = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "texttospeech"
    if not any(p.name.startswith(PLUGIN) for p in folder.glob("*")):
        return f"Qt's speech-dispatcher plugin ({PLUGIN}) is not in this PySide6"
    return None


def espeak_data() -> Path | None:
    """espeak-ng's data folder (espeak-ng-data) on this computer, or None."""
    for place in (*Path("/usr/lib").glob("*/espeak-ng-data"), Path("/usr/share/espeak-ng-data")):
        if (place / "phondata").is_file() and (place / "en_dict").is_file():
            return place
    return None


def english_only(folder: Path, patterns: tuple[str, ...] = ENGLISH) -> Path | None:
    """A folder for ESPEAK_DATA_PATH whose espeak-ng-data has the English voices only (links to
    the computer's own files, as ENGLISH says), or None where espeak-ng's data is not found or not
    laid out as ENGLISH expects (every voice then)."""
    data = espeak_data()
    if data is None or not all((data / needed).is_file() for needed in NEEDED):
        return None
    made = folder / "espeak-ng-data"
    for pattern in patterns:
        for source in data.glob(pattern):
            link = made / source.relative_to(data)
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(source)
    return folder


def start(folder: Path, *, every_language: bool = False,
          voices: tuple[str, ...] = ENGLISH) -> tuple[subprocess.Popen, str]:
    """A speech-dispatcher with its configuration, socket, pid file and log in `folder`, and the
    SPEECHD_ADDRESS that reaches it; RuntimeError where it does not start. Its espeak-ng has the
    `voices` (ENGLISH's patterns), or every language."""
    conf = folder / "conf"
    shutil.copytree(CONF, conf)
    with open(conf / "speechd.conf", "a") as f:
        f.write('\nAudioOutputMethod "alsa"\nAudioALSADevice "null"\n')
    sock = folder / "speechd.sock"
    env = {k: v for k, v in os.environ.items() if k != DATA_PATH}
    if not every_language and (english := english_only(folder / "espeak", voices)) is not None:
        env[DATA_PATH] = str(english)
    proc = subprocess.Popen([shutil.which("speech-dispatcher") or "speech-dispatcher", "-s",
                             "-t", "0", "-c", "unix_socket", "-S", str(sock),
                             "-P", str(folder / "speechd.pid"), "-C", str(conf),
                             "-L", str(folder / "log")],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if sock.exists() or proc.poll() is not None:
            break
        time.sleep(0.05)
    if not sock.exists():
        stop(proc)
        raise RuntimeError(f"speech-dispatcher did not start (exit {proc.poll()})")
    return proc, f"unix_socket:{sock}"


def stop(proc: subprocess.Popen) -> None:
    """End it: SIGTERM, then SIGKILL where it has not ended within 5 s."""
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
