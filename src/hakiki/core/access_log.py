"""The server's access log without query values or path tokens: uvicorn writes the request
target as sent, and ``GET /v3/fraud/reports?identifier=22212345678`` would put an identity
number in the log, ``POST /console/reset/<token>`` a working password-reset link. A filter on
the ``uvicorn.access`` logger rewrites the target to its path and query parameter names, each
value masked: ``/v3/fraud/reports?identifier=*``
(docs/decisions.md#request-log-and-personal-data), and the token of a link that works by its
token alone (TOKEN_PATHS: console invitations and resets, candidates' invitations) masked too:
``/console/reset/*``.

``create_app`` installs it, so it holds in every server process however the app is served
(``hakiki serve``, ``uvicorn --factory``, any number of workers).
"""

from __future__ import annotations

import logging
import re

ACCESS_LOGGER = "uvicorn.access"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-\[\]]{0,63}")
_TARGET = 2  # uvicorn's access record: (client, method, target, http version, status)
# Paths whose next segment is a credential (a link e-mailed to someone).
TOKEN_PATHS = ("/console/reset/", "/invitations/")
# Anywhere in the path: behind a proxy, uvicorn logs the root path before it.
_TOKEN_SEGMENT = re.compile("(" + "|".join(re.escape(p) for p in TOKEN_PATHS) + ")[^/]+")


def mask_target(target: str) -> str:
    """The target as the log keeps it: query values and path tokens masked."""
    path, separator, query = target.partition("?")
    return mask_query(_TOKEN_SEGMENT.sub(r"\1*", path) + separator + query)


def mask_query(target: str) -> str:
    """``path?a=1&b=2`` as ``path?a=*&b=*``; a parameter name that does not look like one (a
    value sent without ``=``) is masked too."""
    path, separator, query = target.partition("?")
    if not separator:
        return target
    masked = []
    for part in query.split("&"):
        if not part:
            continue
        name = part.split("=", 1)[0]
        masked.append(f"{name}=*" if _NAME.fullmatch(name) else "*")
    return f"{path}?{'&'.join(masked)}"


class QueryValueFilter(logging.Filter):
    """Masks the query values and path tokens of the request target in uvicorn's access
    records."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) > _TARGET:
            target = args[_TARGET]
            if isinstance(target, str):
                record.args = (*args[:_TARGET], mask_target(target), *args[_TARGET + 1 :])
        return True


def install_access_log_filter() -> None:
    """Add the filter to ``uvicorn.access`` (once: calling again changes nothing)."""
    logger = logging.getLogger(ACCESS_LOGGER)
    if not any(isinstance(existing, QueryValueFilter) for existing in logger.filters):
        logger.addFilter(QueryValueFilter())
