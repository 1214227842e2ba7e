"""`hakiki users create`: a generated password printed once, or one read from stdin; JSON. In
this process, and once as a real process reading a real pipe."""

from __future__ import annotations

import json

import pytest

from tests.support.cli import invoke, run


def create(email: str, role: str, *more: str) -> list[str]:
    return ["users", "create", "--org", "acme", "--email", email, "--role", role, *more]


@pytest.mark.processes
def test_users_create_prints_a_generated_password_or_takes_one_from_stdin(
    cli_env: dict[str, str],
) -> None:
    assert invoke(cli_env, "migrate").exit_code == 0
    assert invoke(cli_env, "orgs", "create", "acme").exit_code == 0
    made = invoke(cli_env, *create("ops@acme.example", "owner", "--json"))
    assert made.exit_code == 0, made.stderr
    user = json.loads(made.stdout)
    assert user["role"] == "owner" and user["org"] == "acme"
    assert len(user["password"]) >= 20
    chosen = run(
        cli_env,
        *create("dev@acme.example", "developer", "--password-stdin", "--json"),
        stdin="a long enough password\n",
    )
    assert chosen.returncode == 0, chosen.stderr
    assert json.loads(chosen.stdout)["password"] is None  # the caller knows it
    again = invoke(cli_env, *create("OPS@acme.example", "viewer"))
    assert again.exit_code == 1 and "exists" in again.stderr
    short = invoke(
        cli_env, *create("x@acme.example", "viewer", "--password-stdin"), stdin="short\n"
    )
    assert short.exit_code == 1 and "at least 12" in short.stderr
    nowhere = invoke(
        cli_env, "users", "create", "--org", "nope", "--email", "y@acme.example", "--role", "viewer"
    )
    assert nowhere.exit_code == 1 and "No organisation" in nowhere.stderr
    bad_role = invoke(cli_env, *create("z@acme.example", "root"))
    assert bad_role.exit_code == 2
