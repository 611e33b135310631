"""The bundle's program (packaging/dealer-trainer.spec): the app, or one of the engine's
commands, as `dealer-trainer` is in a venv (ui.main)."""

import sys

from ui.main import main

sys.exit(main())
