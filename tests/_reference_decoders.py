"""Spec-literal decoders of the Encoding Standard, for checking the cut rules.

Each handler follows https://encoding.spec.whatwg.org/ step by step (ioQueue,
"restore", end-of-queue, every state variable). Index lookups go through a
fake index (``_index``) with holes, because the cut rules in
``browser_decode._split`` must hold whatever the index contains. Slow and
only for tests.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

EOQ = -1
CONTINUE = "continue"
FINISHED = "finished"
ERROR = "error"
Result = str | list[int]
Handler = Callable[[deque[int], int], Result]


def _index(pointer: int) -> int | None:
    return None if pointer % 5 == 0 else 0x4E00 + pointer % 20000


def _restore(queue: deque[int], *items: int) -> None:
    queue.extendleft(reversed(items))


def run(handler: Handler, data: bytes) -> str:
    """The standard's "process a queue" in replacement mode."""
    queue: deque[int] = deque(data)
    out: list[str] = []
    while True:
        byte = queue.popleft() if queue else EOQ
        result = handler(queue, byte)
        if result == FINISHED:
            return "".join(out)
        if result == ERROR:
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
) -> Handler:
    """Shift_JIS, Big5 and EUC-KR share this shape (pointer formula simplified)."""
    s = {"lead": 0}

    def handler(queue: deque[int], byte: int) -> Result:
        if byte == EOQ and s["lead"]:
            s["lead"] = 0
            return ERROR
        if byte == EOQ:
            return FINISHED
        if s["lead"]:
            lead, s["lead"] = s["lead"], 0
            pointer = lead * 256 + byte if trail_ok(byte) else None
            cp = None if pointer is None else _index(pointer)
            if cp is not None:
                return [cp]
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


def shift_jis() -> Handler:
    return _leading_family(
        ((0x81, 0x9F), (0xE0, 0xFC)),
        lambda b: 0x40 <= b <= 0x7E or 0x80 <= b <= 0xFC,
        lambda b: b if b <= 0x80 else (0xFF61 - 0xA1 + b if 0xA1 <= b <= 0xDF else None),
    )


def big5() -> Handler:
    return _leading_family(
        ((0x81, 0xFE),),
        lambda b: 0x40 <= b <= 0x7E or 0xA1 <= b <= 0xFE,
        lambda b: b if b <= 0x7F else None,
    )


def euc_kr() -> Handler:
    return _leading_family(
        ((0x81, 0xFE),), lambda b: 0x41 <= b <= 0xFE, lambda b: b if b <= 0x7F else None
    )


def gb18030() -> Handler:
    s = {"first": 0, "second": 0, "third": 0}

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
            pointer = s["first"] * 10000 + s["second"] * 100 + s["third"] * 10 + byte
            s.update(first=0, second=0, third=0)
            cp = _index(pointer)
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
            ok = 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFE
            cp = _index(leading * 256 + byte) if ok else None
            if cp is not None:
                return [cp]
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


def euc_jp() -> Handler:
    s = {"jis0212": 0, "lead": 0}

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
            cp = None
            if 0xA1 <= lead <= 0xFE and 0xA1 <= byte <= 0xFE:
                cp = _index(lead * 256 + byte + s["jis0212"])
            s["jis0212"] = 0
            if cp is not None:
                return [cp]
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


def iso_2022_jp() -> Handler:
    s: dict[str, object] = {"state": "ascii", "out": "ascii", "lead": 0, "output": False}

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
                cp = _index((int(s["lead"]) - 0x21) * 94 + byte - 0x21)  # type: ignore[call-overload]
                return ERROR if cp is None else [cp]
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
