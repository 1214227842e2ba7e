"""Examples of the document verification, shown in the OpenAPI document: what the sandbox
answers to the request example (docs/sandbox.md#documents); tests/test_openapi_examples.py
replays them."""

from __future__ import annotations

from typing import Any

# A 48 x 32 light-grey PNG: in sandbox, a light front image is a clear document.
LIGHT_PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAADAAAAAgCAIAAADbtmxLAAAAPElEQVR4nO3OoQHAIBAAsdL9h/0R8JiTIJIJsmbme8l/"
    "O3ASKkJFqAgVoSJUhIpQESpCRagIFaEiVITKBk2bAxBNzs4aAAAAAElFTkSuQmCC"
)

REQUEST: dict[str, Any] = {
    "document_type": "passport",
    "country_code": "KE",
    "front_image": LIGHT_PNG,
}
