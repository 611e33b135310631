"""Names a person reads as one name (trainer.progress.names, after Unicode TS #39), on the
workstation: the skeleton a name is compared by, the scripts a name may not mix, and a profile
refused beside a trainee of the same file (two local trainees "Ana Ruiz" and "Аna Ruiz", Cyrillic
А). What a name reads as is ICU's word here, never the module's own: each expected skeleton is
ICU's SpoofChecker on the name's NFKC case fold. The class server's side is
tests/test_class_names.py."""

from __future__ import annotations

import json
import unicodedata

import icu  # the test extras' pyicu-wheels: ICU's SpoofChecker, the reference
import pytest

from tests.support.class_server import progress_file
from trainer.progress import NameTakenError, Store, name_problem
from trainer.progress.names import mixed_scripts, skeleton

ANA = "Ana Ruiz"
#: spellings of "Ana Ruiz" a person reads as hers: letters of other scripts, full-width forms,
#: invisible joiners and marks, case
READ_AS_ANA = {
    "Cyrillic А": "\u0410na Ruiz",
    "Cyrillic а and і": "An\u0430 Ru\u0456z",
    "Greek Α": "\u0391na Ruiz",
    "Greek ι": "Ana Ru\u03b9z",
    "full-width letters": "\uff21\uff4e\uff41 \uff32\uff55\uff49\uff5a",
    "zero-width joiner": "An\u200da Ruiz",
    "zero-width space": "Ana\u200b Ruiz",
    "combining grapheme joiner (a mark)": "Ana\u034f Ruiz",
    "variation selector (a mark)": "Ana Ruiz\ufe0f",
    "soft hyphen": "Ana Ru\u00adiz",
    "lower case": "ana ruiz",
    "capitals": "ANA RUIZ",
    "mathematical bold": "\U0001d400na Ruiz",
    "Latin small capital and dotless i": "Ana Ru\u0131z",
}
#: spellings that read as Ian Smith as written, which the case fold tells apart
READ_AS_IAN = {"a small l for the capital I": "lan Smith", "a digit one": "1an Smith",
               "a Cyrillic Ӏ (palochka)": "\u04c0an Smith", "a pipe": "|an Smith"}
#: names a person tells from "Ana Ruiz"
NOT_ANA = ["Ana Ruíz", "Ána Ruiz", "Ana Ruis", "Anna Ruiz", "Ana Ruiz-Lee", "Ana R", "Анна Руис"]


def icu_skeleton(name: str, *, cased: bool = False) -> str:
    """TS #39's skeleton of the name's NFKC case fold, by ICU, compared without case (a
    prototype in capitals, "0" gives "O", meets the folded letter): Python folds the case, with
    the default ignorable characters removed as NFKC_Casefold removes them. `cased`: of the
    name as written (NFKC, no ignorables), TS #39's own."""
    ignorable = icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT

    def fold(text: str) -> str:
        text = unicodedata.normalize("NFKC", text)
        if not cased:
            text = unicodedata.normalize("NFKC", text.casefold())
        return "".join(c for c in text if not icu.Char.hasBinaryProperty(c, ignorable))

    return unicodedata.normalize("NFD", fold(icu.SpoofChecker().getSkeleton(0, fold(name))))


def icu_reads_as(a: str, b: str) -> bool:
    return icu_skeleton(a) == icu_skeleton(b) or icu_skeleton(a, cased=True) == icu_skeleton(b, cased=True)


@pytest.mark.parametrize("spelling", list(READ_AS_ANA.values()), ids=list(READ_AS_ANA))
def test_each_spelling_that_reads_as_ana_has_her_skeleton(spelling):
    assert icu_skeleton(spelling) == icu_skeleton(ANA), "ICU reads its case fold as Ana Ruiz's"
    assert skeleton(spelling) == skeleton(ANA)
    assert name_problem(spelling, [ANA], "in the class").startswith(
        f"'{spelling}' looks like '{ANA}', already in the class: the ")


@pytest.mark.parametrize("spelling", list(READ_AS_IAN.values()), ids=list(READ_AS_IAN))
def test_each_spelling_that_reads_as_ian_as_written_is_his(spelling):
    """"lan Smith" beside "Ian Smith": in a sans-serif font the same, and TS #39's skeleton of the
    name as written says so, though their case folds differ."""
    assert icu_skeleton(spelling, cased=True) == icu_skeleton("Ian Smith", cased=True), "ICU reads it as Ian"
    assert skeleton(spelling, cased=True) == skeleton("Ian Smith", cased=True)
    assert name_problem(spelling, ["Ian Smith"], "in the class").startswith(
        f"'{spelling}' looks like 'Ian Smith', already in the class: the ")


def test_the_case_fold_alone_tells_a_small_l_from_a_capital_i():
    """Why both skeletons: the case fold's reads "lan" and "Ian" apart."""
    assert icu_skeleton("lan Smith") != icu_skeleton("Ian Smith")
    assert icu_reads_as("lan Smith", "Ian Smith")


def test_greek_capitals_read_as_the_latin_ones_they_look_like():
    assert icu_reads_as("\u039d\u0399\u039a\u039f", "NIKO")  # ΝΙΚΟ, wholly Greek
    assert name_problem("\u039d\u0399\u039a\u039f", ["NIKO"], "in the class") == (
        "'\u039d\u0399\u039a\u039f' looks like 'NIKO', already in the class: the first letter is "
        "Greek \u039d, not Latin N; the second letter is Greek \u0399, not Latin I; the third "
        "letter is Greek \u039a, not Latin K; and 1 more")


@pytest.mark.parametrize("name", NOT_ANA)
def test_a_name_a_person_tells_apart_is_not_hers(name):
    assert not icu_reads_as(name, ANA), "ICU tells it apart"
    assert skeleton(name) != skeleton(ANA) and skeleton(name, cased=True) != skeleton(ANA, cased=True)
    assert name_problem(name, [ANA], "in the class") is None or "mixes" in name_problem(name, [ANA], "")


@pytest.mark.parametrize("name", [
    ANA, "Ana Ruiz", "Zoë O'Brien", "Анна Иванова", "Ελένη Παπαδοπούλου", "Sam Lee", "李小龍", "José Núñez",
    "\u0410na Ruiz", "\u0391\u03bd\u03b1 Ruiz", "Kim", "rn", "m", "0l1", "Ian", "lan",
    "\u039d\u0399\u039a\u039f",
])
def test_the_skeleton_is_icus_on_the_case_fold(name):
    """Latin, Greek, Cyrillic and Han names, look-alikes among them ("rn" and "m"): the app's
    skeletons, a character at a time from the frozen data, are ICU's of the whole name."""
    assert skeleton(name) == icu_skeleton(name)
    assert skeleton(name, cased=True) == icu_skeleton(name, cased=True)


def test_a_name_the_same_as_one_held_is_the_same_persons():
    """One trainee at several workstations sends one name from each: never a clash."""
    assert name_problem(ANA, [ANA, "Sam Lee"], "in the class") is None


@pytest.mark.parametrize(("name", "scripts"), [
    ("\u0410na", ("Latin", "Cyrillic")),           # Cyrillic А, Latin na
    ("Ana Ru\u0456z", ("Latin", "Cyrillic")),      # one Cyrillic і in the surname
    ("\u0391na", ("Latin", "Greek")),              # Greek Α
    ("\u0391\u043d\u03b1", ("Greek", "Cyrillic")),  # Greek Α, Cyrillic н, Greek α
    ("Анна Smith", ("Latin", "Cyrillic")),        # two alphabets in one name
])
def test_a_name_mixing_alphabets_that_read_alike_is_refused(name, scripts):
    assert mixed_scripts(name) == scripts
    assert name_problem(name, [], "in the class") == (
        f"'{name}' mixes {' and '.join(scripts)} letters, which read alike")


@pytest.mark.parametrize("name", ["Анна", "Анна Иванова", "Ελένη", "Ana Ruiz", "李小龍 Lee", "José Núñez",
                                  "Ана-Мария", "O'Brien 3rd"])
def test_a_name_wholly_in_one_alphabet_is_a_name_like_any_other(name):
    assert mixed_scripts(name) == ()
    assert name_problem(name, [ANA], "in the class") is None


def test_the_scripts_are_icus():
    """Each letter's script, from the frozen ranges, is ICU's Script property."""
    from trainer.progress.names import _script

    short = {"Latn": "Latin", "Grek": "Greek", "Cyrl": "Cyrillic"}
    for ch in "AaÅøẞʃΑαΩϖἀАаЖӜꙂ1 -'·\u0301\u0483李":
        assert _script(ch) == short.get(icu.Script.getScript(ord(ch)).getShortName()), ch


@pytest.mark.parametrize(("spelling", "other", "said"), [
    ("\u0410na Ruiz", ANA, "the first letter is Cyrillic \u0410, not Latin A"),
    ("An\u0430 Ru\u0456z", ANA, "the third letter is Cyrillic \u0430, not Latin a; the seventh letter "
     "is Cyrillic \u0456, not Latin i"),
    ("\u0391na Ruiz", ANA, "the first letter is Greek \u0391, not Latin A"),
    ("lan Smith", "Ian Smith", "the first letter is Latin small l, not Latin capital I"),
    ("ana ruiz", ANA, "the first letter is Latin small a, not Latin capital A; the fifth letter is "
     "Latin small r, not Latin capital R"),
    ("Ana\u034f Ruiz", ANA, "the fourth character is an invisible combining grapheme joiner, which "
     "'Ana Ruiz' has not"),
])
def test_the_refusal_says_which_letter_differs_and_its_script(spelling, other, said):
    """"'Аna Ruiz' looks like 'Ana Ruiz'" left the reader to find the difference, which does
    not show: the refusal names the letter, its place and its script."""
    assert name_problem(spelling, [other], "in the class") == (
        f"'{spelling}' looks like '{other}', already in the class: {said}")


def test_the_new_trainee_dialog_says_which_letter_differs(qtbot, tmp_path, monkeypatch):
    """The New trainee… dialog, on a workstation with Ana Ruiz: "Аna Ruiz" is refused in one
    line that says the first letter is Cyrillic."""
    from ui.qt import QInputDialog, QPushButton, Qt
    from ui.shell.profiles import ProfileDialog

    with Store.open(tmp_path / "p.db") as store:
        store.add_trainee(ANA)
        dialog = ProfileDialog(store)
        qtbot.addWidget(dialog)
        dialog.show()
        [new] = [b for b in dialog.findChildren(QPushButton) if b.text() == "New trainee…"]
        monkeypatch.setattr(QInputDialog, "getText", lambda *_a, **_k: ("\u0410na Ruiz", True))
        qtbot.mouseClick(new, Qt.MouseButton.LeftButton)
        assert dialog.message.text() == (
            "Not added: '\u0410na Ruiz' looks like 'Ana Ruiz', already on this workstation: the first "
            "letter is Cyrillic \u0410, not Latin A.")
        assert [t.name for t in store.trainees()] == [ANA]
        dialog.close()


# --------------------------------------------------------------------------- one workstation
def test_two_local_trainees_ana_ruiz_and_her_look_alike(tmp_path):
    """The attack on one machine: a second profile "Аna Ruiz" (Cyrillic А) beside Ana's. The
    file's own check (case-insensitive, ASCII) let it in; it is refused by name, and so are the
    other spellings that read as hers."""
    with Store.open(tmp_path / "p.db") as store:
        store.add_trainee(ANA)
        for spelling in ("\u0410na Ruiz", "\u0391na Ruiz", "ana ruiz", "Ana\u034f Ruiz", "An\u0430 Ruiz"):
            with pytest.raises(NameTakenError) as e:
                store.add_trainee(spelling)
            assert str(e.value).startswith(f"'{spelling}' looks like '{ANA}', already on this workstation: ")
        store.add_trainee("Анна")  # wholly Cyrillic, and not hers
        with pytest.raises(ValueError, match="'Аnna' mixes Latin and Cyrillic letters"):
            store.add_trainee("\u0410nna")
        assert [t.name for t in store.trainees()] == [ANA, "Анна"]


def test_an_archived_trainee_restored_beside_a_look_alike_is_refused(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        ana = store.add_trainee(ANA)
        store.archive_trainee(ana)
        store.add_trainee("ana ruiz")  # Ana's name is free while she is archived
        with pytest.raises(NameTakenError, match="'Ana Ruiz' looks like 'ana ruiz', already on this"):
            store.restore_trainee(ana)
        assert [t.name for t in store.trainees()] == ["ana ruiz"]


def test_an_imported_look_alike_is_named_for_its_workstation(tmp_path):
    """A results file from another workstation brings "Аna Ruiz": it is added as that
    workstation's, never as a second Ana Ruiz here."""
    from trainer.progress import export_results, import_results

    other = progress_file(tmp_path / "other.db", {ANA: 1})
    exported = tmp_path / "results.json"
    with Store.open(other) as store:
        export_results(store, exported)
    doc = json.loads(exported.read_text(encoding="utf-8"))
    doc["trainees"][0].update(name="\u0410na Ruiz", uid="f" * 32)  # as the other file had her
    exported.write_text(json.dumps(doc), encoding="utf-8")
    with Store.open(tmp_path / "here.db") as store:
        store.add_trainee(ANA)
        import_results(store, exported)
        names = [t.name for t in store.trainees()]
    assert len(names) == 2 and ANA in names
    [imported] = [n for n in names if n != ANA]
    assert imported.startswith("\u0410na Ruiz (") and skeleton(imported) != skeleton(ANA)
