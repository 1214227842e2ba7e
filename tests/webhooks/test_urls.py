"""Which addresses webhooks (and bulk image fetches) may reach: IPv6 forms that embed an IPv4
address are judged by that address; Teredo and NAT64's local-use prefix never pass."""

from __future__ import annotations

import ipaddress

import httpx
import pytest

from hakiki.core.runtime import Runtime
from hakiki.webhooks.urls import UrlRefused, check_public_host, check_url, embedded_ipv4
from tests.conftest import AccountFactory

PATH = "/v3/account/webhooks"

PRIVATE = [
    ("::127.0.0.1", "127.0.0.1"),  # IPv4-compatible
    ("::7f00:1", "127.0.0.1"),  # the same, written in hex
    ("::10.0.0.1", "10.0.0.1"),
    ("::ffff:127.0.0.1", "127.0.0.1"),  # IPv4-mapped
    ("::ffff:0:7f00:1", "127.0.0.1"),  # SIIT IPv4-translated
    ("64:ff9b::7f00:1", "127.0.0.1"),  # NAT64
    ("64:ff9b::a9fe:a9fe", "169.254.169.254"),  # NAT64 to the cloud metadata service
    ("64:ff9b::", "0.0.0.0"),
    ("2002:7f00:1::", "127.0.0.1"),  # 6to4
    ("2002:c0a8:101::1", "192.168.1.1"),
    ("::", "0.0.0.0"),
    ("::1", "0.0.0.1"),
]
PUBLIC = [
    ("::ffff:93.184.215.14", "93.184.215.14"),
    ("64:ff9b::5db8:d70e", "93.184.215.14"),
    ("2002:5db8:d70e::1", "93.184.215.14"),
]


@pytest.mark.parametrize(("address", "ipv4"), PRIVATE + PUBLIC)
def test_the_embedded_ipv4_address_is_found(address: str, ipv4: str) -> None:
    assert embedded_ipv4(ipaddress.IPv6Address(address)) == ipaddress.IPv4Address(ipv4)


def test_native_ipv6_embeds_nothing() -> None:
    assert embedded_ipv4(ipaddress.IPv6Address("2606:4700:4700::1111")) is None
    assert embedded_ipv4(ipaddress.IPv6Address("fe80::1")) is None


@pytest.mark.parametrize(
    "address",
    [a for a, _ in PRIVATE]
    + ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001::1", "64:ff9b:1::5db8:d70e"],
)
async def test_private_embedded_and_tunnelled_addresses_are_refused(address: str) -> None:
    with pytest.raises(UrlRefused, match="private or reserved"):
        await check_public_host(address)
    with pytest.raises(UrlRefused, match="HAKIKI_WEBHOOKS_ALLOW_PRIVATE"):
        await check_url(f"https://[{address}]/hook", live=True, allow_private=False)


@pytest.mark.parametrize("address", [a for a, _ in PUBLIC] + ["2606:4700:4700::1111"])
async def test_public_addresses_pass(address: str) -> None:
    await check_public_host(address)


async def test_an_endpoint_on_an_embedded_private_address_is_a_400_naming_url(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    app: object,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runtime: Runtime = app.state.runtime  # type: ignore[attr-defined]
    account = await make_account("sandbox")
    strict = runtime.settings.model_copy(update={"webhooks_allow_private": False})
    monkeypatch.setattr(runtime, "settings", strict)
    for address in ("::127.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::", "2001::1"):
        refused = await client.post(
            PATH, json={"url": f"http://[{address}]/hook"}, headers=account.headers
        )
        assert refused.status_code == 400, (address, refused.text)
        assert [d["field"] for d in refused.json()["details"]] == ["url"]
    for address in ("64:ff9b::5db8:d70e", "2002:5db8:d70e::1"):
        accepted = await client.post(
            PATH, json={"url": f"http://[{address}]/hook"}, headers=account.headers
        )
        assert accepted.status_code == 201, (address, accepted.text)
