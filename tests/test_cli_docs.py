"""Every ``browser-decode`` command written in README.md and docs/clients.md runs as written.

The commands are taken from the fenced code blocks, run by bash from a folder laid out like a
clone (``examples/`` at the top); ``https://example.com/`` is replaced by a page of the local
test server (the tests have no network). The ``warc`` lines belong to tests/test_warc*.py.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

COMMAND = Path(sys.executable).with_name("browser-decode")
pytestmark = pytest.mark.skipif(not COMMAND.exists(), reason="browser-decode is not installed")

_FENCE = re.compile(r"^```[a-z]*\n(.*?)^```", re.MULTILINE | re.DOTALL)


def documented_commands() -> list[tuple[str, str]]:
    commands = []
    for doc in ("README.md", "docs/clients.md"):
        for block in _FENCE.findall((ROOT / doc).read_text("utf-8")):
            for line in block.splitlines():
                line = line.split("&& ", 1)[-1] if line.startswith("pip install") else line
                if not line.startswith(("browser-decode ", "python -m browser_decode ")):
                    continue
                if " warc" in line or "..." in line:
                    continue
                commands.append((doc, line))
    return commands


COMMANDS = documented_commands()


def test_the_docs_show_commands() -> None:
    assert len(COMMANDS) >= 8


@pytest.mark.parametrize(("doc", "line"), COMMANDS, ids=[line for _, line in COMMANDS])
def test_documented_command_runs(doc: str, line: str, tmp_path: Path, server: str) -> None:
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    line = line.replace("https://example.com/", f"{server}/meta_only")
    line = line.replace("python -m browser_decode", f"{sys.executable} -m browser_decode")
    env = {**os.environ, "PATH": f"{COMMAND.parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        ["bash", "-c", line], cwd=tmp_path, capture_output=True, timeout=60, env=env
    )
    assert done.returncode == 0, (doc, line, done.stderr.decode())
    assert b"Traceback" not in done.stderr
    if "--out decoded/" in line:
        assert (
            (tmp_path / "decoded" / "shift_jis_meta.html").read_bytes().startswith(b"\xef\xbb\xbf")
        )
