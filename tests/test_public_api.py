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


def _fresh(code: str, *args: str, stdin: bytes = b"") -> str:
    """Run *code* in a fresh process that imports this tree's browser_decode."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    source = str(Path(browser_decode.__file__).parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([source, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-c", code, *args], input=stdin, capture_output=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode().strip()


def test_text_tools_are_imported_on_first_use() -> None:
    """repair, to_utf8_document and normalize_for_matching: their modules load when a
    name is first used, and everything else behaves as if they had been imported at once
    (the names, ``__module__``, pickles made elsewhere, ``import *``)."""
    modules = ("browser_decode._text.repair", "browser_decode._text.utf8_document",
               "browser_decode._text.normalize")  # fmt: skip
    out = _fresh(
        "import sys, browser_decode\n"
        f"print([m for m in {modules!r} if m in sys.modules])\n"
        "print(browser_decode.repair.__module__, browser_decode.RepairStep.__module__)\n"
        f"print([m for m in {modules!r} if m in sys.modules])\n"
    )
    assert out.splitlines() == [
        "[]",
        "browser_decode browser_decode",
        "['browser_decode._text.repair']",
    ]
    # A submodule imported first names the package all the same.
    out = _fresh(
        "from browser_decode._text.repair import RepairResult, RepairStatus\n"
        "from browser_decode._text.utf8_document import to_utf8_document\n"
        "from browser_decode._text.normalize import normalize_for_matching\n"
        "print(RepairResult.__module__, RepairStatus.__module__, to_utf8_document.__module__,"
        " normalize_for_matching.__module__)"
    )
    assert out == "browser_decode browser_decode browser_decode browser_decode"
    # A pickle made here loads where the module was never imported.
    result = browser_decode.repair("cafÃ©")
    data = pickle.dumps((result, browser_decode.RepairStatus.UNNEEDED))
    out = _fresh(
        "import pickle, sys\nvalue = pickle.loads(sys.stdin.buffer.read())\nprint(repr(value))",
        stdin=data,
    )
    assert out == repr((result, browser_decode.RepairStatus.UNNEEDED))
    out = _fresh(
        "from browser_decode import *\n"
        "print(repair('x').status, to_utf8_document('x'), normalize_for_matching('X'))"
    )
    expected = (browser_decode.to_utf8_document("x"), browser_decode.normalize_for_matching("X"))
    assert out == "unneeded {} {}".format(*expected)
    import pytest

    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        browser_decode.nope  # type: ignore[attr-defined]  # noqa: B018
