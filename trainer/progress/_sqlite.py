"""sqlite-utils, imported without numpy and pandas.

sqlite-utils imports numpy and pandas when they are installed (pyqtgraph brings numpy), only to
map their number types to column types; the progress store never writes such values. numpy
alone costs about 130 ms of every start of the app. So they are hidden while sqlite-utils is
imported, and only then: pyqtgraph still imports numpy when a chart is first drawn.
"""

from __future__ import annotations

import sys

_hidden = [name for name in ("numpy", "pandas") if name not in sys.modules]
for name in _hidden:
    sys.modules[name] = None  # type: ignore[assignment]  # "import numpy" raises ImportError
try:
    from sqlite_utils import Database
finally:
    for name in _hidden:
        if sys.modules.get(name) is None:
            del sys.modules[name]

__all__ = ["Database"]
