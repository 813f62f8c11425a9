"""Stages 4 and 5: undeclared bodies. Valid UTF-8, then statistical detection.

Browsers never guess UTF-8 for undeclared http content; we do (a documented
deviation, docs/deviations.md): bytes that decode as UTF-8 without a single
error are almost never anything else. Otherwise charset-normalizer chooses
among WHATWG encodings only, and its Python codec name is mapped onto the
WHATWG encoding that browsers would use for that codec's bytes.
"""

from __future__ import annotations

import logging
from typing import Final

from ._get_an_encoding import ENCODINGS
from ._hint import EncodingHint
from ._result import Confidence, Source

logging.getLogger("charset_normalizer").addHandler(logging.NullHandler())

# ISO-2022-JP is 7-bit: its escape sequences make it look like valid UTF-8.
_ISO_2022_JP_ESCAPES: Final = (b"\x1b$B", b"\x1b$@", b"\x1b(J", b"\x1b(I")

#: Python codec name (as charset-normalizer spells it) -> WHATWG encoding name.
CODEC_TO_WHATWG: Final[dict[str, str]] = {
    "ascii": "windows-1252",
    "utf_8": "UTF-8",
    "utf_16": "UTF-16LE",
    "utf_16_le": "UTF-16LE",
    "utf_16_be": "UTF-16BE",
    "latin_1": "windows-1252",
    "cp1252": "windows-1252",
    "cp1250": "windows-1250",
    "cp1251": "windows-1251",
    "cp1253": "windows-1253",
    "cp1254": "windows-1254",
    "cp1255": "windows-1255",
    "cp1256": "windows-1256",
    "cp1257": "windows-1257",
    "cp1258": "windows-1258",
    "cp874": "windows-874",
    "tis_620": "windows-874",
    "iso8859_2": "ISO-8859-2",
    "iso8859_3": "ISO-8859-3",
    "iso8859_4": "ISO-8859-4",
    "iso8859_5": "ISO-8859-5",
    "iso8859_6": "ISO-8859-6",
    "iso8859_7": "ISO-8859-7",
    "iso8859_8": "ISO-8859-8",
    "iso8859_9": "windows-1254",
    "iso8859_10": "ISO-8859-10",
    "iso8859_11": "windows-874",
    "iso8859_13": "ISO-8859-13",
    "iso8859_14": "ISO-8859-14",
    "iso8859_15": "ISO-8859-15",
    "iso8859_16": "ISO-8859-16",
    "koi8_r": "KOI8-R",
    "koi8_u": "KOI8-U",
    "cp866": "IBM866",
    "mac_roman": "macintosh",
    "mac_cyrillic": "x-mac-cyrillic",
    "shift_jis": "Shift_JIS",
    "cp932": "Shift_JIS",
    "shift_jis_2004": "Shift_JIS",
    "shift_jisx0213": "Shift_JIS",
    "euc_jp": "EUC-JP",
    "euc_jis_2004": "EUC-JP",
    "euc_jisx0213": "EUC-JP",
    "iso2022_jp": "ISO-2022-JP",
    "gb2312": "GBK",
    "gbk": "GBK",
    "gb18030": "gb18030",
    "big5": "Big5",
    "big5hkscs": "Big5",
    "cp950": "Big5",
    "euc_kr": "EUC-KR",
    "cp949": "EUC-KR",
}


def valid_utf8(body: bytes) -> EncodingHint | None:
    """UTF-8 when the undeclared body decodes as UTF-8 without an error."""
    if b"\x1b" in body and any(esc in body for esc in _ISO_2022_JP_ESCAPES):
        return None  # 7-bit ISO-2022-JP: let detection decide
    if body.isascii():
        decoded = body.decode("ascii")
    else:
        try:
            decoded = body.decode("utf-8")
        except UnicodeDecodeError:
            return None
    return EncodingHint(ENCODINGS["UTF-8"], Source.UTF8, Confidence.TENTATIVE, decoded=decoded)


def detect(
    body: bytes, *, url: str | None = None, default_encoding: str | None = None
) -> EncodingHint | None:
    """charset-normalizer's best guess among WHATWG encodings, or ``None``.

    *url* (a URL or a bare top-level domain) and *default_encoding* (a label)
    are optional hints, as a browser's locale and TLD are; ``None`` when absent.
    """
    from charset_normalizer import from_bytes

    if b"\x1b" in body and any(esc in body for esc in _ISO_2022_JP_ESCAPES):
        return EncodingHint(
            ENCODINGS["ISO-2022-JP"], Source.DETECTED, Confidence.TENTATIVE, score=1.0
        )
    matches = from_bytes(body, cp_isolation=sorted(CODEC_TO_WHATWG))
    names = []
    for match in matches:
        name = CODEC_TO_WHATWG.get(match.encoding)
        if name is not None and name not in names:
            names.append(name)
    if not names:
        return None
    best = matches.best()
    score = None if best is None else round(1.0 - best.chaos, 3)
    return EncodingHint(
        ENCODINGS[names[0]],
        Source.DETECTED,
        Confidence.TENTATIVE,
        score=score,
        runner_up=names[1] if len(names) > 1 else None,
    )


def default(
    body: bytes, *, url: str | None = None, default_encoding: str | None = None
) -> EncodingHint:
    """The caller's default encoding if it is a label, else windows-1252 (browsers' default)."""
    if default_encoding is not None:
        from ._get_an_encoding import get_encoding

        encoding = get_encoding(default_encoding)
        if encoding is not None:
            return EncodingHint(
                encoding, Source.DEFAULT, Confidence.TENTATIVE, label=default_encoding
            )
    return EncodingHint(ENCODINGS["windows-1252"], Source.DEFAULT, Confidence.TENTATIVE)
