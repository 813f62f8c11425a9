"""Stage 2: the charset of the HTTP ``Content-Type`` header.

Fetch's "extract a MIME type" (https://fetch.spec.whatwg.org/#concept-header-extract-mime-type)
over MIME Sniffing's "parse a MIME type"
(https://mimesniff.spec.whatwg.org/#parse-a-mime-type), then Fetch's "legacy
extract an encoding" (https://fetch.spec.whatwg.org/#legacy-extract-an-encoding).

Consequences that a regex gets wrong, all checked against Chromium:
``charset='x'`` is the label ``'x'`` (quotes included, so unknown);
``charset = x`` has the parameter name ``"charset "`` (so it is no charset);
the first ``charset`` parameter wins; an unterminated ``"`` still yields the
label; an empty or unknown label is ignored (the search goes on in the body).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

from ._get_an_encoding import get_encoding
from ._hint import EncodingHint
from ._infra import ascii_lowercase
from ._result import Confidence, Source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, NamedTuple
else:
    from ._frozen import NamedTuple

# "HTTP whitespace is U+000A LF, U+000D CR, or an HTTP tab or space."
# -- https://fetch.spec.whatwg.org/#http-whitespace
_HTTP_WS: Final = "\t\n\r "
# "An HTTP token code point is U+0021 (!), U+0023 (#), U+0024 ($), U+0025 (%),
# U+0026 (&), U+0027 ('), U+002A (*), U+002B (+), U+002D (-), U+002E (.),
# U+005E (^), U+005F (_), U+0060 (`), U+007C (|), U+007E (~), or an ASCII
# alphanumeric." -- https://mimesniff.spec.whatwg.org/#http-token-code-point
_TOKEN: Final = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
# "An HTTP quoted-string token code point is U+0009 TAB, a code point in the
# range U+0020 SPACE to U+007E (~), inclusive, or a code point in the range
# U+0080 through U+00FF (ÿ), inclusive."
_QUOTED_STRING_TOKEN: Final = re.compile("[\t\x20-\x7e\x80-\xff]*")


#: The parameters of a MIME type that has none (read-only, so one serves every such type).
_NO_PARAMETERS: Final[Mapping[str, str]] = MappingProxyType({})


class MimeType(NamedTuple):
    """A parsed MIME type: lower-cased ``type``/``subtype`` and parameters."""

    type: str
    subtype: str
    parameters: Mapping[str, str] = _NO_PARAMETERS

    @property
    def essence(self) -> str:
        return f"{self.type}/{self.subtype}"


def _collect_quoted_string(text: str, position: int) -> tuple[str, int]:
    """Fetch's "collect an HTTP quoted string" with *extract-value* true.

    https://fetch.spec.whatwg.org/#collect-an-http-quoted-string
    *position* points at the opening ``"``; returns the value and the new position.
    """
    value = []
    position += 1
    while True:
        end = position
        while end < len(text) and text[end] not in '"\\':
            end += 1
        value.append(text[position:end])
        position = end
        if position >= len(text):
            break
        quote_or_backslash = text[position]
        position += 1
        if quote_or_backslash == "\\":
            if position >= len(text):
                value.append("\\")
                break
            value.append(text[position])
            position += 1
        else:
            break
    return "".join(value), position


def parse_mime_type(text: str) -> MimeType | None:
    """MIME Sniffing's "parse a MIME type"; ``None`` for failure."""
    # "1. Remove any leading and trailing HTTP whitespace from input."
    text = text.strip(_HTTP_WS)
    # "3. Let type be the result of collecting a sequence of code points that
    # are not U+002F (/) from input, given position."
    slash = text.find("/")
    # "4. If type is the empty string or does not solely contain HTTP token code
    # points, then return failure. 5. If position is past the end of input,
    # then return failure."
    if slash < 0 or not _TOKEN.fullmatch(text[:slash]):
        return None
    type_ = text[:slash]
    position = slash + 1
    # "7. Let subtype be the result of collecting a sequence of code points that
    # are not U+003B (;) ... 8. Remove any trailing HTTP whitespace from subtype."
    semicolon = text.find(";", position)
    end = len(text) if semicolon < 0 else semicolon
    subtype = text[position:end].rstrip(_HTTP_WS)
    if not _TOKEN.fullmatch(subtype):
        return None
    parameters: dict[str, str] = {}
    position = end
    # "11. While position is not past the end of input:"
    while position < len(text):
        # "1. Advance position by 1. (This skips past U+003B (;).)
        # 2. Collect a sequence of code points that are HTTP whitespace ..."
        position += 1
        while position < len(text) and text[position] in _HTTP_WS:
            position += 1
        # "3. Let parameterName be the result of collecting a sequence of code
        # points that are not U+003B (;) or U+003D (=) from input, given position.
        # 4. Set parameterName to parameterName, in ASCII lowercase."
        start = position
        while position < len(text) and text[position] not in ";=":
            position += 1
        name = ascii_lowercase(text[start:position])
        # "5. If position is not past the end of input, then: 1. If the code
        # point at position within input is U+003B (;), then continue.
        # 2. Advance position by 1. (This skips past U+003D (=).)"
        if position < len(text):
            if text[position] == ";":
                continue
            position += 1
        # "6. If position is past the end of input, then break."
        if position >= len(text):
            break
        # "8. If the code point at position within input is U+0022 ("), then:
        # 1. Set parameterValue to the result of collecting an HTTP quoted
        # string from input, given position and true. 2. Collect a sequence of
        # code points that are not U+003B (;) from input, given position."
        if text[position] == '"':
            value, position = _collect_quoted_string(text, position)
            semicolon = text.find(";", position)
            position = len(text) if semicolon < 0 else semicolon
        else:
            # "9. Otherwise: 1. Set parameterValue to the result of collecting a
            # sequence of code points that are not U+003B (;) ... 2. Remove any
            # trailing HTTP whitespace from parameterValue. 3. If parameterValue
            # is the empty string, then continue."
            semicolon = text.find(";", position)
            end = len(text) if semicolon < 0 else semicolon
            value = text[position:end].rstrip(_HTTP_WS)
            position = end
            if not value:
                continue
        # "10. If all of the following are true ... parameterName is not the
        # empty string; parameterName solely contains HTTP token code points;
        # parameterValue solely contains HTTP quoted-string token code points;
        # mimeType's parameters[parameterName] does not exist, then set
        # mimeType's parameters[parameterName] to parameterValue."
        if (
            _TOKEN.fullmatch(name)
            and _QUOTED_STRING_TOKEN.fullmatch(value)
            and name not in parameters
        ):
            parameters[name] = value
    return MimeType(ascii_lowercase(type_), ascii_lowercase(subtype), MappingProxyType(parameters))


def _split_header_values(value: str) -> list[str]:
    """Fetch's "get, decode, and split": split on commas outside quotes.

    https://fetch.spec.whatwg.org/#header-value-get-decode-and-split
    """
    values = []
    position = 0
    current = ""
    while True:
        start = position
        while position < len(value) and value[position] not in '",':
            position += 1
        current += value[start:position]
        if position < len(value):
            if value[position] == '"':
                quoted_start = position
                _, position = _collect_quoted_string(value, position)
                current += value[quoted_start:position]
                if position < len(value):
                    continue
            else:  # ","
                position += 1
                values.append(current.strip("\t "))
                current = ""
                continue
        values.append(current.strip("\t "))
        return values


#: Header values up to this length are cached (crawls repeat a few Content-Type
#: values endlessly); longer ones are parsed each time, so the cache holds at
#: most ``_CACHE_SIZE * _CACHE_VALUE_LIMIT`` characters of keys (256 KiB).
_CACHE_VALUE_LIMIT: Final = 512
_CACHE_SIZE: Final = 512


def extract_mime_type(content_type: str) -> MimeType | None:
    """Fetch's "extract a MIME type" from one (possibly combined) header value.

    Cached for values of at most 512 characters (the result is immutable); a
    longer value is never kept alive by the cache.
    """
    if len(content_type) <= _CACHE_VALUE_LIMIT:
        return _extract_mime_type_cached(content_type)
    return _extract_mime_type(content_type)


@lru_cache(maxsize=_CACHE_SIZE)
def _extract_mime_type_cached(content_type: str) -> MimeType | None:
    return _extract_mime_type(content_type)


def _extract_mime_type(content_type: str) -> MimeType | None:
    charset: str | None = None
    essence: str | None = None
    mime: MimeType | None = None
    for value in _split_header_values(content_type):
        # "1. Let temporaryMimeType be the result of parsing value. 2. If
        # temporaryMimeType is failure or its essence is "*/*", then continue."
        temporary = parse_mime_type(value)
        if temporary is None or temporary.essence == "*/*":
            continue
        mime = temporary
        if mime.essence != essence:
            # "4. If mimeType's essence is not essence, then: set charset to null;
            # if mimeType's parameters["charset"] exists, then set charset to it;
            # set essence to mimeType's essence."
            charset = mime.parameters.get("charset")
            essence = mime.essence
        elif "charset" not in mime.parameters and charset is not None:
            # "5. Otherwise, if mimeType's parameters["charset"] does not exist,
            # and charset is non-null, set mimeType's parameters["charset"] to charset."
            mime = mime._replace(
                parameters=MappingProxyType({**mime.parameters, "charset": charset})
            )
    return mime


def legacy_extract_an_encoding(mime: MimeType | None) -> EncodingHint | None:
    """Fetch's "legacy extract an encoding" as a pipeline stage.

    "1. If mimeType is failure, then return fallbackEncoding.
    2. If mimeType["charset"] does not exist, then return fallbackEncoding.
    3. Let tentativeEncoding be the result of getting an encoding from
    mimeType["charset"]. 4. If tentativeEncoding is failure, then return
    fallbackEncoding. 5. Return tentativeEncoding."
    """
    if mime is None or "charset" not in mime.parameters:
        return None
    label = mime.parameters["charset"]
    encoding = get_encoding(label)
    if encoding is None:
        return None
    return EncodingHint(encoding, Source.HEADER, Confidence.CERTAIN, label=label)
