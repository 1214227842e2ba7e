"""The channels endpoint: one registry (core.channels) seen with this server's providers."""

from __future__ import annotations

from hakiki.core.pagination import PageRequest
from hakiki.core.providers.live import LiveProviders
from hakiki.identity import sandbox
from hakiki.identity.channels import CHANNELS
from hakiki.identity.providers.registry import Providers
from hakiki.screening.schemas import (
    ChannelInfo,
    ChannelList,
    ChannelProvider,
    RegistryCheckChannel,
    TestValue,
)

SANDBOX_RULES = {
    "accepted": "Any number that fits the channel's format is accepted.",
    "last_digit": "0-4 VERIFIED, 5 NOT_FOUND, 6 MISMATCH when compare is true (else VERIFIED), "
    "7 PENDING, 8 SOURCE_UNAVAILABLE, 9 FAILED (soft error).",
    "second_to_last_digit": "AML bitmask, each bit one hit: 1 adds a PEP hit, 2 a sanctions "
    "hit, 4 an adverse-media hit (only when adverse_media is true); 3 gives two hits (one PEP, "
    "one sanctions), 0 none.",
    "identities": "Mock identities are derived from the number, with names of the channel's "
    "country; with compare on a VERIFIED number the record carries the names you sent.",
    "charges": "Sandbox never charges the wallet.",
}


def registry_checks(live: LiveProviders) -> list[RegistryCheckChannel]:
    """The other categories' live checks (tax, KYB, vehicle) with their providers."""
    listed = []
    for channel in live.channels():
        if channel["category"] == "identity":
            continue
        chain = [
            ChannelProvider(name=p["name"], position=p["position"], state=p["state"])
            for p in channel["providers"]
        ]
        listed.append(
            RegistryCheckChannel(
                category=channel["category"],
                country=channel["country"],
                check=channel["check"],
                live=bool(chain),
                live_provider=chain[0].name if chain else None,
                live_providers=chain,
            )
        )
    return listed


def list_channels(
    providers: Providers, page: PageRequest, live: LiveProviders | None = None
) -> ChannelList:
    items = []
    states = providers.states()
    for channel in CHANNELS:
        chain = providers.chain_of(channel.country, channel.code)
        provider = chain[0] if chain else None
        items.append(
            ChannelInfo(
                code=channel.code,
                country=channel.country,
                subject="business" if channel.subject == "business" else "person",
                name=channel.name,
                format=channel.format_description,
                example=channel.example,
                sandbox=True,
                live=provider is not None,
                live_provider=provider.name if provider else None,
                live_providers=[
                    ChannelProvider(name=p.name, position=i, state=states[p.name]["state"])
                    for i, p in enumerate(chain, start=1)
                ],
                requires=list(channel.requires),
                test_values=[
                    TestValue(
                        number=g.number,
                        status=g.outcome.value,
                        aml=list(g.aml),
                        description=g.description,
                    )
                    for g in sandbox.golden_numbers(channel)
                ],
            )
        )
    data, pagination = page.slice(items)
    others = registry_checks(live) if live is not None else []
    return ChannelList(
        data=data, pagination=pagination, sandbox_rules=SANDBOX_RULES, registry_checks=others
    )
