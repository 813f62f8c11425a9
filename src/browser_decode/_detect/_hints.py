"""The caller's optional hints: a URL or top-level domain, and a default encoding.

Browsers fall back on an encoding chosen from the page's top-level domain
(Firefox) or the user's locale (all of them) when a page declares nothing.
We use the same tables, but only to shift the detector's priors and break its
ties: a hint never overrides strong evidence, and no hint is ever required.
"""

from __future__ import annotations

import re

from .._get_an_encoding import Encoding, get_encoding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

#: Country-code top-level domain -> the fallback encoding Firefox associates with
#: it (Firefox's ``dom/encoding/domainsfallbacks.properties``: "educated guesses
#: about which top-level domains are likely to host legacy content that assumes a
#: non-windows-1252 encoding"); every other domain gets windows-1252. Firefox's
#: "Big5-HKSCS" for .hk is the WHATWG Big5 encoding.
TLD_ENCODINGS: Final[dict[str, str]] = {
    **dict.fromkeys(
        [
            "ae",
            "af",
            "bh",
            "dz",
            "eg",
            "iq",
            "ir",
            "jo",
            "kw",
            "lb",
            "ma",
            "om",
            "ps",
            "qa",
            "sa",
            "sd",
            "sy",
            "tn",
            "ye",
        ],
        "windows-1256",
    ),
    **dict.fromkeys(
        ["bg", "by", "kg", "kz", "mk", "mn", "rs", "ru", "su", "tj", "ua", "uz"], "windows-1251"
    ),
    **dict.fromkeys(["cz", "hr", "sk"], "windows-1250"),
    **dict.fromkeys(["hu", "pl", "si"], "ISO-8859-2"),
    **dict.fromkeys(["ee", "lt", "lv"], "windows-1257"),
    **dict.fromkeys(["cn", "sg"], "GBK"),
    **dict.fromkeys(["hk", "mo", "tw"], "Big5"),
    **dict.fromkeys(["kp", "kr"], "EUC-KR"),
    "gr": "ISO-8859-7",
    "jp": "Shift_JIS",
    "th": "windows-874",
    "tr": "windows-1254",
    "vn": "windows-1258",
    # internationalized country-code TLDs (punycode), same table
    "xn--mgbaam7a8h": "windows-1256",
    "xn--lgbbat1ad8j": "windows-1256",
    "xn--wgbh1c": "windows-1256",
    "xn--mgba3a4f16a": "windows-1256",
    "xn--mgbayh7gpa": "windows-1256",
    "xn--mgbc0a9azcg": "windows-1256",
    "xn--mgbx4cd0ab": "windows-1256",
    "xn--mgb9awbf": "windows-1256",
    "xn--mgbai9azgqp6j": "windows-1256",
    "xn--ygbi2ammx": "windows-1256",
    "xn--wgbl6a": "windows-1256",
    "xn--mgberp4a5d4ar": "windows-1256",
    "xn--mgbpl2fh": "windows-1256",
    "xn--mgbtf8fl": "windows-1256",
    "xn--pgbs0dh": "windows-1256",
    "xn--mgb2ddes": "windows-1256",
    "xn--80ao21a": "windows-1251",
    "xn--l1acc": "windows-1251",
    "xn--90a3ac": "windows-1251",
    "xn--p1ai": "windows-1251",
    "xn--j1amh": "windows-1251",
    "xn--fiqs8s": "GBK",
    "xn--fiqz9s": "GBK",
    "xn--yfro4i67o": "GBK",
    "xn--j6w193g": "Big5",
    "xn--kprw13d": "Big5",
    "xn--kpry57d": "Big5",
    "xn--3e0b707e": "EUC-KR",
    "xn--o3cw4h": "windows-874",
}

#: "The user's locale" -> suggested default encoding: the table of the HTML
#: Standard (https://html.spec.whatwg.org/multipage/parsing.html#determining-the-character-encoding,
#: "derived from the intersection of Windows, Chrome, and Firefox defaults").
#: "All other locales" -> windows-1252. Documented for callers who know their
#: audience's language: ``default_encoding=LOCALE_ENCODINGS["ja"]``.
LOCALE_ENCODINGS: Final[dict[str, str]] = {
    "ar": "windows-1256", "az": "windows-1254", "ba": "windows-1251", "be": "windows-1251",
    "bg": "windows-1251", "cs": "windows-1250", "el": "ISO-8859-7", "et": "windows-1257",
    "fa": "windows-1256", "he": "windows-1255", "hr": "windows-1250", "hu": "ISO-8859-2",
    "ja": "Shift_JIS", "kk": "windows-1251", "ko": "EUC-KR", "ku": "windows-1254",
    "ky": "windows-1251", "lt": "windows-1257", "lv": "windows-1257", "mk": "windows-1251",
    "pl": "ISO-8859-2", "ru": "windows-1251", "sah": "windows-1251", "sk": "windows-1250",
    "sl": "ISO-8859-2", "sr": "windows-1251", "tg": "windows-1251", "th": "windows-874",
    "tr": "windows-1254", "tt": "windows-1251", "uk": "windows-1251", "vi": "windows-1258",
    "zh-CN": "gb18030", "zh-TW": "Big5",
}  # fmt: skip

#: Encodings a hint may not choose: the replacement decoder turns a whole body
#: into one U+FFFD, and no browser falls back on it.
_NEVER_DEFAULT: Final = frozenset({"replacement"})


def tld_of(url: str) -> str:
    """The last label of the host of *url*, lower-cased; *url* may be a bare TLD.

    >>> tld_of("https://www.example.co.jp/a?b"), tld_of(".RU"), tld_of("kr")
    ('jp', 'ru', 'kr')
    """
    text = url.strip()
    plain = _PLAIN_URL.match(text)
    if plain is not None:
        # (what urlsplit's hostname is for it: the network location, lower-cased, no
        # user information, port or bracket to take apart; ~2 us less a page)
        return plain[1].rstrip(".").rpartition(".")[2].lower()
    if "/" in text or ":" in text:
        from urllib.parse import urlsplit  # (on first use: it costs 3 ms of import time)

        try:
            host = urlsplit(text if "//" in text else "//" + text).hostname or ""
        except ValueError:
            host = ""
    else:
        host = text
    return host.rstrip(".").rpartition(".")[2].lower()


#: The commonest URL: http or https, then a host of ASCII letters, digits, "-" and "."
#: up to the path, query or fragment (or the end).
_PLAIN_URL: Final = re.compile(r"https?://([A-Za-z0-9.-]+)(?:[/?#]|\Z)")


def tld_encoding(url: str | None) -> Encoding | None:
    """The fallback encoding browsers associate with the top-level domain of *url*."""
    if not url:
        return None
    name = TLD_ENCODINGS.get(tld_of(url))
    return None if name is None else get_encoding(name)


def default_encoding_of(label: str | None) -> Encoding | None:
    """The encoding of the caller's *default_encoding* label; ``None`` if it is not one."""
    if label is None:
        return None
    encoding = get_encoding(label)
    if encoding is None or encoding.name in _NEVER_DEFAULT:
        return None
    return encoding
