"""What a consent and the audit log cost a call, through the API in this process on SQLite:
sandbox name screenings (POST /v3/screening/individual) without and with a consent object (the
consent takes the call through the settlement writer, with its encrypted row), and reads of one
verification session (GET, an audit row each, batched), then the same reads with the audit
writer taken out of the runtime. Medians of per-call wall times.

    uv run --group dev python bench/consent_audit_overhead.py [--calls 400]"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from tests.support.consent import CONSENT  # noqa: E402

from hakiki.account import service as accounts  # noqa: E402
from hakiki.app import create_app  # noqa: E402
from hakiki.core.migrate import upgrade_async  # noqa: E402
from hakiki.core.privacy.audit import AuditWriter  # noqa: E402
from hakiki.core.settings import Settings  # noqa: E402

PERSON = {"first_name": "Wanjiru", "last_name": "Kamau", "countries": ["KE"]}


async def timed(calls: int, send) -> list[float]:  # type: ignore[no-untyped-def]
    spent = []
    for _ in range(calls):
        started = time.perf_counter()
        response = await send()
        spent.append((time.perf_counter() - started) * 1000)
        assert response.status_code < 300, response.text
    return spent


async def main(calls: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(data_dir=Path(folder), database_url=None, rate_limit="100000/second")
        await upgrade_async(settings)
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            db = app.state.runtime.db
            await accounts.create_org(db, "bench", approved=True, currency="KES")
            key = await accounts.create_key(db, "bench", "sandbox", None)
            headers = {"Authorization": f"Bearer {key.client_id}:{key.secret}"}
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://b") as http:
                url = "/v3/screening/individual"
                consented = {**PERSON, "consent": {**CONSENT, "purposes": ["aml_screening"]}}
                await timed(50, lambda: http.post(url, json=PERSON, headers=headers))  # warm
                plain = await timed(calls, lambda: http.post(url, json=PERSON, headers=headers))
                with_consent = await timed(
                    calls, lambda: http.post(url, json=consented, headers=headers)
                )
                session = await http.post(
                    "/v3/verification/sessions",
                    json={
                        "steps": ["id_number"],
                        "country_code": "KE",
                        "id_channel": "national_id",
                        "customer_reference": "b",
                        "consent": CONSENT,
                    },
                    headers=headers,
                )
                path = f"/v3/verification/sessions/{session.json()['id']}"
                reads = await timed(calls, lambda: http.get(path, headers=headers))
                started = time.perf_counter()
                writer = app.state.runtime.part(AuditWriter)
                await writer.flush()
                flush_ms = (time.perf_counter() - started) * 1000
                del app.state.runtime.parts[AuditWriter]  # the same reads, no audit row
                unaudited = await timed(calls, lambda: http.get(path, headers=headers))
                app.state.runtime.add_part(writer)
    for name, spent in (
        ("screening, no consent", plain),
        ("screening, with consent", with_consent),
        ("GET session (audited)", reads),
        ("GET session (no audit)", unaudited),
    ):
        print(
            f"{name:26} median {statistics.median(spent):6.2f} ms  p90 "
            f"{statistics.quantiles(spent, n=10)[-1]:6.2f} ms  ({len(spent)} calls)"
        )
    print(f"last audit flush: {flush_ms:.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=400)
    asyncio.run(main(parser.parse_args().calls))
