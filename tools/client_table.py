#!/usr/bin/env python3
"""The client table of docs/clients.md: what each HTTP client's own text gives, measured.

Serves each case from a local server, fetches it with requests, httpx and aiohttp
(and builds the Scrapy response its downloader would), and compares each client's own
text with the text a browser shows; the last column is ``decode_response``.

    python tools/client_table.py            # print the table
    python tools/client_table.py --check    # fail if docs/clients.md differs (the tests run this)
    python tools/client_table.py --update   # rewrite the table in docs/clients.md
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.metadata import version
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "clients.md"
START = "<!-- client-table:start (tools/client_table.py --update) -->"
END = "<!-- client-table:end -->"


@dataclass(frozen=True)
class Case:
    title: str
    content_type: str | None
    body: bytes
    #: what a browser shows (written by hand; the tests check decode_response against it)
    text: str


CASES = [
    Case(
        "UTF-8, `text/html` without charset",
        "text/html",
        "<p>Grüße aus München — 東京</p>".encode(),
        "<p>Grüße aus München — 東京</p>",
    ),
    Case(
        "`charset=windows-1251` in the header",
        "text/html; charset=windows-1251",
        "<p>Привет, мир! Как дела?</p>".encode("cp1251"),
        "<p>Привет, мир! Как дела?</p>",
    ),
    Case(
        "Shift_JIS declared only in `<meta>`",
        "text/html",
        b"<meta charset=shift_jis><p>" + "東京の価格表".encode("cp932") + b"</p>",
        "<meta charset=shift_jis><p>東京の価格表</p>",
    ),
    Case(
        "UTF-16LE with a BOM, no charset",
        "text/html",
        "\ufeff<p>Grüße aus 日本</p>".encode("utf-16-le"),
        "<p>Grüße aus 日本</p>",
    ),
    Case(
        "`charset=iso-8859-1` (browsers: windows-1252), `€` in the body",
        "text/html; charset=iso-8859-1",
        "<p>Prix : 5 € — c’est « bon »</p>".encode("cp1252"),
        "<p>Prix : 5 € — c’est « bon »</p>",
    ),
    Case(
        "`charset=Shift_JIS`, `～` (0x81 0x60) in the body",
        "text/html; charset=Shift_JIS",
        b"<p>1.000\x81\x602.000</p>",
        "<p>1.000～2.000</p>",
    ),
    Case(
        "UTF-8 BOM and `charset=iso-8859-1` in the header (the BOM wins)",
        "text/html; charset=iso-8859-1",
        "\ufeff<p>Grüße</p>".encode(),
        "<p>Grüße</p>",
    ),
    Case(
        "windows-1252 without any declaration",
        "text/html",
        "<p>Le café crème de la façade, déjà réputé à Montréal : très goûté.</p>".encode("cp1252"),
        "<p>Le café crème de la façade, déjà réputé à Montréal : très goûté.</p>",
    ),
    Case(
        "RSS feed declared windows-1252 in `<?xml?>` (`application/rss+xml`)",
        "application/rss+xml",
        b'<?xml version="1.0" encoding="windows-1252"?><rss><title>\x93Caf\xe9\x94</title></rss>',
        '<?xml version="1.0" encoding="windows-1252"?><rss><title>“Café”</title></rss>',
    ),
    Case(
        "`charset=iso-2022-kr` (the replacement encoding), a `<script>`",
        "text/html; charset=iso-2022-kr",
        b"<script>alert(1)</script>",
        "\ufffd",
    ),
]


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        index = int(self.path.strip("/"))
        case = CASES[index]
        self.send_response(200)
        if case.content_type is not None:
            self.send_header("Content-Type", case.content_type)
        self.send_header("Content-Length", str(len(case.body)))
        self.end_headers()
        self.wfile.write(case.body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def _server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def _shown(text: str, expected: str) -> str:
    """A cell: ``right``, or ``wrong`` with the first characters where the text differs."""
    if text == expected:
        return "right"
    pairs = zip(text, expected, strict=False)
    start = next((i for i, (a, b) in enumerate(pairs) if a != b), min(len(text), len(expected)))
    piece = text[start : start + 8]
    if not piece:
        return "wrong (text cut short)"
    shown = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in piece)
    shown = shown.replace("`", "'").replace("|", "\\|")
    return f"wrong: `{shown}`"


def _cell(get: Callable[[], str], expected: str) -> str:
    try:
        return _shown(get(), expected)
    except Exception as error:  # a client that raises is a result too
        return f"raises {type(error).__name__}"


def _requests(url: str) -> str:
    import requests

    return str(requests.get(url, timeout=10).text)


def _httpx(url: str) -> str:
    import httpx

    return httpx.get(url).text


def _aiohttp(url: str) -> str:
    import aiohttp

    async def fetch() -> str:
        async with aiohttp.ClientSession() as session, session.get(url) as response:
            return str(await response.text())

    return asyncio.run(fetch())


def _scrapy(case: Case) -> Any:
    from scrapy.http import Headers
    from scrapy.responsetypes import responsetypes

    headers = Headers({} if case.content_type is None else {"Content-Type": case.content_type})
    cls = responsetypes.from_args(headers=headers, url="https://example.com/", body=case.body)
    return cls(url="https://example.com/", headers=headers, body=case.body)


def _scrapy_text(case: Case) -> str:
    return str(_scrapy(case).text)


def _decode_response(url: str, expected: str) -> str:
    import requests

    from browser_decode import decode_response

    result = decode_response(requests.get(url, timeout=10))
    return f"{_shown(result.text, expected)}: {result.provenance}"


def measure() -> list[list[str]]:
    rows = []
    with _server() as base:
        for index, case in enumerate(CASES):
            url = f"{base}/{index}"
            cells = [
                _cell(partial(fetch, url), case.text) for fetch in (_requests, _httpx, _aiohttp)
            ]
            scrapy = _cell(partial(_scrapy_text, case), case.text)
            rows.append([case.title, *cells, scrapy, _decode_response(url, case.text)])
    return rows


def table(rows: list[list[str]] | None = None) -> str:
    versions = ", ".join(
        f"{name} {version(dist)}"
        for name, dist in [
            ("requests", "requests"),
            ("httpx", "httpx"),
            ("aiohttp", "aiohttp"),
            ("Scrapy", "scrapy"),
        ]
    )
    header = [
        "page served as",
        "requests `.text`",
        "httpx `.text`",
        "aiohttp `.text()`",
        "Scrapy `.text`",
        "`decode_response`",
    ]
    lines = [
        f"Measured by `tools/client_table.py` against a local server ({versions}):",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
    ]
    lines += ["| " + " | ".join(row) + " |" for row in (measure() if rows is None else rows)]
    return "\n".join(lines) + "\n"


def documented() -> str:
    """The table as docs/clients.md has it now."""
    document = DOC.read_text("utf-8")
    return document[document.index(START) + len(START) + 1 : document.index(END)]


def _replace(document: str, new_table: str) -> str:
    start = document.index(START) + len(START)
    end = document.index(END)
    return document[:start] + "\n" + new_table + document[end:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--check", action="store_true", help="fail if docs/clients.md differs")
    group.add_argument("--update", action="store_true", help="rewrite docs/clients.md")
    args = parser.parse_args()
    new_table = table()
    if not (args.check or args.update):
        print(new_table, end="")
        return 0
    document = DOC.read_text("utf-8")
    updated = _replace(document, new_table)
    if args.update:
        DOC.write_text(updated, "utf-8")
        return 0
    if updated != document:
        diff = difflib.unified_diff(
            document.splitlines(), updated.splitlines(), "docs/clients.md", "measured", lineterm=""
        )
        print("\n".join(diff))
        print(
            "the client table differs: run python tools/client_table.py --update", file=sys.stderr
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
