"""`python -m ui` opens the app, like `dealer-trainer`."""

import sys

from ui.main import main

sys.exit(main())
