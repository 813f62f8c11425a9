"""Shared test helpers: where the vendored data and the spec live, and a local HTTP server."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from ._chromium import Browser, require_chromium

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SPEC = ROOT / "spec" / "whatwg-encoding"
#: The development corpus beside the checkout (absent in a user's clone).
CORPUS = ROOT.parent / "shared" / "corpus" / "dev"


@cache
def encodings_json() -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = json.loads((SPEC / "encodings.json").read_text("utf-8"))
    return result


@cache
def indexes_json() -> dict[str, Any]:
    result: dict[str, Any] = json.loads((SPEC / "indexes.json").read_text("utf-8"))
    return result


def spec_labels() -> dict[str, str]:
    """Every label of the standard -> its encoding's name, straight from encodings.json."""
    return {
        label: encoding["name"]
        for group in encodings_json()
        for encoding in group["encodings"]
        for label in encoding["labels"]
    }


EXAMPLES = ROOT / "examples"


@dataclass(frozen=True)
class Page:
    """A page, the header it is served with, and what a browser decodes it as.

    *oracle* is the Python codec that decodes this particular body exactly as
    the standard does (checked by hand for these bytes), used as an
    independent expected text.
    """

    name: str
    body: bytes
    content_type: str | None
    encoding: str
    source: str
    oracle: str

    @property
    def text(self) -> str:
        return self.body.decode(self.oracle)


PAGES = [
    Page(
        "no_charset",
        (EXAMPLES / "utf8_no_charset.html").read_bytes(),
        "text/html",
        "UTF-8",
        "utf-8",
        "utf-8",
    ),
    Page(
        "charset_in_header",
        (EXAMPLES / "windows1251_header.html").read_bytes(),
        "text/html; charset=windows-1251",
        "windows-1251",
        "header",
        "cp1251",
    ),
    Page(
        "meta_only",
        (EXAMPLES / "shift_jis_meta.html").read_bytes(),
        "text/html",
        "Shift_JIS",
        "meta",
        "cp932",
    ),
    Page(
        "bom",
        "\ufeff<!doctype html><p>Grüße aus 日本</p>".encode("utf-16-le"),
        "text/html",
        "UTF-16LE",
        "bom",
        "utf-16",
    ),
    Page(
        "legacy_label",
        "<!doctype html><p>Prix : 5 € — c’est « bon »</p>".encode("cp1252"),
        "text/html; charset=iso-8859-1",
        "windows-1252",
        "header",
        "cp1252",
    ),
    Page(
        "no_content_type",
        (EXAMPLES / "shift_jis_meta.html").read_bytes(),
        None,
        "Shift_JIS",
        "meta",
        "cp932",
    ),
]
PAGES_BY_NAME = {page.name: page for page in PAGES}


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        page = PAGES_BY_NAME.get(self.path.strip("/").split("?")[0])
        if page is None:
            self.send_error(404)
            return
        self.send_response(200)
        if page.content_type is not None:
            self.send_header("Content-Type", page.content_type)
        self.send_header("Content-Length", str(len(page.body)))
        self.end_headers()
        self.wfile.write(page.body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Chromium for every live-browser test of the session (skipped on a user's
    machine without it, a failure in CI)."""
    executable = require_chromium()
    browser = Browser(executable)
    try:
        yield browser
    finally:
        browser.close()


@contextmanager
def serve(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """The base URL of a threaded server of *handler* on an ephemeral port of 127.0.0.1."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """The base URL of the test pages' server."""
    with serve(_Handler) as base:
        yield base
