"""Hostile PDFs written byte by byte (no committed binaries): inflate bombs behind a filter
chain or encryption, an xref stream claiming 10^8 entries, structurally broken files, and
statements carrying JavaScript or an embedded file."""

from __future__ import annotations

import binascii
import io
import zlib

import pypdf
from pypdf.generic import NameObject, StreamObject


def document(objects: list[bytes], trailer: bytes = b"/Root 1 0 R") -> bytes:
    """A PDF of ``objects`` (numbered from 1) with a classic cross-reference table."""
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    start = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d %s >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        trailer,
        start,
    )
    return bytes(out)


def stream(data: bytes, filters: bytes = b"") -> bytes:
    return b"<< /Length %d %s >>\nstream\n%s\nendstream" % (len(data), filters, data)


def one_page(contents: bytes, catalog_extra: bytes = b"", trailer_extra: bytes = b"") -> bytes:
    """One page whose content stream object is ``contents``."""
    return document(
        [
            b"<< /Type /Catalog /Pages 2 0 R %s >>" % catalog_extra,
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
            contents,
        ],
        b"/Root 1 0 R " + trailer_extra,
    )


def zeros(inflated: int) -> bytes:
    """Flate data that inflates to ``inflated`` bytes (a whole number of MiB) of blanks,
    about 1,000 to 1. Each MiB is compressed once: after a full flush the compressor forgets
    what came before, so every MiB's block is the same bytes; the checksum is counted apart."""
    chunk = b" " * 2**20
    squeezer = zlib.compressobj(9)
    head = squeezer.compress(b"") + squeezer.flush(zlib.Z_SYNC_FLUSH)  # the zlib header
    block = squeezer.compress(chunk) + squeezer.flush(zlib.Z_FULL_FLUSH)
    count = inflated // len(chunk)
    checksum = 1
    for _ in range(count):
        checksum = zlib.adler32(chunk, checksum)
    end = zlib.compressobj(9, zlib.DEFLATED, -15).flush()  # an empty final block
    return head + block * count + end + checksum.to_bytes(4, "big")


def chained_bomb(inflated: int) -> bytes:
    """A page whose content is hex of Flate data: [/ASCIIHexDecode /FlateDecode]."""
    data = binascii.hexlify(zeros(inflated)) + b">"
    return one_page(stream(data, b"/Filter [/ASCIIHexDecode /FlateDecode]"))


def encrypted_bomb(inflated: int, password: str) -> bytes:
    """A page whose Flate content (encrypted with the file, RC4 128) inflates to ``inflated``."""
    writer = pypdf.PdfWriter()
    page = writer.add_blank_page(612, 792)
    content = StreamObject()
    content._data = zeros(inflated)
    content[NameObject("/Filter")] = NameObject("/FlateDecode")
    page[NameObject("/Contents")] = writer._add_object(content)
    writer.encrypt(password, algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def xref_bomb(entries: int = 10**8) -> bytes:
    """A cross-reference stream that claims ``entries`` entries and holds none (117 bytes)."""
    head = b"%PDF-1.5\n"
    xref = b"/Type/XRef/Size %d/W[1 1 1]/Root 1 0 R/Length 0" % entries
    body = b"1 0 obj<<%s>>stream\n\nendstream\nendobj\n" % xref
    return head + body + b"startxref\n%d\n%%%%EOF\n" % len(head)


def malformed() -> dict[str, bytes]:
    """Files whose structure is broken in the ways a parser trips over (each unreadable)."""
    page = stream(b"")
    return {
        "unknown encryption filter": one_page(
            page, trailer_extra=b"/Encrypt << /Filter /Nonsense /V 1 /R 2 >> /ID [<00><00>]"
        ),
        "encryption /V 9": one_page(
            page,
            trailer_extra=b"/Encrypt << /Filter /Standard /V 9 /R 9 /O <00> /U <00> /P -4 >> "
            b"/ID [<00><00>]",
        ),
        "encryption not a dictionary": one_page(page, trailer_extra=b"/Encrypt 42 /ID [<00><00>]"),
        "encryption a name": one_page(page, trailer_extra=b"/Encrypt /Standard"),
        "unknown crypt method": one_page(
            page,
            trailer_extra=b"/Encrypt << /Filter /Standard /V 4 /R 4 /Length 128 /O <00> /U <00> "
            b"/P -4 /CF << /StdCF << /CFM /Foo >> >> /StmF /StdCF /StrF /StdCF >> /ID [<00><00>]",
        ),
        "root not a dictionary": document([b"42"], b"/Root 1 0 R"),
        "root a name": document([b"<< >>"], b"/Root /Catalog"),
        "creation date garbage": one_page(
            page, trailer_extra=b"/Info << /CreationDate (D:99999999999999) >>"
        ),
        "modification date garbage": one_page(
            page, trailer_extra=b"/Info << /ModDate (D:2024134099+99'99') >>"
        ),
        "time zone garbage": one_page(
            page, trailer_extra=b"/Info << /CreationDate (D:20240101120000+25'00') >>"
        ),
    }


def with_active_content(statement: bytes, javascript: bool, attachment: bool) -> bytes:
    """``statement`` with a document-open JavaScript action and/or an embedded file (what an
    issuer's statement never carries)."""
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(statement)))
    for key in ("/Producer", "/Creator"):  # keep the issuer's fingerprint
        writer._info.get_object()[NameObject(key)] = pypdf.PdfReader(
            io.BytesIO(statement)
        ).metadata[key]
    if javascript:
        writer.add_js("app.alert('hello');")
    if attachment:
        writer.add_attachment("note.txt", b"hidden")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
