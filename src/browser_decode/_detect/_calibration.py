"""What ``Provenance.score`` means: how likely the detected text is to be right.

A detection is *right* when the chosen encoding decodes the body to exactly the
text the true encoding gives. The ranking's evidence is its *margin*: how many
nats the winner leads the best candidate that gives another text by (candidates
that give the same text do not count against it). The score is a logistic
function of the margin, ``1 / (1 + exp(-(A * margin + C)))``, whose two
constants are set on the TUNE split of the validation corpus (``python
benchmarks/bench_detect.py --validation .../tune --fit``; never on the REPORT
split, never on the development corpus):

* ``C``: a near tie between two different texts (margin under 1 nat) scores
  the share of such near ties that were right;
* ``A``: the score reaches 0.9 at the smallest margin above which, in at
  least 90% of 200 resamplings of the split's (encoding, language) pairs, at
  least 99.5% of the answers were right and at most 4% of the wrong answers
  lie (the pre-filters have wrong answers of their own: room is left for them).

So the score is a conservative probability: in every score bucket at least
that share of answers is right, a score of 0.9 or more is right at least 99%
of the time, and few wrong answers reach it (the table in docs/detection.md).
"""

from __future__ import annotations

import math
from typing import Final

#: 0.9 at a lead of 8 nats: the fit finds 6.5-7 on TUNE; the rest leaves room
#: for text unlike the corpus. ln(9) / 8.
A: Final = 0.275
C: Final = 0.0
#: Scores of the sound pre-filters (UTF-16 NUL patterns, ISO-2022-JP escapes,
#: nearly-valid UTF-8) are their share of valid units, times this.
PREFILTER: Final = 0.99


def calibrated(margin: float) -> float:
    """The score of a ranking whose winner leads by *margin* nats."""
    x = A * min(margin, 50.0) + C
    return 1.0 / (1.0 + math.exp(-x))


def calibrated_prefilter(share: float) -> float:
    """The score of a pre-filter's answer, from its share of valid units."""
    return PREFILTER * share
