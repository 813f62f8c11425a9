"""Conformance of ``get_encoding(name).decode`` with the Encoding Standard, for all 40 encodings.

Four independent sources of truth, none of them produced by the code under test:

1. the standard's own data, read here directly from spec/whatwg-encoding/
   (indexes.json, and the tables in encoding.bs), never from the generated
   ``_indexes`` module;
2. the web-platform-tests decoder cases (tests/data/wpt/);
3. the answers of a real Chromium, recorded for 241,201 byte sequences
   (tests/data/chromium/chromium-byte-tables.json.gz);
4. for UTF-8 and UTF-16, reference decoders written below step by step from
   encoding.bs, run differentially against the library (whose UTF decoders are
   CPython's codecs in ``"replace"`` mode).

The live comparison with a running Chromium is in test_browser_chromium.py.
"""

from __future__ import annotations

import collections
import functools
import gzip
import itertools
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal, NamedTuple

import pytest

from browser_decode import get_encoding

TESTS = Path(__file__).parent
SPEC = TESTS.parent / "spec" / "whatwg-encoding"
WPT = TESTS / "data" / "wpt"
CHROMIUM = TESTS / "data" / "chromium"

FFFD = "\ufffd"


def decode(name: str, data: bytes) -> str:
    encoding = get_encoding(name)
    assert encoding is not None, name
    return encoding.decode(data)


def show(text: str) -> str:
    """A readable, unambiguous rendering of a decoded string."""
    return " ".join(f"U+{ord(c):04X}" for c in text) or "(empty)"


# ---------------------------------------------------------------------------
# The standard's data, read directly
# ---------------------------------------------------------------------------


@functools.cache
def spec_indexes() -> dict[str, Any]:
    result: dict[str, Any] = json.loads((SPEC / "indexes.json").read_text("utf-8"))
    return result


@functools.cache
def spec_encodings() -> dict[str, list[str]]:
    """Encoding names per section heading of encodings.json."""
    groups = json.loads((SPEC / "encodings.json").read_text("utf-8"))
    return {g["heading"]: [e["name"] for e in g["encodings"]] for g in groups}


@functools.cache
def encoding_bs() -> str:
    return (SPEC / "encoding.bs").read_text("utf-8")


ALL_NAMES = [name for names in spec_encodings().values() for name in names]
SINGLE_BYTE = spec_encodings()["Legacy single-byte encodings"]


def test_forty_encodings() -> None:
    assert len(ALL_NAMES) == 40
    assert len(SINGLE_BYTE) == 28
    for name in ALL_NAMES:
        assert decode(name, b"") == ""


@functools.cache
def single_byte_index_names() -> dict[str, str]:
    """Encoding name -> index name, from the table of encoding.bs section 9.

    "Index single-byte ... is defined by the following table ... All but two
    single-byte encodings have a unique index." (ISO-8859-8 and ISO-8859-8-I
    share one row of links: ``rowspan=2``.)
    """
    rows = re.findall(
        r"<tr><td><dfn export>([^<]+)</dfn>(?:<td(?: rowspan=2)?><a href=index-([^.]+)\.txt>)?",
        encoding_bs(),
    )
    table: dict[str, str] = {}
    previous = ""
    for name, index in rows:
        if name not in SINGLE_BYTE:
            continue
        table[name] = index or previous
        previous = table[name]
    assert sorted(table) == sorted(SINGLE_BYTE)
    assert table["ISO-8859-8-I"] == "iso-8859-8"
    return table


def single_byte_expected(name: str) -> str:
    """What the single-byte decoder gives for bytes 0x00-0xFF, from indexes.json.

    "2. If byte is an ASCII byte, return a code point whose value is byte.
    3. Let code point be the index code point for byte - 0x80 in index single-byte.
    4. If code point is null, then return error."
    -- https://encoding.spec.whatwg.org/#single-byte-decoder
    (In replacement mode an error is one U+FFFD.)
    """
    index = spec_indexes()[single_byte_index_names()[name]]
    assert len(index) == 128
    return "".join(map(chr, range(0x80))) + "".join(FFFD if cp is None else chr(cp) for cp in index)


@pytest.mark.parametrize("name", SINGLE_BYTE)
def test_single_byte_every_byte(name: str) -> None:
    expected = single_byte_expected(name)
    assert decode(name, bytes(range(256))) == expected
    wrong = [
        f"{b:02X}: {show(decode(name, bytes([b])))} != {show(expected[b])}"
        for b in range(256)
        if decode(name, bytes([b])) != expected[b]
    ]
    assert not wrong, wrong[:10]


def test_x_user_defined_every_byte() -> None:
    # "2. If byte is an ASCII byte, return a code point whose value is byte.
    # 3. Return a code point whose value is 0xF780 + byte - 0x80."
    # -- https://encoding.spec.whatwg.org/#x-user-defined-decoder
    expected = "".join(chr(b) if b < 0x80 else chr(0xF780 + b - 0x80) for b in range(256))
    assert decode("x-user-defined", bytes(range(256))) == expected
    assert decode("x-user-defined", bytes(range(256))[::-1]) == expected[::-1]


@pytest.mark.parametrize(
    "data",
    [b"a", b"\x00", b"\xff", b"<html>", b"\xef\xbb\xbf", b"\xfe\xff\x00A", bytes(range(256)) * 4],
    ids=repr,
)
def test_replacement_one_fffd_for_non_empty_input(data: bytes) -> None:
    # "2. If replacement error returned is false, set replacement error
    # returned to true and return error. 3. Return finished."
    # -- https://encoding.spec.whatwg.org/#replacement-decoder
    assert decode("replacement", data) == FFFD
    assert decode("replacement", b"") == ""


@functools.cache
def wpt_single_byte() -> dict[str, Any]:
    result: dict[str, Any] = json.loads((WPT / "single-byte.json").read_text("utf-8"))
    return result


@pytest.mark.parametrize("name", SINGLE_BYTE)
def test_wpt_single_byte_unmapped_bytes(name: str) -> None:
    """textdecoder-fatal-single-byte: exactly these bytes are errors (U+FFFD here)."""
    unmapped = {int(b, 16) for b in wpt_single_byte()["unmapped_bytes"]["by_encoding"][name]}
    errors = {b for b in range(256) if decode(name, bytes([b])) == FFFD}
    assert errors == unmapped


def test_wpt_single_byte_spot_checks() -> None:
    checks = wpt_single_byte()["spot_checks"]
    for name, code_points in checks["first_bytes_from_0x80"].items():
        data = bytes(range(0x80, 0x80 + len(code_points)))
        assert decode(name, data) == "".join(map(chr, code_points)), name
    for name, code_point in checks["byte_0xFF"].items():
        assert decode(name, b"\xff") == (FFFD if code_point is None else chr(code_point)), name


# ---------------------------------------------------------------------------
# web-platform-tests decoder cases
# ---------------------------------------------------------------------------


@functools.cache
def wpt_decoder_cases() -> dict[str, Any]:
    result: dict[str, Any] = json.loads((WPT / "decoder-cases.json").read_text("utf-8"))
    return result


def textdecoder_decode(name: str, data: bytes) -> str:
    """``new TextDecoder(name).decode(data)``: the decoder, then TextDecoder's BOM rule.

    "If decoder's encoding is UTF-8 or UTF-16BE/LE, and decoder's ignore BOM
    and BOM seen are false: 1. Set decoder's BOM seen to true. 2. If item is
    U+FEFF BOM, then continue." -- https://encoding.spec.whatwg.org/#concept-td-serialize
    """
    encoding = get_encoding(name)
    assert encoding is not None
    text = encoding.decode(data)
    if encoding.name in ("UTF-8", "UTF-16BE", "UTF-16LE") and text.startswith("\ufeff"):
        text = text[1:]
    return text


# The spec's answers where a WPT expectation is flagged `disputed`. The WPT
# gb18030/GBK "decode-errors" pages predate the current four-byte error
# recovery, which restores the buffered bytes to the stream (whatwg/encoding
# #57, #110, #169; wpt PR #3195). The spec text wins. Derivations, decoding
# bytes + "</span>" (3C 2F ...) with https://encoding.spec.whatwg.org/#gb18030-decoder:
SPEC_WINS_OVER_DISPUTED_WPT = {
    # 82 -> first; 30 -> second; C3 -> third; 3C is not 0x30-0x39: "Restore
    # << gb18030 second, gb18030 third, byte >> ... Return error" -> U+FFFD,
    # then 30 -> "0", C3 -> first, 3C: no pointer, "If byte is an ASCII byte,
    # then restore byte", error -> U+FFFD, then "</span>".
    "8230c3": "\ufffd0\ufffd</span>",
    # 82 -> first; FF: not a trail, not ASCII -> error (FF consumed) -> U+FFFD;
    # C3 -> first; 33 -> second; 3C is not 0x81-0xFE: "Restore << gb18030
    # second, byte >> ... return error" -> U+FFFD, then "3</span>".
    "82ffc333": "\ufffd\ufffd3</span>",
    # FF: "Return error" -> U+FFFD; "0"; C3 33 3C as above -> U+FFFD "3</span>".
    "ff30c333": "\ufffd0\ufffd3</span>",
}


# Two ISO-2022-JP html-span-stateful expectations of iso2022jp-decode-errors.html
# contradict the standard (and Chromium, see test_browser_chromium.py); they are
# not flagged `disputed` in the data, but the spec text wins all the same.
# Derivations with https://encoding.spec.whatwg.org/#iso-2022-jp-decoder, the span
# starting in the ASCII state with the output flag unset:
SPEC_WINS_OVER_STATEFUL_WPT = {
    # ESC -> escape start. 65: "If byte is either 0x24 or 0x28 ..." does not
    # apply; "restore byte to ioQueue. Set ISO-2022-JP output to false, ISO-2022-JP
    # decoder state to ISO-2022-JP decoder output state [ASCII], and return
    # error" -> U+FFFD; then "e", "y", "V"; ESC ( B -> ASCII, continue (output
    # was false). WPT expects U+FFFD "eByV", with a "B" that is not decoded text.
    "1b6579561b2842": "\ufffdeyV",
    # ESC -> escape start; 24 -> leading 0x24, escape. 65: state stays null;
    # "restore << leading, byte >> to ioQueue" -> U+FFFD; then "$", "e", "y",
    # "V"; ESC ( B as above. WPT expects U+FFFD "e$yV" (restored bytes swapped).
    "1b246579561b2842": "\ufffd$eyV",
}


class Case(NamedTuple):
    encoding: str
    context: str
    data: bytes
    expected: str | None
    case: dict[str, Any]


def wpt_cases() -> Iterator[Any]:
    for i, case in enumerate(wpt_decoder_cases()["cases"]):
        # `resource_bytes`: the WPT resource file holds different bytes than
        # the test's title says (big5 "AB AB FF" is AB B5 FF, euc-kr "B0 B0 FF"
        # is B0 B5 FF); the expectation belongs to the bytes actually served.
        data = bytes.fromhex(case.get("resource_bytes") or case["bytes"])
        yield pytest.param(
            Case(case["encoding"], case["context"], data, case["expected"], case),
            id=f"{i}-{case['encoding']}-{case['context']}-{case['name']}",
        )


@pytest.mark.parametrize("case", list(wpt_cases()))
def test_wpt_decoder_case(case: Case) -> None:
    raw = case.case
    if case.context == "textdecoder":
        actual = textdecoder_decode(case.encoding, case.data)
        if raw.get("expected_not") is not None:
            # "mismatching BOM ... must NOT be stripped (result != string)"
            assert actual != raw["expected_not"]
            return
        assert actual == case.expected, (show(actual), show(case.expected or ""))
        if raw.get("fatal_should_throw"):
            # Fatal mode throws exactly where replacement mode emits U+FFFD.
            assert FFFD in actual
        return
    if case.context == "html-span-stateful":
        # ISO-2022-JP: the WPT page is one document whose decoder state carries
        # from span to span; each span starts after ASCII markup, i.e. in the
        # ASCII state with the output flag unset, which is the decoder's initial
        # state. What the span leaves behind (e.g. ESC $ B without ESC ( B) would
        # garble "</span>" in isolation, so the suffix is not appended here and
        # the span's bytes alone are decoded from the initial state.
        assert case.encoding == "iso-2022-jp"
        actual = decode(case.encoding, case.data)
        expected = case.expected
        if raw["bytes"] in SPEC_WINS_OVER_STATEFUL_WPT:
            expected = SPEC_WINS_OVER_STATEFUL_WPT[raw["bytes"]]
            assert case.expected != expected, "the WPT expectation changed; re-check the spec"
        assert actual == expected, (show(actual), show(expected or ""))
        return
    assert case.context == "html-span", case.context
    suffix = bytes.fromhex(raw["suffix"])
    actual = decode(case.encoding, case.data + suffix)
    expected = (case.expected or "") + suffix.decode("ascii")
    if "disputed" in raw:
        assert actual != expected, "the disputed WPT expectation now holds; re-check the spec"
        expected = SPEC_WINS_OVER_DISPUTED_WPT[raw["bytes"]]
    assert actual == expected, (show(actual), show(expected))


def test_wpt_disputed_cases_are_the_known_ones() -> None:
    disputed = {
        (c["encoding"], c["bytes"]) for c in wpt_decoder_cases()["cases"] if "disputed" in c
    }
    assert disputed == {(e, b) for e in ("gb18030", "gbk") for b in SPEC_WINS_OVER_DISPUTED_WPT}


def wpt_streaming() -> Iterator[Any]:
    for i, sequence in enumerate(wpt_decoder_cases()["streaming"]["sequences"]):
        yield pytest.param(sequence, id=f"{i}-{sequence['encoding']}")


@pytest.mark.parametrize("sequence", list(wpt_streaming()))
def test_wpt_streaming_concatenated(sequence: dict[str, Any]) -> None:
    """textdecoder-eof: a streamed decode equals the whole-buffer decode of the concatenation.

    Each call is [chunk hex or null, stream flag, output]; the last call flushes.
    """
    data = b"".join(bytes.fromhex(chunk) for chunk, _, _ in sequence["calls"] if chunk)
    expected = "".join(output for _, _, output in sequence["calls"])
    assert sequence["calls"][-1][1] is False
    assert textdecoder_decode(sequence["encoding"], data) == expected


def wpt_fatal() -> Iterator[Any]:
    for i, case in enumerate(wpt_decoder_cases()["fatal"]):
        yield pytest.param(case, id=f"{i}-{case['encoding']}-{case['name']}")


@pytest.mark.parametrize("case", list(wpt_fatal()))
def test_wpt_fatal_inputs_give_fffd(case: dict[str, Any]) -> None:
    """textdecoder-fatal: where fatal mode throws, replacement mode emits U+FFFD.

    None of these inputs encodes U+FFFD itself, so an error must show as one.
    """
    text = decode(case["encoding"], bytes.fromhex(case["bytes"]))
    assert (FFFD in text) is case["fatal_should_throw"]


@functools.cache
def wpt_gb18030() -> dict[str, Any]:
    result: dict[str, Any] = json.loads((WPT / "gb18030.json").read_text("utf-8"))
    return result


@pytest.mark.parametrize("name", ["GBK", "gb18030"])
def test_wpt_gbk_decoder_pointers(name: str) -> None:
    """gbk-decoder.any.js: two-byte sequences of GB18030-2022-related pointers."""
    wrong = []
    for pointer, code_point in wpt_gb18030()["gbk_decoder_pointers"]["pairs"]:
        trail = pointer % 190
        data = bytes([pointer // 190 + 0x81, trail + (0x40 if trail < 0x3F else 0x41)])
        expected = chr(int(code_point[2:], 16))
        if decode(name, data) != expected:
            wrong.append(f"{data.hex()}: {show(decode(name, data))} != {code_point}")
    assert not wrong, f"{len(wrong)} wrong: {wrong[:10]}"


def gb18030_four_bytes(pointer: int) -> bytes:
    """The four bytes whose gb18030 decoder pointer is *pointer* (inverse of step 3.2)."""
    first, rest = divmod(pointer, 10 * 126 * 10)
    second, rest = divmod(rest, 10 * 126)
    third, fourth = divmod(rest, 10)
    return bytes([first + 0x81, second + 0x30, third + 0x81, fourth + 0x30])


def test_wpt_gb18030_ranges_are_the_spec_index() -> None:
    """gb18030-decoder.js's copy of the ranges (plus its sentinel) is indexes.json's."""
    ranges = wpt_gb18030()["ranges"]["ranges"]
    assert ranges[-1] == [2000000, 2000000]
    assert ranges[:-1] == spec_indexes()["gb18030-ranges"]


@pytest.mark.parametrize("name", ["GBK", "gb18030"])
def test_gb18030_four_byte_range_edges(name: str) -> None:
    """First and last pointer of every range of index gb18030 ranges, and its edges.

    "1. If pointer is greater than 39419 and less than 189000, or pointer is
    greater than 1237575, then return null. 2. If pointer is 7457, then return
    code point U+E7C7. 3. Let offset be the last pointer in index gb18030 ranges
    that is less than or equal to pointer and let codePointOffset be its
    corresponding code point. 4. Return a code point whose value is
    codePointOffset + pointer - offset."
    -- https://encoding.spec.whatwg.org/#index-gb18030-ranges-code-point
    """
    ranges = spec_indexes()["gb18030-ranges"]
    expected: dict[int, str] = {}
    assert ranges[-1] == [189000, 0x10000]  # the supplementary planes, one range
    for (start, code_point), (end, _) in itertools.pairwise([*ranges[:-1], [39420, 0]]):
        expected[start] = chr(code_point)
        expected[end - 1] = chr(code_point + end - 1 - start)
    expected[189000] = "\U00010000"
    expected[1237575] = "\U0010ffff"
    expected[7457] = "\ue7c7"
    for null in (39420, 39421, 188999, 1237576, 1237577):
        expected[null] = FFFD
    wrong = []
    for pointer, text in sorted(expected.items()):
        data = gb18030_four_bytes(pointer)
        if decode(name, data) != text:
            wrong.append(f"{pointer} {data.hex(' ')}: {show(decode(name, data))} != {show(text)}")
    assert not wrong, f"{len(wrong)} of {len(expected)} wrong:\n" + "\n".join(wrong[:10])


# ---------------------------------------------------------------------------
# Recorded Chromium answers
# ---------------------------------------------------------------------------


@functools.cache
def chromium_tables() -> dict[str, Any]:
    with gzip.open(CHROMIUM / "chromium-byte-tables.json.gz", "rt", encoding="utf-8") as f:
        result: dict[str, Any] = json.load(f)
    return result


@functools.cache
def big5_two_code_point_pointers() -> dict[bytes, str]:
    """The Big5 decoder's four pointers that give two code points, from encoding.bs.

    "If there is a row in the table below whose first column is pointer, then
    return the two code points listed in its second column"
    -- https://encoding.spec.whatwg.org/#big5-decoder
    """
    rows = re.findall(
        r"<tr><td>(\d+)<!-- 0x(\w\w) 0x(\w\w) --><td>U\+(\w+) U\+(\w+)", encoding_bs()
    )
    assert len(rows) == 4
    return {
        bytes.fromhex(lead + trail): chr(int(first, 16)) + chr(int(second, 16))
        for _, lead, trail, first, second in rows
    }


# Documented Chromium deviations from the standard (tests/data/chromium/README.md):
# there the standard wins, and these recorded answers are expected to differ.
# Big5 88 62 / 88 64 / 88 A3 / 88 A5: Chromium yields a lone surrogate half
# instead of the two code points the standard's table lists. The others cannot
# occur here, as every recorded item is decoded on its own between ASCII
# markers; test_browser_chromium.py covers them: UTF-16 dropping a dangling
# final byte or lone leading surrogate at the end of a *document*, and two found
# by the live test, EUC-JP keeping the jis0212 flag after an error (it affects
# the *next* pair) and ISO-2022-JP's failed escapes in the jis0208 state.
CHROMIUM_DEVIATIONS: dict[tuple[str, bytes], str] = {
    ("Big5", data): "the standard's table gives two code points; Chromium a lone surrogate"
    for data in big5_two_code_point_pointers()
}

# "Each item was decoded between ASCII markers on one page." A marker that is
# neither a trail byte of any multi-byte encoding nor a gb18030 digit byte, so
# that end-of-sequence handling is the one Chromium met (an ASCII byte, not
# end-of-queue: gb18030 81 30 81 then ASCII gives U+FFFD "0" U+FFFD, while at
# end-of-queue it gives one U+FFFD). Between the leading marker and the item,
# 0-31 more ASCII bytes (item number modulo 32), so that every alignment of
# every kind of sequence is met by decoders with word-at-a-time fast paths.
MARKER = " "
PAD = "x"


def chromium_groups() -> list[str]:
    return sorted({page["encoding"] for page in chromium_tables()["pages"]}, key=str.lower)


@pytest.mark.parametrize("label", chromium_groups())
def test_recorded_chromium_byte_tables(label: str) -> None:
    pages = [page for page in chromium_tables()["pages"] if page["encoding"] == label]
    encoding = get_encoding(label)
    assert encoding is not None
    for page in pages:
        # The page was served with `charset=<label>`; Chromium's characterSet
        # is the encoding that label names.
        assert encoding.name == page["characterSet"], page["content_type"]
    codec = encoding.name.lower() if encoding.name.startswith("UTF-16") else "ascii"
    marker, pad = MARKER.encode(codec), PAD.encode(codec)
    total = 0
    mismatches: list[str] = []
    deviations_seen: set[bytes] = set()
    for page in pages:
        for kind, hex_bytes, chromium_text in page["items"]:
            n = total % 32
            total += 1
            data = bytes.fromhex(hex_bytes)
            ours = encoding.decode(marker + pad * n + data + marker)
            head = MARKER + PAD * n
            if (encoding.name, data) in CHROMIUM_DEVIATIONS:
                # Expected difference: the standard wins (and we check that
                # Chromium still deviates, so that this list stays true).
                deviations_seen.add(data)
                standard = big5_two_code_point_pointers()[data]
                assert chromium_text != standard, f"Chromium now follows the standard: {kind}"
                if ours != head + standard + MARKER:
                    mismatches.append(f"{kind} {hex_bytes}: ours {show(ours)}, {show(standard)}")
                continue
            if ours != head + chromium_text + MARKER:
                framed = ours.startswith(head) and ours.endswith(MARKER)
                mine = show(ours[len(head) : -1]) if framed else f"{show(ours)} (with framing)"
                mismatches.append(
                    f"{kind} {hex_bytes} after {n} ASCII: {mine}, chromium {show(chromium_text)}"
                )
    if encoding.name == "Big5":
        assert deviations_seen == set(big5_two_code_point_pointers())
    assert not mismatches, (
        f"{encoding.name}: {len(mismatches)} of {total} recorded sequences differ from "
        f"Chromium; first ones:\n" + "\n".join(mismatches[:8])
    )


def test_recorded_chromium_byte_tables_count() -> None:
    pages = chromium_tables()["pages"]
    assert sum(len(page["items"]) for page in pages) == 241_201
    named = {get_encoding(page["encoding"]).name for page in pages}  # type: ignore[union-attr]
    # Every encoding but replacement (which has no bytes to record) is covered.
    assert named == set(ALL_NAMES) - {"replacement"}


# ---------------------------------------------------------------------------
# UTF-8 and UTF-16: CPython's "replace" against reference decoders from encoding.bs
# ---------------------------------------------------------------------------


def reference_utf8_decode(data: bytes) -> str:
    """https://encoding.spec.whatwg.org/#utf-8-decoder, step by step, replacement mode."""
    output: list[str] = []
    code_point = bytes_needed = bytes_seen = 0
    lower, upper = 0x80, 0xBF
    i = 0
    while True:
        if i == len(data):
            # "1. If byte is end-of-queue and UTF-8 bytes needed is not 0, then
            # set UTF-8 bytes needed to 0 and return error."
            if bytes_needed:
                output.append(FFFD)
            return "".join(output)
        byte = data[i]
        i += 1
        if bytes_needed == 0:
            if byte <= 0x7F:
                output.append(chr(byte))
            elif 0xC2 <= byte <= 0xDF:
                bytes_needed, code_point = 1, byte & 0x1F
            elif 0xE0 <= byte <= 0xEF:
                if byte == 0xE0:
                    lower = 0xA0
                if byte == 0xED:
                    upper = 0x9F
                bytes_needed, code_point = 2, byte & 0xF
            elif 0xF0 <= byte <= 0xF4:
                if byte == 0xF0:
                    lower = 0x90
                if byte == 0xF4:
                    upper = 0x8F
                bytes_needed, code_point = 3, byte & 0x7
            else:
                output.append(FFFD)
            continue
        if not lower <= byte <= upper:
            # "Set UTF-8 code point, UTF-8 bytes needed, and UTF-8 bytes seen to
            # 0, ... Restore byte to ioQueue. Return error."
            code_point = bytes_needed = bytes_seen = 0
            lower, upper = 0x80, 0xBF
            i -= 1
            output.append(FFFD)
            continue
        lower, upper = 0x80, 0xBF
        code_point = (code_point << 6) | (byte & 0x3F)
        bytes_seen += 1
        if bytes_seen != bytes_needed:
            continue
        output.append(chr(code_point))
        code_point = bytes_needed = bytes_seen = 0


def reference_utf16_decode(data: bytes, *, big_endian: bool) -> str:
    """https://encoding.spec.whatwg.org/#shared-utf-16-decoder, step by step, replacement mode."""
    output: list[str] = []
    queue = collections.deque(data)
    leading_byte: int | None = None
    leading_surrogate: int | None = None
    while True:
        if not queue:
            # "1. If byte is end-of-queue and either UTF-16 leading byte or UTF-16
            # leading surrogate is non-null, then set [both] to null, and return error."
            if leading_byte is not None or leading_surrogate is not None:
                output.append(FFFD)
            return "".join(output)
        byte = queue.popleft()
        if leading_byte is None:
            leading_byte = byte
            continue
        code_unit = (leading_byte << 8) + byte if big_endian else (byte << 8) + leading_byte
        leading_byte = None
        if leading_surrogate is not None:
            lead, leading_surrogate = leading_surrogate, None
            if 0xDC00 <= code_unit <= 0xDFFF:
                output.append(chr(0x10000 + ((lead - 0xD800) << 10) + (code_unit - 0xDC00)))
                continue
            # "Restore bytes to ioQueue and return error."
            byte1, byte2 = code_unit >> 8, code_unit & 0xFF
            queue.extendleft((byte2, byte1) if big_endian else (byte1, byte2))
            output.append(FFFD)
            continue
        if 0xD800 <= code_unit <= 0xDBFF:
            leading_surrogate = code_unit
            continue
        output.append(FFFD if 0xDC00 <= code_unit <= 0xDFFF else chr(code_unit))


def test_reference_decoders_on_valid_text() -> None:
    text = "a\x00\x7f\x80ß\u07ff\u0800€\ud7ff\ue000\ufeff\ufffd\uffff\U00010000😀\U0010ffff"
    assert reference_utf8_decode(text.encode("utf-8")) == text
    assert reference_utf16_decode(text.encode("utf-16-le"), big_endian=False) == text
    assert reference_utf16_decode(text.encode("utf-16-be"), big_endian=True) == text


def _fffd(n: int) -> str:
    return FFFD * n


# Hand-checked against the standard's decoders (and, for UTF-8, Unicode's
# "U+FFFD Substitution of Maximal Subparts", table 3-8).
UTF_CASES: list[tuple[str, str, str]] = [
    ("UTF-8", "", ""),
    ("UTF-8", "efbbbf41", "\ufeffA"),  # the decoder itself sniffs no BOM
    ("UTF-8", "80", _fffd(1)),
    ("UTF-8", "80bf", _fffd(2)),
    ("UTF-8", "c0af", _fffd(2)),  # C0, C1 are never leads
    ("UTF-8", "c1bf", _fffd(2)),
    ("UTF-8", "c2", _fffd(1)),
    ("UTF-8", "c241", _fffd(1) + "A"),
    ("UTF-8", "c280", "\x80"),
    ("UTF-8", "e080af", _fffd(3)),  # overlong: lower boundary 0xA0
    ("UTF-8", "e0a080", "\u0800"),
    ("UTF-8", "eda080", _fffd(3)),  # surrogates: upper boundary 0x9F
    ("UTF-8", "edbfbf", _fffd(3)),
    ("UTF-8", "ed9fbf", "\ud7ff"),
    ("UTF-8", "ee8080", "\ue000"),
    ("UTF-8", "efbfbe", "\ufffe"),
    ("UTF-8", "e282", _fffd(1)),  # truncated at end: one maximal subpart
    ("UTF-8", "e28241", _fffd(1) + "A"),
    ("UTF-8", "e2e282ac", _fffd(1) + "€"),
    ("UTF-8", "f09f98", _fffd(1)),
    ("UTF-8", "f09f9841", _fffd(1) + "A"),
    ("UTF-8", "f09f9880", "\U0001f600"),
    ("UTF-8", "f08f8080", _fffd(4)),  # overlong: lower boundary 0x90
    ("UTF-8", "f0908080", "\U00010000"),
    ("UTF-8", "f48fbfbf", "\U0010ffff"),
    ("UTF-8", "f4908080", _fffd(4)),  # above U+10FFFF: upper boundary 0x8F
    ("UTF-8", "f5808080", _fffd(4)),
    ("UTF-8", "f888808080", _fffd(5)),
    ("UTF-8", "fe", _fffd(1)),
    ("UTF-8", "ff41", _fffd(1) + "A"),
    # Unicode table 3-8: 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64
    ("UTF-8", "61f18080e180c262806380bf64", "a" + _fffd(3) + "b" + _fffd(1) + "c" + _fffd(2) + "d"),
    ("UTF-16LE", "", ""),
    ("UTF-16LE", "41", _fffd(1)),  # odd final byte
    ("UTF-16LE", "410042", "A" + _fffd(1)),
    ("UTF-16LE", "fffe4100", "\ufeffA"),  # no BOM sniffing in the decoder
    ("UTF-16LE", "00d8", _fffd(1)),  # lone leading surrogate at end
    ("UTF-16LE", "00d841", _fffd(1)),  # ... plus a dangling byte: one error at end-of-queue
    ("UTF-16LE", "00d84100", _fffd(1) + "A"),  # restored code unit
    ("UTF-16LE", "00dc", _fffd(1)),  # lone trailing surrogate
    ("UTF-16LE", "00dc4100", _fffd(1) + "A"),
    ("UTF-16LE", "00d800dc", "\U00010000"),
    ("UTF-16LE", "ffdbffdf", "\U0010ffff"),
    ("UTF-16LE", "00d800d800dc", _fffd(1) + "\U00010000"),
    ("UTF-16LE", "00dc00d8", _fffd(2)),
    ("UTF-16LE", "00d800d8", _fffd(2)),
    ("UTF-16LE", "fdff", FFFD),
    ("UTF-16BE", "", ""),
    ("UTF-16BE", "00", _fffd(1)),
    ("UTF-16BE", "004100", "A" + _fffd(1)),
    ("UTF-16BE", "feff0041", "\ufeffA"),
    ("UTF-16BE", "d800", _fffd(1)),
    ("UTF-16BE", "d80041", _fffd(1)),
    ("UTF-16BE", "d8000041", _fffd(1) + "A"),
    ("UTF-16BE", "dc00", _fffd(1)),
    ("UTF-16BE", "d800dc00", "\U00010000"),
    ("UTF-16BE", "d800d800dc00", _fffd(1) + "\U00010000"),
    ("UTF-16BE", "dc00d800", _fffd(2)),
]


def reference_decode(name: str, data: bytes) -> str:
    if name == "UTF-8":
        return reference_utf8_decode(data)
    return reference_utf16_decode(data, big_endian=name == "UTF-16BE")


@pytest.mark.parametrize(("name", "hex_bytes", "expected"), UTF_CASES)
def test_utf_targeted(name: str, hex_bytes: str, expected: str) -> None:
    data = bytes.fromhex(hex_bytes)
    assert reference_decode(name, data) == expected  # the reference follows the spec
    assert decode(name, data) == expected, show(decode(name, data))
    # The same behind ASCII padding of every length up to 31 bytes.
    for n in range(1, 32):
        pad = ("x" * n).encode("ascii" if name == "UTF-8" else name.lower())
        assert decode(name, pad + data) == "x" * n + expected


# Bytes at every boundary of the UTF-8 decoder's switch and ranges.
UTF8_ALPHABET = bytes(
    [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0,
     0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFE, 0xFF]
)  # fmt: skip
# Code units at every boundary of the UTF-16 decoder.
UTF16_UNITS = [0x0041, 0x00D8, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFEFF, 0xFFFD]


def utf8_inputs() -> Iterator[bytes]:
    for n in range(1, 4):  # exhaustive up to three bytes
        for combo in itertools.product(UTF8_ALPHABET, repeat=n):
            yield bytes(combo)
    rng = random.Random(20261202)
    for _ in range(20_000):  # seeded random longer strings
        yield bytes(rng.choice(UTF8_ALPHABET) for _ in range(rng.randint(4, 16)))


def utf16_inputs(big_endian: bool) -> Iterator[bytes]:
    order: Literal["big", "little"] = "big" if big_endian else "little"
    tails = [b"", b"\x00", b"\xd8", b"\xdc", b"\x41"]
    for n in range(4):  # exhaustive up to three code units, plus a dangling byte
        for units in itertools.product(UTF16_UNITS, repeat=n):
            body = b"".join(u.to_bytes(2, order) for u in units)
            for tail in tails:
                yield body + tail
    rng = random.Random(20261202)
    for _ in range(10_000):
        chosen = [rng.choice(UTF16_UNITS) for _ in range(rng.randint(4, 12))]
        yield b"".join(u.to_bytes(2, order) for u in chosen) + rng.choice(tails)


@pytest.mark.parametrize("name", ["UTF-8", "UTF-16LE", "UTF-16BE"])
def test_utf_differential_against_reference(name: str) -> None:
    inputs = utf8_inputs() if name == "UTF-8" else utf16_inputs(name == "UTF-16BE")
    encoding = get_encoding(name)
    assert encoding is not None
    total = 0
    wrong = []
    for data in inputs:
        total += 1
        ours, spec = encoding.decode(data), reference_decode(name, data)
        if ours != spec:
            wrong.append(f"{data.hex(' ')}: ours {show(ours)} spec {show(spec)}")
    assert total > 10_000
    assert not wrong, f"{len(wrong)} of {total} differ:\n" + "\n".join(wrong[:10])
