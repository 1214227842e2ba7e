"""What a verified identity looks like in every response that carries one."""

from __future__ import annotations

from pydantic import BaseModel


class Identity(BaseModel):
    """The identity as the registry holds it. Persons carry names, businesses business_name."""

    first_name: str | None = None
    middle_name: str | None = None
    last_name: str | None = None
    business_name: str | None = None
    date_of_birth: str | None = None
    gender: str | None = None
    phone: str | None = None
    nationality: str | None = None


class NameScore(BaseModel):
    supplied: str
    on_record: str | None
    score: float


class NameComparison(BaseModel):
    match: bool
    score: float
    threshold: float
    first_name: NameScore
    last_name: NameScore
    reason: str


class ChannelRef(BaseModel):
    code: str
    country: str
