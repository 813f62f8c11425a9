"""``replacements`` is the number of errors the standard's decoder reports (issue 16 item 7).

"If result is error, switch on mode and then: replacement: Push U+FFFD (�) to output."
-- https://encoding.spec.whatwg.org/#process-an-item

The reference is ``tests/_reference_decoders.py`` run step by step with the standard's
indexes (read there from indexes.json), counting the handler's errors: for every one of
the 40 encodings, whole bodies (``decode_html`` with the charset in the header) and
random chunkings (``StreamDecoder``) give its text and its count.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from browser_decode import StreamDecoder, decode_html, get_encoding
from browser_decode._bom_sniff import bom_sniff
from browser_decode._decoders import COUNTING, decode_counting
from browser_decode._labels import NAMES

from ._reference_decoders import reference_decode_counting

# Bytes that matter to some decoder, and the byte sequences that encode U+FFFD itself.
_INTERESTING = sorted(
    set(b"\x00\x0e\x0f\x1b$(@BIJ\\~0179:?@A\x7e\x7f")
    | {0x80, 0x81, 0x84, 0x8D, 0x8E, 0x8F, 0x90, 0x9F, 0xA0, 0xA1, 0xA4, 0xBD, 0xBF, 0xC0}
    | {0xC1, 0xC2, 0xD7, 0xD8, 0xDB, 0xDC, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFC}
    | {0xFD, 0xFE, 0xFF}
)
_SEQUENCES = [
    b"\x84\x31\xa4\x37",  # gb18030: U+FFFD
    b"\xef\xbf\xbd",  # UTF-8: U+FFFD
    b"\xfd\xff",  # UTF-16LE: U+FFFD
    b"\xff\xfd",  # UTF-16BE: U+FFFD
    b"\x1b(B",
    b"\x1b(J",
    b"\x1b(I",
    b"\x1b$B",
    b"\x1b$@",
    b"\x1b$",
    b"\x82\xa0",  # Shift_JIS あ
    b"\xa4\xa2",  # EUC-JP, EUC-KR, Big5, GBK characters
]
_pieces = st.one_of(
    st.binary(min_size=1, max_size=4),
    st.lists(st.sampled_from(_INTERESTING), min_size=1, max_size=6).map(bytes),
    st.sampled_from(_SEQUENCES),
)
_bodies = st.lists(_pieces, max_size=30).map(b"".join)
_cuts = st.lists(st.integers(min_value=0, max_value=10_000), max_size=20)


def _chunked(body: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(body) + 1) for c in cuts})
    return [body[a:b] for a, b in zip([0, *points], [*points, len(body)], strict=True)]


def test_every_encoding_has_a_counting_decoder() -> None:
    assert all(callable(COUNTING[name]) for name in NAMES)


@pytest.mark.parametrize(
    ("name", "body", "errors"),
    [
        ("GBK", b"\x81\x84\x31\xa4\x37", 1),  # the case: 84 31 A4 37 is not a token
        ("gb18030", b"\x84\x31\xa4\x37", 0),
        ("gb18030", b"\x84\x31\xa4", 1),
        ("UTF-8", b"\xef\xbf\xbd\xff", 1),
        ("UTF-16LE", b"\x00\xd8\xfd\xff", 1),  # a lone surrogate, then U+FFFD itself
        ("Shift_JIS", b"\xa0\xfd\x82\xa0", 2),  # cp932 decodes A0 and FD as characters
        ("windows-1253", b"\xaa\xe1", 1),
        ("replacement", b"abc", 1),
    ],
)
def test_known_counts(name: str, body: bytes, errors: int) -> None:
    assert reference_decode_counting(name, body)[1] == errors
    assert decode_counting(name, body)[1] == errors
    decoder = StreamDecoder(f"text/html; charset={name}")
    for byte in body:
        decoder.feed(bytes([byte]))
    decoder.close()
    assert decoder.provenance is not None
    assert decoder.provenance.replacements == errors


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=60, deadline=None)
@given(body=_bodies, cuts=_cuts)
def test_replacements_are_the_standards_errors(name: str, body: bytes, cuts: list[int]) -> None:
    if bom_sniff(body) is not None:  # a BOM would choose another decoder
        body = b" " + body if name not in ("UTF-16LE", "UTF-16BE") else b"  " + body
    encoding = get_encoding(name)
    assert encoding is not None
    text, errors = reference_decode_counting(name, body)
    assert decode_counting(name, body) == (text, errors)
    whole = decode_html(body, f"text/html; charset={name}")
    assert whole.encoding == name
    assert (whole.text, whole.replacements) == (text, errors)
    decoder = StreamDecoder(f"text/html; charset={name}")
    parts = [decoder.feed(chunk) for chunk in _chunked(body, cuts)]
    parts.append(decoder.close())
    assert decoder.provenance is not None
    assert ("".join(parts), decoder.provenance.replacements) == (text, errors)
