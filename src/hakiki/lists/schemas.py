"""Response models of the lists status endpoint."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from hakiki.core.pagination import Pagination


class ListAttempt(BaseModel):
    at: datetime = Field(description="When the update was attempted.")
    status: Literal["ok", "failed"]
    version: str | None = Field(description="The version fetched (null when it failed).")
    entity_count: int | None
    error: str | None


class ListStatus(BaseModel):
    code: str
    title: str
    checks: list[str] = Field(description="What the list is screened for (sanction, pep...).")
    in_use: bool = Field(description="Whether the live screening engine holds this list.")
    version: str | None = Field(description="The version in use.")
    date: str | None = Field(
        description="The publisher's date of the version in use, read from inside its files "
        "(UN `dateGenerated`, EU `generationDate`, UK `Report Date`, OFAC XML `Publish_Date`, "
        "OpenSanctions `last_change`...); for a bundled snapshot, its data date. Null when the "
        "files carry no date (OFAC's CSV files): never the download day."
    )
    date_note: str | None = Field(
        default=None, description="Why `date` is null for a list in use (its age is unknown)."
    )
    published: str | None = Field(
        default=None,
        description="The publisher's date of the version in use, read from inside the file "
        "(or stated by the operator when loading it); null when unknown.",
    )
    licence: str | None = Field(
        default=None, description="The licence the operator declared for the list's data."
    )
    entity_count: int | None = Field(description="Entities in the version in use.")
    age_days: int | None = Field(description="Days since `date`; null when `date` is.")
    stale: bool | None = Field(
        description="Older than HAKIKI_LIST_MAX_AGE_DAYS (90): run `hakiki lists update`. "
        "Null when the list's date is unknown."
    )
    source: Literal["bundled", "downloaded"] | None = Field(
        description="bundled: the snapshot shipped with Hakiki; downloaded: by `lists update`."
    )
    update_enabled: bool = Field(description="Whether `hakiki lists update` fetches this list.")
    last_attempt: ListAttempt | None = Field(description="The newest update attempt.")
    last_error: str | None = Field(description="The error of the newest failed attempt.")
    last_error_at: datetime | None


class ListStatusList(BaseModel):
    data: list[ListStatus]
    pagination: Pagination
