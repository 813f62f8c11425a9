"""Exact-text accuracy of ``decode_body`` on the development corpus, next to peers.

Every page of ../shared/corpus/dev is served with the Content-Type of its kind
and no charset: feeds as ``application/rss+xml`` / ``application/atom+xml`` /
``application/xml`` (by their root element), HTML pages as ``text/html``,
plain-text and UTF-16 files as ``text/plain``. A decode is exact when its text
equals the true text: ``get_encoding(truth).decode(body)`` after removing a BOM.

Peers (run in the same process on the same bytes):
  * w3lib ``html_to_unicode(content_type, body)`` (pip install w3lib);
  * requests' ``Response.text`` (if installed): ISO-8859-1 for ``text/*``
    without charset, else its ``apparent_encoding`` guess;
  * "meta regex": the common scraper idiom, a regex for ``charset=`` in
    ``<meta>`` or ``encoding=`` in ``<?xml`` over the first 4096 bytes, Python
    codec decode, else UTF-8 (errors replaced);
  * ``decode_html`` (ours, ignoring the type).

    python benchmarks/bench_body.py [--corpus DIR] [--show-failures]

Exits 0 with a message when the corpus is absent.
"""

from __future__ import annotations

import argparse
import codecs
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

from browser_decode import decode_body, decode_html, get_encoding

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "dev"
_BOMS = (b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe")
_META = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)|<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9_.:-]+)""",
    re.IGNORECASE,
)


def content_type_for(row: dict[str, object], body: bytes) -> str:
    """The Content-Type a server would send for this page, without a charset."""
    kind = row["doc_type"]
    if kind == "feed":
        head = body[:4096]
        if b"<rss" in head or b"<rdf:RDF" in head:
            return "application/rss+xml"
        if b"<feed" in head:
            return "application/atom+xml"
        return "application/xml"
    if kind == "html":
        return "text/html"
    return "text/plain"


def truth_text(body: bytes, truth: str) -> str:
    encoding = get_encoding(truth)
    assert encoding is not None, truth
    for bom in _BOMS:
        if body.startswith(bom):
            body = body[len(bom) :]
            break
    return encoding.decode(body)


def meta_regex(body: bytes) -> str:
    found = _META.search(body[:4096])
    if found:
        label = (found.group(1) or found.group(2)).decode("ascii")
        try:
            codecs.lookup(label)
        except LookupError:
            pass
        else:
            return body.decode(label, errors="replace")
    return body.decode("utf-8", errors="replace")


def _w3lib() -> Callable[[str, bytes], str] | None:
    try:
        from w3lib.encoding import html_to_unicode
    except ImportError:
        return None
    return lambda content_type, body: html_to_unicode(content_type, body)[1]


def _requests() -> Callable[[str, bytes], str] | None:
    try:
        from requests.models import Response
        from requests.utils import get_encoding_from_headers
    except ImportError:
        return None

    def text(content_type: str, body: bytes) -> str:
        response = Response()
        response._content = body
        response.headers["Content-Type"] = content_type
        response.encoding = get_encoding_from_headers(response.headers)
        return response.text

    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--show-failures", action="store_true")
    args = parser.parse_args()
    manifest = args.corpus / "manifest.jsonl"
    if not manifest.is_file():
        print(f"corpus not found at {args.corpus}: skipped")
        return 0
    rows = [json.loads(line) for line in manifest.read_text().splitlines() if line.strip()]
    w3lib = _w3lib()
    deciders: dict[str, Callable[[str, bytes], str]] = {
        "decode_body": lambda ct, body: decode_body(body, ct).text,
        "decode_html": lambda ct, body: decode_html(body, ct).text,
        "meta regex": lambda ct, body: meta_regex(body),
    }
    if w3lib is not None:
        deciders["w3lib html_to_unicode"] = w3lib
    else:
        print("w3lib not installed: its column is left out")
    requests_text = _requests()
    if requests_text is not None:
        deciders["requests .text"] = requests_text
    groups: dict[str, list[dict[str, object]]] = {}
    for row in rows:
        groups.setdefault(str(row["doc_type"]), []).append(row)
        xml = row["xml_encoding"]
        declared = get_encoding(str(xml)) if xml else None
        row["declaration_correct"] = row["doc_type"] != "feed" or (
            declared is not None and declared.name == row["encoding"]
        )
    exact: dict[tuple[str, str], int] = {}
    failures: list[str] = []
    for row in rows:
        body = (args.corpus / str(row["orig"])).read_bytes()
        ct = content_type_for(row, body)
        truth = truth_text(body, str(row["encoding"]))
        for name, decide in deciders.items():
            ok = decide(ct, body) == truth
            for group in (str(row["doc_type"]), "all"):
                exact[name, group] = exact.get((name, group), 0) + ok
            if row["declaration_correct"] and row["doc_type"] == "feed":
                exact[name, "feed, correct decl."] = (
                    exact.get((name, "feed, correct decl."), 0) + ok
                )
            if name == "decode_body" and not ok:
                result = decode_body(body, ct)
                failures.append(
                    f"{row['page']} {row['doc_type']:5} truth={row['encoding']} "
                    f"xml={row['xml_encoding']} got={result.provenance} ({ct})"
                )
    sizes = {group: len(members) for group, members in groups.items()}
    sizes["feed, correct decl."] = sum(
        1 for row in rows if row["doc_type"] == "feed" and row["declaration_correct"]
    )
    sizes["all"] = len(rows)
    order = ["feed", "feed, correct decl.", "html", "text", "utf16", "all"]
    print("exact-text accuracy, served with the type of the page and no charset")
    print(f"{'decoder':24}" + "".join(f"{g + f' ({sizes[g]})':>26}" for g in order))
    for name in deciders:
        cells = [f"{100 * exact.get((name, g), 0) / sizes[g]:25.1f}%" for g in order]
        print(f"{name:24}" + "".join(cells))
    print("\nfeeds served as text/xml (no charset) instead of their own type")
    feeds = [row for row in rows if row["doc_type"] == "feed"]
    for name, decide in deciders.items():
        hits = 0
        for row in feeds:
            body = (args.corpus / str(row["orig"])).read_bytes()
            hits += decide("text/xml", body) == truth_text(body, str(row["encoding"]))
        print(f"{name:24}{100 * hits / len(feeds):23.1f}%")
    wrong = [row for row in rows if not row["declaration_correct"]]
    print(f"\nfeeds whose XML declaration is not the truth as a WHATWG label: {len(wrong)}")
    for row in wrong:
        print(f"  {row['page']} declares {row['xml_encoding']!r}, truth {row['encoding']}")
    if args.show_failures:
        print("\ndecode_body failures:")
        for line in failures:
            print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
