"""Spec-literal decoders of the Encoding Standard, for checking the cut rules and the
error counts.

Each handler follows https://encoding.spec.whatwg.org/ step by step (ioQueue,
"restore", end-of-queue, every state variable). Index lookups go through a
fake index (``_index``) with holes by default, because the cut rules in
``browser_decode._split`` must hold whatever the index contains; with
``real=True`` (:func:`reference_decode_counting`) they use the standard's pointer
formulas and its indexes, read here from ``spec/whatwg-encoding/indexes.json``.
:func:`run_counting` also returns how many times the handler returned error.
Slow and only for tests.
"""

from __future__ import annotations

import functools
import json
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

EOQ = -1
CONTINUE = "continue"
FINISHED = "finished"
ERROR = "error"
Result = str | list[int]
Handler = Callable[[deque[int], int], Result]
#: (leading byte, byte) -> the code points of the pair, or None (null)
PairLookup = Callable[[int, int], "list[int] | None"]

_SPEC = Path(__file__).resolve().parent.parent / "spec" / "whatwg-encoding"


def _index(pointer: int) -> int | None:
    return None if pointer % 5 == 0 else 0x4E00 + pointer % 20000


@functools.cache
def _indexes() -> dict[str, Any]:
    result: dict[str, Any] = json.loads((_SPEC / "indexes.json").read_text("utf-8"))
    return result


def index_code_point(name: str, pointer: int | None) -> int | None:
    """ "The index code point for pointer in index": null for a null pointer or entry."""
    index = _indexes()[name]
    if pointer is None or not 0 <= pointer < len(index):
        return None
    code_point: int | None = index[pointer]
    return code_point


def _fake_pair(trail_ok: Callable[[int], bool]) -> PairLookup:
    def lookup(lead: int, byte: int) -> list[int] | None:
        cp = _index(lead * 256 + byte) if trail_ok(byte) else None
        return None if cp is None else [cp]

    return lookup


def _one(cp: int | None) -> list[int] | None:
    return None if cp is None else [cp]


def _shift_jis_pair(leading: int, byte: int) -> list[int] | None:
    # "4. Let offset be 0x40 if byte is less than 0x7F; otherwise 0x41. 5. Let leadingOffset
    # be 0x81 if leading is less than 0xA0; otherwise 0xC1. 6. If byte is in the range 0x40
    # to 0x7E, inclusive, or 0x80 to 0xFC, inclusive, then set pointer to (leading -
    # leadingOffset) x 188 + byte - offset. 7. If pointer is in the range 8836 to 10715,
    # inclusive, then return a code point whose value is 0xE000 - 8836 + pointer. 8. Let
    # codePoint be null if pointer is null; otherwise the index code point for pointer in
    # index jis0208."
    offset = 0x40 if byte < 0x7F else 0x41
    leading_offset = 0x81 if leading < 0xA0 else 0xC1
    if not (0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFC):
        return None
    pointer = (leading - leading_offset) * 188 + byte - offset
    if 8836 <= pointer <= 10715:
        return [0xE000 - 8836 + pointer]
    return _one(index_code_point("jis0208", pointer))


def _big5_pair(leading: int, byte: int) -> list[int] | None:
    # "4. Let offset be 0x40 if byte is less than 0x7F; otherwise 0x62. 5. If byte is in the
    # range 0x40 to 0x7E, inclusive, or 0xA1 to 0xFE, inclusive, then set pointer to
    # (leading - 0x81) x 157 + (byte - offset). 6. If there is a row in the table below
    # whose first column is pointer, then return the two code points listed in its second
    # column ... 7. Let codePoint be null if pointer is null; otherwise the index code
    # point for pointer in index Big5."
    offset = 0x40 if byte < 0x7F else 0x62
    if not (0x40 <= byte <= 0x7E or 0xA1 <= byte <= 0xFE):
        return None
    pointer = (leading - 0x81) * 157 + (byte - offset)
    two = {1133: [0xCA, 0x304], 1135: [0xCA, 0x30C], 1164: [0xEA, 0x304], 1166: [0xEA, 0x30C]}
    if pointer in two:
        return two[pointer]
    return _one(index_code_point("big5", pointer))


def _euc_kr_pair(leading: int, byte: int) -> list[int] | None:
    # "4. If byte is in the range 0x41 to 0xFE, inclusive, then set pointer to
    # (leading - 0x81) x 190 + (byte - 0x41). 5. Let codePoint be null if pointer is
    # null; otherwise the index code point for pointer in index EUC-KR."
    if not 0x41 <= byte <= 0xFE:
        return None
    return _one(index_code_point("euc-kr", (leading - 0x81) * 190 + (byte - 0x41)))


def _gb18030_pair(leading: int, byte: int) -> list[int] | None:
    # "5. Let offset be 0x40 if byte is less than 0x7F; otherwise 0x41. 6. If byte is in
    # the range 0x40 to 0x7E, inclusive, or 0x80 to 0xFE, inclusive, then set pointer to
    # (leading - 0x81) x 190 + (byte - offset). 7. Let codePoint be null if pointer is
    # null; otherwise the index code point for pointer in index gb18030."
    offset = 0x40 if byte < 0x7F else 0x41
    if not (0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFE):
        return None
    return _one(index_code_point("gb18030", (leading - 0x81) * 190 + (byte - offset)))


def _gb18030_four(first: int, second: int, third: int, byte: int) -> int | None:
    # "2. Let codePoint be the index gb18030 ranges code point for (((gb18030 first -
    # 0x81) x (10 x 126 x 10)) + ((gb18030 second - 0x30) x (10 x 126)) + ((gb18030 third
    # - 0x81) x 10) + byte - 0x30."
    pointer = (first - 0x81) * 12600 + (second - 0x30) * 1260 + (third - 0x81) * 10 + byte - 0x30
    # index gb18030 ranges code point: "1. If pointer is greater than 39419 and less than
    # 189000, or pointer is greater than 1237575, then return null. 2. If pointer is 7457,
    # then return code point U+E7C7. 3. Let offset be the last pointer in index gb18030
    # ranges that is less than or equal to pointer and let codePointOffset be its
    # corresponding code point. 4. Return a code point whose value is codePointOffset +
    # pointer - offset."
    if 39419 < pointer < 189000 or pointer > 1237575:
        return None
    if pointer == 7457:
        return 0xE7C7
    offset, code_point_offset = max(
        (p, cp) for p, cp in _indexes()["gb18030-ranges"] if p <= pointer
    )
    return int(code_point_offset + pointer - offset)


def _jis_pair(name: str, base: int) -> PairLookup:
    # EUC-JP: "(leading - 0xA1) x 94 + byte - 0xA1" (both in 0xA1-0xFE);
    # ISO-2022-JP: "(ISO-2022-JP leading - 0x21) x 94 + byte - 0x21".
    def lookup(leading: int, byte: int) -> list[int] | None:
        if not (base <= leading <= base + 0x5D and base <= byte <= base + 0x5D):
            return None
        return _one(index_code_point(name, (leading - base) * 94 + byte - base))

    return lookup


def _restore(queue: deque[int], *items: int) -> None:
    queue.extendleft(reversed(items))


def run(handler: Handler, data: bytes) -> str:
    """The standard's "process a queue" in replacement mode."""
    return run_counting(handler, data)[0]


def run_counting(handler: Handler, data: bytes) -> tuple[str, int]:
    """The standard's "process a queue" in replacement mode, and how many errors:
    "If result is error, switch on mode and then: replacement: Push U+FFFD (�) to
    output." -- https://encoding.spec.whatwg.org/#process-an-item"""
    queue: deque[int] = deque(data)
    out: list[str] = []
    errors = 0
    while True:
        byte = queue.popleft() if queue else EOQ
        result = handler(queue, byte)
        if result == FINISHED:
            return "".join(out), errors
        if result == ERROR:
            errors += 1
            out.append("\ufffd")
        elif isinstance(result, list):
            out.extend(map(chr, result))


def utf8() -> Handler:
    s = {"cp": 0, "seen": 0, "needed": 0, "lo": 0x80, "hi": 0xBF}

    def handler(queue: deque[int], byte: int) -> Result:
        if byte == EOQ and s["needed"]:
            s["needed"] = 0
            return ERROR
        if byte == EOQ:
            return FINISHED
        if s["needed"] == 0:
            if byte <= 0x7F:
                return [byte]
            if 0xC2 <= byte <= 0xDF:
                s["needed"], s["cp"] = 1, byte & 0x1F
            elif 0xE0 <= byte <= 0xEF:
                if byte == 0xE0:
                    s["lo"] = 0xA0
                if byte == 0xED:
                    s["hi"] = 0x9F
                s["needed"], s["cp"] = 2, byte & 0xF
            elif 0xF0 <= byte <= 0xF4:
                if byte == 0xF0:
                    s["lo"] = 0x90
                if byte == 0xF4:
                    s["hi"] = 0x8F
                s["needed"], s["cp"] = 3, byte & 0x7
            else:
                return ERROR
            return CONTINUE
        if not s["lo"] <= byte <= s["hi"]:
            s.update(cp=0, needed=0, seen=0, lo=0x80, hi=0xBF)
            _restore(queue, byte)
            return ERROR
        s["lo"], s["hi"] = 0x80, 0xBF
        s["cp"] = (s["cp"] << 6) | (byte & 0x3F)
        s["seen"] += 1
        if s["seen"] != s["needed"]:
            return CONTINUE
        cp = s["cp"]
        s.update(cp=0, needed=0, seen=0)
        return [cp]

    return handler


def _leading_family(
    lead_ranges: tuple[tuple[int, int], ...],
    trail_ok: Callable[[int], bool],
    singles: Callable[[int], int | None],
    pair: PairLookup | None = None,
) -> Handler:
    """Shift_JIS, Big5 and EUC-KR share this shape (*pair*: the pointer formula and the
    index; by default a simplified formula and the fake index)."""
    lookup = pair or _fake_pair(trail_ok)
    s = {"lead": 0}

    def handler(queue: deque[int], byte: int) -> Result:
        if byte == EOQ and s["lead"]:
            s["lead"] = 0
            return ERROR
        if byte == EOQ:
            return FINISHED
        if s["lead"]:
            lead, s["lead"] = s["lead"], 0
            cps = lookup(lead, byte)
            if cps is not None:
                return cps
            if byte <= 0x7F:
                _restore(queue, byte)
            return ERROR
        single = singles(byte)
        if single is not None:
            return [single]
        if any(low <= byte <= high for low, high in lead_ranges):
            s["lead"] = byte
            return CONTINUE
        return ERROR

    return handler


def shift_jis(real: bool = False) -> Handler:
    return _leading_family(
        ((0x81, 0x9F), (0xE0, 0xFC)),
        lambda b: 0x40 <= b <= 0x7E or 0x80 <= b <= 0xFC,
        lambda b: b if b <= 0x80 else (0xFF61 - 0xA1 + b if 0xA1 <= b <= 0xDF else None),
        _shift_jis_pair if real else None,
    )


def big5(real: bool = False) -> Handler:
    return _leading_family(
        ((0x81, 0xFE),),
        lambda b: 0x40 <= b <= 0x7E or 0xA1 <= b <= 0xFE,
        lambda b: b if b <= 0x7F else None,
        _big5_pair if real else None,
    )


def euc_kr(real: bool = False) -> Handler:
    return _leading_family(
        ((0x81, 0xFE),),
        lambda b: 0x41 <= b <= 0xFE,
        lambda b: b if b <= 0x7F else None,
        _euc_kr_pair if real else None,
    )


def gb18030(real: bool = False) -> Handler:
    s = {"first": 0, "second": 0, "third": 0}
    two = _gb18030_pair if real else _fake_pair(lambda b: 0x40 <= b <= 0x7E or 0x80 <= b <= 0xFE)

    def handler(queue: deque[int], byte: int) -> Result:
        if byte == EOQ and not (s["first"] or s["second"] or s["third"]):
            return FINISHED
        if byte == EOQ:
            s.update(first=0, second=0, third=0)
            return ERROR
        if s["third"]:
            if not 0x30 <= byte <= 0x39:
                _restore(queue, s["second"], s["third"], byte)
                s.update(first=0, second=0, third=0)
                return ERROR
            if real:
                cp = _gb18030_four(s["first"], s["second"], s["third"], byte)
            else:
                cp = _index(s["first"] * 10000 + s["second"] * 100 + s["third"] * 10 + byte)
            s.update(first=0, second=0, third=0)
            return ERROR if cp is None else [cp]
        if s["second"]:
            if 0x81 <= byte <= 0xFE:
                s["third"] = byte
                return CONTINUE
            _restore(queue, s["second"], byte)
            s.update(first=0, second=0)
            return ERROR
        if s["first"]:
            if 0x30 <= byte <= 0x39:
                s["second"] = byte
                return CONTINUE
            leading, s["first"] = s["first"], 0
            cps = two(leading, byte)
            if cps is not None:
                return cps
            if byte <= 0x7F:
                _restore(queue, byte)
            return ERROR
        if byte <= 0x7F:
            return [byte]
        if byte == 0x80:
            return [0x20AC]
        if 0x81 <= byte <= 0xFE:
            s["first"] = byte
            return CONTINUE
        return ERROR

    return handler


def euc_jp(real: bool = False) -> Handler:
    s = {"jis0212": 0, "lead": 0}
    jis0208, jis0212 = _jis_pair("jis0208", 0xA1), _jis_pair("jis0212", 0xA1)

    def handler(queue: deque[int], byte: int) -> Result:
        if byte == EOQ and s["lead"]:
            s["lead"] = 0
            return ERROR
        if byte == EOQ:
            return FINISHED
        if s["lead"] == 0x8E and 0xA1 <= byte <= 0xDF:
            s["lead"] = 0
            return [0xFF61 - 0xA1 + byte]
        if s["lead"] == 0x8F and 0xA1 <= byte <= 0xFE:
            s["jis0212"], s["lead"] = 1, byte
            return CONTINUE
        if s["lead"]:
            lead, s["lead"] = s["lead"], 0
            cps = None
            if real:
                cps = (jis0212 if s["jis0212"] else jis0208)(lead, byte)
            elif 0xA1 <= lead <= 0xFE and 0xA1 <= byte <= 0xFE:
                cps = _one(_index(lead * 256 + byte + s["jis0212"]))
            s["jis0212"] = 0
            if cps is not None:
                return cps
            if byte <= 0x7F:
                _restore(queue, byte)
            return ERROR
        if byte <= 0x7F:
            return [byte]
        if byte in (0x8E, 0x8F) or 0xA1 <= byte <= 0xFE:
            s["lead"] = byte
            return CONTINUE
        return ERROR

    return handler


def iso_2022_jp(real: bool = False) -> Handler:
    s: dict[str, object] = {"state": "ascii", "out": "ascii", "lead": 0, "output": False}
    jis0208 = _jis_pair("jis0208", 0x21)

    def handler(queue: deque[int], byte: int) -> Result:
        state = s["state"]
        if state in ("ascii", "roman", "katakana", "leading"):
            if byte == 0x1B:
                s["state"] = "escape start"
                return CONTINUE
            if byte == EOQ:
                return FINISHED
            s["output"] = False
            if state == "ascii":
                return [byte] if byte <= 0x7F and byte not in (0x0E, 0x0F) else ERROR
            if state == "roman":
                if byte == 0x5C:
                    return [0xA5]
                if byte == 0x7E:
                    return [0x203E]
                return [byte] if byte <= 0x7F and byte not in (0x0E, 0x0F) else ERROR
            if state == "katakana":
                return [0xFF61 - 0x21 + byte] if 0x21 <= byte <= 0x5F else ERROR
            if 0x21 <= byte <= 0x7E:
                s["lead"], s["state"] = byte, "trailing"
                return CONTINUE
            return ERROR
        if state == "trailing":
            if byte == 0x1B:
                s["state"] = "escape start"
                return ERROR
            s["state"] = "leading"
            if 0x21 <= byte <= 0x7E:
                lead = int(s["lead"])  # type: ignore[call-overload]
                pointer = (lead - 0x21) * 94 + byte - 0x21
                cps = jis0208(lead, byte) if real else _one(_index(pointer))
                return ERROR if cps is None else cps
            return ERROR
        if state == "escape start":
            if byte in (0x24, 0x28):
                s["lead"], s["state"] = byte, "escape"
                return CONTINUE
            if byte != EOQ:
                _restore(queue, byte)
            s["output"], s["state"] = False, s["out"]
            return ERROR
        lead, s["lead"] = s["lead"], 0
        new = None
        if lead == 0x28 and byte == 0x42:
            new = "ascii"
        if lead == 0x28 and byte == 0x4A:
            new = "roman"
        if lead == 0x28 and byte == 0x49:
            new = "katakana"
        if lead == 0x24 and byte in (0x40, 0x42):
            new = "leading"
        if new is not None:
            s["state"] = s["out"] = new
            output = s["output"]
            s["output"] = True
            return ERROR if output else CONTINUE
        if byte == EOQ:
            _restore(queue, int(lead))  # type: ignore[call-overload]
        else:
            _restore(queue, int(lead), byte)  # type: ignore[call-overload]
        s["output"], s["state"] = False, s["out"]
        return ERROR

    return handler


def single_byte(index: str) -> Handler:
    def handler(queue: deque[int], byte: int) -> Result:
        # "1. If byte is end-of-queue, then return finished. 2. If byte is an ASCII byte,
        # return a code point whose value is byte. 3. Let code point be the index code point
        # for byte - 0x80 in index single-byte. 4. If code point is null, then return
        # error. 5. Return a code point whose value is code point."
        if byte == EOQ:
            return FINISHED
        if byte <= 0x7F:
            return [byte]
        cp = index_code_point(index, byte - 0x80)
        return ERROR if cp is None else [cp]

    return handler


def x_user_defined() -> Handler:
    def handler(queue: deque[int], byte: int) -> Result:
        # "1. If byte is end-of-queue, then return finished. 2. If byte is an ASCII byte,
        # return a code point whose value is byte. 3. Return a code point whose value is
        # 0xF780 + byte - 0x80."
        if byte == EOQ:
            return FINISHED
        return [byte] if byte <= 0x7F else [0xF780 + byte - 0x80]

    return handler


def replacement() -> Handler:
    s = {"returned": False}

    def handler(queue: deque[int], byte: int) -> Result:
        # "1. If byte is end-of-queue, then return finished. 2. If replacement error
        # returned is false, set replacement error returned to true and return error.
        # 3. Return finished."
        if byte == EOQ:
            return FINISHED
        if not s["returned"]:
            s["returned"] = True
            return ERROR
        return FINISHED

    return handler


def utf16(big_endian: bool) -> Handler:
    s: dict[str, int | None] = {"byte": None, "surrogate": None}

    def handler(queue: deque[int], byte: int) -> Result:
        if byte == EOQ and (s["byte"] is not None or s["surrogate"] is not None):
            s["byte"] = s["surrogate"] = None
            return ERROR
        if byte == EOQ:
            return FINISHED
        if s["byte"] is None:
            s["byte"] = byte
            return CONTINUE
        first = s["byte"]
        unit = (first << 8) + byte if big_endian else (byte << 8) + first
        s["byte"] = None
        if s["surrogate"] is not None:
            lead, s["surrogate"] = s["surrogate"], None
            if 0xDC00 <= unit <= 0xDFFF:
                return [0x10000 + ((lead - 0xD800) << 10) + (unit - 0xDC00)]
            high, low = unit >> 8, unit & 0xFF
            _restore(queue, *((high, low) if big_endian else (low, high)))
            return ERROR
        if 0xD800 <= unit <= 0xDBFF:
            s["surrogate"] = unit
            return CONTINUE
        if 0xDC00 <= unit <= 0xDFFF:
            return ERROR
        return [unit]

    return handler


REFERENCE: dict[str, Callable[[], Handler]] = {
    "UTF-8": utf8,
    "Shift_JIS": shift_jis,
    "Big5": big5,
    "EUC-KR": euc_kr,
    "gb18030": gb18030,
    "GBK": gb18030,
    "EUC-JP": euc_jp,
    "ISO-2022-JP": iso_2022_jp,
    "UTF-16LE": lambda: utf16(False),
    "UTF-16BE": lambda: utf16(True),
}


def reference_decode(name: str, data: bytes) -> str:
    return run(REFERENCE[name](), data)


_REAL: dict[str, Callable[[], Handler]] = {
    "Shift_JIS": lambda: shift_jis(real=True),
    "Big5": lambda: big5(real=True),
    "EUC-KR": lambda: euc_kr(real=True),
    "gb18030": lambda: gb18030(real=True),
    "GBK": lambda: gb18030(real=True),
    "EUC-JP": lambda: euc_jp(real=True),
    "ISO-2022-JP": lambda: iso_2022_jp(real=True),
    "x-user-defined": x_user_defined,
    "replacement": replacement,
}


def real_handler(name: str) -> Handler:
    """The standard's decoder of the encoding *name* (any of the 40), with its indexes."""
    if name in _REAL:
        return _REAL[name]()
    if name in REFERENCE:  # the UTF decoders use no index
        return REFERENCE[name]()
    # "ISO-8859-8 and ISO-8859-8-I are distinct encoding names ... they share the same index"
    return single_byte("iso-8859-8" if name == "ISO-8859-8-I" else name.lower())


def reference_decode_counting(name: str, data: bytes) -> tuple[str, int]:
    """The standard's decoder of *name* with the real indexes: the text and the errors."""
    return run_counting(real_handler(name), data)
