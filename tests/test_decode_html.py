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
