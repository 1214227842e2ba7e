"""``hakiki credit train``: train an organisation's own scorecard on its loan book from the
command line (the same checks, training and registry as POST /v3/credit/models, run here rather
than by a job), and optionally activate it."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

import click

from hakiki.account import service as accounts
from hakiki.core.cli_support import run_with_db
from hakiki.core.crypto import Vault, load_master_key
from hakiki.core.database import Database, read, transaction
from hakiki.core.errors import ApiError
from hakiki.core.ids import new_id
from hakiki.core.settings import get_settings
from hakiki.credit.decision import scorecard
from hakiki.credit.registry import repository, service
from hakiki.credit.registry.training import train_stored
from hakiki.statements.service import metrics_in


@click.group("credit")
def credit_group() -> None:
    """Your own credit scorecards: train on your loan book."""


async def _train(
    db: Database,
    org_name: str,
    environment: str,
    book: tuple[str, bytes],
    window_days: int,
    activate: bool,
) -> dict[str, Any]:
    vault = Vault(load_master_key(get_settings()))
    org = await accounts.get_org(db, org_name)
    owner = (org.id, environment)
    file_name, data = book
    try:
        rows = await service.check_book(data)
    except ApiError as error:  # every problem, one a line (the API lists them in details)
        lines = [f"row {d['row']}, {d['field']}: {d['problem']}" for d in error.details or []]
        raise click.ClickException("\n".join(["the loan book has problems:", *lines])) from error
    request_id = new_id("req")
    async with transaction(db) as conn:
        model = await service.new_model(
            conn, vault, owner, data, rows, file_name, window_days, request_id
        )
    lookup = partial(metrics_in, db, vault, org.id, environment)
    await train_stored(db, vault, model["id"], lookup)
    async with read(db) as conn:
        trained = await repository.get_model(conn, model["id"])
    assert trained is not None
    out = service.model_out(trained, None, card=True).model_dump(mode="json")
    if activate and out["activatable"]:
        async with transaction(db) as conn:
            active = await service.activate_in(
                conn, owner, model["id"], request_id, scorecard().version
            )
        out["active"] = True
        out["previous_version"] = active.previous_version
    return out


@credit_group.command("train")
@click.option("--org", "org_name", required=True, help="Organisation name.")
@click.option(
    "--data",
    "path",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The loan book, CSV (docs/credit-model.md).",
)
@click.option("--env", "environment", type=click.Choice(["sandbox", "live"]), default="live")
@click.option("--window-days", default=90, type=click.IntRange(1, 3650), show_default=True)
@click.option("--activate", is_flag=True, help="Activate it when trained and activatable.")
@click.option("--json", "as_json", is_flag=True, help="Print the model with its card as JSON.")
def train_command(
    org_name: str, path: Path, environment: str, window_days: int, activate: bool, as_json: bool
) -> None:
    """Train a scorecard on a loan book and store it in the organisation's registry."""
    book = (path.name, path.read_bytes())
    out = run_with_db(lambda db: _train(db, org_name, environment, book, window_days, activate))
    if as_json:
        click.echo(json.dumps(out))
    elif out["status"] == "failed":
        click.echo(f"error: training failed: {out['failure_reason']}", err=True)
    else:
        card = out["card"]
        metrics = card["metrics"]
        line = (
            f"{out['version']} ({out['model_id']}): {card['data']['rows']} loans, "
            f"{card['data']['defaults']} defaults; holdout AUC {metrics['holdout_auc']}, "
            f"KS {metrics['holdout_ks']}"
        )
        click.echo(line)
        click.echo("active" if out["active"] else (card["refusal_reason"] or "not activated"))
    if out["status"] == "failed" or (activate and not out["active"]):
        raise SystemExit(1)
