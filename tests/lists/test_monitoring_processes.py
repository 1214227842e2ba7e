"""Ongoing monitoring in scaled mode, with real processes: an API process and a job worker on
PostgreSQL, each with a data folder of its own. A live customer is enrolled through the API;
`hakiki lists update`, run from a third folder, stores a UN version that lists a new person of
that name. The worker's list watch loads the version, its monitoring tick screens the change
(a delta run) and the alert is in the API's queue, with no restart (issue 34)."""

from __future__ import annotations

import asyncio
import copy
import json
import subprocess
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import httpx
import pytest

from hakiki.account import service as accounts
from hakiki.core.database import create_database
from tests.lists.server import NEW_UN_DATE, ListServer, un_xml
from tests.support.cli import free_port
from tests.support.databases import isolated_settings, process_env
from tests.support.job_processes import HAKIKI_WITH_TEST_TASKS, ROOT, start, stop, wait_for_line

pytestmark = pytest.mark.processes

NEW_PERSON = ("ZAWADI KIPRONO", "MUTUAGANDA")  # on no bundled list: only the new version has it
NEW_REFERENCE = "CDi.934"  # the UN entry's id on the list


def un_with_new_person() -> bytes:
    """The bundled UN list, dated NEW_UN_DATE, with one individual more."""
    root = ET.fromstring(un_xml())
    individuals = root.find("INDIVIDUALS")
    assert individuals is not None
    person = copy.deepcopy(individuals.findall("INDIVIDUAL")[0])
    for tag, value in (
        ("DATAID", "990000034"),
        ("FIRST_NAME", NEW_PERSON[0]),
        ("SECOND_NAME", NEW_PERSON[1]),
        ("REFERENCE_NUMBER", NEW_REFERENCE),
    ):
        element = person.find(tag)
        assert element is not None
        element.text = value
    individuals.append(person)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


@pytest.mark.postgresql
async def test_a_list_update_turns_a_monitored_customer_into_an_alert_in_scaled_mode(
    tmp_path: Path, list_server: ListServer
) -> None:
    api = await isolated_settings(
        "postgresql", tmp_path / "api", "monitor", jobs_backend="procrastinate"
    )
    worker = api.model_copy(update={"data_dir": tmp_path / "worker"})
    operator = api.model_copy(update={"data_dir": tmp_path / "operator"})
    db = create_database(api)
    await accounts.create_org(db, "Watchful Lending", approved=True)
    key = await accounts.create_key(db, "Watchful Lending", "live")
    await db.dispose()
    headers = {"Authorization": f"Bearer {key.client_id}:{key.secret}"}
    port = free_port()
    fast = {"HAKIKI_LISTS_CHECK_SECONDS": "2", "HAKIKI_MONITORING_CHECK_SECONDS": "2"}
    processes = [
        start(api, "serve", "--port", str(port), **fast),
        start(worker, "worker", **fast),
    ]
    try:
        wait_for_line(processes[0], "Application startup complete")
        wait_for_line(processes[1], "worker started")
        async with httpx.AsyncClient(
            base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=30
        ) as http:
            enrolled = await http.post(
                "/v3/screening/monitored-subjects",
                json={
                    "name": " ".join(NEW_PERSON).title(),
                    "reference": "cust-934",
                    # this server loads no PEP list: a pep check would make it INCOMPLETE
                    "checks": ["sanction"],
                },
            )
            assert enrolled.status_code == 201, enrolled.text
            assert enrolled.json()["status"] == "PENDING"
            subject_id = enrolled.json()["data"]["id"]
            # the worker runs its baseline: the lists as they are, no match
            since = time.monotonic()
            while (read := await http.get(f"/v3/screening/monitored-subjects/{subject_id}")).json()[
                "status"
            ] == "PENDING":
                assert time.monotonic() - since < 60, "the baseline did not run"
                await asyncio.sleep(0.5)
            assert read.json()["status"] == "COMPLETED" and read.json()["verdict"] == "PASS"
            assert read.json()["data"]["lists_screened"]
            await asyncio.sleep(3)  # the worker's first ticks
            assert await alerts_of(http, subject_id) == []

            sources = {
                "us_ofac_sdn": {"enabled": False},
                "us_ofac_consolidated": {"enabled": False},
                "un_sc_consolidated": {
                    "files": {"xml": list_server.serve("/un.xml", un_with_new_person())}
                },
            }
            update = await asyncio.to_thread(
                subprocess.run,
                [*HAKIKI_WITH_TEST_TASKS, "lists", "update", "--json"],
                env=process_env(operator, HAKIKI_LISTS_SOURCES=json.dumps(sources)),
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert update.returncode == 0, update.stderr
            [outcome] = [json.loads(line) for line in update.stdout.splitlines()]
            assert outcome["changed"] and outcome["version"] == NEW_UN_DATE
            stored = time.monotonic()
            while not (alerts := await alerts_of(http, subject_id)):
                assert time.monotonic() - stored < 120, "no alert from the list change"
                await asyncio.sleep(1)
        print(f"alert in the queue {time.monotonic() - stored:.1f} s after the update")
        [alert] = alerts
        assert alert["origin"] == "monitoring" and alert["status"] == "open"
        assert alert["list_code"] == "un_sc_consolidated"
        assert alert["entity_id"] == NEW_REFERENCE
        assert alert["subject"]["reference"] == "cust-934"
    finally:
        for process in processes:
            stop(process)


async def alerts_of(http: httpx.AsyncClient, subject_id: str) -> list[dict[str, Any]]:
    response = await http.get("/v3/screening/alerts", params={"subject": subject_id})
    assert response.status_code == 200, response.text
    return list(response.json()["data"])
