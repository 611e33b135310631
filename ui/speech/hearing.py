"""One call heard: a `trainer.speech.Listener` made and fed from an input (ui.speech.audio) on a
thread of its own, never the window's; its level and its verdict come back to the window as
signals. The input starts at once: what is said while the listener loads its grammar waits for
it, so that the times it gives count from the start of listening."""

from __future__ import annotations

import queue
import threading
from contextlib import suppress

from ui.qt import QObject, QTimer, Signal

#: the longest a call is listened for: then the input has ended, and the listener decides on
#: what it heard (no call, if nothing)
LISTEN_SECONDS = 8.0

_END = object()  # the input ended: decide
_STOP = object()  # stopped: no verdict wanted


class Hearing(QObject):
    """Make a listener (`listen()`) and feed it from `source` off the GUI thread until it gives
    its verdict."""

    level = Signal(float)  # the last block's loudness, 0..1
    verdict = Signal(object)  # trainer.speech.Verdict
    failed = Signal(str)
    _ended = Signal()  # the thread is done: the object may go (it is deleted then, not before)

    def __init__(self, listen, source, seconds: float = LISTEN_SECONDS, parent=None):
        super().__init__(parent)
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
        self._ended.connect(self.deleteLater)

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
                if not self.done:
                    self.failed.emit(f"Cannot listen: {e}")
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
                    self.level.emit(float(self.listener.level))
                if found is not None:
                    self.sound = b"".join(fed)
                    self._give(found)
                    return
        except Exception as e:  # the recogniser's failure is said, never a traceback
            if not self.done:
                self.failed.emit(f"The speech recogniser stopped: {e}")
        finally:
            with suppress(RuntimeError):  # the screen, and this object with it, already gone
                self._ended.emit()

    def _give(self, verdict) -> None:
        if not self.done:
            with suppress(RuntimeError):  # the screen already gone
                self.verdict.emit(verdict)
