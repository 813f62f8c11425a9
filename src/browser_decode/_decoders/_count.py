"""Counting the decoder's errors without a second pass over text that had none.

"If result is error: ... replacement: Push U+FFFD (�) to output."
-- https://encoding.spec.whatwg.org/#decode (process an item)

Every error is one U+FFFD, so the error count is the number of U+FFFD in the text
minus the U+FFFD that the bytes themselves encode (UTF-8 ``EF BF BD``, UTF-16
``FFFD``, gb18030 ``84 31 A4 37``; no other index holds U+FFFD). Counting them in
the whole text costs a pass over it (40% of the UTF-8 decode of a page). Instead, the
Python codecs that do the work decode with the error handler registered here
(``browser_decode.count``): a codec calls it only at its first error, so text that
has none costs nothing more than the codec. The handler decodes on from there, in
stretches of at most :data:`STRETCH` bytes cut where the decoder is back in its
initial state, with the codec's ``"replace"`` handler, counts the errors of the
stretch, and lets the codec resume after it (so one call per stretch, never one
per error, and nothing is decoded twice).

The count lives in a thread-local: a codec calls its error handler synchronously, in
the thread that decodes.
"""

from __future__ import annotations

import codecs
import re
import threading

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

FFFD: Final = "\ufffd"
#: The error handler name of :func:`_on_error`.
COUNT: Final = "browser_decode.count"
#: Bytes decoded per call of the handler (bounds the memory of the stretch's text).
STRETCH: Final = 1 << 18

_UTF8_FFFD: Final = b"\xef\xbf\xbd"
# A byte that is not a UTF-8 continuation byte starts a new sequence in the standard's
# decoder whatever came before it ("If byte is not in the range lower boundary to upper
# boundary ... restore byte to ioQueue. Return error."; end-of-queue in the middle of a
# sequence is the same one error): a cut just before one decodes as the whole does.
_UTF8_BOUNDARY: Final = re.compile(rb"[\x00-\x7f\xc0-\xff]")


class _State(threading.local):
    def __init__(self) -> None:
        self.errors = 0
        self.table = ""


_state: Final = _State()


def _on_error(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    data: bytes = exc.object
    start = exc.start
    encoding = exc.encoding
    view = memoryview(data)
    if encoding == "utf-8":
        end = len(data)
        if end - start > 2 * STRETCH:
            found = _UTF8_BOUNDARY.search(data, start + STRETCH)
            end = end if found is None else found.start()
        text: str = codecs.utf_8_decode(view[start:end], "replace", True)[0]
        errors = text.count(FFFD)
        if errors:
            # An EF byte is never inside another sequence: each EF BF BD is a character.
            errors -= data.count(_UTF8_FFFD, start, end)
    elif encoding in ("utf-16-le", "utf-16-be"):
        # The rest at once (rare): a cut between a surrogate pair would add errors.
        end = len(data)
        rest = view[start:end]
        decode = codecs.utf_16_le_decode if encoding == "utf-16-le" else codecs.utf_16_be_decode
        text = decode(rest, "replace", True)[0]
        errors = text.count(FFFD)
        if errors:
            # Code units FFFD (from an even offset, as the codec errs at unit boundaries)
            # are characters even after a leading surrogate (restored, then decoded).
            errors -= decode(rest[: len(rest) // 2 * 2], "surrogatepass", True)[0].count(FFFD)
    elif encoding == "charmap":
        # The single-byte decoders have no state: any cut is a boundary.
        end = min(len(data), start + STRETCH)
        text = codecs.charmap_decode(view[start:end], "replace", _state.table)[0]
        errors = text.count(FFFD)  # (no single-byte index holds U+FFFD)
    else:  # pragma: no cover - only the codecs above use this handler
        raise exc
    _state.errors += errors
    return text, end


codecs.register_error(COUNT, _on_error)


def utf_counting(codec: str, data: bytes | memoryview) -> tuple[str, int]:
    """*data* decoded by the UTF codec *codec* in replacement mode, and its error count
    (a view is decoded without a copy: a body after its byte order mark)."""
    _state.errors = 0
    text = str(data, codec, COUNT)
    return text, _state.errors


def charmap_counting(data: bytes, table: str) -> tuple[str, int]:
    """``codecs.charmap_decode`` in replacement mode, and its error count."""
    state = _state
    state.errors = 0
    state.table = table
    text: str = codecs.charmap_decode(data, COUNT, table)[0]
    return text, state.errors
