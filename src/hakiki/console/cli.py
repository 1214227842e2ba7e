"""``hakiki users``: console users, created by the operator."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict

import click

from hakiki.console import users
from hakiki.console.roles import ROLES
from hakiki.core.cli_support import run_with_db
from hakiki.core.crypto import Vault, load_master_key
from hakiki.core.database import Database
from hakiki.core.settings import get_settings


@click.group("users")
def users_group() -> None:
    """Console users."""


@users_group.command("create")
@click.option("--org", "org_name", required=True, help="Organisation name.")
@click.option("--email", required=True, help="The user's e-mail address (their sign-in).")
@click.option("--role", type=click.Choice(ROLES), required=True)
@click.option("--password-stdin", is_flag=True, help="Read the password from standard input.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def users_create(org_name: str, email: str, role: str, password_stdin: bool, as_json: bool) -> None:
    """Create a console user. Without --password-stdin a password is generated and printed
    once; it is stored only as an argon2 hash."""
    password = sys.stdin.readline().rstrip("\r\n") if password_stdin else None
    vault = Vault(load_master_key(get_settings()))

    async def work(db: Database) -> users.NewUser:
        org_id = await users.org_id_named(db, org_name)
        return await users.create_user(
            db, vault, org_id=org_id, email=email, role=role, password=password
        )

    user = run_with_db(work)
    if as_json:
        click.echo(json.dumps({**asdict(user), "org": org_name}))
        return
    click.echo(f"created {user.role} {user.email} in {org_name}")
    if user.password:
        click.echo(f"password:  {user.password}  (shown only now)")
