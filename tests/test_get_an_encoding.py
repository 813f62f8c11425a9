"""The Encoding Standard's "get an encoding": all 228 labels, and nothing else."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from browser_decode import Encoding, get_encoding
from browser_decode._labels import LABELS, NAMES

from .conftest import DATA, ROOT, encodings_json, spec_labels

WPT_LABELS = json.loads((DATA / "wpt" / "labels.json").read_text("utf-8"))
SPEC_LABELS = spec_labels()


def test_table_size() -> None:
    """The standard has 40 encodings and 228 labels; the generated table has the same."""
    names = [e["name"] for group in encodings_json() for e in group["encodings"]]
    assert len(names) == 40 and len(SPEC_LABELS) == 228
    assert list(NAMES) == names
    assert LABELS == SPEC_LABELS


def test_generated_tables_are_up_to_date() -> None:
    """tools/gen_tables.py --check: the checked-in modules match the vendored JSON."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_tables.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(("label", "name"), sorted(SPEC_LABELS.items()))
def test_every_label(label: str, name: str) -> None:
    """Each label resolves, also upper-cased and surrounded by ASCII whitespace."""
    for variant in (label, label.upper(), f" \t{label}\n\x0c\r", label.title()):
        encoding = get_encoding(variant)
        assert encoding is not None, variant
        assert encoding.name == name


@pytest.mark.parametrize("label", WPT_LABELS["unsupported_labels"]["labels"])
def test_labels_browsers_must_not_know(label: str) -> None:
    """The 155 labels of WPT's unsupported-labels test are unknown."""
    assert get_encoding(label) is None


@pytest.mark.parametrize(
    "label",
    [
        "utf-7", "UTF7", "base64", "rot13", "rot_13", "unicode_escape", "raw_unicode_escape",
        "utf-32", "utf-32le", "cp037", "cp500", "cp1140", "ebcdic-cp-us", "punycode", "idna",
        "zlib", "hex", "uu", "bz2", "quopri", "latin-1", "LATİN1", "utf-8\x0b", "utf-8\x00",
        "\xa0utf-8", "utf-8\u2028", "cp932", "mbcs", "oem", "", " ", "utf-\u212a8",
    ],
)  # fmt: skip
def test_hostile_labels_are_unknown(label: str) -> None:
    """Python codec names that are no WHATWG label never reach codecs.lookup."""
    assert get_encoding(label) is None


def test_whitespace_rules_of_wpt() -> None:
    """Only ASCII whitespace (SPACE TAB LF FF CR) is stripped (WPT textdecoder-labels)."""
    for ws in WPT_LABELS["textdecoder_accepts_surrounding"]["chars"]:
        assert get_encoding(f"{ws}utf-8{ws}") is not None, repr(ws)
    for ws in WPT_LABELS["textdecoder_rejects_surrounding"]["chars"]:
        assert get_encoding(f"{ws}utf-8{ws}") is None, repr(ws)
    for label in WPT_LABELS["textdecoder_rejects_surrounding"]["also_rejected"]:
        assert get_encoding(label) is None


def test_bytes_label_is_isomorphic_decoded() -> None:
    encoding = get_encoding(b"Shift_JIS")
    assert encoding is not None and encoding.name == "Shift_JIS"
    assert get_encoding(b"utf-8\xa0") is None


def test_wrong_type_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        get_encoding(5)  # type: ignore[arg-type]


def test_encoding_objects_are_singletons() -> None:
    a, b = get_encoding("latin1"), get_encoding("windows-1252")
    assert a is b and isinstance(a, Encoding)
    assert repr(a) == "<Encoding windows-1252>"
    with pytest.raises(AttributeError):
        a.name = "x"  # type: ignore[misc]
