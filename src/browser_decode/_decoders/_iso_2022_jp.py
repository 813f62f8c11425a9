"""ISO-2022-JP decoder (Encoding Standard 12.2, https://encoding.spec.whatwg.org/#iso-2022-jp-decoder).

The decoder is stateful, but its state changes only at ESC (0x1B). Splitting the input at
escape sequences gives runs of bytes decoded in one state each:

* ASCII, Roman and katakana runs map byte for byte (``codecs.charmap_decode``);
* leading-byte runs are JIS X 0208 pairs. Adding 0x80 to every byte 0x21-0x7E and mapping
  every other byte to 0x80 turns them into EUC-JP with the same behaviour: a pair of bytes
  0xA1-0xFE is the same jis0208 pointer ("(ISO-2022-JP leading - 0x21) x 94 + byte - 0x21"
  = "(leading - 0xA1) x 94 + byte - 0xA1"), a pair with a byte outside 0x21-0x7E is one
  error (EUC-JP: a leading byte then a non-ASCII byte), a lone such byte is one error
  (0x80 is not an EUC-JP leading byte) and so is a leading byte left at the end of a run
  (EUC-JP: a leading byte before the ``\\n`` that separates the runs, which is restored).

All runs of one state are decoded in one call (joined by a separator byte that never occurs
inside a run), so the work per escape sequence is a few C-level list operations. What the
escape sequences themselves output (nothing, or U+FFFD for an invalid one and for a valid
one right after another, the "ISO-2022-JP output" flag) is computed separately.

Before that, :func:`decode` tries a fast path for the text that encoders write (escape
sequences ``ESC $ B`` and ``ESC ( B``/``ESC ( J`` in turn, JIS X 0208 runs of bytes 0x21-0x7E
only): Python's ``iso2022_jp`` codec, which on such input differs from the standard only in
a few JIS X 0208 characters (found on first use by comparing every pair) and in the pairs it
does not map (decoded by an error handler from index jis0208). :func:`_simple_text`
checks the shape with one regular expression; anything else takes the exact path above.
"""

from __future__ import annotations

import codecs
import re
import sys
import threading
from collections.abc import Callable
from itertools import accumulate, compress, repeat
from operator import eq, itemgetter

from .._cjk_jis import JIS0208
from .._indexes import NO_CODE_POINT
from ._euc_jp import FAST as _EUC_JP
from ._multibyte import (
    CONTINUE,
    ERROR,
    FINISHED,
    Fixes,
    Handler,
    IOQueue,
    checksum,
    run_handler,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

ASCII: Final = "ASCII"
ROMAN: Final = "Roman"
KATAKANA: Final = "katakana"
LEADING: Final = "leading byte"
_TRAILING: Final = "trailing byte"
_ESCAPE_START: Final = "escape start"
_ESCAPE: Final = "escape"


def _escape_state(leading: int, byte: int | None) -> str | None:
    # "3. If leading is 0x28 and byte is 0x42, then set state to ASCII.
    # 4. If leading is 0x28 and byte is 0x4A, then set state to Roman.
    # 5. If leading is 0x28 and byte is 0x49, then set state to katakana.
    # 6. If leading is 0x24 and byte is either 0x40 or 0x42, then set state to leading byte."
    return {
        (0x28, 0x42): ASCII,
        (0x28, 0x4A): ROMAN,
        (0x28, 0x49): KATAKANA,
        (0x24, 0x40): LEADING,
        (0x24, 0x42): LEADING,
    }.get((leading, -1 if byte is None else byte))


def _jis0208(leading: int, byte: int) -> str | None:
    # "2. Let pointer be (ISO-2022-JP leading - 0x21) x 94 + byte - 0x21.
    # 3. Let codePoint be the index code point for pointer in index jis0208."
    pointer = (leading - 0x21) * 94 + byte - 0x21
    if pointer < len(JIS0208) and JIS0208[pointer] != NO_CODE_POINT:
        return JIS0208[pointer]
    return None


def _handler() -> Handler:
    state = output_state = ASCII
    leading = 0
    output = False

    def handler(queue: IOQueue, byte: int | None) -> str | int:
        nonlocal state, output_state, leading, output
        if state in (ASCII, ROMAN, KATAKANA, LEADING):
            # "0x1B: Set ISO-2022-JP decoder state to escape start and return continue."
            if byte == 0x1B:
                state = _ESCAPE_START
                return CONTINUE
            # "end-of-queue: Return finished."
            if byte is None:
                return FINISHED
            # "Set ISO-2022-JP output to false" (every other byte, in all four states)
            output = False
            if state == ASCII and byte <= 0x7F and byte not in (0x0E, 0x0F):
                return chr(byte)
            if state == ROMAN and byte <= 0x7F and byte not in (0x0E, 0x0F):
                # "0x5C: ... return code point U+00A5 (¥). 0x7E: ... return code point
                # U+203E (‾)."
                return {0x5C: "\u00a5", 0x7E: "\u203e"}.get(byte, chr(byte))
            if state == KATAKANA and 0x21 <= byte <= 0x5F:
                # "return a code point whose value is 0xFF61 - 0x21 + byte."
                return chr(0xFF61 - 0x21 + byte)
            if state == LEADING and 0x21 <= byte <= 0x7E:
                # "Set ISO-2022-JP output to false, ISO-2022-JP leading to byte, ISO-2022-JP
                # decoder state to trailing byte, and return continue."
                leading = byte
                state = _TRAILING
                return CONTINUE
            # "Otherwise: Set ISO-2022-JP output to false and return error."
            return ERROR
        if state == _TRAILING:
            # "0x1B: Set ISO-2022-JP decoder state to escape start and return error."
            if byte == 0x1B:
                state = _ESCAPE_START
                return ERROR
            # "0x21 to 0x7E: 1. Set the ISO-2022-JP decoder state to leading byte. ...
            # 4. If codePoint is null, then return error. 5. Return a code point whose
            # value is codePoint."
            state = LEADING
            if byte is not None and 0x21 <= byte <= 0x7E:
                code_point = _jis0208(leading, byte)
                return ERROR if code_point is None else code_point
            # "end-of-queue" and "Otherwise: Set ISO-2022-JP decoder state to leading byte
            # and return error."
            return ERROR
        if state == _ESCAPE_START:
            # "1. If byte is either 0x24 or 0x28, then set ISO-2022-JP leading to byte,
            # ISO-2022-JP decoder state to escape, and return continue."
            if byte in (0x24, 0x28):
                assert byte is not None
                leading = byte
                state = _ESCAPE
                return CONTINUE
            # "2. If byte is not end-of-queue, then restore byte to ioQueue.
            # 3. Set ISO-2022-JP output to false, ISO-2022-JP decoder state to ISO-2022-JP
            # decoder output state, and return error."
            if byte is not None:
                queue.restore(byte)
            output = False
            state = output_state
            return ERROR
        # Escape. "1. Let leading be ISO-2022-JP leading and set ISO-2022-JP leading to 0x00."
        lead, leading = leading, 0
        new_state = _escape_state(lead, byte)
        # "7. If state is non-null: 1. Set ISO-2022-JP decoder state and ISO-2022-JP decoder
        # output state to state. 2. Let output be the value of ISO-2022-JP output. 3. Set
        # ISO-2022-JP output to true. 4. Return continue, if output is false, and error
        # otherwise."
        if new_state is not None:
            state = output_state = new_state
            was, output = output, True
            return ERROR if was else CONTINUE
        # "8. If byte is end-of-queue, then restore leading to ioQueue; otherwise, restore
        # « leading, byte » to ioQueue.
        # 9. Set ISO-2022-JP output to false, ISO-2022-JP decoder state to ISO-2022-JP
        # decoder output state and return error."
        if byte is None:
            queue.restore(lead)
        else:
            queue.restore(lead, byte)
        output = False
        state = output_state
        return ERROR

    return handler


def reference_decode(data: bytes) -> str:
    """The standard's ISO-2022-JP decoder, step by step (slow; for tests)."""
    return run_handler(_handler(), data)


# -- the fast decoder ---------------------------------------------------------------------------

# A valid escape sequence, or a lone ESC: "escape start" or "escape" failed, ESC is an error
# and the bytes after it are restored, so they start the next run.
_SPLIT: Final = re.compile(rb"(\x1b(?:\(B|\(J|\(I|\$@|\$B)?)")
_LONE_ESC: Final = b"\x1b"
_ESCAPES: Final[dict[bytes, str]] = {
    b"\x1b(B": ASCII,
    b"\x1b(J": ROMAN,
    b"\x1b(I": KATAKANA,
    b"\x1b$@": LEADING,
    b"\x1b$B": LEADING,
}
_SENTINEL: Final = "\uffff"  # output for the separator byte ESC; no state outputs it


def _charmap(state: str) -> str:
    chars = []
    for byte in range(256):
        if byte == 0x1B:
            chars.append(_SENTINEL)
        elif state == KATAKANA:
            chars.append(chr(0xFF61 - 0x21 + byte) if 0x21 <= byte <= 0x5F else "\ufffd")
        elif byte > 0x7F or byte in (0x0E, 0x0F):
            chars.append("\ufffd")
        elif state == ROMAN and byte in (0x5C, 0x7E):
            chars.append("\u00a5" if byte == 0x5C else "\u203e")
        else:
            chars.append(chr(byte))
    return "".join(chars)


_CHARMAPS: Final = {state: _charmap(state) for state in (ASCII, ROMAN, KATAKANA)}
# Leading-byte runs as EUC-JP: 0x21-0x7E -> 0xA1-0xFE, the separator ESC -> "\n", else 0x80.
_TO_EUC_JP: Final = bytes(
    b + 0x80 if 0x21 <= b <= 0x7E else 0x0A if b == 0x1B else 0x80 for b in range(256)
)


def _decode_runs(state: str, runs: list[bytes]) -> list[str]:
    joined = _LONE_ESC.join(runs)
    if state == LEADING:
        pieces = _EUC_JP(joined.translate(_TO_EUC_JP)).split("\n")
    else:
        pieces = codecs.charmap_decode(joined, "strict", _CHARMAPS[state])[0].split(_SENTINEL)
    assert len(pieces) == len(runs)
    return pieces


def _carry(state: str, escape_state: str | None) -> str:
    return state if escape_state is None else escape_state


def _escape_outputs(runs: list[bytes], escapes: list[bytes], output: bool) -> list[str]:
    """U+FFFD for each lone ESC, and for each valid escape sequence that directly follows
    another one (ISO-2022-JP output is true only between the two; *output* is its value
    before runs[0])."""
    outputs = []
    for run, escape in zip(runs[:-1], escapes, strict=True):
        if run:
            output = False
        if escape == _LONE_ESC:
            outputs.append("\ufffd")
            output = False
        else:
            outputs.append("\ufffd" if output else "")
            output = True
    return outputs


_CODE: Final = itemgetter(slice(0, 2))
_AFTER_CODE: Final = itemgetter(slice(2, None))
_CODES: Final[dict[bytes, str]] = {escape[1:]: state for escape, state in _ESCAPES.items()}


# Inputs are decoded in parts of at least this many bytes, cut just before an ESC, so that
# the lists made per escape sequence stay small whatever the input.
_PART: Final = 1 << 16


# -- the fast path for the text encoders write ---------------------------------------------------

_JIS_BYTES: Final = bytes(range(0x21, 0x7F))
_CODEC: Final = "iso2022_jp"
_ERRORS: Final = "browser_decode.iso2022_jp"


class _Errors(threading.local):
    def __init__(self) -> None:
        #: the errors :func:`_on_error` decoded in this thread's current decode
        self.count = 0


_errors: Final = _Errors()


class _NotSimple(Exception):
    """Raised through the codec by :func:`_on_error`: the input needs the exact path."""


def _on_error(exc: UnicodeError) -> tuple[str, int]:
    """The codec's error handler. Given :func:`_simple_text`, the codec (which accepts every
    byte below 0x80 but 0x1B in ASCII and Roman state) can only fail on a byte 0x80 or
    above, or on a JIS X 0208 pair: "0x21 to 0x7E: ... Let pointer be (ISO-2022-JP leading
    - 0x21) x 94 + byte - 0x21. Let codePoint be ... index jis0208. If codePoint is null,
    then return error." A pair it does not know is decoded here; anything else is not
    simple."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    data: bytes = exc.object
    start = exc.start
    if start + 1 < len(data) and 0x21 <= data[start] <= 0x7E and 0x21 <= data[start + 1] <= 0x7E:
        code_point = _jis0208(data[start], data[start + 1])
        if code_point is None:
            # "4. If codePoint is null, then return error."
            _errors.count += 1
            return "\ufffd", start + 2
        return code_point, start + 2
    raise _NotSimple


_fixes: tuple[Fixes, frozenset[str]] | None = None


def measure() -> tuple[dict[str, str], frozenset[str]]:
    """What to replace in the codec's text, and the characters that make the fast path
    decline: every pair of bytes 0x21-0x7E in JIS X 0208 state, decoded by the codec and by
    index jis0208. A character the codec gives for a pair where the standard gives another,
    and for nothing else (no other pair, no ASCII or Roman byte), is replaced; the fast path
    declines text with any other differing one (there are none). (8,836 decodes: 10 ms.)"""
    differing: dict[str, set[str]] = {}
    agreeing = {chr(b) for b in range(0x80)} | {"\u00a5", "\u203e"}
    for lead in _JIS_BYTES:
        for byte in _JIS_BYTES:
            try:
                got = bytes([0x1B, 0x24, 0x42, lead, byte]).decode(_CODEC)
            except UnicodeDecodeError:
                continue  # the error handler decodes it
            want = _jis0208(lead, byte) or "\ufffd"
            if got == want:
                agreeing.add(got)
            else:
                differing.setdefault(got, set()).add(want)
    replace = {
        char: wants.pop()
        for char, wants in differing.items()
        if len(wants) == 1 and char not in agreeing
    }
    return replace, frozenset(differing.keys() - replace.keys())


def fingerprint() -> tuple[str, ...]:
    """A checksum of what the codec does with every pair :func:`measure` decodes: each
    after ``ESC $ B`` and before ``ESC ( B``, all in one call with ``replace`` and one with
    ``ignore`` (see :func:`~._multibyte.codec_fingerprint`); 0.5 ms instead of 10."""
    count = len(_JIS_BYTES) ** 2
    pairs = bytearray(8 * count)
    for at, byte in enumerate(b"\x1b$B"):
        pairs[at::8] = bytes([byte]) * count
    pairs[3::8] = b"".join(bytes([lead]) * len(_JIS_BYTES) for lead in _JIS_BYTES)
    pairs[4::8] = _JIS_BYTES * len(_JIS_BYTES)
    for at, byte in enumerate(b"\x1b(B", 5):
        pairs[at::8] = bytes([byte]) * count
    decode = codecs.lookup(_CODEC).decode
    return checksum(decode(pairs, "replace")[0]), checksum(decode(pairs, "ignore")[0])


def _codec_fixes() -> tuple[Fixes, frozenset[str]]:
    """:func:`measure`'s result: as recorded (``tools/gen_tables.py``) for a codec with
    this :func:`fingerprint`, else measured now."""
    global _fixes
    if _fixes is None:
        from ._measured import ISO_2022_JP

        found = fingerprint()
        recorded = [record for record in ISO_2022_JP if record[0] == found]
        replace, suspects = (
            (dict(recorded[0][1]), frozenset(recorded[0][2])) if recorded else measure()
        )
        codecs.register_error(_ERRORS, _on_error)
        _fixes = Fixes(replace), suspects
    return _fixes


# What encoders write: ASCII text, then ``ESC $ B`` and a run of bytes 0x21-0x7E, then
# ``ESC ( B`` or ``ESC ( J`` and a run of anything but ESC, and so on; every run but the last
# non-empty (a valid escape sequence right after another one outputs U+FFFD). Each run ends
# at an ESC that it cannot hold, so the expression has one way to match: the quantifiers are
# possessive where Python has them (3.11), which changes nothing but the time a late failure
# takes (1 MB of encoder text with an error at its end: 1.8 ms instead of 11).
def _encoder_shape(possessive: bytes) -> re.Pattern[bytes]:
    return re.compile(
        rb"[^\x1b]*%(p)b(?:\x1b\$B[!-~]+%(p)b\x1b\([BJ][^\x1b]+%(p)b)*%(p)b"
        rb"(?:\x1b\$B[!-~]+%(p)b\x1b\([BJ]|\x1b\$B[!-~]*%(p)b)?%(p)b" % {b"p": possessive}
    )


_ENCODER_SHAPE: Final = _encoder_shape(b"+" if sys.version_info >= (3, 11) else b"")


def _simple_text(data: bytes) -> bool:
    """Whether *data* has the shape the fast path needs (:data:`_ENCODER_SHAPE`), without
    SO or SI (errors in ASCII and Roman state, which the codec passes)."""
    return (
        b"\x0e" not in data and b"\x0f" not in data and _ENCODER_SHAPE.fullmatch(data) is not None
    )


def _fast(data: bytes) -> str | None:
    """The standard's decoding of *data* by the codec, or None if that is not sure."""
    found = _fast_counting(data)
    return None if found is None else found[0]


def _fast_counting(data: bytes) -> tuple[str, int] | None:
    """The standard's decoding of *data* by the codec and its number of errors (the
    codec's own output holds no U+FFFD: encoder-shaped text has no error it would decode),
    or None if that is not sure."""
    fixes, suspects = _codec_fixes()
    if not _simple_text(data):
        return None
    _errors.count = 0
    try:
        text: str = data.decode(_CODEC, _ERRORS)
    except _NotSimple:
        return None
    if any(char in text for char in suspects):
        return None
    text, replaced = fixes.replace_counting(text)
    return text, _errors.count + replaced


def decode_counting(data: bytes) -> tuple[str, int]:
    """The ISO-2022-JP decoder, and its number of errors (no index it uses holds U+FFFD,
    so outside the fast path every U+FFFD is an error)."""
    if _LONE_ESC in data:
        fast = _fast_counting(data)
        if fast is not None:
            return fast
    text = decode(data, fast=False)
    return text, text.count("\ufffd")


def decode(data: bytes, *, fast: bool = True) -> str:
    """The ISO-2022-JP decoder (exact; see module doc)."""
    if fast and _LONE_ESC in data:
        found = _fast(data)
        if found is not None:
            return found
    state, output = ASCII, False
    texts = []
    start, n = 0, len(data)
    while start < n:
        cut = data.find(_LONE_ESC, start + _PART) if n - start > 2 * _PART else -1
        cut = n if cut < 0 else cut
        text, state, output = _decode_part(data[start:cut], state, output)
        texts.append(text)
        start = cut
    return "".join(texts)


def _decode_part(data: bytes, state: str, output: bool) -> tuple[str, str, bool]:
    """Decode *data*, which ends at the end of input or just before an ESC, in *state* and
    with ISO-2022-JP output *output*; return the text and the state and output after it (a
    leading byte left at the end meets ESC or end-of-queue: an error either way)."""
    pieces = data.split(_LONE_ESC)
    if len(pieces) == 1:
        text = _decode_runs(state, [data])[0]
        return text, state, output and not data
    # Usually every ESC starts a valid escape sequence: then bytes.split finds them all.
    codes = list(map(_CODE, pieces[1:]))
    escapes: list[bytes] | None
    if set(codes) <= _CODES.keys():
        runs = [pieces[0], *map(_AFTER_CODE, pieces[1:])]
        states = [state, *map(_CODES.__getitem__, codes)]
        escapes = None
    else:
        parts = _SPLIT.split(data)
        runs = parts[0::2]
        escapes = parts[1::2]
        # The state of runs[i] is set by the last valid escape sequence before it.
        states = list(accumulate(map(_ESCAPES.get, escapes), _carry, initial=state))
    texts: list[str] = [""] * len(runs)
    even, odd = set(states[0::2]), set(states[1::2])
    if len(even) == len(odd) == 1:
        # Alternating states, as encoders write them (ASCII, JIS X 0208, ASCII, ...).
        texts[0::2] = _decode_runs(even.pop(), runs[0::2])
        texts[1::2] = _decode_runs(odd.pop(), runs[1::2])
    else:
        outputs = {}
        for each in set(states):
            group = list(compress(runs, map(eq, states, repeat(each))))
            outputs[each] = iter(_decode_runs(each, group))
        texts = list(map(next, map(outputs.__getitem__, states)))
    # After the part, ISO-2022-JP output is true only if it ends with a valid escape sequence.
    end_output = not runs[-1] and (escapes is None or escapes[-1] != _LONE_ESC)
    if escapes is None:
        if b"" not in runs[1:-1] and (runs[0] or not output):
            return "".join(texts), states[-1], end_output
        escapes = [_LONE_ESC + code for code in codes]
    merged: list[str] = [""] * (2 * len(runs) - 1)
    merged[0::2] = texts
    merged[1::2] = _escape_outputs(runs, escapes, output)
    return "".join(merged), states[-1], end_output


DECODERS: Final[dict[str, Callable[[bytes], str]]] = {"ISO-2022-JP": decode}
COUNTING: Final[dict[str, Callable[[bytes], tuple[str, int]]]] = {"ISO-2022-JP": decode_counting}
