#!/usr/bin/env python3
"""The validation corpus: browser_decode, its peers and a live Chromium, in one run.

Reads one split of the corpus built by ``tools/build_validation.py`` (default
``/work/validation/report``; ``tune`` is for tuning and never reported). For
every sample the truth is ``get_encoding(encoding).decode(bytes)`` and a
detector is right when it gives exactly that text:

* ``browser_decode``: ``decode_html(body, "text/html")`` (no hint), its text;
* ``browser_decode+hint``: the same with the obvious hint, ``url=`` the
  top-level domain of the sample's language (``"de"`` for German, ``"tw"``
  for Traditional Chinese, ...; none for English and Esperanto);
* ``chardet``, ``charset-normalizer``, ``cchardet``, ``chardetng``
  (``chardetng-py``, Firefox's detector, UTF-8 allowed) and ``chardetng+tld``:
  their answer mapped onto a WHATWG encoding through browser_decode's label
  table (as ``bench_detect.py`` does) and decoded by browser_decode's decoders;
  a name no browser has counts as wrong;
* ``chromium``: on the short pages (``page24``, ``page64``, ``page200``) only,
  a live headless Chromium loads each page from 127.0.0.1 served as
  ``Content-Type: text/html`` with no charset; right when ``document.body.textContent``
  equals the text of the page's ``<p>`` under the true encoding.

Printed: exact-text rate per size and detector, per encoding and detector,
per (encoding, size) for browser_decode, the short pages with Chromium, and the
calibration of browser_decode's ``provenance.score`` (score bucket -> answers,
share right; share of the right answers among those scoring >= 0.9, and of the
wrong answers scoring >= 0.9).

    python benchmarks/bench_validation.py [SPLIT_DIR] [--no-peers] [--no-chromium]
                                          [--json FILE] [--misses N]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from bench_detect import peers, to_whatwg  # the sibling script

from browser_decode import decode_html, get_encoding

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SPLIT = Path("/work/validation/report")
SIZES = ("64", "256", "1024", "4096", "full", "page24", "page64", "page200")
PAGES = ("page24", "page64", "page200")
PAGE_HEAD = "<html><head><title>x</title></head><body><p>"
PAGE_TAIL = "</p></body></html>"
BUCKETS = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0)

#: language -> the top-level domain a page in it would most likely have (the obvious hint).
TLD = {
    "fr": "fr", "de": "de", "es": "es", "it": "it", "pt": "pt", "nl": "nl", "sv": "se",
    "da": "dk", "nb": "no", "nn": "no", "fi": "fi", "is": "is", "fo": "fo", "ca": "cat",
    "gl": "es", "eu": "es", "ga": "ie", "gd": "uk", "cy": "uk", "br": "fr", "oc": "fr",
    "ast": "es", "af": "za", "id": "id", "ms": "my", "sq": "al", "et": "ee", "lt": "lt",
    "lv": "lv", "cs": "cz", "sk": "sk", "pl": "pl", "hu": "hu", "sl": "si", "hr": "hr",
    "ro": "ro", "bs": "ba", "sr-Latn": "rs", "ru": "ru", "uk": "ua", "bg": "bg", "be": "by",
    "sr": "rs", "mk": "mk", "el": "gr", "he": "il", "yi": "il", "ar": "eg", "fa": "ir",
    "ur": "pk", "tr": "tr", "ku": "tr", "mt": "mt", "vi": "vn", "th": "th", "ja": "jp",
    "ko": "kr", "zh-CN": "cn", "zh-TW": "tw", "zh-HK": "hk",
}  # fmt: skip


@dataclass
class Sample:
    file: str
    encoding: str
    language: str
    size: str
    kind: str
    body: bytes
    truth: str


@dataclass
class Answer:
    right: bool
    encoding: str | None
    score: float | None = None
    source: str | None = None


def load(split: Path) -> list[Sample]:
    samples = []
    with open(split / "manifest.jsonl", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            body = (split / row["file"]).read_bytes()
            encoding = get_encoding(row["encoding"])
            assert encoding is not None, row
            samples.append(
                Sample(
                    row["file"],
                    row["encoding"],
                    row["language"],
                    row["size"],
                    row["kind"],
                    body,
                    encoding.decode(body),
                )
            )
    return samples


Judge = Callable[[Sample], Answer]


def ours(hinted: bool) -> Judge:
    def judge(sample: Sample) -> Answer:
        url = TLD.get(sample.language) if hinted else None
        result = decode_html(sample.body, "text/html", url=url)
        p = result.provenance
        return Answer(result.text == sample.truth, p.encoding, p.score, str(p.source))

    return judge


def mapped(detect: Callable[[bytes, Sample], str | None]) -> Judge:
    def judge(sample: Sample) -> Answer:
        try:
            answer = detect(sample.body, sample)
        except Exception:  # a peer that crashes on a sample is wrong on it
            answer = None
        name = to_whatwg(answer) if answer else None
        encoding = get_encoding(name) if name else None
        right = encoding is not None and encoding.decode(sample.body) == sample.truth
        return Answer(right, name)

    return judge


def _cchardet(body: bytes) -> str | None:
    import cchardet

    return to_whatwg(cchardet.detect(body)["encoding"])


class _Isolated:
    """A detector run in a child process; a sample that kills the child is a wrong
    answer (cchardet 2.4.1 segfaults on some inputs)."""

    def __init__(self, _detector: Callable[[bytes], str | None]) -> None:
        self._pool = ProcessPoolExecutor(max_workers=1)
        self.crashes = 0

    def __call__(self, body: bytes, _sample: Sample) -> str | None:
        try:
            return self._pool.submit(_cchardet, body).result()
        except BrokenProcessPool:
            self.crashes += 1
            self._pool = ProcessPoolExecutor(max_workers=1)
            return None


def judges(with_peers: bool) -> dict[str, Judge]:
    found: dict[str, Judge] = {"browser_decode": ours(False), "browser_decode+hint": ours(True)}
    if not with_peers:
        return found
    for name, detector in peers().items():
        if name == "cchardet":  # crashes the interpreter on a few samples: run it apart
            found[name] = mapped(_Isolated(detector))
        else:
            found[name] = mapped(lambda body, _s, d=detector: d(body))  # type: ignore[misc]
    try:
        import chardetng_py
    except ImportError:
        print("chardetng-py not installed: its columns are left out")
    else:

        def ng(body: bytes, sample: Sample, tld: bool = False) -> str | None:
            hint = TLD.get(sample.language) if tld else None
            return str(
                chardetng_py.detect(body, allow_utf8=True, tld=hint.encode() if hint else None)
            )

        found["chardetng"] = mapped(ng)
        found["chardetng+tld"] = mapped(lambda body, sample: ng(body, sample, True))
    return found


def chromium_answers(samples: list[Sample]) -> dict[str, Answer] | None:
    """Live Chromium on the short pages, or ``None`` when no browser is installed.

    A page the browser does not finish loading in 20 s is tried once more in a
    fresh browser; if that fails too it counts as wrong (``encoding`` None).
    """
    sys.path.insert(0, str(ROOT))
    from tests._chromium import Browser, BrowserError, PageServer, find_chromium

    executable = find_chromium()
    if executable is None:
        print("no Chromium found: the chromium column is left out")
        return None
    answers = {}
    server = PageServer()
    browser = Browser(executable, timeout=20)
    failed = 0
    try:
        for number, sample in enumerate(samples):
            if sample.size not in PAGES:
                continue
            url = server.add(f"/p{number}", sample.body, "text/html")
            expected = sample.truth.removeprefix(PAGE_HEAD).removesuffix(PAGE_TAIL)
            for attempt in range(2):
                try:
                    browser.load(url)
                    value = browser.evaluate("[document.characterSet, document.body.textContent]")
                except BrowserError:
                    browser.close()
                    browser = Browser(executable, timeout=20)
                    if attempt:
                        failed += 1
                        answers[sample.file] = Answer(False, None)
                    continue
                answers[sample.file] = Answer(value[1] == expected, value[0])
                break
    finally:
        browser.close()
        server.close()
    if failed:
        print(f"chromium: {failed} pages did not load (counted as wrong)")
    return answers


def rate(oks: list[bool]) -> str:
    return f"{sum(oks) / len(oks):7.1%}" if oks else "      -"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("split", nargs="?", type=Path, default=DEFAULT_SPLIT)
    parser.add_argument("--no-peers", action="store_true", help="only browser_decode")
    parser.add_argument("--no-chromium", action="store_true", help="skip the live browser")
    parser.add_argument("--json", type=Path, help="write every answer to this JSON Lines file")
    parser.add_argument("--misses", type=int, default=20, help="show the N commonest misses")
    args = parser.parse_args()
    if not (args.split / "manifest.jsonl").is_file():
        print(f"no validation corpus at {args.split}: run tools/build_validation.py")
        return 0
    samples = load(args.split)
    print(f"split: {args.split} ({len(samples)} samples)")
    answers: dict[str, dict[str, Answer]] = {}
    seconds: dict[str, float] = {}
    for name, judge in judges(not args.no_peers).items():
        start = time.perf_counter()
        answers[name] = {sample.file: judge(sample) for sample in samples}
        seconds[name] = time.perf_counter() - start
    if not args.no_chromium:
        start = time.perf_counter()
        found = chromium_answers(samples)
        if found is not None:
            answers["chromium"] = found
            seconds["chromium"] = time.perf_counter() - start
    names = list(answers)

    def oks(name: str, keep: Callable[[Sample], bool]) -> list[bool]:
        table = answers[name]
        return [table[s.file].right for s in samples if s.file in table and keep(s)]

    width = max(len(n) for n in names) + 1
    print("\nexact text by size (all encodings)")
    print(f"{'detector':{width}}" + "".join(f"{s:>8}" for s in SIZES) + f"{'all':>8}  seconds")
    for name in names:
        cells = [rate(oks(name, lambda s, size=size: s.size == size)) for size in SIZES]  # type: ignore[misc]
        flat = oks(name, lambda s: True)
        print(f"{name:{width}}" + " ".join(cells) + f" {rate(flat)}  {seconds[name]:7.1f}")

    encodings = sorted({s.encoding for s in samples})
    columns = [n for n in names if n != "chromium"]
    print("\nexact text by encoding (all sizes)")
    print(f"{'encoding':15}{'samples':>8}" + "".join(f"{n[:13]:>14}" for n in columns))
    for encoding in encodings:
        total = sum(s.encoding == encoding for s in samples)
        cells = [rate(oks(n, lambda s, e=encoding: s.encoding == e)) for n in columns]  # type: ignore[misc]
        print(f"{encoding:15}{total:8}" + "".join(f"{c:>14}" for c in cells))

    print("\nbrowser_decode (no hint): exact text by encoding and size")
    print(f"{'encoding':15}" + "".join(f"{s:>8}" for s in SIZES))
    for encoding in encodings:
        cells = [
            rate(
                oks("browser_decode", lambda s, e=encoding, z=size: (s.encoding, s.size) == (e, z))
            )  # type: ignore[misc]
            for size in SIZES
        ]
        print(f"{encoding:15}" + " ".join(cells))

    short = [s for s in samples if s.size in PAGES]
    if short:
        print(
            "\nshort pages (minimal HTML, no charset): exact texts, all pages | legacy "
            "encodings only (no UTF-8: browsers do not detect it)"
        )
        print(f"{'detector':{width}}" + "".join(f"{s:>24}" for s in PAGES))
        for name in names:
            cells = []
            for size in PAGES:
                got = oks(name, lambda s, z=size: s.size == z)  # type: ignore[misc]
                legacy = oks(name, lambda s, z=size: s.size == z and s.encoding != "UTF-8")  # type: ignore[misc]
                cells.append(f"{sum(got)}/{len(got)} | {sum(legacy)}/{len(legacy)}" if got else "-")
            print(f"{name:{width}}" + "".join(f"{c:>24}" for c in cells))

    calibration(samples, answers["browser_decode"])
    misses: Counter[tuple[str, str, str, str | None]] = Counter()
    for sample in samples:
        answer = answers["browser_decode"][sample.file]
        if not answer.right:
            misses[sample.encoding, sample.language, sample.size, answer.encoding] += 1
    if misses and args.misses:
        print("\nbrowser_decode's commonest misses (true encoding, language, size -> answer):")
        for (encoding, language, size, answer), n in misses.most_common(args.misses):
            print(f"  {n:4} x {encoding} {language} {size} -> {answer}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            for sample in samples:
                row = {"file": sample.file, "encoding": sample.encoding, "size": sample.size}
                for name in names:
                    if sample.file in answers[name]:
                        a = answers[name][sample.file]
                        row[name] = [a.right, a.encoding, a.score, a.source]
                f.write(json.dumps(row) + "\n")
    return 0


def calibration(samples: list[Sample], answers: dict[str, Answer]) -> None:
    """Score bucket -> answers and share right, for detected answers (source ``detected``)."""
    by_source: dict[str, list[bool]] = defaultdict(list)
    buckets: dict[int, list[bool]] = defaultdict(list)
    high: list[bool] = []
    wrong_scores: list[float] = []
    for sample in samples:
        answer = answers[sample.file]
        by_source[answer.source or "?"].append(answer.right)
        if answer.source != "detected" or answer.score is None:
            continue
        index = next(i for i in range(len(BUCKETS) - 1, -1, -1) if answer.score >= BUCKETS[i])
        buckets[index].append(answer.right)
        if answer.score >= 0.9:
            high.append(answer.right)
        if not answer.right:
            wrong_scores.append(answer.score)
    print("\ncalibration of provenance.score (browser_decode, no hint; source 'detected')")
    print(f"{'score':14}{'answers':>8}{'right':>8}{'share right':>13}")
    for index in sorted(buckets):
        low = BUCKETS[index]
        high_edge = BUCKETS[index + 1] if index + 1 < len(BUCKETS) else None
        label = f"[{low:.2f}, {high_edge:.2f})" if high_edge is not None else f"{low:.2f}"
        got = buckets[index]
        print(f"{label:14}{len(got):8}{sum(got):8}{sum(got) / len(got):13.1%}")
    if high:
        print(f"score >= 0.9: {len(high)} answers, {sum(high) / len(high):.2%} right (goal >= 99%)")
    wrong = sum(not ok for oks in by_source.values() for ok in oks)
    if wrong_scores or wrong:
        share = sum(score >= 0.9 for score in wrong_scores) / max(len(wrong_scores), 1)
        print(
            f"wrong detected answers: {len(wrong_scores)}, {share:.1%} of them with score >= 0.9 "
            "(goal <= 5%)"
        )
    print("by source: " + ", ".join(f"{k} {sum(v)}/{len(v)}" for k, v in sorted(by_source.items())))


if __name__ == "__main__":
    sys.exit(main())
