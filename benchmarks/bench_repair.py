"""How often ``repair`` restores garbled pages exactly, next to ftfy, on the same set.

The set is made from every page of ../shared/corpus/dev and examples/: the true
text (``get_encoding(truth).decode(body)`` after removing a BOM), and the body
garbled three ways:

  * ``iso-8859-1``: requests' ``response.text`` for an undeclared ``text/*``
    response, ``body.decode("iso-8859-1")`` (reversible);
  * ``cp1252``: Python's strict cp1252 with ``errors="replace"`` as requests
    uses it (bytes 0x81 0x8D 0x8F 0x90 0x9D are lost as U+FFFD);
  * ``whatwg-1252``: the Encoding Standard's windows-1252 (reversible);

plus the ungarbled true text (``original``), which must come back unchanged.
A garbled text that equals the true text (ASCII pages, windows-1252 pages) is
counted as "not garbled" too. Exact: the output equals the true text.

Peers: ftfy's ``fix_text`` (its defaults, which also uncurl quotes, NFC, ...)
and ``fix_encoding`` (the mojibake step alone); ``decode_html`` on the true
bytes is the ceiling (what repair can reach without the header).

    python benchmarks/bench_repair.py [--corpus DIR] [--max-bytes N] [--show-failures]
                                      [--validation [SPLIT]] [--no-ftfy]

``--validation`` measures on a split of the validation corpus instead
(``tools/build_validation.py``; default ``/work/validation/report``: texts and
minimal pages in every encoding and language, none declared, so every repair
rests on detection), with a column per sample size.

(ftfy takes about a minute on the whole set; ``--max-bytes 100000`` drops the
few large pages for every fixer alike.)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from browser_decode import decode_html, get_encoding, repair

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "dev"
DEFAULT_VALIDATION = Path("/work/validation/report")
_BOMS = (b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe")
_EXAMPLES = {
    "shift_jis_meta.html": "Shift_JIS",
    "utf8_no_charset.html": "UTF-8",
    "windows1251_header.html": "windows-1251",
}
GARBLERS: dict[str, Callable[[bytes], str]] = {
    "iso-8859-1": lambda body: body.decode("iso-8859-1"),
    "cp1252": lambda body: body.decode("cp1252", errors="replace"),
    "whatwg-1252": lambda body: get_encoding("windows-1252").decode(body),  # type: ignore[union-attr]
}


def truth_text(body: bytes, truth: str) -> str:
    encoding = get_encoding(truth)
    assert encoding is not None, truth
    for bom in _BOMS:
        if body.startswith(bom):
            return encoding.decode(body[len(bom) :])
    return encoding.decode(body)


def load(corpus: Path) -> list[tuple[str, bytes, str]]:
    pages = []
    manifest = corpus / "manifest.jsonl"
    if manifest.is_file():
        for line in manifest.read_text().splitlines():
            row = json.loads(line)
            body = (corpus / row["orig"]).read_bytes()
            pages.append((row["page"], body, truth_text(body, row["encoding"])))
    for name, truth in _EXAMPLES.items():
        path = ROOT / "examples" / name
        if path.is_file():
            body = path.read_bytes()
            pages.append((name, body, truth_text(body, truth)))
    return pages


def load_validation(split: Path) -> list[tuple[str, bytes, str]]:
    """The samples of a validation split as (``file``, bytes, true text)."""
    pages = []
    for line in (split / "manifest.jsonl").read_text("utf-8").splitlines():
        row = json.loads(line)
        body = (split / row["file"]).read_bytes()
        pages.append((row["file"], body, truth_text(body, row["encoding"])))
    return pages


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--show-failures", action="store_true")
    parser.add_argument("--max-bytes", type=int, default=None, help="skip larger pages")
    parser.add_argument(
        "--validation", type=Path, nargs="?", const=DEFAULT_VALIDATION, default=None
    )
    parser.add_argument("--no-ftfy", action="store_true", help="repair only")
    args = parser.parse_args()
    if args.validation is not None:
        if not (args.validation / "manifest.jsonl").is_file():
            print(f"no validation corpus at {args.validation}: run tools/build_validation.py")
            return 0
        pages = load_validation(args.validation)
    elif not (args.corpus / "manifest.jsonl").is_file():
        print(f"corpus not found at {args.corpus}: skipped")
        return 0
    else:
        pages = load(args.corpus)
    if args.max_bytes is not None:
        pages = [page for page in pages if len(page[1]) <= args.max_bytes]
    fixers: dict[str, Callable[[str], str]] = {"repair": lambda text: repair(text).text}
    try:
        if args.no_ftfy:
            raise ImportError
        import ftfy
    except ImportError:
        print("ftfy not installed: its columns are left out")
    else:
        fixers["ftfy fix_text"] = ftfy.fix_text
        fixers["ftfy fix_encoding"] = ftfy.fix_encoding
    groups = ["iso-8859-1", "cp1252", "whatwg-1252", "not garbled"]
    size = dict.fromkeys(groups, 0)
    exact: dict[tuple[str, str], int] = {}
    ceiling = dict.fromkeys(groups, 0)
    failures: list[str] = []
    seconds = dict.fromkeys(fixers, 0.0)
    lossy = 0
    by_size: dict[tuple[str, str], list[int]] = {}  # (size, group) -> [repair ok, ceiling, n]
    for page, body, truth in pages:
        html_ok = decode_html(body).text == truth
        sample_size = Path(page).name.split("-")[0] if args.validation else "all"
        cases = [("not garbled", truth)]
        for name, garble in GARBLERS.items():
            garbled = garble(body)
            lossy += name == "cp1252" and garbled.count("\ufffd") > truth.count("\ufffd")
            cases.append(("not garbled" if garbled == truth else name, garbled))
        for group, text in cases:
            size[group] += 1
            ceiling[group] += html_ok
            for name, fix in fixers.items():
                start = time.perf_counter()
                ok = fix(text) == truth
                seconds[name] += time.perf_counter() - start
                exact[name, group] = exact.get((name, group), 0) + ok
                if name == "repair":
                    cell = by_size.setdefault((sample_size, group), [0, 0, 0])
                    cell[0] += ok
                    cell[1] += html_ok
                    cell[2] += 1
                if name == "repair" and not ok:
                    result = repair(text)
                    failures.append(
                        f"{page} {group}: {result.status} via {result.provenance}: {result.reason}"
                    )
    print(
        f"pages: {len(pages)} ({'validation split' if args.validation else 'corpus + examples'}); "
        "cells: restored exactly (not garbled: unchanged)"
    )
    print(f"{'fixer':20}" + "".join(f"{g + f' ({size[g]})':>22}" for g in groups) + "  seconds")
    for name in fixers:
        cells = [f"{100 * exact.get((name, g), 0) / max(size[g], 1):21.1f}%" for g in groups]
        print(f"{name:20}" + "".join(cells) + f"  {seconds[name]:7.2f}")
    cells = [f"{100 * ceiling[g] / max(size[g], 1):21.1f}%" for g in groups]
    print(f"{'(decode_html bytes)':20}" + "".join(cells))
    print(f"cp1252: {lossy} of {size['cp1252']} garbled texts lost bytes to U+FFFD (not undoable)")
    if args.validation:
        print("\nrepair by sample size: restored (not garbled: unchanged) / decode_html ceiling")
        sizes = sorted({z for z, _ in by_size}, key=lambda z: (not z.isdigit(), len(z), z))
        print(f"{'size':10}" + "".join(f"{g:>24}" for g in groups))
        for sample_size in sizes:
            cells = []
            for group in groups:
                ok, top, n = by_size.get((sample_size, group), [0, 0, 0])
                cells.append(f"{ok / n:7.1%} / {top / n:6.1%} ({n:4})" if n else f"{'-':>24}")
            print(f"{sample_size:10}" + "".join(f"{c:>24}" for c in cells))
    if args.show_failures:
        print("\nrepair misses:")
        for line in failures:
            print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
