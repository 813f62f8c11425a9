"""The command-line front ends (not a pipeline stage).

``main`` is ``browser-decode`` (pages, folders, URLs); ``browser-decode warc`` hands over to the
WARC wing's own command, ``browser_decode.warc._cli``.
"""

from __future__ import annotations

from .pages import main

__all__ = ["main"]
