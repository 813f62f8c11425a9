"""The public surface is small, explicit and stable."""

from __future__ import annotations

import pickle

import browser_decode
from browser_decode import Confidence, Source, get_encoding


def test_all_is_exactly_the_public_names() -> None:
    public = sorted(name for name in dir(browser_decode) if not name.startswith("_"))
    assert sorted(browser_decode.__all__) == [n for n in public if n != "__version__"]
    assert browser_decode.__all__ == sorted(browser_decode.__all__)


def test_public_objects_report_the_package_as_module() -> None:
    for name in browser_decode.__all__:
        assert getattr(browser_decode, name).__module__ == "browser_decode"


def test_enums_are_strings() -> None:
    assert [s.value for s in Source] == ["bom", "header", "meta", "utf-8", "detected", "default"]
    assert Source("meta") is Source.META and str(Source.UTF8) == "utf-8"
    assert [c.value for c in Confidence] == ["certain", "tentative"]


def test_encodings_pickle_to_the_same_object() -> None:
    encoding = get_encoding("sjis")
    assert pickle.loads(pickle.dumps(encoding)) is encoding


def test_help_shows_the_public_api_only() -> None:
    """help(browser_decode): the overview, then only the names of __all__, briefly."""
    import pydoc
    import re

    text = pydoc.render_doc(browser_decode, renderer=pydoc.plaintext)
    lines = text.splitlines()
    assert len(lines) < 1200, len(lines)  # was 2,148 with every str method of the enums
    documented = set(re.findall(r"^    class (\w+)\(", text, re.MULTILINE))
    documented |= set(re.findall(r"^    (?:async )?(\w+)\(", text, re.MULTILINE))
    assert documented == set(browser_decode.__all__)
    assert "inherited from builtins.str" not in text
    # The package docstring is the overview: it names every entry point.
    overview = browser_decode.__doc__ or ""
    assert len(overview.splitlines()) <= 40
    for name in ("decode_html", "decode_response", "StreamDecoder", "Provenance", "detector"):
        assert name in overview


def test_enum_dir_lists_members_not_str_methods() -> None:
    assert "META" in dir(Source) and "upper" not in dir(Source)
    assert Source.META.upper() == "META"  # still a str


def test_content_coding_error_is_public() -> None:
    from browser_decode._content_coding import BadCoding, TooLarge, UnsupportedCoding

    for error in (BadCoding, TooLarge, UnsupportedCoding):
        assert issubclass(error, browser_decode.ContentCodingError)
    assert issubclass(browser_decode.ContentCodingError, ValueError)


def test_to_utf8_document_is_public() -> None:
    assert browser_decode.to_utf8_document('<meta charset="koi8-r">', bom=False) == (
        b'<meta charset="utf-8">'
    )
