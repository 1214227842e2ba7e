"""``hakiki media``: ingest news feeds for adverse-media screening."""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import asdict
from pathlib import Path

import click
import httpx

from hakiki.core.database import create_database
from hakiki.core.settings import get_settings
from hakiki.engines.adverse_media import FeedFormatError
from hakiki.media import repository
from hakiki.media.service import IngestReport, ingest

MAX_FEED_BYTES = 20 * 1024 * 1024


def _read(location: str) -> bytes:
    if location.startswith(("http://", "https://")):
        with httpx.Client(timeout=30, follow_redirects=True) as client:
            response = client.get(location)
            response.raise_for_status()
            if len(response.content) > MAX_FEED_BYTES:
                raise click.ClickException(f"{location}: feed larger than 20 MB")
            return response.content
    return Path(location).read_bytes()


@click.group("media")
def media_group() -> None:
    """News feeds searched for adverse media (live keys)."""


@media_group.command("ingest")
@click.argument("locations", nargs=-1, required=True)
@click.option("--source", required=True, help="Name of the publication, shown on hits.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON lines.")
def ingest_command(locations: tuple[str, ...], source: str, as_json: bool) -> None:
    """Ingest RSS or Atom feeds from files or URLs; articles seen before are skipped.
    Running servers pick new articles up within a minute."""

    async def run() -> list[IngestReport]:
        db = create_database(get_settings())
        reports = []
        try:
            for location in locations:
                try:
                    data = await asyncio.to_thread(_read, location)
                    reports.append(await ingest(db, data, source=source))
                except (OSError, httpx.HTTPError, FeedFormatError) as exc:
                    click.echo(f"error: {location}: {exc}", err=True)
                    sys.exit(1)
        finally:
            await db.dispose()
        return reports

    for report in asyncio.run(run()):
        if as_json:
            click.echo(json.dumps(asdict(report)))
        else:
            click.echo(
                f"{report.source}: {report.articles} articles, {report.new} new, "
                f"{len(report.warnings)} warnings"
            )
            for warning in report.warnings:
                click.echo(f"  warning: {warning}")


@media_group.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def status_command(as_json: bool) -> None:
    """How many articles are stored, from how many sources, and when the last arrived."""

    async def run() -> dict[str, object]:
        db = create_database(get_settings())
        try:
            async with db.reader.connect() as conn:
                return await repository.summary(conn)
        finally:
            await db.dispose()

    summary = asyncio.run(run())
    if as_json:
        click.echo(json.dumps(summary, default=str))
    else:
        click.echo(
            f"{summary['articles']} articles from {summary['sources']} sources; "
            f"last ingested {summary['last_ingested_at'] or 'never'}"
        )
