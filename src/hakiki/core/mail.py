"""E-mail through the configured SMTP server (HAKIKI_SMTP_*): stdlib smtplib in a thread, so
no event loop waits on a slow server. Background checks' invitations and the console's
invitations and password resets use it."""

from __future__ import annotations

import asyncio
import smtplib
from email.message import EmailMessage

from hakiki.core.settings import Settings


def configured(settings: Settings) -> bool:
    return bool(settings.smtp_host)


def _send(settings: Settings, host: str, message: EmailMessage) -> None:
    with smtplib.SMTP(host, settings.smtp_port, timeout=settings.smtp_timeout_seconds) as smtp:
        if settings.smtp_starttls:
            smtp.starttls()
        if settings.smtp_username:
            smtp.login(settings.smtp_username, settings.smtp_password or "")
        smtp.send_message(message)


async def send(settings: Settings, to: str, subject: str, text: str) -> None:
    """Send one plain-text message; an SMTP error raises (a job retries)."""
    host = settings.smtp_host
    if not host:
        raise RuntimeError("no SMTP server is configured (HAKIKI_SMTP_HOST)")
    message = EmailMessage()
    message["From"] = settings.mail_from
    message["To"] = to
    message["Subject"] = subject
    message.set_content(text)
    await asyncio.to_thread(_send, settings.model_copy(), host, message)
