"""Where a byte buffer may be cut so that decoding the parts equals decoding the whole.

The decoders are whole-buffer functions ``bytes -> str``. To decode a stream
chunk by chunk with them, :func:`split_point` finds, for each encoding, a
position *p* in a buffer such that for every continuation ``rest``::

    decode(buf[:p]) + decode(prefix + buf[p:] + rest) == decode(buf + rest)

Every rule below is derived from the Encoding Standard's decoder
(https://encoding.spec.whatwg.org/, section per encoding), not from Python's
codecs, and uses only the decoders' *state*, never index contents, so it
holds whatever the index says. The central fact: if the decoder is in its
initial state after consuming ``buf[:p]`` (with every "restore" resolved),
the end-of-queue of ``buf[:p]`` returns "finished" without output, and the
decoder run over ``buf[p:]`` from a fresh state is the same run as the
second half of the run over the whole.

For the ASCII-compatible multi-byte decoders we find the last *reset byte*
(a byte after which the state is initial whatever the state before it) with
``bytes.rstrip`` (C speed), then simulate the decoder's state machine over the
short tail after it and keep the last position where the state is initial.
The state returns to initial (or, for UTF-8, reaches a byte before which a
cut is exact) within at most 3 bytes, so the carried tail is at most 3 bytes.
UTF-16 (a leading surrogate can repeat) and ISO-2022-JP (stateful escapes)
get their own rules, with a carry of at most 3 bytes and at most
``ISO_2022_JP_PLAIN_CARRY`` bytes. The property tests check all rules against spec-literal
reference decoders (tests/test_split.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

State = tuple[int, ...]
#: (state before, byte) -> (state after, whether a cut right before the byte is exact)
Step = Callable[[State, int], tuple[State, bool]]
#: (data, tail bytes) -> a position in the initial state (before which a cut is exact),
#: after which the rest is short (see _tail_split)
Skip = Callable[[bytes, bytes], int]
INITIAL: Final[State] = ()


def _byte_set(*ranges: tuple[int, int]) -> bytes:
    return bytes(b for low, high in ranges for b in range(low, high + 1))


# --- UTF-8 (https://encoding.spec.whatwg.org/#utf-8-decoder) -----------------
# Reset bytes: 0x00-0x7F, 0xC0, 0xC1, 0xF5-0xFF. In the initial state they
# return a code point or error; inside a sequence they are outside
# [lower boundary, upper boundary] (a subset of 0x80-0xBF): "Set UTF-8 code
# point, UTF-8 bytes needed, and UTF-8 bytes seen to 0 ... Restore byte to
# ioQueue. Return error." and are then processed from the initial state.
_UTF8_TAIL: Final = _byte_set((0x80, 0xBF), (0xC2, 0xF4))


def _utf8_start(byte: int) -> State:
    # "0xC2 to 0xDF: Set UTF-8 bytes needed to 1."
    if 0xC2 <= byte <= 0xDF:
        return (1, 0, 0x80, 0xBF)
    # "0xE0 to 0xEF: If byte is 0xE0, then set UTF-8 lower boundary to 0xA0.
    # If byte is 0xED, then set UTF-8 upper boundary to 0x9F. Set UTF-8 bytes needed to 2."
    if 0xE0 <= byte <= 0xEF:
        return (2, 0, 0xA0 if byte == 0xE0 else 0x80, 0x9F if byte == 0xED else 0xBF)
    # "0xF0 to 0xF4: If byte is 0xF0, then set UTF-8 lower boundary to 0x90.
    # If byte is 0xF4, then set UTF-8 upper boundary to 0x8F. Set UTF-8 bytes needed to 3."
    if 0xF0 <= byte <= 0xF4:
        return (3, 0, 0x90 if byte == 0xF0 else 0x80, 0x8F if byte == 0xF4 else 0xBF)
    return INITIAL  # "Otherwise: Return error."


def _utf8_step(state: State, byte: int) -> tuple[State, bool]:
    if not state:
        return _utf8_start(byte), False
    needed, seen, lower, upper = state
    if not lower <= byte <= upper:
        # "Set UTF-8 code point, UTF-8 bytes needed, and UTF-8 bytes seen to 0 ...
        # Restore byte to ioQueue. Return error." The end-of-queue of a part that
        # stops before this byte returns the same one error ("If byte is
        # end-of-queue and UTF-8 bytes needed is not 0, then set UTF-8 bytes needed
        # to 0 and return error"), and the byte is then processed from the initial
        # state in both runs: a cut right before it is exact. (Without this, a run
        # like C2 C2 C2 ... would never reach the initial state.)
        return _utf8_start(byte), True
    # "If UTF-8 bytes seen is not equal to UTF-8 bytes needed, then return continue."
    return (INITIAL if seen + 1 == needed else (needed, seen + 1, 0x80, 0xBF)), False


# --- Shift_JIS, Big5, EUC-KR: one "leading" byte ------------------------------
# "If Shift_JIS leading is not 0x00: ... Set Shift_JIS leading to 0x00 ... If
# byte is an ASCII byte, then restore byte to ioQueue. Return error." (and the
# same in Big5 and EUC-KR): after a leading byte the next byte always brings
# the state back to initial (a restored ASCII byte leaves it initial). From the
# initial state only "0x81 to 0x9F, or 0xE0 to 0xFC" (Shift_JIS) / "0x81 to
# 0xFE" (Big5, EUC-KR) set a leading byte. So every other byte is a reset byte,
# and along a run of leading-capable bytes the state alternates.
_SJIS_LEADING: Final = _byte_set((0x81, 0x9F), (0xE0, 0xFC))
_BIG5_EUC_KR_LEADING: Final = _byte_set((0x81, 0xFE))


def _leading_step(state: State, byte: int) -> tuple[State, bool]:
    return (INITIAL if state else (byte,)), False  # the tail holds leading-capable bytes only


# --- gb18030 and GBK (https://encoding.spec.whatwg.org/#gb18030-decoder) --------
# Reset bytes: 0x00-0x2F, 0x3A-0x80 and 0xFF. From "gb18030 first" such a byte
# ends the two-byte path (consumed, or "If byte is an ASCII byte, then restore
# byte"); from "gb18030 second"/"third" the decoder restores « second, (third,)
# byte »: second is a digit (a code point), third becomes "first", and the byte
# again ends that. A digit 0x30-0x39 is *not* a reset byte: "If byte is in the
# range 0x30 to 0x39, inclusive, then set gb18030 second to byte". Note that
# cutting before a byte < 0x30 after "0x81 0x30" would be wrong: at end-of-queue
# the standard returns one error and drops the digit, while the whole decode
# restores it as "0".
_GB18030_TAIL: Final = _byte_set((0x30, 0x39), (0x81, 0xFE))


def _gb18030_step(state: State, byte: int) -> tuple[State, bool]:
    return _gb18030_next(state, byte), False


def _gb18030_next(state: State, byte: int) -> State:
    digit = 0x30 <= byte <= 0x39
    if not state:
        # "If byte is in the range 0x81 to 0xFE, inclusive, then set gb18030 first to byte"
        return INITIAL if digit else (byte,)
    if len(state) == 1:
        return (*state, byte) if digit else INITIAL
    if len(state) == 2:
        # "If byte is in the range 0x81 to 0xFE, inclusive, then set gb18030 third
        # to byte"; else restore « second, byte »: a digit and a digit, both code points.
        return INITIAL if digit else (*state, byte)
    # third is set: a digit completes the four bytes; otherwise « second, third,
    # byte » is restored: second -> code point, third -> first, byte -> consumed.
    return INITIAL


# --- EUC-JP (https://encoding.spec.whatwg.org/#euc-jp-decoder) -----------------
# Reset bytes: ASCII bytes, 0x80-0x8D, 0x90-0xA0 and 0xFF: from the initial
# state they are a code point or an error; after a leading byte they fall into
# "If EUC-JP leading is not 0x00: ... Set EUC-JP leading to 0x00" (consumed, or
# an ASCII byte restored). "If EUC-JP leading is 0x8F and byte is in the range
# 0xA1 to 0xFE, inclusive, then set EUC-JP jis0212 to true, set EUC-JP leading
# to byte": a three-byte sequence, so the tail rule needs a real state.
_EUC_JP_TAIL: Final = _byte_set((0x8E, 0x8F), (0xA1, 0xFE))


def _euc_jp_step(state: State, byte: int) -> tuple[State, bool]:
    return _euc_jp_next(state, byte), False


def _euc_jp_next(state: State, byte: int) -> State:
    if not state:
        return (byte,)  # "0x8E, 0x8F, or in the range 0xA1 to 0xFE: set EUC-JP leading"
    leading = state[0]
    if leading == 0x8F and 0xA1 <= byte <= 0xFE:
        return (byte, 1)
    return INITIAL  # katakana, a two-byte code point, or an error: leading is 0x00


def _tail_split(data: bytes, tail_bytes: bytes, step: Step, skip: Skip) -> int:
    # A position where the state is known to be initial and a cut exact, close
    # to the end: the loop below then runs over a few bytes, never over the
    # whole run since the last reset byte (CJK text may have no ASCII byte).
    start = skip(data, tail_bytes)
    state, best = INITIAL, start
    for position in range(start, len(data)):
        state, cut_before = step(state, data[position])
        if cut_before:
            best = position
        if not state:
            best = position + 1
    return best


def _last_reset(data: bytes, tail_bytes: bytes) -> int:
    return len(data.rstrip(tail_bytes))  # just after the last reset byte (or 0)


def _pairs_after_reset(data: bytes, tail_bytes: bytes) -> int:
    return _pairs(data, _last_reset(data, tail_bytes))


def _pairs(data: bytes, start: int) -> int:
    """Initial state at *start*, every tail byte a lead or a trail of two-byte sequences.

    For Shift_JIS, Big5 and EUC-KR every tail byte (0x81-0xFE, a possible lead)
    after the initial state is a lead, and any byte after a lead ends the
    sequence ("If lead is not 0x00, let pointer be null, set lead to 0x00, ...";
    ``_leading_step``): the state is initial after every even number of them.
    """
    return start + ((len(data) - start) & ~1)


def _utf8_skip(data: bytes, tail_bytes: bytes) -> int:
    """A position near the end before which a cut is exact and the state initial.

    Before a byte that is not a continuation byte (0x80-0xBF) a cut is exact in
    every state (in the initial state trivially; inside a sequence the byte is
    outside the boundaries and is restored, see ``_utf8_step``), and the byte is
    processed from the initial state either way. After three continuation bytes
    the state is initial whatever it was (a sequence needs at most three).
    """
    end = len(data)
    for position in range(end - 1, max(0, end - 4) - 1, -1):
        if not 0x80 <= data[position] <= 0xBF:
            return position
    return end - 1 if end >= 4 else 0


#: Two digits, or a digit and two bytes 0x81-0xFE: whatever the gb18030 state
#: before them, it is initial after them (``_gb18030_next``: after a digit the
#: state is initial or "first, second"; a digit or two more non-digit bytes
#: end both).
_GB18030_SYNC: Final = re.compile(rb"(?=([0-9][0-9]|[0-9][\x81-\xfe][\x81-\xfe]))")
_GB18030_WINDOW: Final = 64


def _gb18030_skip(data: bytes, tail_bytes: bytes) -> int:
    start = _last_reset(data, tail_bytes)
    last_digit = max(data.rfind(bytes([digit]), start) for digit in range(0x30, 0x3A))
    if last_digit < 0:
        # No digit: two-byte sequences only ("If byte is not in the range 0x30
        # to 0x39 ..." after a first byte ends the pair), as for Shift_JIS.
        return _pairs(data, start)
    if len(data) - last_digit >= 3:
        # a digit, then only bytes 0x81-0xFE: initial after two of them, then pairs
        return _pairs(data, last_digit + 3)
    window = max(start, len(data) - _GB18030_WINDOW)
    ends = [m.start() + len(m.group(1)) for m in _GB18030_SYNC.finditer(data, window)]
    return max(ends) if ends else start


#: 0x8F, a byte 0xA1-0xFE and one more tail byte: whatever the EUC-JP state
#: before them, it is initial after them (after 0x8F the state is initial or
#: "leading 0x8F"; the next byte makes it "leading" or "leading, jis0212", and
#: any byte ends both: ``_euc_jp_next``).
_EUC_JP_SYNC: Final = re.compile(rb"(?=\x8f[\xa1-\xfe][\x8e\x8f\xa1-\xfe])")
_EUC_JP_WINDOW: Final = 64


def _euc_jp_skip(data: bytes, tail_bytes: bytes) -> int:
    start = _last_reset(data, tail_bytes)
    last = data.rfind(b"\x8f", start)
    if last < 0:
        # Without 0x8F (the lead of three-byte JIS X 0212 sequences) every sequence
        # in the tail is two bytes long ("If EUC-JP leading is 0x8E and byte is in
        # the range 0xA1 to 0xDF" / "lead ... and byte in the range 0xA1 to 0xFE").
        return _pairs(data, start)
    if len(data) - last >= 3 and 0xA1 <= data[last + 1] <= 0xFE:
        return _pairs(data, last + 3)  # synchronised, then two-byte sequences only
    window = max(start, len(data) - _EUC_JP_WINDOW)
    ends = [m.start() + 3 for m in _EUC_JP_SYNC.finditer(data, window)]
    return max(ends) if ends else start


_TAIL_RULES: Final[dict[str, tuple[bytes, Step, Skip]]] = {
    "UTF-8": (_UTF8_TAIL, _utf8_step, _utf8_skip),
    "Shift_JIS": (_SJIS_LEADING, _leading_step, _pairs_after_reset),
    "Big5": (_BIG5_EUC_KR_LEADING, _leading_step, _pairs_after_reset),
    "EUC-KR": (_BIG5_EUC_KR_LEADING, _leading_step, _pairs_after_reset),
    "gb18030": (_GB18030_TAIL, _gb18030_step, _gb18030_skip),
    "GBK": (_GB18030_TAIL, _gb18030_step, _gb18030_skip),
    "EUC-JP": (_EUC_JP_TAIL, _euc_jp_step, _euc_jp_skip),
}


# --- UTF-16BE/LE (https://encoding.spec.whatwg.org/#shared-utf-16-decoder) -----
def _is_surrogate(data: bytes, position: int, big_endian: bool, base: int) -> bool:
    high = data[position] if big_endian else data[position + 1]
    return base <= high <= base + 3  # 0xD8-0xDB leading, 0xDC-0xDF trailing


def _utf16_split(data: bytes, big_endian: bool) -> int:
    # Code units are read in pairs of bytes from the start, and a restore puts
    # back exactly the two bytes of a unit, so units stay aligned on even
    # offsets. After a unit the state holds a leading surrogate iff that unit
    # is one ("If codeUnit is a leading surrogate, then set UTF-16 leading
    # surrogate to codeUnit"; otherwise it is cleared or restored and
    # reprocessed). Cut at even p when the unit before p is not a leading
    # surrogate (initial state), or when the unit at p is not a trailing
    # surrogate: then the whole decode "Restore[s] bytes to ioQueue and
    # return[s] error" exactly where end-of-queue of the first part returns
    # its one error, and the unit is then processed from the initial state.
    even = len(data) & ~1
    if even == 0:
        return 0
    if not _is_surrogate(data, even - 2, big_endian, 0xD8):
        return even
    # The unit at even - 2 is a leading surrogate, so it is not a trailing one.
    return even - 2


# --- ISO-2022-JP (https://encoding.spec.whatwg.org/#iso-2022-jp-decoder) --------
#: Longest carry accepted before a cut that needs a state-restoring prefix.
ISO_2022_JP_PLAIN_CARRY = 1024
_ASCII, _ROMAN, _KATAKANA, _LEADING, _TRAILING, _ESCAPE_START, _ESCAPE = range(7)
#: escape sequences that set "decoder state" and "output state" to a state
#: ("If state is non-null: Set ISO-2022-JP decoder state and ISO-2022-JP
#: decoder output state to state ... Set ISO-2022-JP output to true").
_PREFIX: Final[dict[int, bytes]] = {
    _ASCII: b"\x1b(B",
    _ROMAN: b"\x1b(J",
    _KATAKANA: b"\x1b(I",
    _LEADING: b"\x1b$B",
}


def _iso_2022_jp_split(data: bytes, protect: int) -> tuple[int, bytes, int]:
    """A cut, and how to re-create the decoder state after it: ``(p, prefix, drop)``.

    The state is (decoder state, output state, ISO-2022-JP output); "leading"
    is written before it is read in every state we cut in, so it is dead. We
    cut only where decoder state == output state (not inside an escape or a
    two-byte pair). The rest is decoded after a *prefix* that re-creates the
    state from the initial one, and the first *drop* characters of its text are
    dropped: an escape sequence emits nothing from the initial state ("Return
    continue, if output is false") and sets output to true; for output false
    one more byte 0x00 follows, which in each of the four states emits exactly
    one character (U+0000 or an error) and sets "ISO-2022-JP output to false".

    Cutting right after a restore is also exact: end-of-queue in "escape
    start" returns the same one error the restore returned, and leaves the
    same state ("Set ISO-2022-JP output to false, ISO-2022-JP decoder state to
    ISO-2022-JP decoder output state, and return error").

    The first *protect* bytes are a prefix added earlier: no cut inside it.

    Cuts in the ASCII state with output false (no prefix) are preferred while
    the carry stays within :data:`ISO_2022_JP_PLAIN_CARRY` bytes, so that
    ordinary documents (which return to ASCII often) never need a prefix.
    """
    if 0x1B not in data:
        return len(data), b"", 0  # the buffer starts in the ASCII state, output false
    state = output_state = _ASCII
    output = False
    leading = 0
    best = plain = (0, b"", 0)
    position, length = 0, len(data)
    while True:
        if state == output_state and (position >= protect or position == 0):
            if output:
                best = (position, _PREFIX[state], 0)
            elif state == _ASCII:
                best = plain = (position, b"", 0)
            else:
                best = (position, _PREFIX[state] + b"\x00", 1)
        if position >= length:
            return plain if length - plain[0] <= ISO_2022_JP_PLAIN_CARRY else best
        byte = data[position]
        position += 1
        if state in (_ASCII, _ROMAN, _KATAKANA, _LEADING, _TRAILING) and byte == 0x1B:
            state = _ESCAPE_START
            continue
        if state in (_ASCII, _ROMAN, _KATAKANA):
            output = False
        elif state == _LEADING:
            output = False
            if 0x21 <= byte <= 0x7E:
                state = _TRAILING
        elif state == _TRAILING:
            state = _LEADING
        elif state == _ESCAPE_START:
            if byte in (0x24, 0x28):
                leading, state = byte, _ESCAPE
                continue
            position -= 1  # "restore byte to ioQueue"
            output, state = False, output_state
        else:  # escape
            new = None
            if leading == 0x28:
                new = {0x42: _ASCII, 0x4A: _ROMAN, 0x49: _KATAKANA}.get(byte)
            elif leading == 0x24 and byte in (0x40, 0x42):
                new = _LEADING
            leading = 0
            if new is not None:
                state = output_state = new
                output = True
                continue
            position -= 2  # "restore « leading, byte » to ioQueue"
            output, state = False, output_state


def split_point(encoding: str, data: bytes, protect: int = 0) -> tuple[int, bytes, int]:
    """``(p, prefix, drop)``: decode ``data[:p]`` now, carry ``prefix + data[p:]``.

    The text of the next segment decoded from the carry starts with *drop*
    characters that the prefix produced: drop them. *data* must start in the
    decoder's initial state or with the last returned prefix (then pass its
    length as *protect*; ``p`` is 0 or at least *protect*). ``len(data) - p``
    is at most 4 bytes (ISO-2022-JP: at most :data:`ISO_2022_JP_PLAIN_CARRY`).
    """
    rule = _TAIL_RULES.get(encoding)
    if rule is not None:
        return _tail_split(data, *rule), b"", 0
    if encoding in ("UTF-16LE", "UTF-16BE"):
        return _utf16_split(data, encoding == "UTF-16BE"), b"", 0
    if encoding == "ISO-2022-JP":
        return _iso_2022_jp_split(data, protect)
    # Single-byte decoders and x-user-defined have no state: "1. If byte is
    # end-of-queue, then return finished. 2. If byte is an ASCII byte, return a
    # code point ..." -- any cut works. (replacement is handled by the caller.)
    return len(data), b"", 0


#: Bodies larger than this are decoded in pieces of about :data:`PIECE` bytes.
PIECES_ABOVE: Final = 4 << 20
PIECE: Final = 256 << 10


def decode_in_pieces(
    encoding: str, data: bytes, decoder: Callable[[bytes], tuple[str, int]], size: int = PIECE
) -> tuple[str, int]:
    """``decoder(data)`` (text and error count) with a peak of memory near the text's size.

    A codec's buffer for a whole body is as long as the body, and it widens it (one byte
    per character, then two or four) when it meets a wider character: up to 2.5 times
    the text at once. Piece by piece, each cut by :func:`split_point` (the parts give the
    text and the errors of the whole, and a strict decoder fails on a part exactly when
    it fails on the whole), the text grows in place and only one piece's buffers come on
    top: CPython resizes a string that nothing else holds on ``+=`` (once the interpreter
    has specialized the ``+=``, see the warm-up below).
    """
    if encoding in ("ISO-2022-JP", "replacement"):
        return decoder(data)  # (stateful escapes; no text)
    text, errors, start, length = "", 0, 0, len(data)
    while start < length:
        end = start + size
        if end < length:
            cut = split_point(encoding, data[start:end])[0]  # (no prefix: not ISO-2022-JP)
            end = start + cut if cut else length
        piece, count = decoder(data[start:end])
        text += piece
        del piece
        errors += count
        start = end
    return text, errors


def _strict_utf8(data: bytes) -> tuple[str, int]:
    return data.decode("utf-8"), 0


def decode_utf8_strict(data: bytes) -> str:
    """``data.decode("utf-8")``, in pieces when large (see :func:`decode_in_pieces`);
    raises :class:`UnicodeDecodeError` exactly when the whole does (its positions are
    then those of a piece)."""
    if len(data) > PIECES_ABOVE:
        return decode_in_pieces("UTF-8", data, _strict_utf8)[0]
    return data.decode("utf-8")


def _latin1(data: bytes) -> tuple[str, int]:
    return data.decode("latin-1"), 0


# The warm-up, so that the first large body already grows in place: CPython 3.11+
# specializes a function's ``+=`` of strings (BINARY_OP_INPLACE_ADD_UNICODE, which
# resizes the string) once the function has run a few times (3.10 always resizes).
for _ in range(16):
    decode_in_pieces("windows-1252", b"abc", _latin1, 1)
