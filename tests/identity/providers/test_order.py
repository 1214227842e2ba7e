"""Which providers serve a channel, in which order: HAKIKI_IDENTITY_PROVIDER_ORDER's shape, a
channel's key over its country's, providers without credentials skipped, unknown names
refused at start."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from hakiki.core.settings import Settings
from hakiki.identity.providers.base import LookupOutcome, LookupResult
from hakiki.identity.providers.registry import Providers


class Stub:
    def __init__(self, name: str, channels: set[tuple[str, str]]) -> None:
        self.name = name
        self._channels = channels

    def supports(self, country: str, channel: str) -> bool:
        return (country.upper(), channel.lower()) in self._channels

    async def lookup(self, country: str, channel: str, number: str, **_: object) -> LookupResult:
        return LookupResult(LookupOutcome.NOT_FOUND, self.name)

    async def aclose(self) -> None:
        return None


NG = {("NG", "bvn"), ("NG", "nin"), ("NG", "cac")}
PREMBLY, DOJAH = Stub("prembly", NG), Stub("dojah", {("NG", "bvn"), ("NG", "nin")})


def names(providers: Providers, country: str, channel: str) -> list[str]:
    return [p.name for p in providers.chain_of(country, channel)]


def test_default_order_is_the_configured_providers_that_cover_the_channel() -> None:
    providers = Providers([PREMBLY, DOJAH])
    assert names(providers, "NG", "bvn") == ["prembly", "dojah"]
    assert names(providers, "ng", "CAC") == ["prembly"]
    assert providers.find("KE", "national_id") is None
    assert providers.longest_chain() == 2


def test_a_channel_key_wins_over_its_country_and_unlisted_providers_are_left_out() -> None:
    providers = Providers([PREMBLY, DOJAH], {"NG": ["dojah", "prembly"], "NG:nin": ["prembly"]})
    assert names(providers, "NG", "bvn") == ["dojah", "prembly"]
    assert names(providers, "NG", "nin") == ["prembly"]
    assert names(providers, "NG", "cac") == ["prembly"]  # dojah does not cover cac
    chain = providers.find("NG", "bvn")
    assert chain is not None and chain.name == "dojah" and chain.names == ["dojah", "prembly"]


def test_a_listed_provider_without_credentials_is_skipped() -> None:
    providers = Providers([PREMBLY], {"NG": ["dojah", "prembly"]})
    assert names(providers, "NG", "bvn") == ["prembly"]
    assert providers.states() == {
        "prembly": {"state": "closed", "consecutive_failures": 0, "times_opened": 0}
    }


def test_an_unknown_provider_stops_the_start() -> None:
    with pytest.raises(ValueError, match="unknown provider"):
        Providers([PREMBLY], {"NG": ["dojha"]})


@pytest.mark.parametrize(
    "order",
    [{"NGA": ["prembly"]}, {"NG:": ["prembly"]}, {"NG": []}, {"NG": ["dojah", "dojah"]}],
)
def test_the_setting_s_shape_is_checked(order: dict[str, list[str]]) -> None:
    with pytest.raises(ValidationError, match=r"COUNTRY|provider"):
        Settings(_env_file=None, identity_provider_order=order)


def test_the_setting_is_normalised() -> None:
    settings = Settings(_env_file=None, identity_provider_order={"ng:BVN": [" Dojah ", "PREMBLY"]})
    assert settings.identity_provider_order == {"NG:bvn": ["dojah", "prembly"]}
