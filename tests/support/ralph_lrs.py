"""A Ralph LRS for the hand-off's tests: ralph-malph's own API server (its statements resource,
its rule for a statement id it knows already, its basic authentication), started in a process of
its own on the loopback address, on Ralph's MongoDB backend.

The one stand-in is the database under that backend: no database any of Ralph's LRS backends
speaks to can run on this machine without the network. MongoDB, Elasticsearch and FerretDB are in
no registry it reaches, Debian's ClickHouse (18.16) predates the DateTime64 columns Ralph's
ClickHouse backend queries, and Ralph's filesystem backend writes each POST to a file of its own
while it looks a statement id up in one default file only, so it never meets a statement sent
before. So the backend's client is mongomock's (MongoDB's query language in memory), set in
Ralph's MongoDB module before its API starts; everything above the database is Ralph's.

    with ralph_lrs(tmp_path) as lrs:
        lrs.post(statements)  # (status, answer)
        lrs.stored()          # every statement the LRS keeps

`python -m tests.support.ralph_lrs PORT FOLDER` is the server's process."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

USER, PASSWORD = "school", "school-lrs-password"
XAPI_VERSION = "1.0.3"


@dataclass
class Ralph:
    url: str  # the LRS's xAPI root, ending /xAPI

    def _call(self, method: str, path: str, body=None) -> tuple[int, object]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method, headers={
            "Authorization": "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode(),
            "X-Experience-API-Version": XAPI_VERSION, "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                text = answer.read()
                return answer.status, json.loads(text) if text else None
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")

    def post(self, statements: list[dict]) -> tuple[int, object]:
        """POST the statements in one request: the status and the LRS's answer."""
        return self._call("POST", "/statements", statements)

    def stored(self) -> list[dict]:
        """The statements the LRS gives for a GET of its statements (its pages followed)."""
        found: list[dict] = []
        path = "/statements?limit=500"
        while path:
            status, page = self._call("GET", path)
            assert status == 200, (status, page)
            found += page["statements"]
            more = page.get("more") or ""
            path = more.split("/xAPI", 1)[1] if more else ""
        return found


@contextlib.contextmanager
def ralph_lrs(folder: Path) -> Iterator[Ralph]:
    """Ralph's LRS started in its own process, with one user (`USER`) who may read and write
    statements; stopped afterwards."""
    import bcrypt

    from tests.support.class_server import free_port

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "auth.json").write_text(json.dumps([{
        "username": USER, "hash": bcrypt.hashpw(PASSWORD.encode(), bcrypt.gensalt(4)).decode(),
        "scopes": ["all"], "agent": {"mbox": "mailto:lrs@school.example"}}]))
    port = free_port()
    log = (folder / "ralph.log").open("w")
    process = subprocess.Popen([sys.executable, "-m", "tests.support.ralph_lrs", str(port), str(folder)],
                               stdout=log, stderr=subprocess.STDOUT, cwd=Path(__file__).resolve().parents[2])
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/__lbheartbeat__", timeout=5):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError("Ralph's LRS did not start: "
                                         + (folder / "ralph.log").read_text()[-2000:]) from None
                time.sleep(0.1)
        yield Ralph(f"http://127.0.0.1:{port}/xAPI")
    finally:
        process.terminate()
        process.wait(30)
        log.close()


def main(port: int, folder: str) -> None:
    os.environ.update({
        "RALPH_APP_DIR": folder, "RALPH_AUTH_FILE": str(Path(folder) / "auth.json"),
        "RALPH_RUNSERVER_BACKEND": "mongo",
        "RALPH_BACKENDS__LRS__MONGO__CONNECTION_URI": "mongodb://127.0.0.1:27017",
        "RALPH_BACKENDS__LRS__MONGO__DEFAULT_DATABASE": "lrs",
        "RALPH_BACKENDS__LRS__MONGO__DEFAULT_COLLECTION": "statements"})
    import mongomock
    import ralph.backends.data.mongo
    import uvicorn

    def client(host, **options):  # the one stand-in (see above); Ralph's options left unset are unset
        return mongomock.MongoClient(host, **{k: v for k, v in options.items() if v is not None})

    ralph.backends.data.mongo.MongoClient = client
    from ralph.api import app

    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
