"""Supervised rounds travel in results files (trainer.progress.supervised_file): exported with
their flags, dealt again and scored again on import (never taken as the file scores them), added
once however often the file is imported, and a hostile entry refused by name with nothing added."""

from __future__ import annotations

import json

import pytest

from trainer.progress import ResultsFileError, Store, export_results, import_results, record_supervised
from trainer.supervise.playback import deal
from trainer.supervise.scoring import Flag, score

T = 1_780_000_000.0


def faulty(game: str, start: int):
    seed = next(s for s in range(start, start + 80) if len(deal(game, 2, s).faults) >= 2)
    return deal(game, 2, seed)


@pytest.fixture
def exported(tmp_path):
    """Ana's file: one round of Props & Hops (its first fault caught, the second missed, one false
    alarm) and one of Pai Gow dice (nothing flagged); exported to a results file."""
    src = tmp_path / "src.db"
    with Store.open(src) as store:
        ana = store.add_trainee("Ana")
        one = faulty("props-and-hops", 1)
        first = one.faults[0]
        record_supervised(store, ana, one, score(one, [Flag(first.at + 1.0, first.target, first.type.id),
                                                       Flag(0.0, "call", "wrong-call")]), 2, finished=T)
        two = faulty("pai-gow-dice", 5)
        record_supervised(store, ana, two, score(two, []), 3, finished=T + 60)
        path = tmp_path / "ana.json"
        export_results(store, path)
    return path, one, two


def rows(store):
    return [tuple(r.values()) for r in store.query(
        "SELECT r.round_uid, r.game, r.difficulty, r.finished, r.false_alarms, f.n, f.caught "
        "FROM supervised_rounds r JOIN supervised_faults f ON f.round_id = r.id ORDER BY r.finished, f.n")]


def test_rounds_go_in_the_file_and_come_back_rescored_once(exported, tmp_path):
    path, one, two = exported
    doc = json.loads(path.read_text())
    assert [(s["round"], s["difficulty"], len(s["flags"])) for s in doc["supervised"]] == [
        (one.id, 2, 2), (two.id, 3, 0)]
    with Store.open(tmp_path / "dest.db") as dest:
        summary = import_results(dest, path)
        assert summary.supervised == 2
        expected = [(one.id, "props-and-hops", 2, T, 1, n, int(n == 0)) for n in range(len(one.faults))] + [
            (two.id, "pai-gow-dice", 3, T + 60, 0, n, 0) for n in range(len(two.faults))]
        assert rows(dest) == expected
        assert import_results(dest, path).supervised == 0
        assert rows(dest) == expected


def test_a_round_is_scored_here_not_as_the_file_says(exported, tmp_path):
    """A file whose flags were moved off the fault: the round arrives with the fault missed."""
    path, one, _ = exported
    doc = json.loads(path.read_text())
    doc["supervised"][0]["flags"] = [{"at": 0.0, "target": "call", "kind": "wrong-call"}]
    path.write_text(json.dumps(doc))
    with Store.open(tmp_path / "dest.db") as dest:
        import_results(dest, path)
        caught = dest.query("SELECT sum(f.caught) AS n FROM supervised_faults f JOIN supervised_rounds r "
                            "ON r.id = f.round_id WHERE r.round_uid = ?", (one.id,))[0]["n"]
    assert caught == 0


def test_a_round_this_machine_cannot_deal_is_left_out_and_named(exported, tmp_path):
    path, _, two = exported
    doc = json.loads(path.read_text())
    doc["supervised"][0]["round"] = "supervise-v1:no-such-scenario:2:1"
    path.write_text(json.dumps(doc))
    with Store.open(tmp_path / "dest.db") as dest:
        summary = import_results(dest, path)
        assert summary.supervised == 1
        assert any("supervised[0]" in why and "no-such-scenario" in why for why in summary.left_out)
        assert {r[0] for r in rows(dest)} == {two.id}


@pytest.mark.parametrize(("spoil", "says"), [
    (lambda d: d.update(supervised={}), "supervised: must be a list"),
    (lambda d: d["supervised"][0].update(trainee=99), "supervised[0].trainee"),
    (lambda d: d["supervised"][0].update(difficulty=True), "supervised[0].difficulty"),
    (lambda d: d["supervised"][0].update(pace=0), "supervised[0].pace"),
    (lambda d: d["supervised"][0].update(finished=-1), "supervised[0].finished"),
    (lambda d: d["supervised"][0].update(round=""), "supervised[0].round"),
    (lambda d: d["supervised"][0].update(flags=[{}] * 1001), "supervised[0].flags"),
    (lambda d: d["supervised"][0]["flags"].append({"at": 1e308 * 10, "target": "call", "kind": "x"}),
     "supervised[0].flags[2].at"),
    (lambda d: d["supervised"][0]["flags"].append({"at": 1.0, "target": "", "kind": "x"}),
     "supervised[0].flags[2].target"),
    (lambda d: d["supervised"][0].update(score="1"), "unknown field 'score'"),
])
def test_a_hostile_entry_is_refused_by_name_and_nothing_added(exported, tmp_path, spoil, says):
    path, _, _ = exported
    doc = json.loads(path.read_text())
    spoil(doc)
    path.write_text(json.dumps(doc))
    with Store.open(tmp_path / "dest.db") as dest:
        with pytest.raises(ResultsFileError, match=says.replace("[", r"\[").replace("]", r"\]")) as e:
            import_results(dest, path)
        assert "\n" not in str(e.value)
        assert rows(dest) == [] and dest.trainees() == []


def test_a_file_of_bundled_scenarios_rounds_reads_the_library_once(tmp_path, monkeypatch):
    """The sixth cold review's #130: each supervised round of a bundled scenario read the whole
    library again (0.62 s a round: 31 s for a file of 50). Now the file reads it once, and each
    round still comes back dealt again and rescored."""
    import trainer.library
    from trainer.supervise.rounds import again

    rounds = [again(f"supervise-v1:hrd-full-table:2:{seed}") for seed in (1, 2, 3, 1)]
    src = tmp_path / "src.db"
    with Store.open(src) as store:
        ana = store.add_trainee("Ana")
        for n, rnd in enumerate(rounds):
            first = rnd.faults[0]
            flags = [Flag(first.at + 1.0, first.target, first.type.id)]
            record_supervised(store, ana, rnd, score(rnd, flags), 2, finished=T + 60 * n)
        path = tmp_path / "ana.json"
        export_results(store, path)
    reads = []
    real = trainer.library.load_library
    monkeypatch.setattr(trainer.library, "load_library", lambda *a, **k: reads.append(1) or real(*a, **k))
    with Store.open(tmp_path / "dest.db") as dest:
        assert import_results(dest, path).supervised == 4
        assert len(reads) == 1
        assert dest.query("SELECT count(*) AS n FROM supervised_faults WHERE caught")[0]["n"] == 4
