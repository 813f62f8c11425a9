"""normalize_for_matching: NFKC, the generated look-alike pairs, idempotence.

The pairs named in issue 6 are listed here by hand (independently of the
generator); every generated pair is re-checked against the decoders it was
derived from.
"""

from __future__ import annotations

import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from browser_decode import get_encoding, normalize_for_matching
from browser_decode._text.lookalikes import FOLD, PAIRS, PREFOLD

ROOT = Path(__file__).resolve().parent.parent

#: Issue 6: the Japanese and Chinese round-trip pairs that must fold together.
ISSUE_PAIRS = [
    (0x301C, 0xFF5E),  # WAVE DASH / FULLWIDTH TILDE
    (0x2212, 0xFF0D),  # MINUS SIGN / FULLWIDTH HYPHEN-MINUS
    (0x2016, 0x2225),  # DOUBLE VERTICAL LINE / PARALLEL TO
    (0x00A2, 0xFFE0),  # CENT SIGN / FULLWIDTH CENT SIGN
    (0x00A3, 0xFFE1),  # POUND SIGN / FULLWIDTH POUND SIGN
    (0x00AC, 0xFFE2),  # NOT SIGN / FULLWIDTH NOT SIGN
]


@pytest.mark.parametrize(("a", "b"), ISSUE_PAIRS)
def test_issue_pairs_fold_together(a: int, b: int) -> None:
    assert normalize_for_matching(chr(a)) == normalize_for_matching(chr(b))
    assert normalize_for_matching(f"x{chr(a)}y") == normalize_for_matching(f"x{chr(b)}y")


def test_issue_pairs_were_derived() -> None:
    """The generator found the issue's pairs itself (in one order or the other)."""
    derived = {frozenset((browser, strict)) for browser, strict, _ in PAIRS}
    # U+00A2/U+FFE0 etc. are NFKC-equal already; their pairs appear as found.
    for a, b in ISSUE_PAIRS:
        assert frozenset((a, b)) in derived


@pytest.mark.parametrize(("browser", "strict", "where"), PAIRS)
def test_every_pair_folds_together(browser: int, strict: int, where: str) -> None:
    assert normalize_for_matching(chr(browser)) == normalize_for_matching(chr(strict))


@pytest.mark.parametrize(("browser", "strict", "where"), PAIRS)
def test_every_pair_is_what_the_two_decoders_give(browser: int, strict: int, where: str) -> None:
    """Re-decode the bytes the pair came from, with the WHATWG decoder and the codec."""
    encoding_and_bytes, codec = where.split(": ")
    name, *hex_bytes = encoding_and_bytes.split(" ")
    data = bytes.fromhex("".join(hex_bytes))
    encoding = get_encoding(name)
    assert encoding is not None
    assert encoding.decode(data) == chr(browser)
    assert data.decode(codec) == chr(strict)


def test_same_page_two_decoders_same_form() -> None:
    """A Shift_JIS page decoded by a browser and by Python's shift_jis normalises equal."""
    data = "価格：１，０００円〜２，０００円 −５％ ‖ ¢ £ ¬".encode("shift_jis")
    shift_jis = get_encoding("Shift_JIS")
    assert shift_jis is not None
    browser, strict = shift_jis.decode(data), data.decode("shift_jis")
    assert browser != strict
    assert normalize_for_matching(browser) == normalize_for_matching(strict)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ＡＢＣ１２３", "ABC123"),  # fullwidth
        ("ｶﾀｶﾅ ｶﾞ", "カタカナ ガ"),  # halfwidth katakana, voiced mark composed
        ("ﬁne ﬂow", "fine flow"),  # ligatures
        ("①②③ x²", "123 x2"),  # circled digits, superscripts
        ("㈱", "(株)"),
        ("e\u0301", "é"),  # composition
        ("〜", "~"),  # WAVE DASH joins FULLWIDTH TILDE's NFKC form
    ],
)
def test_nfkc_is_applied(text: str, expected: str) -> None:
    assert normalize_for_matching(text) == expected


def test_result_is_nfkc_and_idempotent() -> None:
    samples = [chr(k) for k in (*FOLD, *PREFOLD)] + [v for v in (*FOLD.values(), *PREFOLD.values())]
    samples += ["ｶﾞ〜－ｰ", "Ａ\u0301", "‾\u0301", "plain ascii", "日本語〜テスト"]
    for text in samples:
        once = normalize_for_matching(text)
        assert normalize_for_matching(once) == once
        assert unicodedata.normalize("NFKC", once) == once


def test_ascii_is_untouched() -> None:
    text = "Hello ~ - \\ world"
    assert normalize_for_matching(text) is text


def test_wants_text() -> None:
    with pytest.raises(TypeError):
        normalize_for_matching(b"x")  # type: ignore[arg-type]


def test_generated_module_is_up_to_date() -> None:
    """tools/gen_lookalikes.py --check: the pairs were derived, not edited by hand."""
    completed = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_lookalikes.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
