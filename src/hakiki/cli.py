"""The ``hakiki`` command line.

Importing it costs little more than click: each command imports what it needs when it runs, and
the command groups that live in other packages are imported only when named (:class:`LazyGroup`),
so `hakiki --version` and `hakiki --help` answer at once."""

from __future__ import annotations

import importlib
import json
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from hakiki.account.service import IssuedKey
    from hakiki.core.database import Database
    from hakiki.core.wallet.service import Charge


@dataclass(frozen=True)
class LazyCommand:
    """A command imported when it is named: ``module:attribute``, and its short help for
    ``--help`` (tests/test_startup.py checks it is the command's own)."""

    target: str
    short_help: str


class LazyGroup(click.Group):
    """click's "Lazily Loading Subcommands" pattern: ``get_command`` imports a subcommand of
    ``lazy_subcommands`` at its first use; ``--help`` lists them from their short help, without
    importing them."""

    def __init__(
        self,
        *args: Any,
        lazy_subcommands: Mapping[str, LazyCommand] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_subcommands = dict(lazy_subcommands or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_subcommands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_subcommands and cmd_name not in self.commands:
            self.add_command(self._import(cmd_name), cmd_name)
        return super().get_command(ctx, cmd_name)

    def _import(self, cmd_name: str) -> click.Command:
        module_name, attribute = self.lazy_subcommands[cmd_name].target.split(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{module_name}:{attribute} is not a click command")
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            command = self.commands.get(name) or click.Command(
                name, help=self.lazy_subcommands[name].short_help
            )
            if not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


LAZY_SUBCOMMANDS = {
    "credit": LazyCommand(
        "hakiki.credit.cli:credit_group", "Your own credit scorecards: train on your loan book."
    ),
    "jobs": LazyCommand("hakiki.core.jobs.cli:jobs_group", "Inspect and retry durable jobs."),
    "media": LazyCommand(
        "hakiki.media.cli:media_group", "News feeds searched for adverse media (live keys)."
    ),
    "users": LazyCommand("hakiki.console.cli:users_group", "Console users."),
}


def _emit(as_json: bool, payload: dict[str, Any], text: str) -> None:
    click.echo(json.dumps(payload, default=str) if as_json else text)


@click.group(cls=LazyGroup, lazy_subcommands=LAZY_SUBCOMMANDS)
@click.version_option(package_name="hakiki")
def main() -> None:
    """Hakiki: identity verification, fraud signals and AML screening API."""
    from pydantic import ValidationError

    from hakiki.core.settings import get_settings

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
    from hakiki.core.migrate import upgrade
    from hakiki.core.settings import get_settings

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
    database, create a demo organisation with a sandbox key. Once the server answers, print
    where it listens (and, on that first start, the key with a curl to try)."""
    import uvicorn

    from hakiki.core.cli_support import run_with_db
    from hakiki.core.settings import get_settings

    settings = get_settings()
    _schema_up_to_date(settings)
    host = host or settings.host
    port = port or settings.port
    demo = run_with_db(_ensure_demo)
    base_url = _base_url(host, port)
    banner = _demo_banner(demo, base_url) if demo is not None else _ready_line(base_url)
    _announce_when_answering(base_url, banner)
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


def _schema_up_to_date(settings: Any) -> None:
    """On SQLite, migrate; on PostgreSQL, refuse a schema that is behind."""
    from hakiki.core.migrate import pending, upgrade_unless_current

    if settings.is_sqlite:
        upgrade_unless_current(settings)
    elif pending(settings):
        raise click.ClickException(
            "the database schema is not up to date: run `hakiki migrate` first "
            "(with PostgreSQL, migrations are an explicit deployment step)"
        )


async def _ensure_demo(db: Database) -> IssuedKey | None:
    from hakiki.account import service as accounts
    from hakiki.core.settings import get_settings

    if await accounts.has_any_org(db):
        return None
    await accounts.create_org(db, "demo", currency=get_settings().default_currency)
    return await accounts.create_key(db, "demo", "sandbox")


def _base_url(host: str, port: int) -> str:
    """Where a client on this machine reaches the server."""
    shown = {"0.0.0.0": "127.0.0.1", "::": "127.0.0.1", "": "127.0.0.1"}.get(host, host)
    return f"http://[{shown}]:{port}" if ":" in shown else f"http://{shown}:{port}"


def _ready_line(base_url: str) -> str:
    return (
        f"Hakiki is answering on {base_url}: the console at {base_url}/console/, "
        f"the API docs at {base_url}/docs"
    )


def _demo_banner(key: IssuedKey, base_url: str) -> str:
    return f"""
Created organisation "demo" with a sandbox key (the secret is shown only now):
  client_id: {key.client_id}
  secret:    {key.secret}

Try the combined AML-with-ID screening (sandbox: mock data, never charged):
  curl -s {base_url}/v3/screening/aml-with-id \\
    -H 'Authorization: Bearer {key.client_id}:{key.secret}' \\
    -H 'Content-Type: application/json' \\
    -d '{{"channel": "bvn", "number": "22222222210"}}'

The web console: {base_url}/console/ (sign in as a console user; make one with
  hakiki users create --org demo --email you@example.com --role owner
which prints a generated password once)

{_ready_line(base_url)}
"""


READY_POLL_SECONDS = 0.05


def _announce_when_answering(base_url: str, text: str) -> None:
    """Print ``text`` once ``base_url`` answers /healthz: only then does a pasted curl work.
    Polled from a thread of this process (uvicorn's supervisor with --workers N), so it is
    printed once, after the socket is bound and a server process has finished its start."""

    def wait_then_print() -> None:
        while not _answers(f"{base_url}/healthz"):
            time.sleep(READY_POLL_SECONDS)
        click.echo(text)

    threading.Thread(target=wait_then_print, name="hakiki-banner", daemon=True).start()


def _answers(url: str) -> bool:
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never via a proxy
    try:
        with direct.open(url, timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


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
    from hakiki.account import service as accounts
    from hakiki.core.cli_support import run_with_db
    from hakiki.core.settings import get_settings

    chosen = currency or get_settings().default_currency
    org = run_with_db(lambda e: accounts.create_org(e, name, approved=approved, currency=chosen))
    _emit(as_json, asdict(org), f"created organisation {org.name} ({org.id})")


@orgs.command("approve")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def orgs_approve(name: str, as_json: bool) -> None:
    """Approve an organisation for live mode."""
    from hakiki.account import service as accounts
    from hakiki.core.cli_support import run_with_db

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
    from hakiki.account import service as accounts
    from hakiki.core.cli_support import run_with_db

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
    from hakiki.account import service as accounts
    from hakiki.core.cli_support import run_with_db

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
    from hakiki.account import service as accounts
    from hakiki.core.cli_support import run_with_db
    from hakiki.core.wallet import service as wallet

    async def work(db: Database) -> Charge:
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
    """Screening lists: update, load your own, status."""


@lists_group.command("update")
@click.option("--list", "codes", multiple=True, help="A list code; repeat for several.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON lines.")
def lists_update(codes: tuple[str, ...], as_json: bool) -> None:
    """Download, validate and store new versions of the lists (HAKIKI_LISTS_SOURCES).

    A list that fails to download or validate keeps its last good version. Exits 1 when any
    list failed. A running server picks the new versions up when it reloads (or restarts)."""
    from hakiki.core.cli_support import run_with_db
    from hakiki.core.settings import get_settings
    from hakiki.lists.service import update_lists

    settings = get_settings()
    _schema_up_to_date(settings)
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


@lists_group.command("load")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--format",
    "fmt",
    required=True,
    help="ftm_json, targets_simple_csv, senzing_json, popolo_json, pep_csv, or any list format.",
)
@click.option("--code", required=True, help="The list's code, e.g. ke_peps.")
@click.option("--title", default=None, help="The list's name as answers show it.")
@click.option("--licence", default="", help="The licence you hold the data under (shown).")
@click.option(
    "--checks",
    default="",
    help="pep, sanction or both (comma-separated). Default: FtM and Senzing from the "
    "entities' topics; popolo_json and pep_csv pep; others sanction.",
)
@click.option(
    "--published", default=None, help="The publisher's date (YYYY-MM-DD) when the file has none."
)
@click.option("--country", default=None, help="The country of a Popolo or PEP CSV list.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def lists_load(
    path: Path,
    fmt: str,
    code: str,
    title: str | None,
    licence: str,
    checks: str,
    published: str | None,
    country: str | None,
    as_json: bool,
) -> None:
    """Load a list from a file: an OpenSanctions export, an EveryPolitician Popolo file, a PEP
    CSV (docs/lists.md). Parsed, validated and stored like a download; the list's date is the
    publisher's (inside the file, or --published), never today's. Exits 1 when refused."""
    from hakiki.core.cli_support import run_with_db
    from hakiki.core.settings import get_settings
    from hakiki.lists import store
    from hakiki.lists.service import load_file
    from hakiki.lists.sources import file_source

    settings = get_settings()
    try:
        source = file_source(
            code,
            path,
            format=fmt,
            title=title,
            checks=[c.strip() for c in checks.split(",") if c.strip()],
            licence=licence,
            published=published,
            country=country,
        )
    except ValueError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    _schema_up_to_date(settings)
    outcome = run_with_db(lambda db: load_file(settings, db, source))
    if as_json:
        click.echo(json.dumps(outcome.to_dict(), default=str))
    elif outcome.status == "ok":
        stored = store.current_version(settings.data_dir, code)
        checks_used = stored.manifest["checks"] if stored else sorted(source.checks)
        click.echo(
            f"{outcome.code}: loaded, version {outcome.version}, {outcome.entity_count} "
            f"entities ({', '.join(checks_used)}; licence: {licence or 'not stated'})"
        )
    else:
        kept = outcome.previous_version or "nothing"
        click.echo(f"{outcome.code}: REFUSED, keeping {kept}: {outcome.error}")
    if outcome.status != "ok":
        sys.exit(1)


@lists_group.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def lists_status(as_json: bool) -> None:
    """The version of each list that screening uses, and the last update attempts."""
    from hakiki.core.cli_support import run_with_db
    from hakiki.core.settings import get_settings
    from hakiki.lists.service import list_status

    settings = get_settings()
    _schema_up_to_date(settings)
    rows = run_with_db(lambda db: list_status(settings, db))
    if as_json:
        click.echo(json.dumps({"data": rows}, default=str))
        return
    for row in rows:
        if row["in_use"]:
            used = f"{row['version']} ({row['source']}, {row['entity_count']} entities"
            used += (
                f", {row['age_days']} days old)"
                if row["age_days"] is not None
                else ", publication date unknown)"
            )
            if row["stale"]:
                fix = "run `hakiki lists update`"
                if not row["update_enabled"] and row["source"] == "downloaded":
                    fix = "load a newer file (`hakiki lists load`)"
                used += f" STALE: over {settings.list_max_age_days} days, {fix}"
        else:
            used = "not in use"
        line = f"{row['code']}: {used}"
        if row.get("published"):
            line += f"; published {row['published']}"
        if row.get("licence"):
            line += f"; licence: {row['licence']}"
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
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["json", "text"]),
    default="json",
    show_default=True,
    help="JSON lines, or text for people.",
)
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
    output_format: str,
) -> None:
    """Screen NAME, or JSON lines from stdin ({"name", "schema", "birth_date", "country",
    "identifiers"}), against the lists the API uses; print JSON lines of results: the hits,
    `status` (CLEAR only when every check ran; INCOMPLETE when one could not), per check
    `outcomes` and each list's `published` date, `age_days` and `stale`."""
    from hakiki.core.settings import get_settings
    from hakiki.lists.screen import compare_pair, process_lines, screen_record

    settings = get_settings()
    cutoff = settings.aml_threshold if threshold is None else threshold
    if compare:
        for out in process_lines(sys.stdin, lambda pair: compare_pair(pair, threshold=cutoff)):
            click.echo(json.dumps(out, ensure_ascii=False))
        return

    from hakiki.lists.loading import load_current_engine
    from hakiki.lists.outcomes import ListDates
    from hakiki.lists.screen import describe_result

    wanted = [c.strip() for c in checks.split(",") if c.strip()]
    engine = load_current_engine(settings, freeze=True)
    dates = ListDates.of_engine(engine, settings)

    def handle(record: Any) -> dict[str, Any]:
        return screen_record(
            engine, record, checks=wanted, threshold=cutoff, limit=limit, dates=dates
        )

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
        text = describe_result(out) if output_format == "text" else None
        click.echo(text if text is not None else json.dumps(out, ensure_ascii=False))


@click.command("worker")
def worker() -> None:
    """Run jobs (pending verifications, webhook deliveries, ...) until stopped (SIGTERM or
    Ctrl-C). Any number of workers may share one database; set HAKIKI_JOBS_IN_SERVER=false to
    keep the servers out of it (with HAKIKI_JOBS_BACKEND=procrastinate only workers run jobs)."""
    import asyncio

    asyncio.run(_work_until_stopped())


async def _work_until_stopped() -> None:
    import asyncio
    import signal

    from hakiki.core.settings import get_settings
    from hakiki.runtime import work

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await work(get_settings(), stop, lambda: click.echo("worker started", err=True))
    click.echo("worker stopped", err=True)


main.add_command(worker)
