"""``StreamDecoder``: decode a body that arrives in chunks, as a browser does.

The decision follows :func:`browser_decode.decode_html` and is made as early
as the bytes allow:

* a byte order mark: after at most 3 bytes;
* a ``charset`` in the Content-Type: as soon as the first bytes cannot be a
  BOM (a BOM beats the header);
* a ``<meta>`` found by the prescan: as soon as the prescan of the bytes
  received so far finds it complete (a prefix on which the prescan succeeds
  gives the same answer as the first 1024 bytes, see :func:`_prescan_prefix`);
  an XML declaration: once 1024 bytes have arrived;
* a ``<meta>`` found by the head scan beyond 1024 bytes: soon after it has
  arrived complete (the same argument; the scan is repeated after every
  512 bytes or 1/8 of the buffer, whichever is more);
* for an XML type (docs/body-types.md): the XML declaration, once its ``>``
  has arrived (or 2048 bytes, for BOM-less UTF-16); a JSON body without a BOM
  and without a charset parameter is UTF-8 whatever follows, decided at once;
* otherwise (nothing declared in the head): after
  ``buffer_limit`` bytes (default 1 MiB) or at :meth:`StreamDecoder.close`,
  whichever comes first; then the later stages (the bounded head scan of
  64 KiB, valid UTF-8, detection, the default) run on what was buffered.

Then every chunk is decoded at once up to a cut where decoding the parts
provably equals decoding the whole (:mod:`browser_decode._split`); the few
bytes after it are carried to the next chunk.

**Equal to** ``decode_html(whole body)`` (text and provenance) for every
chunking, except in one documented case: an *undeclared* body (no BOM, no
header charset, no ``<meta>`` in the first 64 KiB) longer than
``buffer_limit``. Its encoding is then chosen from the first
``buffer_limit`` bytes (cut after a complete UTF-8 sequence), while
``decode_html`` looks at the whole body: e.g. a 3 MiB page whose first MiB
is ASCII and whose later bytes are windows-1251 is ``utf-8`` here and
``detected`` there.

The Content-Type is parsed and resolved once, in the constructor. Finding a
cut costs a few C-speed scans, never a Python walk over the chunk
(:mod:`browser_decode._split`): streaming costs at most about 1.6x the whole
decode (``benchmarks/bench_streaming.py``).

Memory: at most ``buffer_limit`` bytes while undecided, then the carry (at
most 3 bytes; ISO-2022-JP: at most 1 KiB) plus the chunk being decoded and
its text.
"""

from __future__ import annotations

from ._api import _coerce_content_type, _coerce_optional_str, run_stages, stages_for
from ._bom_sniff import bom_sniff
from ._decode_body import BodyKind, body_kind, xml_declaration
from ._decoders import COUNTING
from ._detect._external import DetectorArg, resolve_detector
from ._extract_mime_type import extract_mime_type, legacy_extract_an_encoding
from ._get_an_encoding import ENCODINGS
from ._head_scan import HEAD_SCAN_LIMIT, head_scan
from ._hint import EncodingHint, Request
from ._prescan import PRESCAN_LIMIT, _OutOfBytes, _scan, prescan_stage
from ._result import Confidence, Provenance, Source
from ._split import split_point

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

#: Bytes buffered before an undeclared body's encoding is decided.
DEFAULT_BUFFER_LIMIT: Final = 1 << 20

# "If BOM starts with the bytes given in the first column ..."
# -- https://encoding.spec.whatwg.org/#bom-sniff (needs up to 3 bytes)
_BOMS: Final = (b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe")


def _could_become_bom(data: bytes) -> bool:
    return len(data) < 3 and any(bom.startswith(data) for bom in _BOMS)


def _prescan_prefix(data: bytes) -> EncodingHint | None:
    """The prescan's answer if the bytes so far already settle it, else ``None``.

    The prescan reads bytes strictly forward and "runs out of bytes" (an
    exception here) whenever it would need one past the end; every ``find``
    it does is for the first occurrence. So if the scan of a prefix *returns*
    a ``<meta>`` declaration, the scan of any longer input reads the same bytes
    and returns the same one. The XML-declaration fallback that follows running
    out of bytes is *not* used on a prefix: a ``<meta>`` after ``<?xml ...?>``
    might still arrive and would win.
    """
    try:
        found = _scan(data)
    except _OutOfBytes:
        return None
    return None if found is None else found.hint()


#: The XML declaration's answer is final once this much has arrived (a BOM-less
#: UTF-16 declaration is read from the first 2 * 1024 bytes, see xml_declaration).
_XML_DECLARATION_BYTES: Final = 2048
_XML_STARTS: Final = (b"<?xml", b"<\x00?\x00x\x00", b"\x00<\x00?\x00x")


def _xml_declaration_prefix(data: bytes) -> EncodingHint | bool | None:
    """The XML declaration's answer if the bytes so far settle it, else ``False``."""
    if len(data) >= _XML_DECLARATION_BYTES:
        return xml_declaration(data)
    if not any(start.startswith(data[: len(start)]) for start in _XML_STARTS):
        return None  # cannot start with a declaration: the stage gives nothing
    if data.startswith(b"<?xml") and b">" in data[:1024]:
        return xml_declaration(data)  # reads only up to that ">"
    return False


#: Provenance fields copied from the hint as they are.
_COPIED: Final = tuple(
    name for name in Provenance.__match_args__ if name not in ("encoding", "replacements")
)


def _coerce_chunk(chunk: object) -> bytes:
    if isinstance(chunk, bytes):
        return chunk
    if isinstance(chunk, (bytearray, memoryview)):
        return bytes(chunk)
    raise TypeError(f"StreamDecoder.feed() takes bytes, not {type(chunk).__name__}")


class StreamDecoder:
    """Incremental :func:`~browser_decode.decode_html` for bodies read in chunks.

    Follows the body's type as ``decode_html`` does (HTML, XML, JSON, text:
    docs/body-types.md); *detector* as for ``decode_html``.

    >>> decoder = StreamDecoder("text/html")
    >>> parts = [decoder.feed(b"<meta charset=shift_jis>\\x82"), decoder.feed(b"\\xa0")]
    >>> parts.append(decoder.close())
    >>> "".join(parts)[-1], str(decoder.provenance)
    ('あ', 'Shift_JIS (meta)')

    :meth:`feed` returns the text that is ready (possibly ``""`` while the
    encoding is undecided or a character is incomplete); :meth:`close`
    returns the rest. :attr:`provenance` is ``None`` until the encoding is
    decided; its ``replacements`` count is final after :meth:`close`.
    """

    def __init__(
        self,
        content_type: str | bytes | None = None,
        *,
        url: str | None = None,
        default_encoding: str | None = None,
        buffer_limit: int = DEFAULT_BUFFER_LIMIT,
        detector: DetectorArg = None,
    ) -> None:
        header = _coerce_content_type(content_type)
        if not isinstance(buffer_limit, int) or isinstance(buffer_limit, bool):
            raise TypeError("buffer_limit must be an int")
        # The head scan must see all of its 64 KiB, plus a UTF-8 sequence.
        self._limit = max(buffer_limit, HEAD_SCAN_LIMIT + 4)
        # The header is parsed and resolved here, once (not on every feed()).
        mime = None if header is None else extract_mime_type(header)
        self._request = Request(
            mime,
            _coerce_optional_str(url, "url"),
            _coerce_optional_str(default_encoding, "default_encoding"),
            resolve_detector(detector),
        )
        self._stages = stages_for(mime)
        self._kind = body_kind(mime)
        self._html = self._kind is BodyKind.HTML
        self._header_hint = legacy_extract_an_encoding(mime)
        self._xml_pending = self._kind is BodyKind.XML  # the declaration is not settled yet
        self._buffer = bytearray()  # bytes before the decision
        self._pending = b""  # bytes after the decision that are not decoded yet
        # ISO-2022-JP: the carry may start with a prefix that re-creates the
        # decoder state; its first ``_drop`` characters of text are not the body's.
        self._drop = 0
        self._protect = 0
        self._hint: EncodingHint | None = None
        self._prescanned = False  # the first 1024 bytes were prescanned (nothing found)
        self._head_scanned = False  # the head scan has seen all it ever reads
        self._next_head_scan = 0  # buffer size at which to run the head scan again
        self._closed = False
        self._errors = 0  # the decoder's errors so far

    @property
    def provenance(self) -> Provenance | None:
        """How the encoding was decided, or ``None`` before the decision."""
        hint = self._hint
        if hint is None:
            return None
        # Every field the hint carries under the provenance's name (a field added
        # to both needs no change here), then the two that are computed.
        copied = {name: getattr(hint, name) for name in _COPIED if hasattr(hint, name)}
        return Provenance(
            **copied,
            encoding=hint.encoding.name,
            replacements=self._errors,
        )

    @property
    def encoding(self) -> str | None:
        """The WHATWG name of the encoding, or ``None`` before the decision."""
        return None if self._hint is None else self._hint.encoding.name

    def feed(self, chunk: bytes | bytearray | memoryview) -> str:
        """Add the next bytes; return the text they complete."""
        data = _coerce_chunk(chunk)
        if self._closed:
            raise ValueError("StreamDecoder.feed() after close()")
        if self._hint is None:
            self._buffer += data
            hint = self._try_decide(final=False)
            if hint is None:
                return ""
            return self._start(hint)
        return self._decode(self._pending + data, final=False)

    def close(self) -> str:
        """Signal the end of the body; return the remaining text."""
        if self._closed:
            return ""
        self._closed = True
        if self._hint is None:
            hint = self._try_decide(final=True)
            assert hint is not None
            return self._start(hint, final=True)
        return self._decode(self._pending, final=True)

    def _try_decide(self, *, final: bool) -> EncodingHint | None:
        buffered = len(self._buffer)
        head = bytes(self._buffer[:3])
        hint = bom_sniff(head)
        if hint is not None:
            return hint
        if not final and _could_become_bom(head):
            return None
        if self._kind is BodyKind.JSON:
            if self._header_hint is None:
                # RFC 8259: UTF-8 whatever the bytes (JSON_STAGES: valid UTF-8
                # as the default, else the default; the same provenance).
                return EncodingHint(ENCODINGS["UTF-8"], Source.DEFAULT, Confidence.CERTAIN)
        elif self._header_hint is not None:
            return self._header_hint
        if self._html and not final:
            if buffered < PRESCAN_LIMIT:
                return _prescan_prefix(bytes(self._buffer))
            hint = self._scan_head()
            if hint is not None:
                return hint
        if self._xml_pending and not final:
            found = _xml_declaration_prefix(bytes(self._buffer[:_XML_DECLARATION_BYTES]))
            if found is False:
                return None
            self._xml_pending = False
            if isinstance(found, EncodingHint):
                return found
        if not final and buffered < self._limit:
            return None  # no copy of the buffer while waiting
        data = bytes(self._buffer)
        if not final:
            # Decide on complete UTF-8 sequences only, so that a character cut
            # by the limit does not make valid UTF-8 look invalid.
            data = data[: split_point("UTF-8", data)[0]]
        return run_stages(self._stages, data, self._request)

    def _scan_head(self) -> EncodingHint | None:
        """The prescan of the first 1024 bytes, then the head scan of what has arrived.

        The prescan reads exactly the first 1024 bytes, as ``decode_html``
        does. The head scan of a prefix that *finds* a ``<meta>`` finds the
        same one in the whole body (it reads forward, a truncated tag runs out
        of bytes, every ``find`` is for the first occurrence); once 64 KiB
        have arrived its answer is final either way.
        """
        if not self._prescanned:
            self._prescanned = True
            hint = prescan_stage(bytes(self._buffer[:PRESCAN_LIMIT]))
            if hint is not None:
                return hint
        buffered = len(self._buffer)
        if self._head_scanned or buffered < self._next_head_scan:
            return None
        # Rescan only after some growth, so that tiny chunks cost no more than
        # about 40 head scans of at most 64 KiB.
        self._next_head_scan = buffered + max(512, buffered // 8)
        self._head_scanned = buffered >= HEAD_SCAN_LIMIT
        return head_scan(bytes(self._buffer[:HEAD_SCAN_LIMIT]))

    def _start(self, hint: EncodingHint, final: bool = False) -> str:
        self._hint = hint
        data = bytes(self._buffer[hint.skip :])
        self._buffer = bytearray()
        return self._decode(data, final=final)

    def _decode(self, data: bytes, *, final: bool) -> str:
        assert self._hint is not None
        name = self._hint.encoding.name
        if name == "replacement":
            # "2. If replacement error returned is false, set replacement error
            # returned to true and return error. 3. Return finished."
            # -- https://encoding.spec.whatwg.org/#replacement-decoder
            self._pending = b""
            if data and self._errors == 0:
                self._errors = 1
                return "\ufffd"
            return ""
        if final:
            cut, prefix, drop = len(data), b"", 0
        else:
            cut, prefix, drop = split_point(name, data, self._protect)
        if not cut:
            self._pending = data
            return ""
        # Decoding the segments gives the text of the whole (_split), so their errors add
        # up to the whole's: the decoder counts them as it goes.
        text, errors = COUNTING[name](data[:cut])
        if self._drop:
            # ISO-2022-JP: the first characters are the prefix's (each an error or not).
            errors -= text.count("\ufffd", 0, self._drop)
            text = text[self._drop :]
        self._errors += errors
        self._pending, self._drop, self._protect = prefix + data[cut:], drop, len(prefix)
        return text
