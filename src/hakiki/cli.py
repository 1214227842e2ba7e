"""The ``hakiki`` command line."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from typing import Any, TypeVar

import click

from hakiki.account import service as accounts
from hakiki.core.database import Database, create_database
from hakiki.core.errors import ApiError
from hakiki.core.migrate import upgrade
from hakiki.core.settings import get_settings
from hakiki.core.wallet import service as wallet

T = TypeVar("T")


def _run(work: Callable[[Database], Awaitable[T]]) -> T:
    """Run ``work(db)`` on a fresh connection pool; print API errors as one line and exit 1."""

    async def main() -> T:
        db = create_database(get_settings())
        try:
            return await work(db)
        finally:
            await db.dispose()

    try:
        return asyncio.run(main())
    except ApiError as exc:
        click.echo(f"error: {exc.message}", err=True)
        sys.exit(1)


def _emit(as_json: bool, payload: dict[str, Any], text: str) -> None:
    click.echo(json.dumps(payload, default=str) if as_json else text)


@click.group()
@click.version_option(package_name="hakiki")
def main() -> None:
    """Hakiki: identity verification, fraud signals and AML screening API."""


@main.command()
def migrate() -> None:
    """Create or upgrade the database schema."""
    upgrade(get_settings())
    click.echo("database is up to date")


@main.command()
@click.option("--host", default=None, help="Address to bind (default HAKIKI_HOST, 127.0.0.1).")
@click.option("--port", default=None, type=int, help="Port (default HAKIKI_PORT, 8000).")
def serve(host: str | None, port: int | None) -> None:
    """Start the HTTP API. On the embedded SQLite default, migrate first; on an empty
    database, create a demo organisation with a sandbox key and print a curl to try."""
    import uvicorn

    settings = get_settings()
    if settings.is_sqlite:
        upgrade(settings)
    host = host or settings.host
    port = port or settings.port
    demo = _run(_ensure_demo)
    if demo is not None:
        click.echo(_demo_banner(demo, host, port))
    uvicorn.run("hakiki.app:create_app", factory=True, host=host, port=port, log_level="info")


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
    org = _run(lambda e: accounts.create_org(e, name, approved=approved, currency=chosen))
    _emit(as_json, asdict(org), f"created organisation {org.name} ({org.id})")


@orgs.command("approve")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def orgs_approve(name: str, as_json: bool) -> None:
    """Approve an organisation for live mode."""
    org = _run(lambda e: accounts.approve_org(e, name))
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
    key = _run(lambda e: accounts.create_key(e, org_name, environment, list(scopes) or None))
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
    _run(lambda e: accounts.revoke_key(e, client_id))
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

    charge = _run(work)
    _emit(
        as_json,
        asdict(charge),
        f"credited {amount} {charge.currency} minor units; balance {charge.balance_after}",
    )
