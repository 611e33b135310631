"""Sitting an exam on the Exam screen: start it (a stored form, or a sitting file's form), lock the
window to it, record each part the moment it is done, and end it as the runner says."""

from __future__ import annotations

from trainer.exams import Ending
from ui.qt import QInputDialog, QLineEdit, QMessageBox
from ui.shell.lists import selected

#: what the window says while the class server counts an exam's start, and once it is cancelled
COUNTING = ("Waiting for the class server to record the start of the exam: the exam opens once it "
            "has, and its clock runs from then.")
CANCELLED = ("The exam did not start: it was cancelled while the class server was asked to record "
             "the start. A call already made cannot be stopped: this line says what the server did "
             "once it answers.")


class ExamSitting:
    """The sitting half of ExamPage (a mixin: it uses the page's store, services and stack)."""

    def start(self, uid: str | None = None, confirm: bool = True) -> None:
        uid = uid or selected(self.available)
        if uid is None:
            return
        if confirm and QMessageBox.question(
                self, "Start the exam?", "The clock starts now. There is no feedback until the end, "
                "and leaving ends the attempt. Start?") != QMessageBox.StandardButton.Yes:
            return
        self.begin(uid)

    def begin(self, form, sitting: dict | None = None, start_code: str | None = None) -> bool:
        """Start the attempt (a stored form's uid, or a form from a sitting file with its token)
        and lock the window to it; False (with a message) when it is refused."""
        from trainer.exams import ExamError, ExamStart, TraineeLoginNeeded
        from trainer.progress import StoreError
        from ui.exams.runner import ExamRunner
        from ui.shell.working import Cancelled

        password, session = None, None
        classroom = self.class_connection()
        while session is None:
            try:
                start = ExamStart.checked(self.store, form, self.trainee.id, self.services.key,
                                          sitting=sitting, classroom=classroom, password=password,
                                          start_code=start_code, seen=self.services.seen)
                session = start.opened(self.counted(start))
            except TraineeLoginNeeded as e:  # asked again until given, refused or cancelled
                password = self.class_password(e)
                if password is None:
                    return False
            except Cancelled as e:
                self.services.status.emit(CANCELLED)
                e.when_done(self, self._cancelled_start)
                return False
            except (ExamError, StoreError) as e:
                QMessageBox.warning(self, "Exam", str(e))
                return False
        self.session = session
        session.delivers = False  # the runner sends to the class server, off the GUI thread (hold)
        form = session.form
        scenarios = [self.session.scenario(p) for p in range(len(form.items))]
        rounds = [form.round(p) if session.supervises(p) else None for p in range(len(form.items))]
        self.runner = ExamRunner(form.name, scenarios, self.session.remaining,
                                 sitting=sitting is not None, rounds=rounds)
        self.runner.item_finished.connect(self._answer)
        self.runner.flags_given.connect(self._flags)
        self.runner.over.connect(self._over)
        self.stack.addWidget(self.runner)
        self.stack.setCurrentWidget(self.runner)
        self.locked.emit(True)
        self.runner.start()
        return True

    def _cancelled_start(self, opened, error) -> None:
        """What became of a start cancelled while the class server was asked (ExamStart.count),
        once its call has ended: said on the status bar, never opened."""
        import time

        from trainer.exams import ExamOfflineError

        if error is None and opened is not None and getattr(opened, "started", None) is not None:
            when = time.strftime("%H:%M:%S", time.localtime(opened.started))
            said = (f"The start you cancelled reached the class server all the same: it recorded the "
                    f"start at {when}, and the sitting's time runs from then. To sit it, open the "
                    "sitting file again with the start code (the server gives the same start); "
                    "else tell the instructor, who may void it.")
        elif error is None:
            said = ("The start you cancelled reached the class server all the same: it counted the "
                    "attempt. Tell the instructor, who may void it.")
        elif isinstance(error, ExamOfflineError):
            said = (f"The start you cancelled got no answer from the class server ({error}) If it "
                    "was recorded all the same, the instructor sees the sitting started, and "
                    "opening the sitting file again with the start code gives that same start.")
        else:
            said = f"The class server did not record the start you cancelled ({error}) Nothing was started."
        self.services.status.emit(said)

    def counted(self, start):
        """The class server counts the start (ExamStart.count) on a thread of its own, while the
        window paints under a busy bar with Cancel (up to the connection's bounds: 5 s to
        connect, 15 s of silence); outside a class, at once. Cancelled when Cancel came first: the
        call goes on to its end, and `_cancelled_start` says then what the server did."""
        from ui.shell.working import cancellable

        if start.classroom is None:
            return start.count()
        return cancellable(self, "Starting the exam", COUNTING, start.count)

    def class_password(self, asked) -> str | None:
        """The trainee's class password, typed in a masked field (TraineeLoginNeeded says why it
        is asked, or that the server refused the last one); None when cancelled or left empty."""
        box = QInputDialog(self)
        box.setObjectName("classPassword")
        box.setWindowTitle("Class password")
        box.setLabelText(f"{asked}\n\nThe password the instructor gave {asked.name}:")
        box.setTextEchoMode(QLineEdit.EchoMode.Password)
        box.setOkButtonText("Start the exam")
        typed = box.textValue() if box.exec() else ""
        box.deleteLater()
        return typed or None

    def _answer(self, position: int, result, round_) -> None:
        """A dealer's item worked: its graded answer recorded."""
        self._recorded(lambda: self.session.record(position, result, round_.log))

    def _flags(self, position: int, flags) -> None:
        """A supervise item watched: the supervisor's flags recorded, as a dealer's answer is."""
        self._recorded(lambda: self.session.record_flags(position, flags))

    def _recorded(self, record) -> None:
        from trainer.exams import AwaitingClassError, ExamError
        from trainer.progress import StoreError

        session = self.session
        try:
            record()
        except AwaitingClassError:  # the answer before this one is not on the class server yet
            self._hold(session)
            return
        except ExamError:  # time is up by the exam's own clock
            self.runner.end(Ending.TIME_UP)
            return
        except StoreError as e:  # the file cannot take the answer: say so, and end the attempt
            QMessageBox.critical(self, "Exam", f"{e}\n\nThe attempt ends here; the answers "
                                 "saved before this one are kept.")
            self.runner.end(Ending.LEFT)
            return
        if session.waiting:  # sat online: the next part waits for the class server's acknowledgement
            self._hold(session)

    def _over(self, how: Ending) -> None:
        from trainer.exams import ExamError
        from trainer.progress import StoreError

        session, runner = self.session, self.runner
        unclosed = None
        if not session.over:
            try:
                {Ending.FINISHED: session.finish, Ending.TIME_UP: session.time_out,
                 Ending.LEFT: session.abandon}[how]()
            except (ExamError, StoreError) as e:  # the file cannot take the end (found damaged)
                unclosed = e
        if unclosed is None and session.waiting:  # the result once the server has every answer and the end
            self._hold(session, then=lambda: self._shown(session, runner, None))
            return
        self._shown(session, runner, unclosed)

    def _hold(self, session, then=None) -> None:
        """The runner waits for the class server's acknowledgement, sending on a thread of its own."""
        self.runner.hold(session.send, lambda: session.problem, then=then, deliver=session.deliver,
                         noted=lambda said: setattr(session, "problem", None if said is None else said.why))

    def _shown(self, session, runner, unclosed) -> None:
        result = session.result
        self.session = None
        self.runner = None
        self.stack.removeWidget(runner)
        runner.deleteLater()
        self.locked.emit(False)
        if result is None:
            self.home()  # the lists, read again
            self.services.status.emit(f"The exam ended, but its end could not be recorded: "
                                      f"{unclosed} The answers saved before are kept.")
            return
        self.refresh()
        self.show_result(result)

    def abandon(self) -> None:
        """End a running exam as left, without asking."""
        if self.runner is not None:
            self.runner.end(Ending.LEFT)

    def leave(self) -> bool:
        """The window is closing: ask as Leave exam does, and on Yes end the attempt as left;
        False when the trainee stays (or no exam runs: True)."""
        return self.runner is None or self.runner.ask_leave()
