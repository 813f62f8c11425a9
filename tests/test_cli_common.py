"""The exit-code rule both commands share."""

from __future__ import annotations

import argparse
import signal

from browser_decode._cli.common import (
    EXIT_ALL_FAILED,
    EXIT_OK,
    EXIT_SOME_FAILED,
    add_progress_arguments,
    exit_for_inputs,
    exit_for_signal,
)


def test_exit_for_inputs() -> None:
    assert exit_for_inputs(0, 3) == EXIT_OK
    assert exit_for_inputs(1, 3) == EXIT_SOME_FAILED
    assert exit_for_inputs(3, 3) == EXIT_ALL_FAILED
    assert exit_for_inputs(0, 0) == EXIT_OK


def test_exit_for_signal() -> None:
    assert exit_for_signal(signal.SIGINT) == 130
    assert exit_for_signal(signal.SIGTERM) == 143


def test_progress_arguments() -> None:
    parser = argparse.ArgumentParser()
    add_progress_arguments(parser)
    assert parser.parse_args([]).progress is None
    assert parser.parse_args(["--progress"]).progress is True
    assert parser.parse_args(["--no-progress"]).progress is False
