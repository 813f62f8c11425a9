"""``normalize_for_matching``: one form for text that only *looks* different.

For comparing, deduplicating and indexing, never for display: the result is
lossy by design (fullwidth letters become ASCII, "①" becomes "1", "〜" and
"～" both become "~").

Two sources of look-alikes are folded:

1. Unicode compatibility variants, by NFKC (Unicode Standard Annex #15):
   fullwidth and halfwidth forms, ligatures, circled and superscript digits,
   compatibility ideographs.
2. The browser-vs-strict-codec pairs: the same bytes of a CJK page decode to
   different code points in a browser (the WHATWG indexes) and in Python's
   strict codecs, e.g. Shift_JIS 0x81 0x60 is U+FF5E FULLWIDTH TILDE in a
   browser and U+301C WAVE DASH in ``shift_jis``. The pairs are derived by
   ``tools/gen_lookalikes.py`` (never by hand) into ``_lookalikes.py``; each
   group of look-alikes folds to its smallest member after NFKC.

So a page scraped once with ``decode_html`` and once with
``body.decode("shift_jis")`` normalises to the same string.
"""

from __future__ import annotations

import unicodedata

from .lookalikes import FOLD, PREFOLD

__all__ = ["normalize_for_matching"]


def normalize_for_matching(text: str) -> str:
    """Fold *text* for matching: NFKC, then the browser-vs-codec look-alike pairs.

    Idempotent: ``f(f(x)) == f(x)``. Not for display (see the module docs).

    >>> normalize_for_matching("\\u301c") == normalize_for_matching("\\uff5e") == "~"
    True
    >>> normalize_for_matching("ＡＢＣ１２３ ｶﾀｶﾅ")
    'ABC123 カタカナ'
    """
    if not isinstance(text, str):
        raise TypeError(f"normalize_for_matching() takes str, not {type(text).__name__}")
    if text.isascii():
        return text
    normalized = unicodedata.normalize("NFKC", text.translate(PREFOLD))
    folded = normalized.translate(FOLD)
    # A fold can sit next to a combining mark; normalise again if anything changed.
    return folded if folded == normalized else unicodedata.normalize("NFKC", folded)


# Public in browser_decode, which imports this module on first use: reprs and pickles
# name the package, as for the names it imports at once.
for _public in (normalize_for_matching,):
    _public.__module__ = "browser_decode"
del _public
