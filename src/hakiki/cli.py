"""The ``hakiki`` command line."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from dataclasses import asdict
from typing import Any

import click
from pydantic import ValidationError

from hakiki.account import service as accounts
from hakiki.console.cli import users_group
from hakiki.core.cli_support import run_with_db
from hakiki.core.database import Database
from hakiki.core.jobs.cli import jobs_group
from hakiki.core.migrate import pending, upgrade
from hakiki.core.settings import get_settings
from hakiki.core.wallet import service as wallet
from hakiki.media.cli import media_group


def _emit(as_json: bool, payload: dict[str, Any], text: str) -> None:
    click.echo(json.dumps(payload, default=str) if as_json else text)


@click.group()
@click.version_option(package_name="hakiki")
def main() -> None:
    """Hakiki: identity verification, fraud signals and AML screening API."""
    try:
        get_settings()
    except ValidationError as error:  # refuse to start on a bad setting, in one clear message
        problems = "; ".join(_setting_problem(e) for e in error.errors())
        raise click.ClickException(f"invalid settings: {problems}") from None


def _setting_problem(error: Any) -> str:
    name = ".".join(str(part) for part in error["loc"]).upper()
    message = str(error["msg"]).removeprefix("Value error, ")
    return f"HAKIKI_{name}: {message}" if name else message


@main.command()
def migrate() -> None:
    """Create or upgrade the database schema."""
    upgrade(get_settings())
    click.echo("database is up to date")


@main.command()
@click.option("--host", default=None, help="Address to bind (default HAKIKI_HOST, 127.0.0.1).")
@click.option("--port", default=None, type=int, help="Port (default HAKIKI_PORT, 8000).")
@click.option(
    "--workers",
    default=None,
    type=click.IntRange(min=1),
    help="Server processes (default HAKIKI_WORKERS, 1); one per core uses the whole machine.",
)
def serve(host: str | None, port: int | None, workers: int | None) -> None:
    """Start the HTTP API. On the embedded SQLite default, migrate first; on an empty
    database, create a demo organisation with a sandbox key and print a curl to try."""
    import uvicorn

    settings = get_settings()
    if settings.is_sqlite:
        upgrade(settings)
    elif pending(settings):
        raise click.ClickException(
            "the database schema is not up to date: run `hakiki migrate` first "
            "(with PostgreSQL, migrations are an explicit deployment step)"
        )
    host = host or settings.host
    port = port or settings.port
    demo = run_with_db(_ensure_demo)
    if demo is not None:
        click.echo(_demo_banner(demo, host, port))
    workers = workers or settings.workers
    uvicorn.run(
        "hakiki.app:create_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        loop=settings.serving_loop(workers),
        log_level="info",
    )


async def _ensure_demo(db: Database) -> accounts.IssuedKey | None:
    if await accounts.has_any_org(db):
        return None
    await accounts.create_org(db, "demo", currency=get_settings().default_currency)
    return await accounts.create_key(db, "demo", "sandbox")


def _demo_banner(key: accounts.IssuedKey, host: str, port: int) -> str:
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    return f"""
Created organisation "demo" with a sandbox key (the secret is shown only now):
  client_id: {key.client_id}
  secret:    {key.secret}

Try the combined AML-with-ID screening (sandbox: mock data, never charged):
  curl -s http://{shown_host}:{port}/v3/screening/aml-with-id \\
    -H 'Authorization: Bearer {key.client_id}:{key.secret}' \\
    -H 'Content-Type: application/json' \\
    -d '{{"channel": "bvn", "number": "22222222210"}}'

API docs: http://{shown_host}:{port}/docs
"""


@main.group()
def orgs() -> None:
    """Organisations."""


@orgs.command("create")
@click.argument("name")
@click.option("--approved", is_flag=True, help="Approve for live keys at once.")
@click.option("--currency", default=None, help="Wallet currency (default HAKIKI_DEFAULT_CURRENCY).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def orgs_create(name: str, approved: bool, currency: str | None, as_json: bool) -> None:
    """Create an organisation (with an empty wallet)."""
    chosen = currency or get_settings().default_currency
    org = run_with_db(lambda e: accounts.create_org(e, name, approved=approved, currency=chosen))
    _emit(as_json, asdict(org), f"created organisation {org.name} ({org.id})")


@orgs.command("approve")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def orgs_approve(name: str, as_json: bool) -> None:
    """Approve an organisation for live mode."""
    org = run_with_db(lambda e: accounts.approve_org(e, name))
    _emit(as_json, asdict(org), f"approved {org.name}: its live keys now work")


@main.group()
def keys() -> None:
    """API keypairs."""


@keys.command("create")
@click.option("--org", "org_name", required=True, help="Organisation name.")
@click.option("--env", "environment", type=click.Choice(["sandbox", "live"]), required=True)
@click.option("--scope", "scopes", multiple=True, help="A scope; repeat for several.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def keys_create(org_name: str, environment: str, scopes: tuple[str, ...], as_json: bool) -> None:
    """Issue a keypair. The secret is printed once and never stored."""
    key = run_with_db(lambda e: accounts.create_key(e, org_name, environment, list(scopes) or None))
    _emit(
        as_json,
        asdict(key),
        f"client_id: {key.client_id}\nsecret:    {key.secret}\nscopes:    {' '.join(key.scopes)}",
    )


@keys.command("revoke")
@click.argument("client_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def keys_revoke(client_id: str, as_json: bool) -> None:
    """Revoke a keypair (effective within HAKIKI_KEY_CACHE_SECONDS on running servers)."""
    run_with_db(lambda e: accounts.revoke_key(e, client_id))
    _emit(as_json, {"client_id": client_id, "revoked": True}, f"revoked {client_id}")


@main.group("wallet")
def wallet_group() -> None:
    """Prepaid wallets."""


@wallet_group.command("credit")
@click.option("--org", "org_name", required=True, help="Organisation name.")
@click.option("--amount", required=True, type=click.IntRange(min=1), help="Minor units.")
@click.option("--description", default="Top-up", help="Ledger description.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def wallet_credit(org_name: str, amount: int, description: str, as_json: bool) -> None:
    """Credit an organisation's wallet."""

    async def work(db: Database) -> wallet.Charge:
        org = await accounts.get_org(db, org_name)
        return await wallet.credit(db, org.id, amount, description)

    charge = run_with_db(work)
    _emit(
        as_json,
        asdict(charge),
        f"credited {amount} {charge.currency} minor units; balance {charge.balance_after}",
    )


@main.group("lists")
def lists_group() -> None:
    """Official sanctions lists: update and status."""


@lists_group.command("update")
@click.option("--list", "codes", multiple=True, help="A list code; repeat for several.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON lines.")
def lists_update(codes: tuple[str, ...], as_json: bool) -> None:
    """Download, validate and store new versions of the lists (HAKIKI_LISTS_SOURCES).

    A list that fails to download or validate keeps its last good version. Exits 1 when any
    list failed. A running server picks the new versions up when it reloads (or restarts)."""
    from hakiki.lists.service import update_lists

    settings = get_settings()
    if settings.is_sqlite:
        upgrade(settings)
    elif pending(settings):
        raise click.ClickException(
            "the database schema is not up to date: run `hakiki migrate` first "
            "(with PostgreSQL, migrations are an explicit deployment step)"
        )
    try:
        outcomes = run_with_db(lambda db: update_lists(settings, db, codes=list(codes) or None))
    except ValueError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    for outcome in outcomes:
        if as_json:
            click.echo(json.dumps(outcome.to_dict(), default=str))
        elif outcome.status == "ok":
            note = "new version" if outcome.changed else "unchanged"
            click.echo(
                f"{outcome.code}: ok, version {outcome.version}, "
                f"{outcome.entity_count} entities ({note})"
            )
        else:
            kept = outcome.previous_version or "the bundled snapshot"
            click.echo(f"{outcome.code}: FAILED, keeping {kept}: {outcome.error}")
    if any(outcome.status != "ok" for outcome in outcomes):
        sys.exit(1)


@lists_group.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def lists_status(as_json: bool) -> None:
    """The version of each list that screening uses, and the last update attempts."""
    from hakiki.lists.service import list_status

    settings = get_settings()
    if settings.is_sqlite:
        upgrade(settings)
    elif pending(settings):
        raise click.ClickException(
            "the database schema is not up to date: run `hakiki migrate` first "
            "(with PostgreSQL, migrations are an explicit deployment step)"
        )
    rows = run_with_db(lambda db: list_status(settings, db))
    if as_json:
        click.echo(json.dumps({"data": rows}, default=str))
        return
    for row in rows:
        if row["in_use"]:
            used = f"{row['version']} ({row['source']}, {row['entity_count']} entities"
            used += f", {row['age_days']} days old)" if row["age_days"] is not None else ")"
            if row["stale"]:
                used += f" STALE: over {settings.list_max_age_days} days, run `hakiki lists update`"
        else:
            used = "not in use"
        line = f"{row['code']}: {used}"
        attempt = row["last_attempt"]
        if attempt:
            line += f"; last update {attempt['at']:%Y-%m-%d %H:%M} {attempt['status']}"
        if row["last_error"]:
            line += f"; last error: {row['last_error']}"
        click.echo(line)


@main.command()
@click.argument("name", required=False)
@click.option("--birth-date", default=None, help="ISO date or year, e.g. 1969 or 1969-05-01.")
@click.option("--country", "countries", multiple=True, help="Country code or name; repeatable.")
@click.option("--identifier", "identifiers", multiple=True, help="Document number; repeatable.")
@click.option(
    "--schema",
    type=click.Choice(["Person", "Organization", "Vessel", "Aircraft"]),
    default="Person",
    show_default=True,
)
@click.option("--threshold", type=click.FloatRange(0.0, 1.0), default=None)
@click.option("--checks", default="sanction", show_default=True, help="Comma-separated.")
@click.option("--limit", type=click.IntRange(min=1), default=10, show_default=True)
@click.option("--compare", is_flag=True, help='Score JSON-line pairs {"a": {...}, "b": {...}}.')
def screen(
    name: str | None,
    birth_date: str | None,
    countries: tuple[str, ...],
    identifiers: tuple[str, ...],
    schema: str,
    threshold: float | None,
    checks: str,
    limit: int,
    compare: bool,
) -> None:
    """Screen NAME, or JSON lines from stdin ({"name", "schema", "birth_date", "country",
    "identifiers"}), against the lists the API uses; print JSON lines of results."""
    from hakiki.lists.screen import compare_pair, process_lines, screen_record

    settings = get_settings()
    cutoff = settings.aml_threshold if threshold is None else threshold
    if compare:
        for out in process_lines(sys.stdin, lambda pair: compare_pair(pair, threshold=cutoff)):
            click.echo(json.dumps(out, ensure_ascii=False))
        return

    from hakiki.lists.service import load_current_engine

    wanted = [c.strip() for c in checks.split(",") if c.strip()]
    engine = load_current_engine(settings)

    def handle(record: Any) -> dict[str, Any]:
        return screen_record(engine, record, checks=wanted, threshold=cutoff, limit=limit)

    if name is not None:
        record: dict[str, Any] = {"name": name, "schema": schema}
        if birth_date:
            record["birth_date"] = birth_date
        if countries:
            record["country"] = list(countries)
        if identifiers:
            record["identifiers"] = list(identifiers)
        outputs = process_lines([json.dumps(record)], handle)
    else:
        outputs = process_lines(sys.stdin, handle)
    for out in outputs:
        click.echo(json.dumps(out, ensure_ascii=False))


@click.command("worker")
def worker() -> None:
    """Run jobs (pending verifications, webhook deliveries, ...) until stopped (SIGTERM or
    Ctrl-C). Any number of workers may share one database; set HAKIKI_JOBS_IN_SERVER=false to
    keep the servers out of it (with HAKIKI_JOBS_BACKEND=procrastinate only workers run jobs)."""
    asyncio.run(_work_until_stopped())


async def _work_until_stopped() -> None:
    from hakiki.runtime import work

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await work(get_settings(), stop, lambda: click.echo("worker started", err=True))
    click.echo("worker stopped", err=True)


main.add_command(media_group)
main.add_command(users_group)
main.add_command(jobs_group)
main.add_command(worker)
