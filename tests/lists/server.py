"""A local HTTP server standing in for the list publishers: good files, 500s, slow answers,
garbage and collapsed lists."""

from __future__ import annotations

import gzip
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from importlib import resources
from pathlib import Path

from tests.support.fake_server import serve_handler_in_thread

TEST_DATA = Path(__file__).resolve().parents[1] / "engines" / "screening" / "data"
NEW_UN_DATE = "2026-11-20"


def bundled(name: str) -> bytes:
    path = resources.files("hakiki.engines.screening.data").joinpath(name)
    return gzip.decompress(path.read_bytes())


def un_xml(date: str = NEW_UN_DATE, keep: int | None = None) -> bytes:
    """The bundled UN list with another dateGenerated; ``keep``: only that many individuals."""
    root = ET.fromstring(bundled("un_sc_consolidated.xml.gz"))
    root.set("dateGenerated", f"{date}T00:00:00-05:00")
    if keep is not None:
        for group, item in (("INDIVIDUALS", "INDIVIDUAL"), ("ENTITIES", "ENTITY")):
            parent = root.find(group)
            assert parent is not None
            for child in parent.findall(item)[keep if group == "INDIVIDUALS" else 0 :]:
                parent.remove(child)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


@dataclass
class Route:
    status: int = 200
    body: bytes = b""
    delay: float = 0.0


@dataclass
class ListServer:
    base_url: str
    routes: dict[str, Route] = field(default_factory=dict)
    hits: dict[str, int] = field(default_factory=dict)

    def url(self, path: str) -> str:
        return f"{self.base_url}{path}"

    def serve(self, path: str, body: bytes = b"", status: int = 200, delay: float = 0.0) -> str:
        self.routes[path] = Route(status, body, delay)
        return self.url(path)


@contextmanager
def run_list_server() -> Iterator[ListServer]:
    state = ListServer(base_url="")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            state.hits[path] = state.hits.get(path, 0) + 1
            route = state.routes.get(path, Route(404, b"not found"))
            if route.delay:
                time.sleep(route.delay)
            try:
                self.send_response(route.status)
                self.send_header("Content-Length", str(len(route.body)))
                self.end_headers()
                self.wfile.write(route.body)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def log_message(self, format: str, *args: object) -> None:
            pass

    with serve_handler_in_thread(Handler, "list-server") as base_url:
        state.base_url = base_url
        yield state


def good_sources(server: ListServer) -> dict[str, dict[str, object]]:
    """HAKIKI_LISTS_SOURCES serving good files: UN (a newer date), OFAC Consolidated, UK sample;
    the SDN is left out (its bundled snapshot stays in use)."""
    cons = {
        role: server.serve(
            f"/ofac/consolidated/cons_{role}.csv",
            (TEST_DATA / f"ofac_cons_{role}.csv").read_bytes(),
        )
        for role in ("prim", "alt", "add")
    }
    return {
        "us_ofac_sdn": {"enabled": False},
        "un_sc_consolidated": {"files": {"xml": server.serve("/un/consolidated.xml", un_xml())}},
        "us_ofac_consolidated": {"files": cons},
        "gb_hmt_sanctions": {
            "enabled": True,
            "files": {
                "csv": server.serve(
                    "/uk/ConList.csv", (TEST_DATA / "uk_conlist_sample.csv").read_bytes()
                )
            },
        },
    }
