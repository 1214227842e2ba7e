"""POST /v3/documents/verify over HTTP on both databases, with the ICAO specimens, cards rendered
here (rotated, blurred, with a real portrait and barcodes) and real selfies."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import zxingcpp
from fastapi import FastAPI

from hakiki.core.database import Database
from tests.conftest import SQLITE_ONLY, AccountFactory, debit_count
from tests.core.request_log.test_request_log import log_row
from tests.documents.specimens import TD1_KENYA, render_card
from tests.engines.documents.test_unsure import td3

URL = "/v3/documents/verify"
DATA = Path(__file__).resolve().parents[1] / "data" / "documents"
FACES = Path(__file__).resolve().parents[1] / "engines" / "face" / "data"
PRICE = 1500


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def specimen(name: str) -> bytes:
    return (DATA / name).read_bytes()


def checks(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in result["data"]["checks"]}


async def verify(client: httpx.AsyncClient, headers: dict[str, str], **body: Any) -> httpx.Response:
    return await client.post(URL, json=body, headers=headers)


@SQLITE_ONLY
async def test_td3_specimen_reads_and_is_rejected_as_expired_and_edited(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("live", balance=10_000)
    response = await verify(
        client, account.headers, document_type="passport",
        front_image=b64(specimen("pe-passport-td3.jpg")),
    )  # fmt: skip
    assert response.status_code == 200, response.text
    result = response.json()
    document = result["data"]["document"]
    assert (document["surname"], document["given_names"], document["document_number"]) == (
        "ERIKSSON", "ANNA MARIA", "L898902C3",
    )  # fmt: skip
    assert document["layout"] == "TD3" and document["birth_date"] == "1974-08-12"
    assert document["expiry_date"] == "2012-04-15" and document["sex"] == "F"
    found = checks(result)
    assert found["mrz"]["status"] == "passed"
    assert found["expiry"]["status"] == "failed"
    assert found["front_image.editing_software"]["signals"]["software"] == "Paint.NET v3.5.10"
    assert found["front_image.copy_move"]["status"] == "passed"
    assert result["data"]["verdict"] == "rejected" and result["data"]["retryable"] is False
    assert "the document expired on 2012-04-15" in result["data"]["reasons"]
    assert result["billing"]["charged"] is True and result["billing"]["amount"] == PRICE


@SQLITE_ONLY
async def test_td2_specimen_and_country_mismatch(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("live", balance=10_000)
    response = await verify(
        client, account.headers, document_type="national_id", country_code="KE",
        front_image=b64(specimen("pe-passport-td2.jpg")),
    )  # fmt: skip
    result = response.json()
    assert result["data"]["document"]["layout"] == "TD2"
    assert result["data"]["document"]["document_number"] == "D23145890"
    assert checks(result)["country"]["status"] == "attention"


@SQLITE_ONLY
async def test_td1_card_rotated_and_blurred_with_barcode_is_clear(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("live", balance=10_000)
    back = _card_with_barcode("ANCI 123456789 KAMAU WANJIRU")
    response = await verify(
        client, account.headers, document_type="national_id", country_code="KE",
        front_image=b64(render_card(TD1_KENYA, angle=-7, blur=1.2, visual=True,
                                       portrait=_face("obama.jpg"))),
        back_image=b64(back),
    )  # fmt: skip
    assert response.status_code == 200, response.text
    result = response.json()
    assert result["data"]["document"]["document_number"] == "123456789"
    assert result["data"]["document"]["surname"] == "WANJIRU"
    assert result["data"]["document"]["barcodes"] == ["PDF417"]
    found = checks(result)
    assert found["barcode"]["status"] == "passed"
    assert found["barcode"]["signals"]["names_document_number"] is True
    assert found["number_format"]["status"] == "passed"
    assert found["visual_zone"]["status"] == "passed"
    assert result["data"]["verdict"] == "clear", result["data"]["reasons"]


@SQLITE_ONLY
async def test_a_visa_is_verified_as_a_visa_and_is_no_passport(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    # A real Schengen visa (MRV-B, MIT: tests/data/documents/real/SOURCES.md), expired in 2005.
    account = await make_account("live", balance=10_000)
    image = b64((DATA / "real" / "pe-100_visa-polx.jpg").read_bytes())
    visa, passport = [
        (await verify(client, account.headers, document_type=kind, front_image=image)).json()
        for kind in ("visa", "passport")
    ]
    document = visa["data"]["document"]
    assert (document["layout"], document["document_code"], document["document_number"]) == (
        "MRV-B", "VC", "PL0000000",
    )  # fmt: skip
    assert (document["surname"], document["given_names"]) == ("KOWALSKA KWIATKOWSKA", "BEATA")
    assert document["expiry_date"] == "2005-05-01"
    found = checks(visa)
    assert found["mrz"]["status"] == "passed" and "MRV-B" in found["mrz"]["reason"]
    assert found["mrz"]["signals"]["located"] == "whole"
    assert found["document_type"]["status"] == "passed"
    assert found["expiry"]["status"] == "failed"
    assert "the document expired on 2005-05-01" in visa["data"]["reasons"]
    assert checks(passport)["document_type"]["status"] == "failed"
    assert "the zone's document code 'VC' is not a passport's" in passport["data"]["reasons"]


@SQLITE_ONLY
async def test_a_printed_birth_date_other_than_the_zones_asks_for_a_look(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("live", balance=10_000)
    doctored = render_card(TD1_KENYA, visual=True, printed={"birth_date": "01 JAN 1985"})
    response = await verify(
        client, account.headers, document_type="national_id", country_code="KE",
        front_image=b64(doctored),
    )  # fmt: skip
    assert response.status_code == 200, response.text
    result = response.json()
    visual = checks(result)["visual_zone"]
    assert (visual["status"], visual["category"]) == ("attention", "consistency")
    assert visual["signals"]["birth_date"] == "mismatch"
    assert visual["signals"]["document_number"] == visual["signals"]["surname"] == "match"
    assert visual["reason"] in result["data"]["reasons"] and "birth_date" in visual["reason"]
    assert result["data"]["verdict"] == "attention" and result["data"]["retryable"] is False
    assert result["data"]["document"]["birth_date"] == "1990-01-01"  # the zone's, checked and sound


@SQLITE_ONLY
async def test_a_passport_full_of_zeros_is_read_or_unsure_never_wrong_nor_rejected(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    # Zeros in the number (two O/0 swaps at weights 7 and 3 pass the same check digit) and in
    # the personal number: straight, and blurred (the glyph matcher alone is unsure there, the
    # recogniser settles it), every field settles; blurred more, the zone is unsure.
    lines = td3("AK0000000", "900101", "301231", "0000000000")
    account = await make_account("live", balance=10_000)
    straight, blurred, worse = [
        (await verify(client, account.headers, document_type="passport", country_code="KE",
                      front_image=b64(render_card(lines, visual=True, **photo)))).json()  # type: ignore[arg-type]
        for photo in ({}, {"angle": -8, "blur": 1.5, "quality": 60},
                      {"angle": -8, "blur": 2.2, "quality": 40})
    ]  # fmt: skip
    for read in (straight, blurred):
        assert checks(read)["mrz"]["status"] == "passed"
        assert read["data"]["document"]["document_number"] == "AK0000000"
        assert read["data"]["document"]["optional_data"] == "0000000000"
        assert read["data"]["document"]["unsure"] == []
        assert read["data"]["verdict"] == "clear", read["data"]["reasons"]
    mrz = checks(worse)["mrz"]
    assert mrz["status"] == "attention" and "unsure" in mrz["reason"]
    assert worse["data"]["verdict"] == "attention" and worse["data"]["retryable"]
    unsure = {u["field"]: u["candidates"] for u in worse["data"]["document"]["unsure"]}
    assert len(unsure["document_number"]) > 1
    assert worse["data"]["document"]["document_number"] == unsure["document_number"][0]


@SQLITE_ONLY
async def test_selfie_match_mismatch_and_no_face(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("live", balance=10_000)
    card = b64(render_card(TD1_KENYA, portrait=_face("obama.jpg")))
    same = await verify(
        client, account.headers, document_type="national_id", front_image=card,
        selfie_image=b64(_face("obama2.jpg")),
    )  # fmt: skip
    assert same.status_code == 200, same.text
    assert (
        same.json()["data"]["face"]["match"] is True
        and same.json()["data"]["face"]["distance"] < 0.6
    )
    assert checks(same.json())["face_bank"]["category"] == "face"  # the bank: the next test
    other = await verify(
        client, account.headers, document_type="national_id", front_image=card,
        selfie_image=b64(_face("biden.jpg")),
    )  # fmt: skip
    assert other.json()["data"]["face"]["match"] is False
    assert checks(other.json())["face_match"]["status"] == "failed"
    assert other.json()["data"]["verdict"] == "rejected"
    no_face = await verify(
        client, account.headers, document_type="national_id", front_image=card,
        selfie_image=b64(render_card(TD1_KENYA)),
    )  # fmt: skip
    assert no_face.status_code == 400
    assert no_face.json()["details"][0]["field"] == "selfie_image"


async def test_too_poor_to_judge_is_retryable(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("live", balance=10_000)
    response = await verify(
        client, account.headers, document_type="passport",
        front_image=b64(render_card(TD1_KENYA, blur=5)),
    )  # fmt: skip
    result = response.json()
    assert result["data"]["retryable"] is True and result["data"]["verdict"] == "attention"
    assert any("blurred" in reason for reason in result["data"]["retry_reasons"])


async def test_bad_images_are_400s_and_never_charged(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("live", balance=10_000)
    big = np.random.default_rng(1).integers(0, 255, (700, 700, 3), dtype=np.uint8)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"front_image": "A" * 1_500_000}, "front_image"),
        ({"front_image": b64(_png(big))}, "front_image"),
        ({"front_image": "not base64!"}, "front_image"),
        ({"front_image": b64(b"%PDF-1.7 not an image")}, "front_image"),
        ({"front_image": b64(specimen("pe-passport-td3.jpg")[:5000])}, "front_image"),
        ({"front_image": b64(_bomb())}, "front_image"),
        (
            {"front_image": b64(specimen("pe-passport-td3.jpg")), "back_image": "x\x00y"},
            "back_image",
        ),
        (
            {"front_image": b64(specimen("pe-passport-td3.jpg")), "document_type": "voter_card"},
            "document_type",
        ),
        (
            {"front_image": b64(specimen("pe-passport-td3.jpg")), "country_code": "ZZ"},
            "country_code",
        ),
        ({"front_image": b64(specimen("pe-passport-td3.jpg")), "extra": 1}, "extra"),
        ({"front_image": 12}, "front_image"),
    ]
    for body, field in cases:
        response = await verify(client, account.headers, **{"document_type": "passport", **body})
        assert response.status_code == 400, (field, response.text[:300])
        assert response.json()["error"] == "invalid_request"
        assert response.json()["details"][0]["field"].endswith(field), response.text[:300]
    surrogate = await client.post(
        URL,
        content=b'{"document_type": "passport", "front_image": "\\ud800abcd"}',
        headers={**account.headers, "Content-Type": "application/json"},
    )
    assert surrogate.status_code == 400, surrogate.text
    assert await debit_count(db, account.org_id) == 0


async def test_a_retry_with_the_same_key_is_charged_once(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("live", balance=10_000)
    headers = {**account.headers, "Idempotency-Key": "doc-retry-1"}
    body = {"document_type": "passport", "front_image": b64(specimen("pe-passport-td3.jpg"))}
    first = await client.post(URL, json=body, headers=headers)
    again = await client.post(URL, json=body, headers=headers)
    assert first.status_code == again.status_code == 200
    assert first.json()["billing"] == again.json()["billing"]
    assert await debit_count(db, account.org_id) == 1


async def test_another_scope_is_refused(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("live", balance=10_000, scopes=["tax:read"])
    response = await verify(client, account.headers, document_type="passport", front_image="x")
    assert response.status_code == 403


def _face(name: str) -> bytes:
    return (FACES / name).read_bytes()


def _png(pixels: np.ndarray) -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.fromarray(pixels).save(out, "PNG")
    return out.getvalue()


def _bomb() -> bytes:
    from hakiki.documents.sandbox import bomb_png

    return base64.b64decode(bomb_png())


def _card_with_barcode(text: str) -> bytes:
    import io

    from PIL import Image

    code = np.asarray(
        zxingcpp.create_barcode(text, zxingcpp.BarcodeFormat.PDF417).to_image(scale=3)
    )
    card = Image.new("RGB", (1000, 640), (236, 238, 230))
    card.paste(Image.fromarray(code).convert("RGB"), (80, 300))
    out = io.BytesIO()
    card.save(out, "JPEG", quality=92)
    return out.getvalue()


async def test_images_are_never_logged(
    app: FastAPI, client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("live", balance=10_000)
    image = b64(specimen("pe-passport-td2.jpg"))
    response = await verify(
        client, account.headers, document_type="national_id", country_code="KE",
        front_image=image,
    )  # fmt: skip
    row = await log_row(app, response.json()["request_id"])
    assert row["request_body"] == {
        "document_type": "national_id",
        "country_code": "KE",
        "front_image": f"<str:{len(image)}>",
    }
    assert image[:200] not in str(row)


async def test_a_body_over_the_limit_is_413(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("live", balance=10_000)
    huge = "A" * (9 * 1024 * 1024)
    response = await verify(client, account.headers, document_type="passport", front_image=huge)
    assert response.status_code == 413
