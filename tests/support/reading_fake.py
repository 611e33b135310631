"""The stand-in recogniser of tests/support/speech_fake.py given the enrolment's `Reading`
(trainer/speech/readings.py), for the enrolment dialog's own logic: each reading is heard as the
fake's listener hears it (its plan), and checked as planned here, not by what the sound says: kept,
or refused with the reason given. A reading in which the fake heard no speech is refused, as the
real check refuses it."""

from __future__ import annotations

from dataclasses import dataclass, fields

from tests.support.speech_fake import Verdict
from trainer.speech.readings import Check


@dataclass(frozen=True)
class Read(Verdict):
    check: Check


def readings(fake, *refused: str | None):
    """`fake` (speech_fake.install's) given a Reading: the nth reading made is refused with the
    nth of `refused` (None: kept; past their end: kept). Returns the reasons still to be used."""
    plan = list(refused)
    listener = fake.Listener

    class PlannedReading(listener):
        def __init__(self, prompt):
            super().__init__(prompt.game, prompt.call.text)
            self.why = plan.pop(0) if plan else None

        def feed(self, pcm: bytes):
            return self._read(super().feed(pcm))

        def finish(self):
            return self._read(super().finish())

        def _read(self, verdict):
            if verdict is None:
                return None
            why = self.why
            if verdict.speech_end is None:
                why = "Not kept: no speech was heard. Read the call aloud, once."
            values = {f.name: getattr(verdict, f.name) for f in fields(verdict)}
            return Read(**values, check=Check(why, None, 0, None))

    fake.Reading = PlannedReading
    return plan
