"""The framework's ceiling: a bare FastAPI JSON endpoint with a declared body and response
model, served exactly like Hakiki (same uvicorn settings), measured in the same run."""

from __future__ import annotations

from fastapi import FastAPI
from pydantic import BaseModel


class Query(BaseModel):
    channel: str
    number: str


class Answer(BaseModel):
    request_id: str
    ok: bool
    status: str
    channel: str
    number: str


app = FastAPI()


@app.post("/echo", response_model=Answer)
async def echo(query: Query) -> Answer:
    return Answer(
        request_id="req_ceiling",
        ok=True,
        status="VERIFIED",
        channel=query.channel,
        number=query.number,
    )
