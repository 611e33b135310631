"""The answer key of a scenario (`dealer-trainer key`): the expected procedure, numbered and
cited, for instructors."""

from __future__ import annotations

from trainer import games
from trainer.procedure import build
from trainer.procedure.model import TRAINEE_DOES
from trainer.scenario import Scenario


def key_json(s: Scenario) -> dict:
    proc = build(s)
    mine = TRAINEE_DOES[s.automation]
    return {
        "scenario": s.id, "title": s.title, "game": s.game, "difficulty": s.difficulty,
        "automation": s.automation.value, "target_seconds": s.target_seconds,
        "stages": [[{
            "id": a.id, "round": a.round, "do": a.do.value, "label": a.label, "cite": a.cite,
            "skill": a.skill.value, "note": a.note, "trainee": a.do in mine,
            **{k: v for k, v in (("seat", a.seat), ("bet", a.bet), ("amount", a.amount),
                                 ("value", a.value)) if v is not None},
        } for a in stage] for stage in proc.stages],
    }


def key_text(s: Scenario) -> str:
    proc = build(s)
    mine = TRAINEE_DOES[s.automation]
    game = games.get(s.game)
    out = [f"Answer key: {s.title} ({s.id})",
           f"{game.name} · difficulty {s.difficulty} · the trainee does: {s.automation.value} · "
           f"target {s.target_seconds} s", "", s.briefing, ""]
    current = None
    for n, stage in enumerate(proc.stages, start=1):
        if stage[0].round != current:
            current = stage[0].round
            out.append("Before the first throw" if current == 0 else f"Throw {current}")
        who = lambda a: "" if a.do in mine else "   [trainer]"  # noqa: E731
        if len(stage) == 1:
            a = stage[0]
            out.append(f"{n:>3}. {a.label} — {a.note} ({a.cite}){who(a)}")
        else:
            out.append(f"{n:>3}. In any order:")
            for letter, a in zip("abcdefghijklmnopqrstuvwxyz", stage, strict=False):
                out.append(f"       {letter}. {a.label} — {a.note} ({a.cite}){who(a)}")
    return "\n".join(out)
