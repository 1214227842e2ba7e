from __future__ import annotations

from typing import Any

import pytest

from hakiki.core.runtime import Runtime


@pytest.fixture
def runtime(app: Any) -> Runtime:
    value: Runtime = app.state.runtime
    return value
