"""With the database unreachable the service answers 503 service_unavailable, not 500, and
/readyz says it is not ready."""

from __future__ import annotations

from pathlib import Path

import httpx

from hakiki.app import create_app
from hakiki.core.settings import Settings
from tests.conftest import TEST_SECRET_KEY


async def test_unreachable_database_is_503(tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path,
        database_url="postgresql+asyncpg://postgres@127.0.0.1:9/nowhere",
        secret_key=TEST_SECRET_KEY,
    )
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://hakiki.test") as client:
            response = await client.post(
                "/v3/screening/aml-with-id",
                json={"channel": "bvn", "number": "22212345670"},
                headers={"Authorization": f"Bearer hk_test_{'a' * 24}:hks_{'d' * 43}"},
            )
            alive = await client.get("/healthz")
            ready = await client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["error"] == "service_unavailable"
    assert response.headers["retry-after"] == "5"
    assert response.headers["x-request-id"].startswith("req_")
    # The process is alive but not ready: a load balancer takes it out of rotation.
    assert alive.status_code == 200 and alive.json() == {"status": "alive"}
    assert ready.status_code == 503
    assert ready.json()["error"] == "service_unavailable"
    assert [d["field"] for d in ready.json()["details"]] == ["database"]
