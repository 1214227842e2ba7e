"""E-mail to candidates: the texts; the sending is core's (core/mail.py)."""

from __future__ import annotations

from hakiki.core.mail import configured, send

__all__ = ["configured", "invitation_text", "reminder_text", "send"]


def invitation_text(org_name: str, first_name: str, url: str, expires: str) -> str:
    return (
        f"Dear {first_name},\n\n"
        f"{org_name} has asked you to complete a background check. Please read the consent "
        f"text, fill in the form and upload the documents it asks for at:\n\n{url}\n\n"
        f"The link works until {expires}. If you were not expecting this, ignore this "
        "message.\n"
    )


def reminder_text(org_name: str, first_name: str, url: str, expires: str) -> str:
    return (
        f"Dear {first_name},\n\n"
        f"A reminder: {org_name}'s background check is waiting for you at:\n\n{url}\n\n"
        f"The link stops working at {expires}.\n"
    )
