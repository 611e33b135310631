"""File › Send my results with my class login…: a trainee with a login of her own in the class
(trainer.classes.server.logins) practised at a shared or enrolled workstation, whose login may not
send her results: the class refused them, and the workstation set them aside (trainer.classes.
workstation.queue). Here she types her class password, and exactly those results are sent with
her login (ClassConnection.send_set_aside); the status line says how many were sent, and why any
was refused again. The password is used for this send only, and never kept. The call is short,
on the GUI thread (ui.shell.server_call)."""

from __future__ import annotations

import html

from ui.qt import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout


def results(n: int) -> str:
    return f"{n} result{'s' if n != 1 else ''}"


class SendOwnDialog(QDialog):
    """`connection`: the workstation's ClassConnection; `name`: the trainee signed in here."""

    def __init__(self, connection, name: str, parent=None):
        super().__init__(parent)
        from trainer.classes import ClassServerError

        self.connection, self.name = connection, name
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
        if self.count:
            text = (f"The class refused {results(self.count)} of <b>{who}</b> from this workstation: "
                    "a trainee with a class login of their own sends their results with it. Type the class "
                    f"password of {who} (the one the instructor gave) to send exactly "
                    f"{'this result' if self.count == 1 else 'these results'} with that login. "
                    "The password is used for this send only, and is not kept.")
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
        layout.addWidget(self.status)
        layout.addStretch(1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.send_button = buttons.addButton("&Send", QDialogButtonBox.ButtonRole.ActionRole)
        self.send_button.setEnabled(False)
        self.password.textChanged.connect(lambda t: self.send_button.setEnabled(bool(t) and self.count > 0))
        self.send_button.clicked.connect(self.send)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.password.setEnabled(self.count > 0)

    def say(self, text: str, *, wrong: bool = False) -> None:
        self.status.setObjectName("wrong" if wrong else "")
        self.status.style().polish(self.status)  # the theme's colour follows the name
        self.status.setText(text)

    def send(self) -> None:
        from trainer.classes import ClassServerError, LoginRefusedError
        from ui.shell.server_call import server_call

        try:
            with server_call(self.say, "Sending with your class login"):
                sent, refused = self.connection.send_set_aside(self.name, self.password.text())
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
        text = f"{results(sent)} sent to the class with the login of {self.name}."
        if refused:
            text += f" {results(refused)} refused by the class again, kept on this workstation with why."
        self.say(text, wrong=bool(refused))
