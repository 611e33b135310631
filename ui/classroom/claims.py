"""Settle claim…, on the instructor's live Class tab: whose a trainee id is that a trainee's own
login claimed while the class held it under another name (the row marked "⚑ disputed" until
then; the exports leave the id out). The claimant's: the id's results are her login's from then
on; the row's: the claim rejected, the id written as before. Both the claim and its settling are
kept, with the reason, and a settling is never taken back (trainer.classes.server.people, "Claims
settled"; `dealer-trainer settle-claim`, whose words the status bar says)."""

from __future__ import annotations

from ui.classroom.view import ReasonDialog
from ui.qt import QComboBox, QRadioButton, Qt

WHAT = ("A trainee's own login claims a trainee id that the class holds under another name. Until "
        "you settle it, the exports leave the id out. Settle it the claimant's (its results are "
        "her login's from now on) or the row's (the claim rejected). The class keeps the claim, "
        "your choice and your reason; a settling is never taken back.")


def claim_choice(claim) -> str:
    """An open claim as the dialog lists it: the row, enough of the id to tell two apart, and who
    claims it (the whole id and the login in its tooltip, `claim_tip`)."""
    whose = (f"{claim.row_name}'s trainee id" if claim.row_name is not None else
             "A trainee id the class holds no row of yet,")
    return f"{whose} {claim.uid[:8]}…, claimed by {claim.name}'s login"


def claim_tip(claim) -> str:
    return f"Trainee id {claim.uid}, claimed by login {claim.login}"


class SettleDialog(ReasonDialog):
    """Settle one claimed trainee id: the open claims (`claims`, trainer.classes' Claim rows with
    no settling), the claim of the trainee id `chosen` (the Class tab's selected row's) selected;
    the claimant's or the row's (neither ticked, and cleared when another claim is chosen); a
    reason; then Settle, which calls `settle(uid, login or None, reason)` and keeps the line it answers
    (`said`) for the window's status bar."""

    def __init__(self, claims: list, settle, parent=None, *, chosen: str | None = None):
        super().__init__("Settle a claimed trainee id", WHAT, "Why (kept with the settling)", "&Settle",
                         "Settling in the class", "settled", self._settle, parent)
        # the disputes of a row first: a claim of an id the class holds no row of costs any login
        # nothing to make, so a flood of them must not bury a real one (the seventh cold review,
        # #142)
        self.claims = sorted((c for c in claims if c.settled is None), key=lambda c: c.row_name is None)
        self.call_server = settle
        self.claim = QComboBox()
        self.claim.setAccessibleName("The claim")
        self.claim.addItems([claim_choice(c) for c in self.claims] or ["no claim waits to be settled"])
        for k, c in enumerate(self.claims):
            self.claim.setItemData(k, claim_tip(c), Qt.ItemDataRole.ToolTipRole)
        self.claimant = QRadioButton()
        self.row = QRadioButton()
        # neither ticked: the claimant is the party nothing checks, so the instructor chooses
        # (the command has no default either; the seventh cold review, #139)
        for choice in (self.claimant, self.row):
            choice.toggled.connect(self.refresh)
        for n, widget in enumerate((self.claim, self.claimant, self.row), start=1):
            self.layout().insertWidget(n, widget)
            widget.setEnabled(bool(self.claims))
        self.reason.setEnabled(bool(self.claims))
        self.claim.currentIndexChanged.connect(self._claim_changed)
        mine = [k for k, c in enumerate(self.claims) if chosen is not None and c.uid == chosen]
        self.claim.setCurrentIndex(mine[0] if mine else 0)
        self._name_choices()
        self.widen(640)

    def ready(self) -> bool:
        return super().ready() and (self.claimant.isChecked() or self.row.isChecked())

    def _claim_changed(self) -> None:
        """Another claim chosen: the outcome and the reason given for the one before are cleared
        (they were for it; the seventh cold review's re-check, #147)."""
        for choice in (self.claimant, self.row):
            choice.setAutoExclusive(False)  # an exclusive radio button cannot be unticked
            choice.setChecked(False)
            choice.setAutoExclusive(True)
        self.reason.clear()
        self._name_choices()

    def _name_choices(self) -> None:
        if not self.claims:
            self.claimant.setText("The claimant's")
            self.row.setText("The row's")
            return
        c = self.claims[self.claim.currentIndex()]
        self.claimant.setText(f"{c.name}'s: the &claimant's login (its results are hers from now on)")
        self.row.setText(f"{c.row_name or 'Nobody'}'s: the &row's, as before (the claim rejected)")

    def _settle(self, reason: str) -> None:
        c = self.claims[self.claim.currentIndex()]
        self.said = self.call_server(c.uid, c.login if self.claimant.isChecked() else None, reason)

    def accept(self) -> None:
        if self.claims:
            super().accept()
