"""StreamDecoder: for any chunking, the same text and provenance as decode_html."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from browser_decode import StreamDecoder, decode_html, get_encoding

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# Python codecs that encode text for the WHATWG encodings we generate pages in
# (only the encoder side is Python's; the decoding under test is the library's).
_ENCODE_WITH = {
    "UTF-8": "utf-8",
    "UTF-16LE": "utf-16-le",
    "UTF-16BE": "utf-16-be",
    "windows-1252": "cp1252",
    "windows-1251": "cp1251",
    "Shift_JIS": "shift_jis",
    "EUC-JP": "euc_jp",
    "EUC-KR": "euc_kr",
    "Big5": "big5",
    "gb18030": "gb18030",
    "GBK": "gbk",
    "ISO-2022-JP": "iso2022_jp",
}
_MULTI_BYTE = {"Shift_JIS", "EUC-JP", "ISO-2022-JP", "Big5", "EUC-KR", "gb18030", "GBK"}
# Malformed input where the standard's decoders (encoding.bs) differ from
# Python's codecs: a trail byte outside the trail range is consumed with the
# lead ("If byte is an ASCII byte, restore byte" -- only ASCII is restored),
# gb18030 restores the digit, ISO-2022-JP knows the katakana escape.
_PROBES = [
    ("EUC-JP", b"\xe6\x9c", "\ufffd"),
    ("Shift_JIS", b"\x81\xfd", "\ufffd"),
    ("Big5", b"\x81\x80", "\ufffd"),
    ("gb18030", b"\x81\x30\x20", "\ufffd0 "),
    ("ISO-2022-JP", b"\x1b(I!", "\uff61"),
]
#: False while the multi-byte decoders are Python's codecs (provisional): they
#: handle malformed bytes differently from the standard, so decoding the parts
#: at the standard's cut points may differ from decoding the whole.
STANDARD_MULTI_BYTE = all(get_encoding(n).decode(b) == text for n, b, text in _PROBES)
_BOMS = {"UTF-8": b"\xef\xbb\xbf", "UTF-16LE": b"\xff\xfe", "UTF-16BE": b"\xfe\xff"}
_TEXT = st.text(
    alphabet=st.sampled_from("aZ09 <>=\"'/\n-é€ж日本語한국어中文あア｡～\\~"), max_size=300
)


_MARKUP = [
    b"<!--",
    b"-->",
    b"<!-- x -->",
    b"<",
    b">",
    b"<?xml version='1.0' encoding='koi8-r'?>",
    b'"',
    b"'",
    b"=",
    b" ",
    b"/",
    b"<meta",
    b"<meta ",
    b"<meta charset=",
    b"<meta charset=x>",
    b"<meta http-equiv=content-type content='text/html; charset=euc-jp'>",
    b"<a href='<meta'>",
    b"<p",
    b"</p>",
    b"<!x>",
    b"<?pi>",
    b"</",
    b"charset=utf-16",
    b"<script>",
    b"\xff",
]


@st.composite
def pages(draw: st.DrawFn) -> tuple[bytes, str | None]:
    name = draw(st.sampled_from(sorted(_ENCODE_WITH)))
    text = draw(_TEXT)
    body = text.encode(_ENCODE_WITH[name], "ignore")
    how = draw(
        st.sampled_from(
            ["bom", "header", "meta", "late meta", "head meta", "noisy meta", "none", "noise"]
        )
    )
    content_type: str | None = draw(st.sampled_from([None, "text/html", "text/plain"]))
    if how == "bom" and name in _BOMS:
        body = _BOMS[name] + body
    elif how == "header":
        content_type = f"text/html; charset={name}"
    elif how in ("meta", "late meta") and not name.startswith("UTF-16"):
        padding = b" " * (draw(st.integers(0, 1200)) if how == "late meta" else 0)
        body = b"<!doctype html>" + padding + f"<meta charset={name}>".encode() + body
    elif how == "head meta" and not name.startswith("UTF-16"):
        title = b"t" * draw(st.integers(900, 3000))
        body = b"<head><title>" + title + f"</title><meta charset={name}>".encode() + body
    elif how == "noisy meta" and not name.startswith("UTF-16"):
        # Markup fragments before the declaration: comments, quotes, other tags,
        # an XML declaration, truncated <meta ...; the prescan of every prefix
        # must agree with the prescan of the whole.
        noise = draw(st.lists(st.sampled_from(_MARKUP), max_size=12))
        body = b"".join(noise) + f"<meta charset={name}>".encode() + body
    elif how == "noise":
        body = draw(st.binary(max_size=400))
    return body, content_type


def _feed_all(decoder: StreamDecoder, body: bytes, sizes: list[int]) -> str:
    out, position, index = [], 0, 0
    while position < len(body):
        size = sizes[index % len(sizes)] if sizes else len(body)
        out.append(decoder.feed(body[position : position + size]))
        position += size
        index += 1
    out.append(decoder.close())
    return "".join(out)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(page=pages(), sizes=st.lists(st.integers(1, 64), max_size=8))
def test_any_chunking_equals_decode_html(page: tuple[bytes, str | None], sizes: list[int]) -> None:
    body, content_type = page
    decoder = StreamDecoder(content_type)
    text = _feed_all(decoder, body, sizes)
    expected = decode_html(body, content_type)
    if not STANDARD_MULTI_BYTE and expected.encoding in _MULTI_BYTE and expected.replacements:
        return  # malformed multi-byte input: see STANDARD_MULTI_BYTE
    assert text == expected.text
    assert decoder.provenance == expected.provenance


@pytest.mark.skipif(
    not STANDARD_MULTI_BYTE,
    reason="the provisional multi-byte decoders (Python codecs) do not follow the standard on "
    "malformed input; the cut rules are proven against the standard in test_split.py",
)
@pytest.mark.parametrize("size", [1, 2, 3])
def test_malformed_multi_byte_input_with_standard_decoders(size: int) -> None:
    body = (
        b"<meta http-equiv=content-type content='text/html; charset=euc-jp'>\xe6\x9c\xac\xe8"
        b"\xaa\x9e\x8f\xa1\x8e\x81\x30\x20"
    )
    decoder = StreamDecoder()
    assert _feed_all(decoder, body, [size]) == decode_html(body).text


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.html")), ids=lambda p: p.name)
@pytest.mark.parametrize("content_type", [None, "text/html", "text/html; charset=windows-1251"])
@pytest.mark.parametrize("size", [1, 2, 3, 7, 100, 4096])
def test_example_pages_byte_by_byte(path: Path, content_type: str | None, size: int) -> None:
    body = path.read_bytes()
    decoder = StreamDecoder(content_type)
    text = _feed_all(decoder, body, [size])
    assert (text, decoder.provenance) == tuple(decode_html(body, content_type))


def test_meta_decides_before_the_body_is_complete() -> None:
    decoder = StreamDecoder("text/html")
    assert decoder.feed(b"<meta charset=koi8-r>") == "<meta charset=koi8-r>"
    assert decoder.provenance is not None and decoder.provenance.encoding == "KOI8-R"
    assert decoder.feed(b"\xc1") == "а"


def test_header_charset_waits_only_for_a_possible_bom() -> None:
    decoder = StreamDecoder("text/html; charset=windows-1251")
    assert decoder.feed(b"\xef") == ""  # could be the start of a UTF-8 BOM
    assert decoder.feed(b"\xe0") == b"\xef\xe0".decode("cp1251")  # windows-1251: header
    assert decoder.encoding == "windows-1251"


def test_xml_declaration_does_not_win_early_over_a_later_meta() -> None:
    body = b'<?xml version="1.0" encoding="windows-1252"?><meta charset=shift_jis>\x82\xa0'
    decoder = StreamDecoder()
    assert decoder.feed(body[:50]) == ""  # the prescan ran out of bytes: undecided
    text = decoder.feed(body[50:]) + decoder.close()
    assert text == decode_html(body).text and decoder.encoding == "Shift_JIS"


def test_undeclared_body_waits_until_close_or_the_limit() -> None:
    decoder = StreamDecoder("text/html", buffer_limit=0)  # raised to the 64 KiB minimum
    assert decoder.feed(b"plain ascii " * 1000) == ""
    assert decoder.provenance is None
    out = decoder.feed(b"x" * 60_000)
    assert out.startswith("plain ascii") and decoder.encoding == "UTF-8"


def test_documented_exception_long_undeclared_body() -> None:
    """Decided on the first buffer_limit bytes, while decode_html sees everything."""
    body = b"a" * 70_000 + "привет мир, это текст".encode("cp1251") * 50
    decoder = StreamDecoder("text/html", buffer_limit=65_540)
    text = _feed_all(decoder, body, [4096])
    whole = decode_html(body, "text/html")
    assert decoder.provenance is not None and decoder.provenance.encoding == "UTF-8"
    assert whole.encoding != "UTF-8"
    assert text != whole.text  # exactly the documented case
    # With a limit above the body size, the results agree again.
    decoder = StreamDecoder("text/html", buffer_limit=len(body) + 1)
    assert _feed_all(decoder, body, [4096]) == whole.text


def test_carry_stays_small() -> None:
    body = "日本語のテキスト".encode("shift_jis") * 2000
    decoder = StreamDecoder("text/html; charset=shift_jis")
    for start in range(0, len(body), 333):
        decoder.feed(body[start : start + 333])
        assert len(decoder._pending) <= 1


def test_replacement_encoding_gives_one_replacement_character() -> None:
    decoder = StreamDecoder("text/html; charset=iso-2022-kr")
    text = _feed_all(decoder, b"abc" * 10, [1])
    assert (text, decoder.provenance) == tuple(
        decode_html(b"abc" * 10, "text/html; charset=iso-2022-kr")
    )


def test_wrong_types() -> None:
    decoder = StreamDecoder()
    with pytest.raises(TypeError, match="bytes"):
        decoder.feed("text")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        StreamDecoder(content_type=3)  # type: ignore[arg-type]
    decoder.close()
    with pytest.raises(ValueError, match="after close"):
        decoder.feed(b"x")
    assert decoder.close() == ""


def test_xml_declaration_decides_once_1024_bytes_arrived() -> None:
    body = b'<?xml version="1.0" encoding="koi8-r"?>' + b"<p>x</p>" * 200 + b"\xc1"
    decoder = StreamDecoder()
    assert decoder.feed(body[:1000]) == ""
    assert decoder.feed(body[1000:1100]) != ""  # decided without waiting for the limit
    assert str(decoder.provenance) == "KOI8-R (meta)"
    assert decoder.feed(body[1100:]) + decoder.close() != ""


def test_late_meta_decides_as_soon_as_it_arrived() -> None:
    body = b"<head><title>" + b"t" * 3000 + b"</title><meta charset=euc-kr>" + b"\xc7\xd1" * 300
    decoder = StreamDecoder()
    assert decoder.feed(body[:3040]) == ""
    assert decoder.feed(body[3040:]) != ""  # 600 bytes later, not at the 1 MiB limit
    assert decoder.provenance == decode_html(body).provenance


CORPUS = Path("/work/shared/corpus/dev/files")


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the dev corpus is not on this machine")
def test_real_pages_stream_like_decode_html() -> None:
    """Every 8th page of the dev corpus (read in place, never copied), 997-byte chunks."""
    for path in sorted(CORPUS.iterdir())[::8]:
        body = path.read_bytes()
        decoder = StreamDecoder()
        text = _feed_all(decoder, body, [997])
        assert (text, decoder.provenance) == tuple(decode_html(body)), path.name


# --- the body's type (issue 15.2) ---------------------------------------------------

_TYPED_BODIES = [
    (
        "application/xhtml+xml",
        b'<?xml version="1.0" encoding="windows-1252"?><html><p>Caf\xe9</p></html>',
        "windows-1252",
    ),
    (
        "application/rss+xml",
        b"<?xml version='1.0' encoding='koi8-r'?><rss><title>\xf0\xd2\xc9\xd7</title></rss>",
        "KOI8-R",
    ),
    (
        "application/xml",
        '<?xml version="1.0" encoding="UTF-16"?><urlset>ü</urlset>'.encode("utf-16-le"),
        "UTF-16LE",
    ),
    ("text/xml", "<urlset>Grüße</urlset>".encode(), "UTF-8"),
    ("application/json", '{"a": "Grüße"}'.encode(), "UTF-8"),
    ("application/json; charset=shift_jis", '{"a": "日本"}'.encode("cp932"), "Shift_JIS"),
    ("text/plain", b"<meta charset=koi8-r>" + "Привет мир".encode("cp1251") * 8, None),
]


@pytest.mark.parametrize(("content_type", "body", "encoding"), _TYPED_BODIES)
@pytest.mark.parametrize("size", [1, 2, 5, 64, 5000])
def test_stream_follows_the_body_type(
    content_type: str, body: bytes, encoding: str | None, size: int
) -> None:
    decoder = StreamDecoder(content_type)
    text = _feed_all(decoder, body, [size])
    expected = decode_html(body, content_type)
    assert (text, decoder.provenance) == tuple(expected)
    if encoding is not None:
        assert expected.encoding == encoding


def test_xml_declaration_decides_as_soon_as_it_is_complete() -> None:
    decoder = StreamDecoder("application/rss+xml")
    assert decoder.feed(b'<?xml version="1.0" encoding="koi8-r"') == ""
    assert decoder.feed(b"?><a>\xc1") == '<?xml version="1.0" encoding="koi8-r"?><a>а'
    assert str(decoder.provenance) == "KOI8-R (meta)"


def test_json_without_charset_decides_at_once() -> None:
    decoder = StreamDecoder("application/json")
    assert decoder.feed(b'{"a"') == '{"a"'
    assert decoder.provenance is not None and decoder.provenance.encoding == "UTF-8"


_XML_PIECES = st.sampled_from(
    [
        b"<?xml",
        b' version="1.0"',
        b' encoding="koi8-r"',
        b" encoding='shift_jis'",
        b' encoding="utf-16"',
        b"?>",
        b">",
        b"<",
        b"\x00",
        b"<\x00?\x00x\x00",
        b"\xef\xbb\xbf",
        b"\xc1\xf0",
        "é".encode(),
    ]
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    body=st.lists(_XML_PIECES | st.binary(max_size=6), max_size=20).map(b"".join),
    content_type=st.sampled_from(
        [
            "application/xhtml+xml",
            "text/xml; charset=windows-1251",
            "application/json",
            "application/json; charset=koi8-r",
            "text/plain",
            "text/css; charset=bogus",
        ]
    ),
    sizes=st.lists(st.integers(1, 9), max_size=6),
)
def test_any_type_any_chunking_equals_decode_html(
    body: bytes, content_type: str, sizes: list[int]
) -> None:
    decoder = StreamDecoder(content_type)
    assert (_feed_all(decoder, body, sizes), decoder.provenance) == tuple(
        decode_html(body, content_type)
    )


# --- cost (issue 16.9) -----------------------------------------------------------------


def test_the_header_is_resolved_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import browser_decode._streaming as streaming

    calls = {"extract": 0, "legacy": 0}
    extract, legacy = streaming.extract_mime_type, streaming.legacy_extract_an_encoding

    def counting_extract(value: str) -> object:
        calls["extract"] += 1
        return extract(value)

    def counting_legacy(mime: object) -> object:
        calls["legacy"] += 1
        return legacy(mime)  # type: ignore[arg-type]

    monkeypatch.setattr(streaming, "extract_mime_type", counting_extract)
    monkeypatch.setattr(streaming, "legacy_extract_an_encoding", counting_legacy)
    decoder = StreamDecoder("text/html; charset=" + "x" * 8192)  # not a label: undecided
    body = b"plain ascii " * 600
    text = _feed_all(decoder, body, [1])
    assert text == decode_html(body, "text/html; charset=" + "x" * 8192).text
    assert calls == {"extract": 1, "legacy": 1}


_CJK_CODECS = {
    "UTF-8": "utf-8",
    "Shift_JIS": "cp932",
    "EUC-JP": "euc_jp",
    "EUC-KR": "euc_kr",
    "Big5": "big5",
    "gb18030": "gb18030",
    "GBK": "gbk",
    "UTF-16LE": "utf-16-le",
}
#: No ASCII character, several scripts, and characters gb18030 encodes in four bytes.
_CJK_ALPHABET = "日本語のテキスト한국어中文內容ｱ｡～€😀\u0100丂丄"
_CJK_TEXT = st.text(alphabet=st.sampled_from(_CJK_ALPHABET), max_size=200)


@settings(max_examples=200, deadline=None)
@given(
    name=st.sampled_from(sorted(_CJK_CODECS)),
    text=_CJK_TEXT,
    noise=st.binary(max_size=6),
    sizes=st.lists(st.integers(1, 40), min_size=1, max_size=6),
)
def test_cjk_without_ascii_streams_like_the_whole(
    name: str, text: str, noise: bytes, sizes: list[int]
) -> None:
    body = text.encode(_CJK_CODECS[name], "ignore") + noise
    content_type = f"text/html; charset={name}"
    decoder = StreamDecoder(content_type)
    assert (_feed_all(decoder, body, sizes), decoder.provenance) == tuple(
        decode_html(body, content_type)
    )


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(["UTF-8", "Shift_JIS", "Big5", "EUC-KR", "gb18030", "EUC-JP"]),
    data=st.data(),
)
def test_split_shortcuts_equal_the_state_machine_walk(name: str, data: st.DataObject) -> None:
    """The shortcuts of _tail_split give the cut of the byte-by-byte walk from the last reset."""
    from browser_decode import _split

    tail, step, _ = _split._TAIL_RULES[name]
    alphabet = [*tail, 0x20, 0x41, 0x30, 0x39, 0x80, 0x8E, 0x8F, 0xFF, 0xC0]
    buffer = bytes(data.draw(st.lists(st.sampled_from(alphabet), max_size=300)))

    def walk(buffer: bytes, tail_bytes: bytes) -> int:
        return len(buffer.rstrip(tail_bytes))

    assert _split.split_point(name, buffer)[0] == _split._tail_split(buffer, tail, step, walk)


def test_detector_argument() -> None:
    body = "Привет, как дела? Всё хорошо, спасибо.".encode("cp1251") * 4
    decoder = StreamDecoder("text/html", detector=lambda b: ("koi8-r", 0.5))
    text = _feed_all(decoder, body, [7])
    expected = decode_html(body, "text/html", detector=lambda b: ("koi8-r", 0.5))
    assert text == expected.text
    assert decoder.provenance is not None and decoder.provenance.encoding == "KOI8-R"
    assert decoder.provenance.detector is not None
    with pytest.raises(ValueError, match="unknown detector"):
        StreamDecoder(detector="nope")
