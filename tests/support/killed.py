"""Programs killed at a chosen line, each in a process of its own but not a new interpreter
each time: each run is forked from one server process that imported the progress file's modules
once, so that a test of many kills pays the interpreter's start and the imports (0.6 s of CPU)
once, not once a kill. A run starts as a program started afresh would: the server never opens a
store, and each run is a fork of it alone (never of the test's own process, with its threads,
its Qt and its caches). The server is this process's child, waited for when it ends.

`run(source, *argv)` runs `source` (a program's text, which reads `sys.argv[1:]`) as `python -c
source ARGV` runs it: its exit status (-9 when it killed itself with SIGKILL), stdout and stderr,
as subprocess.run gives them."""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.support.paths import ROOT

#: what the server imports before it forks any run
PRELOAD = ("trainer.progress", "trainer.progress.integrity", "trainer.progress.leftovers",
           "trainer.progress.opening", "trainer.progress.schema", "trainer.progress.store")

SERVER = """
import json, os, sys
from tests.support.forked import run_as_main
for name in sys.argv[1:]:
    __import__(name)
for line in sys.stdin:
    run = json.loads(line)
    pid = os.fork()
    if pid == 0:
        sys.stdin = open(os.devnull)
        sys.stdout = open(run["out"], "w", encoding="utf-8")
        sys.stderr = open(run["err"], "w", encoding="utf-8")
        os._exit(run_as_main(run["source"], run["argv"]))
    _, status = os.waitpid(pid, 0)
    print(-os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status), flush=True)
"""

_server: subprocess.Popen | None = None


def _started() -> subprocess.Popen:
    global _server
    if _server is None or _server.poll() is not None:
        _server = subprocess.Popen([sys.executable, "-c", SERVER, *PRELOAD], cwd=ROOT, text=True,
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True,
                                   env={**os.environ, "PYTHONPATH": str(ROOT)})
    return _server


@atexit.register
def _stop() -> None:
    if _server is not None and _server.poll() is None:
        _server.stdin.close()
        _server.wait()


def run(source: str, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
    args = ["-c", source, *argv]
    server = _started()
    with tempfile.TemporaryDirectory(prefix="killed-") as folder:
        out, err = Path(folder, "out"), Path(folder, "err")
        server.stdin.write(json.dumps({"source": source, "argv": list(argv), "out": str(out),
                                       "err": str(err)}) + "\n")
        server.stdin.flush()
        if not select.select([server.stdout], [], [], timeout)[0]:
            os.killpg(server.pid, signal.SIGKILL)  # the server and the run under way
            server.wait()
            raise subprocess.TimeoutExpired(args, timeout)
        status = int(server.stdout.readline())
        read = [p.read_text(encoding="utf-8") if p.exists() else "" for p in (out, err)]
    return subprocess.CompletedProcess(args, status, *read)
