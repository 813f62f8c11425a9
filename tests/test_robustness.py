"""Bad input never crashes: any bytes and any header text give text and provenance."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from browser_decode import Source, decode_html
from browser_decode._labels import LABELS

_PIECES = st.sampled_from(
    [
        b"<", b">", b"<!--", b"-->", b"<meta", b" charset=", b"http-equiv=content-type",
        b' content="text/html; charset=', b"'", b'"', b"/", b"=", b" ", b"<?xml", b" encoding=",
        b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\x1b$B", b"\x00", b"\x80", b"\xff",
        b"<script>", b"</script>", b"<head>", b"<title>", b"utf-16", b"x-user-defined",
        b"replacement", b"iso-2022-kr", b"utf-7", b"koi8-r", b"shift_jis",
    ]
)  # fmt: skip
_BODIES = st.one_of(
    st.binary(max_size=3000), st.lists(_PIECES | st.binary(max_size=8)).map(b"".join)
)
_LABEL_TEXT = st.one_of(st.sampled_from(sorted(LABELS)), st.text(max_size=20))
_HEADERS = st.one_of(
    st.none(),
    st.text(max_size=60),
    st.binary(max_size=60),
    st.builds(
        lambda t, label: f"text/{t}; charset={label}",
        st.sampled_from(["html", "plain"]),
        _LABEL_TEXT,
    ),
)


@settings(max_examples=400, deadline=None)
@given(body=_BODIES, content_type=_HEADERS)
def test_never_raises(body: bytes, content_type: str | bytes | None) -> None:
    result = decode_html(body, content_type)
    assert isinstance(result.text, str)
    assert result.source in Source
    assert result.replacements >= 0
    assert result.text.count("\ufffd") >= result.replacements


@settings(max_examples=200, deadline=None)
@given(label=_LABEL_TEXT, body=st.binary(max_size=200))
def test_any_label_in_a_meta(label: str, body: bytes) -> None:
    page = b"<meta charset=" + label.encode("utf-8", "surrogatepass") + b">" + body
    result = decode_html(page)
    assert isinstance(result.text, str)
