"""The exam screen shows what the class server holds. The attack (the third cold review): after a
late delivery (an outage past the time limit and its allowance), the exam screen showed the
engine's result, "passed", while the certificate said "did not pass (50), timed out". Now the
result shown is reckoned as the class server holds it (trainer.exams.scoring
`as_the_class_holds`): an answer it recorded late counts as not answered, and the screen says so."""

from __future__ import annotations

import pytest

from tests.support.exams import form, issuer
from tests.test_exam_class_time_limit import (
    ALLOWANCE,
    LIMIT,
    answer,
    cable_out,
    issued,
    server_clock_moves_on,
    started,
    workstation,
)
from trainer.exams import AwaitingClassError, installation_key
from trainer.exams.keys import InstructorKey
from trainer.exams.records import get_result


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


def test_the_exam_screen_shows_the_result_as_the_class_server_holds_it(qtbot, tmp_path, klass, joined, ivy):
    from tests.support.screens import window

    exam = form()
    token = issued(tmp_path, ivy, joined, exam)
    with workstation(tmp_path) as store:
        session = started(store, tmp_path, exam, token, joined.seat())
        answer(session, 0)  # in time
        with cable_out(session):
            answer(session, 1)  # waits in the file through the outage
            with pytest.raises(AwaitingClassError):
                answer(session, 2)
            server_clock_moves_on(klass, token["nonce"], LIMIT + ALLOWANCE + 600)
        assert session.send()
        answer(session, 2)
        assert session.send() and session.result is not None
        engine = get_result(store, session.result_id)
        assert engine.passed, "the engine's own verdict: every item answered right"
        w = window(qtbot, store, installation_key(tmp_path / "k"), store.find_trainee("Sam Lee").id)
        try:
            page = w.show_screen("exam")
            page.refresh()
            row = [page.results.item(0, c).text() for c in range(page.results.columnCount())]
            page.show_result(engine)
            shown = page.report.toPlainText()
        finally:
            w.close()
    assert "As the class server holds it, which is what is certified" in shown
    assert "item 2: recorded late" in shown and "item 3: recorded late" in shown
    assert "NOT PASSED (timed-out)" in shown and "2. Part 2 (not answered)" in shown
    assert "timed-out" in row and "passed" not in row, f"the Results list shows the engine's verdict: {row}"
