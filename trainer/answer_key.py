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
            "id": a.id, "round": a.throw, "do": a.do.value, "label": a.label, "cite": a.cite,
            "skill": a.skill.value, "note": a.note, "trainee": a.do in mine,
            "after": sorted(s + 1 for s in proc.after[n]),
            **{k: v for k, v in (("seat", a.seat), ("bet", a.bet), ("amount", a.amount),
                                 ("value", a.value)) if v is not None},
        } for a in stage] for n, stage in enumerate(proc.stages)],
    }


def waits_for(proc, n: int) -> str:
    """"" when stage n follows the stage before it; otherwise which stages it waits for."""
    after = sorted(s + 1 for s in proc.after[n])
    if after == ([n] if n else []):
        return ""
    return f"[after {', '.join(map(str, after))}] " if after else "[first] "


def key_text(s: Scenario) -> str:
    proc = build(s)
    mine = TRAINEE_DOES[s.automation]
    game = games.get(s.game)
    out = [f"Answer key: {s.title} ({s.id})",
           f"{game.name} · difficulty {s.difficulty} · the trainee does: {s.automation.value} · "
           f"target {s.target_seconds} s", "", s.briefing, ""]
    out.append("Steps are done in their numbered order; a step marked [after …] waits only for "
               "those steps, so it may come before the ones just above it.")
    current = None
    for n, stage in enumerate(proc.stages, start=1):
        if stage[0].throw != current:
            current = stage[0].throw
            out.append("Before the first throw" if current == 0 else f"Throw {current}")
        who = lambda a: "" if a.do in mine else "   [trainer]"  # noqa: E731
        order = waits_for(proc, n - 1)
        if len(stage) == 1:
            a = stage[0]
            out.append(f"{n:>3}. {order}{a.label} — {a.note} ({a.cite}){who(a)}")
        else:
            out.append(f"{n:>3}. {order}In any order:")
            for letter, a in zip("abcdefghijklmnopqrstuvwxyz", stage, strict=False):
                out.append(f"       {letter}. {a.label} — {a.note} ({a.cite}){who(a)}")
    return "\n".join(out)
