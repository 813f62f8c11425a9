"""One page per WHATWG encoding, built from the spec data (never from our decoders).

For every encoding of encodings.json: a few non-ASCII code points taken from its index in
indexes.json, the bytes that encode them (the Encoding Standard's encoder steps for the
pointer), and the label to declare. The expected text therefore comes from the spec alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .conftest import encodings_json, indexes_json

TEMPLATE = (
    '<!DOCTYPE html><html><head><meta charset="{label}"><title>t</title></head>'
    "<body><p>{sample}</p></body></html>"
)


@dataclass(frozen=True)
class SpecPage:
    name: str  # the encoding's name
    label: str  # its first label in encodings.json
    sample_bytes: bytes
    sample: str  # what the spec decodes sample_bytes to
    declared_in: str  # "meta", "bom" (UTF-16) or "header" (x-user-defined)

    def body(self) -> bytes:
        """The page in its encoding, declared as *declared_in* says."""
        if self.declared_in == "meta":
            head, tail = TEMPLATE.format(label=self.label, sample="\0").encode("ascii").split(b"\0")
            return head + self.sample_bytes + tail
        html = TEMPLATE.format(label=self.label, sample=self.sample)
        if self.name == "UTF-16LE":
            return b"\xff\xfe" + html.encode("utf-16-le")
        if self.name == "UTF-16BE":
            return b"\xfe\xff" + html.encode("utf-16-be")
        head, tail = TEMPLATE.format(label=self.label, sample="\0").encode("ascii").split(b"\0")
        return head + self.sample_bytes + tail

    @property
    def content_type(self) -> str:
        if self.declared_in == "header":
            return f"text/html; charset={self.label}"
        return "text/html"

    def text(self) -> str:
        """The page's text as a browser shows it."""
        return TEMPLATE.format(label=self.label, sample=self.sample)


def _pick(index: list[int | None], pointers: range, count: int = 6) -> list[int]:
    found = [p for p in pointers if p < len(index) and index[p] is not None]
    step = max(1, len(found) // count)
    return found[::step][:count]


def _double_byte(name: str) -> tuple[bytes, str]:
    indexes = indexes_json()
    if name in ("Shift_JIS", "EUC-JP", "ISO-2022-JP"):
        index = indexes["jis0208"]
        pointers = _pick(index, range(1410, 4000))  # the kanji rows
    elif name == "Big5":
        index = indexes["big5"]
        pointers = _pick(index, range(5495, 10000))  # lead 0xA4 onwards
    elif name == "EUC-KR":
        index = indexes["euc-kr"]
        pointers = _pick(index, range(8000, 12000))
    else:  # GBK, gb18030
        index = indexes["gb18030"]
        pointers = _pick(index, range(8930, 12000))  # lead 0xB0 onwards
    out = bytearray()
    for pointer in pointers:
        if name == "Shift_JIS":
            # "Let lead be pointer / 188. Let lead offset be 0x81 if lead is less than 0x1F,
            # otherwise 0xC1. Let trail be pointer % 188. Let offset be 0x40 if trail is less
            # than 0x3F, otherwise 0x41."
            lead, trail = divmod(pointer, 188)
            out += bytes(
                [lead + (0x81 if lead < 0x1F else 0xC1), trail + (0x40 if trail < 0x3F else 0x41)]
            )
        elif name == "EUC-JP":
            lead, trail = divmod(pointer, 94)
            out += bytes([lead + 0xA1, trail + 0xA1])
        elif name == "ISO-2022-JP":
            lead, trail = divmod(pointer, 94)
            out += bytes([lead + 0x21, trail + 0x21])
        elif name == "Big5":
            # "Let lead be pointer / 157 + 0x81 ... Let trail be pointer % 157. Let offset be
            # 0x40 if trail is less than 0x3F, otherwise 0x62."
            lead, trail = divmod(pointer, 157)
            out += bytes([lead + 0x81, trail + (0x40 if trail < 0x3F else 0x62)])
        elif name == "EUC-KR":
            lead, trail = divmod(pointer, 190)
            out += bytes([lead + 0x81, trail + 0x41])
        else:
            # "Let lead be pointer / 190 + 0x81. Let trail be pointer % 190. Let offset be 0x40
            # if trail is less than 0x3F, otherwise 0x41."
            lead, trail = divmod(pointer, 190)
            out += bytes([lead + 0x81, trail + (0x40 if trail < 0x3F else 0x41)])
    if name == "ISO-2022-JP":
        # One escape run: "ESC ( B" straight after "ESC $ B" is an error (the output flag).
        out = bytearray(b"\x1b$B" + out + b"\x1b(B")
    text = "".join(chr(index[p]) for p in pointers)  # type: ignore[arg-type]
    return bytes(out), text


@cache
def spec_pages() -> list[SpecPage]:
    pages = []
    indexes = indexes_json()
    for group in encodings_json():
        for encoding in group["encodings"]:
            name, label = encoding["name"], encoding["labels"][0]
            declared_in = "meta"
            if name == "UTF-8":
                sample = "Grüße 東京 ☃ 😀"
                data = sample.encode("utf-8")
            elif name in ("UTF-16LE", "UTF-16BE"):
                sample, data, declared_in = "Grüße 東京 ☃ 😀", b"", "bom"
            elif name == "replacement":
                sample, data = "", b""
            elif name == "x-user-defined":
                # "If byte is an ASCII byte, return a code point whose value is byte. Return a
                # code point whose value is 0xF780 + byte - 0x80."
                data = bytes(range(0xA0, 0x100, 9))
                sample = "".join(chr(0xF780 + b - 0x80) for b in data)
                declared_in = "header"  # in a <meta>, x-user-defined means windows-1252
            elif group["heading"] == "Legacy single-byte encodings":
                index = indexes["iso-8859-8" if name == "ISO-8859-8-I" else name.lower()]
                pointers = [p for p in range(128) if index[p] is not None and index[p] >= 0xA1]
                pointers = pointers[:: max(1, len(pointers) // 6)][:6]
                data = bytes(0x80 + p for p in pointers)
                sample = "".join(chr(index[p]) for p in pointers)
            else:
                data, sample = _double_byte(name)
            pages.append(SpecPage(name, label, data, sample, declared_in))
    return pages


def page_text(page: SpecPage) -> str:
    """What the browser shows for *page*: for "replacement", one U+FFFD for the whole body."""
    return "\ufffd" if page.name == "replacement" else page.text()
