"""The generated explanation: an OpenAI-compatible chat completion asked to explain the
trace, accepted only when it is grounded in it (every number it states is one the evaluation
holds); any error, timeout or ungrounded text falls back to the deterministic paragraph."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import httpx

from hakiki.core.settings import Settings

PROMPT = (
    "You explain a credit score to a lender's credit committee. Use only the facts in the "
    "evaluation JSON you are given: the score, its rating, the components and their factors. "
    "Write one paragraph of at most 120 words: the score and rating, the strengths, the risks, "
    "and what would raise the score. State no number that is not in the JSON."
)
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:,\d{3})*(?:\.\d+)?")


@dataclass(frozen=True)
class Generated:
    text: str | None
    model: str
    failure: str | None  # why there is no text


def _numbers(value: Any) -> set[float]:
    if isinstance(value, bool):
        return set()
    if isinstance(value, int | float):
        return {round(float(value), 2)}
    if isinstance(value, dict):
        return {n for v in value.values() for n in _numbers(v)}
    if isinstance(value, list):
        return {n for v in value for n in _numbers(v)}
    if isinstance(value, str):
        return {round(float(m.replace(",", "")), 2) for m in _NUMBER.findall(value)}
    return set()


def ungrounded(text: str, facts: dict[str, Any]) -> list[str]:
    """The numbers ``text`` states that the facts do not hold (1000, the scale, is allowed)."""
    known = _numbers(facts) | {1000.0}
    stated = _NUMBER.findall(text)
    return sorted({n for n in stated if round(float(n.replace(",", "")), 2) not in known})


async def generate(settings: Settings, facts: dict[str, Any]) -> Generated:
    model = settings.evaluation_llm_model
    if not settings.evaluation_llm_base_url:
        return Generated(None, model, "no language model is configured on this server")
    headers = {}
    if settings.evaluation_llm_api_key:
        headers["Authorization"] = f"Bearer {settings.evaluation_llm_api_key}"
    body = {
        "model": model,
        "temperature": 0,
        "messages": [
            {"role": "system", "content": PROMPT},
            {"role": "user", "content": json.dumps(facts, sort_keys=True)},
        ],
    }
    url = settings.evaluation_llm_base_url.rstrip("/") + "/chat/completions"
    try:
        async with httpx.AsyncClient(timeout=settings.evaluation_llm_timeout_seconds) as http:
            response = await http.post(url, json=body, headers=headers)
        response.raise_for_status()
        text = str(response.json()["choices"][0]["message"]["content"]).strip()
    except httpx.TimeoutException:
        return Generated(None, model, "the language model did not answer in time")
    except (httpx.HTTPError, ValueError, KeyError, IndexError, TypeError):
        return Generated(None, model, "the language model's answer was unusable")
    if not text or len(text) > 4000:
        return Generated(None, model, "the language model's answer was empty or too long")
    if str(facts["score"]) not in text:
        return Generated(None, model, "the generated text did not state the score")
    strays = ungrounded(text, facts)
    if strays:
        return Generated(
            None,
            model,
            "the generated text stated numbers not in the trace: " + ", ".join(strays[:5]),
        )
    return Generated(text, model, None)
