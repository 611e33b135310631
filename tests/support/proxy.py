"""A TCP proxy in the test's own process, between the app and the class server, that can go
silent: `silent()` and what anyone sends through it from then on is taken and held, unanswered
(the connection stays open, new ones are accepted): a firewall dropping packets, a server that
is there and never answers. `answer()` lets what was held go on, as if the network came back.

    with SilentProxy(server_port) as proxy:
        url = f"postgresql://...@127.0.0.1:{proxy.port}/..."
        proxy.silent()
        ...                       # proxy.held: bytes taken and not passed on since then
        proxy.answer()
"""

from __future__ import annotations

import contextlib
import socket
import threading


class SilentProxy:
    def __init__(self, upstream_port: int, host: str = "127.0.0.1"):
        self.upstream = (host, upstream_port)
        self._open = threading.Event()  # set: passing; clear: silent
        self._open.set()
        self._lock = threading.Lock()
        self.held = 0  # bytes taken while silent and not passed on yet
        self._listener = socket.create_server((host, 0))
        self.port = self._listener.getsockname()[1]
        self._sockets: list[socket.socket] = [self._listener]
        self._closed = False
        threading.Thread(target=self._accept, name="silent-proxy", daemon=True).start()

    def silent(self) -> None:
        self._open.clear()

    def answer(self) -> None:
        self._open.set()

    @property
    def is_silent(self) -> bool:
        return not self._open.is_set()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.upstream)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), name="silent-proxy-pipe",
                                 daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                if not self._open.is_set():
                    with self._lock:
                        self.held += len(data)
                    self._open.wait()
                    with self._lock:
                        self.held -= len(data)
                sink.sendall(data)
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                sink.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        self._closed = True
        self._open.set()
        with self._lock:
            for s in self._sockets:
                with contextlib.suppress(OSError):
                    s.close()

    def __enter__(self) -> SilentProxy:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
