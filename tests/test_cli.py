"""The installed ``browser-decode`` command, run as a subprocess."""

from __future__ import annotations

import dataclasses
import io
import itertools
import json
import socket
import subprocess
import sys
import types
from pathlib import Path

import pytest

from browser_decode import Provenance, decode_html, to_utf8_document
from browser_decode._cli import pages as _cli
from browser_decode._cli.common import EXIT_ALL_FAILED, EXIT_USAGE

from .conftest import EXAMPLES, PAGES_BY_NAME

COMMAND = Path(sys.executable).with_name("browser-decode")
pytestmark = pytest.mark.skipif(not COMMAND.exists(), reason="browser-decode is not installed")

SHIFT_JIS_PAGE = EXAMPLES / "shift_jis_meta.html"
# The page's text, decoded independently (cp932 agrees with the standard on these bytes).
SHIFT_JIS_TEXT = SHIFT_JIS_PAGE.read_bytes().decode("cp932")


def run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(COMMAND), *args], input=stdin, capture_output=True, timeout=60)
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Pages written for the tests, in a tree with files that are not pages."""
    root = tmp_path / "site"
    (root / "sub" / "deeper").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "a.html").write_bytes(b"<meta charset=windows-1252><p>caf\xe9 \x80</p>")
    (root / "sub" / "b.htm").write_bytes("<p>naïve ☃</p>".encode())
    (root / "sub" / "deeper" / "c").write_bytes(
        b"<meta http-equiv=content-type content='text/html; charset=euc-kr'>\xc7\xd1"
    )
    (root / "sub" / "bad.html").write_bytes(b"<meta charset=utf-8>\xff ok")
    (root / "notes.json").write_text("{}")
    (root / ".hidden.html").write_text("x")
    (root / ".git" / "x.html").write_text("x")
    return root


def test_single_file_keeps_the_readme_output() -> None:
    result = run(str(SHIFT_JIS_PAGE), "--content-type", "text/html")
    assert result.returncode == 0, result.stderr
    first, _, text = result.stdout.partition("\n")
    assert (
        first
        == "# Shift_JIS (meta) confidence=tentative label='shift_jis' offset=28 replacements=0"
    )
    assert text == SHIFT_JIS_TEXT
    assert result.stderr == ""


def test_python_dash_m_is_the_same_command() -> None:
    module = subprocess.run(
        [
            sys.executable,
            "-m",
            "browser_decode",
            str(SHIFT_JIS_PAGE),
            "--content-type",
            "text/html",
        ],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    assert module.returncode == 0
    assert module.stdout == run(str(SHIFT_JIS_PAGE), "--content-type", "text/html").stdout


def test_stdin() -> None:
    body = "<p>Привет</p>".encode("koi8-r")
    result = run("-", "--content-type", "text/html; charset=koi8-r", stdin=body)
    assert result.returncode == 0
    assert (
        result.stdout
        == "# KOI8-R (header) confidence=certain label='koi8-r' replacements=0\n<p>Привет</p>\n"
    )


def test_folder_json_lines_and_summary(folder: Path) -> None:
    result = run(str(folder))
    assert result.returncode == 0, result.stderr
    records = {Path(r["input"]).name: r for r in map(json.loads, result.stdout.splitlines())}
    assert sorted(records) == ["a.html", "b.htm", "bad.html", "c"]
    assert (records["a.html"]["encoding"], records["a.html"]["source"]) == ("windows-1252", "meta")
    assert records["b.htm"]["encoding"] == "UTF-8"
    assert records["c"]["encoding"] == "EUC-KR" and records["c"]["label"] == "euc-kr"
    assert records["bad.html"]["replacements"] == 1
    assert records["a.html"]["bytes"] == (folder / "a.html").stat().st_size
    fields = {field.name for field in dataclasses.fields(Provenance)}
    assert set(records["c"]) == {"input", "bytes"} | fields
    stored = {key: records["c"][key] for key in fields}
    c_body = (folder / "sub" / "deeper" / "c").read_bytes()
    assert Provenance.from_dict(stored) == decode_html(c_body).provenance
    summary = result.stderr
    assert "4 inputs, 4 decoded, 0 failed" in summary
    assert "pages with replacement characters (U+FFFD): 1" in summary
    assert "bad.html" in summary
    assert "  meta " in summary


def test_out_dir_gets_utf8_copies(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run(str(folder), "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""  # --out without --json: only the summary, on stderr
    # The copy is a UTF-8 document: BOM first, the declaration rewritten, the text unchanged.
    assert (
        out / "a.html"
    ).read_bytes() == b"\xef\xbb\xbf" + "<meta charset=utf-8><p>café €</p>".encode()
    assert (out / "sub" / "deeper" / "c").read_text(encoding="utf-8").endswith("한")
    assert not (out / "notes.json").exists() and not (out / ".hidden.html").exists()


def test_out_and_json_together(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run(str(folder / "a.html"), str(folder / "sub" / "b.htm"), "--out", str(out), "--json")
    assert result.returncode == 0
    outputs = [json.loads(line)["output"] for line in result.stdout.splitlines()]
    assert [Path(o).name for o in outputs] == ["a.html", "b.htm"]


def test_local_url_uses_the_real_header(server: str) -> None:
    page = PAGES_BY_NAME["legacy_label"]
    result = run(f"{server}/legacy_label")
    assert result.returncode == 0
    assert result.stdout == (
        "# windows-1252 (header) confidence=certain label='iso-8859-1' replacements=0\n"
        + page.text
        + "\n"
    )


def test_content_type_overrides_the_url_header(server: str) -> None:
    result = run(f"{server}/legacy_label", "--content-type", "text/html; charset=koi8-r")
    assert result.stdout.startswith("# KOI8-R (header)")


def test_many_urls_and_files(server: str) -> None:
    result = run(f"{server}/meta_only", f"{server}/bom", str(SHIFT_JIS_PAGE), "--json")
    assert result.returncode == 0
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["encoding"], r["source"]) for r in records] == [
        ("Shift_JIS", "meta"),
        ("UTF-16LE", "bom"),
        ("Shift_JIS", "meta"),
    ]
    assert records[0]["input"] == f"{server}/meta_only"


def test_missing_file_is_a_clear_error() -> None:
    result = run("no/such/page.html")
    assert result.returncode == EXIT_ALL_FAILED
    assert result.stdout == ""
    assert result.stderr == "browser-decode: no/such/page.html: no such file or folder\n"


def test_one_bad_input_does_not_stop_the_batch(folder: Path) -> None:
    result = run(str(folder / "a.html"), "missing.html", str(folder / "sub" / "b.htm"))
    assert result.returncode == 1
    assert "browser-decode: missing.html: no such file or folder" in result.stderr
    assert len(result.stdout.splitlines()) == 2
    assert "3 inputs, 2 decoded, 1 failed" in result.stderr


def test_folder_without_pages(tmp_path: Path) -> None:
    (tmp_path / "data.json").write_text("{}")
    result = run(str(tmp_path))
    assert result.returncode == EXIT_ALL_FAILED
    assert f"browser-decode: {tmp_path}: no pages in this folder" in result.stderr


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_unreachable_url() -> None:
    url = f"http://127.0.0.1:{_closed_port()}/page"
    result = run(url)
    assert result.returncode == EXIT_ALL_FAILED
    assert result.stderr.startswith(f"browser-decode: {url}: cannot fetch the URL:")


def test_http_error_status_is_reported(server: str) -> None:
    result = run(f"{server}/nothing-here", f"{server}/meta_only")
    assert result.returncode == 1
    assert f"browser-decode: {server}/nothing-here: HTTP 404" in result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0] == {"input": f"{server}/nothing-here", "error": "HTTP 404 Not Found"}


def test_bad_arguments_exit_2() -> None:
    assert run().returncode == EXIT_USAGE
    assert run("--no-such-option", "x").returncode == EXIT_USAGE


def test_warc_subcommand_help() -> None:
    result = run("warc", "--help")
    assert result.returncode == 0
    assert "warc" in result.stdout


def test_warc_subcommand_is_dispatched(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[str]] = []

    class Module:
        @staticmethod
        def main(argv: list[str]) -> int:
            calls.append(argv)
            return 0

    monkeypatch.setitem(sys.modules, "browser_decode.warc._cli", Module)
    assert _cli.main(["warc", "a.warc", "--json"]) == 0
    assert calls == [["a.warc", "--json"]]


class _FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal_after_a_while(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = itertools.chain([0.0, 0.1, 5.0, 5.05, 6.0], itertools.repeat(0.0))
    monkeypatch.setattr(_cli, "time", types.SimpleNamespace(monotonic=lambda: next(clock)))
    terminal = _FakeTerminal()
    progress = _cli.Progress(4, terminal)
    progress.update(1)  # t=0.1: too early
    assert terminal.getvalue() == ""
    progress.update(2)  # t=5.0
    assert terminal.getvalue() == "\r[" + "#" * 15 + "." * 15 + "] 2/4"
    progress.update(3)  # t=5.05: too soon after the last redraw
    progress.update(4)
    progress.finish()
    assert terminal.getvalue().endswith("\r")
    plain = io.StringIO()
    quiet = _cli.Progress(4, plain)
    quiet.update(4)
    assert plain.getvalue() == ""


def test_decoded_copies_match_the_library(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run(str(folder), "--out", str(out))
    for path in folder.rglob("*"):
        copy = out / path.relative_to(folder)
        if copy.is_file():
            data = copy.read_bytes()
            assert data == to_utf8_document(decode_html(path.read_bytes()).text)
            assert decode_html(data).text == data[3:].decode("utf-8")


def test_detector_option(tmp_path: Path) -> None:
    """--detector reaches decode_html: the provenance says which detector decided."""
    page = tmp_path / "p.html"
    page.write_bytes("<p>Съешь же ещё этих мягких французских булок</p>".encode("cp1251"))
    for name in ("builtin", "charset-normalizer"):
        result = run(str(page), "--json", "--detector", name)
        assert result.returncode == 0, result.stderr
        record = json.loads(result.stdout)
        expected = decode_html(page.read_bytes(), detector=name).provenance
        assert (record["detector"], record["encoding"]) == (name, expected.encoding)
    assert run(str(page), "--detector", "chardet").returncode == 2
