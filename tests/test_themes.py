"""Both themes read: every colour of words on every screen stands out from the ground it is
drawn on, measured on rendered pixels (WCAG contrast ratio, 4.5:1 for text); a theme chosen
while the app runs reaches what was drawn before it."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

MIN_CONTRAST = 4.5


def luminance(rgb: int) -> float:
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def pixels_of(widget) -> list[int]:
    """Every second pixel across and down, row by row, as 0xRRGGBB."""
    return (grid_of(widget.grab().toImage())[::2, ::2] & 0xFFFFFF).ravel().tolist()


def grid_of(image):
    """The picture's pixels as a height x width array of 0xAARRGGBB."""
    import numpy as np

    from ui.qt import QImage

    image = image.convertToFormat(QImage.Format.Format_RGB32)
    rows = np.frombuffer(image.constBits(), dtype=np.uint32).reshape(
        image.height(), image.bytesPerLine() // 4)
    return rows[:, :image.width()].copy()  # the converted image is gone once this returns


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


def rgb(pixel: int) -> tuple[int, int, int]:
    return (pixel >> 16) & 255, (pixel >> 8) & 255, pixel & 255


def ratio(a: int, b: int) -> float:
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


#: a run of one colour this long, across or down, is a line or a surface (a rule, a border, a
#: selected row), not a letter
RUN = 24
#: how far (0-255) from the ground a pixel must be to be ink at all, and how many pixels a colour
#: of ink takes (with its anti-aliased edge) to count: fewer is a speck, not words
NEAR, LEAST = 24, 12


def line_pixels(grid):
    """Where runs of one colour at least RUN long lie, across or down (a boolean array)."""
    import numpy as np

    def across(a):
        # each run numbered in reading order (a row's first pixel always starts one), then each
        # pixel marked by its run's length
        starts = np.ones(a.shape, dtype=bool)
        starts[:, 1:] = a[:, 1:] != a[:, :-1]
        run = np.cumsum(starts).reshape(a.shape) - 1
        return (np.bincount(run.ravel()) >= RUN)[run]

    return across(grid) | across(grid.T).T


def inks(image, *, inset: int = 3, right: int = 0, ground: int | None = None) -> tuple[int, list[int]]:
    """The ground of a picture (its commonest colour, unless given) and every colour of ink
    drawn on it.

    A letter is drawn in its colour with an anti-aliased edge of blends towards the ground: the
    pixels are grouped by their direction from the ground; in each group the farthest colour is
    ink unless it is itself a blend of the ground and a stronger ink. Grey words under white
    ones lie in one direction: rich text is measured a paragraph at a time (`rich_inks`).
    Lines and surfaces (RUN) and the frame (`inset`; `right`: a combo box's arrow) are left
    out: they are not words."""
    import numpy as np

    grid = grid_of(image)
    grid = grid[inset:grid.shape[0] - inset, inset:grid.shape[1] - inset - right] & 0xFFFFFF
    if grid.size == 0:
        return 0, []
    if ground is None:
        colours, counts = np.unique(grid, return_counts=True)
        ground = int(colours[counts.argmax()])
    colours, counts = np.unique(grid[~line_pixels(grid)], return_counts=True)
    g = rgb(ground)
    groups: dict[tuple, list[tuple[int, int, int]]] = defaultdict(list)
    for pixel, n in zip(colours.tolist(), counts.tolist(), strict=True):
        away = [a - b for a, b in zip(rgb(pixel), g, strict=True)]
        far = max(abs(v) for v in away)
        if far >= NEAR:
            groups[tuple(round(v / far * 5) for v in away)].append((far, pixel, n))
    farthest = [max(members)[1] for members in groups.values() if sum(n for *_, n in members) >= LEAST]

    def edge_of_another(c: int) -> bool:
        v = [a - b for a, b in zip(rgb(c), g, strict=True)]
        for other in farthest:
            if ratio(ground, other) <= ratio(ground, c):
                continue
            d = [a - b for a, b in zip(rgb(other), g, strict=True)]
            t = sum(a * b for a, b in zip(d, v, strict=True)) / sum(a * a for a in d)
            if 0 < t < 1 and sum((vi - t * di) ** 2 for vi, di in zip(v, d, strict=True)) ** 0.5 < 30:
                return True
        return False

    return ground, [c for c in farthest if not edge_of_another(c)]


def rich_inks(browser) -> tuple[int, list[int]]:
    """The ground of a rich-text browser and the colours of ink of each of its paragraphs on
    screen, each paragraph measured alone on the browser's ground."""
    image = browser.viewport().grab().toImage()
    ground, colours = inks(image)
    found = set(colours)
    layout = browser.document().documentLayout()
    dx, dy = browser.horizontalScrollBar().value(), browser.verticalScrollBar().value()
    block = browser.document().begin()
    while block.isValid():
        r = layout.blockBoundingRect(block).toRect().translated(-dx, -dy).intersected(image.rect())
        if r.width() > 4 and r.height() > 4:
            found.update(inks(image.copy(r), inset=0, ground=ground)[1])
        block = block.next()
    return ground, sorted(found)


def faint_words(window) -> list[str]:
    """Every colour of words under 4.5:1 on its ground in the window's labels, buttons, fields,
    lists, tables, tab bars, menu bar and rich text, one line each. A disabled control is left
    out (WCAG asks no contrast of an inactive control); so are the tables' felt and the charts,
    drawings measured by their own tests."""
    from ui.qt import (
        QAbstractButton,
        QAbstractItemView,
        QComboBox,
        QHeaderView,
        QLabel,
        QLineEdit,
        QMenuBar,
        QTabBar,
        QTextBrowser,
    )

    out = []
    kinds = (QLabel, QAbstractButton, QTextBrowser, QLineEdit, QComboBox, QTabBar, QHeaderView,
             QAbstractItemView, QMenuBar)
    seen = set()
    for widget in (w for kind in kinds for w in window.findChildren(kind)):
        if id(widget) in seen or not widget.isVisible() or not widget.isEnabled() or widget.width() < 8:
            continue
        seen.add(id(widget))
        if isinstance(widget, QLabel) and not widget.text():
            continue
        if isinstance(widget, QTextBrowser):
            ground, colours = rich_inks(widget)
        else:
            drawn = widget.viewport() if isinstance(widget, QAbstractItemView) else widget
            ground, colours = inks(drawn.grab().toImage(), right=28 if isinstance(widget, QComboBox) else 0)
        for c in colours:
            if ratio(ground, c) < MIN_CONTRAST:
                words = widget.text()[:40] if callable(getattr(widget, "text", None)) else ""
                out.append(f"{type(widget).__name__} {widget.objectName()!r} {words!r}: #{c:06x} on "
                           f"#{ground:06x} is {ratio(ground, c):.2f}:1")
    return out


@pytest.fixture(params=["light", "dark"])
def themed(request, qtbot):
    from tests.support.qt import delete_closed, windows
    from ui.qt import QApplication
    from ui.shell import theme

    app = QApplication.instance()
    before = windows()
    theme.apply(app, request.param)
    yield request.param
    delete_closed(before)  # the test's windows, closed, are not restyled by the reset
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


def showcased(qtbot, screen: str):
    from ui.qt import QApplication
    from ui.shell.app import showcase

    w = showcase(screen, size=(1366, 768))
    qtbot.addWidget(w)
    QApplication.processEvents()
    return w


def close(w) -> None:
    progress = w.pages.get("progress")
    if progress is not None and progress.live is not None:
        progress.live.stop()
    w.close()


@pytest.mark.parametrize("screen", __import__("ui.shell.app", fromlist=["SCREENS"]).SCREENS)
def test_every_colour_of_words_on_every_screen_reads_in_both_themes(qtbot, themed, screen):
    w = showcased(qtbot, screen)
    faint = faint_words(w)
    close(w)
    assert not faint, f"{themed} {screen}: " + "; ".join(faint)


def test_the_feedback_right_wrong_and_quote_read_in_the_dark(qtbot, themed):
    """A right and a wrong action with the regulation's words under each, as the panel shows
    them at the table."""
    from ui.practice.screen import FeedbackPanel

    panel = FeedbackPanel()
    qtbot.addWidget(panel)
    panel.resize(420, 500)
    quote = "The dealer shall collect all losing wagers before paying any winning wager. " * 2
    for ok in (True, False):
        panel.add(_Feedback(ok, quote))
    panel.show()
    qtbot.waitExposed(panel)
    ground, colours = rich_inks(panel)
    assert len(colours) >= 3, f"{themed}: the words, the ✔ and the ✘ each in a colour of their own"
    faint = [f"#{c:06x} {ratio(ground, c):.2f}:1" for c in colours if ratio(ground, c) < MIN_CONTRAST]
    assert not faint, f"{themed}: {faint} on #{ground:06x}"


class _Feedback:
    """What the panel reads of a trainer.Feedback."""

    def __init__(self, ok: bool, quote: str):
        self.ok, self.quote = ok, quote
        self.message = "Right: collect the losing wagers" if ok else "Pay before collecting"
        self.expected = None if ok else type("E", (), {"label": "Collect the Field"})()
        self.cite = "58 Pa. Code § 668a.3(g)"


def test_a_theme_chosen_while_running_reaches_the_charts_and_the_feedback(qtbot):
    """View › Dark theme with the Progress screen and a round's feedback already drawn in the
    light: the charts' ground turns dark and their words and the feedback's read at 4.5:1."""
    from ui.qt import QApplication
    from ui.shell import theme
    from ui.shell.app import demo_services

    app = QApplication.instance()
    theme.apply(app, "light")
    try:
        w = window(qtbot, demo_services())
        page = w.show_screen("progress")
        practice = w.show_screen("practice")
        practice.screen.feedback.add(_Feedback(False, "The dealer shall collect all losing wagers."))
        w.show_screen("progress")
        assert ground_of(page.accuracy.plot.viewport()) > 0.9, "the light theme's charts are white"
        next(a for a in w.findChildren(type(w.large_print_action)) if a.text() == "Dark theme").trigger()
        QApplication.processEvents()
        for name, chart in (("accuracy", page.accuracy), ("speed", page.speed), ("days", page.days)):
            assert ground_of(chart.plot.viewport()) < 0.05, f"the {name} chart: still drawn on white"
            assert text_contrast(chart.plot.viewport()) >= MIN_CONTRAST, f"the {name} chart"
        w.show_screen("practice")
        panel = practice.screen.feedback
        ground, colours = rich_inks(panel)
        assert luminance(ground) < 0.05, "the feedback is drawn on the dark ground"
        faint = [f"#{c:06x}" for c in colours if ratio(ground, c) < MIN_CONTRAST]
        assert not faint, f"the feedback written in the light theme, read in the dark: {faint}"
        w.close()
    finally:
        app.setStyleSheet("")
        app.setPalette(app.style().standardPalette())
        app.setProperty("theme", None)


def test_the_theme_in_use_chosen_again_restyles_nothing(qtbot):
    """View › Light theme while the app is light (or the Settings dialog's theme chosen again)
    leaves every widget as it is: the same style sheet set again restyled every widget of every
    screen made (0.4 s of CPU with all six). Dark then restyles them, and Light after it."""
    from ui.qt import QApplication, QEvent, QObject
    from ui.shell import theme
    from ui.shell.services import Services

    class Restyled(QObject):
        def __init__(self):
            super().__init__()
            self.times = 0

        def eventFilter(self, watched, event):
            self.times += event.type() == QEvent.Type.StyleChange
            return False

    app = QApplication.instance()
    theme.apply(app, "light")
    try:
        w = window(qtbot, Services(None))
        restyled = Restyled()
        w.sidebar.installEventFilter(restyled)
        menu = {a.text(): a for a in w.findChildren(type(w.large_print_action))}
        menu["Light theme"].trigger()
        QApplication.processEvents()
        assert restyled.times == 0, "the light theme chosen again restyled the window"
        menu["Dark theme"].trigger()
        QApplication.processEvents()
        assert restyled.times > 0 and theme.current() == "dark"
        before = restyled.times
        menu["Light theme"].trigger()
        QApplication.processEvents()
        assert restyled.times > before and theme.current() == "light"
        w.close()
    finally:
        app.setStyleSheet("")
        app.setPalette(app.style().standardPalette())
        app.setProperty("theme", None)


def opened_view_menu(qtbot, w):
    """The window's View menu, open: the menu, its picture's pixels (0xRRGGBB, height x width)
    and its ground (the commonest colour)."""
    menu = next(m for m in w.large_print_action.associatedObjects() if m.metaObject().className() == "QMenu")
    menu.popup(w.mapToGlobal(w.rect().topLeft()))
    qtbot.waitExposed(menu)
    grid = grid_of(menu.grab().toImage()) & 0xFFFFFF
    return menu, grid, Counter(grid.ravel().tolist()).most_common(1)[0][0]


def test_the_view_menus_toggles_look_like_toggles_in_both_themes(qtbot, themed):
    """Large print, unticked, shows an empty box: something is drawn in the strip before its
    words, where an item that is no toggle (Zoom out) shows only the menu's ground. A styled
    menu draws a toggle's mark only when it is on, so without the theme's own boxes an unticked
    toggle reads as a plain command. The theme in use, a choice, is marked there too."""
    import numpy as np

    from ui.shell.app import throwaway_settings
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    w = MainWindow(Services(None), settings=throwaway_settings())
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    menu, grid, ground = opened_view_menu(qtbot, w)
    frame = 3  # an item's rect may take in the menu's frame: the strip starts inside it

    def standing_out(action):
        """The item's pixels from inside the frame on, True where they stand out from the ground."""
        rect = menu.actionGeometry(action)
        rows = grid[rect.top():rect.bottom() + 1, rect.left() + frame:rect.right() + 1]
        return np.vectorize(lambda p: ratio(p, ground) >= 1.5)(rows)

    # the strip before the words: up to where the words of an item that is no toggle start
    zoom_out = next(a for a in menu.actions() if a.text() == "Zoom out")
    words = int(np.argmax(standing_out(zoom_out).any(axis=0)))
    assert words >= 13, f"{themed}: no room for a box before the words ({words} px)"

    def marked(action) -> int:
        """How many pixels of the strip before the item's words stand out from the ground."""
        return int(standing_out(action)[:, :words].sum())

    large = w.large_print_action
    assert large.isEnabled() and not large.isChecked()
    assert marked(large) >= 20, f"{themed}: an unticked toggle shows no box ({marked(large)} pixels)"
    chosen = next(a for a in w.theme_actions.values() if a.isChecked())
    assert marked(chosen) > 0, f"{themed}: the theme in use is not marked"

    def box(pixels):
        """Large print's strip before its words."""
        rect = menu.actionGeometry(large)
        return pixels[rect.top():rect.bottom() + 1, rect.left() + frame:rect.left() + frame + words]

    def boldest(pixels) -> float:
        return max(ratio(p, ground) for p in set(box(pixels).ravel().tolist()))

    # the same toggle disabled: its box is greyed, as its words are. The light theme's boxes are
    # the style's, which greys the inside of the box and keeps its edge; the dark theme's, drawn
    # by its sheet, are drawn fainter.
    large.setEnabled(False)
    greyed = grid_of(menu.grab().toImage()) & 0xFFFFFF
    large.setEnabled(True)
    assert (box(greyed) != box(grid)).any(), f"{themed}: a disabled toggle's box looks enabled"
    if themed == "dark":
        assert boldest(greyed) < boldest(grid) - 1, f"{themed}: a disabled toggle's box is not greyed"
    menu.hide()
    w.close()


def test_a_locked_setting_looks_locked_in_the_dialog_and_the_menu(qtbot, themed, tmp_path):
    """What the school locks cannot be changed, and looks it: the Settings dialog's theme box and
    large-print box, and the View menu's locked items, drawn in the greyed words of a disabled
    button, not in the words of one that can be used."""
    from trainer import MachineConfig
    from ui.qt import QSettings
    from ui.shell.config import Config
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    user = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    config = Config(user, MachineConfig(tmp_path / "config.toml", {"theme": themed, "large_print": False},
                                        frozenset({"theme", "large_print"})))
    w = MainWindow(Services(None), settings=user, config=config)
    qtbot.addWidget(w)
    w.show()
    w.open_settings()
    dialog = w.settings_dialog
    qtbot.waitExposed(dialog)
    locked, free = dialog.theme, dialog.controls["data_folder"]
    assert not locked.isEnabled() and free.isEnabled()
    # the same words in the same kind of box: only the lock differs
    free_box = type(locked)(dialog)
    free_box.addItem(locked.currentText())
    free_box.resize(locked.size())
    free_box.show()
    for box in (locked, free_box):
        qtbot.waitExposed(box)

    def words_and_ground(widget) -> tuple[int, int]:
        pixels = Counter(pixels_of(widget))
        ground = pixels.most_common(1)[0][0]
        return max(pixels, key=lambda p: ratio(p, ground)), ground

    locked_words, locked_ground = words_and_ground(locked)
    free_words, free_ground = words_and_ground(free_box)
    assert locked_ground != free_ground, "a locked box has the ground of one that can be used"
    assert ratio(locked_words, locked_ground) < ratio(free_words, free_ground) - 1, \
        "a locked box's words stand out as much as those of one that can be used"
    # the View menu: a locked item's words against an item that can be chosen
    menu, grid, ground = opened_view_menu(qtbot, w)

    def strongest(action) -> float:
        rect = menu.actionGeometry(action)
        rows = grid[rect.top():rect.bottom(), rect.left():rect.right()]
        return max(ratio(p, ground) for p in set(rows.ravel().tolist()))

    usable = next(a for a in menu.actions() if a.isEnabled() and a.text() and not a.isSeparator())
    assert not w.large_print_action.isEnabled()
    assert strongest(w.large_print_action) < strongest(usable) - 1, \
        "a locked menu item reads like one that can be chosen"
    menu.hide()
    dialog.close()


def test_a_disabled_primary_button_looks_disabled(qtbot, themed):
    """The primary (green) button of a screen, once disabled, takes a disabled button's ground and
    greyed words, not the green of one that can be pressed."""
    from ui.qt import QPushButton

    def look(enabled: bool, name: str) -> tuple[int, int]:
        button = QPushButton("Deal (Ctrl+N)")
        button.setObjectName(name)
        button.setEnabled(enabled)
        qtbot.addWidget(button)
        button.show()
        qtbot.waitExposed(button)
        pixels = Counter(pixels_of(button))
        ground = pixels.most_common(1)[0][0]
        return ground, max(pixels, key=lambda p: ratio(p, ground))

    green, _ = look(True, "primary")
    plain_off, _ = look(False, "")
    primary_off, words = look(False, "primary")
    assert primary_off != green, "a disabled primary button keeps the green of one that can be pressed"
    assert primary_off == plain_off, "a disabled primary button differs from any other disabled button"
    assert ratio(words, primary_off) < 4.5, "a disabled primary button's words read as usable"


def test_an_open_list_of_choices_shows_each_entry_in_both_themes(qtbot, themed):
    """The Scenarios screen's games, opened: every entry's words read on its ground, the current
    one's too (Fusion's list drawn over the box drew the current entry as the styled box itself,
    its words white on white)."""
    import numpy as np

    from tests.support.library import bundled
    from ui.practice.scenarios import ScenariosPage

    page = ScenariosPage(bundled())
    qtbot.addWidget(page)
    page.show()
    qtbot.waitExposed(page)
    box = page.filter
    box.setCurrentIndex(2)
    box.showPopup()
    view = box.view()
    qtbot.waitExposed(view.window())
    grid = grid_of(view.viewport().grab().toImage()) & 0xFFFFFF
    for row in range(box.count()):
        rect = view.visualRect(box.model().index(row, 0))
        cells = grid[rect.top():rect.bottom() + 1, rect.left():rect.right() + 1]
        ground = Counter(cells.ravel().tolist()).most_common(1)[0][0]
        best = max(ratio(p, ground) for p in np.unique(cells).tolist())
        assert best >= MIN_CONTRAST, f"{themed}: {box.itemText(row)!r} at {best:.1f}:1"
    box.hidePopup()
