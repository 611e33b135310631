"""`DemoClass`: a demonstration class's progress file (trainer.progress.demo) answering the live
Class tab's questions as a class server would (ClassConnection's instructor calls), for its
screenshot, with no PostgreSQL."""

from __future__ import annotations

import threading
import time

from trainer.classes.workstation.classview import RECENT, ClassActivity, ClassReading, Working
from trainer.progress.classroom import TRAINEE_ATTEMPTS, ClassOverview, class_overview
from trainer.progress.records import Attempt
from trainer.progress.store import Store


class DemoClass:
    """A progress file's class as the live Class tab reads a class server: ClassConnection's
    instructor calls (`class_overview`, `class_activity`, `read_class`, `attempts_of`, `follow`),
    so that the real live view (ui.classroom.live.LiveClass) draws it, for its screenshot, with no
    PostgreSQL.

    Everything is read here, once, on the thread that makes it: a SQLite connection stays on the
    thread that opened it, and the live view reads on threads of its own. The activity follows
    the server's rules (trainer.classes.workstation.classview.class_activity): each trainee's last
    attempt, working now when newer than RECENT; each trainee at work counts as a workstation of
    their own (a file does not know which workstation recorded what). Nothing new arrives."""

    def __init__(self, store: Store, *, now: float | None = None):
        now = time.time() if now is None else now
        self.overview = class_overview(store, now=now)
        self.attempts = {t.id: store.attempts(t.id, newest_first=True, limit=TRAINEE_ATTEMPTS)
                         for t in self.overview.trainees}
        last = sorted((Working(t.name, mine[0].item_id, mine[0].ended) for t in self.overview.trainees
                       if (mine := self.attempts[t.id])), key=lambda w: -w.ended)
        working = [w for w in last if w.ended >= now - RECENT]
        self.activity = ClassActivity(len(working), last[0].ended if last else None, working)

    def class_overview(self, **_options) -> ClassOverview:
        return self.overview

    def class_activity(self, **_options) -> ClassActivity:
        return self.activity

    def read_class(self, before=None, arrived=None) -> ClassReading:
        return ClassReading(self.overview, self.activity)

    def attempts_of(self, trainee_id: int, **_options) -> list[Attempt]:
        return self.attempts.get(trainee_id, [])

    def follow(self, stop: threading.Event):
        stop.wait()  # nothing arrives: the class stays as it was read
        return iter(())
