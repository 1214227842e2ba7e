"""Which kind of identifier a value is, and what it says, from the field it came in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from hakiki.engines.vehicle.chassis import ChassisNumber, parse_chassis
from hakiki.engines.vehicle.errors import IdentifierError
from hakiki.engines.vehicle.ng_plates import parse_nigerian_plate
from hakiki.engines.vehicle.plates import Plate, parse_plate
from hakiki.engines.vehicle.vin import VinDecoded, decode_vin, looks_like_vin, normalise_vin

Field = Literal["vin", "chassis_number", "registration_number"]
Kind = Literal["vin", "jdm_chassis_number", "registration_number"]


@dataclass(frozen=True)
class Decoded:
    field: Field
    kind: Kind
    value: str  # normalised
    vin: VinDecoded | None = None
    chassis: ChassisNumber | None = None
    plate: Plate | None = None
    country: str = "KE"  # the register's country: KE or NG

    @property
    def query_value(self) -> str:
        """What the registry is asked with: a Nigerian plate without separators (``KJA123AB``,
        as the aggregators' Nigerian samples write plates); anything else as normalised."""
        if self.country == "NG" and self.plate is not None:
            return "".join(ch for ch in self.value if ch.isalnum())
        return self.value

    @property
    def serial_digits(self) -> str:
        """The digits of the identifier's serial part (the sandbox reads its last one)."""
        if self.plate is not None:
            return self.plate.number or ""
        if self.chassis is not None:
            return self.chassis.serial
        return "".join(c for c in self.value if c.isdigit())


def decode(field: Field, raw: str, country: str = "KE") -> Decoded:
    """Decode ``raw`` sent as ``field`` for ``country``'s register (KE or NG: the plate formats
    differ). A chassis number may be a 17-character VIN (vehicles built outside Japan carry
    one); `IdentifierError` when it fits no shape of its field."""
    if field == "vin":
        vin = decode_vin(raw)
        return Decoded(field, "vin", vin.vin, vin=vin)
    if field == "chassis_number":
        if looks_like_vin(raw):
            vin = decode_vin(raw)
            return Decoded(field, "vin", vin.vin, vin=vin)
        compact = normalise_vin(raw)
        if len(compact) == 17 and compact.isalnum():
            # 17 characters but I, O or Q: a VIN with a typo, not a frame number
            decode_vin(raw)
        try:
            chassis = parse_chassis(raw)
        except IdentifierError as error:
            raise IdentifierError(
                f"neither a 17-character VIN nor a Japanese chassis number: {error.problem}"
            ) from None
        return Decoded(field, "jdm_chassis_number", chassis.chassis_number, chassis=chassis)
    plate = parse_nigerian_plate(raw) if country == "NG" else parse_plate(raw)
    return Decoded(
        field, "registration_number", plate.registration_number, plate=plate, country=country
    )
