"""`hakiki users create`: a generated password printed once, or one read from stdin; JSON."""

from __future__ import annotations

import json
import subprocess

from tests.test_cli import HAKIKI, run


def test_users_create_prints_a_generated_password_or_takes_one_from_stdin(
    cli_env: dict[str, str],
) -> None:
    assert run(cli_env, "migrate").returncode == 0
    assert run(cli_env, "orgs", "create", "acme").returncode == 0
    made = run(
        cli_env,
        "users",
        "create",
        "--org",
        "acme",
        "--email",
        "ops@acme.example",
        "--role",
        "owner",
        "--json",
    )
    assert made.returncode == 0, made.stderr
    user = json.loads(made.stdout)
    assert user["role"] == "owner" and user["org"] == "acme"
    assert len(user["password"]) >= 20
    chosen = subprocess.run(
        [
            *HAKIKI,
            "users",
            "create",
            "--org",
            "acme",
            "--email",
            "dev@acme.example",
            "--role",
            "developer",
            "--password-stdin",
            "--json",
        ],
        input="a long enough password\n",
        env=cli_env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert chosen.returncode == 0, chosen.stderr
    assert json.loads(chosen.stdout)["password"] is None  # the caller knows it
    again = run(
        cli_env,
        "users",
        "create",
        "--org",
        "acme",
        "--email",
        "OPS@acme.example",
        "--role",
        "viewer",
    )
    assert again.returncode == 1 and "exists" in again.stderr
    short = subprocess.run(
        [
            *HAKIKI,
            "users",
            "create",
            "--org",
            "acme",
            "--email",
            "x@acme.example",
            "--role",
            "viewer",
            "--password-stdin",
        ],
        input="short\n",
        env=cli_env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert short.returncode == 1 and "at least 12" in short.stderr
    nowhere = run(
        cli_env, "users", "create", "--org", "nope", "--email", "y@acme.example", "--role", "viewer"
    )
    assert nowhere.returncode == 1 and "No organisation" in nowhere.stderr
    bad_role = run(
        cli_env, "users", "create", "--org", "acme", "--email", "z@acme.example", "--role", "root"
    )
    assert bad_role.returncode == 2
