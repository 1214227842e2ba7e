"""PDFs locked with a user password but an empty owner password ("permissions only" in
effect): pypdf and most readers open them without asking, PDFium does not. The user password
is recoverable from the file itself (PDF 1.7, 7.6.3.4, algorithm 7), so such a file opens as
the bank issued it, without asking the customer for a password nobody gave them."""

from __future__ import annotations

import io

from pypdf import PasswordType, PdfReader
from pypdf._crypt_providers import rc4_decrypt
from pypdf._encryption import AlgV4
from pypdf.errors import PyPdfError
from pypdf.generic import ByteStringObject, DictionaryObject, TextStringObject

_PADDING = bytes.fromhex("28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a")


def opens_without_password(reader: PdfReader) -> bool:
    return reader.decrypt("") != PasswordType.NOT_DECRYPTED


def user_password(data: bytes) -> str | None:
    """The user password of an RC4/AES-128 file whose owner password is empty, else None."""
    try:
        reader = PdfReader(io.BytesIO(data))
        if not reader.is_encrypted or not opens_without_password(reader):
            return None
        encrypt = reader.trailer["/Encrypt"].get_object()
        if not isinstance(encrypt, DictionaryObject):
            return None
        revision = int(str(encrypt["/R"]))
        if revision > 4:  # AES-256: no user password to recover; PDFium opens those itself
            return None
        owner = encrypt["/O"]
        if not isinstance(owner, (ByteStringObject, TextStringObject)):
            return None
        owner_entry = owner.original_bytes
        key = AlgV4.compute_O_value_key(b"", revision, int(str(encrypt.get("/Length", 40))))
        if revision == 2:
            padded = rc4_decrypt(key, owner_entry)
        else:
            padded = owner_entry
            for step in range(19, -1, -1):
                padded = rc4_decrypt(bytes(b ^ step for b in key), padded)
    except (PyPdfError, KeyError, ValueError, TypeError, AttributeError, NotImplementedError):
        return None
    for length in range(33):  # the password, then the standard padding's first bytes
        if padded[length:] == _PADDING[: 32 - length]:
            return padded[:length].decode("latin-1")
    return None
