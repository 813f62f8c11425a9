"""What ``Provenance.score`` means: how likely the detected text is to be right.

A detection is *right* when the chosen encoding decodes the body to exactly the
text the true encoding gives. The ranking's evidence is its *margin*: how many
nats the winner leads the best candidate that gives another text by (candidates
that give the same text do not count against it), and what that lead rests on:
how many *distinct* byte values the two read as different characters.

The margin alone overstates pairs of encodings whose texts differ in one or two
characters: Norwegian windows-1252 text holding a stray cedilla ``¸`` (0xB8)
is ISO-8859-15 ``ž`` by 10 nats when the byte occurs a few times, because every
occurrence adds its share although they all tell the same thing once. So each
distinct differing byte value counts for at most :data:`PER_BYTE` nats:

    score = 1 / (1 + exp(-(A * min(margin, PER_BYTE * distinct) + C)))

The constants are fitted on the TUNE split of the validation corpus (``python
benchmarks/bench_detect.py --validation /work/validation/tune --fit``; never on
the REPORT split, never on the development corpus):

* ``C``: a near tie between two different texts (margin under 1 nat) scores
  the share of such near ties that were right (at most 0.5: a coin toss);
* ``PER_BYTE`` and ``A``: for each cap (1 to 10 nats by halves, or none), the
  smallest capped margin above which, in at least 90% of 200 resamplings of the
  split's (encoding, language) pairs, at least 99.5% of the answers are right
  and at most 3% of the wrong answers lie (aiming below the goal of 5%: room
  for text unlike the corpus, and for the pre-filters' own wrong answers); the
  cap that leaves the most right answers above it wins (the smallest of equals),
  and ``A`` puts 0.9 at that margin. The fit's output (2026-12-03)::

      fitted on 5762 ranked answers (6524 scored): per byte = 4.0 nats,
      margin for 0.9 = 8.0, tie share = 0.500: A = 0.275, C = 0.000

  The TUNE split rebuilt later that day with Maltese and Urdu (9,048 samples)
  refits to no cap, 0.9 at 11 nats (``A = 0.200``): 2,706 right answers above
  0.9 against 2,563 with the constants below, but one distinct byte could then
  reach 0.9 again. The constants are kept: on the rebuilt TUNE they give 99.89%
  right at a score of 0.9 or more and 2.22% of the wrong answers there.

So the score is a conservative probability: in every score bucket at least
that share of answers is right, a score of 0.9 or more is right at least 99% of
the time, and few wrong answers reach it (the table in docs/detection.md).

The sound pre-filters score their share of valid units times :data:`PREFILTER`;
BOM-less UTF-16 also by the letters that carry its NUL bytes (:func:`calibrated_utf16`).
"""

from __future__ import annotations

import functools
import math
import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

#: 0.9 at a (capped) lead of 8 nats: ln(9) / 8 (the fit's output above).
A: Final = 0.275
C: Final = 0.0
#: At most this many nats of lead per distinct byte value read differently.
PER_BYTE: Final = 4.0
#: Leads beyond this many nats are all alike (a score of 1.0).
MAX_MARGIN: Final = 50.0
#: Scores of the sound pre-filters (UTF-16 NUL patterns, ISO-2022-JP escapes,
#: nearly-valid UTF-8) are their share of valid units, times this.
PREFILTER: Final = 0.99

#: The code units of a UTF-16 body whose letters are counted.
_UNITS: Final = 256


@functools.cache
def _utf16_letter() -> re.Pattern[str]:
    """A letter that holds a NUL byte in UTF-16: any letter below U+3000 (Latin,
    Greek, Cyrillic, Hebrew, Arabic, Thai ...: their units have a NUL high byte
    or are read so only in the right byte order), and the CJK and Hangul letters
    of the form U+xx00 (their NUL is the low byte). Compiled on first use (about
    3 ms: not at import)."""
    return re.compile(
        "(?![\u3000-\U0010ffff])[^\\W\\d_]|["
        + "".join(chr(x << 8) for x in range(0x30, 0x100) if chr(x << 8).isalpha())
        + "]"
    )


def calibrated(margin: float, distinct: int) -> float:
    """The score of a ranking whose winner leads by *margin* nats the best candidate
    giving another text, which reads *distinct* byte values as other characters."""
    x = A * min(margin, PER_BYTE * distinct, MAX_MARGIN) + C
    return 1.0 / (1.0 + math.exp(-x))


def calibrated_prefilter(share: float) -> float:
    """The score of a pre-filter's answer, from its share of valid units."""
    return PREFILTER * share


def calibrated_utf16(body: bytes, order: str, share: float) -> float:
    """The score of BOM-less UTF-16 in byte *order*, whose head has *share* valid units.

    The NUL bytes say the byte order only when they belong to text: in either
    order, a run of ``%\\x00`` is ``%%%`` or ``───`` (U+2500), and markup that is
    not UTF-16 reads as CJK in both. Each letter among the first :data:`_UNITS`
    code units that holds a NUL byte halves the doubt, from a coin toss (0.5)
    when there is none.
    """
    codec = "utf-16-le" if order == "UTF-16LE" else "utf-16-be"
    letters = len(_utf16_letter().findall(body[: 2 * _UNITS].decode(codec, "replace")))
    return calibrated_prefilter(share) * (1.0 - 0.5 ** (letters + 1))
