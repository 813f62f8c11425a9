"""Bounded samples of a body, and the cheap pre-filters run on them.

Detection never reads more than :data:`WHOLE` bytes of a body: a larger one is
represented by its head, a piece of its middle and its tail, cut at a newline
(or a space or ``<``) so that no multi-byte character is split: none of them
is ever the second, third or fourth byte of a character in an ASCII-compatible
WHATWG encoding (those bytes are 0x30-0x39 in gb18030's four-byte sequences,
0x40 and above everywhere else).
"""

from __future__ import annotations

import re
import unicodedata
from itertools import accumulate, chain, compress, count, islice, repeat
from operator import add, and_

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

WHOLE: Final = 64 * 1024
HEAD: Final = 32 * 1024
PIECE: Final = 12 * 1024
#: UTF-16 is recognised from the first bytes alone.
UTF16_HEAD: Final = 4096
#: When the sample is all ASCII, the body is searched for non-ASCII text up to
#: this offset (in pieces of :data:`WHOLE` bytes), never further.
SCAN_LIMIT: Final = 1024 * 1024
#: Enough non-ASCII bytes for statistics; more only costs time.
MAX_HIGH_BYTES: Final = 512
MAX_CONTEXTS: Final = 128
_WORDS_HEAD: Final = 8 * 1024
#: The sample is trimmed at a boundary in the step where :data:`MAX_HIGH_BYTES` is reached:
#: 256 bytes keep dense CJK text near that count (1 KiB steps kept up to twice as many; the
#: accuracy on the validation corpus is the same either way, docs/detection.md).
_STEP: Final = 256

_ASCII: Final = bytes(range(0x80))
_HIGH: Final = re.compile(rb"[\x80-\xff]")
#: Bytes that no multi-byte character continues with: the place before one is a
#: character boundary in every ASCII-compatible WHATWG encoding.
_SAFE_CUT: Final = re.compile(rb"[\x00-\x2f]")

#: ``bytes.translate`` table: markup characters and ASCII whitespace (what ``bytes.split()``
#: splits at) -> space, so that tags are not part of the words of the text ("<p>Sch\xf6ne"
#: is the word "Sch\xf6ne") and a space alone separates words.
_SEPARATORS_TO_SPACE: Final = bytes(
    0x20 if chr(b) in '<>/=" \t\n\r\x0b\x0c' else b for b in range(256)
)
#: The ASCII bytes of words (not separators): deleted, they leave each word that holds a
#: byte 0x80-0xFF as those bytes, and nothing of the others.
_WORD_ASCII: Final = bytes(b for b in range(0x80) if _SEPARATORS_TO_SPACE[b] != 0x20)
#: ``bytes.translate`` table: bytes 0x80-0xFF -> 0x80, others -> 0.
_HIGH_TO_0X80: Final = bytes(0 if b < 0x80 else 0x80 for b in range(256))
#: The blocks in which :func:`first_high` looks for a byte 0x80-0xFF (``isascii`` each).
_ASCII_BLOCK: Final = 1024
#: ``bytes.translate`` table and deleted bytes of :func:`words_around`'s indices: spaces
#: -> ``x``, bytes 0x80-0xFF -> space, the other ASCII bytes deleted.
_GAPS: Final = bytes(ord("x") if b == 0x20 else 0x20 if b >= 0x80 else b for b in range(256))
_ASCII_BUT_SPACE: Final = bytes(b for b in range(0x80) if b != 0x20)
_ISO_2022_JP_ESCAPES: Final = (b"\x1b$B", b"\x1b$@", b"\x1b(J", b"\x1b(I")
_BAD_UTF16: Final = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufffd]")
_UTF8_FFFD: Final = b"\xef\xbf\xbd"
_CJK_HIGH: Final = frozenset((*range(0x30, 0xA0), *range(0xAC, 0xD8)))
_NOT_CJK_HIGH: Final = bytes(b for b in range(256) if b not in _CJK_HIGH)
_UTF8_CLASSES: Final = bytes(
    ord("c") if 0x80 <= b <= 0xBF else ord("l") if 0xC2 <= b <= 0xF4 else 0x20 for b in range(256)
)
#: ``bytes.translate`` table: lead bytes of three and four bytes -> ``3``, ``4``.
_UTF8_LONG_LEADS: Final = bytes(
    ord("3") if 0xE0 <= b <= 0xEF else ord("4") if 0xF0 <= b <= 0xF4 else 0x20 for b in range(256)
)


#: ``position & _FOUND`` is *position* when it is one (>= 0, any body's), large when it is
#: -1 (``find`` found nothing): the first of several places is their ``min`` at once.
_FOUND: Final = (1 << 62) - 1


def _start_after_boundary(body: bytes, start: int, limit: int) -> int:
    """After the first boundary (newline, space or ``<``) in ``body[start:limit]``, else *start*."""
    find = body.find
    found = min(
        find(b"\n", start, limit) & _FOUND,
        find(b" ", start, limit) & _FOUND,
        find(b"<", start, limit) & _FOUND,
    )
    return start if found == _FOUND else found + 1


def _end_before_boundary(body: bytes, start: int, end: int) -> int:
    """At the last boundary (newline, space or ``<``) in ``body[start:end]``, else *end*."""
    rfind = body.rfind
    found = max(rfind(b"\n", start, end), rfind(b" ", start, end), rfind(b"<", start, end))
    return end if found < 0 else found


def sample(body: bytes) -> bytes:
    """*body* itself up to :data:`WHOLE` bytes, else its head, middle and tail."""
    ranges = sample_ranges(body)
    if len(ranges) == 1:
        return body
    return b"\n".join([body[start:end] for start, end in ranges])


def sample_ranges(body: bytes) -> tuple[tuple[int, int], ...]:
    """Where the pieces of :func:`sample` lie in *body*: ``(start, end)`` of each
    (the sample is them joined by newlines), without copying a byte."""
    size = len(body)
    if size <= WHOLE:
        return ((0, size),)
    # (the middle and tail pieces start after a boundary and end at one)
    middle = size // 2
    start = _start_after_boundary(body, middle, middle + PIECE)
    middle_end = _end_before_boundary(body, start, middle + PIECE)
    tail = _start_after_boundary(body, size - PIECE, size)
    return (
        (0, _end_before_boundary(body, 0, HEAD)),
        (start, middle_end),
        (tail, _end_before_boundary(body, tail, size)),
    )


def sample_size(ranges: tuple[tuple[int, int], ...]) -> int:
    """The length of the sample whose pieces lie at *ranges*."""
    return sum(end - start for start, end in ranges) + len(ranges) - 1


def in_sample(body: bytes, ranges: tuple[tuple[int, int], ...], byte: bytes) -> bool:
    """Whether *byte* (one byte, not a newline) is in the sample of *body* whose pieces
    lie at *ranges* (``bytes.find`` in each: ``memchr``, no copy)."""
    return any(body.find(byte, start, end) >= 0 for start, end in ranges)


def high_bytes(data: bytes) -> bytes:
    """The bytes 0x80-0xFF of *data*, in order."""
    return data.translate(None, _ASCII)


def non_ascii_piece(body: bytes) -> bytes:
    """A piece of *body* around its first byte 0x80-0xFF, if that lies before :data:`SCAN_LIMIT`.

    For a body whose sample is all ASCII: :data:`WHOLE` bytes from :data:`HEAD`
    bytes before that byte, cut at boundaries, so that the text it belongs to is
    scored with its context. Empty when the first :data:`SCAN_LIMIT` bytes are ASCII.
    """
    found = _HIGH.search(body, 0, SCAN_LIMIT)
    if found is None:
        return b""
    start = max(found.start() - HEAD, 0)
    end = min(start + WHOLE, len(body))
    if start:
        start = _start_after_boundary(body, start, found.start())
    if end < len(body):
        end = max(_end_before_boundary(body, found.start() + 1, end), found.start() + 1)
    return body[start:end]


def trim(data: bytes, high: bytes) -> tuple[bytes, bytes]:
    """*data* and its *high* bytes, cut (at a boundary) after about :data:`MAX_HIGH_BYTES`.

    The plain definition (:func:`trim_sample` computes the same with fewer steps): the
    bytes 0x80-0xFF are counted in steps of :data:`_STEP` bytes from the start; *data*
    holding more than ``MAX_HIGH_BYTES * 5 // 4`` of them is cut in the first full step
    (one that ends before the end of *data*) where the count reaches
    :data:`MAX_HIGH_BYTES`.
    """
    if len(high) <= MAX_HIGH_BYTES * 5 // 4:
        return data, high
    seen = 0
    for end in range(_STEP, len(data), _STEP):
        seen += len(data[end - _STEP : end].translate(None, _ASCII))
        if seen >= MAX_HIGH_BYTES:
            found = _cut(data, end)
            assert found is not None  # (all of the data is there)
            return found
    return data, high


def _cut(
    data: bytes, end: int, readable: int | None = None, before: bytes | None = None
) -> tuple[bytes, bytes] | None:
    """*data* cut at a boundary in the step that ends at *end*, and its bytes 0x80-0xFF
    (``None`` when only its first *readable* bytes are the sample's and the cut lies
    past them). *before*: the bytes 0x80-0xFF of ``data[:end - _STEP]`` when known."""
    at = _end_before_boundary(data, end - _STEP, end)
    cut = data[:at]
    if before is None:
        kept = cut.translate(None, _ASCII)
    else:
        kept = before + data[end - _STEP : at].translate(None, _ASCII)
    if len(kept) < MAX_HIGH_BYTES // 2:
        # text without spaces (CJK): cut at the next boundary instead
        if readable is None:
            after = _SAFE_CUT.search(data, end)
        else:
            after = _SAFE_CUT.search(data, end, readable)
            if after is None:
                return None
        cut = data[: after.start()] if after else data
        kept = cut.translate(None, _ASCII)
    return cut, kept


def trim_sample(data: bytes) -> tuple[bytes, bytes]:
    """``trim(data, high_bytes(data))``, reading only as far as it needs to.

    The bytes 0x80-0xFF are counted from the start: once :data:`MAX_HIGH_BYTES` of
    them are found, the rest of *data* is read only until it is clear that *data*
    holds more than ``MAX_HIGH_BYTES * 5 // 4`` of them (else nothing is cut). Dense
    text is cut after a few KiB, never having translated the rest of its 64 KiB sample.
    """
    found = trim_prefix(data, len(data), len(data))
    assert found is not None  # (all of the sample is there)
    return found


#: :func:`trim_prefix` counts sparse text in blocks of up to this many bytes (a multiple
#: of :data:`_STEP`): one ``translate`` each, then steps of :data:`_STEP` in the block
#: where the count reaches :data:`MAX_HIGH_BYTES`.
_COUNT_BLOCK: Final = 8 * _STEP


def trim_prefix(data: bytes, size: int, readable: int) -> tuple[bytes, bytes] | None:
    """:func:`trim_sample` of a sample of *size* bytes whose first *readable* bytes are
    those of *data*, when they decide it (dense text is cut after a few KiB); else
    ``None``. (The sample of a large body starts with the body's head: no copy.) When
    *readable* is *size* or more, *data* is the whole sample.

    :func:`trim`'s steps, counted in blocks where the text is sparse: the steps it
    counts end before *size* (and within *readable*); the one where the count reaches
    :data:`MAX_HIGH_BYTES` is found in the first block whose count reaches it, by its
    steps (the same counts, fewer calls). The rest is counted only until it holds more
    than ``MAX_HIGH_BYTES * 5 // 4`` (then the sample is cut there), else to its end:
    all of it when *data* is the whole sample (nothing is cut), the full steps within
    *readable* otherwise (the bytes past them decide: ``None``). The bytes 0x80-0xFF
    counted are kept, so that those of the sample or of the cut are not counted again.
    """
    whole = readable >= size
    # the ends of the steps counted: multiples of _STEP before size (within readable)
    last = (size - 1) // _STEP * _STEP
    top = last if whole else min(last, readable // _STEP * _STEP)
    parts: list[bytes] = []  # the bytes 0x80-0xFF of data[:end] (end: where counting is)
    seen = 0
    end = 0
    while end < top:
        # (a step where the bytes 0x80-0xFF are dense, a quarter and more: few steps reach
        # the limits; else a block as long as what was read, up to _COUNT_BLOCK: an
        # ASCII head before dense text costs no long block to step through again)
        stop = end + _STEP if seen * 4 >= end else end + min(end, _COUNT_BLOCK)
        if stop > top:
            stop = top
        high = data[end:stop].translate(None, _ASCII)
        if seen + len(high) < MAX_HIGH_BYTES or stop - end == _STEP:
            parts.append(high)
            seen += len(high)
            end = stop
            if seen < MAX_HIGH_BYTES:
                continue
            break
        # (a block reaches it: the step that does, each step counted as trim counts it)
        while seen < MAX_HIGH_BYTES:
            end += _STEP
            high = data[end - _STEP : end].translate(None, _ASCII)
            parts.append(high)
            seen += len(high)
        break
    else:
        # (no step reaches MAX_HIGH_BYTES: nothing is cut)
        return (data, b"".join(parts) + data[top:].translate(None, _ASCII)) if whole else None
    # Is there more than the limit? Counted up to where trim_sample would read.
    limit = MAX_HIGH_BYTES * 5 // 4
    steps = len(parts)  # (parts[:steps - 1]: the bytes 0x80-0xFF of data[:end - _STEP])
    stop = len(data) if whole else readable // _STEP * _STEP
    total = seen
    at = end
    while total <= limit and at < stop:
        more = at + _STEP if total * 4 >= at else at + _COUNT_BLOCK
        if more > stop:
            more = stop
        high = data[at:more].translate(None, _ASCII)
        parts.append(high)
        total += len(high)
        at = more
    if total <= limit:
        return (data, b"".join(parts)) if whole else None
    return _cut(data, end, None if whole else readable, b"".join(parts[: steps - 1]))


def words_around(data: bytes, first: int | None = None) -> bytes:
    """The words of *data* that hold a byte 0x80-0xFF, each with its neighbours.

    At most :data:`MAX_CONTEXTS` of them, each as ``previous word, word, next
    word``, joined by spaces: the text where the candidates disagree, without
    the markup far from it (which says nothing about the language of the text).
    Words are separated by whitespace and markup characters (``<>/="``). They are
    those of the first :data:`_WORDS_HEAD` bytes when these hold at least
    ``MAX_CONTEXTS // 4`` such words, else those of all of *data*.

    The plain computation splits all the words and picks those that are not ASCII
    (tests/test_sample_fast_paths.py keeps it); this one gives the same bytes with
    fewer Python-level steps. Deleting the ASCII bytes of words (not the
    separators) leaves one run of bytes 0x80-0xFF for each word that holds one and
    nothing of the others: the head's such words are counted without splitting the
    others. The words before the one before the first such word are neither picked
    nor anyone's neighbour: they are not split. And in the words joined by single
    spaces, one before each, the same deletion leaves before the k-th such word as
    many spaces as its index (+ 1): their indices are the running sums of the
    lengths of those runs of spaces (all in C; a space after the last word makes one
    more run, after the last such word, whatever follows it).

    *first*: where the first byte 0x80-0xFF of *data* lies, when known (:func:`first_high`).
    The words are split from the word before the one that holds it, which is found in the
    bytes just before it (:func:`_word_before`): only the bytes from there on are translated.
    """
    head = data[:_WORDS_HEAD]
    if len(head) < len(data) and (
        len(head.translate(_SEPARATORS_TO_SPACE, _WORD_ASCII).split(None, MAX_CONTEXTS // 4 - 1))
        >= MAX_CONTEXTS // 4
    ):
        data = head
    # from the start of the word before the first word that holds a byte 0x80-0xFF (the
    # head, when it is taken, holds that byte: it is the first of either)
    start = _word_before(data, first_high(data) if first is None else min(first, len(data)))
    text = data[start:].translate(_SEPARATORS_TO_SPACE)
    if len(text) > _SPLIT_UP_TO:
        # (sparse text beyond the head: its few such words are found where they lie)
        return _picked_where(text)
    words = text.split()
    # (spaces -> "x", bytes 0x80-0xFF -> space, the ASCII bytes of words deleted: the
    # runs of "x" before each word that holds a byte 0x80-0xFF, and one after the last)
    gaps = (
        b"".join((b" ", b" ".join(words), b" "))
        .translate(_GAPS, _ASCII_BUT_SPACE)
        .split(None, MAX_CONTEXTS)
    )
    # (index + 1 of each picked word i: the words i-1, i, i+1 that exist; repeats kept)
    picked = islice(accumulate(map(len, gaps)), min(len(gaps) - 1, MAX_CONTEXTS))
    return b" ".join(chain.from_iterable([words[i - 2 if i > 1 else 0 : i + 1] for i in picked]))


#: :func:`words_around` splits all the words of up to this many bytes; beyond (sparse text:
#: the head held too few words with a byte 0x80-0xFF) it reads only those words and their
#: neighbours (:func:`_picked_where`).
_SPLIT_UP_TO: Final = 16 * 1024
#: ``bytes.translate`` table: a space -> space, any other byte -> ``w`` (a word's).
_WORD_OR_SPACE: Final = bytes(0x20 if b == 0x20 else ord("w") for b in range(256))


def _picked_where(text: bytes) -> bytes:
    """:func:`words_around`'s result for *text* (its bytes from the word before the first word
    that holds a byte 0x80-0xFF, separators made spaces), found where those words lie, not by
    splitting every word: the same bytes (tested against the plain split), in a few passes
    in C over *text* and one step in C per byte 0x80-0xFF, where the split makes an object
    of every word: 0.51 -> 0.25 ms on the 57 KB sample of a 100 KB windows-1252 page with few
    accents (docs/speed.md).

    A word is a run of bytes other than spaces. The bytes 0x80-0xFF lie at the running sums
    of the lengths of the runs between them (plus one each); one begins another word than
    the one before it when a space lies between them, and that word starts just after the
    last space before it: the first :data:`MAX_CONTEXTS` such words are the words picked,
    in order. From there, each one's end is the next space, its previous word ends just
    after the last other byte before its start and starts just after the last space before
    that, and its next word starts at the first other byte after its end and ends at the
    next space (a place not found, -1, is made past the end of *text* by ``& _FOUND``: its
    slice is empty, as a missing neighbour's). Each look reads from one word to the next:
    the whole is linear in *text*.
    """
    shape = text.translate(_WORD_OR_SPACE)
    runs = text.translate(_HIGH_TO_0X80).split(b"\x80")
    places = list(map(add, accumulate(map(len, islice(runs, len(runs) - 1))), count()))
    # (a place begins another word when a space lies between it and the place before: each
    # look reads only the bytes between them, so a long word is not read again per place)
    spaced = map(shape.find, repeat(b" "), places, islice(places, 1, None))
    firsts = compress(places, chain((True,), map((-1).__lt__, spaced)))
    starts = map(add, map(shape.rfind, repeat(b" "), repeat(0), firsts), repeat(1))
    picked = list(islice(starts, MAX_CONTEXTS))
    ends = list(map(and_, map(shape.find, repeat(b" "), picked), repeat(_FOUND)))
    before_ends = list(map(add, map(shape.rfind, repeat(b"w"), repeat(0), picked), repeat(1)))
    before_starts = map(add, map(shape.rfind, repeat(b" "), repeat(0), before_ends), repeat(1))
    after_starts = list(map(and_, map(shape.find, repeat(b"w"), ends), repeat(_FOUND)))
    after_ends = map(and_, map(shape.find, repeat(b" "), after_starts), repeat(_FOUND))
    part = text.__getitem__
    return b" ".join(
        filter(
            None,
            chain.from_iterable(
                zip(
                    map(part, map(slice, before_starts, before_ends)),
                    map(part, map(slice, picked, ends)),
                    map(part, map(slice, after_starts, after_ends)),
                    strict=True,
                )
            ),
        )
    )


#: Bytes before the first byte 0x80-0xFF that :func:`_word_before` reads first.
_BEFORE: Final = 512


def _word_before(data: bytes, first: int) -> int:
    """Where the word before the word at *first* starts in ``text = data.translate(
    _SEPARATORS_TO_SPACE)``: ``text.rfind(b" ", 0, len(text[:space].rstrip(b" "))) + 1``,
    where *space* is ``text.rfind(b" ", 0, first)``, when that is above 0, else 0.

    The translation maps each byte alone, so it is read in the :data:`_BEFORE` bytes
    before *first* (``text[lo:first]``): each ``rfind`` and ``rstrip`` that stops within
    them stops where it stops in all of *text*; one that would go past their start (a
    long word or run of separators, rare) reads all of *text* instead (tested against it).
    """
    lo = max(first - _BEFORE, 0)
    piece = data[lo:first].translate(_SEPARATORS_TO_SPACE)
    space = piece.rfind(b" ")
    if space < 0:
        if lo == 0:
            return 0  # (no separator before it: ``text.rfind`` gives -1)
    elif lo + space == 0:
        return 0
    else:
        end = len(piece[:space].rstrip(b" "))
        found = piece.rfind(b" ", 0, end)
        if found >= 0 or lo == 0:
            return lo + found + 1
    text = data.translate(_SEPARATORS_TO_SPACE)
    space = text.rfind(b" ", 0, first)
    return text.rfind(b" ", 0, len(text[:space].rstrip(b" "))) + 1 if space > 0 else 0


def first_high(data: bytes) -> int:
    """Where the first byte 0x80-0xFF of *data* lies (``len(data)`` if none): ``isascii``
    of each block (vectorised in C), then one ``find`` in the block that holds one."""
    for start in range(0, len(data), _ASCII_BLOCK):
        block = data[start : start + _ASCII_BLOCK]
        if not block.isascii():
            return start + block.translate(_HIGH_TO_0X80).find(0x80)
    return len(data)


def contexts(data: bytes, high: bytes, words: bytes) -> tuple[bytes, float]:
    """The bytes 0x80-0xFF of *data* with their neighbours, and what each stands for.

    *data* itself when they are dense; else *words* (:func:`words_around`),
    scaled to stand for all of them.
    """
    if len(data) <= 4 * len(high) + 1024:
        return data, 1.0
    return words, len(high) / max(len(words.translate(None, _ASCII)), 1)


def utf16_without_bom(body: bytes) -> tuple[str, float] | None:
    """``("UTF-16LE" | "UTF-16BE", score)`` when NUL bytes say so, else ``None``.

    In UTF-16 every ASCII character (markup, spaces, digits, punctuation; most
    letters of Latin text) has a NUL high byte, and almost no character a NUL
    low byte: NULs at odd offsets only mean little-endian, at even offsets only
    big-endian. CJK and Hangul units of the form U+xx00 (U+4E00 "一") have a
    NUL low byte: those NULs count for the order in which their other byte is
    an ideograph's or a syllable's. When both orders fit, the one whose reading
    of the first :data:`UTF16_HEAD` bytes holds fewer controls, unassigned or
    private-use code points wins; it must hold almost none.
    (UTF-16 without any NUL is left to the other rules.)
    """
    if len(body) < 4 or body.find(b"\x00", 0, UTF16_HEAD) < 0:
        return None
    head = body[:UTF16_HEAD]
    head = head[: len(head) // 2 * 2]
    units = len(head) // 2
    evens, odds = head[0::2], head[1::2]
    even, odd = evens.count(0), odds.count(0)
    found = []
    for name, codec, ascii_nuls, other, lows, highs in (
        ("UTF-16LE", "utf-16-le", odd, even, evens, odds),
        ("UTF-16BE", "utf-16-be", even, odd, odds, evens),
    ):
        cjk = _cjk_nuls(lows, highs, other)
        fits, against = ascii_nuls + cjk, other - cjk
        if fits >= 0.05 * units and against <= 0.1 * fits:
            text = head.decode(codec, "replace")
            found.append((_bad_units(text), name, text))
    if not found:
        return None
    bad, name, text = min(found)
    if bad > 1 + len(text) / 50:
        return None
    return name, 1.0 - bad / len(text)


def _bad_units(text: str) -> int:
    """Controls, U+FFFD, unassigned, private-use and surrogate code points in *text*."""
    bad = len(_BAD_UTF16.findall(text))
    odd = [c for c in set(text) if unicodedata.category(c) in ("Cn", "Co", "Cs")]
    return bad + sum(map(text.count, odd))


#: What UTF-16 text decodes to: letters, marks, digits, punctuation and spaces.
_UTF16_TEXT: Final = re.compile(
    r"[\w\s\u3000-\u303f\uff01-\uff65!-/:-@\[-`{-~\u00a0-\u00bf\u2010-\u206f]"
)
_PRIVATE_OR_UNASSIGNED: Final = frozenset(("Co", "Cn", "Cs", "Cc"))


def utf16_text(data: bytes) -> str | None:
    """``"UTF-16LE"`` or ``"UTF-16BE"`` when *data* (holding bytes that no 8-bit
    text holds) reads as text in it: at least 16 code units, every one of them
    a letter, mark, digit, punctuation or space, as BOM-less UTF-16 text without
    ASCII (CJK, Cyrillic, ...) does and random or binary bytes do not."""
    head = data[: UTF16_HEAD - UTF16_HEAD % 2]
    head = head[: len(head) // 2 * 2]
    if len(head) < 32:
        return None
    for name, codec in (("UTF-16LE", "utf-16-le"), ("UTF-16BE", "utf-16-be")):
        try:
            text = head.decode(codec)
        except UnicodeDecodeError:
            continue
        if len(_UTF16_TEXT.findall(text)) == len(text) and not any(
            unicodedata.category(char) in _PRIVATE_OR_UNASSIGNED for char in set(text)
        ):
            return name
    return None


def _cjk_nuls(lows: bytes, highs: bytes, nuls: int) -> int:
    """How many of the *nuls* NUL low bytes belong to a CJK or Hangul code unit.

    Ideographs, kana and Hangul U+3000-U+9FFF, U+AC00-U+D7FF of the form U+xx00
    (U+3000, U+4E00 "一", U+5C00, ...) have a NUL low byte: in CJK text they are
    common, but a minority of its units (text in the other byte order, whose
    ASCII letters would read as U+4100-U+7A00, has nothing else), and the
    other byte of the unit tells them from an ASCII NUL.
    """
    if not nuls:
        return 0
    found = sum(1 for low, high in zip(lows, highs, strict=False) if not low and high in _CJK_HIGH)
    cjk = len(highs.translate(None, _NOT_CJK_HIGH))
    return found if found * 2 <= cjk else 0


def ascii_with_iso_2022_jp_escapes(data: bytes) -> bool:
    """Whether *data* is 7-bit ISO-2022-JP: ASCII with its escape sequences.

    "ESC ( B / ESC ( J / ESC ( I / ESC $ @ / ESC $ B" switch the
    ISO-2022-JP decoder's state (https://encoding.spec.whatwg.org/#iso-2022-jp-decoder).
    """
    if not data.isascii() or not any(esc in data for esc in _ISO_2022_JP_ESCAPES):
        return False
    try:
        data.decode("iso2022_jp_ext")
    except UnicodeDecodeError:
        return data.decode("iso2022_jp_ext", "replace").count("\ufffd") <= 2
    return True


def nearly_utf8(data: bytes, high: bytes | None = None) -> float | None:
    """A score when *data* is UTF-8 but for a few errors: the share of valid
    sequences, times ``1 - 0.5 ** valid`` (one valid sequence is weak evidence).

    Valid multi-byte UTF-8 sequences are very unlikely in legacy text: when at
    least 20 of every 21 non-ASCII sequences are valid (and there are a few),
    the body is UTF-8 with stray bytes or a cut final character.
    *high*: the bytes 0x80-0xFF of *data*, when known (they alone are counted).
    """
    if high is None:
        high = data.translate(None, _ASCII)
    # Each valid sequence is a lead byte 0xC2-0xF4 and one to three continuation
    # bytes 0x80-0xBF: counts far from that rule the decode out. (Both are bytes
    # 0x80-0xFF: counted in *high*, a few hundred bytes, not in all of *data*.)
    classes = high.translate(_UTF8_CLASSES)
    leads, continuations = classes.count(b"l"), classes.count(b"c")
    if leads - 1 > continuations * 1.1:
        # (the test below, after the cut character: it takes one lead byte at most and
        # no continuation byte that is not its own; legacy text mostly ends here)
        return None
    cut = _without_cut_character(data)
    if len(cut) < len(data):
        # (the bytes cut are a lead byte and continuation bytes: the last of *high*)
        high = high[: len(high) - (len(data) - len(cut))]
        data = cut
        classes = high.translate(_UTF8_CLASSES)
        leads, continuations = classes.count(b"l"), classes.count(b"c")
    if not leads <= continuations * 1.1 or continuations > 3.3 * leads + 2:
        return None
    # A valid sequence has as many continuation bytes as its lead byte announces; an
    # error (one U+FFFD) is a stray continuation byte (one more), or a lead byte with
    # fewer continuation bytes than it announces (one to three fewer), or another
    # byte. There are no more valid sequences than lead bytes, and the result below
    # needs 20 times as many valid sequences as errors: a count of continuation bytes
    # that far from the announced one rules the decode out (as its result would).
    kinds = high.translate(_UTF8_LONG_LEADS)
    excess = continuations - (leads + kinds.count(b"3") + 2 * kinds.count(b"4"))
    if excess * 20 > leads or -excess * 20 > 3 * leads:
        return None
    text = data.decode("utf-8", "replace")
    errors = text.count("\ufffd") - data.count(_UTF8_FFFD)
    non_ascii = len(text) - (len(data) - len(high))
    valid = non_ascii - errors
    if errors == 0 and valid:
        # valid UTF-8 but for a character cut at the end; a legacy text may
        # hold one or two valid sequences by chance ("Ã©"), hardly more
        return 1.0 - 0.5**valid
    if valid < 4 or errors * 20 > valid:
        return None
    return valid / (valid + errors) * (1.0 - 0.5**valid)


def _without_cut_character(data: bytes) -> bytes:
    """*data* without a UTF-8 sequence cut short at its end (a lead byte 0xC2-0xF4
    and fewer continuation bytes 0x80-0xBF than it announces)."""
    for back in range(1, min(4, len(data)) + 1):
        byte = data[-back]
        if 0x80 <= byte <= 0xBF:
            continue
        if 0xC2 <= byte <= 0xF4 and back < (2 if byte < 0xE0 else 3 if byte < 0xF0 else 4):
            return data[:-back]
        break
    return data


#: C0 controls that text in no encoding holds (not TAB, LF, FF, CR, ESC, nor SUB,
#: the end-of-file mark some old text files end with).
_CONTROLS: Final = bytes((*range(0x00, 0x09), 0x0B, *range(0x0E, 0x1A), *range(0x1C, 0x20)))


def looks_binary(data: bytes) -> bool:
    """Whether *data* is not text in any encoding: C0 controls (NUL, ...) that no
    text holds, in at least 1% of its bytes (and at least 3 of them).

    Random bytes, compressed data, images and executables have about 11% of
    such bytes (29 of 256 values) or far more (NUL padding). Text in any
    ASCII-compatible WHATWG encoding has none; UTF-16 is recognised before.
    """
    # (text has none: a ``memchr`` per control value finds that faster than a count,
    # but in short data)
    if len(data) > _SHORT and not any(map(data.__contains__, _CONTROLS)):
        return False
    controls = len(data) - len(data.translate(None, _CONTROLS))
    return controls >= 3 and controls * 100 >= len(data)


#: Data up to this long is counted at once by :func:`looks_binary`.
_SHORT: Final = 2048


def may_look_binary(body: bytes, ranges: tuple[tuple[int, int], ...]) -> bool:
    """Whether the sample of *body* at *ranges* (:func:`sample_ranges`) holds a control
    that :func:`looks_binary` counts: if not, it does not look binary."""
    return holds_any(body, ranges, _CONTROLS)


#: The controls :func:`looks_binary` counts and ESC (which ISO-2022-JP's escapes start with).
CONTROLS_OR_ESC: Final = _CONTROLS + b"\x1b"


def holds_any(body: bytes, ranges: tuple[tuple[int, int], ...], values: bytes) -> bool:
    """Whether the sample of *body* at *ranges* holds any of the byte *values* (none of
    them a newline): a ``memchr`` per value and piece, no copy."""
    # (where each value first lies in the piece, -1 if it does not: in C)
    count = len(values)
    for start, end in ranges:
        if max(map(body.find, values, repeat(start, count), repeat(end, count))) >= 0:
            return True
    return False
