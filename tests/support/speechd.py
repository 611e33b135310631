"""A speech-dispatcher of a test's (or a benchmark's) own: started on a socket in a folder of its
own, with ALSA's "null" device for sound (no sound card here: what is proven is that the engine is
found and takes the words, not that anything is heard), and ended by whoever started it. The app
reaches it through SPEECHD_ADDRESS, as libspeechd reads it."""

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


def missing() -> str | None:
    """Why no speech-dispatcher of one's own can be started here, or None."""
    if shutil.which("speech-dispatcher") is None or not (CONF / "speechd.conf").exists():
        return "speech-dispatcher is not installed (apt-get install speech-dispatcher espeak-ng)"
    from PySide6.QtCore import QLibraryInfo

    folder = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "texttospeech"
    if not any(p.name.startswith(PLUGIN) for p in folder.glob("*")):
        return f"Qt's speech-dispatcher plugin ({PLUGIN}) is not in this PySide6"
    return None


def start(folder: Path) -> tuple[subprocess.Popen, str]:
    """A speech-dispatcher with its configuration, socket, pid file and log in `folder`, and the
    SPEECHD_ADDRESS that reaches it; RuntimeError where it does not start."""
    conf = folder / "conf"
    shutil.copytree(CONF, conf)
    with open(conf / "speechd.conf", "a") as f:
        f.write('\nAudioOutputMethod "alsa"\nAudioALSADevice "null"\n')
    sock = folder / "speechd.sock"
    proc = subprocess.Popen([shutil.which("speech-dispatcher") or "speech-dispatcher", "-s",
                             "-t", "0", "-c", "unix_socket", "-S", str(sock),
                             "-P", str(folder / "speechd.pid"), "-C", str(conf),
                             "-L", str(folder / "log")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
