"""`python -m trainer ...` is the same program as `dealer-trainer ...`."""

import sys

from trainer.cli import main

sys.exit(main())
