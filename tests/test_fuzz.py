"""Fuzz target: decode_html and StreamDecoder on arbitrary bytes, headers and chunkings.

Properties: never raises, no lone surrogate in the text, the replacement count is
consistent, the provenance round-trips through JSON, and streaming in any chunks
gives exactly the whole-body result (bodies stay below the stream's buffer limit,
where that is guaranteed).

Runs briefly with the tests; for a long run raise the number of examples:

    BROWSER_DECODE_FUZZ_EXAMPLES=20000 python -m pytest tests/test_fuzz.py -q
"""

from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from browser_decode import DecodeResult, Provenance, StreamDecoder, decode_html
from browser_decode._labels import LABELS

EXAMPLES = int(os.environ.get("BROWSER_DECODE_FUZZ_EXAMPLES", "150"))
_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

_PIECES = st.sampled_from(
    [
        b"<", b">", b"<!--", b"-->", b"<meta", b" charset=", b"http-equiv=content-type",
        b' content="text/html; charset=', b"'", b'"', b"/", b"=", b" ", b"<?xml", b" encoding=",
        b'<?xml version="1.0" encoding="', b"?>", b"<\x00?\x00x\x00", b"\x00<\x00?\x00x",
        b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\x1b$B", b"\x1b(B", b"\x1b(J", b"\x1b(I",
        b"\x00", b"\x80", b"\xff", b"\x81\x30", b"\x8f\xa1", b"\xed\xa0\x80", b"\xf4\x90",
        b"\xd8\x00", b"\xdc\x00", b"<script>", b"</script>", b"<head>", b"<title>", b"utf-16",
        b"x-user-defined", b"replacement", b"iso-2022-kr", b"utf-7", b"koi8-r", b"shift_jis",
        b"gb18030", b"euc-jp", b"big5", b"{", b'"a":',
    ]
)  # fmt: skip
_TEXT = st.text(max_size=80)
_CODECS = ["utf-8", "utf-16-le", "utf-16-be", "cp1251", "cp932", "euc_jp", "gb18030", "big5",
           "euc_kr", "iso2022_jp", "koi8_r", "cp1252"]  # fmt: skip
_ENCODED = st.builds(
    lambda text, codec: text.encode(codec, "ignore"), _TEXT, st.sampled_from(_CODECS)
)
BODIES = st.one_of(
    st.binary(max_size=2000),
    st.lists(st.one_of(_PIECES, st.binary(max_size=8), _ENCODED), max_size=40).map(b"".join),
)
_LABEL = st.one_of(st.sampled_from(sorted(LABELS)), st.text(max_size=12))
_TYPE = st.sampled_from(
    ["text/html", "text/plain", "application/xhtml+xml", "application/rss+xml", "text/xml",
     "application/json", "application/ld+json", "text/css", "*/*", "image/svg+xml"]
)  # fmt: skip
HEADERS = st.one_of(
    st.none(),
    st.text(max_size=60),
    st.binary(max_size=60),
    _TYPE,
    st.builds(lambda t, label: f"{t}; charset={label}", _TYPE, _LABEL),
    st.builds(lambda t, label: f"{t}, {t}; charset={label}", _TYPE, _LABEL),
)
HINTS = st.one_of(st.none(), st.sampled_from(["jp", "ru", "https://example.cn/", "de"]))
DEFAULTS = st.one_of(st.none(), _LABEL)


def _check(result: DecodeResult) -> None:
    text, provenance = result
    assert isinstance(text, str)
    text.encode("utf-8")  # raises on a lone surrogate
    assert 0 <= provenance.replacements <= text.count("\ufffd")
    stored = json.loads(json.dumps(provenance.to_dict()))
    assert Provenance.from_dict(stored) == provenance


def _stream(decoder: StreamDecoder, body: bytes, sizes: list[int]) -> str:
    out, position, index = [], 0, 0
    while position < len(body):
        size = sizes[index % len(sizes)] if sizes else len(body)
        out.append(decoder.feed(body[position : position + size]))
        position += size
        index += 1
    out.append(decoder.close())
    return "".join(out)


@_SETTINGS
@given(body=BODIES, content_type=HEADERS, url=HINTS, default_encoding=DEFAULTS)
def test_decode_html_never_fails(
    body: bytes, content_type: str | bytes | None, url: str | None, default_encoding: str | None
) -> None:
    _check(decode_html(body, content_type, url=url, default_encoding=default_encoding))


@_SETTINGS
@given(
    body=BODIES,
    content_type=HEADERS,
    url=HINTS,
    sizes=st.lists(st.integers(1, 300), max_size=8),
)
def test_stream_equals_whole(
    body: bytes, content_type: str | bytes | None, url: str | None, sizes: list[int]
) -> None:
    decoder = StreamDecoder(content_type, url=url)
    text = _stream(decoder, body, sizes)
    whole = decode_html(body, content_type, url=url)
    _check(whole)
    assert text == whole.text
    assert decoder.provenance == whole.provenance
