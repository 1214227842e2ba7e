"""Result pages rendered on the server from the domains' services (issue 36)."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
