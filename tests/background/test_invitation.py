"""The hosted invitation page: what it shows, CSRF, validation of every field and document,
submission (checks run, documents sealed), the analyst's results, refused transitions."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
from sqlalchemy import select

from hakiki.background.tables import background_documents, background_requests
from hakiki.core.database import Database, read
from hakiki.core.runtime import Runtime
from tests.background.helpers import (
    DRIVER_FORM,
    PDF,
    candidate,
    events,
    invite,
    link_path,
    open_form,
    post_form,
    request_of,
    status_becomes,
    until,
)
from tests.conftest import AccountFactory

BASE = "/v3/background/candidates"
POLICE = {"police_clearance": ("good-conduct.pdf", PDF, "application/pdf")}


async def _invited(client: httpx.AsyncClient, headers: dict[str, str]) -> dict[str, str]:
    made = await invite(client, headers, "spk_ke_driver", candidate("otieno@example.com"))
    assert made.status_code == 201
    request: dict[str, str] = made.json()["data"]["requests"][0]
    return request


async def test_page_shows_the_form_and_only_the_organisation_name(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
) -> None:
    account = await make_account()
    request = await _invited(client, account.headers)
    page, csrf = await open_form(visitor, request["invitation_url"])
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert account.org_name in page.text and "I consent" in page.text
    for name in ("id_number", "date_of_birth", "referees", "police_clearance", "consent"):
        assert f"name={name}" in page.text, name
    assert account.org_id not in page.text and account.client_id not in page.text
    assert "spk_ke_driver" not in page.text and request["reference"] not in page.text
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assert page.headers["referrer-policy"] == "no-referrer"
    assert "samesite=strict" in page.headers["set-cookie"].lower()
    assert len(csrf) == 64
    for bogus in ("/invitations/short", "/invitations/" + "x" * 43, "/invitations/" + "y" * 500):
        assert (await visitor.get(bogus)).status_code == 404


async def test_csrf_and_validation_refuse_without_changing_anything(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
) -> None:
    account = await make_account()
    request = await _invited(client, account.headers)
    url = request["invitation_url"]
    _page, csrf = await open_form(visitor, url)
    assert (await post_form(visitor, url, None, DRIVER_FORM, POLICE)).status_code == 403
    assert (await post_form(visitor, url, "0" * 64, DRIVER_FORM, POLICE)).status_code == 403
    cookies = dict(visitor.cookies)
    visitor.cookies.clear()
    refused = await post_form(visitor, url, csrf, DRIVER_FORM, POLICE)
    assert refused.status_code == 403  # the field without the cookie
    visitor.cookies.update(cookies)
    bad = [
        ({**DRIVER_FORM, "consent": ""}, POLICE, "consent"),
        ({**DRIVER_FORM, "date_of_birth": "01/04/1990"}, POLICE, "date_of_birth"),
        ({**DRIVER_FORM, "date_of_birth": "2999-01-01"}, POLICE, "date_of_birth"),
        ({**DRIVER_FORM, "id_number": "20000000'; drop"}, POLICE, "id_number"),
        ({**DRIVER_FORM, "id_number": "2000\x000000"}, POLICE, "id_number"),
        ({**DRIVER_FORM, "referees": "r" * 501}, POLICE, "referees"),
        ({**DRIVER_FORM, "referees": ""}, POLICE, "referees"),
        (
            DRIVER_FORM,
            {"police_clearance": ("x.pdf", b"MZ\x90\x00", "application/pdf")},
            "police_clearance",
        ),
        (
            DRIVER_FORM,
            {"police_clearance": ("x.pdf", PDF + b"0" * (5 << 20), "application/pdf")},
            "police_clearance",
        ),
        (DRIVER_FORM, None, "police_clearance"),
    ]
    for fields, files, field in bad:
        refused = await post_form(visitor, url, csrf, fields, files)
        assert refused.status_code == 400, (field, refused.status_code)
        assert f'id="{field}-error"' in refused.text, field
    script = {**DRIVER_FORM, "referees": "<script>alert(1)</script>", "consent": ""}
    echoed = await post_form(visitor, url, csrf, script, POLICE)
    assert "<script>alert" not in echoed.text and "&lt;script&gt;" in echoed.text
    huge = await visitor.post(
        link_path(url), content=b"x" * 10, headers={"Content-Length": str(50 << 20)}
    )
    assert huge.status_code == 413
    garbage = await visitor.post(
        link_path(url),
        content=b"--b\r\nnot a part",
        headers={"Content-Type": "multipart/form-data; boundary=b"},
    )
    assert garbage.status_code in (400, 403)
    still = await client.get(f"{BASE}/{request['reference']}", headers=account.headers)
    assert request_of(still.json())["state"] == "pending"


async def test_submission_runs_checks_and_the_analyst_finishes_them(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
) -> None:
    account = await make_account()
    request = await _invited(client, account.headers)
    url, reference = request["invitation_url"], request["reference"]
    _page, csrf = await open_form(visitor, url)
    done = await post_form(visitor, url, csrf, DRIVER_FORM, POLICE)
    assert done.status_code == 200 and "id=done" in done.text
    assert "already been submitted" in (await visitor.get(link_path(url))).text
    again = await post_form(visitor, url, csrf, DRIVER_FORM, POLICE)
    assert "already been submitted" in again.text

    async def identity_done() -> dict[str, object] | None:
        got = request_of((await client.get(f"{BASE}/{reference}", headers=account.headers)).json())
        checks = {c["code"]: c for c in got["checks"]}
        return got if checks["identity"]["status"] == "completed" else None

    running = await until(identity_done, what="the identity check")
    assert running["state"] == "in_progress"
    checks = {c["code"]: c for c in running["checks"]}
    assert checks["identity"]["result"] == "clear"
    assert checks["identity"]["evidence"]["name_match"] is True
    assert checks["criminal_record"]["status"] == "awaiting_analyst"
    assert checks["criminal_record"]["due_at"] is not None
    async with read(db) as conn:
        row = (
            await conn.execute(
                select(background_requests).where(background_requests.c.reference == reference)
            )
        ).one()
        docs = (
            await conn.execute(
                select(background_documents).where(background_documents.c.request_id == row.id)
            )
        ).all()
    assert len(docs) == 1 and docs[0].size == len(PDF)
    assert b"%PDF" not in docs[0].sealed and b"good-conduct" not in docs[0].sealed
    assert "20000000" not in (row.submission_encrypted or "")
    assert "otieno" not in row.candidate_encrypted
    unsealed = runtime.vault.unseal(docs[0].sealed)
    assert unsealed.endswith(PDF)

    record = f"{BASE}/{reference}/checks"
    verdict = {"result": "clear", "evidence": {"certificate": "DCI-1"}}
    automated = await client.post(
        f"{record}/identity/result", json=verdict, headers=account.headers
    )
    assert automated.status_code == 409 and automated.json()["error"] == "conflict"
    unknown = await client.post(f"{record}/horoscope/result", json=verdict, headers=account.headers)
    assert unknown.status_code == 404
    for body in (
        {**verdict, "result": "fine"},
        {**verdict, "evidence": {}},
        {**verdict, "evidence": {"n": 5}},
        {**verdict, "analyst": "amina"},  # who records is the key, never the body
    ):
        refused = await client.post(
            f"{record}/criminal_record/result", json=body, headers=account.headers
        )
        assert refused.status_code == 400, body
    recorded = await client.post(
        f"{record}/criminal_record/result", json=verdict, headers=account.headers
    )
    assert recorded.status_code == 200, recorded.text
    cr = next(c for c in request_of(recorded.json())["checks"] if c["code"] == "criminal_record")
    assert cr["result"] == "clear" and cr["recorded_by"] == account.client_id
    assert cr["evidence"] == {"certificate": "DCI-1"}
    twice = await client.post(
        f"{record}/criminal_record/result", json=verdict, headers=account.headers
    )
    assert twice.status_code == 409
    other = await make_account()
    theirs = await client.post(f"{record}/references/result", json=verdict, headers=other.headers)
    assert theirs.status_code == 404
    last = await client.post(
        f"{record}/references/result",
        json={**verdict, "result": "consider", "evidence": {"notes": "one referee unreachable"}},
        headers=account.headers,
    )
    finished = request_of(last.json())
    assert finished["state"] == "completed" and finished["result"] == "consider"
    final = await status_becomes(client, account.headers, reference, "completed")
    assert [e["event"] for e in final["timeline"]][-1] == "complete"
    sent = await events(db, account.org_id, reference)
    assert sent[-1]["type"] == "background_check.completed"
    assert [e["sequence"] for e in sent] == list(range(1, len(sent) + 1))


async def test_recording_before_submission_is_refused(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
) -> None:
    account = await make_account()
    request = await _invited(client, account.headers)
    refused = await client.post(
        f"{BASE}/{request['reference']}/checks/criminal_record/result",
        json={"result": "clear", "evidence": {"a": "b"}},
        headers=account.headers,
    )
    assert refused.status_code == 409 and "pending" in refused.json()["message"]


async def test_a_streamed_body_over_the_limit_is_413(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
) -> None:
    account = await make_account()
    request = await _invited(client, account.headers)

    async def chunks() -> AsyncIterator[bytes]:
        yield b'--b\r\nContent-Disposition: form-data; name="police_clearance"; '
        yield b'filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF'
        for _ in range(20):
            yield b"y" * (1 << 20)

    streamed = await visitor.post(
        link_path(request["invitation_url"]),
        content=chunks(),
        headers={"Content-Type": "multipart/form-data; boundary=b"},
    )
    assert streamed.status_code == 413
    assert streamed.json()["error"] == "payload_too_large"


async def test_racing_submissions_of_one_invitation_one_wins_the_rest_are_409(
    client: httpx.AsyncClient, visitor: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account()
    url = (await _invited(client, account.headers))["invitation_url"]
    _page, csrf = await open_form(visitor, url)
    answers = await asyncio.gather(
        *(post_form(visitor, url, csrf, DRIVER_FORM, POLICE) for _ in range(4))
    )
    assert sorted(a.status_code for a in answers) == [200, 409, 409, 409], [
        a.text[-300:] for a in answers
    ]
    assert sum("id=done" in a.text for a in answers) == 1
    assert all("already been submitted" in a.text for a in answers if a.status_code == 409)
