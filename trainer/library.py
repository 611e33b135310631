"""The bundled scenario library: every file under scenarios/, with the broken ones reported
(never raised), so the app starts whatever a property's technician dropped in the folder.

The folder is read, checked and played once for as long as its files stay as they are: each call
looks at the files' names, sizes and times of change, reads them all again when any of these
differs (a file added, removed or edited while the app runs), and otherwise hands out copies of
what it read. Supervise's every deal, Practice's next scenario and the Scenarios screen take the
library; a copy (3.7 ms of CPU for the bundled 62, a reading 65 ms) shares only what cannot
change (the frozen wagers and faults; each event is copied with its own throw: trainer.scenario),
so no caller's change to a scenario reaches another's."""

from __future__ import annotations

import copy
import os
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


#: each folder read: what its files were when it was read (`_files`), and what it held
_read: dict[Path, tuple[tuple[tuple[str, int, int], ...], Library]] = {}


def _files(paths: list[Path]) -> tuple[tuple[str, int, int], ...] | None:
    """Each file's name, size and time of change (in nanoseconds); None where one cannot be
    looked at (it went between the listing and the look): the folder is then read again."""
    seen = []
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            return None
        seen.append((str(path), st.st_size, st.st_mtime_ns))
    return tuple(seen)


def load_library(root: Path | None = None) -> Library:
    root = Path(root or scenarios_dir())
    paths = sorted(root.glob("*/*.toml"))
    files = _files(paths)
    kept = _read.get(root)
    if files is None or kept is None or kept[0] != files:
        lib = _load(root, paths)
        if files is None:
            return lib
        _read[root] = kept = (files, lib)
    return Library(copy.deepcopy(kept[1].scenarios), list(kept[1].problems))


def _load(root: Path, paths: list[Path]) -> Library:
    lib = Library()
    seen: set[str] = set()
    for path in paths:
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
