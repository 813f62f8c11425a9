"""Live differential test against a real headless Chromium.

For every one of the 40 encodings, thousands of seeded random byte sequences
(biased to the lead and trail bytes where decoders go wrong) are served from
127.0.0.1 with ``Content-Type: text/html; charset=<name>``, and the browser's
answers are compared with ours:

- ``document.characterSet`` must be our encoding's name;
- the DOM text of the ``<plaintext>`` element that holds the bytes (the
  document's own decoder, then the HTML parser's newline and NUL handling)
  must equal ``get_encoding(name).decode(bytes)`` after that same handling;
- ``new TextDecoder(document.characterSet).decode(bytes)`` on the same bytes,
  fetched by the page, must equal our decode (after TextDecoder's BOM rule).

The documented Chromium deviations from the standard are expected
differences, each asserted to still exist (see ``CHROMIUM_DEVIATIONS``).
A few sniffing cases run end to end through ``decode_html``.

Run with ``pytest -m browser``. One browser serves the whole session. When the
environment variable CI is set, a missing browser is a failure, not a skip.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

import pytest

from browser_decode import decode_html, get_encoding

from ._chromium import Browser, PageServer

pytestmark = pytest.mark.browser

SPEC = Path(__file__).parent.parent / "spec" / "whatwg-encoding"
NAMES = [
    e["name"]
    for group in json.loads((SPEC / "encodings.json").read_text("utf-8"))
    for e in group["encodings"]
]
# Fixed by default so that a failure reproduces; override to explore further,
# e.g. BROWSER_DECODE_SEED=7 BROWSER_DECODE_SEQUENCES=50000 pytest -m browser.
SEED = os.environ.get("BROWSER_DECODE_SEED", "20261202")
SEQUENCES_PER_PAGE = int(os.environ.get("BROWSER_DECODE_SEQUENCES", "4000"))
FFFD = "\ufffd"

# Where Chromium deviates from the Encoding Standard, the library follows the
# standard (tests/data/chromium/README.md, docs/conformance.md). These are the
# only expected differences; the tests below check that each still exists.
CHROMIUM_DEVIATIONS = {
    "big5-two-code-points": (
        "Big5 88 62, 88 64, 88 A3, 88 A5: the standard's table gives two code points "
        "(U+00CA U+0304, U+00CA U+030C, U+00EA U+0304, U+00EA U+030C); Chromium gives "
        "something else (a lone surrogate half). Random Big5 pages avoid these pairs."
    ),
    "utf-16-end-of-document": (
        "UTF-16LE/BE documents: Chromium's document decoder silently drops a dangling final "
        "byte or a lone leading surrogate at the end of input, where the standard (and "
        "Chromium's own TextDecoder) give U+FFFD. Random UTF-16 pages end cleanly."
    ),
    # Found by this test (not in tests/data/chromium/README.md):
    "euc-jp-jis0212-flag": (
        "EUC-JP: after 8F and a JIS X 0212 lead byte, a byte outside A1-FE is an error and "
        "'Set EUC-JP jis0212 to false' applies; Chromium keeps the flag, so the next two-byte "
        "sequence is looked up in JIS X 0212 instead of JIS X 0208 (8F CA 0A CD C3: standard "
        "U+FFFD LF U+50AD, Chromium U+FFFD LF U+7581). Random pages avoid 8F + lead + non-trail."
    ),
    "iso-2022-jp-escape-in-jis0208": (
        "ISO-2022-JP, in the jis0208 state: an escape sequence ESC $ / ESC ( that fails gives "
        "U+FFFD and its two bytes are restored and decoded as a jis0208 pair, another U+FFFD "
        "when the pair has no code point; Chromium emits no second U+FFFD, and at the end of "
        "input shows the restored '$' or '(' as ASCII (ESC $ B ESC ( Z: standard U+FFFD U+FFFD, "
        "Chromium U+FFFD). Random pages rewrite failed ESC $ / ESC ( escapes to ESC ,."
    ),
}
BIG5_DEVIATION_PAIRS = {b"\x88\x62": "\u00ca\u0304", b"\x88\x64": "\u00ca\u030c",
                        b"\x88\xa3": "\u00ea\u0304", b"\x88\xa5": "\u00ea\u030c"}  # fmt: skip


# ---------------------------------------------------------------------------
# The browser
# ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def server() -> Iterator[PageServer]:
    server = PageServer()
    try:
        yield server
    finally:
        server.close()


# Returns the document's encoding, the DOM text of <plaintext> (or of the
# body), and TextDecoder's decode of the raw bytes, texts as hex UTF-16 code
# units so that lone surrogates survive the JSON of the protocol.
_PROBE = """(async (raw) => {
  const hex = (s) => {
    const out = new Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i).toString(16).padStart(4, "0");
    return out.join("");
  };
  const cs = document.characterSet;
  const holder = document.querySelector("plaintext") || document.body;
  const dom = holder ? hex(holder.textContent) : null;
  let td = null;
  if (raw) {
    const bytes = await (await fetch(raw, {cache: "no-store"})).arrayBuffer();
    try { td = hex(new TextDecoder(cs).decode(bytes)); } catch (e) { td = null; }
  }
  return {cs, dom, td};
})(%s)"""


def _units(hex_text: str | None) -> str | None:
    if hex_text is None:
        return None
    return bytes.fromhex(hex_text).decode("utf-16-be", "surrogatepass")


def probe(
    browser: Browser,
    server: PageServer,
    path: str,
    document: bytes,
    content_type: str | None,
    raw: bytes | None,
) -> tuple[str, str | None, str | None]:
    """Load *document*; return (characterSet, DOM text, TextDecoder text of *raw*)."""
    url = server.add(path, document, content_type)
    raw_url = server.add(path + ".raw", raw, "application/octet-stream") if raw else None
    browser.load(url)
    answer: dict[str, Any] = browser.evaluate(_PROBE % json.dumps(raw_url))
    return answer["cs"], _units(answer["dom"]), _units(answer["td"])


# ---------------------------------------------------------------------------
# Seeded random byte sequences, biased per encoding
# ---------------------------------------------------------------------------

Token = Callable[[random.Random], bytes]


def _span(*ranges: tuple[int, int]) -> list[int]:
    return [b for lo, hi in ranges for b in range(lo, hi + 1)]


ASCII_EDGES = list(b"\x00\t\n\r !$(+0159;<>?@ABIJZ[\\]^_`az{|}~\x7f")
ANY = _span((0x00, 0xFF))
HIGH = _span((0x80, 0xFF))


def pick(pool: list[int]) -> Token:
    return lambda rng: bytes([rng.choice(pool)])


def pair(leads: list[int], trails: list[int]) -> Token:
    return lambda rng: bytes([rng.choice(leads), rng.choice(trails)])


def seq(*parts: Token) -> Token:
    return lambda rng: b"".join(part(rng) for part in parts)


def truncated(token: Token) -> Token:
    def make(rng: random.Random) -> bytes:
        data = token(rng)
        return data[: rng.randint(1, max(1, len(data) - 1))]

    return make


def literal(*choices: bytes) -> Token:
    return lambda rng: rng.choice(choices)


def utf8_token(rng: random.Random) -> bytes:
    ranges = [(0x80, 0x7FF), (0x800, 0xD7FF), (0xE000, 0xFFFF), (0x10000, 0x10FFFF)]
    lo, hi = rng.choice(ranges)
    return chr(rng.randint(lo, hi)).encode("utf-8")


def utf16_token(big_endian: bool) -> Token:
    order: Literal["big", "little"] = "big" if big_endian else "little"
    edges = [0x00, 0x0A, 0x41, 0xFF, 0x100, 0xD7FF, 0xD800, 0xDB7F, 0xDBFF, 0xDC00, 0xDFFF,
             0xE000, 0xFEFF, 0xFFFD, 0xFFFE, 0xFFFF]  # fmt: skip

    def make(rng: random.Random) -> bytes:
        roll = rng.random()
        if roll < 0.4:
            unit = rng.choice(edges)
        elif roll < 0.6:
            unit = rng.randint(0xD800, 0xDFFF)
        elif roll < 0.8:
            return chr(rng.randint(0x10000, 0x10FFFF)).encode(f"utf-16-{order[0]}e")
        else:
            unit = rng.randint(0, 0xFFFF)
        return unit.to_bytes(2, order)

    return make


GB_TRAILS = _span((0x40, 0x7E), (0x80, 0xFE))
GB_FOUR = seq(
    pick([0x81, 0x82, 0x83, 0x84, 0x85, 0x8F, 0x90, 0x95, 0xE3, 0xE4, 0xFD, 0xFE]),
    pick(_span((0x30, 0x39))),
    pick(_span((0x81, 0xFE))),
    pick(_span((0x30, 0x39))),
)
BIG5_TRAILS = _span((0x40, 0x7E), (0xA1, 0xFE))
BAD_TRAILS = [*ASCII_EDGES, 0x7F, 0x80, 0xA0, 0xFF]

# Weighted token mixes: the sequences of a page are 1-3 tokens each.
MIXES: dict[str, list[tuple[int, Token]]] = {
    "UTF-8": [
        (4, utf8_token),
        (2, truncated(utf8_token)),
        (3, pick(_span((0x80, 0xBF), (0xC0, 0xC2), (0xDF, 0xE1), (0xEC, 0xF5), (0xFE, 0xFF)))),
        (1, pick(ASCII_EDGES)),
    ],
    "GBK": [
        (4, pair(_span((0x81, 0xFE)), GB_TRAILS)),
        (3, GB_FOUR),
        (2, truncated(GB_FOUR)),
        (1, pair(_span((0x81, 0xFE)), BAD_TRAILS)),
        (1, pick([0x80, 0xFF, *ASCII_EDGES])),
    ],
    "Big5": [
        (3, pair(_span((0x81, 0xFE)), BIG5_TRAILS)),
        (3, pair(_span((0x87, 0xA0), (0xC6, 0xC8), (0xF9, 0xFE)), BIG5_TRAILS)),
        (1, pair(_span((0x81, 0xFE)), BAD_TRAILS)),
        (1, pick([0x80, 0xFF, *ASCII_EDGES])),
    ],
    "EUC-KR": [
        (4, pair(_span((0x81, 0xFE)), _span((0x41, 0xFE)))),
        (1, pair(_span((0x81, 0xFE)), BAD_TRAILS)),
        (1, pick([0x80, 0xFF, *ASCII_EDGES])),
    ],
    "Shift_JIS": [
        (4, pair(_span((0x81, 0x9F), (0xE0, 0xFC)), _span((0x40, 0x7E), (0x80, 0xFC)))),
        (2, pair(_span((0xED, 0xEE), (0xF0, 0xFC)), _span((0x40, 0x7E), (0x80, 0xFC)))),
        (1, pair(_span((0x81, 0x9F), (0xE0, 0xFC)), [*BAD_TRAILS, 0xFD, 0xFE])),
        (2, pick([0x80, 0xA0, 0xFD, 0xFE, 0xFF, *_span((0xA1, 0xDF)), *ASCII_EDGES])),
    ],
    "EUC-JP": [
        (4, pair(_span((0xA1, 0xFE)), _span((0xA1, 0xFE)))),
        (2, seq(literal(b"\x8e"), pick([*_span((0xA1, 0xDF)), 0xE0, 0xFE, 0x41]))),
        (3, seq(literal(b"\x8f"), pair(_span((0xA1, 0xFE)), _span((0xA1, 0xFE))))),
        (1, truncated(seq(literal(b"\x8f"), pair(_span((0xA1, 0xFE)), _span((0xA1, 0xFE)))))),
        (1, pair(_span((0x8E, 0x8F), (0xA1, 0xFE)), BAD_TRAILS)),
        (1, pick([0x80, 0x8D, 0xA0, 0xFF, *ASCII_EDGES])),
    ],
    "ISO-2022-JP": [
        (3, literal(b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$@", b"\x1b$B")),
        (1, literal(b"\x1b", b"\x1b(", b"\x1b$", b"\x1b$(D", b"\x1b(Z", b"\x1b$A", b"\x1b.A")),
        (4, pair(_span((0x21, 0x7E)), _span((0x21, 0x7E)))),
        (2, pick([0x0E, 0x0F, 0x1B, 0x5C, 0x7E, 0x0A, 0x0D, 0x00, 0x20, 0x7F, 0x80, 0xA1, 0xFF])),
    ],
    "x-user-defined": [(3, pick(HIGH)), (1, pick(ANY))],
}
MIXES["gb18030"] = MIXES["GBK"]
MIXES["UTF-16LE"] = [(1, utf16_token(False))]
MIXES["UTF-16BE"] = [(1, utf16_token(True))]


def separator(name: str, framing: str) -> bytes:
    """Between sequences: a newline (and a return to ASCII for ISO-2022-JP), or nothing."""
    if framing == "run-on":
        return b""
    if name.startswith("UTF-16"):
        return "\n".encode(name.lower())
    return b"\x1b(B\n" if name == "ISO-2022-JP" else b"\n"


def join(name: str, framing: str, sequences: list[bytes]) -> bytes:
    """The page's payload.

    "lines": each sequence followed by the separator, so that its effects stay
    local. "run-on": the sequences back to back, decoder state carrying from
    one to the next, and whatever the last one leaves at the end of the
    document (except for UTF-16, whose end-of-document handling is a known
    Chromium deviation tested on its own: there the page ends with a newline).
    """
    sep = separator(name, framing)
    payload = sep.join(sequences) + sep
    if framing == "run-on" and name.startswith("UTF-16"):
        payload += "\n".encode(name.lower())
    return payload


# Byte patterns that trigger the deviations, and a same-length rewrite that
# avoids them wherever they occur, whatever the decoder's state there (the
# rewritten byte is never a separator byte). Each deviation has its own test.
AVOID: dict[str, tuple[re.Pattern[bytes], Callable[[re.Match[bytes]], bytes]]] = {
    # 88 62 / 88 64 / 88 A3 / 88 A5 -> 89 xx
    "Big5": (re.compile(rb"\x88(?=[\x62\x64\xa3\xa5])"), lambda m: b"\x89"),
    # 8F, a JIS X 0212 lead, then a byte that cannot be its trail: the lead
    # becomes FF, so the jis0212 flag is never set there.
    "EUC-JP": (re.compile(rb"\x8f[\xa1-\xfe](?=[^\xa1-\xfe])"), lambda m: b"\x8f\xff"),
    # ESC $ or ESC ( not followed by a valid final byte (or at the end): the
    # escape becomes ESC , (an escape start failure, which Chromium handles
    # as the standard does).
    "ISO-2022-JP": (
        re.compile(rb"\x1b(?:\$(?![@B])|\((?![BJI]))"),
        lambda m: b"\x1b,",
    ),
}


def random_payload(name: str, framing: str, rng: random.Random) -> list[bytes]:
    """SEQUENCES_PER_PAGE seeded random byte sequences for encoding *name*."""
    mix = MIXES.get(name, [(3, pick(HIGH)), (1, pick(ANY))])  # single-byte encodings
    weights = [w for w, _ in mix]
    tokens = [t for _, t in mix]
    sequences = []
    for _ in range(SEQUENCES_PER_PAGE):
        chosen = rng.choices(tokens, weights, k=rng.randint(1, 3))
        sequences.append(b"".join(token(rng) for token in chosen))
    if name not in AVOID:
        return sequences
    pattern, rewrite = AVOID[name]
    stream = pattern.sub(rewrite, join(name, framing, sequences))
    step = len(separator(name, framing))
    starts = itertools.accumulate((len(s) + step for s in sequences), initial=0)
    result = [stream[start : start + len(s)] for start, s in zip(starts, sequences, strict=False)]
    assert join(name, framing, result) == stream, "a separator was rewritten"
    return result


def html_prefix(name: str) -> bytes:
    return "<plaintext>".encode(name.lower() if name.startswith("UTF-16") else "ascii")


def as_parsed(text: str) -> str:
    """Text as the HTML parser puts it into a <plaintext> element.

    "To normalize newlines in a string, replace every U+000D CR U+000A LF code
    point pair with a single U+000A LF code point, and then replace every
    remaining U+000D CR code point with a U+000A LF code point."
    (input stream preprocessing), and in the PLAINTEXT state: "U+0000 NULL:
    This is an unexpected-null-character parse error. Emit a U+FFFD
    REPLACEMENT CHARACTER character token." -- HTML Standard, 13.2.3.5, 13.2.5.4
    """
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", FFFD)


def textdecoder_view(name: str) -> Callable[[str], str]:
    """TextDecoder drops one leading U+FEFF for UTF-8 and UTF-16 (its BOM rule)."""

    def view(text: str) -> str:
        if name in ("UTF-8", "UTF-16LE", "UTF-16BE") and text.startswith("\ufeff"):
            return text[1:]
        return text

    return view


def first_difference(
    ours: str,
    theirs: str,
    sequences: list[bytes],
    name: str,
    framing: str,
    view: Callable[[str], str],
) -> str:
    """Where two texts part, with the byte sequences responsible (found by bisection)."""
    at = min(len(ours), len(theirs))
    at = next((i for i in range(at) if ours[i] != theirs[i]), at)
    encoding = get_encoding(name)
    assert encoding is not None
    lo, hi = 0, len(sequences)
    while lo < hi:  # the first k whose decoded prefix reaches the difference
        mid = (lo + hi) // 2
        if len(view(encoding.decode(join(name, framing, sequences[: mid + 1])))) > at:
            hi = mid
        else:
            lo = mid + 1
    near = sequences[max(0, lo - 1) : lo + 1]
    return (
        f"texts differ at code unit {at} (lengths {len(ours)} / {len(theirs)}): "
        f"ours {ours[max(0, at - 8) : at + 8]!r} chromium {theirs[max(0, at - 8) : at + 8]!r}; "
        f"byte sequences there: {[s.hex(' ') for s in near]}"
    )


# ---------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("framing", ["lines", "run-on"])
@pytest.mark.parametrize("name", [n for n in NAMES if n != "replacement"])
def test_random_bytes_match_chromium(
    browser: Browser, server: PageServer, name: str, framing: str
) -> None:
    rng = random.Random(f"{SEED}-{name}-{framing}")
    sequences = random_payload(name, framing, rng)
    payload = join(name, framing, sequences)
    encoding = get_encoding(name)
    assert encoding is not None
    ours = encoding.decode(payload)
    charset, dom, td = probe(
        browser,
        server,
        f"/random/{framing}/{name}",
        html_prefix(name) + payload,
        f"text/html; charset={name}",
        payload,
    )
    assert charset == name
    problems = []
    views = [("document", dom, as_parsed), ("TextDecoder", td, textdecoder_view(name))]
    for what, theirs, view in views:
        mine = view(ours)
        if theirs != mine:
            assert theirs is not None
            where = first_difference(mine, theirs, sequences, name, framing, view)
            problems.append(f"{what}: {where}")
    assert not problems, f"{name}: {len(sequences)} sequences, {len(payload)} bytes\n" + "\n".join(
        problems
    )


@pytest.mark.parametrize("label", ["iso-2022-kr", "hz-gb-2312", "csiso2022kr", "replacement"])
def test_replacement_encoding(browser: Browser, server: PageServer, label: str) -> None:
    payload = bytes(random.Random(SEED).choices(range(256), k=2000))
    encoding = get_encoding(label)
    assert encoding is not None
    charset, dom, _ = probe(
        browser, server, f"/replacement/{label}", payload, f"text/html; charset={label}", None
    )
    assert charset == encoding.name == "replacement"
    assert dom == encoding.decode(payload) == FFFD


def test_deviation_big5_two_code_points(browser: Browser, server: PageServer) -> None:
    """Expected difference: the standard's two code points, not Chromium's answer."""
    assert "big5-two-code-points" in CHROMIUM_DEVIATIONS
    big5 = get_encoding("Big5")
    assert big5 is not None
    for data, standard in BIG5_DEVIATION_PAIRS.items():
        page, path = b"<plaintext>" + data, f"/big5/{data.hex()}"
        _, dom, td = probe(browser, server, path, page, "text/html; charset=big5", data)
        assert big5.decode(data) == standard
        assert dom != standard and td != standard, f"Chromium now follows the standard: {data!r}"


@functools.cache
def spec_index(name: str) -> list[int | None]:
    index: list[int | None] = json.loads((SPEC / "indexes.json").read_text("utf-8"))[name]
    return index


def euc_jp_leak_case() -> tuple[bytes, str]:
    """8F CA 0A CD C3 and the standard's answer.

    https://encoding.spec.whatwg.org/#euc-jp-decoder: 8F -> leading. CA: "If
    EUC-JP leading is 0x8F and byte is in the range 0xA1 to 0xFE, then set EUC-JP
    jis0212 to true, set EUC-JP leading to byte". 0A: not both in A1-FE, code
    point null; "Set EUC-JP jis0212 to false"; "If byte is an ASCII byte, then
    restore byte"; error -> U+FFFD; LF. CD C3: pointer (CD - A1) x 94 + C3 - A1
    = 4170 in index jis0208.
    """
    return bytes.fromhex("8fca0acdc3"), "\ufffd\n" + chr(spec_index("jis0208")[4170] or 0)


ISO_2022_JP_ESCAPE_CASES = {
    # ESC $ B: leading byte state, output flag true. ESC ( Z: Escape, state
    # null: "restore << leading, byte >>", output false, state := output state
    # (leading byte), error -> U+FFFD. 28 5A: pointer (28 - 21) x 94 + 5A - 21
    # = 715, null in index jis0208 -> error -> U+FFFD. ESC ( B: ASCII, continue
    # (output was false).
    "1b24421b285a1b2842": "\ufffd\ufffd",
    # ESC $ B, then ESC ( and the end: "If byte is end-of-queue, then restore
    # leading", error -> U+FFFD; 28 -> leading byte, trailing byte state; end of
    # queue in trailing byte: "Set ... leading byte and return error" -> U+FFFD.
    "1b24421b28": "\ufffd\ufffd",
}


def test_deviation_euc_jp_jis0212_flag(browser: Browser, server: PageServer) -> None:
    """Expected difference: the standard clears the jis0212 flag after an error."""
    assert "euc-jp-jis0212-flag" in CHROMIUM_DEVIATIONS
    data, standard = euc_jp_leak_case()
    assert standard == "\ufffd\n\u50ad"
    euc_jp = get_encoding("EUC-JP")
    assert euc_jp is not None
    assert euc_jp.decode(data) == standard
    pattern, rewrite = AVOID["EUC-JP"]
    assert pattern.sub(rewrite, data) != data  # random pages never contain it
    _, dom, td = probe(
        browser, server, "/euc-jp-leak", b"<plaintext>" + data, "text/html; charset=euc-jp", data
    )
    chromium = "\ufffd\n" + chr(spec_index("jis0212")[4170] or 0)  # JIS X 0212 instead
    assert dom == td == chromium != standard, "Chromium now follows the standard"


@pytest.mark.parametrize(
    ("hex_bytes", "standard"),
    [pytest.param(*case, id=case[0]) for case in ISO_2022_JP_ESCAPE_CASES.items()],
)
def test_deviation_iso_2022_jp_escape_in_jis0208(
    browser: Browser, server: PageServer, hex_bytes: str, standard: str
) -> None:
    """Expected difference: one U+FFFD more than Chromium, as the standard says."""
    assert "iso-2022-jp-escape-in-jis0208" in CHROMIUM_DEVIATIONS
    assert spec_index("jis0208")[715] is None
    data = bytes.fromhex(hex_bytes)
    encoding = get_encoding("ISO-2022-JP")
    assert encoding is not None
    assert encoding.decode(data) == standard
    pattern, rewrite = AVOID["ISO-2022-JP"]
    assert pattern.sub(rewrite, data) != data  # random pages never contain it
    page, path = b"<plaintext>" + data, f"/iso-2022-jp/{hex_bytes}"
    _, dom, td = probe(browser, server, path, page, "text/html; charset=iso-2022-jp", data)
    for chromium in (dom, td):
        assert chromium is not None
        assert chromium != standard, "Chromium now follows the standard"
        assert chromium.count(FFFD) == standard.count(FFFD) - 1


@pytest.mark.parametrize("name", ["UTF-16LE", "UTF-16BE"])
@pytest.mark.parametrize(
    "tail", ["dangling byte", "lone leading surrogate", "leading surrogate + dangling byte"]
)
def test_deviation_utf16_end_of_document(
    browser: Browser, server: PageServer, name: str, tail: str
) -> None:
    """Expected difference: the document drops what the standard turns into U+FFFD.

    TextDecoder, on the same bytes, follows the standard.
    """
    assert "utf-16-end-of-document" in CHROMIUM_DEVIATIONS
    codec = name.lower()
    end = {
        "dangling byte": b"\x41",
        "lone leading surrogate": "\ud800".encode(codec, "surrogatepass"),
        "leading surrogate + dangling byte": "\ud800".encode(codec, "surrogatepass") + b"\x41",
    }[tail]
    payload = "abc".encode(codec) + end
    encoding = get_encoding(name)
    assert encoding is not None
    ours = encoding.decode(payload)
    assert ours == "abc" + FFFD
    path = f"/utf16-end/{name}/{end.hex()}"
    charset, dom, td = probe(
        browser, server, path, html_prefix(name) + payload, f"text/html; charset={name}", payload
    )
    assert charset == name
    assert td == ours
    assert dom == "abc", "Chromium's document decoder now follows the standard"


_DECODE_MANY = """((items) => items.map(([label, hex]) => {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(2 * i, 2), 16);
  const text = new TextDecoder(label, {ignoreBOM: true}).decode(bytes);
  const out = new Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i).toString(16).padStart(4, "0");
  return out.join("");
}))(%s)"""


def chromium_decode_many(browser: Browser, items: list[tuple[str, bytes]]) -> list[str]:
    """Chromium's decoder itself (TextDecoder with ignoreBOM: no BOM rule) on each input."""
    answer = browser.evaluate(_DECODE_MANY % json.dumps([[lb, data.hex()] for lb, data in items]))
    return [bytes.fromhex(h).decode("utf-16-be", "surrogatepass") for h in answer]


def test_wpt_inputs_agree_with_chromium(browser: Browser) -> None:
    """Every input of the WPT decoder cases, decoded by Chromium and by us.

    This confirms independently what test_decoders_conformance.py assumes: the
    `resource_bytes` substitutions and the spec's answers for the `disputed`
    gb18030/GBK expectations (Chromium follows the current spec there too).
    """
    wpt = json.loads((Path(__file__).parent / "data" / "wpt" / "decoder-cases.json").read_text())
    items: list[tuple[str, bytes]] = []
    for case in wpt["cases"]:
        data = bytes.fromhex(case.get("resource_bytes") or case["bytes"])
        if case["context"] == "html-span":
            data += bytes.fromhex(case["suffix"])
        items.append((case["encoding"], data))
    items += [(case["encoding"], bytes.fromhex(case["bytes"])) for case in wpt["fatal"]]
    for sequence in wpt["streaming"]["sequences"]:
        chunks = [bytes.fromhex(chunk) for chunk, _, _ in sequence["calls"] if chunk]
        items.append((sequence["encoding"], b"".join(chunks)))
    theirs = chromium_decode_many(browser, items)
    wrong = []
    for (label, data), chromium in zip(items, theirs, strict=True):
        encoding = get_encoding(label)
        assert encoding is not None
        if encoding.decode(data) != chromium:
            wrong.append(
                f"{label} {data.hex(' ')}: ours {encoding.decode(data)!r} chromium {chromium!r}"
            )
    assert len(items) > 200
    assert not wrong, f"{len(wrong)} of {len(items)} differ:\n" + "\n".join(wrong[:12])


# Sniffing end to end: the decision of decode_html (BOM, header, <meta>
# prescan, XML declaration, the Chromium-compatible head scan past 1024
# bytes) against document.characterSet, and the text against TextDecoder.
SNIFF_CASES: list[tuple[str, str | None, bytes]] = [
    ("header beats meta", "text/html; charset=windows-1251",
     b'<meta charset="shift_jis"><p>\xcf\xf0\xe8\xe2\xe5\xf2'),
    ("meta when the header has no charset", "text/html", b'<meta charset="shift_jis"><p>\x82\xa0'),
    ("no Content-Type at all: sniffed as HTML", None, b"<meta charset=euc-kr><p>\xb0\xa1"),
    ("UTF-16LE BOM beats the header", "text/html; charset=utf-8",
     "\ufeff<p>h\u00e9\u3042".encode("utf-16-le")),
    ("UTF-8 BOM beats the header", "text/html; charset=windows-1252", b"\xef\xbb\xbf<p>h\xc3\xa9"),
    ("UTF-16BE BOM beats meta", "text/html",
     "\ufeff<meta charset=windows-1252><p>h\u00e9".encode("utf-16-be")),
    ("single-quoted header charset is ignored", "text/html; charset='windows-1251'",
     b"<meta charset=koi8-r><p>\xf0\xd2"),
    ("unknown header label is ignored", "text/html; charset=no-such-label",
     b"<meta charset=big5><p>\xa4\x40"),
    ("first charset parameter wins", "text/html; charset=iso-8859-7; charset=utf-8", b"<p>\xe1"),
    ("http-equiv content", "text/html",
     b'<meta http-equiv="Content-Type" content="text/html; charset=gb2312"><p>\xc4\xe3'),
    ("meta utf-16 means UTF-8", "text/html", b'<meta charset="utf-16"><p>h\xc3\xa9'),
    ("meta x-user-defined means windows-1252", "text/html",
     b'<meta charset="x-user-defined"><p>\xe9\x80'),
    ("XML declaration", "text/html", b'<?xml version="1.0" encoding="windows-1251"?><p>\xcf'),
    ("meta inside a comment is ignored", "text/html",
     b"<!-- <meta charset=koi8-r> --><meta charset=iso-8859-2><p>\xb1"),
    ("meta after 1024 bytes of head content", "text/html",
     b"<!doctype html><title>t</title><!--" + b"x" * 1100
     + b"--><meta charset=windows-1253><p>\xe1"),
    ("replacement label in the header", "text/html; charset=iso-2022-kr", b"<p>hello"),
    ("prescan out of bytes: the XML declaration's 'encoding' may lie past its '>'", "text/html",
     b'<?xml version="1.0"?>\n<p title="' + b"x" * 50 + b' encoding="koi8-r" '
     + b"y" * 1100 + b'">\xc1\xc2\xd7'),
    ("meta after a script that crosses the head scan's first 8 KiB", "text/html",
     b"<!doctype html><html><head><script>" + b"window.a=1;" * 800
     + b"</script><meta charset=windows-1251></head><p>\xcf\xf0"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("number", "content_type", "body"),
    [pytest.param(n, ct, b, id=desc) for n, (desc, ct, b) in enumerate(SNIFF_CASES)],
)
def test_sniffing_matches_chromium(
    browser: Browser, server: PageServer, number: int, content_type: str | None, body: bytes
) -> None:
    result = decode_html(body, content_type)
    # Only declared encodings: for undeclared bytes the library deliberately
    # differs from browsers (docs: valid UTF-8 is UTF-8, then detection).
    assert result.provenance.source.value in ("bom", "header", "meta")
    charset, _, td = probe(browser, server, f"/sniff/{number}", body, content_type, body)
    assert result.encoding == charset
    if charset != "replacement":  # TextDecoder refuses the replacement encoding
        assert result.text == td
