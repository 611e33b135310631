"""The bundled scenario library: every file under scenarios/, with the broken ones reported
(never raised), so the app starts whatever a property's technician dropped in the folder."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from trainer.paths import scenarios_dir
from trainer.procedure import build
from trainer.scenario import Scenario, ScenarioError, load


@dataclass
class Library:
    scenarios: list[Scenario] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # "file:line: message", one per bad file

    def by_id(self, scenario_id: str) -> Scenario | None:
        return next((s for s in self.scenarios if s.id == scenario_id), None)


def load_library(root: Path | None = None) -> Library:
    root = root or scenarios_dir()
    lib = Library()
    seen: set[str] = set()
    for path in sorted(root.glob("*/*.toml")):
        try:
            scenario = load(path)
            build(scenario)
        except ScenarioError as e:
            lib.problems.append(str(e).replace(str(root) + "/", ""))
            continue
        except Exception as e:  # whatever is wrong with one file, the others still load
            lib.problems.append(f"{path.relative_to(root)}:1: cannot be read "
                                f"({type(e).__name__}: {e})")
            continue
        if scenario.id in seen:
            lib.problems.append(f"{path.relative_to(root)}:1: the id {scenario.id!r} is used twice")
            continue
        seen.add(scenario.id)
        lib.scenarios.append(scenario)
    return lib
