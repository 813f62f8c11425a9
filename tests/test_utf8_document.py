"""``to_utf8_document``: every reader takes the copy for UTF-8 and reads back the same text.

The pages come from the spec data (tests/_spec_pages.py), one per WHATWG encoding; the
expected text is the page's template with the declared label replaced by ``utf-8``, built here,
never taken from the function under test. Readers: ``decode_html`` / ``decode_body``,
lxml.html, lxml.etree (XML), bs4 with html.parser and with lxml, and a live headless Chromium.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import bs4
import lxml.etree
import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from browser_decode import decode_body, decode_html, to_utf8_document
from browser_decode._head_scan import head_scan
from browser_decode._prescan import PRESCAN_LIMIT, prescan

from ._chromium import Browser, PageServer
from ._spec_pages import TEMPLATE, SpecPage, spec_pages

PAGES = spec_pages()
IDS = [page.name for page in PAGES]
BOM = b"\xef\xbb\xbf"

# Declarations in other places and forms: (template with {label} and {sample}, the label).
PADDING = "<!--" + "x" * PRESCAN_LIMIT + "-->"
FORMS = {
    "http-equiv": '<!DOCTYPE html><html><head><meta http-equiv="Content-Type" '
    'content="text/html; charset={label}"><title>t</title></head><body><p>{sample}</p></body>'
    "</html>",
    "xml": '<?xml version="1.0" encoding="{label}"?><html xmlns="http://www.w3.org/1999/xhtml">'
    "<head><title>t</title></head><body><p>{sample}</p></body></html>",
    "head-scan": "<!DOCTYPE html><html><head><title>t</title>"
    + PADDING
    + '<meta charset="{label}"></head><body><p>{sample}</p></body></html>',
    "two-metas": '<html><head><meta charset="{label}"><meta charset="{label}"></head>'
    "<body><p>{sample}</p></body></html>",
    "undeclared": "<html><head><title>t</title></head><body><p>{sample}</p></body></html>",
}


def expected(template: str, sample: str) -> str:
    return template.format(label="utf-8", sample=sample)


def lxml_text(document: bytes) -> str:
    found = lxml.html.document_fromstring(document).findtext(".//p")
    assert found is not None
    return found


def bs4_text(document: bytes, builder: str) -> str:
    paragraph = bs4.BeautifulSoup(document, builder).find("p")
    assert paragraph is not None
    return paragraph.get_text()


@pytest.mark.parametrize("bom", [True, False])
@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_every_reader_reads_the_copy_of_every_encoding(page: SpecPage, bom: bool) -> None:
    text = TEMPLATE.format(label=page.label, sample=page.sample)
    document = to_utf8_document(text, bom=bom)
    assert document.startswith(BOM) is bom
    want = expected(TEMPLATE, page.sample)
    assert document.removeprefix(BOM) == want.encode("utf-8")
    result = decode_html(document)
    assert result.text == want
    assert result.encoding == "UTF-8"
    assert result.provenance.source == ("bom" if bom else "meta")
    assert lxml_text(document) == page.sample
    assert bs4_text(document, "html.parser") == page.sample
    assert bs4_text(document, "lxml") == page.sample


@pytest.mark.parametrize("bom", [True, False])
@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("name", ["Shift_JIS", "windows-1251", "UTF-16LE", "x-user-defined"])
def test_every_form_of_declaration(name: str, form: str, bom: bool) -> None:
    page = next(p for p in PAGES if p.name == name)
    template = FORMS[form]
    document = to_utf8_document(template.format(label=page.label, sample=page.sample), bom=bom)
    want = expected(template, page.sample)
    assert document.removeprefix(BOM) == want.encode("utf-8")
    data = document.removeprefix(BOM)
    for found in (prescan(data[:PRESCAN_LIMIT]), head_scan(data)):
        assert found is None or found.encoding.name == "UTF-8"
    assert decode_html(document).text == want
    if form == "undeclared" and not bom:
        return  # nothing says UTF-8 then (only valid UTF-8 does): what the BOM is there for
    assert lxml_text(document) == page.sample
    assert bs4_text(document, "html.parser") == page.sample
    if form == "xml":
        assert decode_body(document, "application/xhtml+xml").text == want
        root = lxml.etree.fromstring(document)
        paragraph = root.find(".//{http://www.w3.org/1999/xhtml}p")
        assert paragraph is not None and paragraph.text == page.sample


def test_only_declarations_change() -> None:
    # A <meta> that is not a declaration (no pragma), one inside <script> beyond the prescan,
    # one in the body: kept as they are. The label utf-8 or utf8, in any case, is kept too.
    text = (
        '<html><head><meta name="x" content="charset=shift_jis"><meta charset="UTF8">'
        + PADDING
        + "<script>'<meta charset=\"big5\">'</script></head><body><meta charset=gbk>é</body>"
    )
    assert to_utf8_document(text, bom=False) == text.encode("utf-8")
    # lxml honours a <meta> even in the body (docs/clients.md); with the BOM, never.
    body = lxml.html.document_fromstring(to_utf8_document(text)).find(".//body")
    assert body is not None and body.text_content() == "é"


def test_leading_u_feff_and_surrogates() -> None:
    assert to_utf8_document("\ufeffx", bom=False) == BOM + "\ufeffx".encode()
    assert decode_html(to_utf8_document("\ufeffx", bom=False)).text == "\ufeffx"
    assert to_utf8_document("a\ud800b", bom=False) == "a\ufffdb".encode()


def test_wrong_type() -> None:
    with pytest.raises(TypeError, match="decoded text"):
        to_utf8_document(b"<p>x</p>")  # type: ignore[arg-type]


# -- the browser ---------------------------------------------------------------------------

_FRAMES = """
(async () => {
  const frames = [...document.querySelectorAll('iframe')];
  return frames.map(f => {
    const d = f.contentDocument;
    const p = d.querySelector('p');
    return [d.characterSet, p === null ? null : p.textContent];
  });
})()
"""


@pytest.fixture(scope="module")
def chromium(browser: Browser) -> Iterator[tuple[Browser, PageServer]]:
    server = PageServer()
    try:
        yield browser, server
    finally:
        server.close()


@pytest.mark.browser
def test_chromium_reads_every_copy_as_utf8(chromium: tuple[Browser, PageServer]) -> None:
    """Each copy in its own iframe: BOM or not, and with a server that sends a wrong charset."""
    browser, server = chromium
    cases: list[tuple[str, str | None, str]] = []
    frames = []
    for number, page in enumerate(PAGES):
        for form, template in [("meta", TEMPLATE), *FORMS.items()]:
            if form == "xml":
                continue  # served as text/html, an XML declaration is not read by Chromium
            text = template.format(label=page.label, sample=page.sample)
            for bom, content_type in (
                (True, "text/html"),
                (True, "text/html; charset=windows-1252"),
                (False, "text/html"),
            ):
                if form != "meta" and bom != (form == "undeclared"):
                    # The other forms test the rewrite (without a BOM), except "undeclared",
                    # where nothing declares UTF-8 and only the BOM can.
                    continue
                if form == "undeclared" and content_type != "text/html":
                    continue
                path = f"/{number}/{form}/{bom}/{len(frames)}"
                url = server.add(path, to_utf8_document(text, bom=bom), content_type)
                frames.append(f'<iframe src="{url}"></iframe>')
                cases.append((f"{page.name} {form} bom={bom} {content_type}", None, page.sample))
    parent = server.add("/frames", "".join(frames).encode(), "text/html; charset=utf-8")
    browser.load(parent)
    answers = browser.evaluate(_FRAMES)
    assert len(answers) == len(cases)
    wrong = [
        (what, answer)
        for (what, _, sample), answer in zip(cases, answers, strict=True)
        if answer != ["UTF-8", sample]
    ]
    assert wrong == [], json.dumps(wrong[:5], ensure_ascii=False)


@pytest.mark.browser
def test_chromium_reads_an_xhtml_copy(chromium: tuple[Browser, PageServer]) -> None:
    browser, server = chromium
    page = next(p for p in PAGES if p.name == "windows-1252")
    text = FORMS["xml"].format(label=page.label, sample=page.sample)
    for bom in (True, False):
        url = server.add(f"/xhtml/{bom}", to_utf8_document(text, bom=bom), "application/xhtml+xml")
        browser.load(url)
        answer = browser.evaluate(
            "[document.characterSet, document.querySelector('p').textContent]"
        )
        assert answer == ["UTF-8", page.sample]


def test_the_html_prescan_view_of_an_xml_declaration() -> None:
    # Out of bytes, the prescan's "get an XML encoding" finds `encoding` even after the
    # declaration's ">"; decode_html acts on it, so it is rewritten (and only then).
    text = '<?xml version="1.0"?><p>x encoding="koi8-r" é</p>'
    assert decode_html(text.encode()).encoding == "KOI8-R"
    document = to_utf8_document(text, bom=False)
    assert document == text.replace("koi8-r", "utf-8").encode()
    assert decode_html(document).text == text.replace("koi8-r", "utf-8")
    kept = '<?xml version="1.0"?><meta charset=utf-8><p>encoding="koi8-r"</p>'
    assert to_utf8_document(kept, bom=False) == kept.encode()


_FRAGMENTS = [
    '<meta charset="{}">',
    "<meta charset={}>",
    '<meta http-equiv="content-type" content="text/html; charset={}">',
    "<meta content='charset={}' http-equiv=Content-Type>",
    '<meta name=x content="charset={}">',
    '<?xml version="1.0" encoding="{}"?>',
    ' encoding="{}" ',
    "<script>",
    "</script>",
    "<title>",
    "</title>",
    "<!--",
    "-->",
    "<head>",
    "<body>",
    "<p>é東</p>",
    "x" * 300,
    " ",
    "<",
    ">",
    '"',
    "'",
]
_LABELS = ["shift_jis", "koi8-r", "utf-16le", "UTF-8", "x-user-defined", "bogus", "gb2312", ""]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(_FRAGMENTS), st.sampled_from(_LABELS)), min_size=1, max_size=14
    )
)
def test_decode_html_reads_any_bomless_copy_as_utf8(parts: list[tuple[str, str]]) -> None:
    text = "".join(fragment.format(label) for fragment, label in parts)
    document = to_utf8_document(text, bom=False)
    result = decode_html(document)
    assert result.encoding == "UTF-8", (document, result.provenance)
    assert result.text == document.decode("utf-8")
    with_bom = to_utf8_document(text)
    assert with_bom == BOM + document
    assert decode_html(with_bom).text == result.text
