"""The vehicle registry adapters this deployment has credentials for, in the default order:
Prembly (KE and NG plates), then QoreID (NG plates, when the owner's names are sent)."""

from __future__ import annotations

from hakiki.core.settings import Settings
from hakiki.vehicle.prembly import build_registry
from hakiki.vehicle.qoreid import build_qoreid
from hakiki.vehicle.registry import VehicleRegistry


def build_vehicle_registries(settings: Settings) -> list[VehicleRegistry]:
    """Every configured adapter; the caller owns them (``VehicleRegistries.aclose``)."""
    built: list[VehicleRegistry | None] = [build_registry(settings), build_qoreid(settings)]
    return [registry for registry in built if registry is not None]
