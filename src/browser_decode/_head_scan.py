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

import functools
import re

from ._hint import EncodingHint
from ._prescan import (
    _BOGUS_TOKEN,
    ATOMIC,
    ATTRIBUTES_TOKEN,
    NO_CHARSET_META_TOKEN,
    PRESCAN_LIMIT,
    Declaration,
    _OutOfBytes,
    compiled_once,
    may_declare,
    meta_tag,
    skip_attributes,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

#: The most bytes the head scan reads.
HEAD_SCAN_LIMIT: Final = 64 * 1024

_TAG: Final = re.compile(rb"<(/?)([A-Za-z][^\t\n\x0c\r />]*)")
#: A ``<meta`` start tag as :data:`_TAG` reads it (its name ends there, or the bytes do).
_META_START: Final = re.compile(rb"<(?i:meta)(?:[\t\n\x0c\r />]|\Z)")
_WHITESPACE_ONLY: Final = re.compile(rb"[\t\n\x0c\r ]*")
# Elements whose content the tokenizer reads as text up to the matching end tag.
_RAW_TEXT: Final = frozenset(
    {b"script", b"style", b"title", b"textarea", b"xmp", b"noembed", b"noframes", b"iframe"}
)
_HEAD_ELEMENTS: Final = frozenset(
    {b"script", b"noscript", b"style", b"link", b"meta", b"object", b"title", b"base"}
)

# The tokens of the loop in :func:`next_meta` in one C call (as the prescan's, see
# ``_prescan._PRESCAN_TOKENS_PATTERN``: each alternative consumes a whole token exactly as one
# step of the loop does, or fails). A tag name ends at the first space, "/" or ">".
_NAME_END: Final = rb"(?=[\t\n\x0c\r />])"
_COMMENT: Final = rb"<!--(?s:.*?)-->"  # (the "-->" is looked for after the "<!--")


def _raw_text(names: bytes) -> bytes:
    """Start tags of raw text elements and their text, up to the "</name" that ends it."""
    return b"|".join(
        rb"<(?i:"
        + name
        + rb")"
        + _NAME_END
        + ATTRIBUTES_TOKEN
        # "</name" in any case, as the loop's search: the text is the rest
        + ATOMIC
        + rb"[^<]*(?:<(?!/(?i:"
        + name
        + rb"))[^<]*)*)(?=</(?i:"
        + name
        + rb"))"
        for name in names.split(b"|")
    )


#: The alternatives both expressions have: comments, "<!"/"</"/"<?" tokens, a ``<meta>``
#: that cannot declare, and the raw text elements of a head with their text.
_SHARED_TOKENS: Final = (
    _COMMENT
    + rb"|"
    + _BOGUS_TOKEN
    + rb"|<"
    + NO_CHARSET_META_TOKEN
    + rb"|"
    + _raw_text(b"script|style|title")
)
#: The tokens that keep the head open (whitespace, comments, the head's elements and the
#: start tags ``html`` and ``head``), except a ``<meta>`` that may declare.
_IN_HEAD_PATTERN: Final = (
    rb"(?:[\t\n\x0c\r ]+|"
    + _SHARED_TOKENS
    + rb"|<(?i:noscript|link|object|base|html|head)"
    + _NAME_END
    + ATTRIBUTES_TOKEN
    + rb"|</(?i:script|noscript|style|link|meta|object|title|base)"
    + _NAME_END
    + ATTRIBUTES_TOKEN
    + rb")*"
)
#: Any token but a ``<meta>`` that may declare (the start tags of the raw text elements
#: that pages put in a body are left to the loop).
_ANY_PATTERN: Final = (
    rb"(?:[^<]+|<(?=[^A-Za-z!/?])|"
    + _SHARED_TOKENS
    + rb"|</[A-Za-z][^\t\n\x0c\r />]*"
    + _NAME_END
    + ATTRIBUTES_TOKEN
    + rb"|<(?!(?i:meta|script|style|title|textarea|xmp|noembed|noframes|iframe)"
    + _NAME_END
    + rb")[A-Za-z][^\t\n\x0c\r />]*"
    + _NAME_END
    + ATTRIBUTES_TOKEN
    + rb")*"
)


@functools.cache
def _token_expressions() -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    """The two token expressions, compiled on first use (about 4 ms: not at import)."""
    return re.compile(_IN_HEAD_PATTERN), re.compile(_ANY_PATTERN)


#: A token that ends the head where the head's tokens end: non-whitespace text,
#: ``</head>`` or a ``<body>`` start tag (as in :func:`next_meta`'s loop: neither is a
#: head element).
_HEAD_END: Final = (
    rb"</(?i:head)>|<(?i:body)" + _NAME_END + ATTRIBUTES_TOKEN + rb"|(?=[^<\t\n\x0c\r ])"
)
#: The tokens of the head that :func:`next_meta`'s walk passes over, then (group 1, if it
#: comes) one that ends the head. In an atomic group, so that the match cannot take
#: other tokens than the loop's (where the head does not end after the tokens matched,
#: the loop goes on from the last of them, in the head); where ``re`` has none, not used.
_HEAD_THEN_END_PATTERN: Final = ATOMIC + _IN_HEAD_PATTERN + rb")(" + _HEAD_END + rb")?"
#: The same where no ``<meta>`` can declare (the bytes matched hold no "charset"): every
#: ``<meta>`` is a head element like another (:func:`_meta` finds nothing in it, and it
#: ends where its attributes do), in fewer steps.
_CLEAR_HEAD_THEN_END_PATTERN: Final = _HEAD_THEN_END_PATTERN.replace(
    rb"|<" + NO_CHARSET_META_TOKEN + rb"|",
    rb"|<(?i:meta)" + _NAME_END + ATTRIBUTES_TOKEN + rb"|",
)


def _head_then_end() -> list[re.Pattern[bytes]]:
    """:data:`_CLEAR_HEAD_THEN_END_PATTERN` and :data:`_HEAD_THEN_END_PATTERN`, compiled
    on first use (3.11+; none before)."""
    if ATOMIC == b"(?>":
        return compiled_once(_COMPILED, _CLEAR_HEAD_THEN_END_PATTERN, _HEAD_THEN_END_PATTERN)
    return _COMPILED  # pragma: no cover - Python 3.10


#: The compiled expressions of :func:`_head_then_end` once used (a list, not
#: ``functools.cache``: a cache hit costs microseconds when the CPU caches are cold).
_COMPILED: Final[list[re.Pattern[bytes]]] = []


#: Past this many bytes, the scan first checks that "charset" is still ahead at all.
_CHECK_AT: Final = 4096
#: The same where the head scan walks a body in place (see head_scan).
_IN_PLACE_CHECK_AT: Final = 16384
#: The head scan reads this much first (most heads end before), all of its bytes only
#: when that runs out.
_FIRST_PART: Final = 8192


def next_meta(
    data: bytes, position: int, in_head: bool, complete: bool = True, check_at: int = _CHECK_AT
) -> tuple[int, int, bool] | None:
    """The next ``<meta`` start tag that Chromium's head scan reaches from *position*.

    ``(lt, after, in_head)``: where the tag starts, where its name ends (the caller reads
    its attributes and resumes after its ">", with *in_head* as returned), and whether
    the head is still open; ``None`` when the scan ends first (the head has ended and
    1024 bytes are read). Raises ``_OutOfBytes`` when the bytes run out first: then the
    walk over more bytes (*data* is a prefix of them unless *complete*) goes on as the
    walk over all of them. The head scan and ``to_utf8_document`` share this walk. A
    ``<meta>`` that cannot declare an encoding (no "charset" in its bytes, see
    ``_prescan.may_declare``) may be passed over. Past *check_at* bytes of complete
    data, the walk first checks that "charset" is still ahead.
    """
    in_head_tokens, any_tokens = _token_expressions()
    length = len(data)
    check = complete and length > check_at
    while position < length:
        if check and position >= check_at:
            # A long head: is there a "charset" ahead at all? (one C-level search)
            if not may_declare(data[position:]):
                return None
            check = False
        if in_head:
            end = check_at if check else length
            position = in_head_tokens.match(data, position, end).end()  # type: ignore[union-attr]
        elif position < PRESCAN_LIMIT:
            # The scan ends at the first "<" at or after byte 1024 (below): a <meta> it
            # returns from here on starts with "<meta" (any case) before it.
            if (complete or length >= PRESCAN_LIMIT + 4) and data[
                position : PRESCAN_LIMIT + 4
            ].lower().find(b"<meta") < 0:
                return None
            position = any_tokens.match(data, position, PRESCAN_LIMIT).end()  # type: ignore[union-attr]
        if position >= length:
            break
        lt = data.find(b"<", position)
        end = length if lt < 0 else lt
        if not _WHITESPACE_ONLY.fullmatch(data, position, end):
            in_head = False  # character data starts the body
        if not in_head and end >= PRESCAN_LIMIT:
            # (also when the bytes ran out: more of them would not change this)
            return None
        if lt < 0:
            break
        if data.startswith(b"<!--", lt):
            close = data.find(b"-->", lt + 4)
            if close < 0:
                break
            position = close + 3
            continue
        tag = _TAG.match(data, lt)
        if tag is None:
            if data[lt + 1 : lt + 2] in (b"!", b"?", b"/"):
                close = data.find(b">", lt)
                if close < 0:
                    break
                position = close + 1
            elif lt + 1 >= length:
                break  # (a "<" at the end: a tag may follow)
            else:
                in_head = False  # a lone "<" is text
                position = lt + 1
            continue
        is_end, name = tag.group(1) == b"/", tag.group(2).lower()
        position = tag.end()
        if name == b"meta" and not is_end:
            return lt, position, in_head  # (a head element: in_head stays)
        position = skip_attributes(data, position) + 1
        if name in _RAW_TEXT and not is_end:
            end_tag = re.compile(rb"</" + re.escape(name), re.IGNORECASE).search(data, position)
            if end_tag is None:
                break
            position = end_tag.start()
        if name not in _HEAD_ELEMENTS and (is_end or name not in (b"html", b"head")):
            in_head = False
    raise _OutOfBytes


def head_scan(
    body: bytes, clear: bool = False, lowered: bytes | None = None
) -> EncodingHint | None:
    """Find a ``<meta>`` charset in the head beyond the 1024-byte prescan (arguments as
    :func:`head_scan_declaration`'s)."""
    found = head_scan_declaration(body, clear, lowered)
    return None if found is None else found.hint()


def head_scan_declaration(
    body: bytes, clear: bool = False, lowered: bytes | None = None
) -> Declaration | None:
    """The ``<meta>`` declaration that :func:`head_scan` finds, or ``None``.

    *clear*: the caller knows that the first :data:`PRESCAN_LIMIT` bytes hold no
    "charset" in any case (``_prescan.may_declare`` is false for them). *lowered*: the
    first ``PRESCAN_LIMIT + 4`` bytes of *body* lower-cased, if the caller has them.
    """
    if len(body) <= PRESCAN_LIMIT:
        return None  # the prescan has seen all of it
    # A body of at most HEAD_SCAN_LIMIT bytes is walked in place, its look for "charset"
    # ahead (next_meta) not before 16 KiB: that look costs about what the walk over a
    # long head does (mostly in C), and most heads end soon after 4 KiB. A larger body:
    # the first part, then (if the walk runs out of bytes in it) the same step again
    # over every byte the scan may read: the walk only reads forward, so both agree on
    # whatever the first part settles.
    large = len(body) > HEAD_SCAN_LIMIT
    check_at = _CHECK_AT if large else _IN_PLACE_CHECK_AT
    position, in_head = 0, True
    first: tuple[int, int, bool] | None = None
    expressions = _COMPILED or _head_then_end()
    if expressions:
        # The head's tokens in one match, then the token that ends the head, if it comes.
        # Once the head has ended, the loop looks for "<meta" up to byte 1024 + 4 and
        # ends at the first "<" from byte 1024 on (see next_meta): where no "<meta" is
        # there, nothing declares. Else the walk starts where the head's tokens end.
        ended = None
        if clear:
            # The commonest undeclared page: its head ends before byte 1024 (where no
            # <meta> can declare), and no <meta> comes after it there.
            ended = expressions[0].match(body, 0, PRESCAN_LIMIT)
            if ended is not None and ended.start(1) < 0:
                position, ended = ended.end(), None
        if ended is None:
            # (as far as the walk's first step reads: see below)
            stop = _FIRST_PART if large else min(len(body), check_at)
            ended = expressions[1].match(body, position, stop)
        assert ended is not None  # (every part of them may match nothing)
        if ended.start(1) >= 0:
            if lowered is None:
                lowered = body[: PRESCAN_LIMIT + 4].lower()
            if lowered.find(b"<meta", ended.end()) < 0:
                return None
            position = ended.start(1)
        else:
            position = ended.end()
            if _META_START.match(body, position, _FIRST_PART if large else len(body)):
                # The head's tokens end at a <meta> that may declare: the walk's first
                # step from there returns it (no token of the expressions matches there).
                first = (position, position + 5, True)
    data = body[:_FIRST_PART] if large else body
    complete = not large
    while True:
        try:
            tag = first or next_meta(data, position, in_head, complete, check_at)
            first = None
            if tag is None:
                return None
            lt, after, in_head_after = tag
            found, end = meta_tag(data, lt, after)
        except _OutOfBytes:
            if complete:
                return None
            data, complete = body[:HEAD_SCAN_LIMIT], True
            continue
        if found is not None:
            return found
        position, in_head = end + 1, in_head_after
