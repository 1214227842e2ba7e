"""The Python client (clients/python) is its own package: its tests import it from its source
folder, as an installed copy would be imported."""

from __future__ import annotations

import sys
from pathlib import Path

CLIENT_SRC = Path(__file__).resolve().parents[2] / "clients" / "python" / "src"
if str(CLIENT_SRC) not in sys.path:
    sys.path.insert(0, str(CLIENT_SRC))
