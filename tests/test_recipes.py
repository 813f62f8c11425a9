"""The parsing recipes of docs/clients.md, run: bs4, lxml.html, lxml.etree, parsel / Scrapy.

Each parser gets the decoded ``str``. The expected texts are written by hand and
checked against the spec's index (Shift_JIS 0x81 0x60 is jis0208 pointer 32).
"""

from __future__ import annotations

import pytest

from browser_decode import decode_body, decode_html

from .conftest import indexes_json

bs4 = pytest.importorskip("bs4")
lxml_html = pytest.importorskip("lxml.html")
lxml_etree = pytest.importorskip("lxml.etree")
parsel = pytest.importorskip("parsel")

# Shift_JIS declared only in <meta>; "～" is 0x81 0x60, which Python's shift_jis reads as "〜".
LEGACY = (
    b"<!doctype html><html><head><meta charset=shift_jis><title>\x89\xbf\x8ai\x95\\</title>"
    b"</head><body><p>1.000\x81\x602.000 \x89~</p></body></html>"
)
LEGACY_TITLE, LEGACY_P = "価格表", "1.000～2.000 円"
# A feed whose encoding only its XML declaration gives.
FEED = (
    b'<?xml version="1.0" encoding="windows-1252"?>'
    b"<rss><channel><title>\x93Caf\xe9\x94</title><item><title>cr\xe8me br\xfbl\xe9e</title>"
    b"</item></channel></rss>"
)
FEED_TITLE, ITEM_TITLE = "“Café”", "crème brûlée"
XHTML = (
    b'<?xml version="1.0" encoding="windows-1252"?>'
    b'<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Caf\xe9</p></body></html>'
)


def test_the_expected_text_is_the_standard() -> None:
    assert chr(indexes_json()["jis0208"][32]) == "～"  # 0x81 0x60: (0x81-0x81)*188 + 0x60-0x40
    assert decode_html(LEGACY).text.count(LEGACY_P) == 1


def legacy_text() -> str:
    return decode_html(LEGACY, "text/html").text


def feed_text() -> str:
    return decode_body(FEED, "application/rss+xml").text


@pytest.mark.parametrize("parser", ["html.parser", "lxml"])
def test_beautifulsoup(parser: str) -> None:
    soup = bs4.BeautifulSoup(legacy_text(), parser)
    assert (soup.title.get_text(), soup.p.get_text()) == (LEGACY_TITLE, LEGACY_P)


def test_beautifulsoup_bytes_with_from_encoding_is_python_codec_text() -> None:
    """Why the recipe passes text: bs4 decodes bytes with Python's codec of that name."""
    soup = bs4.BeautifulSoup(LEGACY, "html.parser", from_encoding="shift_jis")
    assert soup.p.get_text() == "1.000〜2.000 円" != LEGACY_P
    soup = bs4.BeautifulSoup(LEGACY, "html.parser")  # its own guess: the same codec
    assert soup.p.get_text() != LEGACY_P


def test_beautifulsoup_feed() -> None:
    soup = bs4.BeautifulSoup(feed_text(), "xml")
    assert soup.find("title").get_text() == FEED_TITLE


def test_lxml_html() -> None:
    root = lxml_html.fromstring(legacy_text())
    assert (root.findtext(".//title"), root.findtext(".//p")) == (LEGACY_TITLE, LEGACY_P)


def test_lxml_rejects_a_str_with_an_xml_declaration_and_the_way_round() -> None:
    text = feed_text()
    with pytest.raises(ValueError, match="encoding declaration"):
        lxml_etree.fromstring(text)
    # The way round: UTF-8 bytes and a parser told that they are UTF-8 (the
    # declaration still says windows-1252, and the parser's encoding wins).
    root = lxml_etree.fromstring(text.encode("utf-8"), lxml_etree.XMLParser(encoding="utf-8"))
    assert root.findtext("channel/title") == FEED_TITLE
    assert root.findtext("channel/item/title") == ITEM_TITLE


def test_lxml_html_on_xhtml_the_same_way() -> None:
    text = decode_html(XHTML, "application/xhtml+xml").text
    with pytest.raises(ValueError, match="encoding declaration"):
        lxml_html.fromstring(text)
    parser = lxml_html.HTMLParser(encoding="utf-8")
    root = lxml_html.document_fromstring(text.encode("utf-8"), parser=parser)
    assert root.xpath("string(//p)") == "Café"


def test_parsel_selector() -> None:
    html = parsel.Selector(text=legacy_text())
    assert html.xpath("//p/text()").get() == LEGACY_P
    feed = parsel.Selector(text=feed_text(), type="xml")
    assert feed.xpath("//item/title/text()").get() == ITEM_TITLE


def test_scrapy_selector() -> None:
    scrapy = pytest.importorskip("scrapy")
    assert scrapy.Selector(text=legacy_text()).css("title::text").get() == LEGACY_TITLE
    assert scrapy.Selector(text=feed_text(), type="xml").xpath("//channel/title/text()").get() == (
        FEED_TITLE
    )
