"""``python -m browser_decode`` and the ``browser-decode`` console script.

The command line itself is in :mod:`browser_decode._cli`.
"""

from __future__ import annotations

import sys

from ._cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
