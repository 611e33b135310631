"""Markers given to every test by what it uses, when the run is collected, so that a run can choose
(`make test-engine` runs `-m "not qt and not postgres and not cli and not slow"`). What a test
uses is read from its code: the test function, the fixtures it takes that are defined in tests/
(and its module's autouse ones), and the functions of tests/ they call, in turn.

- `qt`: it takes qtbot (itself or through a fixture), its module imports ui, its code imports
  or patches something of ui, or it renders the app's window in a subprocess (`--screenshot`);
- `postgres`: it takes the class server's fixtures (server, own_server, klass, unchanged_class,
  joined) or connects to a PostgreSQL itself (psycopg);
- `cli`: it runs the program in a subprocess: run_command, the installed `dealer-trainer`, or
  `python -m ui.main` / `python -m trainer`;
- `slow`: one of the slowest tests of a full run: SLOW below, the test functions that took 3 s or
  more there, all their cases together, at 0.75 s a case or more (measured with --durations=0
  on the 2-core development machine; the class server's start, paid by the first test that
  takes it, not counted). Measured again on 2026-11-26 in a run on a loaded machine (5.65 times
  a quiet run's wall): those under 1.5 s of a quiet run's time left out, those of 5 s or more
  added.
"""

from __future__ import annotations

import inspect
import re
import types
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
SERVER_FIXTURES = {"server", "own_server", "klass", "unchanged_class", "joined"}
# what monkeypatch.setattr("ui.classroom.membership.OPTIONS", ...) patches
UI_ATTRIBUTE = re.compile(r"ui(\.\w+)+\.\w+")
SLOW = {
    "test_app.py::test_a_reproducible_screenshot_is_the_same_bytes_twice",
    "test_app.py::test_screenshot_switch_writes_a_png",
    "test_briefing.py::test_a_bundled_scenario_from_difficulty_3_is_briefed_without_its_answers",
    "test_briefing.py::test_a_dealt_round_from_difficulty_3_is_briefed_without_its_answers",
    "test_class_claims_settled.py::test_the_export_after_a_settling_voids_the_statement_that_gave_her_round_to_the_row_in_ralph",
    "test_class_connections.py::test_a_paused_server_is_said_when_a_resting_pusher_sends_and_nothing_is_lost",
    "test_class_connections.py::test_more_workstations_than_the_server_has_connections_send_everything_once",
    "test_class_exam_quota.py::test_the_instructor_resets_a_workstations_quota",
    "test_class_logins.py::test_no_other_spelling_of_a_name_gets_round_its_login",
    "test_class_logins.py::test_the_give_form_command",
    "test_class_names.py::test_every_spelling_that_reads_as_another_name_is_refused_with_the_workstations_login",
    "test_class_pusher_life.py::test_a_frozen_server_is_not_answering_and_connected_again_when_it_answers",
    "test_class_server_life.py::test_a_command_killed_outright_is_taken_over_at_the_next_start_and_stop_works",
    "test_class_server_life.py::test_programs_under_a_private_folder_are_copied_where_the_server_can_run_them",
    "test_class_server_life.py::test_sighup_stops_it_cleanly",
    "test_class_server_life.py::test_stop_stops_a_server_whose_command_is_gone",
    "test_class_server_log.py::test_fatal_lines_a_login_writes_by_reconnecting_keep_the_log_within_its_bound",
    "test_class_server_migrations.py::test_a_class_migrated_step_by_step_is_the_class_made_today",
    "test_class_server_validates.py::test_a_refusal_names_the_row_and_why",
    "test_class_server_validates.py::test_an_instructor_retracts_an_attempt_with_a_reason_and_nobody_takes_it_back",
    "test_class_server_watch.py::test_a_listener_that_never_reads_is_ended_and_the_notify_queue_drains",
    "test_class_supervised.py::test_the_server_checks_every_round",
    "test_class_supervised_ui.py::test_the_class_tab_shows_catch_rates_live_and_the_weakest_class",
    "test_handoff_streamed.py::test_the_export_holds_a_few_attempts_not_the_class",
    "test_class_claims_settled.py::test_a_settled_claim_and_rounds_exported_holding_a_few_attempts",
    "test_damaged_files.py::test_120_bit_flips_each_refused_untouched_or_opened_with_every_reader_running",
    "test_damaged_files.py::test_a_kill_during_the_first_start_leaves_no_file_or_a_whole_one",
    "test_damaged_files.py::test_what_a_killed_start_leaves_beside_the_file_the_next_start_removes",
    "test_dealer_versions.py::test_a_v2_id_deals_as_it_did_when_dealer_2_came_in",
    "test_dealer_versions.py::test_dealer_2_deals_cocked_and_lost_dice_where_the_game_has_them",
    "test_dealer_versions.py::test_dealer_2_rounds_play_to_the_end",
    "test_exam_class_ended.py::test_35_a_fail_handed_in_by_nobody_is_certified_and_reaches_the_employer",
    "test_exam_class_ended.py::test_after_uncertified_issues_the_next_sitting_and_the_fail_is_still_certified",
    "test_exam_class_ledger.py::test_bad_class_input_to_the_commands_is_one_line_and_exit_2",
    "test_exam_class_void.py::test_a_voided_sitting_gives_its_attempt_back_and_is_never_certified",
    "test_exam_first_sitting.py::test_a_sitting_never_ended_is_seen_and_recorded_abandoned_as_a_fail",
    "test_exam_passing_refusal.py::test_the_window_tries_again_calmly_after_a_killed_connection_and_refusals",
    "test_exam_ui.py::test_an_exam_built_failed_retaken_passed_and_printed",
    "test_exam_ui.py::test_certification_issued_sat_submitted_certified_through_the_screens",
    "test_exam_unreadable_answers.py::test_an_answer_no_one_can_re_grade_is_graded_wrong_and_the_class_certified",
    "test_examples.py::test_check_examples_script_agrees",
    "test_exams_certify.py::test_issue_sit_submit_certify_verify_through_the_commands",
    "test_exams_trust.py::test_verify_results_bad_paths_exit_2_in_one_line",
    "test_handoff_lrs.py::test_a_class_exported_twice_is_accepted_and_kept_once_by_ralph",
    "test_hostile_input.py::test_hostile_inputs_end_in_a_named_refusal_never_an_internal_error",
    "test_key_agrees_with_settle.py::test_random_rounds",
    "test_payouts_exhaustive.py::test_high_roll_dice_10_every_multiset",
    "test_payouts_exhaustive.py::test_high_roll_dice_6_every_outcome",
    "test_progress_store.py::test_copies_of_the_app_making_a_new_file_at_the_same_moment_all_open_it",
    "test_properties.py::test_high_roll_dice_6_rounds",
    "test_properties.py::test_high_roll_dice_rounds",
    "test_properties.py::test_props_and_hops_rounds",
    "test_properties.py::test_three_dice_football_games",
    "test_supervise_catalogue.py::test_the_grader_reports_exactly_each_fault_the_catalogue_puts_in",
    "test_table_plays.py::test_every_bundled_scenario_plays_through_its_table",
    "test_table_plays.py::test_random_rounds_play_through_their_table",
    "test_themes.py::test_every_colour_of_words_on_every_screen_reads_in_both_themes",
    "test_themes.py::test_the_menu_bar_and_the_progress_screen_read_in_both_themes",
    "test_two_screens.py::test_on_a_laptop_and_a_projector",
}


class Uses:
    """What some code reaches: the names it reads (globals, attributes, modules it imports), the
    strings it holds (literals, and strings it reads from its module's globals), the functions
    of tests/ it calls."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.strings: set[str] = set()
        self.functions: set[str] = set()  # "module.name"

    def add(self, other: Uses) -> None:
        self.names |= other.names
        self.strings |= other.strings
        self.functions |= other.functions


def _ours(obj) -> bool:
    return isinstance(obj, types.FunctionType) and _in_tests(obj.__code__.co_filename)


@cache
def _in_tests(filename: str) -> bool:
    return Path(filename).resolve().is_relative_to(TESTS)


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def _strings(value) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, tuple | list | set | frozenset):
        for v in value:
            yield from _strings(v)


@cache
def reach(fn: types.FunctionType) -> Uses:
    """What `fn` reaches, through the functions of tests/ it calls. Read from the names and
    constants of its code (an attribute that shares a global's name counts as that global: it
    can only add a marker, never lose one)."""
    uses, todo, seen = Uses(), [fn], set()
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        uses.functions.add(f"{f.__module__}.{f.__name__}")
        for code in _codes(f.__code__):
            uses.strings.update(s for const in code.co_consts for s in _strings(const))
            for name in code.co_names:
                uses.names.add(name)
                value = f.__globals__.get(name)
                if _ours(value):
                    todo.append(value)
                elif isinstance(value, str | tuple | list):
                    uses.strings.update(_strings(value))
    return uses


def _function(obj):
    """The plain function behind a test or a fixture."""
    obj = getattr(obj, "__func__", obj)
    if hasattr(obj, "_get_wrapped_function"):  # pytest's fixture definition
        obj = obj._get_wrapped_function()
    return inspect.unwrap(obj)


def module_imports_ui(module: types.ModuleType) -> bool:
    """Whether the test's module imports something of ui when it is imported."""
    return any(_is_ui(getattr(value, "__module__", None) or getattr(value, "__name__", ""))
               for value in vars(module).values() if not isinstance(value, str))


def _is_ui(module: str) -> bool:
    return module == "ui" or module.startswith("ui.")


def requested(item: pytest.Function) -> dict[str, list]:
    """The fixtures the test asks for, those of its own module (autouse ones too), and those they
    ask for in turn; each name's definitions. Not the autouse fixtures of tests/support, which
    every test gets: they say nothing of what this one uses."""
    info = item._fixtureinfo
    here = str(item.path)
    own = [name for name in item.fixturenames for d in info.name2fixturedefs.get(name, ())
           if _function(d.func).__code__.co_filename == here]
    todo = [*info.argnames, *(n for m in item.iter_markers("usefixtures") for n in m.args), *own]
    found: dict[str, list] = {}
    while todo:
        name = todo.pop()
        if name in found:
            continue
        found[name] = list(info.name2fixturedefs.get(name, ()))
        todo += [n for d in found[name] for n in d.argnames]
    return found


def markers(item: pytest.Function) -> set[str]:
    fixtures = requested(item)
    functions = [_function(item.obj)]
    for defs in fixtures.values():
        functions += [f for f in (_function(d.func) for d in defs) if _ours(f)]
    uses = Uses()
    for f in functions:
        uses.add(reach(f))
    out = set()
    if ("qtbot" in fixtures or module_imports_ui(item.module) or any(map(_is_ui, uses.names))
            or any(map(UI_ATTRIBUTE.fullmatch, uses.strings)) or "--screenshot" in uses.strings):
        out.add("qt")
    if fixtures.keys() & SERVER_FIXTURES or "psycopg" in uses.names:
        out.add("postgres")
    if ("dealer_trainer" in fixtures or "tests.support.command.run_command" in uses.functions
            or ("subprocess" in uses.names
                and ("ui.main" in uses.strings or {"-m", "trainer"} <= uses.strings))):
        out.add("cli")
    if f"{item.path.name}::{item.originalname}" in SLOW:
        out.add("slow")
    return out


def _inputs(item: pytest.Function) -> tuple:
    """All that `markers` reads of a test: the cases of one parametrized test share it, and are
    marked once for all."""
    used = tuple(n for m in item.iter_markers("usefixtures") for n in m.args)
    return (_function(item.obj), id(item._fixtureinfo), tuple(item.fixturenames), used, item.path,
            item.originalname)


@pytest.hookimpl(tryfirst=True)  # before -m chooses by them
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    known: dict[tuple, list[str]] = {}
    for item in items:
        if isinstance(item, pytest.Function):
            key = _inputs(item)
            if key not in known:
                known[key] = sorted(markers(item))
            for name in known[key]:
                item.add_marker(name)
