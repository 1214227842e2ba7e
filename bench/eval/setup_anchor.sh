#!/usr/bin/env bash
# Create bench/eval/.venv-anchor with nomenklatura (OpenSanctions logic-v2) for the --anchor
# comparison in bench/eval/run.py. Benchmark-only: nomenklatura is NEVER a Hakiki dependency
# (its environment is ~670 MB: scipy, scikit-learn, duckdb...).
#
# Usage: bench/eval/setup_anchor.sh [python-interpreter]     (default: python3.11 or python3)
# Needs network access to PyPI once; scoring afterwards is fully offline.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="$HERE/.venv-anchor"
NOMENKLATURA_SPEC="${NOMENKLATURA_SPEC:-nomenklatura==4.17.*}"
PY="${1:-$(command -v python3.11 || command -v python3)}"

if [ ! -x "$VENV/bin/python" ]; then
    echo "creating $VENV with $PY"
    "$PY" -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet "$NOMENKLATURA_SPEC"

# Smoke test with the network disabled for Python (any socket use fails loudly): proves that
# logic-v2 scores a pair from installed files only.
"$VENV/bin/python" - <<'PY'
import socket


def _no_network(*args, **kwargs):
    raise RuntimeError("anchor tried to use the network")


socket.socket.connect = _no_network  # type: ignore[method-assign]
socket.create_connection = _no_network  # type: ignore[assignment]

import nomenklatura  # noqa: E402
from importlib.metadata import version  # noqa: E402

from followthemoney import model  # noqa: E402
from nomenklatura.matching import LogicV2  # noqa: E402

a = model.make_entity("Person")
a.id = "a"
a.add("name", "Vladimir Putin")
b = model.make_entity("Person")
b.id = "b"
b.add("name", "Vladimir Vladimirovich Putin")
print("nomenklatura", version("nomenklatura"), "logic-v2 smoke score", LogicV2.compare(a, b, LogicV2.default_config()).score)
PY
echo "anchor venv ready: $VENV"
