"""Vehicle identifiers, read offline: 17-character VINs (with `vininfo`), Japanese chassis
(frame) numbers, and Kenyan and Nigerian registration plates. Pure: no HTTP, no database."""

from hakiki.engines.vehicle.chassis import ChassisNumber, parse_chassis
from hakiki.engines.vehicle.errors import IdentifierError
from hakiki.engines.vehicle.identify import Decoded, decode
from hakiki.engines.vehicle.ng_plates import parse_nigerian_plate
from hakiki.engines.vehicle.plates import Plate, parse_plate
from hakiki.engines.vehicle.vin import VinDecoded, decode_vin

__all__ = [
    "ChassisNumber",
    "Decoded",
    "IdentifierError",
    "Plate",
    "VinDecoded",
    "decode",
    "decode_vin",
    "parse_chassis",
    "parse_nigerian_plate",
    "parse_plate",
]
