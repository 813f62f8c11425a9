"""First use from many threads at once, or cut short: the lazily built expressions and tables.

A scraper's thread pool makes its first calls together: the expressions that the prescan and
the head scan compile on first use, and the rows of the multi-byte token tables, are then
built by several threads at the same time. Each thread must read them either not yet built
or whole. In a fresh process (nothing built yet), with compiling and row building slowed
down so that the threads take turns inside them, every thread must get what a later call in
the same process gets. And a first call stopped half way (Ctrl-C in a notebook) must leave
nothing half built behind for the next ones.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

_SCRIPT = textwrap.dedent(
    r"""
    import re, sys, threading, time

    sys.setswitchinterval(1e-4)
    from browser_decode import decode_html
    from browser_decode._decoders import _multibyte

    # Slow down what first use builds, so that threads switch inside it.
    compile_ = re.compile
    def slow_compile(*args, **kwargs):
        time.sleep(0.002)
        return compile_(*args, **kwargs)
    re.compile = slow_compile
    row_of = _multibyte.TokenDecoder.build_rows
    def slow_rows(self, leads):
        time.sleep(0.001)
        return row_of(self, leads)
    _multibyte.TokenDecoder.build_rows = slow_rows

    filler = b"<!-- " + b"x" * 50 + b" -->"
    pages = [
        # the prescan's one match to a <meta charset>
        (b'<html><head><meta charset="shift_jis"><title>t</title></head><p>\x82\xa0</p>',
         "text/html"),
        # the prescan's loop (a <meta> the one match does not settle)
        (b"<html><head><meta name=a content=b><meta content='text/html; charset=euc-kr' "
         b"http-equiv=content-type><p>\xb0\xa1</p>", "text/html"),
        (b'<html><head><meta foo="bar" charset="koi8-r"></head><body>\xf0\xd2\xc9</body>',
         "text/html"),
        # the head scan (a <meta> after the first 1024 bytes), detection
        (b"<html><head>" + filler * 30
         + b"<meta charset=windows-1251></head><p>\xcf\xf0\xe8</p>", None),
        (b"<html><head><title>x</title></head><body>"
         + "Grüße aus Köln, schöne Straße. ".encode("cp1252") * 60 + b"</body>", "text/html"),
        # the token tables: sparse errors (one row each), then dense ones (a stretch)
    ] + [
        (("<p>" + "あいうえお漢字" * 40 + "</p>").encode(codec) + b"\xff\x81 " * 3
         + bytes(range(0x80, 0x100)) * 4 + "かな".encode(codec), "text/html; charset=" + name)
        for name, codec in [("Shift_JIS", "cp932"), ("EUC-KR", "cp949"), ("gb18030", "gbk"),
                            ("Big5", "big5"), ("EUC-JP", "euc_jp")]
    ] + [
        # gb18030's four-byte letters: stretches to Python's gb18030 codec (checked first)
        (("<p>" + "שלום עברית ภาษาไทย " * 40 + "</p>").encode("gb18030"),
         "text/html; charset=gb18030"),
    ]
    threads_count = 8
    barrier = threading.Barrier(threads_count)
    results = [[] for _ in range(threads_count)]
    errors = []

    def work(index):
        barrier.wait()
        try:
            order = pages[index % len(pages):] + pages[: index % len(pages)]
            for body, content_type in order:
                found = decode_html(body, content_type)
                results[index].append((body, content_type, found.text, found.provenance))
        except BaseException as exc:
            errors.append(f"{type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(threads_count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wrong = [
        (body[:40], content_type)
        for result in results
        for body, content_type, text, provenance in result
        if (text, provenance) != (lambda r: (r.text, r.provenance))(decode_html(body, content_type))
    ]
    print(f"errors={errors} wrong={wrong}")
    """
)


@pytest.mark.parametrize("run", range(3))
def test_first_calls_from_many_threads_at_once(run: int) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "errors=[] wrong=[]", done.stdout + done.stderr


_INTERRUPTED = textwrap.dedent(
    r"""
    import re, sys
    from browser_decode import decode_html

    pages = [
        (b'<html><head><meta foo="bar" charset="koi8-r"></head><body>\xf0\xd2\xc9</body>',
         "text/html"),
        (b"<html><head>" + b"<!-- x -->" * 120 + b"<meta charset=windows-1251></head>", None),
    ]
    stop_at = int(sys.argv[1])  # (0: no interruption)
    compile_ = re.compile
    calls = 0
    def interrupted_compile(*args, **kwargs):
        global calls
        calls += 1
        if calls == stop_at:
            raise KeyboardInterrupt
        return compile_(*args, **kwargs)
    re.compile = interrupted_compile
    try:
        for body, content_type in pages:
            decode_html(body, content_type)
    except KeyboardInterrupt:
        pass
    re.compile = compile_
    print([(r.text, repr(r.provenance)) for r in (decode_html(b, t) for b, t in pages)])
    """
)


def test_a_first_call_cut_short_leaves_nothing_half_built() -> None:
    """Interrupted at each expression the first calls compile, later calls answer as in a
    process never interrupted."""

    def run(stop_at: int) -> str:
        done = subprocess.run(
            [sys.executable, "-c", _INTERRUPTED, str(stop_at)],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        return done.stdout + done.stderr[-300:]

    want = run(0)
    assert want.startswith("[('"), want
    for stop_at in range(1, 7):
        assert run(stop_at) == want, stop_at


_CODEC_CUT_SHORT = textwrap.dedent(
    r"""
    import codecs
    from browser_decode._adapters import python_codec

    register = codecs.register
    def cut_short(function):
        codecs.register = register
        raise KeyboardInterrupt
    codecs.register = cut_short
    try:
        python_codec("replacement")
    except KeyboardInterrupt:
        pass
    print(codecs.decode(b"<p>", python_codec("replacement")) == "\ufffd")
    """
)


def test_the_replacement_codec_registered_after_a_first_call_cut_short() -> None:
    """The adapters' ``replacement`` codec, registered on first use: a first call stopped
    before the registration leaves the next call to make it (it was marked as made)."""
    done = subprocess.run(
        [sys.executable, "-c", _CODEC_CUT_SHORT], capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip() == "True", done.stdout + done.stderr[-500:]
