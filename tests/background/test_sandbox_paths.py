"""The sandbox's e-mail-driven paths, webhooks with their per-resource sequence, the timeline,
listing with filters, reinitiate (allowed and refused) and another organisation's 404."""

from __future__ import annotations

import httpx

from hakiki.core.database import Database
from hakiki.core.runtime import Runtime
from tests.background.helpers import candidate, events, invite, request_of, status_becomes
from tests.conftest import AccountFactory
from tests.support.consent import CONSENT

BASE = "/v3/background/candidates"


def moves(request: dict[str, object]) -> list[str]:
    """The timeline's entries that moved the request (not e-mails or check results)."""
    timeline = request["timeline"]
    assert isinstance(timeline, list)
    return [e["event"] for e in timeline if not e["event"].startswith(("email", "check"))]


async def test_complete_path_clears_every_check_and_sends_webhooks(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime: Runtime, db: Database
) -> None:
    account = await make_account()
    made = await invite(
        client, account.headers, "spk_ke_driver", candidate("wanjiru+complete@example.com")
    )
    assert made.status_code == 201, made.text
    request = made.json()["data"]["requests"][0]
    assert request["state"] == "pending" and request["live"] is False
    assert request["invitation_url"].startswith("http://hakiki.test/invitations/")
    assert request["expires_at"] > request["created_at"]
    done = await status_becomes(client, account.headers, request["reference"], "completed")
    assert done["result"] == "clear" and done["invitation_url"] is None
    assert {c["result"] for c in done["checks"]} == {"clear"}
    assert all(c["status"] == "completed" for c in done["checks"])
    manual = next(c for c in done["checks"] if c["code"] == "criminal_record")
    assert manual["recorded_by"] == "sandbox analyst"
    # The invitation e-mail's note comes from a job of its own and may land at any point.
    steps = [e["event"] for e in done["timeline"] if e["event"] != "email_not_sent"]
    assert steps[0] == "invited" and "submit" in steps and steps[-1] == "complete"
    assert [e["status"] for e in done["timeline"]][-1] == "completed"
    sent = await events(db, account.org_id, request["reference"])
    assert [e["sequence"] for e in sent] == list(range(1, len(sent) + 1))
    assert sent[-1]["type"] == "background_check.completed"
    assert sent[-1]["data"] == {
        "reference": request["reference"],
        "status": "completed",
        "result": "clear",
        "package_id": "spk_ke_driver",
    }
    assert {e["type"] for e in sent[:-1]} == {"background_check.updated"}


async def test_consider_stall_and_expire_paths(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime: Runtime
) -> None:
    account = await make_account()
    made = await invite(
        client,
        account.headers,
        "spk_ke_basic_identity",
        candidate("a+consider@example.com"),
        candidate("b+stall@example.com"),
        candidate("c+expire@example.com"),
        candidate("d@example.com"),
    )
    consider, stall, expire, plain = (r["reference"] for r in made.json()["data"]["requests"])
    considered = await status_becomes(client, account.headers, consider, "completed")
    assert considered["result"] == "consider"
    assert any(c["result"] == "consider" for c in considered["checks"])
    stalled = await status_becomes(client, account.headers, stall, "stalled")
    assert stalled["submitted_at"] is not None
    expired = await status_becomes(client, account.headers, expire, "expired")
    assert moves(expired) == ["invited", "expire"]
    assert "email_not_sent" in [e["event"] for e in expired["timeline"]]  # no SMTP here
    untouched = await client.get(f"{BASE}/{plain}", headers=account.headers)
    assert request_of(untouched.json())["state"] == "pending"


async def test_reinitiate_allowed_and_refused(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime: Runtime
) -> None:
    account = await make_account()
    made = await invite(
        client,
        account.headers,
        "spk_ke_basic_identity",
        candidate("e+expire@example.com"),
        candidate("p@example.com"),
        candidate("c+complete@example.com"),
    )
    expire, plain, complete = made.json()["data"]["requests"]
    refused = await client.post(f"{BASE}/{plain['reference']}/reinitiate", headers=account.headers)
    assert refused.status_code == 409
    assert refused.json()["error"] == "conflict" and "is pending" in refused.json()["message"]
    await status_becomes(client, account.headers, complete["reference"], "completed")
    refused = await client.post(
        f"{BASE}/{complete['reference']}/reinitiate", headers=account.headers
    )
    assert refused.status_code == 409 and "is completed" in refused.json()["message"]
    await status_becomes(client, account.headers, expire["reference"], "expired")
    old_link = expire["invitation_url"].removeprefix("http://hakiki.test")
    again = await client.post(f"{BASE}/{expire['reference']}/reinitiate", headers=account.headers)
    assert again.status_code == 200, again.text
    fresh = request_of(again.json())
    assert fresh["state"] == "pending" and fresh["invitation_url"] != expire["invitation_url"]
    assert fresh["expires_at"] > expire["expires_at"]
    assert (await client.get(old_link)).status_code == 404  # the old link is dead
    new_link = fresh["invitation_url"].removeprefix("http://hakiki.test")
    # +expire again: the new invitation expires too, and the sandbox path runs once more
    await status_becomes(client, account.headers, expire["reference"], "expired")
    assert (await client.get(new_link)).status_code == 404
    body = request_of(
        (await client.get(f"{BASE}/{expire['reference']}", headers=account.headers)).json()
    )
    assert moves(body) == [
        "invited",
        "expire",
        "reinitiate",
        "expire",
    ]


async def test_list_filters_pagination_and_other_organisation(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime: Runtime
) -> None:
    account = await make_account()
    other = await make_account()
    made = await invite(
        client,
        account.headers,
        "spk_ug_driver",
        *[candidate(f"x{n}@example.com") for n in range(3)],
    )
    assert made.status_code == 201
    await invite(client, account.headers, "spk_ke_basic_identity", candidate())
    listed = await client.get(f"{BASE}?page_size=2", headers=account.headers)
    assert listed.json()["pagination"] == {
        "page": 1,
        "page_size": 2,
        "total_pages": 2,
        "total_items": 4,
    }
    by_package = await client.get(f"{BASE}?package_id=spk_ug_driver", headers=account.headers)
    assert by_package.json()["pagination"]["total_items"] == 3
    pending = await client.get(f"{BASE}?status=pending", headers=account.headers)
    assert pending.json()["pagination"]["total_items"] == 4
    created = made.json()["data"]["requests"][0]["created_at"]
    later = await client.get(BASE, params={"created_from": "2999-01-01"}, headers=account.headers)
    assert later.json()["pagination"]["total_items"] == 0
    earlier = await client.get(BASE, params={"created_to": created}, headers=account.headers)
    assert earlier.json()["pagination"]["total_items"] == 0
    for query in ({"status": "done"}, {"created_from": "yesterday"}, {"page": 0}):
        refused = await client.get(BASE, params=query, headers=account.headers)
        assert refused.status_code == 400, query
    assert (await client.get(BASE, headers=other.headers)).json()["pagination"]["total_items"] == 0
    reference = made.json()["data"]["requests"][0]["reference"]
    assert (await client.get(f"{BASE}/{reference}", headers=other.headers)).status_code == 404
    refused = await client.post(f"{BASE}/{reference}/reinitiate", headers=other.headers)
    assert refused.status_code == 404
    assert "invitation_url" in made.json()["data"]["requests"][0]
    listed_one = request_of(
        (await client.get(f"{BASE}/{reference}", headers=account.headers)).json()
    )
    assert listed_one["invitation_url"] is None  # the link is shown only when it is made


async def test_create_refuses_bad_input(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    headers = (await make_account()).headers
    cases: list[tuple[dict[str, object], str]] = [
        ({"package_id": "spk_ke_driver", "consent": CONSENT, "candidates": []}, "candidates"),
        (
            {"package_id": "spk_ke_driver", "consent": CONSENT, "candidates": [candidate("nope")]},
            "candidates.0.email",
        ),
        (
            {
                "package_id": "spk_ke_driver",
                "consent": CONSENT,
                "candidates": [candidate(first_name="")],
            },
            "candidates.0.first_name",
        ),
        (
            {
                "package_id": "spk_ke_driver",
                "consent": CONSENT,
                "candidates": [candidate(phone="call me")],
            },
            "candidates.0.phone",
        ),
        (
            {"package_id": "spk_ke_driver", "consent": CONSENT, "candidates": [candidate()] * 51},
            "candidates",
        ),
        (
            {
                "package_id": "spk_ke_driver",
                "consent": CONSENT,
                "candidates": [candidate()],
                "callback_url": "ftp://x",
            },
            "callback_url",
        ),
        ({"package_id": 5, "consent": CONSENT, "candidates": [candidate()]}, "package_id"),
        ({"consent": CONSENT, "candidates": [candidate()]}, "package_id"),
    ]
    for body, field in cases:
        refused = await client.post(BASE, json=body, headers=headers)
        assert refused.status_code == 400, (body, refused.text)
        fields = [d["field"] for d in refused.json()["details"]]
        assert field in fields, (field, fields)
    unknown = await client.post(
        BASE,
        json={"package_id": "bpk_nothing", "consent": CONSENT, "candidates": [candidate()]},
        headers=headers,
    )
    assert unknown.status_code == 404
    nul = await client.post(
        BASE,
        json={
            "package_id": "spk_ke_driver",
            "consent": CONSENT,
            "candidates": [candidate(last_name="K\x00")],
        },
        headers=headers,
    )
    assert nul.status_code == 400


async def test_callback_url_follows_the_webhook_url_rules(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    live = (await make_account("live", balance=10_000)).headers
    body = {"package_id": "spk_ke_driver", "consent": CONSENT, "candidates": [candidate()]}
    cases = [
        (live, "http://example.com/hook", "https"),
        (live, "https://user:pw@example.com/hook", "credentials"),
    ]
    for headers, url, words in cases:
        refused = await client.post(BASE, json=body | {"callback_url": url}, headers=headers)
        assert refused.status_code == 400, refused.text
        assert refused.json()["details"][0]["field"] == "callback_url"
        assert words in refused.json()["message"]
    kept = await client.post(
        BASE, json=body | {"callback_url": "https://lender.example/hooks"}, headers=live
    )
    assert kept.status_code == 201
