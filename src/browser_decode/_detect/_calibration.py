"""What ``Provenance.score`` means: the probability that the detected text is right.

A detection is *right* when the chosen encoding decodes the body to exactly the
text the true encoding gives. The ranking's raw evidence is the *margin*: how
many nats the winner leads the best candidate that gives another text by. The
score turns it into a probability with a logistic curve fitted on the TUNE
split of the validation corpus (``tools/calibrate_detect.py``; never on the
REPORT split, never on the development corpus), with the amount of evidence
(the number of bytes 0x80-0xFF scored) as a second input: the same margin
means more on a few characters than on a thousand.
"""

from __future__ import annotations

import math
from typing import Final

#: score = sigmoid(A * min(margin, MARGIN_CAP) + B * ln(1 + high bytes) + C)
A: Final = 0.6
B: Final = 0.4
C: Final = -1.0
MARGIN_CAP: Final = 40.0
#: Scores of the sound pre-filters (UTF-16 NUL patterns, ISO-2022-JP escapes,
#: nearly-valid UTF-8) are their share of valid units, times this.
PREFILTER: Final = 0.99


def calibrated(margin: float, high: int) -> float:
    """The probability that the winner of a ranking with this *margin* is right."""
    x = A * min(margin, MARGIN_CAP) + B * math.log1p(high) + C
    return 1.0 / (1.0 + math.exp(-x))


def calibrated_prefilter(share: float) -> float:
    return PREFILTER * share
