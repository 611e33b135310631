"""File › Send my results with my class login…: a trainee with a login of her own in the class
(trainer.classes.server.logins) practised at a shared or enrolled workstation, whose login may not
send her results: the class refused them, and the workstation set them aside (trainer.classes.
workstation.queue). Here she types her class password: exactly those results are sent with her
login (ClassConnection.send_set_aside: her login's push registers her profile's id only when her
login made it, or the instructor settled it hers, s043), then her login claims her profile's
trainee id (ClassConnection.claim_profile: the profile keeps its id; hers once the class holds it
under her name; kept for the instructor when the class does not hold it and her login did not make
it, s039, or holds it under another name); the status line says what the class did, and a claim
kept says in one line that her results wait for the instructor. The password is used
for this send only, and never kept. The calls are short, on the GUI thread (ui.shell.server_call)."""

from __future__ import annotations

import html

from ui.qt import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, Qt, QVBoxLayout


def results(n: int) -> str:
    return f"{n} result{'s' if n != 1 else ''}"


#: what the status line says of her profile, by what the class answered its claim (logins.CLAIMED)
CLAIMED_SAYS = {
    "registered": "This profile is now the trainee of your class login: the class shows one person for you.",
    "hers": "This profile is the trainee of your class login: the class shows one person for you.",
    "held": ("The class holds this profile's trainee id under another trainee's name: your claim is "
             "recorded, and the instructor settles whose it is. Nothing else is sent under it from a "
             "workstation meanwhile."),
    "kept": ("The class does not hold this profile's trainee id yet, and it was made before your class "
             "login: your claim is recorded, and the instructor settles whose it is. Your results from "
             "this profile wait on this workstation until then."),
}


class SendOwnDialog(QDialog):
    """`connection`: the workstation's ClassConnection; `name`: the trainee signed in here; `uid`,
    `made`: her profile's trainee id and when it was made (None: nothing to claim)."""

    def __init__(self, connection, name: str, parent=None, *, uid: str | None = None,
                 made: float | None = None):
        super().__init__(parent)
        from trainer.classes import ClassServerError

        self.connection, self.name, self.uid, self.made = connection, name, uid, made
        self.setWindowTitle("Send my results with my class login")
        self.setMinimumWidth(560)
        layout = QVBoxLayout(self)
        try:
            self.count = connection.set_aside_of(name)
        except (ClassServerError, OSError) as e:  # the progress file could not be read now
            self.count, problem = 0, str(e)
        else:
            problem = None
        who = html.escape(name)
        self.claims = uid is not None and made is not None  # her profile is made hers first
        if self.count:
            text = (f"The class refused {results(self.count)} of <b>{who}</b> from this workstation: "
                    "a trainee with a class login of their own sends their results with it. Type the class "
                    f"password of {who} (the one the instructor gave) to make this profile the trainee "
                    f"of that login and send exactly {'this result' if self.count == 1 else 'these results'} "
                    "with it. The password is used for this send only, and is not kept.")
        elif self.claims:
            text = (f"No result of <b>{who}</b> waits to be sent with a class login. Type the class "
                    f"password of {who} (the one the instructor gave) to make this profile the trainee "
                    "of that login, so that the class shows one person for you. The password is used "
                    "for this only, and is not kept.")
        else:
            text = f"No result of <b>{who}</b> waits to be sent with a class login: nothing to send."
        self.intro = QLabel(text)
        self.intro.setWordWrap(True)
        layout.addWidget(self.intro)
        form = QFormLayout()
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setAccessibleName("Class password")
        form.addRow("Class &password:", self.password)
        layout.addLayout(form)
        self.status = QLabel(problem or "")  # the status line: what was sent, or why not
        self.status.setObjectName("wrong" if problem else "")
        self.status.setWordWrap(True)
        self.status.setAccessibleName("Status")
        # room for its longest words (a claim held, and results refused again): the dialog does
        # not grow with a label that wraps once shown
        self.status.setMinimumHeight(self.status.fontMetrics().lineSpacing() * 4)
        self.status.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.status)
        layout.addStretch(1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        # with nothing to send, the button makes the profile hers only
        self.send_button = buttons.addButton("&Send" if self.count or not self.claims else "&Confirm",
                                             QDialogButtonBox.ButtonRole.ActionRole)
        self.send_button.setEnabled(False)
        self.password.textChanged.connect(lambda t: self.send_button.setEnabled(bool(t) and self.to_do))
        self.send_button.clicked.connect(self.send)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.password.setEnabled(self.to_do)

    @property
    def to_do(self) -> bool:
        """Results wait to be sent, or her profile to be claimed."""
        return self.count > 0 or self.claims

    def say(self, text: str, *, wrong: bool = False) -> None:
        self.status.setObjectName("wrong" if wrong else "")
        self.status.style().polish(self.status)  # the theme's colour follows the name
        self.status.setText(text)

    def send(self) -> None:
        from trainer.classes import ClassServerError, LoginRefusedError
        from ui.shell.server_call import server_call

        claimed = None
        try:
            with server_call(self.say, "Sending with your class login"):
                # her results first: her login's push registers her profile's id as hers when
                # the class does not hold it; then the claim says what the class holds it as
                sent, refused = self.connection.send_set_aside(self.name, self.password.text())
                if self.claims:
                    claimed = self.connection.claim_profile(self.name, self.uid, self.made,
                                                            self.password.text())
                    self.claims = False
        except LoginRefusedError:
            self.password.selectAll()
            return self.say("Not sent: the class refuses this password. Type it again, or ask the "
                            "instructor for a new one.", wrong=True)
        except (ClassServerError, OSError) as e:
            return self.say(f"Not sent: {e}.", wrong=True)
        finally:
            self.password.clear()
        self.count = refused
        self.password.setEnabled(False)
        said = [CLAIMED_SAYS[claimed]] if claimed in CLAIMED_SAYS else []
        # a claim kept for the instructor says in its one line that her results wait (s043: her
        # login's push of an id it did not make is refused until the instructor settles it)
        if sent or (refused and claimed != "kept") or not said:
            said.append(f"{results(sent)} sent to the class with the login of {self.name}.")
        if refused and claimed != "kept":
            said.append(f"{results(refused)} refused by the class again, kept on this workstation with why.")
        self.say(" ".join(said), wrong=bool(refused) or claimed in ("held", "kept"))
