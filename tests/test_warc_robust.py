"""WARC wing under hostile archives, kills and odd inputs (issue 16; issue 15's WARC points).

Archives are built byte by byte here (tests/test_warc.py's builder), so that each defect is
exactly the one named: a lying Content-Length, a record cut mid-file, garbage before a good
record, junk between gzip members. Kills are real: the command runs in a subprocess and is
sent signals; no process it started may survive.
"""

from __future__ import annotations

import gzip
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import psutil
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from browser_decode.warc import _archive as _warc
from browser_decode.warc import _run as _warc_run

from .test_warc import CASES, EN, FR, JA, RU, Case, check_pages, http_response, warc_record

PAGE_CASES = tuple(c for c in CASES if c.document is not None)


def records(cases: tuple[Case, ...]) -> list[bytes]:
    return [warc_record(c.kind, c.uri, c.block, n) for n, c in enumerate(cases, 1)]


def lie(record: bytes, delta: int) -> bytes:
    """The record with its Content-Length off by *delta*."""
    head, rest = record.split(b"\r\n\r\n", 1)
    lines = head.split(b"\r\n")
    for number, line in enumerate(lines):
        if line.startswith(b"Content-Length: "):
            lines[number] = b"Content-Length: %d" % (int(line[16:]) + delta)
    return b"\r\n".join(lines) + b"\r\n\r\n" + rest


def read(path: Path) -> tuple[list[dict[str, object]], _warc.Summary]:
    summary = _warc.Summary()
    return list(_warc.read_pages(str(path), summary=summary)), summary


class _Collect:
    """A sink of ``_warc_run.stream``: every JSON line, in order."""

    def __init__(self) -> None:
        self.lines: list[bytes] = []

    def add(self, page: dict[str, object]) -> None:
        self.lines.append(_warc_run.to_json_line(page))

    def add_part(self, part: object) -> None:
        self.lines.extend(part)  # type: ignore[call-overload]


def write(path: Path, members: list[bytes], gz: bool) -> Path:
    path.write_bytes(b"".join(gzip.compress(m, mtime=0) if gz else m for m in members))
    return path


MISMATCH = "broken: Content-Length does not match the record's end"


@pytest.mark.parametrize("gz", [False, True], ids=["plain", "gzip"])
@pytest.mark.parametrize("delta", [+200, +5000, -30, -1])
def test_lying_content_length_is_reported_and_the_next_record_read(
    tmp_path: Path, gz: bool, delta: int
) -> None:
    """Too long: must not swallow the next record. Too short: flagged, never written cut."""
    members = records(PAGE_CASES)
    members[1] = lie(members[1], delta)  # the second page lies
    pages, summary = read(write(tmp_path / "a.warc", members, gz))
    good = tuple(c for n, c in enumerate(PAGE_CASES) if n != 1)
    check_pages(pages, good)
    # Past the end of the file, the record is "truncated"; else its end does not match. In
    # gzip it reads up to the next member holding a record, never past it: no match either.
    reason = "broken: truncated record" if delta == 5000 and not gz else MISMATCH
    assert summary.skipped == Counter({reason: 1})
    assert summary.records == len(PAGE_CASES)


@pytest.mark.parametrize("junk", [b"garbage without a line end", b"\r\n\r\n\0\0\0", b"WARC/1.1 x"])
def test_garbage_before_a_good_record_loses_nothing(tmp_path: Path, junk: bytes) -> None:
    members = records(PAGE_CASES)
    members.insert(2, junk)
    members.insert(0, junk)
    pages, summary = read(write(tmp_path / "a.warc", members, gz=False))
    check_pages(pages, PAGE_CASES)
    assert summary.skipped == Counter({"broken archive (bytes that are no WARC record)": 2})


def test_record_truncated_mid_file_is_broken_and_the_next_read_whole(tmp_path: Path) -> None:
    members = records(PAGE_CASES)
    members[3] = members[3][: len(members[3]) // 2]  # cut inside its block
    pages, summary = read(write(tmp_path / "a.warc", members, gz=False))
    check_pages(pages, tuple(c for n, c in enumerate(PAGE_CASES) if n != 3))
    assert sum(summary.skipped.values()) == 1
    assert set(summary.skipped) <= {MISMATCH, "broken: truncated record"}
    assert all("WARC/1.1" not in str(p["html"]) for p in pages)


def test_truncated_gzip_member_mid_file_is_reported(tmp_path: Path) -> None:
    members = [gzip.compress(r, mtime=0) for r in records(PAGE_CASES)]
    members[2] = members[2][: len(members[2]) - 12]  # its deflate end and gzip trailer lost
    (tmp_path / "a.warc.gz").write_bytes(b"".join(members))
    pages, summary = read(tmp_path / "a.warc.gz")
    check_pages(pages, tuple(c for n, c in enumerate(PAGE_CASES) if n != 2))
    assert sum(summary.skipped.values()) == 1
    assert next(iter(summary.skipped)).startswith("broken")


def test_output_fields_locate_the_record(tmp_path: Path) -> None:
    """offset and length cut the record (its gzip member) out of the file; WARC-Date is kept."""
    for gz in (False, True):
        path = write(tmp_path / f"a{gz}.warc", records(CASES), gz)
        pages, _ = read(path)
        data = path.read_bytes()
        for page in pages:
            assert page["warc_file"] == str(path)
            assert page["warc_date"] == "2024-05-01T12:00:00Z"
            offset, length = page["offset"], page["length"]
            assert isinstance(offset, int) and isinstance(length, int)
            piece = data[offset : offset + length]
            raw = gzip.decompress(piece) if gz else piece
            assert raw.startswith(b"WARC/1.1\r\n") and raw.endswith(b"\r\n\r\n")
            assert f"WARC-Record-ID: {page['record_id']}".encode() in raw
            assert raw.count(b"WARC/1.1\r\n") == 1


def test_output_has_label_score_and_runner_up(tmp_path: Path) -> None:
    undeclared = ("<p>" + "Съешь же ещё этих мягких французских булок, да выпей чаю. " * 20).encode(
        "cp1251"
    )
    cases = (
        Case("http://a/", http_response(JA.encode("shift_jis"), "Content-Type: text/html")),
        Case("http://b/", http_response(undeclared, "Content-Type: text/html")),
    )
    pages, _ = read(write(tmp_path / "a.warc", records(cases), gz=False))
    assert pages[0]["label"] == "shift_jis"
    assert pages[0]["score"] is None and pages[0]["runner_up"] is None
    assert pages[1]["source"] == "detected"
    assert pages[1]["encoding"] == "windows-1251"
    assert isinstance(pages[1]["score"], float) and 0 <= pages[1]["score"] <= 1
    assert pages[1]["label"] is None


XHTML = (
    '<?xml version="1.0" encoding="windows-1252"?>'
    '<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Café crème</p></body></html>'
)
FEED = '<?xml version="1.0" encoding="koi8-r"?><rss><channel><title>Новости</title></channel></rss>'


@pytest.mark.parametrize(
    ("content_type", "document", "codec", "encoding"),
    [
        ("application/xhtml+xml", XHTML, "cp1252", "windows-1252"),
        ("application/rss+xml", FEED, "koi8-r", "KOI8-R"),
        ("text/xml", FEED, "koi8-r", "KOI8-R"),
        ("application/atom+xml; charset=koi8-r", FEED, "koi8-r", "KOI8-R"),
    ],
)
def test_xml_records_follow_the_xml_rules(
    tmp_path: Path, content_type: str, document: str, codec: str, encoding: str
) -> None:
    """XHTML, feeds and sitemaps: the XML declaration counts (decode_html would ignore it)."""
    case = Case("http://x/", http_response(document.encode(codec), f"Content-Type: {content_type}"))
    pages, summary = read(write(tmp_path / "a.warc", records((case,)), gz=False))
    assert summary.skipped == Counter()
    assert pages[0]["html"] == document
    assert pages[0]["encoding"] == encoding
    expected = "header" if "charset" in content_type else "meta"
    assert pages[0]["source"] == expected


def test_json_and_images_are_still_skipped(tmp_path: Path) -> None:
    cases = (
        Case("http://j/", http_response(b'{"a": 1}', "Content-Type: application/json")),
        Case("http://c/", http_response(b"body{}", "Content-Type: text/css")),
    )
    pages, summary = read(write(tmp_path / "a.warc", records(cases), gz=False))
    assert pages == []
    assert summary.skipped == Counter({"not HTML (application/json)": 1, "not HTML (text/css)": 1})


# --------------------------------------------------------------------------- every --jobs


def test_summary_is_identical_for_every_jobs(tmp_path: Path) -> None:
    """Junk between gzip members, junk members, lying and cut records: same counts and pages."""
    members = [gzip.compress(r, mtime=0) for r in records(CASES * 6)]
    for place in (40, 29, 17, 5):
        members.insert(place, b"junk between members " * 3)
    members.insert(33, gzip.compress(b"WARX/1.1\r\n" + b"x" * 900, mtime=0))
    members[12] = gzip.compress(lie(records(CASES)[3], 300), mtime=0)
    gz = tmp_path / "a.warc.gz"
    gz.write_bytes(b"".join(members))
    plain_members = records(CASES * 6)
    plain_members.insert(20, b"junk")
    plain_members[30] = lie(plain_members[30], -7)
    plain_members[40] = plain_members[40][:100]
    plain = write(tmp_path / "b.warc", plain_members, gz=False)

    one = _Collect()
    reference = _warc_run.stream([str(gz), str(plain)], one, jobs=1)
    assert reference.skipped["broken archive (bytes that are no gzip member)"] == 4
    for chunk in (300, 700, 1100, 2900):
        many = _Collect()
        summary = _warc_run.stream([str(gz), str(plain)], many, jobs=2, chunk_bytes=chunk)
        assert summary == reference, chunk
        assert b"".join(many.lines) == b"".join(one.lines)


# --------------------------------------------------------------------------- fuzz


def _fuzz_archive() -> bytes:
    cases = (
        *CASES,
        Case("http://x/", http_response(RU.encode("cp1251"), "Content-Type: text/html")),
    )
    return b"".join(records(cases))


_ARCHIVE = _fuzz_archive()
_ARCHIVE_GZ = b"".join(gzip.compress(r, mtime=0) for r in records(CASES))


#: The fuzz tests' settings (``WARC_FUZZ_EXAMPLES`` examples each; 60 by default).
_FUZZ = settings(
    max_examples=int(os.environ.get("WARC_FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@_FUZZ
@given(
    gz=st.booleans(),
    edits=st.lists(
        st.tuples(st.integers(0, 1 << 16), st.integers(0, 40), st.binary(max_size=12)), max_size=6
    ),
)
def test_fuzz_read_pages_on_mutated_archives(
    tmp_path_factory: pytest.TempPathFactory, gz: bool, edits: list[tuple[int, int, bytes]]
) -> None:
    """Mutated archives (bytes replaced, cut, inserted): read_pages never raises, and every
    record is accounted for as a page or a counted skip."""
    data = bytearray(_ARCHIVE_GZ if gz else _ARCHIVE)
    for position, cut, insert in edits:
        position %= len(data) + 1
        data[position : position + cut] = insert
    path = tmp_path_factory.mktemp("fuzz") / "f.warc"
    path.write_bytes(bytes(data))
    summary = _warc.Summary()
    pages = list(_warc.read_pages(str(path), summary=summary))
    assert summary.pages == len(pages)
    assert summary.records == summary.pages + sum(
        n for reason, n in summary.skipped.items() if not reason.startswith("broken archive")
    )
    for page in pages:
        assert list(page)[: len(_warc.FIELDS)] == list(_warc.FIELDS)
        assert isinstance(page["html"], str)
        json.loads(_warc_run.to_json_line(page))


# --------------------------------------------------------------------------- the command


def command(*args: str | Path) -> list[str]:
    return [sys.executable, "-m", "browser_decode", "warc", *map(str, args)]


def run_command(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command(*args), capture_output=True, text=True, timeout=120)


def test_non_regular_inputs_are_refused(tmp_path: Path) -> None:
    """/dev/zero (a pyo3 PanicException under FastWARC), a directory, a FIFO: exit 3."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    result = run_command("/dev/zero", tmp_path, fifo, "--out", tmp_path / "o.jsonl")
    assert result.returncode == 3, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.count("not a regular file") + result.stderr.count("directory") >= 3
    good = write(tmp_path / "a.warc", records(PAGE_CASES), gz=False)
    result = run_command("/dev/zero", good, "--out", tmp_path / "o.jsonl")
    assert result.returncode == 1
    assert len((tmp_path / "o.jsonl").read_text().splitlines()) == len(PAGE_CASES)


def test_unwritable_output_is_exit_4(tmp_path: Path) -> None:
    good = write(tmp_path / "a.warc", records(PAGE_CASES), gz=False)
    for out in ("/dev/full", tmp_path / "missing" / "o.jsonl"):
        result = run_command(good, "--out", out, "--jobs", "1")
        assert result.returncode == 4, result.stderr
        assert "cannot write" in result.stderr
        assert "Traceback" not in result.stderr


def big_archive(path: Path, copies: int) -> Path:
    """Slow to decode: undeclared legacy pages (detection), many records."""
    body = ("<p>" + "Съешь же ещё этих мягких французских булок, да выпей чаю. " * 60).encode(
        "cp1251"
    )
    record = gzip.compress(
        warc_record("response", "http://r/", http_response(body, "Content-Type: text/html"), 1),
        mtime=0,
    )
    path.write_bytes(record * copies)
    return path


def _children(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def _start(tmp_path: Path, out: Path) -> tuple[subprocess.Popen[str], list[psutil.Process]]:
    # (30,000 records: still at work half a second after the workers start; 6,000 ended
    # in about that time once detection got faster, and the signal then met the clean-up)
    archive = big_archive(tmp_path / "big.warc.gz", 30000)
    process = subprocess.Popen(
        command(archive, "--out", out, "--jobs", "2", "--chunk-size", "100000"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp_path)},  # its part files stay in tmp_path
    )
    deadline = time.monotonic() + 60
    while len(workers := _children(process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # let them work
    workers = _children(process.pid)
    assert len(workers) >= 2
    return process, workers


def _gone(processes: list[psutil.Process], within: float = 10.0) -> bool:
    _, alive = psutil.wait_procs(processes, timeout=within)
    return not alive


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_signal_stops_all_workers_and_leaves_no_file(tmp_path: Path, signum: int) -> None:
    out = tmp_path / "out.jsonl"
    process, workers = _start(tmp_path, out)
    process.send_signal(signum)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signum, err
    assert "stopped by" in err and "Traceback" not in err
    assert _gone(workers)
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir() if "partial" in p.name] == []
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("browser-decode")] == []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_timeout_is_a_total_deadline(tmp_path: Path, jobs: str) -> None:
    """--timeout stops the whole run as SIGALRM: summary so far, no output, no worker left."""
    out = tmp_path / "out.jsonl"
    archive = big_archive(tmp_path / "big.warc.gz", 30000)
    started = time.monotonic()
    process = subprocess.Popen(
        command(archive, "--out", out, "--jobs", jobs, "--chunk-size", "100000", "--timeout", "1"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    _, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGALRM, err
    assert time.monotonic() - started < 30
    assert "--timeout of 1 s reached" in err and "summary so far" in err
    assert "Traceback" not in err
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir() if "partial" in p.name] == []
    assert _children(process.pid) == []


class _Interrupted(Exception):
    pass


class _PoolStub:
    """Stands in for a ProcessPoolExecutor whose shutdown a stop signal's handler cuts
    short the first *interruptions* times (it raises, as the command line's does)."""

    def __init__(self, interruptions: int) -> None:
        self._processes: dict[int, object] = {}  # (no worker to kill)
        self.interruptions = interruptions
        self.shutdowns = 0

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.shutdowns += 1
        if self.shutdowns <= self.interruptions:
            raise _Interrupted


@pytest.mark.parametrize("interruptions", [0, 1, 2])
def test_clean_up_finishes_when_a_signal_cuts_it_short(tmp_path: Path, interruptions: int) -> None:
    """A stop signal that arrives as a run ends (its handler raises in the clean-up) still
    leaves the workers stopped and no part files; what it raised is raised after."""
    parts = tmp_path / "browser-decode-warc-x"
    parts.mkdir()
    (parts / "000000001.jsonl").write_text("{}\n")
    pool = _PoolStub(interruptions)
    if interruptions:
        with pytest.raises(_Interrupted):
            _warc_run._clean_up(pool, str(parts))  # type: ignore[arg-type]
    else:
        _warc_run._clean_up(pool, str(parts))  # type: ignore[arg-type]
    assert not parts.exists()
    assert pool.shutdowns == interruptions + 1


def test_timeout_must_be_positive(tmp_path: Path) -> None:
    result = subprocess.run(
        command(tmp_path / "x.warc", "--out", tmp_path / "o.jsonl", "--timeout", "0"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2 and "--timeout" in result.stderr


def test_killed_parent_takes_its_workers_along(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    process, workers = _start(tmp_path, out)
    process.kill()
    process.communicate(timeout=60)
    assert _gone(workers)
    assert not out.exists()


def test_dead_worker_is_exit_5_with_the_summary_so_far(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    process, workers = _start(tmp_path, out)
    workers[0].kill()
    _, err = process.communicate(timeout=60)
    assert process.returncode == 5, err
    assert "worker process died" in err
    assert "summary so far" in err
    assert "Traceback" not in err
    assert _gone(workers)
    assert not out.exists()


def test_a_pool_broken_between_two_tasks_is_a_dead_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that dies after the parent took a task's result makes the next
    ``submit`` raise BrokenProcessPool (not ``result``): that too is WorkerDied, and
    the workers are stopped."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    archive = write(tmp_path / "a.warc", records(CASES * 6), gz=False)
    submitted = itertools.count()
    real_submit = ProcessPoolExecutor.submit

    def submit(self: ProcessPoolExecutor, *args: object, **kwargs: object) -> object:
        if next(submitted) == 5:  # after the first 2 * jobs, one result later
            raise BrokenProcessPool("a child process terminated abruptly")
        return real_submit(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ProcessPoolExecutor, "submit", submit)

    with pytest.raises(_warc_run.WorkerDied):
        _warc_run.stream([str(archive)], _Collect(), jobs=2, chunk_bytes=300)


def test_output_is_renamed_only_at_the_end(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("previous\n")
    archive = write(tmp_path / "a.warc", records(PAGE_CASES), gz=False)
    result = run_command(archive, "--out", out, "--jobs", "1")
    assert result.returncode == 0
    assert len(out.read_text().splitlines()) == len(PAGE_CASES)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.warc", "out.jsonl"]


def test_max_page_bytes(tmp_path: Path) -> None:
    cases = (
        Case("http://e/", http_response(EN.encode(), "Content-Type: text/html")),
        Case("http://f/", http_response(FR.encode("cp1252") * 100, "Content-Type: text/html")),
    )
    archive = write(tmp_path / "a.warc", records(cases), gz=True)
    out = tmp_path / "o.jsonl"
    result = run_command(archive, "--out", out, "--max-page-bytes", "2000")
    assert result.returncode == 0
    assert "too large (over 2,000 bytes)" in result.stderr
    assert [json.loads(line)["url"] for line in out.read_text().splitlines()] == ["http://e/"]


def test_both_inflaters_agree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ISA-L (the [warc] extra) and the standard library's zlib read every archive alike."""
    import zlib

    members = [gzip.compress(r, mtime=0) for r in records(CASES * 3)]
    members[4] = members[4][:-12]
    members[9] = members[9][:20] + b"\xff" * 20 + members[9][40:]
    members.insert(7, b"junk")
    members[12] = gzip.compress(lie(records(CASES)[3], 300), mtime=0)
    path = tmp_path / "a.warc.gz"
    path.write_bytes(b"".join(members))
    assert _warc._decompressobj is not zlib.decompressobj  # isal is installed by [warc]
    fast = read(path)
    monkeypatch.setattr(_warc, "_decompressobj", zlib.decompressobj)
    monkeypatch.setattr(_warc, "_INFLATE_ERRORS", (zlib.error,))
    assert read(path) == fast
    assert sum(fast[1].skipped.values()) > 10


def test_offsets_of_members_across_read_boundaries(tmp_path: Path) -> None:
    """Members that straddle the reader's 64 KiB reads: exact lengths, same for every --jobs."""
    import base64
    import random

    rng = random.Random(5)
    cases = tuple(
        Case(
            f"http://r/{n}",
            http_response(
                b"<p>" + base64.b64encode(rng.randbytes(rng.randrange(5000, 40000))),
                "Content-Type: text/html",
            ),
        )
        for n in range(40)
    )
    path = write(tmp_path / "a.warc.gz", records(cases), gz=True)
    data = path.read_bytes()

    one, two = _Collect(), _Collect()
    _warc_run.stream([str(path)], one, jobs=1)
    _warc_run.stream([str(path)], two, jobs=2, chunk_bytes=50000)
    assert one.lines == two.lines
    ends = set()
    for line in one.lines:
        page = json.loads(line)
        raw = gzip.decompress(data[page["offset"] : page["offset"] + page["length"]])
        assert raw.count(b"WARC/1.1\r\n") == 1 and raw.endswith(b"\r\n\r\n")
        ends.add(page["offset"] + page["length"])
    assert len(ends) == 40 and max(ends) == len(data)


@pytest.mark.parametrize("gz", [False, True], ids=["plain", "gzip"])
@pytest.mark.parametrize("heads", [True, False], ids=["read", "index"])
def test_a_skipped_record_running_over_many_members(tmp_path: Path, gz: bool, heads: bool) -> None:
    """A non-page record whose Content-Length runs over several records (read without keeping
    its block, and in the index pass): every record it ran into is still read."""
    image = Case("http://i/", http_response(b"\x89PNG" + b"\0" * 3000, "Content-Type: image/png"))
    members = records((image, *PAGE_CASES))
    members[0] = lie(members[0], sum(map(len, members[1:4])) + 10)
    path = write(tmp_path / "a.warc", members, gz)
    items = list(_warc.iter_records(str(path), heads=heads))
    found = [item for item in items if isinstance(item, _warc.Record)]
    assert [r.uri for r in found] == [image.uri] + [c.uri for c in PAGE_CASES]
    assert found[0].problem == MISMATCH
    assert all(r.problem is None for r in found[1:])
    if heads:
        check_pages(read(path)[0], PAGE_CASES)


def _members(data: bytes, cuts: list[int]) -> bytes:
    """*data* cut at *cuts* (offsets), each piece its own gzip member."""
    bounds = sorted({min(max(c, 0), len(data)) for c in cuts} | {0, len(data)})
    return b"".join(gzip.compress(data[a:b], mtime=0) for a, b in itertools.pairwise(bounds))


def _read_all(path: Path) -> tuple[list[object], list[dict[str, object]], _warc.Summary]:
    summary = _warc.Summary()
    pages = list(_warc.read_pages(str(path), summary=summary))
    index = [
        item if isinstance(item, str) else (item.position, item.length, item.problem, item.uri)
        for item in _warc.iter_records(str(path), heads=False)
    ]
    return index, pages, summary


@_FUZZ
@given(
    compressed=st.booleans(),
    edits=st.lists(
        st.tuples(st.integers(0, 1 << 16), st.integers(0, 40), st.binary(max_size=12)), max_size=6
    ),
    shifts=st.lists(st.integers(-300, 300), max_size=4),
    step=st.sampled_from([1 << 20, 1 << 20, 300]),
)
def test_fuzz_whole_member_reads_as_the_stream(
    tmp_path_factory: pytest.TempPathFactory,
    compressed: bool,
    edits: list[tuple[int, int, bytes]],
    shifts: list[int],
    step: int,
) -> None:
    """The fast path (a gzip member holding one record, inflated whole) gives exactly what
    the streaming parser gives, on mutated gzip bytes and on mutated records cut into
    members anywhere (a member holding part of a record, two records, junk), also when
    members inflate to more than one step (the stream goes on where the fast path stopped)."""
    plain = bytearray(_ARCHIVE)
    if compressed:
        data = bytearray(_ARCHIVE_GZ)
    else:
        for position, cut, insert in edits:
            position %= len(plain) + 1
            plain[position : position + cut] = insert
        ends = list(itertools.accumulate(map(len, records(CASES))))
        cuts = [end + shifts[n % len(shifts)] if shifts else end for n, end in enumerate(ends)]
        data = bytearray(_members(bytes(plain), cuts))
    if compressed:
        for position, cut, insert in edits:
            position %= len(data) + 1
            data[position : position + cut] = insert
    path = tmp_path_factory.mktemp("whole") / "f.warc.gz"
    path.write_bytes(bytes(data))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_warc, "_INFLATE_STEP", step)  # 300: members bigger than a step
        fast = _read_all(path)
        patch.setattr(_warc._GzipStream, "member", lambda self: None)
        assert _read_all(path) == fast


def _everything(path: Path) -> tuple[list[object], list[object], list[dict[str, object]], object]:
    """All a reader gives for *path*: records (fields, problem, payload), the index pass,
    pages and summary."""
    found: list[object] = []
    for item in _warc.iter_records(str(path)):
        if isinstance(item, str):
            found.append(item)
            continue
        # (a record from a member inflated whole holds its block, not a copy of its head)
        block = item.block
        payload = item.head if block is None else block[item.block_start : item.block_end]
        fields = (
            item.type,
            item.record_id,
            item.uri,
            item.date,
            item.content_length,
            item.too_large,
        )
        found.append((item.position, item.length, item.problem, *fields, bytes(payload)))
    index, pages, summary = _read_all(path)
    return found, index, pages, summary


_DAMAGE = st.tuples(
    st.sampled_from(["delete", "change", "insert", "truncate", "garbage"]),
    st.integers(0, 1 << 16),  # which member
    st.integers(0, 1 << 16),  # where in it
    st.integers(1, 40),  # how many bytes to delete
    st.binary(min_size=1, max_size=12),  # bytes written or inserted
)


def _damaged(
    units: list[bytes],
    layout: str,
    damage: list[tuple[str, int, int, int, bytes]],
    shifts: list[int],
) -> bytes:
    """The records *units* laid out as *layout* (gzip members, or plain), then damaged."""
    if layout == "member per record":
        members = [gzip.compress(r, mtime=0) for r in units]
    elif layout == "one member":
        members = [gzip.compress(b"".join(units), mtime=0)]
    elif layout == "members cut anywhere":
        ends = itertools.accumulate(map(len, units))
        cuts = [end + shifts[n % len(shifts)] for n, end in enumerate(ends)]
        members = [_members(b"".join(units), cuts)]
    else:
        members = list(units)
    for kind, which, where, count, data in damage:
        number = which % len(members)
        member = members[number]
        at = where % (len(member) + 1)
        if kind == "delete":
            members[number] = member[:at] + member[at + count :]
        elif kind == "change":
            members[number] = member[:at] + data + member[at + len(data) :]
        elif kind == "insert":
            members[number] = member[:at] + data + member[at:]
        elif kind == "truncate":
            members[number] = member[:at]
        else:
            members.insert(number, data)
    return b"".join(members)


_LAYOUTS = st.sampled_from(["member per record", "one member", "members cut anywhere", "plain"])
_DAMAGES = st.lists(_DAMAGE, min_size=1, max_size=4)
_SHIFTS = st.lists(st.integers(-300, 300), min_size=1, max_size=4)


@_FUZZ
@given(layout=_LAYOUTS, damage=_DAMAGES, shifts=_SHIFTS)
# Two that main's reader gave differently for 257-byte pieces: what a member gave before
# its damage depended on whether the failing bytes came in the same read.
@example(layout="members cut anywhere", damage=[("delete", 0, 1824, 4, b"\0")], shifts=[-6])
@example(layout="members cut anywhere", damage=[("insert", 0, 748, 1, b"\0")], shifts=[-1])
def test_fuzz_damaged_archives_read_alike_for_every_piece_size(
    tmp_path_factory: pytest.TempPathFactory,
    layout: str,
    damage: list[tuple[str, int, int, int, bytes]],
    shifts: list[int],
) -> None:
    """Gzip members with bytes deleted, changed or inserted, cut short, or with garbage
    between them (and plain archives so damaged): the records (places, fields, payloads),
    problems, pages and counts are the same whatever size of piece the file is read in,
    so they never depend on where a member falls against the reads (the fast path for a
    member that fits a read, the streaming parser for one that does not), nor on the
    inflate step."""
    path = tmp_path_factory.mktemp("pieces") / "f.warc.gz"
    path.write_bytes(_damaged(records(CASES), layout, damage, shifts))
    reference = _everything(path)
    with pytest.MonkeyPatch.context() as patch:
        for piece in (257, 1000, 4096):
            patch.setattr(_warc, "_PIECE", piece)
            assert _everything(path) == reference, piece
        # A broken member's last good byte found a byte at a time (as for a long member),
        # not by halving: the same bytes.
        patch.setattr(_warc, "_BISECT_BELOW", -1)
        assert _everything(path) == reference, "a byte at a time"
        # Members bigger than an inflate step (read as a stream, not whole): the same.
        patch.setattr(_warc, "_INFLATE_STEP", 300)
        assert _everything(path) == reference, "300-byte inflate steps"


@_FUZZ
@given(layout=_LAYOUTS, damage=_DAMAGES, shifts=_SHIFTS)
# Members cut inside a record's block: main gave these broken records a length of 0.
@example(layout="one member", damage=[("truncate", 31, 1559, 35, b"4")], shifts=[0])
@example(layout="member per record", damage=[("truncate", 46, 1541, 38, b"\x04")], shifts=[0])
@example(layout="members cut anywhere", damage=[("truncate", 13, 691, 28, b"\xbe")], shifts=[0])
def test_fuzz_a_broken_record_runs_to_where_reading_resumes(
    tmp_path_factory: pytest.TempPathFactory,
    layout: str,
    damage: list[tuple[str, int, int, int, bytes]],
    shifts: list[int],
) -> None:
    """Every record, broken or not, has a place in the file (a record's unit, for a gzip
    WARC its members, is cut out with ``offset`` and ``length``): a length above 0 that ends
    in the file. A record broken by a damaged gzip member runs to where reading resumes,
    whether the damage is found before its block ends or after (before, the first gave 0)."""
    data = _damaged(records(CASES), layout, damage, shifts)
    path = tmp_path_factory.mktemp("extent") / "f.warc.gz"
    path.write_bytes(data)
    for item in _warc.iter_records(str(path), heads=False):
        assert isinstance(item, str) or 0 < item.length <= len(data) - item.position, item


_SPLIT_UNITS = records(CASES * 3)


@_FUZZ
@given(
    # (one member is one task: the plan must not cut it)
    layout=_LAYOUTS,
    damage=_DAMAGES,
    shifts=_SHIFTS,
    lies=st.lists(st.tuples(st.integers(0, 1 << 16), st.integers(-300, 3000)), max_size=3),
    edits=st.lists(
        st.tuples(st.integers(0, 1 << 16), st.integers(0, 1 << 16), st.binary(max_size=12)),
        max_size=3,
    ),
    chunks=st.lists(st.integers(100, 4000), min_size=1, max_size=3),
)
def test_fuzz_damaged_archives_split_into_tasks_read_as_one(
    tmp_path_factory: pytest.TempPathFactory,
    layout: str,
    damage: list[tuple[str, int, int, int, bytes]],
    shifts: list[int],
    lies: list[tuple[int, int]],
    edits: list[tuple[int, int, bytes]],
    chunks: list[int],
) -> None:
    """A damaged archive cut into tasks (what ``--jobs N`` runs) gives, task after task, the
    records, pages and every count of one task over the whole file: nothing is lost or counted twice
    where a task ends, whatever the damage there (a broken member, junk, a record running
    on, a record starting inside a member), for any task size."""
    units = list(_SPLIT_UNITS)
    # Records damaged before they are compressed (so that their gzip members stay whole):
    # lying Content-Lengths, bytes replaced.
    for which, delta in lies:
        units[which % len(units)] = lie(units[which % len(units)], delta)
    for which, where, data in edits:
        unit = units[which % len(units)]
        at = where % (len(unit) + 1)
        units[which % len(units)] = unit[:at] + data + unit[at + len(data) :]
    path = tmp_path_factory.mktemp("tasks") / "f.warc"
    path.write_bytes(_damaged(units, layout, damage, shifts))

    def run(tasks: list[_warc.Task]) -> tuple[list[object], list[dict[str, object]], object]:
        # Records and reports (a broken record's place and length too, which no count shows),
        # then pages and summary.
        found = [
            item if isinstance(item, str) else (item.position, item.length, item.problem)
            for t in tasks
            for item in _warc.iter_records(t.path, t.start, t.stop, align=t.align)
        ]
        summary = _warc.Summary()
        pages = [p for task in tasks for p in _warc_run.task_pages(task, "html", summary)]
        return found, pages, summary

    reference = run([_warc.Task(str(path))])
    for chunk in chunks:
        tasks = list(_warc_run.plan([str(path)], chunk))
        assert run(tasks) == reference, (chunk, tasks)


@pytest.mark.parametrize("gz", [False, True], ids=["plain", "gzip"])
def test_content_length_of_non_ascii_digits_is_no_length(tmp_path: Path, gz: bool) -> None:
    """ "Content-Length = 1*DIGIT": "1²" (which str.isdigit accepts and int() refuses) and
    "٣" (an Arabic-Indic three) make the header no record, never a crash."""
    good = records(PAGE_CASES[:1])
    odd = [
        b"WARC/1.1\r\nWARC-Type: response\r\nContent-Length: " + length + b"\r\n\r\nx\r\n\r\n"
        for length in ("1²".encode(), "٣".encode())
    ]
    pages, summary = read(write(tmp_path / "a.warc", [odd[0], *good, odd[1], *good], gz))
    check_pages(pages, PAGE_CASES[:1] * 2)
    assert summary.records == 2
    assert sum(summary.skipped.values()) == 2
