"""Organisations and keys, on both databases."""

from __future__ import annotations

import pytest

from hakiki.account import service as accounts
from hakiki.core.database import Database
from hakiki.core.errors import ApiError
from tests.conftest import unique


async def test_org_names_are_unique(db: Database) -> None:
    name = unique("acme")
    org = await accounts.create_org(db, name, currency="ngn")
    assert org.currency == "NGN" and org.approved is False and org.id.startswith("org_")
    with pytest.raises(ApiError) as conflict:
        await accounts.create_org(db, name)
    assert conflict.value.status_code == 409


@pytest.mark.parametrize(("name", "currency"), [("  ", "KES"), ("ok", "KSH1"), ("ok", "K1S")])
async def test_org_input_is_checked(db: Database, name: str, currency: str) -> None:
    with pytest.raises(ApiError) as error:
        await accounts.create_org(db, name, currency=currency)
    assert error.value.status_code == 400


async def test_keys_need_a_known_org_and_environment(db: Database) -> None:
    with pytest.raises(ApiError) as missing:
        await accounts.create_key(db, unique("nobody"), "sandbox")
    assert missing.value.status_code == 404
    name = unique("acme")
    await accounts.create_org(db, name)
    with pytest.raises(ApiError) as bad_env:
        await accounts.create_key(db, name, "production")
    assert bad_env.value.status_code == 400
    live = await accounts.create_key(db, name, "live")
    assert live.client_id.startswith("hk_live_") and "account:admin" not in live.scopes


async def test_approval_and_revocation(db: Database) -> None:
    name = unique("acme")
    await accounts.create_org(db, name)
    assert (await accounts.approve_org(db, name)).approved is True
    assert (await accounts.get_org(db, name)).approved is True
    key = await accounts.create_key(db, name, "sandbox")
    await accounts.revoke_key(db, key.client_id)
    with pytest.raises(ApiError):
        await accounts.revoke_key(db, key.client_id)
