"""The prescan's and the head scan's tag loops as they were before their fast paths.

The straightforward loops, one Python step per token, with no pre-filter: the reference
that tests/test_fast_paths.py checks the token expressions of ``_prescan`` and
``_head_scan`` against (hypothesis). Each step follows the spec text quoted in those
modules; the attribute reading (``_meta``, ``skip_attributes``) is the modules' own,
itself checked against the byte loop in tests/test_prescan.py.
"""

from __future__ import annotations

import re

from browser_decode._hint import EncodingHint
from browser_decode._prescan import (
    _LETTERS,
    _SPACE_OR_GT_SEARCH,
    _SPACE_OR_SLASH,
    ENCODINGS,
    PRESCAN_LIMIT,
    Declaration,
    _byte,
    _meta,
    _OutOfBytes,
    get_an_xml_encoding,
    skip_attributes,
)

HEAD_SCAN_LIMIT = 64 * 1024
_TAG = re.compile(rb"<(/?)([A-Za-z][^\t\n\x0c\r />]*)")
_WHITESPACE_ONLY = re.compile(rb"[\t\n\x0c\r ]*")
_RAW_TEXT = frozenset(
    {b"script", b"style", b"title", b"textarea", b"xmp", b"noembed", b"noframes", b"iframe"}
)
_HEAD_ELEMENTS = frozenset(
    {b"script", b"noscript", b"style", b"link", b"meta", b"object", b"title", b"base"}
)


def scan(data: bytes) -> Declaration | None:
    """The prescan's loop; raises ``_OutOfBytes`` as ``_prescan._scan`` does."""
    position = 0
    if data.startswith(b"<\x00?\x00x\x00"):
        return Declaration(ENCODINGS["UTF-16LE"], "", 0)
    if data.startswith(b"\x00<\x00?\x00x"):
        return Declaration(ENCODINGS["UTF-16BE"], "", 0)
    length = len(data)
    while True:
        position = data.find(b"<", position)
        if position < 0 or position + 1 >= length:
            raise _OutOfBytes
        tag_start = position
        if data.startswith(b"<!--", position):
            end = data.find(b"-->", position + 2)
            if end < 0:
                raise _OutOfBytes
            position = end + 2
        elif (
            data[position + 1 : position + 5].lower() == b"meta"
            and _byte(data, position + 5) in _SPACE_OR_SLASH
        ):
            found, position = _meta(data, position + 5, tag_start)
            if found is not None:
                return found
        elif data[position + 1] in _LETTERS or (
            data[position + 1] == 0x2F and _byte(data, position + 2) in _LETTERS
        ):
            name_end = _SPACE_OR_GT_SEARCH.search(data, position + 1)
            if name_end is None:
                raise _OutOfBytes
            position = skip_attributes(data, name_end.start())
        elif data[position + 1] in b"!/?":
            position = data.find(b">", position + 1)
            if position < 0:
                raise _OutOfBytes
        position += 1


def prescan(data: bytes) -> Declaration | None:
    try:
        return scan(data)
    except _OutOfBytes:
        return get_an_xml_encoding(data)


def head_scan(body: bytes) -> EncodingHint | None:
    """The head scan's loop (Chromium's ``HTMLMetaCharsetParser``), bounded as the stage."""
    data = body[:HEAD_SCAN_LIMIT]
    if len(data) <= PRESCAN_LIMIT:
        return None
    position = 0
    in_head = True
    try:
        while position < len(data):
            lt = data.find(b"<", position)
            end = len(data) if lt < 0 else lt
            if not _WHITESPACE_ONLY.fullmatch(data, position, end):
                in_head = False
            if not in_head and end >= PRESCAN_LIMIT:
                return None
            if lt < 0:
                return None
            if data.startswith(b"<!--", lt):
                close = data.find(b"-->", lt + 4)
                if close < 0:
                    return None
                position = close + 3
                continue
            tag = _TAG.match(data, lt)
            if tag is None:
                if data[lt + 1 : lt + 2] in (b"!", b"?", b"/"):
                    close = data.find(b">", lt)
                    if close < 0:
                        return None
                    position = close + 1
                else:
                    in_head = False
                    position = lt + 1
                continue
            is_end, name = tag.group(1) == b"/", tag.group(2).lower()
            position = tag.end()
            if name == b"meta" and not is_end:
                found, position = _meta(data, position, lt)
                if found is not None:
                    return found.hint()
                position += 1
            else:
                position = skip_attributes(data, position) + 1
            if name in _RAW_TEXT and not is_end:
                end_tag = re.compile(rb"</" + re.escape(name), re.IGNORECASE).search(data, position)
                if end_tag is None:
                    return None
                position = end_tag.start()
            if name not in _HEAD_ELEMENTS and (is_end or name not in (b"html", b"head")):
                in_head = False
    except _OutOfBytes:
        return None
    return None
