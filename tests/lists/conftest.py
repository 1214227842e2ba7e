from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.lists.server import ListServer, run_list_server


@pytest.fixture
def list_server() -> Iterator[ListServer]:
    with run_list_server() as server:
        yield server
