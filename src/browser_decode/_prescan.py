"""Stage 3: the HTML Standard's "prescan a byte stream to determine its encoding".

https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding

The algorithm is followed step by step over the first 1024 bytes, with "get an
attribute", "the algorithm for extracting a character encoding from a meta
element" and "get an XML encoding". Running out of bytes anywhere aborts the
scan; then only an XML declaration at byte 0 can still give an answer.
"""

from __future__ import annotations

import re
import sys

from ._get_an_encoding import ENCODINGS, Encoding, get_encoding
from ._hint import EncodingHint
from ._infra import ASCII_WHITESPACE, ascii_lowercase, isomorphic_decode
from ._result import Confidence, Source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, NamedTuple
else:
    from ._frozen import NamedTuple

# "The user agent may wait for more bytes of the resource to be available ...
# the end condition being that the user agent has seen 1024 bytes or more ...
# (This step is optional, but) ... implementations ... are encouraged to ...
# limit the prescan to 1024 bytes."
# -- https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm
PRESCAN_LIMIT: Final = 1024

_SPACE: Final = frozenset(b"\t\n\x0c\r ")
_SPACE_OR_SLASH: Final = frozenset(b"\t\n\x0c\r /")
_SPACE_OR_GT: Final = frozenset(b"\t\n\x0c\r >")
_SPACE_OR_GT_SEARCH: Final = re.compile(rb"[\t\n\x0c\r >]")
_LETTERS: Final = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


class _OutOfBytes(Exception):
    """ "the user agent ... runs out of bytes": abort the prescan."""


class Attribute(NamedTuple):
    name: str
    value: str
    #: where the value starts in the byte stream (its bytes are contiguous)
    value_start: int


class Declaration(NamedTuple):
    encoding: Encoding
    label: str
    offset: int

    def hint(self) -> EncodingHint:
        """This declaration as the hint of the ``meta`` stage."""
        return EncodingHint(
            self.encoding,
            Source.META,
            Confidence.TENTATIVE,
            label=self.label or None,
            offset=self.offset,
        )


def _byte(data: bytes, position: int) -> int:
    if position >= len(data):
        raise _OutOfBytes
    return data[position]


def _lower(byte: int) -> str:
    # "If it is in the range 0x41 (A) to 0x5A (Z): Append the code point b+0x20"
    return chr(byte + 0x20) if 0x41 <= byte <= 0x5A else chr(byte)


# The common shapes of an attribute in one regular expression: the byte loop
# below is exact but slow in Python, and the head scan calls it for every
# attribute of every tag in the head. ``name`` may start with "=" ("If it is
# 0x3D (=), and the attribute name is longer than the empty string" does not
# apply to the first byte); a value is double-quoted, single-quoted, unquoted
# (then it must be followed by a terminator, so it did not run out of bytes),
# or empty before ">". Anything else takes the byte loop.
_ATTRIBUTE: Final = re.compile(
    rb"[\t\n\x0c\r /]*"
    rb"(?P<name>[^\t\n\x0c\r />][^\t\n\x0c\r />=]*)"
    rb"(?:[\t\n\x0c\r ]*=[\t\n\x0c\r ]*"
    rb"(?:\"(?P<dq>[^\"]*)\""
    rb"|'(?P<sq>[^']*)'"
    rb"|(?P<uq>[^\t\n\x0c\r >\"'][^\t\n\x0c\r >]*)(?=[\t\n\x0c\r >])"
    rb"|(?=>)))?"
    rb"(?P<after>[\t\n\x0c\r ]*)"
)


def _fast_match(data: bytes, position: int) -> tuple[re.Match[bytes], str | None, int] | None:
    """Match :data:`_ATTRIBUTE`: (match, value group or None, end), or ``None`` for the loop."""
    match = _ATTRIBUTE.match(data, position)
    if match is None or match.end() >= len(data):
        return None
    for group in ("dq", "sq", "uq"):
        if match.start(group) >= 0:
            return match, group, match.end(group) + (group != "uq")
    after = match.start("after")
    if after > match.end("name"):
        return match, None, after  # "name=" before ">": the value is empty
    # No value: the name ends at "/" or ">", or at spaces not followed by "=".
    if (after == match.end() and data[after] in b"/>") or (
        after < match.end() and data[match.end()] != 0x3D
    ):
        return match, None, match.end()
    return None


def _fast_attribute(data: bytes, position: int) -> tuple[Attribute, int] | None:
    """:func:`get_an_attribute` for the common shapes, or ``None`` to take the byte loop."""
    fast = _fast_match(data, position)
    if fast is None:
        return None
    match, group, end = fast
    name = match["name"].lower().decode("latin-1")
    if group is None:
        return Attribute(name, "", end), end
    value = match[group].lower().decode("latin-1")
    return Attribute(name, value, match.start(group)), end


def skip_attributes(data: bytes, position: int) -> int:
    """Repeatedly get an attribute until there is none; the position of the ">"."""
    while True:
        fast = _fast_match(data, position)
        if fast is not None:
            position = fast[2]
            continue
        attribute, position = _get_an_attribute(data, position)
        if attribute is None:
            return position


def get_an_attribute(data: bytes, position: int) -> tuple[Attribute | None, int]:
    """The prescan's "get an attribute"; returns the attribute (or ``None``) and the position.

    https://html.spec.whatwg.org/multipage/parsing.html#concept-get-attributes-when-sniffing
    Raises :class:`_OutOfBytes` when the bytes end first.
    """
    fast = _fast_attribute(data, position)
    if fast is not None:
        return fast
    return _get_an_attribute(data, position)


def _get_an_attribute(data: bytes, position: int) -> tuple[Attribute | None, int]:
    """The byte loop of "get an attribute", step by step."""
    # "1. If the byte at position is one of 0x09 (HT), 0x0A (LF), 0x0C (FF),
    # 0x0D (CR), 0x20 (SP), or 0x2F (/), then advance position to the next byte
    # and redo this step."
    while _byte(data, position) in _SPACE_OR_SLASH:
        position += 1
    # "2. If the byte at position is 0x3E (>), then abort the get an attribute
    # algorithm. There isn't one."
    if data[position] == 0x3E:
        return None, position
    # "3. Otherwise, the byte at position is the start of the attribute name."
    name: list[str] = []
    value: list[str] = []
    # "4. Process the byte at position as follows:"
    while True:
        byte = _byte(data, position)
        if byte == 0x3D and name:  # "="
            position += 1
            break  # "jump to the step below labeled value"
        if byte in _SPACE:
            # "6. Spaces: If the byte at position is one of 0x09 ... then advance
            # position to the next byte, then, repeat this step."
            while _byte(data, position) in _SPACE:
                position += 1
            # "7. If the byte at position is not 0x3D (=), abort the get an
            # attribute algorithm. The attribute's name is the value of
            # attribute name, its value is the empty string."
            if data[position] != 0x3D:
                return Attribute("".join(name), "", position), position
            # "8. Advance position past the 0x3D (=) byte."
            position += 1
            break
        if byte in (0x2F, 0x3E):  # "/" or ">"
            return Attribute("".join(name), "", position), position
        name.append(_lower(byte))
        # "5. Advance position to the next byte and return to the previous step."
        position += 1
    # "9. Value: If the byte at position is one of 0x09 ... advance position to
    # the next byte, then, repeat this step."
    while _byte(data, position) in _SPACE:
        position += 1
    # "10. Process the byte at position as follows:"
    byte = data[position]
    if byte in (0x22, 0x27):  # '"' or "'"
        quote = byte
        start = position + 1
        while True:
            # "2. Quote loop: Advance position to the next byte."
            position += 1
            byte = _byte(data, position)
            # "3. If the value of the byte at position is the value of b, then
            # advance position to the next byte and abort"
            if byte == quote:
                return Attribute("".join(name), "".join(value), start), position + 1
            value.append(_lower(byte))
    if byte == 0x3E:
        return Attribute("".join(name), "", position), position
    start = position
    value.append(_lower(byte))
    position += 1
    # "11. Process the byte at position as follows: If it is 0x09 (HT), 0x0A (LF),
    # 0x0C (FF), 0x0D (CR), 0x20 (SP), or 0x3E (>): Abort ..."
    while (byte := _byte(data, position)) not in _SPACE_OR_GT:
        value.append(_lower(byte))
        # "12. Advance position to the next byte and return to the previous step."
        position += 1
    return Attribute("".join(name), "".join(value), start), position


def extract_from_meta_content(content: str) -> tuple[int, int] | None:
    """The "algorithm for extracting a character encoding from a meta element".

    https://html.spec.whatwg.org/multipage/urls-and-fetching.html#algorithm-for-extracting-a-character-encoding-from-a-meta-element
    Returns the span of the label within *content* (the caller gets the
    encoding), or ``None`` for "nothing".
    """
    lowered = ascii_lowercase(content)
    position = 0
    while True:
        # "2. Loop: Find the first seven characters in s after position that are
        # an ASCII case-insensitive match for the word "charset". If no such
        # match is found, return nothing."
        found = lowered.find("charset", position)
        if found < 0:
            return None
        position = found + 7
        # "3. Skip any ASCII whitespace that immediately follow the word "charset""
        while position < len(content) and content[position] in ASCII_WHITESPACE:
            position += 1
        # "4. If the next character is not a U+003D EQUALS SIGN (=), then move
        # position to point just before that next character, and jump back to
        # the step labeled loop."
        if position >= len(content) or content[position] != "=":
            continue
        # "5. Skip any ASCII whitespace that immediately follow the equals sign."
        position += 1
        while position < len(content) and content[position] in ASCII_WHITESPACE:
            position += 1
        # "6. Process the next character as follows:"
        if position >= len(content):
            return None  # "If there is no next character: Return nothing."
        char = content[position]
        if char in "\"'":
            # "If it is a U+0022 (") and there is a later U+0022 (") in s / ...
            # Return the result of getting an encoding from the substring that
            # is between this character and the next earliest occurrence of
            # this character." An unmatched quote: "Return nothing."
            end = content.find(char, position + 1)
            return None if end < 0 else (position + 1, end)
        # "Otherwise: Return the result of getting an encoding from the substring
        # that consists of this character up to but not including the first
        # ASCII whitespace or U+003B SEMICOLON character (;), or the end of s,
        # whichever comes first."
        end = position
        while end < len(content) and content[end] not in ASCII_WHITESPACE + ";":
            end += 1
        return (position, end)


def _meta(data: bytes, position: int, tag_start: int) -> tuple[Declaration | None, int]:
    """The steps for a ``<meta`` tag; *position* points after ``<meta``."""
    # "2. Let attribute list be an empty list of strings. 3. Let got pragma be
    # false. 4. Let need pragma be null. 5. Let charset be the null value"
    attribute_list: set[str] = set()
    got_pragma = False
    need_pragma: bool | None = None
    charset: Encoding | None = None
    charset_failed = False
    label = ""
    while True:
        # "6. Attributes: Get an attribute and its value. If no attribute was
        # sniffed, then jump to the processing step below."
        attribute, position = get_an_attribute(data, position)
        if attribute is None:
            break
        # "7. If the attribute's name is already in attribute list, then return
        # to the step labeled attributes. 8. Add the attribute's name to
        # attribute list."
        if attribute.name in attribute_list:
            continue
        attribute_list.add(attribute.name)
        if attribute.name == "http-equiv":
            # "If the attribute's value is "content-type", then set got pragma to true."
            got_pragma = got_pragma or attribute.value == "content-type"
        elif attribute.name == "content":
            # "Apply the algorithm for extracting a character encoding from a
            # meta element ... If a character encoding is returned, and if
            # charset is still set to null, let charset be the encoding
            # returned, and set need pragma to true."
            span = extract_from_meta_content(attribute.value)
            if span is not None and charset is None and not charset_failed:
                start = attribute.value_start + span[0]
                written = isomorphic_decode(data[start : start + span[1] - span[0]])
                encoding = get_encoding(written)
                if encoding is not None:
                    charset, label, need_pragma = encoding, written, True
        elif attribute.name == "charset":
            # "Let charset be the result of getting an encoding from the
            # attribute's value, and set need pragma to false."
            start = attribute.value_start
            written = isomorphic_decode(data[start : start + len(attribute.value)])
            charset = get_encoding(written)
            charset_failed = charset is None
            label, need_pragma = written, False
    # "11. Processing: If need pragma is null, then jump to the step below
    # labeled next byte. 12. If need pragma is true but got pragma is false,
    # then jump to the step below labeled next byte. 13. If charset is failure,
    # then jump to the step below labeled next byte."
    if need_pragma is None or (need_pragma and not got_pragma) or charset is None:
        return None, position
    # "14. If charset is UTF-16BE/LE, then set charset to UTF-8.
    # 15. If charset is x-user-defined, then set charset to windows-1252."
    return Declaration(_html_override(charset), label, tag_start), position


def meta_tag(data: bytes, tag_start: int, after: int) -> tuple[Declaration | None, int]:
    """The steps for a ``<meta`` tag (:func:`_meta`): *tag_start* is its "<", *after* the
    end of its name. The declaration, or ``None`` and the position of the tag's last byte."""
    # The commonest tags in one match each (see charset_meta_declaration): ``<meta
    # charset=label>`` (its one attribute, then ">"): "Let charset be the result of
    # getting an encoding from the attribute's value"; ``<meta http-equiv=content-type
    # content="...">`` (in either order, then ">"): got pragma is true, and the content
    # attribute's value gives charset (need pragma: true). For failure, nothing (the tag
    # ends at its ">").
    simple = (_SCAN or _scan_expressions())[1].match(data, tag_start)
    if simple is not None:
        written = simple[simple.lastindex or 0]
        return charset_meta_declaration(written, tag_start, False), simple.end() - 1
    pragma = (_LAZY or _expressions())[0].match(data, tag_start)
    if pragma is not None:
        written = pragma[pragma.lastindex or 0]
        return charset_meta_declaration(written, tag_start, True), pragma.end() - 1
    return _meta(data, after, tag_start)


def _pragma_label(content: bytes) -> tuple[Encoding, str] | None:
    """The encoding (steps 14-15 applied) and label as written that a content attribute's
    value (as written) declares, or ``None``; kept for the values met."""
    if content in _PRAGMA_LABELS:
        return _PRAGMA_LABELS[content]
    # (the value as "get an attribute" gives it, one code point a byte; the algorithm
    # matches "charset" in any case, so bytes A-Z need not be lower-cased first)
    span = extract_from_meta_content(content.decode("latin-1"))
    known = None
    if span is not None:
        written = isomorphic_decode(content[span[0] : span[1]])
        encoding = get_encoding(written)
        if encoding is not None:
            known = (_html_override(encoding), written)
    if len(_PRAGMA_LABELS) >= _LABELS_KEPT:
        _PRAGMA_LABELS.clear()
    _PRAGMA_LABELS[content] = known
    return known


def _html_override(encoding: Encoding) -> Encoding:
    if encoding.name in ("UTF-16BE", "UTF-16LE"):
        return ENCODINGS["UTF-8"]
    if encoding.name == "x-user-defined":
        return ENCODINGS["windows-1252"]
    return encoding


# Tokens in one C call. The loops below (and the head scan's) are exact but cost Python
# per tag; these expressions consume whole tokens of the common shapes exactly as the
# loops would, so a loop can start from where they stop. Each alternative either
# consumes a complete token, ending where the loop's step ends, or fails; the
# alternatives are told apart by their first bytes and each is deterministic (no
# backtracking can give another reading of the same bytes), and a token matches only
# when all the bytes its step reads are there (a lookahead past its last byte is
# positive; the negative ones look within it), so an ``endpos`` only stops it early.
# Anything else (running out of bytes, the rare shapes) is left to the loop.

#: "get an attribute" (HTML §13.2.3.2), one attribute after the leading spaces and
#: slashes: the name (its first byte may be "=": "If it is 0x3D (=), and the attribute
#: name is longer than the empty string"), then "=" and a value (quoted; ">": "abort
#: ... its value is the empty string"; unquoted, up to "0x09 ... 0x20 (SP), or 0x3E
#: (>)"), or spaces not followed by "=" ("7. If the byte at position is not 0x3D (=),
#: abort"), or "/" or ">" right after the name.
_ATTRIBUTE_TOKEN: Final = (
    rb"[^\t\n\x0c\r />][^\t\n\x0c\r />=]*"
    rb"(?:[\t\n\x0c\r ]*=[\t\n\x0c\r ]*"
    rb"(?:\"[^\"]*\"|'[^']*'|(?=>)|[^\t\n\x0c\r >\"'][^\t\n\x0c\r >]*(?=[\t\n\x0c\r >]))"
    rb"|[\t\n\x0c\r ]+(?=[^\t\n\x0c\r =])"
    rb"|(?=[/>]))"
)
#: An atomic group where the ``re`` module has them (3.11+), else a plain one. The
#: tokens' repetitions are deterministic (see above): giving back what they consumed
#: never lets the rest match, so an atomic group matches exactly the same, and fails at
#: once instead of backtracking byte by byte through a tag or a raw text whose end is
#: not in the bytes (~30 ns a byte: up to 2-4 ms over the head scan's 64 KiB).
ATOMIC: Final = rb"(?>" if sys.version_info >= (3, 11) else rb"(?:"
#: "Repeatedly get an attribute until no further attributes can be found", and the ">".
#: Where no quote comes before the first ">", that one at once: no step of "get an
#: attribute" reads past a ">" but a quoted value's (names, the spaces around "=" and
#: unquoted values end at ">"; a value that starts with ">" is empty), so the last
#: attribute ends there and the next finds none. (The two alternatives end alike where
#: both match.)
ATTRIBUTES_TOKEN: Final = (
    rb"(?:"
    + ATOMIC
    + rb"[^>\"']*)>|"
    + ATOMIC
    + rb"(?:[\t\n\x0c\r /]*"
    + _ATTRIBUTE_TOKEN
    + rb")*)[\t\n\x0c\r /]*>)"
)
#: The same where no quoted value holds ">": then the tag ends at its first ">".
_ATTRIBUTES_NO_GT: Final = ATTRIBUTES_TOKEN.replace(rb"[^\"]*", rb"[^\">]*").replace(
    rb"[^']*", rb"[^'>]*"
)
#: A ``<meta`` (after "<") that cannot declare an encoding (see :func:`may_declare`): no
#: "charset" in any case up to its end.  (The lookahead reads the bytes up to the first
#: ">" in runs without "c" or "C", and checks what follows each "c" or "C": not
#: "charset" at every byte as ``(?![^>]*(?i:charset))`` would; without a ">", the
#: attributes after it fail as well.)
NO_CHARSET_META_TOKEN: Final = (
    rb"(?i:meta)(?=[\t\n\x0c\r /])(?="
    + ATOMIC
    + rb"[^>Cc]*(?:[Cc](?!(?i:harset))[^>Cc]*)*)>)"
    + _ATTRIBUTES_NO_GT
)
#: A comment: "the first 0x3E byte which is preceded by two 0x2D bytes ... (The two 0x2D
#: bytes can be the same as those in the '<!--' sequence.)"
_COMMENT_TOKEN: Final = rb"<!(?=--)(?s:.*?)-->"
#: "<!", "</" or "<?": "the first 0x3E byte (>) that comes after the 0x3C byte"
_BOGUS_TOKEN: Final = rb"<(?:!(?!--)|\?|/(?=[^A-Za-z]))[^>]*>"

#: The prescan's tokens other than a ``<meta`` that may declare: text ("Any other byte:
#: Do nothing"), "<" followed by another byte, comments, "<!"/"</"/"<?" ones and tags
#: ("the next 0x09, 0x0A, 0x0C, 0x0D, 0x20, or 0x3E byte", then the attributes).
#: (Compiled on first use, see _SCAN.)
_PRESCAN_TOKENS_PATTERN: Final = (
    rb"(?:[^<]+|<(?:"
    # (the name ends where the loop's search ends it: not shorter, or an attribute
    # could start inside it)
    rb"(?![Mm][Ee][Tt][Aa][\t\n\x0c\r /])/?[A-Za-z][^\t\n\x0c\r >]*(?=[\t\n\x0c\r >])"
    + ATTRIBUTES_TOKEN
    + rb"|"
    + _BOGUS_TOKEN[1:]
    + rb"|"
    + NO_CHARSET_META_TOKEN
    + rb"|"
    + _COMMENT_TOKEN[1:]
    + rb"|(?=[^A-Za-z!/?])"
    # (the alternatives after "<" are told apart by the bytes that follow it, so their
    # order, the commonest first, changes nothing but the time)
    + rb"))*"
)


#: A ``<meta>`` whose one attribute is ``charset`` (the group that matched is its value as
#: written): then ``_meta`` gives "the result of getting an encoding from the attribute's
#: value" (or, for failure, nothing, and the scan goes on after the ">"). (Compiled on
#: first use, see _SCAN.)
_CHARSET_META_PATTERN: Final = (
    rb"<[Mm][Ee][Tt][Aa][\t\n\x0c\r /]+[Cc][Hh][Aa][Rr][Ss][Ee][Tt][\t\n\x0c\r ]*=[\t\n\x0c\r ]*"
    rb"(?:\"([^\"]*)\"|'([^']*)'|([^\t\n\x0c\r >\"'][^\t\n\x0c\r >]*)(?=[\t\n\x0c\r >]))"
    rb"[\t\n\x0c\r /]*>"
)

_SPACES: Final = rb"[\t\n\x0c\r ]*"
_HTTP_EQUIV_CONTENT_TYPE: Final = (
    rb"[Hh][Tt][Tt][Pp]-[Ee][Qq][Uu][Ii][Vv]"
    + _SPACES
    + rb"="
    + _SPACES
    + rb"(?:\"(?i:content-type)\"|'(?i:content-type)'|(?i:content-type)(?=[\t\n\x0c\r >]))"
)
_CONTENT_QUOTED: Final = (
    rb"[Cc][Oo][Nn][Tt][Ee][Nn][Tt]" + _SPACES + rb"=" + _SPACES + rb"(?:\"([^\"]*)\"|'([^']*)')"
)
#: A ``<meta>`` whose two attributes are ``http-equiv`` with the value "content-type" and
#: ``content`` with a quoted value (the group that matched is that value as written), in
#: either order: the names end at "=" (after spaces), each attribute starts after spaces
#: and "/" ("get an attribute"'s step 1), and the tag ends at the ">" after them.
_PRAGMA_META_PATTERN: Final = (
    rb"<[Mm][Ee][Tt][Aa][\t\n\x0c\r /]+(?:"
    + _HTTP_EQUIV_CONTENT_TYPE
    + rb"[\t\n\x0c\r /]*"
    + _CONTENT_QUOTED
    + rb"|"
    + _CONTENT_QUOTED
    + rb"[\t\n\x0c\r /]*"
    + _HTTP_EQUIV_CONTENT_TYPE
    + rb")[\t\n\x0c\r /]*>"
)


def may_declare(data: bytes) -> bool:
    """Whether a ``<meta>`` in *data* can declare an encoding at all.

    :func:`_meta` returns a declaration only for a ``charset`` attribute (its
    lower-cased name is "charset") or a ``content`` attribute whose value holds
    "charset" ("Find the first seven characters in s after position that are an
    ASCII case-insensitive match for the word "charset""); names and values are
    runs of consecutive bytes, so either way the bytes hold "charset" in some
    case. Without it, the scan of *data* finds nothing, whatever its tags: it
    runs out of bytes (the prescan then tries the XML declaration) or, in the
    head scan, ends. One C-level search, instead of a Python loop over the tags.
    """
    # (the usual spelling first; rfind: about twice as fast as ``in`` / ``find`` on
    # markup, CPython 3.11)
    return b"charset" in data or data.lower().rfind(b"charset") >= 0


def skip_token(data: bytes, position: int) -> int:
    """The prescan's step at a "<" (*position*, not the last byte) that does not start a
    ``<meta``: the position of the token's last byte, or *position* itself where the
    "<" starts no token. Raises ``_OutOfBytes`` when the token does not end in *data*.
    """
    if data.startswith(b"<!--", position):
        # "Advance the position pointer so that it points at the first 0x3E
        # byte which is preceded by two 0x2D bytes ... and comes after the
        # 0x3C byte that was found. (The two 0x2D bytes can be the same as
        # those in the '<!--' sequence.)"
        end = data.find(b"-->", position + 2)
        if end < 0:
            raise _OutOfBytes
        return end + 2
    if data[position + 1] in _LETTERS or (
        data[position + 1] == 0x2F and _byte(data, position + 2) in _LETTERS
    ):
        # "1. Advance the position pointer so that it points at the next
        # 0x09 (HT), 0x0A (LF), 0x0C (FF), 0x0D (CR), 0x20 (SP), or 0x3E (>)
        # byte. 2. Repeatedly get an attribute until no further attributes
        # can be found, then jump to the step below labeled next byte."
        name_end = _SPACE_OR_GT_SEARCH.search(data, position + 1)
        if name_end is None:
            raise _OutOfBytes
        return skip_attributes(data, name_end.start())
    if data[position + 1] in b"!/?":
        # "Advance the position pointer so that it points at the first 0x3E
        # byte (>) that comes after the 0x3C byte that was found."
        end = data.find(b">", position + 1)
        if end < 0:
            raise _OutOfBytes
        return end
    return position


def _scan(data: bytes) -> Declaration | None:
    position = 0
    # "2. Prescan for UTF-16 XML declarations: If position points to: A sequence
    # of bytes starting with: 0x3C, 0x0, 0x3F, 0x0, 0x78, 0x0 ... Return
    # UTF-16LE. ... 0x0, 0x3C, 0x0, 0x3F, 0x0, 0x78 ... Return UTF-16BE."
    if data.startswith(b"<\x00?\x00x\x00"):
        return Declaration(ENCODINGS["UTF-16LE"], "", 0)
    if data.startswith(b"\x00<\x00?\x00x"):
        return Declaration(ENCODINGS["UTF-16BE"], "", 0)
    if not may_declare(data):
        raise _OutOfBytes  # (what the loop below would end with: see may_declare)
    length = len(data)
    tokens = (_SCAN or _scan_expressions())[0].match
    while True:
        # (the common tokens at once: see _PRESCAN_TOKENS_PATTERN)
        position = tokens(data, position).end()  # type: ignore[union-attr]
        # "3. Loop: If position points to:"
        position = data.find(b"<", position)  # "Any other byte: Do nothing"
        if position < 0 or position + 1 >= length:
            raise _OutOfBytes
        tag_start = position
        if (
            data[position + 1 : position + 5].lower() == b"meta"
            and _byte(data, position + 5) in _SPACE_OR_SLASH
        ):
            # "1. Advance the position pointer so that it points at the next
            # 0x09, 0x0A, 0x0C, 0x0D, 0x20, or 0x2F byte"
            found, position = meta_tag(data, tag_start, position + 5)
            if found is not None:
                return found
        else:
            position = skip_token(data, position)
        # "4. Next byte: Move position so it points at the next byte in the input
        # byte stream, and return to the step above labeled loop."
        position += 1


def get_an_xml_encoding(data: bytes) -> Declaration | None:
    """The HTML Standard's "get an XML encoding" (when sniffing).

    https://html.spec.whatwg.org/multipage/parsing.html#concept-get-xml-encoding-when-sniffing
    """
    # "2. If encodingPosition does not point to the start of a byte sequence
    # 0x3C, 0x3F, 0x78, 0x6D, 0x6C (`<?xml`), then return failure."
    if not data.startswith(b"<?xml"):
        return None
    # "3. Let xmlDeclarationEnd be a pointer to the next byte in the input byte
    # stream which is 0x3E (>). If there is no such byte, then return failure."
    if data.find(b">") < 0:
        return None
    # "4. Set encodingPosition to the position of the first occurrence of the
    # subsequence of bytes 0x65, 0x6E, 0x63, 0x6F, 0x64, 0x69, 0x6E, 0x67
    # (`encoding`) at or after the current encodingPosition."
    position = data.find(b"encoding")
    if position < 0:
        return None
    # "5. Advance encodingPosition past the 0x67 (g) byte. 6. While the byte at
    # encodingPosition is less than or equal to 0x20 ..., advance"
    position += 8
    while position < len(data) and data[position] <= 0x20:
        position += 1
    # "7. If the byte at encodingPosition is not 0x3D (=), then return failure."
    if position >= len(data) or data[position] != 0x3D:
        return None
    position += 1
    while position < len(data) and data[position] <= 0x20:
        position += 1
    # "10. Let quoteMark be the byte at encodingPosition. 11. If quoteMark is not
    # either 0x22 (") or 0x27 ('), then return failure."
    if position >= len(data) or data[position] not in (0x22, 0x27):
        return None
    # "13. Let encodingEndPosition be the position of the next occurrence of
    # quoteMark at or after encodingPosition. If quoteMark does not occur
    # again, then return failure."
    end = data.find(data[position : position + 1], position + 1)
    if end < 0:
        return None
    potential = data[position + 1 : end]
    # "15. If potentialEncoding contains one or more bytes whose byte value is
    # 0x20 or below, then return failure."
    if any(byte <= 0x20 for byte in potential):
        return None
    # "16. Let encoding be the result of getting an encoding given
    # potentialEncoding isomorphic decoded."
    label = isomorphic_decode(potential)
    encoding = get_encoding(label)
    if encoding is None:
        return None
    # "17. If the encoding is UTF-16BE/LE, then change it to UTF-8."
    if encoding.name in ("UTF-16BE", "UTF-16LE"):
        encoding = ENCODINGS["UTF-8"]
    return Declaration(encoding, label, 0)


_UTF16_XML: Final = (b"<\x00?\x00x\x00", b"\x00<\x00?\x00x")
#: label as written -> the encoding a ``<meta charset>`` of it declares (steps 14-15
#: applied), for the labels met (at most :data:`_LABELS_KEPT`).
_SIMPLE_LABELS: Final[dict[bytes, tuple[Encoding, str]]] = {}
_LABELS_KEPT: Final = 256
#: content value as written -> what a ``<meta http-equiv=content-type>`` with it declares
#: (see _pragma_label), for the values met (at most :data:`_LABELS_KEPT`).
_PRAGMA_LABELS: Final[dict[bytes, tuple[Encoding, str] | None]] = {}


#: The same path in one match, where ``re`` has atomic groups: the tokens (the run that
#: _PRESCAN_TOKENS_PATTERN matches: in an atomic group, the match cannot give any of it
#: back), an empty group where they end, then _CHARSET_META_PATTERN or the
#: _PRAGMA_META_PATTERN (their groups after it, in that order); not at a UTF-16 XML
#: declaration (_UTF16_XML's bytes).
_TO_CHARSET_META_PATTERN: Final = (
    rb"(?!"
    + b"|".join(map(re.escape, _UTF16_XML))
    + rb")"
    + ATOMIC
    + _PRESCAN_TOKENS_PATTERN
    + rb")()(?:"
    + _CHARSET_META_PATTERN
    + rb"|"
    + _PRAGMA_META_PATTERN
    + rb")"
)
#: The first group of the _PRAGMA_META_PATTERN's in _TO_CHARSET_META_PATTERN.
_PRAGMA_GROUPS: Final = 2 + 3  # (_CHARSET_META_PATTERN's groups: the test-suite checks)
#: The _PRAGMA_META_PATTERN, then the _TO_CHARSET_META_PATTERN (3.11+), compiled on first
#: use (about 2 ms: not at import).
_LAZY: Final[list[re.Pattern[bytes]]] = []


#: _PRESCAN_TOKENS_PATTERN and _CHARSET_META_PATTERN, compiled on first use (1.5-2 ms,
#: not at import: the prescan's loop needs them only where a page has a ``<meta`` that
#: charset_meta's one match does not resolve).
_SCAN: Final[list[re.Pattern[bytes]]] = []


def compiled_once(store: list[re.Pattern[bytes]], *patterns: bytes) -> list[re.Pattern[bytes]]:
    """*store*, the expressions of *patterns*, compiled the first time it is empty.

    All of them are compiled, then put in place in one step: another thread reads *store*
    empty or whole (never some of them, nor twice as many), and a first call cut short
    (KeyboardInterrupt) leaves it empty for the next one (tests/test_threads.py)."""
    if not store:
        store[:] = [re.compile(pattern) for pattern in patterns]
    return store


def _scan_expressions() -> list[re.Pattern[bytes]]:
    return compiled_once(_SCAN, _PRESCAN_TOKENS_PATTERN, _CHARSET_META_PATTERN)


def _expressions() -> list[re.Pattern[bytes]]:
    if sys.version_info >= (3, 11):
        return compiled_once(_LAZY, _PRAGMA_META_PATTERN, _TO_CHARSET_META_PATTERN)
    return compiled_once(_LAZY, _PRAGMA_META_PATTERN)  # pragma: no cover - Python 3.10


def charset_meta(data: bytes, end: int) -> tuple[bytes, int, bool] | None:
    """Where the prescan of ``data[:end]`` reaches a ``<meta charset=label>`` or a ``<meta
    http-equiv=content-type content="...">`` (see meta_tag) by the commonest path (no
    UTF-16 XML declaration, then tokens that cannot declare): the label or the content
    value as written, the offset of the tag and whether it is a content value; else
    ``None`` (the prescan decides).

    When the value declares an encoding (:func:`charset_meta_declaration`), that is the
    prescan's answer; one C call, and no copy of the first bytes."""
    expressions = _LAZY or _expressions()
    if len(expressions) > 1:
        found = expressions[1].match(data, 0, end)
        if found is None:
            return None
        group = found.lastindex or 0
        return found[group], found.start(1), group >= _PRAGMA_GROUPS
    if data.startswith(_UTF16_XML):  # pragma: no cover - Python 3.10
        return None
    tokens, simple_meta = _SCAN or _scan_expressions()  # pragma: no cover
    stop = tokens.match(data, 0, end).end()  # type: ignore[union-attr]  # pragma: no cover
    simple = simple_meta.match(data, stop, end)  # pragma: no cover
    if simple is not None:  # pragma: no cover
        return simple[simple.lastindex or 0], stop, False
    pragma = expressions[0].match(data, stop, end)  # pragma: no cover
    if pragma is None:  # pragma: no cover
        return None
    return pragma[pragma.lastindex or 0], stop, True  # pragma: no cover


def charset_meta_declaration(written: bytes, offset: int, pragma: bool) -> Declaration | None:
    """The prescan's answer for a :func:`charset_meta` found: "the result of getting an
    encoding from the attribute's value" (steps 14-15 applied), or from the content value
    (*pragma*, see meta_tag); or ``None`` when it declares no encoding (then the prescan
    goes on after the tag)."""
    if pragma:
        declared = _pragma_label(written)
        return None if declared is None else Declaration(declared[0], declared[1], offset)
    known = _SIMPLE_LABELS.get(written)
    if known is None:
        label = isomorphic_decode(written)
        charset = get_encoding(label)
        if charset is None:
            return None
        known = (_html_override(charset), label)
        if len(_SIMPLE_LABELS) >= _LABELS_KEPT:
            _SIMPLE_LABELS.clear()
        _SIMPLE_LABELS[written] = known
    return Declaration(known[0], known[1], offset)


def prescan(data: bytes) -> Declaration | None:
    """Run the prescan over *data* (the caller applies the 1024-byte end condition)."""
    if not data.startswith(_UTF16_XML):
        if not may_declare(data):
            # What _scan ends with then (see may_declare): running out of bytes.
            return get_an_xml_encoding(data)
        # The commonest page first, in one C call: tokens up to a ``<meta
        # charset=label>`` (or http-equiv) that declares. This is the path _scan takes
        # (its first steps are these expressions; a value that declares no encoding is
        # left to it).
        simple = charset_meta(data, len(data))
        if simple is not None:
            found = charset_meta_declaration(*simple)
            if found is not None:
                return found
    return prescan_rest(data)


def prescan_rest(data: bytes) -> Declaration | None:
    """:func:`prescan` of *data* where :func:`charset_meta` (over the same bytes) gave no
    declaration: the loop, without trying that path again."""
    try:
        return _scan(data)
    except _OutOfBytes:
        # "abort the prescan a byte stream to determine its encoding algorithm
        # and return the result get an XML encoding applied to the same bytes"
        return get_an_xml_encoding(data)


def prescan_unspelled(body: bytes) -> tuple[Declaration | None, bytes | None]:
    """:func:`prescan` of the first :data:`PRESCAN_LIMIT` bytes of *body*, where the caller
    found no ``b"charset"`` in them; and, where they hold "charset" in no case at all (then
    no ``<meta>`` in them declares: see :func:`may_declare`), the first ``PRESCAN_LIMIT +
    4`` bytes of *body* lower-cased (the head scan looks for "<meta" in them), else ``None``.
    """
    lowered = body[: PRESCAN_LIMIT + 4].lower()
    if body.startswith(_UTF16_XML) or lowered.find(b"charset", 0, PRESCAN_LIMIT) >= 0:
        return prescan(body[:PRESCAN_LIMIT]), None
    # What prescan does then (may_declare is false): only an XML declaration can answer
    # (get_an_xml_encoding: none without "<?xml" at the start).
    found = get_an_xml_encoding(body[:PRESCAN_LIMIT]) if body.startswith(b"<?xml") else None
    return found, lowered


def prescan_stage(body: bytes) -> EncodingHint | None:
    """The prescan over the first :data:`PRESCAN_LIMIT` bytes, as a pipeline stage."""
    found = prescan(body[:PRESCAN_LIMIT])
    return None if found is None else found.hint()
