"""decode_html end to end: precedence and provenance, checked against Chromium.

The 96 cases of ``data/chromium/chromium-sniff-cases.json`` were recorded from
headless Chromium 156 (see data/chromium/README.md). Every case decided by a
declaration (BOM, header, ``<meta>``, XML declaration) must give Chromium's
``document.characterSet`` and its text exactly, except the documented
differences below. The undeclared cases (``none-*``) show Chromium's *guess*;
there we follow our documented deviation instead: valid UTF-8 is UTF-8,
otherwise the true encoding of the payload.
"""

from __future__ import annotations

import base64
import json
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from browser_decode import (
    Confidence,
    DecodeResult,
    Provenance,
    Source,
    decode_html,
    get_encoding,
)

from .conftest import DATA

CASES: list[dict[str, Any]] = json.loads(
    (DATA / "chromium" / "chromium-sniff-cases.json").read_text("utf-8")
)["cases"]

#: Where the HTML Standard (which we follow) and Chromium disagree.
SPEC_VS_CHROMIUM = {
    # Chromium tokenizes, so it skips a <meta> inside <script>; the prescan does not.
    "meta-in-script": "windows-1251",
}
#: Where Chromium deviates from the Encoding Standard's decoder (text differs).
CHROMIUM_DECODER_DEVIATIONS = {
    # An odd final byte in UTF-16: Chromium drops it, the standard gives U+FFFD.
    "hdr-utf16-ascii-body",
}
#: The true encoding of each payload that nothing valid declares: the ``none-*``
#: cases and those whose declaration both Chromium and the standard ignore.
UNDECLARED_TRUTH = {
    "hdr-squoted": "windows-1252",  # French windows-1252 sentence
    "hdr-space-eq": "windows-1252",
    "hdr-empty": "UTF-8",
    "hdr-unknown": "UTF-8",
    "hdr-utf7": "UTF-8",  # pure ASCII
    "hdr-cp932": "windows-1252",
    "hdr-cp932-sjis": "Shift_JIS",
    "hdr-text-plain-meta": "windows-1252",
    "meta-content-no-http-equiv": "windows-1252",
    "meta-name-content": "windows-1252",
    "meta-content-empty-charset": "UTF-8",
    "meta-in-comment": "windows-1252",
    "meta-in-attr": "windows-1252",
    "meta-after-1024-body": "windows-1252",
    "meta-utf7": "UTF-8",  # pure ASCII
    "none-w1251-payload": "windows-1252",  # the French test sentence
    "none-utf8": "UTF-8",
    "none-utf8-short": "UTF-8",
    "none-sjis": "Shift_JIS",
    "none-1251": "windows-1251",
    "none-gbk": "GBK",
    "none-euckr": "EUC-KR",
    "none-eucjp": "EUC-JP",
    "none-iso2022jp": "ISO-2022-JP",
    "none-ascii": "UTF-8",  # ASCII is valid UTF-8 (same text either way)
    "none-1252": "windows-1252",
    "none-no-ct-utf8": "UTF-8",
}
EXPECTED_SOURCE = {"bom": Source.BOM, "hdr": Source.HEADER, "meta": Source.META, "xml": Source.META}
#: Cases whose id prefix does not name the rule that decides.
SOURCE_OVERRIDES = {"hdr-unknown+meta": Source.META, "no-ct-meta": Source.META}


def body_of(case: dict[str, Any]) -> bytes:
    return base64.b64decode(case["body_b64"])


def declared(case: dict[str, Any]) -> bool:
    return case["id"] not in UNDECLARED_TRUTH


def test_case_inventory() -> None:
    """96 cases; each fall-through case is one where the declaration did not decide."""
    ids = {case["id"] for case in CASES}
    assert len(CASES) == 96
    assert {i for i in ids if i.startswith("none-")} <= set(UNDECLARED_TRUTH)
    assert set(SPEC_VS_CHROMIUM) | CHROMIUM_DECODER_DEVIATIONS | set(UNDECLARED_TRUTH) <= ids
    for case in CASES:
        if case["id"] in UNDECLARED_TRUTH and not case["id"].startswith("none-"):
            # Chromium's choice did not change when the label was made unknown, or
            # the label was unknown already (no control recorded).
            assert case["control_charset"] in (None, case["chromium_charset"]), case["id"]


@pytest.mark.parametrize("case", [c for c in CASES if declared(c)], ids=lambda c: c["id"])
def test_declared_cases_match_chromium(case: dict[str, Any]) -> None:
    text, provenance = decode_html(body_of(case), case["content_type"])
    expected = SPEC_VS_CHROMIUM.get(case["id"], case["chromium_charset"])
    assert provenance.encoding == expected
    if case["id"] in SPEC_VS_CHROMIUM:
        return
    if case["id"] not in CHROMIUM_DECODER_DEVIATIONS:
        assert text == case["chromium_text"]
    kind = case["id"].split("-")[0]
    assert provenance.source is SOURCE_OVERRIDES.get(case["id"], EXPECTED_SOURCE.get(kind))


@pytest.mark.parametrize("case", [c for c in CASES if not declared(c)], ids=lambda c: c["id"])
def test_undeclared_cases_follow_documented_deviation(case: dict[str, Any]) -> None:
    body = body_of(case)
    truth = get_encoding(UNDECLARED_TRUTH[case["id"]])
    assert truth is not None
    result = decode_html(body, case["content_type"])
    # The exact text of the true encoding (GBK and gb18030 share one decoder; ASCII
    # is the same in UTF-8 and windows-1252).
    assert result.text == truth.decode(body)
    assert result.source in (Source.UTF8, Source.DETECTED)
    assert result.confidence is Confidence.TENTATIVE


def test_sources_and_confidence() -> None:
    assert decode_html(b"\xef\xbb\xbfx").source is Source.BOM
    header = decode_html(b"x", "text/html; charset=koi8-r")
    assert (header.source, header.confidence, header.label) == (
        Source.HEADER,
        Confidence.CERTAIN,
        "koi8-r",
    )
    meta = decode_html(b"<meta charset=KOI8-R>x")
    assert (meta.source, meta.confidence, meta.label, meta.offset) == (
        Source.META,
        Confidence.TENTATIVE,
        "KOI8-R",
        0,
    )
    assert decode_html(b"caf\xc3\xa9").source is Source.UTF8


def test_header_beats_meta_and_bom_beats_header() -> None:
    assert decode_html(b"<meta charset=koi8-r>", "text/html; charset=ibm866").encoding == "IBM866"
    body = b"\xef\xbb\xbf<meta charset=koi8-r>"
    assert decode_html(body, "text/html; charset=ibm866").encoding == "UTF-8"


def test_unknown_header_label_falls_through_to_meta() -> None:
    result = decode_html(b"<meta charset=koi8-r>", "text/html; charset=bogus")
    assert (result.encoding, result.source) == ("KOI8-R", Source.META)


def test_non_html_types_get_no_prescan() -> None:
    body = b"<meta charset=koi8-r>\xe9"
    assert decode_html(body, "text/plain").source is not Source.META
    assert decode_html(body, "text/html").source is Source.META
    assert decode_html(body, None).source is Source.META
    assert decode_html(body, "nonsense").source is Source.META  # unparsable: sniffed as HTML


def test_result_value_object() -> None:
    result = decode_html(b"<meta charset=shift_jis>\x82\xa0", "text/html")
    text, provenance = result
    assert isinstance(result, DecodeResult) and isinstance(provenance, Provenance)
    assert text.endswith("あ") and result.encoding == "Shift_JIS"
    assert str(provenance) == "Shift_JIS (meta)"
    assert pickle.loads(pickle.dumps(result)) == result
    with pytest.raises(AttributeError):
        provenance.encoding = "UTF-8"  # type: ignore[misc]


def test_replacement_count() -> None:
    """Counts U+FFFD introduced by malformed bytes, not U+FFFD the bytes encode."""
    assert decode_html(b"a\xff\xfeb", "text/html; charset=utf-8").replacements == 2
    assert decode_html(b"\xef\xbf\xbd\xff", "text/html; charset=utf-8").replacements == 1
    # UTF-16LE: an encoded U+FFFD, a lone surrogate, a dangling byte -> 2 introduced
    assert decode_html(b"\xff\xfe\xfd\xff\x00\xd8a\x00\x00").replacements == 2
    assert decode_html(b"\xfe\xff\xff\xfd\xd8\x00").replacements == 1
    assert decode_html(b"abc", "text/html; charset=iso-2022-kr").text == "\ufffd"
    assert decode_html(b"", "text/html; charset=iso-2022-kr").text == ""


def test_content_type_as_bytes() -> None:
    result = decode_html(b"\xe9", b"text/html; charset=iso-8859-1")
    assert (result.text, result.encoding) == ("é", "windows-1252")


@pytest.mark.parametrize("body", ["<p>text</p>", 5, None, ["a"]])
def test_body_must_be_bytes(body: object) -> None:
    with pytest.raises(TypeError, match="bytes") as info:
        decode_html(body)  # type: ignore[arg-type]
    if isinstance(body, str):
        assert "response.content" in str(info.value)


def test_bytes_like_bodies() -> None:
    assert decode_html(bytearray(b"ok")).text == "ok"
    assert decode_html(memoryview(b"ok")).text == "ok"


@pytest.mark.parametrize("content_type", [5, ["text/html"], object()])
def test_content_type_type_error(content_type: object) -> None:
    with pytest.raises(TypeError, match="content_type"):
        decode_html(b"x", content_type)  # type: ignore[arg-type]


def test_hint_type_errors() -> None:
    with pytest.raises(TypeError, match="url"):
        decode_html(b"x", url=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="default_encoding"):
        decode_html(b"x", default_encoding=b"utf-8")  # type: ignore[arg-type]


def test_default_encoding_hint_only_for_undeclared_pages() -> None:
    assert decode_html(b"<meta charset=koi8-r>", default_encoding="ibm866").encoding == "KOI8-R"
    assert decode_html(b"hi", default_encoding="ibm866").encoding == "UTF-8"


# --- the body's type (issue 15.2) ---------------------------------------------------

_CAFE_XHTML = (
    b'<?xml version="1.0" encoding="windows-1252"?>'
    b'<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Caf\xe9 cr\xe8me</p></body></html>'
)


@pytest.mark.parametrize(
    "content_type",
    [
        "application/xhtml+xml",
        "application/rss+xml",
        "application/atom+xml",
        "application/xml",
        "text/xml",
        "image/svg+xml",
        "application/vnd.example+xml; q=1",
    ],
)
def test_xml_types_read_the_xml_declaration(content_type: str) -> None:
    """The issue's example: windows-1252 declared in <?xml?>, not windows-1255 by detection."""
    result = decode_html(_CAFE_XHTML, content_type)
    assert "Café crème" in result.text
    assert result.text == _CAFE_XHTML.decode("cp1252")  # cp1252 agrees with the standard here
    assert (result.encoding, result.source, result.label, result.offset) == (
        "windows-1252",
        Source.META,
        "windows-1252",
        0,
    )


def test_xml_header_charset_and_bom_beat_the_declaration() -> None:
    assert decode_html(_CAFE_XHTML, "application/xhtml+xml; charset=koi8-r").encoding == "KOI8-R"
    assert decode_html(b"\xef\xbb\xbf" + _CAFE_XHTML, "text/xml").encoding == "UTF-8"


def test_xml_without_declaration_is_utf8_by_default() -> None:
    body = "<feed><title>Grüße</title></feed>".encode()
    result = decode_html(body, "application/atom+xml")
    assert (result.text, result.encoding, result.source) == (
        "<feed><title>Grüße</title></feed>",
        "UTF-8",
        Source.DEFAULT,
    )


def test_json_follows_rfc_8259() -> None:
    body = '{"name": "Grüße"}'.encode()
    # A charset that would garble valid UTF-8 JSON is ignored (RFC 8259, 11).
    result = decode_html(body, "application/json; charset=iso-8859-1")
    assert result.text == '{"name": "Grüße"}' and result.source is Source.DEFAULT


def test_text_types_get_no_meta_prescan() -> None:
    body = b"<meta charset=koi8-r>" + "Привет".encode("cp1251") * 20
    assert decode_html(body, "text/plain").encoding != "KOI8-R"
    assert decode_html(body, "text/html").encoding == "KOI8-R"


_TYPES = st.sampled_from(
    [
        None,
        "text/html",
        "text/plain",
        "application/xhtml+xml",
        "application/rss+xml",
        "application/json",
        "text/xml; charset=windows-1251",
        "application/json; charset=shift_jis",
        "bogus",
    ]
)


@settings(max_examples=150, deadline=None)
@given(
    body=st.one_of(
        st.binary(max_size=300),
        st.builds(
            lambda label, rest: b'<?xml version="1.0" encoding="' + label + b'"?>' + rest,
            st.sampled_from([b"koi8-r", b"utf-16", b"shift_jis", b"bogus", b"windows-1252"]),
            st.binary(max_size=100),
        ),
    ),
    content_type=_TYPES,
)
def test_decode_html_is_decode_body(body: bytes, content_type: str | None) -> None:
    from browser_decode import decode_body

    assert decode_html(body, content_type) == decode_body(body, content_type)


# --- pluggable detection (issue 13.5) ------------------------------------------------

_RUSSIAN_1251 = "Привет, как дела? Всё хорошо, спасибо. Съешь же ещё этих мягких булок.".encode(
    "cp1251"
)


def test_builtin_detector_is_the_default_and_is_recorded() -> None:
    default = decode_html(_RUSSIAN_1251, "text/html")
    assert default == decode_html(_RUSSIAN_1251, "text/html", detector="builtin")
    assert default == decode_html(_RUSSIAN_1251, "text/html", detector=None)
    assert (default.encoding, default.source, default.detector) == (
        "windows-1251",
        Source.DETECTED,
        "builtin",
    )


def test_charset_normalizer_detector_gives_whatwg_encodings_only() -> None:
    from browser_decode._labels import NAMES

    result = decode_html(_RUSSIAN_1251, "text/html", detector="charset-normalizer")
    assert result.detector == "charset-normalizer" and result.source is Source.DETECTED
    assert result.encoding in NAMES and result.encoding != "replacement"
    assert result.text == get_encoding(result.encoding).decode(_RUSSIAN_1251)  # type: ignore[union-attr]


@settings(max_examples=60, deadline=None)
@given(body=st.binary(min_size=1, max_size=400))
def test_charset_normalizer_never_decodes_with_a_python_codec(body: bytes) -> None:
    """Whatever charset-normalizer says, the text is a WHATWG decoder's output."""
    from browser_decode._labels import NAMES

    result = decode_html(body, "text/html", detector="charset-normalizer")
    assert result.encoding in NAMES
    expected = get_encoding(result.encoding)
    assert expected is not None
    skip = 3 if result.source is Source.BOM and result.encoding == "UTF-8" else 0
    skip = 2 if result.source is Source.BOM and result.encoding != "UTF-8" else skip
    if result.source is not Source.UTF8:
        assert result.text == expected.decode(body[skip:])


def test_python_codec_table_maps_to_whatwg_encodings() -> None:
    import codecs

    from browser_decode._detect._external import python_to_whatwg

    table = python_to_whatwg()
    for module, encoding in table.items():
        codecs.lookup(module)  # charset-normalizer's names are Python codec modules
        assert encoding.name not in ("replacement", "x-user-defined")
    # Labels browsers read differently from Python's codec of the same name.
    assert table["latin_1"].name == "windows-1252"
    assert table["cp932"].name == "Shift_JIS" and table["gb2312"].name == "GBK"
    assert "iso2022_kr" not in table and "hz" not in table  # the replacement encoding's labels


def test_callable_detector_labels_go_through_the_whatwg_table() -> None:
    calls: list[bytes] = []

    def latin(body: bytes) -> tuple[str, float]:
        calls.append(body)
        return "latin1", 0.8  # a WHATWG label of windows-1252

    result = decode_html(_RUSSIAN_1251, "text/html", detector=latin)
    assert calls == [_RUSSIAN_1251]
    assert (result.encoding, result.source, result.score) == ("windows-1252", Source.DETECTED, 0.8)
    assert result.detector is not None and result.detector.endswith("latin")
    assert result.text == _RUSSIAN_1251.decode("cp1252")


@pytest.mark.parametrize(
    "answer",
    [None, ("utf-7", 0.9), ("cp1125", 1.0), ("iso-2022-kr", 1.0), ("replacement", 1.0)],
    ids=repr,
)
def test_callable_without_a_usable_answer_falls_to_the_default(
    answer: tuple[str, float] | None,
) -> None:
    result = decode_html(_RUSSIAN_1251, "text/html", detector=lambda body: answer)
    assert (result.encoding, result.source, result.detector) == (
        "windows-1252",
        Source.DEFAULT,
        None,
    )
    hinted = decode_html(_RUSSIAN_1251, detector=lambda body: answer, default_encoding="koi8-r")
    assert hinted.encoding == "KOI8-R"


def test_detector_is_not_asked_when_the_page_declares() -> None:
    def never(body: bytes) -> tuple[str, float]:
        raise AssertionError("asked")

    assert decode_html(b"<meta charset=koi8-r>\xc1", detector=never).encoding == "KOI8-R"
    assert decode_html("Grüße".encode(), detector=never).source is Source.UTF8
    assert decode_html(b"\xc1", "text/html; charset=koi8-r", detector=never).text == "а"


def test_detector_errors() -> None:
    def broken(body: bytes) -> tuple[str, float]:
        raise RuntimeError("my bug")

    with pytest.raises(RuntimeError, match="my bug"):  # the caller's bug is not hidden
        decode_html(_RUSSIAN_1251, detector=broken)
    for bad in (lambda b: "koi8-r", lambda b: ("koi8-r",), lambda b: (5, 0.5)):
        with pytest.raises(TypeError, match="detector"):
            decode_html(_RUSSIAN_1251, detector=bad)
    with pytest.raises(TypeError, match="score"):
        decode_html(_RUSSIAN_1251, detector=lambda b: ("koi8-r", "high"))
    with pytest.raises(ValueError, match="score"):
        decode_html(_RUSSIAN_1251, detector=lambda b: ("koi8-r", float("nan")))
    with pytest.raises(ValueError, match="unknown detector"):
        decode_html(_RUSSIAN_1251, detector="chardet")
    with pytest.raises(TypeError, match="detector must be"):
        decode_html(_RUSSIAN_1251, detector=3)  # type: ignore[arg-type]


def test_detector_scores_are_clamped() -> None:
    assert decode_html(_RUSSIAN_1251, detector=lambda b: ("koi8-r", 7)).score == 1.0
    assert decode_html(_RUSSIAN_1251, detector=lambda b: ("koi8-r", -1)).score == 0.0


# --- bounded caches (issue 16.10) ----------------------------------------------------


def test_mime_type_cache_keeps_no_long_header() -> None:
    from browser_decode._api import _BY_CONTENT_TYPE
    from browser_decode._extract_mime_type import _extract_mime_type_cached

    _extract_mime_type_cached.cache_clear()
    _BY_CONTENT_TYPE.clear()
    for index in range(20):
        header = f"text/html; charset=koi8-r; x={index}; pad=" + "a" * (1 << 20)
        assert decode_html(b"\xc1", header).encoding == "KOI8-R"
    assert _extract_mime_type_cached.cache_info().currsize == 0
    assert not _BY_CONTENT_TYPE
    decode_html(b"\xc1", "text/html; charset=koi8-r")
    assert _extract_mime_type_cached.cache_info().currsize == 1
    assert list(_BY_CONTENT_TYPE) == ["text/html; charset=koi8-r"]
    for index in range(2000):  # decode_html's own cache of header values is bounded too
        decode_html(b"\xc1", f"text/html; charset=koi8-r; x={index}")
    assert len(_BY_CONTENT_TYPE) <= 512
