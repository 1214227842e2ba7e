"""A live name screening's latency while another organisation sends big document images.

    uv run --group dev python bench/image_pool_isolation.py [--tree PATH] [--rounds 5]

One `hakiki serve` (uvicorn, one worker, pinned to core 0 as in bench/http_bench.py) on SQLite.
Organisation A (sandbox key) sends 8 document checks at once, each a WebP of ``--megapixels``
(default 39: issue 30's 7,200 x 5,400 image, about 70 KB; 16 is the largest a document image
may have since issue 30); organisation B (live key) screens a name over the full lists while
they run. Printed: B's screening alone, and under A's load (median and worst of ``--rounds``
rounds), and A's answers. ``--tree`` runs the server from another checkout's ``src`` (e.g. an
export of main) to compare before and after; the databases and keys are made by this tree.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from bench.http_bench import SECRET, free_port, fresh_database, prepare, server  # noqa: E402
from hakiki.core.settings import Settings  # noqa: E402

SCREEN = {"name": "Abubakar Shekau", "birth_date": "1969"}


def webp(megapixels: float) -> str:
    width = int((megapixels * 1_000_000 * 4 / 3) ** 0.5)
    height = int(megapixels * 1_000_000 / width)
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 190, 180)).save(out, "WEBP", quality=50)
    return base64.b64encode(out.getvalue()).decode()


async def screen(client: httpx.AsyncClient, live: dict[str, str]) -> float:
    started = time.perf_counter()
    response = await client.post("/v3/screening/individual", json=SCREEN, headers=live)
    took = time.perf_counter() - started
    if response.status_code != 200:
        raise RuntimeError(f"the screening failed: {response.text[:300]}")
    return took


async def run(
    url: str, sandbox: dict[str, str], live: dict[str, str], image: str, rounds: int
) -> None:
    body = {"document_type": "passport", "front_image": image}
    async with httpx.AsyncClient(base_url=url, timeout=300) as client:
        for _ in range(3):
            await screen(client, live)  # warm: the live engine is loaded at start-up
        alone = [await screen(client, live) for _ in range(20)]
        loaded: list[float] = []
        statuses: list[int] = []
        documents: list[float] = []
        for _ in range(rounds):

            async def document() -> None:
                started = time.perf_counter()
                response = await client.post("/v3/documents/verify", json=body, headers=sandbox)
                documents.append(time.perf_counter() - started)
                statuses.append(response.status_code)

            checks = [asyncio.create_task(document()) for _ in range(8)]
            await asyncio.sleep(0.3)  # the checks are in the server, decoding
            loaded.append(await screen(client, live))
            await asyncio.gather(*checks)
    print(f"screening alone: median {statistics.median(alone) * 1000:.1f} ms")
    print(
        f"screening under 8 document checks: median {statistics.median(loaded) * 1000:.1f} ms, "
        f"worst {max(loaded) * 1000:.1f} ms ({rounds} rounds)"
    )
    print(
        f"document checks: statuses {sorted(set(statuses))}, "
        f"median {statistics.median(documents):.2f} s, worst {max(documents):.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="checkout whose src/ serves")
    parser.add_argument("--megapixels", type=float, default=38.88)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    image = webp(options.megapixels)
    print(f"server from {options.tree}; image {len(base64.b64decode(image)):,} bytes WebP")
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp) / "sqlite", secret_key=SECRET)
        fresh_database(settings)
        sandbox, _ = asyncio.run(prepare(settings))
        _, live = asyncio.run(prepare(settings))  # another organisation
        env = {
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(options.tree / "src"),
            "HAKIKI_DATA_DIR": str(settings.data_dir),
            "HAKIKI_SECRET_KEY": SECRET,
            "HAKIKI_RATE_LIMIT": "1000000/second",
        }
        args = ["--factory", "hakiki.app:create_app"]
        with server(args, env, free_port(), "/docs") as url:
            asyncio.run(run(url, sandbox, live, image, options.rounds))


if __name__ == "__main__":
    main()
