"""The placeholder main window: it opens, says what it is, and renders to a PNG."""

from __future__ import annotations

from tests.conftest import run_command


def test_window_opens_and_says_the_table_is_coming(qtbot):
    from ui.qt import QLabel
    from ui.window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    texts = " ".join(label.text() for label in window.findChildren(QLabel))
    assert "not built yet" in texts
    assert "58 Pa. Code ch. 668a" in texts
    image = window.grab().toImage()
    assert (image.width(), image.height()) == (window.width(), window.height())
    colours = {image.pixel(x, y) for x in range(0, image.width(), 17) for y in range(0, image.height(), 17)}
    assert len(colours) > 3, "the window rendered blank"
    window.close()


def test_screenshot_switch_writes_a_png(tmp_path):
    out = tmp_path / "main.png"
    done = run_command("--screenshot", str(out), env={"QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    header = out.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")
    assert (width, height) == (900, 560)


def test_screenshot_into_a_missing_folder_is_one_clear_line(tmp_path):
    done = run_command("--screenshot", str(tmp_path / "nope" / "x.png"),
                       env={"QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 2
    assert "does not exist" in done.stderr and "Traceback" not in done.stderr
