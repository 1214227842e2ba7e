"""The face scan over HTTP on both databases, with real photographs: a reported face (the fraud
bank) and one face presented with several identity numbers across organisations."""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any

import httpx
from PIL import Image

from tests.conftest import AccountFactory

URL = "/v3/fraud/face-scan"
FACES = Path(__file__).resolve().parents[1] / "engines" / "face" / "data"


def photo(name: str) -> bytes:
    return (FACES / name).read_bytes()


async def scan(
    client: httpx.AsyncClient, headers: dict[str, str], image: bytes, numbers: list[str]
) -> httpx.Response:
    return await client.post(
        URL,
        files={"image": ("face.jpg", image, "image/jpeg")},
        data={"identity_numbers": numbers},
        headers=headers,
    )


def codes(result: dict[str, Any]) -> list[str]:
    return [signal["code"] for signal in result["data"]["risk"]["signals"]]


async def test_sandbox_embeds_for_real_and_mocks_the_bank(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    clean = await scan(client, account.headers, photo("obama.jpg"), ["22222222220"])
    assert clean.status_code == 200, clean.text
    assert clean.json()["data"]["face"]["detector_score"] > 0 and codes(clean.json()) == []
    flagged = await scan(client, account.headers, photo("obama.jpg"), ["22222222227"])
    assert codes(flagged.json()) == ["face_in_fraud_bank", "face_with_other_identities"]
    assert flagged.json()["billing"]["charged"] is False

    blank = io.BytesIO()
    Image.new("RGB", (400, 400), (200, 180, 160)).save(blank, "PNG")
    no_face = await scan(client, account.headers, blank.getvalue(), [])
    assert no_face.status_code == 400 and no_face.json()["details"][0]["field"] == "image"
    not_an_image = await scan(client, account.headers, b"%PDF-1.7 hello", [])
    assert not_an_image.status_code == 400
    missing = await client.post(URL, data={"identity_numbers": ["1"]}, headers=account.headers)
    assert missing.status_code == 400


async def test_one_face_many_numbers_and_the_fraud_bank(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    reporter, second, third = [await make_account("live", balance=100_000) for _ in range(3)]
    # One lender reports a fraud with the subject's photo: the face joins the fraud bank.
    report = {
        "subject": {
            "last_name": "Doe",
            "identifiers": [{"type": "bvn", "value": "22300000001"}],
            "face_image_base64": base64.b64encode(photo("obama.jpg")).decode(),
        },
        "incident": {"category": "identity_theft", "date": "2026-10-10",
                     "description": "Account opened with a stolen BVN and this photo."},
    }  # fmt: skip
    created = await client.post("/v3/fraud/reports", json=report, headers=reporter.headers)
    assert created.status_code == 201, created.text
    assert created.json()["data"]["face_enrolled"] is True
    assert created.json()["data"]["subject"]["face_image_base64"] is None  # never stored or echoed

    # Another photo of the same man, with another BVN, at another lender.
    hit = await scan(client, second.headers, photo("obama2.jpg"), ["22300000002"])
    assert hit.status_code == 200, hit.text
    result = hit.json()
    assert result["live"] is True and result["billing"]["charged"] is True
    assert result["data"]["links"]["fraud_bank_matches"] == 1
    assert result["data"]["links"]["other_identities"] == 1
    assert result["data"]["links"]["closest_distance"] < 0.6
    assert result["data"]["fraud_reports"]["categories"] == {"identity_theft": 1}
    assert codes(result) == ["face_in_fraud_bank", "face_with_other_identities"]

    # A third photo, a third BVN: the face has now been seen with two other numbers.
    again = (await scan(client, third.headers, photo("obama3.jpg"), ["22300000003"])).json()
    assert again["data"]["links"]["other_identities"] == 2
    # Presenting the same number again is not "another identity".
    same = (await scan(client, third.headers, photo("obama3.jpg"), ["22300000003"])).json()
    assert same["data"]["links"]["other_identities"] == 2
    # A different man matches nothing.
    other = (await scan(client, third.headers, photo("biden.jpg"), ["22300000004"])).json()
    assert (
        other["data"]["links"]["fraud_bank_matches"] == 0
        and other["data"]["links"]["other_identities"] == 0
    )
    assert codes(other) == []


async def test_a_bad_report_photo_names_its_field(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    report = {
        "subject": {"last_name": "Doe", "face_image_base64": "not base64!"},
        "incident": {"category": "other", "date": "2026-10-10", "description": "Nothing to see."},
    }
    response = await client.post("/v3/fraud/reports", json=report, headers=account.headers)
    assert response.status_code == 400
    assert response.json()["details"][0]["field"] == "subject.face_image_base64"
