"""A decoded page as a UTF-8 document that every reader takes for UTF-8 (not a pipeline stage).

A decoded page still carries its old declaration: ``<meta charset="shift_jis">`` in UTF-8
bytes is read as mojibake by browsers, lxml, bs4 and ``decode_html`` alike. Two things make the
copy unambiguous, and :func:`to_utf8_document` does both:

1. **A UTF-8 byte order mark first.** It is the one signal every reader checks before anything
   else: "BOM sniffing ... takes precedence over everything, even the Content-Type header"
   (Encoding Standard, "decode": "Let BOMEncoding be the result of BOM sniffing ... If
   BOMEncoding is non-null: Set encoding to BOMEncoding"), and the HTML Standard's encoding
   sniffing algorithm starts with it ("1. If the result of BOM sniffing is an encoding, return
   that encoding with confidence certain"). So the copy stays UTF-8 even when a web server later
   sends it with a wrong ``charset``, which no ``<meta>`` can overrule, and for readers whose own
   declaration search is looser than a browser's (bs4 looks for ``charset=`` in any ``<meta>``
   of the first 2 KiB or 5%, lxml honours a ``<meta>`` anywhere). The BOM is not part of the text:
   every HTML, XML and WHATWG decoder removes it.
2. **The declarations rewritten to ``utf-8``**, for readers that ignore a BOM or that see the
   text without it (XML parsers reject a UTF-8 BOM followed by ``encoding="shift_jis"``): every
   ``<meta charset>`` and ``<meta http-equiv=content-type content="...charset=...">`` that the
   HTML prescan sees in the first 1024 bytes or that Chromium's head scan sees in the head, and
   the ``encoding`` of an XML declaration at byte 0. Only the label changes; the rest of the text
   is kept byte for byte, and nothing is inserted (so an undeclared page stays undeclared:
   the BOM speaks for it).
"""

from __future__ import annotations

import re

from .._head_scan import next_meta
from .._prescan import (
    _SPACE_OR_SLASH,
    PRESCAN_LIMIT,
    _OutOfBytes,
    extract_from_meta_content,
    get_an_attribute,
    prescan,
    skip_token,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

__all__ = ["to_utf8_document"]

_BOM: Final = b"\xef\xbb\xbf"
_UTF8_LABEL: Final = b"utf-8"
_SURROGATE: Final = re.compile("[\ud800-\udfff]")

Span = tuple[int, int]


def _needs_rewrite(label: bytes) -> bool:
    """Whether a declared label is other than ``utf-8`` / ``utf8`` (in any case).

    Other WHATWG labels of UTF-8 (``unicode-1-1-utf-8``, ``x-unicode20utf8``, ...) are rewritten
    too: Python's codecs and libxml2, which bs4 and lxml use, do not know them.
    """
    return label.strip(b"\t\n\x0c\r ").lower() not in (b"utf-8", b"utf8")


def _meta_spans(data: bytes, position: int) -> tuple[list[Span], int]:
    """The label spans of one ``<meta`` tag (*position* after ``<meta``), and where it ends.

    The attributes are read with the prescan's "get an attribute"; a ``content`` charset
    counts only with ``http-equiv=content-type``, as in the prescan ("If need pragma is true
    but got pragma is false, then jump to the step below labeled next byte").
    """
    spans: list[Span] = []
    content: list[Span] = []
    got_pragma = False
    while True:
        attribute, position = get_an_attribute(data, position)
        if attribute is None:
            break
        if attribute.name == "charset":
            spans.append((attribute.value_start, attribute.value_start + len(attribute.value)))
        elif attribute.name == "http-equiv":
            got_pragma = got_pragma or attribute.value == "content-type"
        elif attribute.name == "content":
            found = extract_from_meta_content(attribute.value)
            if found is not None:
                content.append((attribute.value_start + found[0], attribute.value_start + found[1]))
    return spans + content if got_pragma else spans, position


def _prescan_spans(data: bytes) -> list[Span]:
    """Every ``<meta>`` declaration the prescan's tokenization meets in the first 1024 bytes.

    The same loop as the prescan, except that it goes on after a declaration (a later one could
    be read by a reader that skipped the first).
    """
    spans: list[Span] = []
    position = 0
    try:
        while True:
            position = data.find(b"<", position, PRESCAN_LIMIT)
            if position < 0 or position + 1 >= len(data):
                return spans
            if (
                data[position + 1 : position + 5].lower() == b"meta"
                and position + 5 < len(data)
                and data[position + 5] in _SPACE_OR_SLASH
            ):
                found, position = _meta_spans(data, position + 5)
                spans.extend(found)
            else:
                position = skip_token(data, position)
            position += 1
    except _OutOfBytes:
        return spans


def _head_spans(data: bytes) -> list[Span]:
    """Every ``<meta>`` declaration in the head as Chromium's head scan tokenizes it.

    The walk of :func:`browser_decode._head_scan.head_scan` (``next_meta``), without its
    64 KiB bound (this runs once per written document, and a reader may honour a ``<meta>``
    further on).
    """
    spans: list[Span] = []
    position, in_head = 0, True
    try:
        while (tag := next_meta(data, position, in_head)) is not None:
            _, position, in_head = tag
            found, position = _meta_spans(data, position)
            spans.extend(found)
            position += 1
    except _OutOfBytes:
        return spans
    return spans


def _xml_declaration_span(data: bytes, end: int) -> Span | None:
    """The ``encoding`` value of an XML declaration at byte 0, looked for before *end*.

    Read as the HTML Standard's "get an XML encoding" reads it: "Set encodingPosition to the
    position of the first occurrence of the subsequence of bytes ... (`encoding`) at or after
    the current encodingPosition", then ``=``, a quote, and the label up to the same quote.
    """
    if not data.startswith(b"<?xml") or data.find(b">") < 0:
        return None
    position = data.find(b"encoding", 0, end)
    if position < 0:
        return None
    position += 8
    while position < end and data[position] <= 0x20:
        position += 1
    if position >= end or data[position] != 0x3D:
        return None
    position += 1
    while position < end and data[position] <= 0x20:
        position += 1
    if position >= end or data[position] not in (0x22, 0x27):
        return None
    close = data.find(data[position : position + 1], position + 1, end)
    return None if close < 0 else (position + 1, close)


def _declaration_spans(data: bytes) -> list[Span]:
    spans = set(_prescan_spans(data)) | set(_head_spans(data))
    # An XML reader reads the declaration itself: "XMLDecl ::= '<?xml' VersionInfo
    # EncodingDecl? SDDecl? S? '?>'" (XML 1.0, 2.8), which ends at its first ">".
    xml = _xml_declaration_span(data, data.find(b">"))
    if xml is not None:
        spans.add(xml)
    # The HTML prescan, when it runs out of bytes, applies "get an XML encoding" to the first
    # 1024 bytes, where it finds `encoding` even after the declaration's ">": rewrite the label
    # exactly when the prescan would act on it.
    found = prescan(data[:PRESCAN_LIMIT])
    if found is not None and found.offset == 0 and data.startswith(b"<?xml"):
        html_xml = _xml_declaration_span(data, min(len(data), PRESCAN_LIMIT))
        if html_xml is not None:
            spans.add(html_xml)
    chosen: list[Span] = []
    for start, end in sorted(spans):
        # Two tokenizations could in theory cut one tag differently; keep disjoint spans only.
        if (not chosen or start >= chosen[-1][1]) and _needs_rewrite(data[start:end]):
            chosen.append((start, end))
    return chosen


def to_utf8_document(text: str, *, bom: bool = True) -> bytes:
    """*text* (a decoded page) as UTF-8 bytes that browsers, parsers and ``decode_html`` read back.

    Every encoding declaration a reader may act on is rewritten to ``utf-8``: ``<meta
    charset>`` and ``<meta http-equiv=content-type>`` in the first 1024 bytes (the HTML
    prescan) and in the head (Chromium's head scan), and the ``encoding`` of an XML declaration
    at the start. Nothing else in the text changes. With *bom* (the default) the bytes start
    with a UTF-8 byte order mark, which every HTML and XML reader obeys before any declaration
    and even before a server's ``charset``; pass ``bom=False`` for bodies that must not have one
    (JSON: "Implementations MUST NOT add a byte order mark", RFC 8259). A text that itself
    starts with U+FEFF always gets the BOM, or a reader would take its U+FEFF for one.

    Lone surrogates (impossible in a decoded page) become U+FFFD, as the Encoding Standard's
    UTF-8 encoder sees them ("convert to a scalar value string"). Raises :class:`TypeError`
    when *text* is not a ``str``.

    >>> to_utf8_document('<meta charset="shift_jis"><p>東京</p>', bom=False).decode()
    '<meta charset="utf-8"><p>東京</p>'
    """
    if not isinstance(text, str):
        raise TypeError(
            f"to_utf8_document() takes the decoded text (str), not {type(text).__name__}; "
            "decode the body first, e.g. decode_html(body, content_type).text"
        )
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = _SURROGATE.sub("\ufffd", text).encode("utf-8")
    spans = _declaration_spans(data)
    if spans:
        pieces: list[bytes] = []
        last = 0
        for start, end in spans:
            pieces += (data[last:start], _UTF8_LABEL)
            last = end
        pieces.append(data[last:])
        data = b"".join(pieces)
    if bom or data.startswith(_BOM):
        return _BOM + data
    return data


# Public in browser_decode, which imports this module on first use: reprs and pickles
# name the package, as for the names it imports at once.
for _public in (to_utf8_document,):
    _public.__module__ = "browser_decode"
del _public
