"""Re-decoding a crawl archive: records/s and wrongly decoded pages, ours next to two peers.

    python benchmarks/bench_warc.py [--pages 3000] [--seed 7] [--keep DIR]

Builds one gzip-per-record WARC (like Common Crawl's) of generated pages whose
encoding is known: UTF-8 declared in the header or in a <meta>, legacy pages
declared only in a <meta> (Shift_JIS, windows-1251, GBK, EUC-KR, windows-1252
as "iso-8859-1"; some declared after 1024 bytes), and undeclared pages, plus a
few non-HTML responses. The page text comes from ../shared/corpus/dev when it
is there (read at run time, never stored), else from built-in sentences.

Then runs, in turns:

* ``browser-decode warc``'s pipeline (its own WARC reader with framing checks,
  HTTP framing, decode_html, JSON Lines; browser_decode.warc._run.stream) on
  1 process and on all cores;
* the FastWARC + resiliparse pipeline crawl tools use: FastWARC's
  ArchiveIterator (HTTP headers parsed by FastWARC), the header charset, else
  detect_encoding(body, from_html_meta=True), then bytes_to_str, and the same
  JSON Lines (the peer of issue 14);
* our pipeline with resiliparse's decoder, and with requests-style ``.text``
  (the header charset, else ISO-8859-1), to separate reading from decoding;
* ``browser-decode warc --detector charset-normalizer`` on 1 process.

Every pipeline writes its JSON Lines with the same ``to_json_line`` (orjson when
the ``[warc]`` extra is installed; ``--stdlib-json`` for the standard library's;
ours with ``page_line``, the same bytes, as ``browser-decode warc --out FILE`` does)
into a file (``--sink memory``: into a
list in memory instead, which costs every pipeline more, ours most: its bigger
per-record buffers then land in fresh memory). Every pipeline runs once untimed
first (first-use costs are not what a re-processing job pays per record); the
output is read back and checked outside the timed region.

A page is wrong when its decoded text differs from the generated document.
Needs: pip install fastwarc resiliparse (the peers' rows are left out without them).
"""

from __future__ import annotations

import argparse
import gzip
import html
import json
import os
import random
import re
import resource
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from browser_decode import Confidence, DecodeResult, Provenance, Source
from browser_decode.warc import _archive as _warc
from browser_decode.warc import _run as _warc_run
from browser_decode.warc._http import parse_response

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "dev"

#: How our pipeline writes a page's JSON line (to_json_line's bytes); an older source tree,
#: measured with this script for a before/after, has only to_json_line.
_page_line: Callable[[dict[str, Any]], bytes] = getattr(
    _warc_run, "page_line", _warc_run.to_json_line
)

# language -> (WHATWG encoding, Python codec that writes it, labels pages use)
LEGACY = {
    "ja": ("Shift_JIS", "shift_jis", ["Shift_JIS", "shift_jis", "sjis", "x-sjis"]),
    "ru": ("windows-1251", "cp1251", ["windows-1251", "Windows-1251", "cp1251"]),
    "zh": ("GBK", "gbk", ["gb2312", "GBK", "gbk"]),
    "ko": ("EUC-KR", "euc_kr", ["euc-kr", "EUC-KR", "ks_c_5601-1987"]),
    "en": ("windows-1252", "cp1252", ["iso-8859-1", "ISO-8859-1", "windows-1252"]),
}
BUILTIN = {
    "ja": [
        "今日は東京で雨が降っています。", "新しい駅の工事が始まりました。",
        "山田さんは図書館で本を読みます。", "この町の人口は年々減少しています。",
        "週末に家族と温泉へ行きました。",
    ],
    "ru": [
        "Сегодня в Москве идёт снег.", "Новый мост откроют весной.",
        "Библиотека работает до восьми вечера.", "Учёные представили результаты исследования.",
        "Поезд прибыл на вокзал вовремя.",
    ],
    "zh": [
        "今天北京天气晴朗。", "新的地铁线路将于明年开通。", "图书馆周末也开放。",
        "研究人员发表了新的报告。", "我们在公园里散步。",
    ],
    "ko": [
        "오늘 서울은 맑습니다.", "새 도서관이 다음 달에 문을 엽니다.",
        "학생들이 운동장에서 축구를 합니다.", "연구진이 새로운 결과를 발표했습니다.",
        "주말에 가족과 바다에 갔습니다.",
    ],
    "en": [
        "The café’s “crème brûlée” costs €4.", "Ångström and Zoë met at the façade.",
        "It’s a naïve résumé — isn’t it?", "Señor Muñoz ordered piña colada.",
        "Prices rose 5 % in Düsseldorf.",
    ],
}  # fmt: skip
_CORPUS_LANGUAGES = {
    "japanese": "ja", "russian": "ru", "bulgarian": "ru", "chinese": "zh", "korean": "ko",
    "english": "en",
}  # fmt: skip
_PY = {
    "Shift_JIS": "cp932", "EUC-JP": "euc_jp", "windows-1251": "cp1251", "KOI8-R": "koi8_r",
    "IBM866": "cp866", "ISO-8859-5": "iso8859_5", "x-mac-cyrillic": "mac_cyrillic", "GBK": "gbk",
    "Big5": "big5", "EUC-KR": "euc_kr", "windows-1252": "cp1252",
}  # fmt: skip


def text_pools() -> tuple[dict[str, list[str]], str]:
    """Sentences per language: the dev corpus' page text if present, else built-in."""
    pools = {lang: list(sentences) for lang, sentences in BUILTIN.items()}
    manifest = CORPUS / "manifest.jsonl"
    if not manifest.exists():
        return pools, "built-in sentences (corpus absent)"
    for line in manifest.read_text().splitlines():
        entry = json.loads(line)
        lang, codec = _CORPUS_LANGUAGES.get(entry["language"]), _PY.get(entry["encoding"])
        if lang is None or codec is None:
            continue
        raw = (CORPUS / entry["orig"]).read_bytes().decode(codec, "replace")
        text = html.unescape(re.sub(r"<[^>]*>", "\n", raw))
        for chunk in re.split(r"\s*\n\s*", text):
            chunk = " ".join(chunk.split())
            if 12 <= len(chunk) <= 200 and "\ufffd" not in chunk and not chunk.isascii():
                pools[lang].append(chunk)
    return pools, "text of ../shared/corpus/dev pages, read at run time"


# Python codecs that map some bytes differently from their sibling (shift_jis
# decodes 0x8160 as U+301C, cp932 and browsers as U+FF5E): a sentence is kept only
# when both agree, so that the generated text is what every browser shows.
_SIBLING = {"shift_jis": "cp932", "euc_kr": "cp949", "gbk": "gb18030"}


def encodable(pools: dict[str, list[str]]) -> dict[str, list[str]]:
    """Keep the sentences the page's legacy encoding carries without ambiguity."""
    out = {}
    for lang, sentences in pools.items():
        codec = LEGACY[lang][1]
        kept = []
        for sentence in sentences:
            try:
                data = sentence.encode(codec)
                if data.decode(_SIBLING.get(codec, codec)) == sentence:
                    kept.append(sentence)
            except UnicodeError:
                continue
        out[lang] = kept
    return out


# Kinds of page: (name, share of pages).
KINDS = [
    ("utf8-header", 0.35), ("utf8-meta", 0.20), ("legacy-meta", 0.25),
    ("legacy-meta-late", 0.05), ("undeclared-utf8", 0.08), ("undeclared-legacy", 0.07),
]  # fmt: skip


def page(rng: random.Random, pools: dict[str, list[str]], kind: str) -> tuple[str, str, str, str]:
    """(document, encoding, Content-Type, language) of one generated page."""
    lang = rng.choice(list(LEGACY))
    encoding, _, labels = LEGACY[lang]
    legacy = kind.startswith("legacy") or kind == "undeclared-legacy"
    encoding = encoding if legacy else "UTF-8"
    label = rng.choice(labels) if legacy else rng.choice(["utf-8", "UTF-8"])
    pool = pools[lang]

    def sentences(n: int) -> str:
        return " ".join(rng.choice(pool) for _ in range(n))

    title = sentences(1)[:60]
    meta = ""
    if kind in ("utf8-meta", "legacy-meta"):
        meta = rng.choice(
            [
                f'<meta charset="{label}">',
                f'<meta http-equiv="Content-Type" content="text/html; charset={label}">',
            ]
        )
    late = f'<meta charset="{label}">' if kind == "legacy-meta-late" else ""
    token = uuid.UUID(int=rng.getrandbits(128)).hex
    script = "".join(
        f"window.cfg{i}={{id:'{token[:8]}',n:{rng.randint(0, 9999)},flag:true}};"
        for i in range(rng.randint(20, 200))
    )
    nav = "".join(
        f'<li class="nav-item"><a href="/{lang}/section/{i}?ref=nav&amp;t={token[:6]}">'
        f"{sentences(1)[:14]}</a></li>"
        for i in range(rng.randint(10, 60))
    )
    body = "".join(
        f'<p class="para p{i}">{sentences(rng.randint(1, 5))}</p>\n'
        for i in range(rng.randint(5, 60))
    )
    document = (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n{meta}\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<link rel="stylesheet" href="/static/css/main.{token[:10]}.css">\n'
        f"<script>window.dataLayer=window.dataLayer||[];{script}</script>\n{late}\n"
        f"<title>{title}</title>\n</head>\n<body>\n"
        f'<header class="site-header"><nav><ul class="nav">{nav}</ul></nav></header>\n'
        f"<main><article><h1>{title}</h1>\n{body}</article></main>\n"
        f'<footer class="site-footer"><p>&copy; 2024 {sentences(1)[:20]}</p></footer>\n'
        f'<script src="/static/js/app.{token[10:20]}.js" defer></script>\n</body>\n</html>\n'
    )
    content_type = f"text/html; charset={label}" if kind == "utf8-header" else "text/html"
    return document, encoding, content_type, lang


def build_warc(path: Path, n_pages: int, seed: int) -> tuple[dict[str, tuple[str, str]], str]:
    """Write the WARC; return {url: (document, kind)} and where the text came from."""
    rng = random.Random(seed)
    pools, origin = text_pools()
    pools = encodable(pools)
    truth: dict[str, tuple[str, str]] = {}
    names, weights = zip(*KINDS, strict=True)
    with path.open("wb") as out:
        for number in range(n_pages):
            url = f"http://site{number % 97}.example/page/{number}"
            if rng.random() < 0.05:  # some non-HTML responses, as in any crawl
                payload, content_type = bytes(rng.getrandbits(8) for _ in range(2000)), "image/jpeg"
            else:
                kind = rng.choices(names, weights)[0]
                document, encoding, content_type, _ = page(rng, pools, kind)
                codec = "utf-8" if encoding == "UTF-8" else LEGACY[_lang_of(encoding)][1]
                payload = document.encode(codec)
                truth[url] = (document, kind)
            block = (
                f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n"
                f"Content-Length: {len(payload)}\r\nServer: nginx\r\n\r\n"
            ).encode() + payload
            head = (
                f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\n"
                f"WARC-Date: 2024-05-01T12:00:00Z\r\n"
                f"WARC-Record-ID: <urn:uuid:{uuid.UUID(int=rng.getrandbits(128))}>\r\n"
                "Content-Type: application/http; msgtype=response\r\n"
                f"Content-Length: {len(block)}\r\n\r\n"
            ).encode()
            out.write(gzip.compress(head + block + b"\r\n\r\n", compresslevel=6, mtime=0))
    return truth, origin


def _lang_of(encoding: str) -> str:
    return next(lang for lang, (name, _, _) in LEGACY.items() if name == encoding)


_CHARSET = re.compile(r"charset\s*=\s*[\"']?([^\s;\"']+)", re.IGNORECASE)

Decoder = Callable[..., DecodeResult]


def _result(text: str, encoding: str) -> DecodeResult:
    return DecodeResult(
        text,
        Provenance(
            encoding, Source.DETECTED, Confidence.TENTATIVE, replacements=text.count("\ufffd")
        ),
    )


def requests_text(body: bytes, content_type: str | None = None, **_: object) -> DecodeResult:
    """requests' Response.text: the header charset, else ISO-8859-1 for text/*."""
    found = _CHARSET.search(content_type or "")
    encoding = found.group(1) if found else "ISO-8859-1"
    try:
        return _result(str(body, encoding, errors="replace"), encoding)
    except LookupError:
        return _result(str(body, "utf-8", errors="replace"), "utf-8")


def resiliparse_decoder() -> Decoder | None:
    try:
        from resiliparse.parse.encoding import bytes_to_str, detect_encoding
    except ImportError:
        return None

    def decode(body: bytes, content_type: str | None = None, **_: object) -> DecodeResult:
        found = _CHARSET.search(content_type or "")
        detected = detect_encoding(body, from_html_meta=True) if found is None else None
        encoding = found.group(1) if found else detected or "utf-8"
        try:
            return _result(bytes_to_str(body, encoding), encoding)
        except LookupError:
            encoding = detect_encoding(body, from_html_meta=True) or "utf-8"
            return _result(bytes_to_str(body, encoding), encoding)

    return decode


def _cpu() -> float:
    """CPU seconds of this process and of its finished worker processes."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


class _Collect:
    """A sink for every pipeline: JSON Lines into a file (or a list), read back after timing.

    The peers write ``to_json_line``'s lines with ``write``; ours (``add``, from ``stream``)
    writes ``page_line``'s, the same bytes, as ``browser-decode warc --out FILE`` does.
    """

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.file: IO[bytes] | None = None
        if SINK["file"] is not None:
            self.file = SINK["file"].open("wb")
            self.write = self.file.write
        else:
            self.write = self.parts.append

    def add(self, page: dict[str, Any]) -> None:
        self.write(_page_line(page))

    def add_part(self, part: IO[bytes]) -> None:
        self.write(part.read())

    def close(self) -> None:
        """End the timed work (the file is closed: its bytes are written)."""
        if self.file is not None:
            self.file.close()

    def output(self) -> bytes:
        """What was written (read back outside the timed region)."""
        if SINK["file"] is not None:
            return SINK["file"].read_bytes()
        return b"".join(self.parts)


#: Where the pipelines write: a file in the temporary folder, or ``None`` for memory.
SINK: dict[str, Path | None] = {"file": None}


def timed_run(
    path: Path, jobs: int, chunk: int, decoder: Decoder | None, detector: str | None = None
) -> tuple[float, float, bytes, int]:
    """Wall seconds, CPU seconds of this process, JSON Lines output, records of one run."""
    # Swap the decoder of the pipeline (in this process: peers run on 1 process).
    namespace = vars(_warc)
    original = namespace["decode_html"]
    if decoder is not None:
        namespace["decode_html"] = decoder
    try:
        sink = _Collect()
        started, cpu = time.perf_counter(), _cpu()
        summary = _warc_run.stream(
            [str(path)], sink, jobs=jobs, chunk_bytes=chunk, detector=detector
        )
        sink.close()
        seconds, cpu = time.perf_counter() - started, _cpu() - cpu
    finally:
        namespace["decode_html"] = original
    return seconds, cpu, sink.output(), summary.records


def _their_text(
    record: Any,
    body: bytes,
    bytes_to_str: Callable[[bytes, str], str],
    detect_encoding: Callable[..., str | None],
) -> tuple[str, str]:
    """The FastWARC + resiliparse pipeline's decoding of a page: the header charset, else
    resiliparse's detection (``<meta>`` first), else UTF-8; (encoding, text)."""
    encoding = record.http_charset or detect_encoding(body, from_html_meta=True) or "utf-8"
    try:
        return encoding, bytes_to_str(body, encoding)
    except LookupError:
        return "utf-8", bytes_to_str(body, "utf-8")


def _their_page(record: Any, body: bytes, encoding: str, text: str) -> dict[str, object]:
    """The FastWARC + resiliparse pipeline's page record (what its JSON line holds)."""
    return {
        "url": record.headers.get("WARC-Target-URI"),
        "record_id": record.record_id,
        "status": record.http_headers.status_code,
        "content_type": record.http_headers.get("Content-Type"),
        "encoding": encoding,
        "bytes": len(body),
        "html": text,
    }


def fastwarc_resiliparse_run(path: Path) -> tuple[float, float, bytes, int] | None:
    """The FastWARC + resiliparse pipeline: read, decode, one JSON line per HTML page."""
    try:
        from fastwarc.warc import ArchiveIterator, WarcRecordType
        from resiliparse.parse.encoding import bytes_to_str, detect_encoding
    except ImportError:
        return None
    sink = _Collect()
    started, cpu = time.perf_counter(), _cpu()
    records = 0
    with path.open("rb") as handle:
        # Every record of the benchmark archive is a response.
        for record in ArchiveIterator(handle, record_types=WarcRecordType.response):
            records += 1
            content_type = record.http_content_type or ""
            if content_type not in ("text/html", ""):
                continue
            body = record.reader.read()
            encoding, text = _their_text(record, body, bytes_to_str, detect_encoding)
            sink.write(_warc_run.to_json_line(_their_page(record, body, encoding, text)))
    sink.close()
    return time.perf_counter() - started, _cpu() - cpu, sink.output(), records


def print_stages(path: Path, rounds: int) -> None:
    """Where each microsecond of a record goes, ours and FastWARC + resiliparse's.

    Each line runs its pipeline up to a stage (the stages add up: the difference of two
    lines is the cost of the stage between them), in one process, the lines taking turns,
    best (and median) CPU time of *rounds*, microseconds per record of the archive.
    """
    from browser_decode.warc._http import decode_payload

    records = sum(1 for _ in _warc.iter_records(str(path), heads=False))
    output = Path(tempfile.mkdtemp()) / "stages.jsonl"
    constant = vars(_warc)["decode_html"](b"x", "text/html; charset=utf-8")
    members: list[bytes] = []
    data = path.read_bytes()
    while data:
        inflater = _warc._decompressobj(31)
        inflater.decompress(data)
        used = len(data) - len(inflater.unused_data)
        members.append(data[:used])
        data = data[used:]

    def inflate() -> None:
        for member in members:
            _warc._decompressobj(31).decompress(member)

    def read() -> None:
        for _ in _warc.iter_records(str(path), keep=_warc.wanted):
            pass

    def http() -> None:
        for record in _warc.iter_records(str(path), keep=_warc.wanted):
            if not isinstance(record, str) and record.block is not None:
                block = (record.block, record.block_start, record.block_end)
                decode_payload(parse_response(*block))

    def pages(decoder: Decoder | None, write: bool) -> None:
        namespace = vars(_warc)
        original = namespace["decode_html"]
        if decoder is not None:
            namespace["decode_html"] = decoder
        try:
            with open(output if write else os.devnull, "wb") as out:
                for page in _warc.read_pages(str(path)):
                    if write:
                        out.write(_page_line(page))
                    del page  # as stream() does: see read_pages
        finally:
            namespace["decode_html"] = original

    lines: list[tuple[str, Callable[[], None]]] = [
        ("ours: inflate the members alone (ISA-L)", inflate),
        ("ours: read (inflate, frame, WARC fields, record)", read),
        ("ours: + HTTP head and payload", http),
        (
            "ours: + page records, decode_html a no-op",
            lambda: pages(lambda *a, **k: constant, False),
        ),
        ("ours: + decode_html", lambda: pages(None, False)),
        ("ours: + JSON lines into a file", lambda: pages(None, True)),
    ]
    try:
        from fastwarc.warc import ArchiveIterator, WarcRecordType
        from resiliparse.parse.encoding import bytes_to_str, detect_encoding
    except ImportError:
        pass
    else:

        def theirs(stage: int) -> None:
            target = os.devnull if stage < 3 else output
            with path.open("rb") as handle, open(target, "wb") as out:
                for record in ArchiveIterator(handle, record_types=WarcRecordType.response):
                    content_type = record.http_content_type or ""
                    if stage == 0 or content_type not in ("text/html", ""):
                        continue
                    body = record.reader.read()
                    if stage == 1:
                        continue
                    encoding, text = _their_text(record, body, bytes_to_str, detect_encoding)
                    if stage == 2:
                        continue
                    out.write(_warc_run.to_json_line(_their_page(record, body, encoding, text)))

        lines += [
            ("FastWARC: ArchiveIterator, HTTP headers", lambda: theirs(0)),
            ("FastWARC: + read the HTML bodies", lambda: theirs(1)),
            ("FastWARC: + resiliparse decode", lambda: theirs(2)),
            ("FastWARC: + page dicts, JSON lines into a file", lambda: theirs(3)),
        ]
    costs: dict[str, list[float]] = {name: [] for name, _ in lines}
    for _, run in lines:  # untimed: first use
        run()
    for _ in range(rounds):
        for name, run in lines:
            cpu = time.process_time()
            run()
            costs[name].append((time.process_time() - cpu) / records * 1e6)
    output.unlink(missing_ok=True)
    output.parent.rmdir()
    print(f"\nstages, CPU microseconds per record ({records} records; best, median of {rounds}):")
    for name, values in costs.items():
        values.sort()
        print(f"  {name:<52} {values[0]:7.1f} {values[len(values) // 2]:7.1f}")


def wrong(output: bytes, truth: dict[str, tuple[str, str]]) -> tuple[int, int, Counter[str]]:
    """Wrong pages where the page declares its encoding, where it does not, and per kind."""
    per_kind: Counter[str] = Counter()
    seen = 0
    for line in output.splitlines():
        row = json.loads(line)
        document, kind = truth[row["url"]]
        seen += 1
        if row["html"] != document:
            per_kind[kind] += 1
    assert seen == len(truth), (seen, len(truth))
    undeclared = per_kind["undeclared-utf8"] + per_kind["undeclared-legacy"]
    return sum(per_kind.values()) - undeclared, undeclared, per_kind


def print_decoder_costs(
    path: Path, truth: dict[str, tuple[str, str]], decoders: list[tuple[str, Decoder]]
) -> None:
    """Where the time goes: the decoder alone, microseconds per page, by kind of page."""
    bodies: list[tuple[bytes, str | None, str, str]] = []
    for record in _warc.iter_records(str(path)):
        if isinstance(record, str) or record.uri not in truth:
            continue
        if record.block is None:
            continue
        response = parse_response(record.block, record.block_start, record.block_end)
        bodies.append(
            (response.payload, response.content_type, record.uri or "", truth[record.uri][1])
        )
    print("\ndecoder alone, microseconds per page (pipeline overhead excluded):")
    kinds = sorted({kind for *_, kind in bodies})
    print(f"{'kind of page':<20}" + "".join(f"{name:>16}" for name, _ in decoders))
    for kind in kinds:
        costs = []
        for _, decode in decoders:
            pages = [(b, ct, url) for b, ct, url, k in bodies if k == kind]
            started = time.perf_counter()
            for body, content_type, url in pages:
                decode(body, content_type, url=url)
            costs.append((time.perf_counter() - started) / len(pages) * 1e6)
        print(f"{kind:<20}" + "".join(f"{cost:>16.0f}" for cost in costs))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=2, help="best of N timed runs")
    parser.add_argument("--keep", type=Path, help="write the WARC here and keep it")
    parser.add_argument(
        "--stdlib-json",
        action="store_true",
        help="write the JSON lines of every pipeline with the standard library, not orjson",
    )
    parser.add_argument(
        "--sink",
        choices=["file", "memory"],
        default="file",
        help="where every pipeline writes its JSON lines: a file (as the CLI) or a list",
    )
    parser.add_argument(
        "--stages",
        type=int,
        metavar="ROUNDS",
        default=0,
        help="also print where each microsecond of a record goes, ours and theirs (ROUNDS rounds)",
    )
    args = parser.parse_args()
    if args.stdlib_json:
        vars(_warc_run)["_ORJSON"] = None
    serializer = "orjson" if _warc_run._ORJSON is not None else "the standard library's json"
    jobs = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "bench.warc.gz"
        SINK["file"] = Path(tmp) / "out.jsonl" if args.sink == "file" else None
        truth, origin = build_warc(path, args.pages, args.seed)
        size = path.stat().st_size
        kinds = Counter(kind for _, kind in truth.values())
        print(f"WARC: {args.pages} responses ({len(truth)} HTML pages), {size / 1e6:.1f} MB gzip")
        print(f"text: {origin}")
        load = os.getloadavg()[0]
        print(f"cores: {jobs}, load average before the runs: {load:.2f} (other work skews timings)")
        print("pages per kind: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
        # Tasks of ~1/8 of the file per core, so that all cores get work.
        chunk = max(size // (8 * jobs), 1 << 16)
        print(
            f"JSON lines of every pipeline written by {serializer} (to_json_line) "
            f"into {'a file' if args.sink == 'file' else 'a list in memory'}"
        )
        peers: list[tuple[str, int, Decoder | None, str | None]] = [
            ("browser_decode, 1 process", 1, None, None),
            (f"browser_decode, {jobs} processes", jobs, None, None),
        ]
        resiliparse = resiliparse_decoder()
        pipeline = "FastWARC + resiliparse pipeline, 1 process"
        if resiliparse is None or fastwarc_resiliparse_run(path) is None:
            print("fastwarc/resiliparse: not installed (pip install fastwarc resiliparse)")
        else:
            peers.append((pipeline, 1, resiliparse, None))
            peers.append(("our pipeline, resiliparse's decoder, 1 process", 1, resiliparse, None))
        peers.append(("our pipeline, requests-style .text, 1 process", 1, requests_text, None))
        peers.append(
            (
                "browser_decode --detector charset-normalizer, 1 process",
                1,
                None,
                "charset-normalizer",
            )
        )

        def run_peer(
            name: str, n_jobs: int, decoder: Decoder | None, detector: str | None
        ) -> tuple[float, float, bytes, int]:
            if name == pipeline:
                result = fastwarc_resiliparse_run(path)
                assert result is not None
                return result
            return timed_run(path, n_jobs, chunk, decoder, detector)

        for peer in peers:  # untimed: first use (tables, imports, page cache) for everyone
            run_peer(*peer)
        # Best of N, the peers taking turns, so that passing load hits all of them.
        best: dict[str, tuple[float, float, bytes, int]] = {}
        ratios: list[float] = []
        rounds: list[dict[str, tuple[float, float, bytes, int]]] = []
        for _ in range(args.repeat):
            this: dict[str, tuple[float, float, bytes, int]] = {}
            rounds.append(this)
            for name, n_jobs, decoder, detector in peers:
                result = run_peer(name, n_jobs, decoder, detector)
                this[name] = result
                if name not in best:
                    best[name] = result
                else:
                    old = best[name]
                    best[name] = (min(old[0], result[0]), min(old[1], result[1]), *result[2:])
            if pipeline in this:
                ratios.append(this[pipeline][1] / this["browser_decode, 1 process"][1])
        rows = [(name, *best[name]) for name, *_ in peers]
        ours_one, ours_all = rows[0], rows[1]
        identical = ours_all[3] == ours_one[3]
        anchor = next((row for row in rows if row[0] == pipeline), None)
        print()
        print(
            "records/s: wall clock; records/CPU-s: CPU time of all processes of the run "
            "(less sensitive to other load on the machine); ratios: to the FastWARC + "
            "resiliparse pipeline (best of the rounds each)"
        )
        print(f"{'pipeline':<56} {'records/s':>10} {'records/CPU-s':>14} {'ratio/s':>8} "
              f"{'ratio/CPU-s':>11} {'wrong declared':>15} {'wrong undeclared':>17}")  # fmt: skip
        declared_n = sum(n for k, n in kinds.items() if not k.startswith("undeclared"))
        undeclared_n = len(truth) - declared_n
        for name, seconds, cpu, output, records in rows:
            bad_declared, bad_undeclared, _ = wrong(output, truth)
            wall_ratio = cpu_ratio = "-"
            if anchor is not None:
                wall_ratio = f"{anchor[1] / seconds:.2f}x"
                cpu_ratio = f"{anchor[2] / cpu:.2f}x"
            print(
                f"{name:<56} {records / seconds:>10,.0f} {records / cpu:>14,.0f} "
                f"{wall_ratio:>8} {cpu_ratio:>11} "
                f"{bad_declared:>7} / {declared_n:<5} {bad_undeclared:>7} / {undeclared_n}"
            )
        print()
        print(
            f"scaling, {jobs} processes vs 1: {ours_one[1] / ours_all[1]:.2f}x wall clock; "
            f"CPU time {ours_all[2] / ours_one[2]:.2f}x of one process's (parallel overhead), "
            f"so at most {jobs * ours_one[2] / ours_all[2]:.2f}x with {jobs} free cores"
        )
        if ratios:
            print(
                "records per CPU-second, 1 process, browser_decode / FastWARC + resiliparse, "
                f"per round: {', '.join(f'{r:.2f}x' for r in ratios)} "
                f"(median {sorted(ratios)[len(ratios) // 2]:.2f}x)"
            )
            print("per round, 1 process (records/s, records/CPU-s):")
            for name in ("browser_decode, 1 process", pipeline):
                walls = [this[name][3] / this[name][0] for this in rounds]
                cpus = [this[name][3] / this[name][1] for this in rounds]
                print(
                    f"  {name:<44} "
                    + " ".join(f"{w:,.0f}/{c:,.0f}" for w, c in zip(walls, cpus, strict=True))
                    + f"  best {max(walls):,.0f}/{max(cpus):,.0f}"
                    + f"  median {sorted(walls)[len(walls) // 2]:,.0f}"
                    + f"/{sorted(cpus)[len(cpus) // 2]:,.0f}"
                )
        decoders: list[tuple[str, Decoder]] = [("browser_decode", vars(_warc)["decode_html"])]
        if resiliparse is not None:
            decoders.append(("resiliparse", resiliparse))
        print_decoder_costs(path, truth, decoders)
        if args.stages:
            print_stages(path, args.stages)
        print(f"all-cores output byte-identical to 1 process: {identical}")
        for name, _, _, output, _ in rows:
            per_kind = wrong(output, truth)[2]
            if per_kind:
                print(f"wrong pages of {name}: {dict(sorted(per_kind.items()))}")
        return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
