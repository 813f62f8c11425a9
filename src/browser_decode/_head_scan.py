"""Stage 3b: a ``<meta>`` beyond the first 1024 bytes, as Chromium finds it.

The HTML Standard lets the tree builder "change the encoding" when it meets a
``<meta>`` later on. Chromium's ``HTMLMetaCharsetParser`` makes that concrete
for the head: it tokenizes the document (so ``<script>``, ``<style>``,
``<title>`` and ``<textarea>`` contents and comments are skipped) and keeps
looking for a ``<meta>`` until it has read at least 1024 bytes *and* seen
something that ends the head (a tag other than ``script``, ``noscript``,
``style``, ``link``, ``meta``, ``object``, ``title``, ``base``, or the start
tags ``html`` and ``head``; or text that is not whitespace).

Strategy: this stage only runs when the prescan of the first 1024 bytes found
nothing. It never reads past :data:`HEAD_SCAN_LIMIT` bytes, so its cost is
bounded whatever the body; a ``<meta>`` that Chromium would still honour after
64 KiB of head content is not found (documented in docs/deviations.md).
"""

from __future__ import annotations

import re
from typing import Final

from ._hint import EncodingHint
from ._prescan import PRESCAN_LIMIT, _meta, _OutOfBytes, may_declare, skip_attributes

#: The most bytes the head scan reads.
HEAD_SCAN_LIMIT: Final = 64 * 1024

_TAG: Final = re.compile(rb"<(/?)([A-Za-z][^\t\n\x0c\r />]*)")
_WHITESPACE_ONLY: Final = re.compile(rb"[\t\n\x0c\r ]*")
# Elements whose content the tokenizer reads as text up to the matching end tag.
_RAW_TEXT: Final = frozenset(
    {b"script", b"style", b"title", b"textarea", b"xmp", b"noembed", b"noframes", b"iframe"}
)
_HEAD_ELEMENTS: Final = frozenset(
    {b"script", b"noscript", b"style", b"link", b"meta", b"object", b"title", b"base"}
)


def head_scan(body: bytes) -> EncodingHint | None:
    """Find a ``<meta>`` charset in the head beyond the 1024-byte prescan."""
    data = body[:HEAD_SCAN_LIMIT]
    if len(data) <= PRESCAN_LIMIT:
        return None  # the prescan has seen all of it
    if not may_declare(data):
        return None  # no <meta> in it can declare anything
    position = 0
    in_head = True
    try:
        while position < len(data):
            lt = data.find(b"<", position)
            end = len(data) if lt < 0 else lt
            if not _WHITESPACE_ONLY.fullmatch(data, position, end):
                in_head = False  # character data starts the body
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
                    in_head = False  # a lone "<" is text
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
