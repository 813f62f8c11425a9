"""WARC re-decoding: archives built here from example pages, read back through the CLI.

The truth for every page is the document the test wrote and the encoding the
test encoded it in; the archives are written byte by byte by the builder below
(so that broken records can be written too), plain and with one gzip member per
record.
"""

from __future__ import annotations

import gzip
import json
import threading
import uuid
import zlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from browser_decode.warc import _archive as _warc
from browser_decode.warc import _cli as _warc_cli
from browser_decode.warc import _run as _warc_run

# --------------------------------------------------------------------------- builder


def warc_record(kind: str, uri: str, block: bytes, number: int, extra: str = "") -> bytes:
    """One WARC/1.1 record (WARC 1.1, section 4: version line, named fields, CRLF, block)."""
    record_id = f"<urn:uuid:{uuid.UUID(int=number)}>"
    msgtype = "request" if kind == "request" else "response"
    head = (
        f"WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: {record_id}\r\n"
        f"WARC-Date: 2024-05-01T12:00:00Z\r\nWARC-Target-URI: {uri}\r\n{extra}"
        f"Content-Type: application/http; msgtype={msgtype}\r\n"
        f"Content-Length: {len(block)}\r\n\r\n"
    )
    return head.encode() + block + b"\r\n\r\n"


def http_response(body: bytes, *headers: str, status: str = "200 OK") -> bytes:
    lines = [f"HTTP/1.1 {status}", *headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def chunked(data: bytes, size: int = 7, extension: str = "") -> bytes:
    parts = [
        f"{len(data[i : i + size]):x}{extension}\r\n".encode() + data[i : i + size] + b"\r\n"
        for i in range(0, len(data), size)
    ]
    return b"".join(parts) + b"0\r\n\r\n"


@dataclass(frozen=True)
class Case:
    """One record of the test archive and what must come out of it."""

    uri: str
    block: bytes
    kind: str = "response"
    #: For a page: the document and the encoding it was written in.
    document: str | None = None
    encoding: str | None = None
    source: str | None = None
    #: For a skipped record: the reason's start.
    skipped: str | None = None


JA = (
    '<html><head><meta charset="shift_jis"><title>ニュース</title></head>'
    "<body><p>日本語のページです。"
)
RU = (
    '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">'
    "<p>Съешь же ещё этих мягких французских булок, да выпей чаю.</p>"
)
KO = (
    "<!doctype html><meta charset=euc-kr><title>뉴스</title>"
    "<p>안녕하세요, 세계! 오늘의 날씨는 맑음.</p>"
)
ZH = (
    "<html><head><title>新闻</title></head>"
    "<body><p>今天天气很好，我们去公园散步吧。</p></body></html>"
)
FR = (
    "<!DOCTYPE html><html><head><meta charset=windows-1252></head>"
    "<p>Café crème brûlée à la française</p>"
)
EN = "<!doctype html><title>Weather</title><p>Sunny today — 23 °C.</p>"

CASES: tuple[Case, ...] = (
    Case(
        "urn:warcinfo", b"software: test\r\n", kind="warcinfo", skipped="not a response (warcinfo)"
    ),
    Case(
        "http://example.jp/",
        http_response(JA.encode("shift_jis"), "Content-Type: text/html"),
        document=JA,
        encoding="Shift_JIS",
        source="meta",
    ),
    Case(
        "http://example.com/weather",
        b"GET /weather HTTP/1.1\r\nHost: example.com\r\n\r\n",
        kind="request",
        skipped="not a response (request)",
    ),
    Case(
        "http://example.com/weather",
        http_response(EN.encode(), "Content-Type: text/html; charset=UTF-8"),
        document=EN,
        encoding="UTF-8",
        source="header",
    ),
    Case(
        "http://example.ru/gzip",
        http_response(
            gzip.compress(RU.encode("cp1251"), mtime=0),
            "Content-Type: text/html",
            "Content-Encoding: gzip",
        ),
        document=RU,
        encoding="windows-1251",
        source="meta",
    ),
    Case(
        "http://example.kr/chunked",
        http_response(
            chunked(KO.encode("euc-kr"), extension=";name=value"),
            "Content-Type: text/html",
            "Transfer-Encoding: chunked",
        ),
        document=KO,
        encoding="EUC-KR",
        source="meta",
    ),
    Case(
        "http://example.cn/chunked-deflate",
        http_response(
            chunked(zlib.compress(ZH.encode("gbk")), size=16),
            "Content-Type: text/html; charset=gbk",
            "Transfer-Encoding: chunked",
            "Content-Encoding: deflate",
        ),
        document=ZH,
        encoding="GBK",
        source="header",
    ),
    Case(
        # Transfer-Encoding kept in the headers, payload stored de-chunked.
        "http://example.com/dechunked-by-crawler",
        http_response(EN.encode(), "Content-Type: text/html", "Transfer-Encoding: chunked"),
        document=EN,
        encoding="UTF-8",
        source="utf-8",
    ),
    Case(
        "http://example.fr/no-content-type",
        http_response(FR.encode("cp1252")),
        document=FR,
        encoding="windows-1252",
        source="meta",
    ),
    Case(
        "http://example.com/logo.png",
        http_response(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "Content-Type: image/png"),
        skipped="not HTML (image/png)",
    ),
    Case(
        "http://example.com/file",
        http_response(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"),
        skipped="not HTML (no Content-Type)",
    ),
    Case(
        "http://example.com/weather",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n",
        kind="revisit",
        skipped="not a response (revisit)",
    ),
    Case(
        "http://example.com/compress",
        http_response(b"\x1f\x9d\x90", "Content-Type: text/html", "Content-Encoding: compress"),
        skipped="unsupported content coding (compress)",
    ),
    Case(
        "http://example.com/cut-headers",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nServer: x",
        skipped="broken: HTTP headers do not end",
    ),
)
GARBAGE = b"this is not a WARC record\r\n\r\n"
TRUNCATED = Case(
    "http://example.com/truncated",
    http_response(b"<html>" + b"x" * 4000, "Content-Type: text/html"),
    skipped="broken: truncated record",
)


def build(path: Path, cases: tuple[Case, ...], *, gz: bool, garbage_after: int | None = None,
          truncate_last: bool = False, junk: bytes = GARBAGE) -> Path:  # fmt: skip
    records = [warc_record(c.kind, c.uri, c.block, n) for n, c in enumerate(cases, 1)]
    members = [gzip.compress(r, mtime=0) if gz else r for r in records]
    if garbage_after is not None:
        members.insert(garbage_after, junk)
    if truncate_last:
        members[-1] = members[-1][: len(members[-1]) // 2]
    path.write_bytes(b"".join(members))
    return path


# --------------------------------------------------------------------------- archives


def run_cli(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str]:
    status = _warc_cli.main([str(a) for a in args])
    return status, capsys.readouterr().err


def read_jsonl(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def expected_skips(cases: tuple[Case, ...]) -> Counter[str]:
    return Counter(c.skipped for c in cases if c.skipped is not None)


def check_pages(pages: list[dict[str, object]], cases: tuple[Case, ...]) -> None:
    wanted = [c for c in cases if c.document is not None]
    assert [p["url"] for p in pages] == [c.uri for c in wanted]
    for page, case in zip(pages, wanted, strict=True):
        assert page["html"] == case.document, case.uri
        assert (page["encoding"], page["source"]) == (case.encoding, case.source), case.uri
        assert page["replacements"] == 0
        assert case.document is not None and case.encoding is not None
        assert page["bytes"] == len(case.document.encode(_PY_CODEC[case.encoding]))
        assert page["status"] == 200
        assert str(page["record_id"]).startswith("<urn:uuid:")


_PY_CODEC = {
    "UTF-8": "utf-8",
    "Shift_JIS": "shift_jis",
    "windows-1251": "cp1251",
    "EUC-KR": "euc-kr",
    "GBK": "gbk",
    "windows-1252": "cp1252",
}


def skip_counts(summary: _warc.Summary) -> Counter[str]:
    """Skipped records by reason, with FastWARC's messages for unreadable bytes merged."""
    out: Counter[str] = Counter()
    for reason, count in summary.skipped.items():
        out["broken archive" if reason.startswith("broken archive (") else reason] += count
    return out


@pytest.mark.parametrize("gz", [False, True], ids=["plain", "gzip"])
def test_pages_and_skips(tmp_path: Path, gz: bool) -> None:
    archive = build(tmp_path / "a.warc", CASES, gz=gz)
    summary = _warc.Summary()
    pages = list(_warc.read_pages(str(archive), summary=summary))
    check_pages(pages, CASES)
    assert summary.records == len(CASES)
    assert summary.pages == len(pages)
    assert skip_counts(summary) == expected_skips(CASES)
    assert summary.encodings == Counter(c.encoding for c in CASES if c.encoding)
    assert summary.sources == Counter(c.source for c in CASES if c.source)


@pytest.mark.parametrize("gz", [False, True], ids=["plain", "gzip"])
def test_broken_archive_is_not_fatal(tmp_path: Path, gz: bool) -> None:
    """Junk between records and a record cut short: counted, and reading goes on."""
    cases = (*CASES, TRUNCATED)
    archive = build(tmp_path / "a.warc", cases, gz=gz, garbage_after=4, truncate_last=True)
    summary = _warc.Summary()
    pages = list(_warc.read_pages(str(archive), summary=summary))
    check_pages(pages, cases)
    skips = skip_counts(summary)
    if gz:  # the junk, read over once, and the cut gzip member (its WARC header unreadable)
        assert skips["broken archive"] == 2
        skips.subtract({"broken archive": 2})
    else:  # the junk, and the record cut short by the end of the file
        assert skips["broken archive"] == 1
        assert skips["broken: truncated record"] == 1
        skips.subtract({"broken archive": 1, "broken: truncated record": 1})
    assert +skips == expected_skips(CASES)


def test_cli_counts_summary_and_exit_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    archive = build(tmp_path / "a.warc.gz", CASES, gz=True)
    out = tmp_path / "pages.jsonl"
    status, err = run_cli(capsys, archive, "--out", out, "--jobs", "1")
    assert status == 0
    pages = read_jsonl(out)
    check_pages(pages, CASES)
    assert list(pages[0]) == [*_warc.FIELDS, "html"]
    n_pages = sum(1 for c in CASES if c.document)
    assert f"{len(CASES)} records" in err
    assert f"pages: {n_pages}" in err
    assert f"skipped: {len(CASES) - n_pages}" in err
    assert "with replacement characters (U+FFFD): 0" in err
    for name in ("Shift_JIS", "windows-1251", "EUC-KR", "GBK", "meta", "header", "utf-8"):
        assert f"    {name} " in err
    assert "not HTML (image/png)" in err
    assert "not a response (request)" in err
    assert "not a response (revisit)" in err

    # A missing input file: the others are still decoded, exit status 1.
    status, err = run_cli(capsys, tmp_path / "missing.warc", archive, "--out", out)
    assert status == 1
    assert "cannot read" in err
    assert len(read_jsonl(out)) == n_pages

    # Usage errors exit with 2.
    with pytest.raises(SystemExit) as exit_info:
        _warc_cli.main([str(archive)])
    assert exit_info.value.code == 2
    capsys.readouterr()


def test_cli_content_choices(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = build(tmp_path / "a.warc", CASES, gz=False)
    out = tmp_path / "pages.jsonl"
    assert run_cli(capsys, archive, "--out", out, "--content", "text", "--jobs", "1")[0] == 0
    pages = read_jsonl(out)
    assert pages[0]["text"] == "ニュース\n日本語のページです。"
    assert "html" not in pages[0]
    assert run_cli(capsys, archive, "--out", out, "--content", "none", "--jobs", "1")[0] == 0
    assert list(read_jsonl(out)[0]) == list(_warc.FIELDS)


def test_cli_parquet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    parquet = pytest.importorskip("pyarrow.parquet")
    archive = build(tmp_path / "a.warc.gz", CASES * 40, gz=True)
    jsonl, out = tmp_path / "pages.jsonl", tmp_path / "pages.parquet"
    one = tmp_path / "one.parquet"
    assert run_cli(capsys, archive, "--out", jsonl, "--jobs", "1")[0] == 0
    monkeypatch.setattr(_warc_cli._ParquetSink, "BATCH", 70)  # row groups across part files
    assert run_cli(capsys, archive, "--out", one, "--jobs", "1")[0] == 0
    assert parquet.ParquetFile(one).metadata.num_row_groups > 3
    for block in (16 << 20, 200):  # parts parsed by Arrow; lines over a block: by json.loads
        monkeypatch.setattr(_warc_cli._ParquetSink, "BLOCK", block)
        assert run_cli(capsys, archive, "--out", out, "--jobs", "2", "--chunk-size", "6000")[0] == 0
        assert parquet.read_table(out).to_pylist() == read_jsonl(jsonl)
        assert out.read_bytes() == one.read_bytes()  # the same file for every --jobs


def test_all_cores_output_is_identical(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two files, one split into many record ranges: same bytes as one process."""
    cases = (*CASES, TRUNCATED)
    first = build(tmp_path / "a.warc.gz", CASES * 3, gz=True, garbage_after=9)
    second = build(tmp_path / "b.warc", cases * 2, gz=False, garbage_after=20, truncate_last=True)
    # A gzip member that is no WARC record: a range must not start there.
    junk = gzip.compress(b"WARX/1.1\r\n" + GARBAGE * 40, mtime=0)
    third = build(tmp_path / "c.warc.gz", CASES * 2, gz=True, garbage_after=7, junk=junk)
    # One gzip stream for the whole file: readable only from its start.
    fourth = tmp_path / "d.warc.gz"
    fourth.write_bytes(gzip.compress(build(tmp_path / "d.warc", CASES * 2, gz=False).read_bytes()))
    files = [first, second, third, fourth]
    one, many = tmp_path / "one.jsonl", tmp_path / "many.jsonl"
    status, err_one = run_cli(capsys, *files, "--out", one, "--jobs", "1")
    assert status == 0
    for chunk in ("700", "1500"):
        status, err_many = run_cli(
            capsys, *files, "--out", many, "--jobs", "2", "--chunk-size", chunk
        )
        assert status == 0
        tasks = list(_warc_run.plan([str(f) for f in files], int(chunk)))
        assert len(tasks) > 10  # the split really cut the files into ranges
        assert many.read_bytes() == one.read_bytes()
        # Same summary, apart from the timing line.
        assert err_many.splitlines()[1:] == err_one.splitlines()[1:]
    assert sum(task.path == str(fourth) for task in tasks) == 1
    # 3 + 2 + 2 + 2 copies of the pages, and the first (uncut) copy of TRUNCATED's page.
    assert len(read_jsonl(one)) == 9 * sum(1 for c in CASES if c.document) + 1


# --------------------------------------------------------------------------- cluster

DOCS = Path(__file__).resolve().parents[1] / "docs" / "warc.md"


def recipe() -> dict[str, object]:
    """The Dask recipe of docs/warc.md, executed as written."""
    text = DOCS.read_text(encoding="utf-8")
    block = text.split("<!-- recipe: dask", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, object] = {"__name__": "warc_recipe"}
    exec(compile(block, str(DOCS), "exec"), namespace)
    return namespace


def test_cluster_recipe_on_a_local_dask_cluster(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    distributed = pytest.importorskip("dask.distributed", reason="the cluster engine: [dask]")
    first = build(tmp_path / "a.warc.gz", CASES * 3, gz=True, garbage_after=9)
    second = build(tmp_path / "b.warc", (*CASES, TRUNCATED), gz=False, truncate_last=True)
    cli_out = tmp_path / "cli.jsonl"
    assert run_cli(capsys, first, second, "--out", cli_out, "--jobs", "1")[0] == 0

    decode_archives = recipe()["decode_archives"]
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        summary = decode_archives(  # type: ignore[operator]
            client, [str(first), str(second)], tmp_path / "parts", chunk_bytes=2000
        )
    parts = sorted((tmp_path / "parts").glob("part-*.jsonl"))
    assert len(parts) > 4  # the files were cut into ranges
    assert b"".join(p.read_bytes() for p in parts) == cli_out.read_bytes()
    assert summary.pages == len(read_jsonl(cli_out))
    assert summary.records == 4 * len(CASES) + 1


def test_brotli_content_encoding(tmp_path: Path) -> None:
    brotli = pytest.importorskip("brotli")
    case = Case(
        "http://example.ru/br",
        http_response(
            brotli.compress(RU.encode("cp1251")), "Content-Type: text/html", "Content-Encoding: br"
        ),
        document=RU,
        encoding="windows-1251",
        source="meta",
    )
    archive = build(tmp_path / "a.warc", (case,), gz=False)
    check_pages(list(_warc.read_pages(str(archive))), (case,))


def test_progress_bar(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = build(tmp_path / "a.warc", CASES, gz=False)
    status, err = run_cli(
        capsys, archive, "--out", tmp_path / "o.jsonl", "--progress", "--jobs", "1"
    )
    assert status == 0
    bar = err.split("\n", 1)[0]
    assert bar.startswith("\r[##############################] 100%")
    assert f"{len(CASES)} records" in bar
    assert bar.endswith("records/s")
    status, err = run_cli(capsys, archive, "--out", tmp_path / "o.jsonl")  # not a terminal
    assert err.startswith("browser-decode warc: 1 file(s)")


def test_spawned_workers_give_the_same_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where fork is not used (macOS, Windows, threads), spawned workers agree too."""
    archive = build(tmp_path / "a.warc.gz", CASES * 2, gz=True)
    one = b"".join(r.jsonl for r in _warc_run.run([str(archive)], jobs=1))
    monkeypatch.setattr(threading, "active_count", lambda: 2)  # as if threads ran
    assert _warc_run._context().get_start_method() == "spawn"
    many = b"".join(r.jsonl for r in _warc_run.run([str(archive)], jobs=2, chunk_bytes=1000))
    assert many == one


def test_big_records(tmp_path: Path) -> None:
    """Headers longer than the first read, a big non-HTML body, an HTML body over the cap."""
    cookie = "Set-Cookie: " + "c" * (_warc.HEAD_BYTES + 100)
    cases = (
        Case(
            "http://example.com/long-headers",
            http_response(EN.encode(), cookie, "Content-Type: text/html; charset=utf-8"),
            document=EN,
            encoding="UTF-8",
            source="header",
        ),
        Case(
            "http://example.com/video",
            http_response(b"\0" * (3 * _warc.HEAD_BYTES), "Content-Type: video/mp4"),
            skipped="not HTML (video/mp4)",
        ),
        Case(
            "http://example.com/huge",
            http_response(b"<p>" + b"a" * (3 * _warc.HEAD_BYTES), "Content-Type: text/html"),
            skipped=f"too large (over {2 * _warc.HEAD_BYTES:,} bytes)",
        ),
    )
    archive = build(tmp_path / "a.warc", cases, gz=True)
    summary = _warc.Summary()
    pages = _warc.read_pages(str(archive), summary=summary, limit=2 * _warc.HEAD_BYTES)
    check_pages(list(pages), cases)
    assert summary.skipped == expected_skips(cases)


def test_a_decoder_bug_is_counted_not_fatal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("bug")

    monkeypatch.setitem(vars(_warc), "decode_html", broken)
    archive = build(tmp_path / "a.warc", CASES, gz=False)
    summary = _warc.Summary()
    assert list(_warc.read_pages(str(archive), summary=summary)) == []
    n_pages = sum(1 for c in CASES if c.document)
    assert summary.skipped["internal error (ValueError; please report)"] == n_pages


def test_json_lines_are_utf8_and_never_fail() -> None:
    assert _warc_run.to_json_line({"t": "é\n"}) == '{"t":"é\\n"}\n'.encode()
    # A lone surrogate cannot be UTF-8: the line falls back to \u escapes.
    line = _warc_run.to_json_line({"t": "x\udc80é"})
    assert json.loads(line) == {"t": "x\udc80é"}
    assert line.isascii()


# --------------------------------------------------------------------------- detectors

RU_PLAIN = (
    "<html><head><title>Новости</title></head><body>"
    + "<p>Съешь же ещё этих мягких французских булок, да выпей чаю. "
    "Учёные представили результаты нового исследования в Москве.</p>" * 4 + "</body></html>"
)
UNDECLARED: tuple[Case, ...] = tuple(
    Case(
        f"http://example.ru/{number}",
        http_response(RU_PLAIN.encode("cp1251"), "Content-Type: text/html"),
        document=RU_PLAIN,
        encoding="windows-1251",
        source="detected",
    )
    for number in range(6)
)


def koi8_detector(body: bytes) -> tuple[str, float]:
    """A detector with an answer no real detector gives for these pages."""
    return "koi8-r", 0.5


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("detector", ["builtin", "charset-normalizer"])
def test_cli_detector_reaches_every_worker(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str, detector: str
) -> None:
    """--detector decides every undeclared page, in one process and in every worker."""
    archive = build(tmp_path / "a.warc.gz", (*CASES, *UNDECLARED), gz=True)
    out = tmp_path / "pages.jsonl"
    args = ["--out", out, "--jobs", jobs, "--chunk-size", "700"]
    status, err = run_cli(capsys, archive, *args, "--detector", detector)
    assert status == 0
    if jobs == "2":
        assert len(list(_warc_run.plan([str(archive)], 700))) > 4  # several tasks
    pages = read_jsonl(out)
    check_pages(pages, (*CASES, *UNDECLARED))  # both read these pages right
    detected = [p for p in pages if p["source"] == "detected"]
    assert len(detected) == len(UNDECLARED)
    assert {p["detector"] for p in detected} == {detector}
    assert all(p["detector"] is None for p in pages if p["source"] != "detected")
    assert f"  detected by:\n    {detector}  " in err
    with pytest.raises(SystemExit):  # only the two named detectors
        _warc_cli.main([str(archive), "--out", str(out), "--detector", "chardet"])
    capsys.readouterr()


@pytest.mark.parametrize("jobs", [1, 2])
def test_callable_detector_in_the_python_api(tmp_path: Path, jobs: int) -> None:
    """A detector callable changes the answer on undeclared pages only, in every worker."""
    archive = build(tmp_path / "a.warc.gz", (*CASES, *UNDECLARED), gz=True)
    results = list(
        _warc_run.run([str(archive)], jobs=jobs, chunk_bytes=700, detector=koi8_detector)
    )
    pages = [json.loads(line) for r in results for line in r.jsonl.splitlines()]
    name = f"{__name__}.koi8_detector"
    for page in pages:
        if page["url"].startswith("http://example.ru/") and page["url"][-1].isdigit():
            assert (page["encoding"], page["detector"], page["score"]) == ("KOI8-R", name, 0.5)
            assert page["html"] == RU_PLAIN.encode("cp1251").decode("koi8-r")
        else:
            assert page["detector"] is None
    summary = _warc.Summary()
    for result in results:
        summary.add(result.summary)
    assert summary.detectors == Counter({name: len(UNDECLARED)})
    with pytest.raises(ValueError, match="unknown detector"):
        next(_warc_run.run([str(archive)], detector="chardet"))


_VALUES = (
    st.text()
    | st.text(st.characters(max_codepoint=0x3F))  # control characters, quotes, backslashes
    | st.integers()
    | st.floats()
    | st.floats(0, 1).map(lambda x: round(x, 3))
    | st.booleans()
    | st.none()
)


@settings(max_examples=2000, deadline=None)
@given(st.dictionaries(st.text(max_size=8), _VALUES, max_size=6))
def test_orjson_lines_are_the_standard_librarys(page: dict[str, object]) -> None:
    """With orjson (the [warc] extra) the JSON lines are byte for byte the standard library's."""
    assert _warc_run._ORJSON is not None  # installed by [warc], so the test compares both
    try:
        reference = (_warc_run._JSON.encode(page) + "\n").encode()
    except UnicodeEncodeError:
        reference = (_warc_run._JSON_ASCII.encode(page) + "\n").encode()
    assert _warc_run.to_json_line(page) == reference
    if _warc_run._same_with_orjson(page):
        try:
            assert _warc_run._ORJSON[0](page) == reference
        except _warc_run._ORJSON[1]:
            pass  # refused (a lone surrogate, a big int): to_json_line used the reference


# A page's fields as page_of writes them: strings (with control characters, quotes, lone
# surrogates), ints (a status may be any digits: over 64 bits too), booleans, None, and
# a score that is None or a float (0, tiny ones that Python writes with an exponent, NaN).
_STRINGS = st.none() | st.text() | st.text(st.characters(max_codepoint=0x3F))
_INTS = st.none() | st.integers() | st.integers(0, 1 << 70)
_SCORES = (
    st.none() | st.floats() | st.floats(0, 1) | st.floats(0, 1e-3) | st.sampled_from([0.0, 1e-5])
)
_PAGES = st.fixed_dictionaries(
    {
        name: _SCORES
        if name == "score"
        else st.booleans()
        if name == "binary"
        else (
            _INTS if name in ("offset", "length", "status", "replacements", "bytes") else _STRINGS
        )
        for name in _warc.FIELDS
    },
    optional={"html": st.text(), "text": st.text()},
)


@settings(max_examples=2000, deadline=None)
@given(_PAGES)
def test_page_lines_are_to_json_lines(page: dict[str, object]) -> None:
    """page_line (the score's type checked, no other field's) writes to_json_line's bytes."""
    assert _warc_run._ORJSON is not None  # installed by [warc]: the orjson path is compared
    assert _warc_run.page_line(page) == _warc_run.to_json_line(page)


def test_page_lines_of_an_archive(tmp_path: Path) -> None:
    """The CLI's lines (page_line) are to_json_line's, page by page, on every kind of case:
    UTF-8 pages' from their bodies' bytes too."""
    archive = build(tmp_path / "a.warc.gz", (*CASES, *UNDECLARED), gz=True)
    pages, from_bytes = [], 0
    for page in _warc.read_pages(str(archive)):
        from_bytes += _warc.utf8_body(page) is not None
        assert _warc_run.page_line(page) == _warc_run.to_json_line(page)
        pages.append(page)
    assert pages and any(page["score"] is not None for page in pages)
    assert 0 < from_bytes < len(pages)
    # only the last page made keeps its bytes (a page of an earlier record has none)
    assert all(_warc.utf8_body(page) is None for page in pages[:-1])


# The text of a UTF-8 page decoded without an error (no surrogates), and strings of what
# orjson escapes or writes as it is.
_UTF8_TEXTS = st.text(st.characters(exclude_categories=["Cs"])) | st.text(
    st.sampled_from('a"\\/\n\r\t\x00\x08\x0c\x1b\x1f\x7f\x80é€\u2028\ufeff\uffff😀')
)


@settings(max_examples=2000, deadline=None)
@given(_PAGES, _UTF8_TEXTS)
def test_a_utf8_pages_line_from_its_bytes(page: dict[str, object], text: str) -> None:
    """page_line of a page whose text's UTF-8 bytes page_of kept (the text escaped from
    them, the other fields by orjson) writes to_json_line's bytes, and leaves the page as
    it was."""
    page = {k: v for k, v in page.items() if k not in ("html", "text")} | {"html": text}
    before = list(page.items())
    kept = _warc._UTF8_BODY[0]
    _warc._UTF8_BODY[0] = (text, text.encode())  # (as page_of keeps a UTF-8 page's)
    try:
        assert _warc.utf8_body(page) == text.encode()
        line = _warc_run.page_line(page)
    finally:
        _warc._UTF8_BODY[0] = kept
    assert line == _warc_run.to_json_line(page)
    assert list(page.items()) == before
    # (the path is taken where no control character but tab, LF, CR is in the text)
    assert _warc_run._ORJSON is not None
    dumps, error = _warc_run._ORJSON
    plain = {**page, "score": 0.5}  # (a score that orjson writes as the standard library)
    try:
        taken = _warc_run._utf8_page_line(plain, text.encode(), dumps)
    except error:  # an int over 64 bits: page_line writes the line with the standard library
        return
    assert (taken is not None) == (not any(c < " " and c not in "\t\n\r" for c in text))
    assert taken in (None, _warc_run.to_json_line(plain))
