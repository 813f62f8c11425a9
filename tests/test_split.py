"""The cut rules of ``_split`` against spec-literal decoders, for any chunking.

``tests/_reference_decoders.py`` runs the Encoding Standard's handlers step by
step with a fake index that has holes, so these tests check the rules for the
standard's decoders (not Python's codecs) and for any index contents.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from browser_decode import _split
from browser_decode._split import split_point

from ._reference_decoders import REFERENCE, reference_decode

# Bytes that matter to some decoder: ASCII (digits, ESC and the escape letters),
# C0/C1 controls, every lead/trail range boundary, surrogate high bytes.
_INTERESTING = sorted(
    set(b"\x00\x0e\x0f\x1b$(@BIJ\\~09:?@A\x7e\x7f")
    | {0x80, 0x81, 0x8D, 0x8E, 0x8F, 0x90, 0x9F, 0xA0, 0xA1, 0xBF, 0xC0, 0xC1, 0xC2}
    | {0xD7, 0xD8, 0xDB, 0xDC, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFC, 0xFD, 0xFE, 0xFF}
)
_ESCAPES = [b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$B", b"\x1b$@", b"\x1b$", b"\x1b("]

_pieces = st.one_of(
    st.binary(min_size=1, max_size=3),
    st.lists(st.sampled_from(_INTERESTING), min_size=1, max_size=6).map(bytes),
    st.sampled_from(_ESCAPES),
)
_bodies = st.lists(_pieces, max_size=40).map(b"".join)


def _chunked(body: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(body) + 1) for c in cuts})
    return [body[a:b] for a, b in zip([0, *points], [*points, len(body)], strict=True)]


def stream_decode(name: str, chunks: list[bytes]) -> tuple[str, int]:
    """Decode like StreamDecoder does: cut, decode the head, carry the rest."""
    out, pending, carry, drop, protect = [], b"", 0, 0, 0
    for chunk in chunks:
        data = pending + chunk
        cut, prefix, new_drop = split_point(name, data, protect)
        if cut:
            out.append(reference_decode(name, data[:cut])[drop:])
            pending, drop, protect = prefix + data[cut:], new_drop, len(prefix)
        else:
            pending = data
        carry = max(carry, len(data) - cut - protect * (cut == 0))
    out.append(reference_decode(name, pending)[drop:])
    return "".join(out), carry


@pytest.mark.parametrize("name", sorted(set(REFERENCE) - {"GBK"}))  # GBK's is gb18030's
@settings(max_examples=120, deadline=None)
@given(body=_bodies, cuts=st.lists(st.integers(min_value=0, max_value=10_000), max_size=30))
def test_cut_rules_hold_for_the_standard_decoders(name: str, body: bytes, cuts: list[int]) -> None:
    text, carry = stream_decode(name, _chunked(body, cuts))
    assert text == reference_decode(name, body)
    assert carry <= (3 if name != "ISO-2022-JP" else _split.ISO_2022_JP_PLAIN_CARRY)


@settings(max_examples=200, deadline=None)
@given(body=_bodies, cuts=st.lists(st.integers(min_value=0, max_value=10_000), max_size=30))
def test_iso_2022_jp_prefixes_hold_for_the_standard_decoder(body: bytes, cuts: list[int]) -> None:
    """With no room for a plain carry, every cut re-creates the state with a prefix."""
    saved = _split.ISO_2022_JP_PLAIN_CARRY
    _split.ISO_2022_JP_PLAIN_CARRY = 0
    try:
        text, carry = stream_decode("ISO-2022-JP", _chunked(body, cuts))
    finally:
        _split.ISO_2022_JP_PLAIN_CARRY = saved
    assert text == reference_decode("ISO-2022-JP", body)
    assert carry <= 4


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_every_byte_chunking(name: str) -> None:
    """One byte at a time is the hardest chunking."""
    body = bytes(_INTERESTING) * 3 + b"\x1b$B!!\x1b(J\\\x1b(I!\x1b(B\x1b(Bx\x81\x30\x81\x30\x20"
    text, _ = stream_decode(name, [body[i : i + 1] for i in range(len(body))])
    assert text == reference_decode(name, body)


def test_gb18030_cut_before_a_low_byte_after_a_digit_would_be_wrong() -> None:
    """Why a byte < 0x30 is not a safe cut point: the standard drops the digit at EOQ."""
    assert reference_decode("gb18030", b"\x81\x30") + reference_decode("gb18030", b" ") == "\ufffd "
    assert reference_decode("gb18030", b"\x81\x30 ") == "\ufffd0 "
    assert split_point("gb18030", b"\x81\x30 ")[0] == 3
    assert split_point("gb18030", b"\x81\x30")[0] == 0


def test_iso_2022_jp_cut_right_after_esc_paren_b_would_be_wrong() -> None:
    """The output flag: two escapes in a row are an error, so that state is carried."""
    whole = reference_decode("ISO-2022-JP", b"\x1b(B\x1b$B")
    assert whole == "\ufffd"
    assert (
        reference_decode("ISO-2022-JP", b"\x1b(B") + reference_decode("ISO-2022-JP", b"\x1b$B")
        == ""
    )
    # No cut at 3 without the prefix that sets the output flag again.
    assert split_point("ISO-2022-JP", b"\x1b(B") == (0, b"", 0)
    # A long run of escapes (output stays true): cut with the prefix that re-creates it.
    assert split_point("ISO-2022-JP", b"\x1b(B" * 3000) == (9000, b"\x1b(B", 0)


def test_iso_2022_jp_carry_stays_bounded_on_failed_escapes() -> None:
    body = b"\x1b$@" + b"\x00\x1b!" * 1500
    text, carry = stream_decode("ISO-2022-JP", [body[i : i + 61] for i in range(0, len(body), 61)])
    assert text == reference_decode("ISO-2022-JP", body)
    assert carry <= _split.ISO_2022_JP_PLAIN_CARRY + 4


def test_utf16_run_of_leading_surrogates_is_cut() -> None:
    body = b"\x00\xd8" * 1000
    cut, _, _ = split_point("UTF-16LE", body)
    assert len(body) - cut == 2


@pytest.mark.parametrize("name", ["UTF-8", "Shift_JIS", "gb18030", "EUC-JP", "Big5"])
@pytest.mark.parametrize("byte", [0xC2, 0x81, 0x8F, 0xE0, 0xA1])
def test_runs_of_one_non_ascii_byte_are_cut(name: str, byte: int) -> None:
    cut, _, _ = split_point(name, bytes([byte]) * 10_000)
    assert 10_000 - cut <= 3


# --- decoding a large body in pieces (peak memory) ---------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "UTF-8",
        "UTF-16LE",
        "UTF-16BE",
        "Shift_JIS",
        "gb18030",
        "GBK",
        "EUC-JP",
        "Big5",
        "EUC-KR",
        "windows-1251",
        "ISO-2022-JP",
        "replacement",
    ],
)
@settings(max_examples=60, deadline=None)
@given(body=_bodies, size=st.integers(min_value=1, max_value=12))
def test_decoding_in_pieces_gives_the_text_and_the_errors_of_the_whole(
    name: str, body: bytes, size: int
) -> None:
    from browser_decode._decoders import COUNTING

    assert _split.decode_in_pieces(name, body, COUNTING[name], size) == COUNTING[name](body)


@settings(max_examples=300, deadline=None)
@given(body=_bodies, size=st.integers(min_value=1, max_value=12))
def test_strict_utf8_in_pieces_fails_exactly_when_the_whole_does(body: bytes, size: int) -> None:
    try:
        whole: str | None = body.decode("utf-8")
    except UnicodeDecodeError:
        whole = None
    try:
        pieces: str | None = _split.decode_in_pieces("UTF-8", body, _split._strict_utf8, size)[0]
    except UnicodeDecodeError:
        pieces = None
    assert pieces == whole


@pytest.mark.parametrize(
    ("codec", "header"),
    [
        ("utf-8", "text/html; charset=utf-8"),
        ("utf-8", None),
        ("shift_jis", "text/html; charset=sjis"),
    ],
)
def test_peak_memory_of_a_large_body_stays_below_twice_its_text(
    codec: str, header: str | None
) -> None:
    """decode_html of a 6 MB body (decoded in pieces) needs less than twice its text at
    once; the codec on the whole body needs 2.5 times for UTF-8 text that widens (ASCII
    markup first, then Japanese)."""
    import sys
    import tracemalloc

    from browser_decode import decode_html

    body = ("<p>abc</p>\n" * 2000 + "日本語のテキスト、" * 300_000).encode(codec)
    assert len(body) > _split.PIECES_ABOVE
    decode_html(body[:100_000], header)  # (a decoder's tables are built on first use)
    tracemalloc.start()
    try:
        result = decode_html(body, header)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.text == body.decode(codec) and result.replacements == 0
    assert peak < 1.5 * sys.getsizeof(result.text)
