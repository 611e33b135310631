"""Both themes read: the words on the menu bar, an exam report and the Progress screen stand out
from the ground they are drawn on, measured on rendered pixels (WCAG contrast ratio, 4.5:1 for
text)."""

from __future__ import annotations

from collections import Counter

import pytest

MIN_CONTRAST = 4.5


def luminance(rgb: int) -> float:
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def pixels_of(widget) -> list[int]:
    image = widget.grab().toImage()
    return [image.pixel(x, y) & 0xFFFFFF for y in range(0, image.height(), 2)
            for x in range(0, image.width(), 2)]


def ground_of(widget) -> float:
    """The luminance of the widget's commonest colour: what its words are drawn on."""
    return luminance(Counter(pixels_of(widget)).most_common(1)[0][0])


def text_contrast(widget) -> float:
    """The contrast between the widget's ground (its commonest colour) and its most distinct
    pixel: low when the words are drawn in nearly the colour of the ground."""
    pixels = pixels_of(widget)
    ground = luminance(Counter(pixels).most_common(1)[0][0])
    return max((max(ground, luminance(p)) + 0.05) / (min(ground, luminance(p)) + 0.05)
               for p in set(pixels))


@pytest.fixture(params=["light", "dark"])
def themed(request, qtbot):
    from ui.qt import QApplication
    from ui.shell import theme

    app = QApplication.instance()
    theme.apply(app, request.param)
    yield request.param
    app.setStyleSheet("")
    app.setPalette(app.style().standardPalette())
    app.setProperty("theme", None)


def window(qtbot, services):
    from ui.shell.app import throwaway_settings
    from ui.shell.window import MainWindow

    w = MainWindow(services, settings=throwaway_settings())
    qtbot.addWidget(w)
    w.resize(1440, 900)
    w.show()
    qtbot.waitExposed(w)
    return w


def test_the_menu_bar_and_the_progress_screen_read_in_both_themes(qtbot, themed):
    from ui.qt import QLabel
    from ui.shell.app import demo_services

    w = window(qtbot, demo_services())
    assert text_contrast(w.menuBar()) >= MIN_CONTRAST, f"{themed}: the menu bar"
    page = w.show_screen("progress")
    heading = next(label for label in page.findChildren(QLabel) if "Weakest skills" in label.text())
    assert text_contrast(heading) >= MIN_CONTRAST, f"{themed}: the weakest skills"
    w.close()


def test_an_exam_report_reads_in_both_themes(qtbot, themed):
    from trainer.exams import results
    from ui.shell.app import demo_services

    services = demo_services(instructor=True)
    w = window(qtbot, services)
    page = w.show_screen("exam")
    page.show_result(next(r for r in results(services.store) if r.over))
    assert ground_of(page.report.viewport()) > 0.9, f"{themed}: a report is printed on white"
    assert text_contrast(page.report.viewport()) >= MIN_CONTRAST, f"{themed}: the report"
    w.close()
