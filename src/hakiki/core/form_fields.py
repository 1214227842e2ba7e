"""Text fields of a multipart body checked as UTF-8 while the body streams in.

Starlette decodes a form field whose bytes are not UTF-8 as Latin-1, silently: a password or a
name would reach the handler as other characters than were sent. The route mechanism hands
FastAPI a ``receive`` that runs the same multipart parser (python-multipart) over each chunk
as it passes and raises a 400 naming the field at the first text part (one without a
filename) that does not decode; file parts are not looked at."""

from __future__ import annotations

from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import MultipartParser, parse_options_header
from starlette.types import Message, Receive, Scope

from hakiki.core.errors import ApiError, ApiHTTPError
from hakiki.core.request_body import header

MAX_FIELD = 1024 * 1024  # Starlette's own limit of a text part; past it Starlette refuses


class _Fields:
    """The parser's callbacks: the current part's headers and, for a text part, its bytes."""

    def __init__(self) -> None:
        self.name: str | None = None
        self.text = False
        self.value = bytearray()
        self.header_name = bytearray()
        self.header_value = bytearray()
        self.error: ApiError | None = None

    def callbacks(self) -> dict[str, object]:
        return {
            "on_part_begin": self.part_begin,
            "on_header_field": lambda data, start, end: self.header_name.extend(data[start:end]),
            "on_header_value": lambda data, start, end: self.header_value.extend(data[start:end]),
            "on_header_end": self.header_end,
            "on_part_data": self.part_data,
            "on_part_end": self.part_end,
        }

    def part_begin(self) -> None:
        self.name, self.text = None, False
        self.value.clear()

    def header_end(self) -> None:
        if bytes(self.header_name).lower() == b"content-disposition":
            _, options = parse_options_header(bytes(self.header_value))
            self.name = options.get(b"name", b"").decode("utf-8", "replace")
            self.text = b"filename" not in options
        self.header_name.clear()
        self.header_value.clear()

    def part_data(self, data: bytes, start: int, end: int) -> None:
        if self.text and len(self.value) <= MAX_FIELD:
            self.value.extend(data[start:end])

    def part_end(self) -> None:
        if not self.text or self.error is not None:
            return
        try:
            bytes(self.value).decode("utf-8")
        except UnicodeDecodeError as err:
            field = self.name or "body"
            problem = f"is not valid UTF-8 (byte {err.start:,}); send form fields as UTF-8"
            self.error = ApiError(
                400,
                "invalid_request",
                f"The request is invalid: {field}: {problem}.",
                details=[{"field": field, "problem": problem}],
            )


def utf8_fields(scope: Scope, receive: Receive) -> Receive:
    """``receive`` that raises a 400 (as an ApiHTTPError, which FastAPI's body reading lets
    through) naming the first text field of a multipart body that is not UTF-8."""
    _, options = parse_options_header(header(scope, b"content-type"))
    boundary = options.get(b"boundary")
    if not boundary:
        return receive  # Starlette refuses the body itself
    fields = _Fields()
    parser: MultipartParser | None = MultipartParser(boundary, fields.callbacks())  # type: ignore[arg-type]

    async def checked() -> Message:
        nonlocal parser
        message = await receive()
        if parser is not None and message["type"] == "http.request":
            try:
                parser.write(message.get("body", b""))
            except MultipartParseError:
                parser = None  # a broken body: Starlette's parser says so
            if fields.error is not None:
                raise ApiHTTPError(fields.error)
        return message

    return checked
