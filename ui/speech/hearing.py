"""One call heard: a `trainer.speech.Listener` made and fed from an input (ui.speech.audio) on a
thread of its own, never the window's; its level and its verdict come back to the window as
signals. The input starts at once: what is said while the listener loads its grammar waits for
it, so that the times it gives count from the start of listening.

The thread never emits on the Hearing: a Hearing is the child of its screen, which a trainee may
close while the thread is in the middle of a call, and a signal emitted from the thread on an
object deleted at that very moment ended the whole app (a segmentation fault, which no
`RuntimeError` check can catch). What it finds (levels, the verdict, a failure, its end) goes
through one `_Relay` for the whole app, never deleted, to the window's thread, which hands it to
the Hearing if it is still there."""

from __future__ import annotations

import itertools
import queue
import threading

from ui.qt import QObject, QTimer, Signal

#: the longest a call is listened for: then the input has ended, and the listener decides on
#: what it heard (no call, if nothing)
LISTEN_SECONDS = 8.0

_END = object()  # the input ended: decide
_STOP = object()  # stopped: no verdict wanted


class _Relay(QObject):
    """What listening threads found, carried to the window's thread (a queued signal: it lives
    there) and handed to their Hearing while it is there (`_live`, by key)."""

    found = Signal(int, str, object)  # the Hearing's key, its signal's name ("ended": none), value

    def __init__(self):
        super().__init__()
        self.found.connect(self._deliver)

    def _deliver(self, key: int, name: str, value) -> None:
        hearing = _live.get(key)
        if hearing is None:  # deleted with its screen meanwhile
            return
        if name == "ended":
            hearing.deleteLater()  # the thread is done: the object may go, not before
        elif not hearing.done:  # nothing more once stopped
            getattr(hearing, name).emit(value)


_relay: _Relay | None = None
_live: dict[int, Hearing] = {}  # the Hearings not yet deleted, by key
_keys = itertools.count()


class Hearing(QObject):
    """Make a listener (`listen()`) and feed it from `source` off the GUI thread until it gives
    its verdict."""

    level = Signal(float)  # the last block's loudness, 0..1
    verdict = Signal(object)  # trainer.speech.Verdict
    failed = Signal(str)

    def __init__(self, listen, source, seconds: float = LISTEN_SECONDS, parent=None):
        super().__init__(parent)
        global _relay
        if _relay is None:  # made on the window's thread, as every Hearing is
            _relay = _Relay()
        self._relay, self._key = _relay, next(_keys)
        _live[self._key] = self
        self.listen, self.source = listen, source
        self.listener = None
        source.setParent(self)
        self._blocks: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="spoken-call", daemon=True)
        source.blocks.connect(self._blocks.put)
        source.ended.connect(self.end)
        source.failed.connect(self._failed)
        self._limit = QTimer(self)
        self._limit.setSingleShot(True)
        self._limit.setInterval(round(seconds * 1000))
        self._limit.timeout.connect(self.end)
        self.done = False
        #: the sound fed to the listener, once it gave its verdict (what a kept call keeps)
        self.sound = b""
        key, blocks = self._key, self._blocks

        def gone(*_) -> None:  # deleted (with its screen, even unstopped): the thread ends too
            _live.pop(key, None)
            blocks.put(_STOP)

        self.destroyed.connect(gone)

    def start(self) -> None:
        self._thread.start()
        self.source.start()
        self._limit.start()

    def end(self) -> None:
        """The input ended (the file's end, the time limit): the listener decides."""
        self._limit.stop()
        self.source.stop()
        self._blocks.put(_END)

    def stop(self) -> None:
        """No verdict wanted any more (the call was made by hand, the round ended)."""
        self.done = True
        self._limit.stop()
        self.source.stop()
        self._blocks.put(_STOP)

    def wait(self, seconds: float = 5.0) -> bool:
        """Wait for the thread to end (tests, closing); whether it did."""
        if self._thread.is_alive():
            self._thread.join(seconds)
        return not self._thread.is_alive()

    def _failed(self, text: str) -> None:
        self.stop()
        self.failed.emit(text)

    def _run(self) -> None:
        try:
            try:
                self.listener = self.listen()
            except Exception as e:  # a recogniser that cannot start: said, and the keys go on
                self._tell("failed", f"Cannot listen: {e}")
                return
            fed: list[bytes] = []
            while True:
                block = self._blocks.get()
                if block is _STOP:
                    return
                if block is _END:
                    self.sound = b"".join(fed)
                    self._give(self.listener.finish())
                    return
                fed.append(block)
                found = self.listener.feed(block)
                if not self.done:
                    self._tell("level", float(self.listener.level))
                if found is not None:
                    self.sound = b"".join(fed)
                    self._give(found)
                    return
        except Exception as e:  # the recogniser's failure is said, never a traceback
            self._tell("failed", f"The speech recogniser stopped: {e}")
        finally:
            self._tell("ended", None)

    def _give(self, verdict) -> None:
        self._tell("verdict", verdict)

    def _tell(self, name: str, value) -> None:
        """From the thread: through the relay, never on this object."""
        self._relay.found.emit(self._key, name, value)
