"""Models of the document verification."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr

from hakiki.core.envelope import Envelope, Verdict
from hakiki.documents import examples
from hakiki.identity.schemas import CountryCode

DocumentType = Literal["passport", "national_id", "drivers_license", "residence_permit", "visa"]


class DocumentRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [examples.REQUEST]})

    document_type: DocumentType = Field(
        description="passport (TD3 zone), national_id (TD1 or TD2 zone, usually on the back), "
        "residence_permit, visa (an MRV-A or MRV-B zone: 2 x 44 or 2 x 36, code V), or "
        "drivers_license (no zone expected)."
    )
    country_code: CountryCode | None = Field(
        None, description="KE, NG, TZ or UG: the issuing country to compare with the zone's."
    )
    front_image: StrictStr = Field(
        description="The document's front: JPEG, PNG or WebP, base64 (a data: URL prefix is "
        "accepted); under 1 MB decoded."
    )
    back_image: StrictStr | None = Field(
        None, description="The back (an identity card's zone and barcode), same rules."
    )
    selfie_image: StrictStr | None = Field(
        None,
        description="A selfie of the holder, same rules: matched with the document's portrait "
        "and checked against the fraud face bank.",
    )


CheckStatus = Literal["passed", "attention", "failed", "not_run"]


class DocumentCheck(BaseModel):
    name: str = Field(description="The check, e.g. mrz, expiry, front_image.copy_move.")
    category: Literal["quality", "mrz", "barcode", "consistency", "forensics", "face"]
    status: CheckStatus
    reason: str
    signals: dict[str, float | int | str | bool | None] = Field(
        default_factory=dict, description="The measures behind the status."
    )


class UnsureField(BaseModel):
    field: Literal[
        "document_number",
        "birth_date",
        "expiry_date",
        "personal_number",
        "name",
        "issuing_state",
        "nationality",
        "sex",
    ]
    candidates: list[str] = Field(
        description="What the field could be, the likeliest first (the value shown in the "
        "document). A field a check digit guards: each candidate passes it. name, "
        "issuing_state, nationality, sex: the two readers of the zone read it differently, "
        "or one read it alone and is not sure of a character. Up to 5."
    )


class ExtractedDocument(BaseModel):
    layout: Literal["TD1", "TD2", "TD3", "MRV-A", "MRV-B"] | None
    document_code: str | None
    issuing_state: str | None = Field(description="ICAO three-letter code, as in the zone.")
    document_number: str | None
    surname: str | None
    given_names: str | None
    nationality: str | None
    birth_date: str | None = Field(description="YYYY-MM-DD.")
    sex: Literal["M", "F", "X"] | None
    expiry_date: str | None = Field(description="YYYY-MM-DD.")
    optional_data: str | None
    barcodes: list[str] = Field(description="Formats of the codes read: PDF417, QRCode.")
    unsure: list[UnsureField] = Field(
        default_factory=list,
        description="Fields the zone does not settle: their glyphs read two ways (0 or O, 1 or I, "
        "...) and more than one reading passes the check digit, or the zone's two readers read "
        "the field differently. Never a verified value: the mrz check is attention, and the "
        "field's value is only the likeliest candidate.",
    )


class FaceMatch(BaseModel):
    distance: float | None = Field(description="dlib distance, portrait to selfie.")
    threshold: float = Field(description="Same person below this distance.")
    match: bool | None


class DocumentResultData(BaseModel):
    verdict: Literal["clear", "attention", "rejected"]
    retryable: bool = Field(description="true when the photo is too poor to judge: take another.")
    retry_reasons: list[str]
    reasons: list[str] = Field(
        description="The reason of every check that failed or needs attention."
    )
    checks: list[DocumentCheck]
    document: ExtractedDocument
    face: FaceMatch | None = Field(description="With selfie_image only.")


class DocumentResult(Envelope):
    data: DocumentResultData


# The category's own words (kept in data) in the envelope's one vocabulary.
DOCUMENT_VERDICTS: dict[str, Verdict] = {
    "clear": Verdict.PASS,
    "attention": Verdict.REVIEW,
    "rejected": Verdict.FAIL,
}
