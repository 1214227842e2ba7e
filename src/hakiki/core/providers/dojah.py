"""What every Dojah look-up shares, whatever its domain (identity, tax, KYB): the headers and
the reading of its HTTP statuses (docs.dojah.io "Response Codes"; the identity adapter's
docstring, hakiki/identity/providers/dojah.py, lists the sources).

``AppId`` carries the app's id and ``Authorization`` the secret key itself (not ``Bearer``).
Errors are ``{"error": "..."}``: 401/403 refused credentials, 402 balance too low, 404 "...
not found" the registry's no (a 404 without it is a wrong address), 408/424/429/5xx unavailable.
"""

from __future__ import annotations

from typing import Any, Literal

#: ``failed``: refused for our account's sake (credentials, balance, a wrong address);
#: ``rejected``: the request refused (a 400 other than "not found": the number's form);
#: ``unavailable``: down, slow, rate-limited; ``not_found``: the registry's no.
Verdict = Literal["failed", "rejected", "unavailable", "not_found"]

_UNAVAILABLE = frozenset({408, 424, 429})


def headers(app_id: str, secret_key: str) -> dict[str, str]:
    return {"AppId": app_id, "Authorization": secret_key, "accept": "application/json"}


def said(body: dict[str, Any], *hide: str) -> str:
    """Dojah's own error words, without any number we sent."""
    text = " ".join(str(body.get("error") or body.get("message") or "").split())[:200]
    for secret in hide:
        if secret:
            text = text.replace(secret, "[number]")
    return text


def read_status(status: int, words: str, what: str) -> tuple[Verdict, str] | None:
    """The verdict an error status gives, with a message for the operator; None for 2xx."""
    detail = f" [Dojah: {words}]" if words else ""
    if status in (401, 403):
        return "failed", (
            f"Dojah refused the credentials (HTTP {status}): check HAKIKI_DOJAH_APP_ID / "
            "HAKIKI_DOJAH_SECRET_KEY and that the key belongs to HAKIKI_DOJAH_BASE_URL's "
            f"environment{detail}"
        )
    if status == 402:
        return "failed", f"Dojah refused the look-up: its balance is too low (HTTP 402){detail}"
    if status in _UNAVAILABLE or status >= 500:
        return "unavailable", f"Dojah answered HTTP {status}{detail}"
    if status in (400, 404) and "not found" in words.lower():
        return "not_found", f"no {what} record found at Dojah"
    if status in (404, 405):
        return "failed", (
            f"Dojah has no {what} look-up at the configured address (HTTP {status}): check "
            "HAKIKI_DOJAH_BASE_URL (e.g. https://api.dojah.io)"
        )
    if status >= 400:
        return "rejected", f"Dojah rejected the request (HTTP {status}){detail}"
    return None
