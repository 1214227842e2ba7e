"""screening.list_updated: a list update that stores a new version tells every organisation
and environment with an endpoint subscribed to it, once; an unchanged list tells no one."""

from __future__ import annotations

from pathlib import Path

import httpx

from hakiki.core.database import Database
from hakiki.core.settings import Settings
from hakiki.lists.service import update_lists
from tests.conftest import AccountFactory
from tests.lists.conftest import forget_lists
from tests.lists.server import NEW_UN_DATE, run_list_server, un_xml
from tests.lists.test_update import config, un_only
from tests.webhooks.conftest import create_endpoint, deliveries, eventually
from tests.webhooks.receiver import Receiver


async def test_a_changed_list_is_announced_to_subscribers(
    client: httpx.AsyncClient,
    db: Database,
    settings: Settings,
    make_account: AccountFactory,
    receiver: Receiver,
    tmp_path: Path,
) -> None:
    subscribed = await make_account("sandbox")
    endpoint = await create_endpoint(
        client, subscribed, receiver.url, events=["screening.list_updated"]
    )
    everything = await create_endpoint(client, subscribed, receiver.url)
    receiver.secrets = [endpoint["secret"], everything["secret"]]
    uninterested = await make_account("sandbox")
    await create_endpoint(client, uninterested, receiver.url, events=["verification.completed"])

    mine = settings.model_copy(update={"data_dir": tmp_path / "data"})
    with run_list_server() as server:
        lists = config(un_only(server.serve("/un.xml", un_xml())))
        [outcome] = await update_lists(mine, db, config=lists)
        assert outcome.changed
        messages = await eventually(lambda: len(receiver.accepted()) == 2 and receiver.accepted())
        [again] = await update_lists(mine, db, config=lists)  # the same version: no event
        assert again.status == "ok" and not again.changed
        # Another process on another machine (its own data folder) stores the same version,
        # as a scheduled update beside a cron job would: announced once all the same
        other = settings.model_copy(update={"data_dir": tmp_path / "elsewhere"})
        [elsewhere] = await update_lists(other, db, config=lists)
        assert elsewhere.status == "ok" and not elsewhere.changed
        assert elsewhere.previous_version == NEW_UN_DATE

    bodies = [m.json for m in messages]
    assert bodies[0] == bodies[1]  # one event, one delivery per subscribed endpoint
    event = bodies[0]
    assert event["type"] == "screening.list_updated"
    assert event["resource_id"] == "un_sc_consolidated" and event["sequence"] == 1
    assert event["data"] == {
        "list_code": "un_sc_consolidated",
        "version": NEW_UN_DATE,
        "previous_version": None,
        "entity_count": 1003,
        "published": NEW_UN_DATE,
        "fetched_at": outcome.fetched_at.isoformat(),
    }
    assert await deliveries(client, uninterested) == []
    assert len(await deliveries(client, subscribed)) == 2
    await forget_lists(db)
