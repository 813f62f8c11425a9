"""``browser-decode`` on hostile, broken and unusual inputs, and what it writes under ``--out``.

Issues 15 (UTF-8 copies that every reader agrees on, honest errors) and 16 (bounded inputs,
safe paths, atomic files, kills). Most tests run the installed command as a subprocess; the
few failures that root cannot produce (permissions) are simulated in-process.
"""

from __future__ import annotations

import errno
import gzip
import http.server
import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path

import bs4
import lxml.html
import pytest

from browser_decode import decode_html, to_utf8_document
from browser_decode._cli import output as _output
from browser_decode._cli import pages as _cli
from browser_decode._cli.common import (
    EXIT_ALL_FAILED,
    EXIT_OK,
    EXIT_OUTPUT,
    EXIT_SOME_FAILED,
    EXIT_USAGE,
)

from ._spec_pages import TEMPLATE, page_text, spec_pages
from .test_detect import TIE

COMMAND = Path(sys.executable).with_name("browser-decode")
pytestmark = pytest.mark.skipif(not COMMAND.exists(), reason="browser-decode is not installed")
BOM = b"\xef\xbb\xbf"


def run(
    *args: str, stdin: bytes = b"", env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [str(COMMAND), *args],
        input=stdin,
        capture_output=True,
        timeout=60,
        env=None if env is None else {**os.environ, **env},
        cwd=cwd,
    )


# -- a server for every behaviour ----------------------------------------------------------


class Served:
    def __init__(self, body: bytes, headers: dict[str, str], *, drip: float = 0.0) -> None:
        self.body, self.headers, self.drip = body, headers, drip


class _Handler(http.server.BaseHTTPRequestHandler):
    pages: dict[str, Served] = {}  # noqa: RUF012
    seen: list[str] = []  # noqa: RUF012

    def do_GET(self) -> None:
        self.seen.append(self.path)
        page = self.pages.get(self.path) or self.pages["*"]
        if self.path == "/slow-headers":
            try:
                for byte in b"HTTP/1.1 200 OK\r\nX-Padding: " + b"x" * 200:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(0.05)
            except OSError:
                pass
            return
        self.send_response(200)
        for name, value in page.headers.items():
            self.send_header(name, value)
        if not page.drip:
            self.send_header("Content-Length", str(len(page.body)))
        self.end_headers()
        try:
            if page.drip:
                for byte in page.body:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(page.drip)
            else:
                self.wfile.write(page.body)
        except OSError:
            pass

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def origin() -> Iterator[str]:
    _Handler.pages = {"*": Served(b"<p>caught</p>", {"Content-Type": "text/html"})}
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def serve(path: str, body: bytes, drip: float = 0.0, **headers: str) -> None:
    _Handler.pages[path] = Served(
        body, {k.replace("_", "-"): v for k, v in headers.items()}, drip=drip
    )


# -- 15.1: UTF-8 documents under --out ----------------------------------------------------


def test_out_copies_of_every_whatwg_encoding_read_back_alike(tmp_path: Path) -> None:
    """Pages built from the spec data; copies read by decode_html, lxml and bs4."""
    folder = tmp_path / "pages"
    folder.mkdir()
    pages = {
        f"{n:02d}.html": page for n, page in enumerate(spec_pages()) if page.declared_in != "header"
    }
    for name, page in pages.items():
        (folder / name).write_bytes(page.body())
    out = tmp_path / "out"
    result = run(str(folder), "--out", str(out))
    assert result.returncode == EXIT_OK, result.stderr
    header_page = next(p for p in spec_pages() if p.declared_in == "header")
    (tmp_path / "xud.html").write_bytes(header_page.body())
    result = run(
        str(tmp_path / "xud.html"), "--out", str(out), "--content-type", header_page.content_type
    )
    assert result.returncode == EXIT_OK, result.stderr
    pages["xud.html"] = header_page
    for name, page in pages.items():
        copy = (out / name).read_bytes()
        assert copy.startswith(BOM)
        if page.name == "replacement":
            want, sample = "\ufffd", None
        else:
            want, sample = TEMPLATE.format(label="utf-8", sample=page.sample), page.sample
        assert page_text(page) != want or page.name == "replacement"
        assert copy[3:].decode("utf-8") == want, page.name
        assert decode_html(copy).text == want
        if sample is not None:
            assert lxml.html.document_fromstring(copy).findtext(".//p") == sample, page.name
            soup = bs4.BeautifulSoup(copy, "html.parser").find("p")
            assert soup is not None and soup.get_text() == sample, page.name


def test_out_that_is_the_input_folder_or_inside_it_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_bytes(b"<meta charset=koi8-r>\xf0")
    before = (tmp_path / "a.html").read_bytes()
    for out in (tmp_path, tmp_path / "decoded", tmp_path / "." / "x" / ".."):
        result = run(str(tmp_path), "--out", str(out))
        assert result.returncode == EXIT_USAGE
        assert b"is the input folder" in result.stderr
    assert (tmp_path / "a.html").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.html"]


def test_an_input_file_is_never_overwritten(tmp_path: Path) -> None:
    page = tmp_path / "a.html"
    page.write_bytes(b"<meta charset=koi8-r>\xf0")
    result = run(str(page), "--out", str(tmp_path))
    assert result.returncode == EXIT_OUTPUT
    assert b"is an input file; not overwritten" in result.stderr
    assert page.read_bytes() == b"<meta charset=koi8-r>\xf0"


def test_text_only_prints_the_document_out_writes(tmp_path: Path) -> None:
    page = tmp_path / "a.html"
    page.write_bytes(b"<meta charset=koi8-r><p>\xf0\xd2\xc9</p>")
    result = run(str(page), "--text-only")
    assert result.returncode == EXIT_OK
    assert result.stdout == BOM + "<meta charset=utf-8><p>При</p>".encode()
    assert run(str(page), str(page), "--text-only").returncode == EXIT_USAGE


def test_stdout_is_utf8_whatever_the_locale(tmp_path: Path) -> None:
    page = tmp_path / "a.html"
    page.write_bytes("<meta charset=shift_jis><p>東京</p>".encode("cp932"))
    for env in ({"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C", "LANG": "C"}):
        result = run(str(page), env=env)
        assert result.returncode == EXIT_OK
        assert "東京".encode() in result.stdout
        assert b"\\u" not in result.stdout
        result = run(str(page), str(page), env=env)  # JSON lines
        assert json.loads(result.stdout.splitlines()[0])["encoding"] == "Shift_JIS"


# -- 15.6: the truth about every input ------------------------------------------------------


def test_broken_symlink_loop_fifo_and_device_are_reported_and_counted(tmp_path: Path) -> None:
    good = tmp_path / "good.html"
    good.write_bytes(b"<p>ok</p>")
    (tmp_path / "broken.html").symlink_to(tmp_path / "nowhere")
    (tmp_path / "loop.html").symlink_to(tmp_path / "loop.html")
    os.mkfifo(tmp_path / "fifo.html")
    result = run(str(tmp_path), "/dev/zero", "--no-progress")
    assert result.returncode == EXIT_SOME_FAILED, result.stderr
    err = result.stderr.decode()
    assert f"{tmp_path / 'broken.html'}: broken symbolic link" in err
    assert f"{tmp_path / 'loop.html'}: symbolic link loop" in err
    assert f"{tmp_path / 'fifo.html'}: not a regular file" in err
    assert "/dev/zero: not a regular file" in err
    assert "5 inputs, 1 decoded, 4 failed" in err
    assert "Traceback" not in err
    # Given by name, a FIFO is refused without being opened for a read that would hang.
    result = run(str(tmp_path / "fifo.html"))
    assert result.returncode == EXIT_ALL_FAILED
    assert b"not a regular file" in result.stderr


def _main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = _cli.main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_permission_denied_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """As root, permissions are not enforced: the OS answers are simulated."""
    (tmp_path / "site" / "locked").mkdir(parents=True)
    (tmp_path / "site" / "a.html").write_bytes(b"<p>a</p>")
    (tmp_path / "site" / "secret.html").write_bytes(b"<p>s</p>")
    (tmp_path / "site" / "locked" / "b.html").write_bytes(b"<p>b</p>")
    (tmp_path / "closed").mkdir()
    real_open, real_scandir, real_stat = os.open, os.scandir, os.stat
    denied = {str(tmp_path / "site" / "secret.html")}
    unlistable = {str(tmp_path / "site" / "locked"), str(tmp_path / "closed")}
    no_search = str(tmp_path / "nosearch" / "page.html")

    def fake_open(path: str, flags: int, *args: int) -> int:
        if str(path) in denied:
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return real_open(path, flags, *args)

    def fake_scandir(path: str) -> object:
        if str(path) in unlistable:
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return real_scandir(path)

    def fake_stat(path: str, *args: object, **kwargs: object) -> os.stat_result:
        if str(path) == no_search:
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", fake_open)
    monkeypatch.setattr(os, "scandir", fake_scandir)
    monkeypatch.setattr(os, "stat", fake_stat)
    code, out, err = _main(
        [str(tmp_path / "site"), str(tmp_path / "closed"), no_search, "--json"], capsys
    )
    assert code == EXIT_SOME_FAILED
    assert f"{tmp_path / 'site' / 'secret.html'}: cannot read: permission denied" in err
    assert f"{tmp_path / 'site' / 'locked'}: cannot list the folder: permission denied" in err
    assert f"{tmp_path / 'closed'}: cannot list the folder: permission denied" in err
    assert f"{no_search}: permission denied" in err
    assert "5 inputs, 1 decoded, 4 failed" in err
    records = [json.loads(line) for line in out.splitlines()]
    assert [r.get("error") for r in records] == [None, "cannot read: permission denied"]
    code, _, err = _main([no_search, str(tmp_path / "site"), "--out", str(tmp_path / "o")], capsys)
    assert code == EXIT_SOME_FAILED
    assert (tmp_path / "o" / "a.html").exists()


def test_a_file_that_vanishes_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.html").write_bytes(b"<p>a</p>")
    (tmp_path / "b.html").write_bytes(b"<p>b</p>")
    real_expand = _cli.expand

    def expand_then_delete(names: list[str]) -> object:
        listed = real_expand(names)
        (tmp_path / "b.html").unlink()
        return listed

    monkeypatch.setattr(_cli, "expand", expand_then_delete)
    code, _, err = _main([str(tmp_path), "--json"], capsys)
    assert code == EXIT_SOME_FAILED
    assert f"{tmp_path / 'b.html'}: cannot read: no such file or folder" in err


@pytest.mark.parametrize(
    "args",
    [
        ["--default-encoding", "bogus"],
        ["--content-type", "text/html; charset=bogus"],
        ["--content-type", "not a type"],
        ["--timeout", "0"],
        ["--max-bytes", "-1"],
        ["--progress", "--no-progress"],
    ],
)
def test_wrong_command_lines_exit_2(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "a.html").write_bytes(b"<p>a</p>")
    result = run(str(tmp_path / "a.html"), *args)
    assert result.returncode == EXIT_USAGE
    assert b"Traceback" not in result.stderr


def test_progress_can_be_forced_or_refused() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert _cli.Progress(3, Terminal(), enabled=False).enabled is False
    assert _cli.Progress(3, Terminal()).enabled is True
    assert _cli.Progress(3, io.StringIO()).enabled is False
    assert _cli.Progress(3, io.StringIO(), enabled=True).enabled is True
    parser = _cli.build_parser()
    assert parser.parse_args(["x", "--progress"]).progress is True
    assert parser.parse_args(["x", "--no-progress"]).progress is False
    assert parser.parse_args(["x"]).progress is None


def test_url_hint_for_saved_files(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_bytes(TIE)
    plain = json.loads(run(str(page), "--json").stdout)
    hinted = json.loads(run(str(page), "--json", "--url", "example.hu").stdout)
    want = decode_html(TIE, url="example.hu").provenance
    assert hinted["encoding"] == want.encoding == "ISO-8859-2"
    assert plain["encoding"] != hinted["encoding"]


@pytest.mark.parametrize(
    ("content_type", "body", "encoding", "source"),
    [
        (
            "application/xhtml+xml",
            b'<?xml version="1.0" encoding="windows-1252"?><html xmlns="http://www.w3.org/1999/'
            b'xhtml"><p>Caf\xe9</p></html>',
            "windows-1252",
            "meta",
        ),
        (
            "application/rss+xml",
            b'<?xml version="1.0" encoding="koi8-r"?><rss><title>\xf0</title></rss>',
            "KOI8-R",
            "meta",
        ),
        ("application/json", '{"a": "é"}'.encode(), "UTF-8", "default"),
        ("text/plain", "<meta charset=koi8-r> é".encode(), "UTF-8", "utf-8"),
    ],
)
def test_content_type_selects_the_rules_of_the_body(
    tmp_path: Path, content_type: str, body: bytes, encoding: str, source: str
) -> None:
    page = tmp_path / "body"
    page.write_bytes(body)
    record = json.loads(run(str(page), "--json", "--content-type", content_type).stdout)
    assert (record["encoding"], record["source"]) == (encoding, source)
    if content_type == "application/json":
        out = tmp_path / "out"
        run(str(page), "--out", str(out), "--content-type", content_type)
        assert (out / "body").read_bytes() == body  # JSON: no BOM (RFC 8259)


# -- 15.3: content codings ------------------------------------------------------------------


def test_content_encoding_is_undone(origin: str) -> None:
    page = "<meta charset=koi8-r><p>Привет</p>".encode("koi8-r")
    serve("/gzip", gzip.compress(page), Content_Type="text/html", Content_Encoding="gzip")
    serve("/deflate", zlib.compress(page), Content_Type="text/html", Content_Encoding="deflate")
    for path in ("/gzip", "/deflate"):
        result = run(origin + path)
        assert result.returncode == EXIT_OK, result.stderr
        assert result.stdout.decode().endswith("<p>Привет</p>\n")


def test_still_compressed_bodies_and_bombs_are_errors(origin: str, tmp_path: Path) -> None:
    page = b"<p>" + b"x" * 100 + b"</p>"
    serve("/hidden-gzip", gzip.compress(page), Content_Type="text/html")
    serve(
        "/bomb", gzip.compress(b"\0" * 5_000_000), Content_Type="text/html", Content_Encoding="gzip"
    )
    serve("/broken", gzip.compress(page)[:-12], Content_Type="text/html", Content_Encoding="gzip")
    result = run(origin + "/hidden-gzip")
    assert result.returncode == EXIT_ALL_FAILED
    assert b"still gzip-compressed" in result.stderr
    result = run(origin + "/bomb", "--max-bytes", "1000000")
    assert result.returncode == EXIT_ALL_FAILED
    assert b"too large" in result.stderr
    result = run(origin + "/broken")
    assert result.returncode == EXIT_ALL_FAILED
    assert b"bad content coding" in result.stderr
    (tmp_path / "saved.html").write_bytes(gzip.compress(page))
    result = run(str(tmp_path / "saved.html"))
    assert result.returncode == EXIT_ALL_FAILED
    assert b"still gzip-compressed" in result.stderr


# -- 16.4: paths derived from URLs ----------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/../../../escape/pwned.html",
        "/%2e%2e/%2e%2e/escape/pwned.html",
        "/%2E./.%2E/escape/pwned.html",
        "/..%2f..%2fescape%2fpwned.html",
        "/..\\..\\escape\\pwned.html",
        "//etc/escape/pwned.html",
        "/a/%2e%2e/%2e%2e/%2e%2e/escape/pwned.html?x=/../../y",
    ],
)
def test_paths_from_urls_never_leave_out(origin: str, tmp_path: Path, path: str) -> None:
    work = tmp_path / "work"
    out = work / "out" / "inner"
    work.mkdir()
    result = run(origin + path, "--out", str(out), cwd=work)
    assert result.returncode == EXIT_OK, result.stderr
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert len(written) == 1
    assert out in written[0].parents
    assert written[0].read_bytes() == to_utf8_document("<p>caught</p>")


def test_no_write_through_a_symlink_in_out(origin: str, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    host = origin.removeprefix("http://").replace(":", "_")
    (out / host).symlink_to(outside)  # the host's folder points outside
    result = run(origin + "/page.html", "--out", str(out))
    assert result.returncode == EXIT_OUTPUT
    assert b"is a symbolic link; not written through" in result.stderr
    assert list(outside.iterdir()) == []
    (out / host).unlink()
    (out / host).mkdir()
    (out / host / "page.html").symlink_to(outside / "target.html")
    result = run(origin + "/page.html", "--out", str(out))
    assert result.returncode == EXIT_OUTPUT
    assert list(outside.iterdir()) == []


# -- 16.5: bounded inputs, bad URLs ---------------------------------------------------------


def test_timeout_is_a_total_deadline(origin: str) -> None:
    serve("/slow", b"<p>" + b"x" * 200 + b"</p>", drip=0.05, Content_Type="text/html")
    start = time.monotonic()
    result = run(origin + "/slow", "--timeout", "1")
    elapsed = time.monotonic() - start
    assert result.returncode == EXIT_ALL_FAILED
    assert b"timed out after 1 s (--timeout)" in result.stderr
    assert elapsed < 5  # the whole page would take 10 s; each byte comes within the deadline
    start = time.monotonic()
    result = run(origin + "/slow-headers", "--timeout", "1")
    assert result.returncode == EXIT_ALL_FAILED
    assert b"timed out after 1 s (--timeout)" in result.stderr
    assert time.monotonic() - start < 5


def test_max_bytes_caps_files_urls_and_stdin(origin: str, tmp_path: Path) -> None:
    serve("/big", b"<p>" + b"x" * 5000 + b"</p>", Content_Type="text/html")
    (tmp_path / "big.html").write_bytes(b"x" * 5000)
    for args, stdin in (
        ([origin + "/big"], b""),
        ([str(tmp_path / "big.html")], b""),
        (["-"], b"x" * 5000),
    ):
        result = run(*args, "--max-bytes", "4096", stdin=stdin)
        assert result.returncode == EXIT_ALL_FAILED
        assert b"larger than --max-bytes (4,096 bytes)" in result.stderr
    assert run(str(tmp_path / "big.html"), "--max-bytes", "5000").returncode == EXIT_OK


@pytest.mark.parametrize(
    "url", ["http://[::1/", "http://host:port/", "http:///path", "https://[fe80::1%25x/"]
)
def test_bad_urls_are_messages(url: str) -> None:
    result = run(url, "--timeout", "5")
    assert result.returncode == EXIT_ALL_FAILED
    assert result.stderr.decode().startswith(f"browser-decode: {url}: not a valid URL")
    assert b"Traceback" not in result.stderr


# -- 16.3: atomic files, kills ----------------------------------------------------------------


#: Files of 2.5 MB each in the folder the killed run reads.
_KILLED_FILES = 400


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_killed_run_leaves_only_complete_files(tmp_path: Path, signum: int) -> None:
    folder = tmp_path / "pages"
    folder.mkdir()
    body = b"<meta charset=windows-1251><p>" + bytes(range(0xC0, 0x100)) * 40_000 + b"</p>"
    # Enough files that the run cannot end before the signal, even when this process is
    # slow to see the first output on a loaded machine (40 did end first, in ~0.3 s):
    # hard links of one file, so that they cost no disk.
    (folder / "000.html").write_bytes(body)
    for number in range(1, _KILLED_FILES):
        os.link(folder / "000.html", folder / f"{number:03d}.html")
    want = to_utf8_document(decode_html(body).text)
    out = tmp_path / "out"
    process = subprocess.Popen(
        [str(COMMAND), str(folder), "--out", str(out), "--no-summary"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (
        out.exists() and any(not p.name.startswith(".") for p in out.iterdir())
    ):
        time.sleep(0.01)
    process.send_signal(signum)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 128 + signum, err
    assert f"stopped by {signal.Signals(signum).name}".encode() in err
    assert b"Traceback" not in err
    names = sorted(p.name for p in out.iterdir())
    assert 0 < len(names) < _KILLED_FILES
    assert all(not name.startswith(".") for name in names), names  # no temporary left
    for name in names:
        assert (out / name).read_bytes() == want


def test_write_atomically_removes_its_temporary_on_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = _output.write_atomically(tmp_path, ("a", "b.html"), b"x")
    assert written == tmp_path / "a" / "b.html" and written.read_bytes() == b"x"
    mask = os.umask(0o022)
    os.umask(mask)
    assert written.stat().st_mode & 0o777 == 0o666 & ~mask  # not the 0600 of a temporary

    def fail(src: str, dst: str, **kwargs: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(_output.OutputError, match="No space left"):
        _output.write_atomically(tmp_path, ("a", "c.html"), b"y")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a", "b.html"]


@pytest.mark.parametrize("by_descriptor", [True, False])
def test_write_atomically_refuses_links_and_non_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, by_descriptor: bool
) -> None:
    monkeypatch.setattr(_output, "_BY_DESCRIPTOR", by_descriptor)  # False: where there is no dir_fd
    assert _output.write_atomically(tmp_path, ("new", "a.html"), b"x").read_bytes() == b"x"
    outside = tmp_path / "outside"
    outside.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "link").symlink_to(outside)
    (out / "file").write_bytes(b"")
    (out / "dangling.html").symlink_to(outside / "new.html")
    for relative, message in (
        (("link", "a.html"), "is a symbolic link; not written through"),
        (("file", "a.html"), "exists and is not a folder"),
        (("dangling.html",), "is a symbolic link; not replaced"),
        (("link",), "is a symbolic link; not replaced"),
    ):
        with pytest.raises(_output.OutputError, match=message):
            _output.write_atomically(out, relative, b"x")
    assert list(outside.iterdir()) == []
    assert sorted(p.name for p in out.iterdir()) == ["dangling.html", "file", "link"]
    assert [p.name for p in (tmp_path / "new").iterdir()] == ["a.html"]


def test_a_file_name_that_is_not_utf8_keeps_stdout_utf8(tmp_path: Path) -> None:
    name = os.fsdecode(b"caf\xe9.html")
    (tmp_path / name).write_bytes(b"<p>x</p>")
    result = run(str(tmp_path), "--json")
    assert result.returncode == EXIT_OK
    record = json.loads(result.stdout.decode("utf-8"))  # strict: valid UTF-8
    assert os.fsencode(record["input"]) == os.fsencode(str(tmp_path / name))


def test_a_non_ascii_url_is_sent_percent_encoded(origin: str, tmp_path: Path) -> None:
    serve("/%C3%BC.html", b"<p>u</p>", Content_Type="text/html")
    result = run(origin + "/ü.html", "--out", str(tmp_path / "out"))
    assert result.returncode == EXIT_OK, result.stderr
    assert "/%C3%BC.html" in _Handler.seen
    host = origin.removeprefix("http://").replace(":", "_")
    assert (tmp_path / "out" / host / "ü.html").read_bytes() == to_utf8_document("<p>u</p>")


def test_a_closed_stdout_is_not_a_traceback(tmp_path: Path) -> None:
    for number in range(200):
        (tmp_path / f"{number:03d}.html").write_bytes(b"<p>x</p>")
    process = subprocess.Popen(
        [str(COMMAND), str(tmp_path), "--no-summary"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.read(10)
    process.stdout.close()
    err = process.stderr.read()
    process.stderr.close()
    assert process.wait(timeout=30) == EXIT_OUTPUT
    assert b"Traceback" not in err and b"Exception ignored" not in err


@pytest.mark.parametrize(
    ("url", "relative"),
    [
        ("http://h/a/b.html", ("h", "a", "b.html")),
        ("http://h/a/", ("h", "a", "index.html")),
        ("http://h", ("h", "index.html")),
        ("http://h:8080/a/..", ("h_8080", "index.html")),
        ("http://h/a/.%2e", ("h", "index.html")),
        ("http://h/a/%2E%2e/%2e/b", ("h", "b")),
        ("http://h/../../../../etc/passwd", ("h", "etc", "passwd")),
        ("http://h/a%2Fb/c%5Cd", ("h", "a_b", "c_d")),
        ("http://h/a\\..\\b", ("h", "a_.._b")),
        ("http://h/x?q=../../y", ("h", "x_q%3D..%2F..%2Fy")),
        ("http://../x", ("_..", "x")),
        ("http://[::1]:8000/", ("__1_8000", "index.html")),
        ("http://h/" + "é" * 300, ("h", "é" * 91 + "-" + "0" * 16)),
    ],
)
def test_url_relative(url: str, relative: tuple[str, ...]) -> None:
    got = _output.url_relative(url)
    if relative[-1].endswith("0" * 16):  # a long name: cut, then a digest
        assert got[-1].startswith(relative[-1][:91]) and len(got[-1].encode()) <= 200
    else:
        assert got == relative
    assert all(part not in ("", ".", "..") and "/" not in part for part in got)


def test_binary_inputs_are_shown(tmp_path: Path) -> None:
    """A body that is text in no encoding (random bytes, an executable) is said to be so."""
    import random

    rng = random.Random(1)
    (tmp_path / "a.bin").write_bytes(bytes(rng.randrange(256) for _ in range(4096)))
    (tmp_path / "ls").write_bytes(Path(sys.executable).read_bytes()[:65536])
    (tmp_path / "b.html").write_bytes(b"<p>caf\xe9</p>")
    result = subprocess.run(
        [sys.executable, "-m", "browser_decode", str(tmp_path), "--json"],
        capture_output=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    records = {
        Path(r["input"]).name: r for r in map(json.loads, result.stdout.decode().splitlines())
    }
    assert records["a.bin"]["binary"] is True and records["ls"]["binary"] is True
    assert records["b.html"]["binary"] is False
    assert "binary inputs (not text): 2" in result.stderr.decode()
    single = subprocess.run(
        [sys.executable, "-m", "browser_decode", str(tmp_path / "a.bin")],
        capture_output=True,
        check=False,
    )
    assert b"binary=True" in single.stdout.splitlines()[0]
