"""What the two commands (``browser-decode`` and ``browser-decode warc``) share.

One exit-code rule for both, documented in docs/clients.md ("Exit codes"):

====  ==================================================================================
0     every input was read; pages or records skipped by design (not HTML, too large, ...)
      are counted in the summary, not failures
1     some inputs could not be read (each reported with its reason); the others were done
2     the command line is wrong (unknown option or label, ``--out`` inside an input, ...)
3     no input could be read at all
4     the output could not be written (disk full, permission, ...)
5     a worker process died (``warc --jobs N``); the summary so far is printed
128+N stopped by signal N (130 for Ctrl-C / SIGINT, 143 for SIGTERM)
====  ==================================================================================
"""

from __future__ import annotations

import argparse
from typing import Final

EXIT_OK: Final = 0
EXIT_SOME_FAILED: Final = 1
EXIT_USAGE: Final = 2
EXIT_ALL_FAILED: Final = 3
EXIT_OUTPUT: Final = 4
EXIT_WORKER_DIED: Final = 5


def exit_for_signal(signum: int) -> int:
    """The shell's convention for a process stopped by a signal: 128 + its number."""
    return 128 + signum


def exit_for_inputs(failed: int, total: int) -> int:
    """The exit code for a run in which ``failed`` of ``total`` inputs could not be read."""
    if failed == 0:
        return EXIT_OK
    return EXIT_ALL_FAILED if failed >= total else EXIT_SOME_FAILED


def add_progress_arguments(parser: argparse.ArgumentParser) -> None:
    """``--progress`` / ``--no-progress`` (default: a bar when standard error is a terminal)."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--progress",
        dest="progress",
        action="store_true",
        default=None,
        help="show a progress bar on standard error (default: when it is a terminal)",
    )
    group.add_argument(
        "--no-progress", dest="progress", action="store_false", help="never show the progress bar"
    )
