"""Differential tests of the multi-byte decoders: the C-codec fast path and the token decoder
against the step-by-step reference decoders (the standard's handlers, transcribed), on seeded
random byte strings biased to the bytes that matter, long inputs that cross the internal
stretch boundaries, and every sequence the C codec accepts."""

from __future__ import annotations

import codecs
import random
import sys
from collections.abc import Callable
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from browser_decode import StreamDecoder
from browser_decode._decoders import (
    DECODERS,
    _big5,
    _euc_jp,
    _euc_kr,
    _gb18030,
    _iso_2022_jp,
    _measured,
    _multibyte,
    _shift_jis,
    decode_counting,
)

from ._reference_decoders import reference_decode_counting

MODULES: dict[str, ModuleType] = {
    "gb18030": _gb18030,
    "GBK": _gb18030,  # "GBK's decoder is gb18030's decoder" (its fast path runs Python's gbk)
    "Big5": _big5,
    "EUC-JP": _euc_jp,
    "ISO-2022-JP": _iso_2022_jp,
    "Shift_JIS": _shift_jis,
    "EUC-KR": _euc_kr,
}

# Bytes at the edges of every lead/trail/digit range of the six decoders, and ASCII.
INTERESTING = sorted(
    {0x00, 0x0A, 0x0E, 0x0F, 0x1B, 0x20, 0x24, 0x28, 0x2F, 0x30, 0x35, 0x39, 0x3A, 0x3F,
     0x40, 0x41, 0x42, 0x49, 0x4A, 0x5C, 0x5F, 0x60, 0x62, 0x64, 0x7E, 0x7F, 0x80, 0x81,
     0x82, 0x84, 0x88, 0x8E, 0x8F, 0x90, 0x9F, 0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6,
     0xC1, 0xC8, 0xD9, 0xDF, 0xE0, 0xE3, 0xE4, 0xEF, 0xF0, 0xF9, 0xFA, 0xFC, 0xFD, 0xFE,
     0xFF}
)  # fmt: skip


def fast(name: str) -> Callable[[bytes], str]:
    return DECODERS[name]


@pytest.fixture(params=["whole", "pieces"])
def piece_size(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Inputs of more than 2 MiB are decoded in pieces of about 1 MiB cut at
    resynchronisation bytes; with pieces of about 1000 bytes, the long inputs of these tests
    cross many piece boundaries."""
    if request.param == "pieces":
        monkeypatch.setattr(_multibyte, "_PIECE", 1000)


def random_bytes(rng: random.Random, length: int) -> bytes:
    out = bytearray()
    while len(out) < length:
        roll = rng.random()
        if roll < 0.5:
            out.append(rng.choice(INTERESTING))
        elif roll < 0.7:
            out.append(rng.randrange(256))
        elif roll < 0.8:
            out += rng.choice([b"\x1b$B", b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$@"])
        else:  # a well-formed-looking pair or four-byte sequence
            lead = rng.randrange(0x81, 0xFF)
            out += (
                bytes(
                    [
                        lead,
                        rng.randrange(0x30, 0x3A),
                        rng.randrange(0x81, 0xFF),
                        rng.randrange(0x30, 0x3A),
                    ]
                )
                if roll < 0.85
                else bytes([lead, rng.randrange(0x40, 0xFF)])
            )
    return bytes(out[:length])


@pytest.mark.parametrize("name", sorted(MODULES))
def test_seeded_random_short_inputs(name: str) -> None:
    module = MODULES[name]
    rng = random.Random(f"browser_decode-{name}")
    for _ in range(3000):
        data = random_bytes(rng, rng.randrange(16))
        want = module.reference_decode(data)
        assert fast(name)(data) == want, data.hex()
        if name != "ISO-2022-JP":
            assert module.TOKENS(data) == want, data.hex()


@pytest.mark.usefixtures("piece_size")
@pytest.mark.parametrize("name", sorted(MODULES))
def test_seeded_random_long_inputs(name: str) -> None:
    """Long inputs cross the fast path's stretches (valid text, then errors, then valid)."""
    module = MODULES[name]
    rng = random.Random(f"long-{name}")
    for _ in range(3):
        valid = "".join(chr(rng.randrange(0x4E00, 0x9FA0)) for _ in range(3000))
        codec = {"Big5": "big5hkscs", "EUC-KR": "cp949", "Shift_JIS": "cp932"}.get(
            name, name.lower().replace("-", "_")
        )
        encoded = valid.encode(codec, "ignore")
        data = encoded + random_bytes(rng, 5000) + encoded + random_bytes(rng, 300) + encoded
        assert fast(name)(data) == module.reference_decode(data)


def test_iso_2022_jp_parts() -> None:
    """Long inputs are decoded in parts cut before an ESC; the state and the output flag
    carry over (here a valid escape ends one part and another begins the next)."""
    part = _iso_2022_jp._PART
    data = b"a" * (part - 3) + b"\x1b(B\x1b(B" + b"x" * (2 * part) + b"\x1b$B0!0" + b"y" * part
    data += b"\x1b$B" + b"0!" * part + b"\x1b(B"
    assert fast("ISO-2022-JP")(data) == _iso_2022_jp.reference_decode(data)
    rng = random.Random("iso-parts")
    data = random_bytes(rng, 3 * part + 1000)
    assert fast("ISO-2022-JP")(data) == _iso_2022_jp.reference_decode(data)


@pytest.mark.usefixtures("piece_size")
@pytest.mark.parametrize("name", sorted(set(MODULES) - {"ISO-2022-JP"}))
def test_stretches_without_resynchronisation_bytes(name: str) -> None:
    """More than 64 KiB without a resynchronisation byte: the token decoder's lazy walk."""
    module = MODULES[name]
    rng = random.Random(name)
    data = bytes(rng.randrange(0x80, 0x100) for _ in range(150_000))
    assert module.TOKENS(data) == module.reference_decode(data)
    assert fast(name)(data) == module.TOKENS(data)


@settings(max_examples=400, deadline=None)
@given(
    name=st.sampled_from(sorted(MODULES)),
    data=st.lists(st.sampled_from(INTERESTING) | st.integers(0, 255), max_size=24).map(bytes),
)
def test_hypothesis_fast_path_equals_reference(name: str, data: bytes) -> None:
    assert fast(name)(data) == MODULES[name].reference_decode(data)


CODECS = {"gb18030": "gb18030", "GBK": "gbk", "Big5": "big5hkscs", "EUC-JP": "euc_jp",
          "Shift_JIS": "cp932", "EUC-KR": "cp949"}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CODECS))
def test_every_codec_sequence_in_context(name: str) -> None:
    """Every one-, two- and (EUC-JP) three-byte sequence the C codec accepts, between
    contexts that could change its meaning if the codec and the standard were not at the
    same boundary after it: the fast path must agree with the token decoder, which the
    tests above tie to the reference decoder."""
    decode = codecs.lookup(CODECS[name]).decode
    tokens = MODULES[name].TOKENS
    seqs = []
    prefixes = [b""]
    for _length in (1, 2, 3) if name == "EUC-JP" else (1, 2):
        longer = []
        for prefix in prefixes:
            for byte in range(256):
                seq = prefix + bytes([byte])
                try:
                    decode(seq)
                    seqs.append(seq)
                except UnicodeDecodeError as exc:
                    if exc.end == len(seq):
                        longer.append(seq)
        prefixes = longer
    for before, after in [(b"", b""), (b"a", b"\n"), (b"\xa1", b"0\x810"), (b"", b"\xa1\xa1")]:
        data = b"|".join(before + seq + after for seq in seqs)
        assert fast(name)(data) == tokens(data)
    # ... and each on its own (end of input right after it).
    wrong = [seq for seq in seqs if fast(name)(seq) != tokens(seq)]
    assert wrong == []


def test_fixes_are_found_not_assumed() -> None:
    """The corrections come from comparing the codecs with the indexes; spot-check a few
    differences the issue names (cp932 0xA0/0xFD-0xFF, euc_jp 0xA1 0xC1, gb18030 0xA6 0xD9)."""
    sjis = _shift_jis.FAST.fixes
    assert {sjis.replace.get(c) for c in "\uf8f0\uf8f1\uf8f2\uf8f3"} == {"\ufffd"}
    assert _euc_jp.FAST.fixes.replace["\u301c"] == "\uff5e"
    assert fast("gb18030")(b"\xa6\xd9") == "\ufe10"
    assert fast("EUC-JP")(b"~\x8f\xa2\xb7") == "~\uff5e"
    assert isinstance(_big5.FAST.fixes, _multibyte.Fixes)


@pytest.mark.usefixtures("piece_size")
@pytest.mark.parametrize(
    ("name", "same", "differing"),
    [("Big5", b"\xa1\xfe", b"\xa2\x41"), ("EUC-JP", b"~", b"\x8f\xa2\xb7")],
)
def test_codec_character_from_agreeing_and_differing_sequences(
    name: str, same: bytes, differing: bytes
) -> None:
    """big5hkscs decodes A1 FE and A2 41 both to U+FF0F (the standard: U+FF0F, U+2215);
    euc_jp decodes ~ and 8F A2 B7 both to ~ (the standard: ~, U+FF5E). Around the
    differing sequence the token decoder takes over; elsewhere the codec's text stays."""
    rng = random.Random(name)
    filler = "".join(chr(rng.randrange(0x4E00, 0x9FA0)) for _ in range(20000))
    codec = {"Big5": "big5hkscs", "EUC-JP": "euc_jp"}[name]
    text = filler.encode(codec, "ignore")
    data = same + text[:30000] + b" " + same + differing + same + b" " + text + differing
    assert fast(name)(data) == MODULES[name].reference_decode(data)


@pytest.mark.parametrize("name", sorted(set(MODULES) - {"GBK", "ISO-2022-JP"}))
def test_token_table_from_index_slices_equals_the_pair_by_pair_table(name: str) -> None:
    """TokenDecoder.by_value is built from slices of the indexes (index_row); the table
    built pair by pair through the spec's pointer formulas (build) must give the same
    output for every token of one and two bytes, and nothing else."""
    tokens = MODULES[name].TOKENS
    want: list[str | None] = [None] * 0x10001
    for token, text in tokens.table.items():
        want[int.from_bytes(token, "big")] = text
    got = tokens.values()
    assert len(got) == len(want)
    assert [(hex(at), got[at], text) for at, text in enumerate(want) if got[at] != text] == []


@pytest.mark.parametrize(
    "name", sorted(FAST_DECODERS := {"gb18030", "Big5", "EUC-JP", "Shift_JIS", "EUC-KR"})
)
def test_token_table_rows_built_on_first_use(name: str) -> None:
    """A fresh decoder builds the rows of its token table one by one, as sparse errors
    need them (the handler's single tokens), then all at once for a stretch of dense
    errors: the output is the standard's at every stage."""
    module = MODULES[name]
    shared = module.FAST_GBK if name == "gb18030" else module.FAST
    old = shared.tokens
    tokens = _multibyte.TokenDecoder(
        old.multi, old.singles, old.separator, old.build, old.leads, old.row, old.compute,
        old.resync, old.legit,
    )  # fmt: skip
    decoder = _multibyte.FastDecoder(
        shared.codec,
        tokens,
        max_length=shared._max_length,
        patch_all=shared._patch_all,
        deferred=shared._deferred,
        errors=f"test.rows.{shared.codec}",
    )
    rng = random.Random(f"rows-{name}")
    text = valid_text(name, rng, 3000)
    errors = [b"\xff ", b"\xa1 ", b"\x81 ", b"\xe0 ", b"\xc8 "]  # (a boundary after each)
    kana = ["".join(chr(rng.randrange(0x3041, 0x3094)) for _ in range(100)) for _ in range(8)]
    codec = CODECS.get(name, "gbk")  # (kana: two bytes in all five, no JIS X 0212)
    sparse = b"".join(f"<p>{kana[at]}</p>".encode(codec) + errors[at % 5] for at in range(8))
    assert decoder(sparse) == module.reference_decode(sparse)

    def built() -> list[int]:
        return [lead for lead in tokens.leads if tokens.by_value[(lead << 8) | 0x20] is not None]

    assert 0 < len(built()) < 6  # (the leading bytes of the errors: one row each)
    dense = text[:2000] + random_bytes(rng, 3000) + text
    assert decoder(dense) == module.reference_decode(dense)
    assert len(built()) > 40  # (the leading bytes of the random bytes)
    want = tokens.values()
    for lead in built():
        row = slice(lead << 8, (lead + 1) << 8)
        assert tokens.by_value[row] == want[row]


def fresh_tokens(name: str) -> _multibyte.TokenDecoder:
    """A token decoder of *name*'s family with nothing built yet (its own tables)."""
    old = MODULES[name].TOKENS
    return _multibyte.TokenDecoder(
        old.multi, old.singles, old.separator, old.build, old.leads, old.row, old.compute,
        old.resync, old.legit,
    )  # fmt: skip


@pytest.mark.parametrize("name", sorted(FAST_DECODERS))
def test_a_row_another_thread_built_meanwhile(name: str) -> None:
    """A lookup finds a row not built, then another thread builds it before this one's
    ``missing`` does: the token is still decoded from the row (it was computed instead:
    an AssertionError, or U+FFFD for gb18030's two-byte letters)."""
    tokens = fresh_tokens(name)
    token = "漢".encode(CODECS.get(name, "gbk"))
    assert tokens.by_value[int.from_bytes(token, "big")] is None
    tokens.build_rows(token[:1])  # (the other thread)
    assert tokens.missing(token) == MODULES[name].reference_decode(token) == "漢"


@pytest.mark.parametrize("name", sorted(FAST_DECODERS))
def test_a_stretch_whose_tables_another_thread_changed_meanwhile(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between a stretch's first look-up of its tokens and the second, another thread
    builds the rows it was about to build (families whose tokens are all in the rows) or
    empties the dict of tokens met (gb18030 and EUC-JP, whose long tokens are computed):
    the stretch is decoded as the standard says (a None was joined into the text: a
    TypeError)."""
    tokens = fresh_tokens(name)
    rng = random.Random(f"meanwhile-{name}")
    chunk = valid_text(name, rng, 400) + random_bytes(rng, 300) + b"\n"
    if name == "gb18030":
        chunk += "ß ש".encode("gb18030") + b" "  # (four-byte letters)
    if tokens.compute is not _multibyte._no_compute:
        learn = tokens._learn

        def learned_then_emptied(found: list[bytes]) -> None:
            learn(found)
            tokens._by_token.clear()  # (the other thread, past _COMPUTED entries)

        monkeypatch.setattr(tokens, "_learn", learned_then_emptied)
    else:
        build = tokens.build_rows

        def built_by_another(leads: set[int]) -> None:
            build(leads)  # (the other thread, between this one's two look-ups)

        monkeypatch.setattr(tokens, "build_rows", built_by_another)
    assert tokens.decode_stretch(chunk) == MODULES[name].reference_decode(chunk)


def test_reference_decoder_restores_bytes() -> None:
    """The I/O queue's restore puts bytes back in front, in order."""
    queue = _multibyte.IOQueue(b"c")
    queue.restore(ord("a"), ord("b"))
    assert [queue.read(), queue.read(), queue.read(), queue.read()] == [97, 98, 99, None]


# -- the codec error handler ---------------------------------------------------------------------

FAST_DECODERS = {
    "gb18030": _gb18030.FAST_GBK,
    "Big5": _big5.FAST,
    "EUC-JP": _euc_jp.FAST,
    "Shift_JIS": _shift_jis.FAST,
    "EUC-KR": _euc_kr.FAST,
}


def valid_text(name: str, rng: random.Random, chars: int) -> bytes:
    text = "".join(
        chr(rng.randrange(0x4E00, 0x9FA0)) if rng.random() < 0.8 else rng.choice("abc <>/\n")
        for _ in range(chars)
    )
    return text.encode(CODECS.get(name, "gbk"), "ignore")


@pytest.mark.usefixtures("piece_size")
@pytest.mark.parametrize("name", sorted(FAST_DECODERS))
def test_isolated_and_dense_errors_in_long_text(name: str) -> None:
    """Errors one by one (the handler decodes one token), in runs of every kind of invalid
    byte (the handler's token decoder runs on, further each time), and everywhere in
    random bytes, inside long text (errors dense, then sparse again, many times)."""
    module = MODULES[name]
    rng = random.Random(f"errors-{name}")
    pieces = []
    for _ in range(60):
        pieces.append(valid_text(name, rng, rng.randrange(10, 3000)))
        roll = rng.random()
        if roll < 0.5:  # one invalid or unmapped sequence
            pieces.append(random_bytes(rng, rng.randrange(1, 4)))
        elif roll < 0.8:  # a run of one invalid pattern: lone bytes, lead + ASCII, ...
            unit = rng.choice([b"\xff", b"\x80", b"\x81 ", b"\xa1\x30", b"\x8f\xa1 ", b"\xfe"])
            pieces.append(unit * rng.randrange(10, 3000))
        else:
            pieces.append(random_bytes(rng, rng.randrange(100, 5000)))
    data = b"".join(pieces)
    assert fast(name)(data) == module.reference_decode(data)


@pytest.mark.usefixtures("piece_size")
@pytest.mark.parametrize(
    ("name", "differing"), [("Big5", b"\xa2\x41"), ("EUC-JP", b"\x8f\xa2\xb7")]
)
def test_patched_sequence_next_to_errors(name: str, differing: bytes) -> None:
    """A patched sequence (Fixes.patch) right after an error and after an invalid byte that
    is the stop byte itself (0x80): the handler tells them apart by the input as given."""
    rng = random.Random(f"check-{name}")
    text = valid_text(name, rng, 40000)
    data = text[:20000] + b" \xff" + differing + b" " + text[20000:] + b"\x80" + differing
    assert fast(name)(data) == MODULES[name].reference_decode(data)


def test_error_handlers_are_registered_under_their_names() -> None:
    _iso_2022_jp.decode(b"\x1b$B0!\x1b(B")
    names = [decoder.errors for decoder in FAST_DECODERS.values()] + [_iso_2022_jp._ERRORS]
    for decoder in FAST_DECODERS.values():
        decoder(b"\xff")
    for name in names:
        assert callable(codecs.lookup_error(name))
        with pytest.raises(UnicodeEncodeError):  # decoding handlers only
            "\udc80".encode("ascii", name)
    # Used outside our decoders, a handler decodes the codec's own input.
    for name, decoder in FAST_DECODERS.items():
        data = b"a\xa1\x30\x81\x30\x81\x30 b"  # (errors only: no character to replace)
        want = MODULES[name].reference_decode(data)
        assert data.decode(decoder.codec, decoder.errors) == want, name


def test_fast_decoders_are_thread_safe() -> None:
    """The handler keeps what it found per thread: decoders running at once in several
    threads give what they give alone."""
    from concurrent.futures import ThreadPoolExecutor

    rng = random.Random("threads")
    inputs = [
        (name, valid_text(name, rng, 5000) + random_bytes(rng, 2000) + valid_text(name, rng, 9000))
        for name in sorted(FAST_DECODERS)
        for _ in range(4)
    ]
    want = [fast(name)(data) for name, data in inputs]
    with ThreadPoolExecutor(8) as pool:
        for _ in range(3):
            assert list(pool.map(lambda pair: fast(pair[0])(pair[1]), inputs)) == want


# -- ISO-2022-JP: the codec fast path ------------------------------------------------------------


def iso_2022_jp_text(rng: random.Random, runs: int) -> bytes:
    """What encoders write: ASCII (or Roman) text and JIS X 0208 runs in turn, any pair of
    bytes 0x21-0x7E (unmapped ones and the NEC and IBM rows included)."""
    out = [b"text <a>\r\n"]
    for _ in range(runs):
        pairs = [bytes([rng.randrange(0x21, 0x7F), rng.randrange(0x21, 0x7F)])]
        pairs += [rng.choice(COMMON_JIS) for _ in range(rng.randrange(0, 30))]
        out += [b"\x1b$B", *pairs, rng.choice([b"\x1b(B", b"\x1b(B", b"\x1b(J"])]
        out.append(rng.choice([b"\n", b" a\\b~ ", b"12\t", b"</p>\r\n"]))
    return b"".join(out)


COMMON_JIS = [bytes([lead, byte]) for lead in (0x24, 0x25, 0x30, 0x3B, 0x21) for byte in b"!0Ab~"]


def test_iso_2022_jp_fast_path_takes_encoder_output() -> None:
    rng = random.Random("iso-fast")
    for _ in range(200):
        data = iso_2022_jp_text(rng, rng.randrange(1, 40))
        assert _iso_2022_jp._simple_text(data), data
        assert _iso_2022_jp._fast(data) == _iso_2022_jp.reference_decode(data), data


def test_iso_2022_jp_fast_path_fixes_come_from_the_codec() -> None:
    """Python's iso2022_jp maps a few JIS X 0208 pairs elsewhere, as its euc_jp does."""
    fixes, suspects = _iso_2022_jp._codec_fixes()
    assert fixes.replace == {char: good for char, good in _euc_jp.FAST.fixes.replace.items()}
    assert not suspects


@pytest.mark.parametrize(
    "change",
    [
        b"\x1b$B\x1b(B",  # an empty run: the second escape outputs U+FFFD
        b"\x1b(B\x1b$B!!",
        b"\x1b(J\x1b(B",
        b"\x1b$B!\n!\x1b(B",  # a control byte in a JIS X 0208 run (the codec passes it)
        b"\x1b$B!!\n!!\x1b(B",  # the same between two pairs: no pair error to catch it
        b"\x1b$B\t!!\r\n\x1b(B",
        b"\x1b$B! !\x1b(B",
        b"\x1b$B!!!\x1b(B",  # an odd run: a leading byte meets ESC
        b"\x1b$B!\xa1\x1b(B",
        b"\x1b(I12",  # katakana
        b"\x1b$@!!\x1b(B",  # ESC $ @
        b"\x1bN",  # not an escape sequence (the codec passes it)
        b"\x1b$",
        b"\x1b",
        b"\x0e",  # SO and SI: errors in ASCII state (the codec passes them)
        b"\x0f",
        b"\x80",
        b"\x1b$B\x1b$B!!\x1b(B",  # two JIS X 0208 escapes in a row
        b"\x1b(B!!",  # ASCII escape first
        b"\x1b$B!!\x1bNa",  # the same, where an ASCII escape sequence belongs
        b"\x1b$B!!\x1b(I12",
        b"\x1b$B!!\x1b$B!!",
        b"\x1b$B!!\x1b",
    ],
)
def test_iso_2022_jp_fast_path_declines_what_the_codec_gets_wrong(change: bytes) -> None:
    """Each input differs from encoder output in one place; whether the fast path takes it
    or not, the result is the standard's."""
    rng = random.Random(change)
    for _ in range(20):
        head = iso_2022_jp_text(rng, rng.randrange(0, 5))
        tail = iso_2022_jp_text(rng, rng.randrange(0, 5))
        for data in (head + change, head + change + tail, change + tail, change):
            assert fast("ISO-2022-JP")(data) == _iso_2022_jp.reference_decode(data), data


def test_iso_2022_jp_shape_is_the_same_without_possessive_quantifiers() -> None:
    """Python 3.10 has no possessive quantifiers: its expression accepts the same inputs."""
    plain = _iso_2022_jp._encoder_shape(b"")
    if sys.version_info < (3, 11):
        assert _iso_2022_jp._ENCODER_SHAPE.pattern == plain.pattern
    rng = random.Random("iso-shape")
    for _ in range(300):
        data = iso_2022_jp_text(rng, rng.randrange(0, 20))
        cut = rng.randrange(len(data) + 1)
        for sample in (data, data[:cut], data[:cut] + random_bytes(rng, 8) + data[cut:]):
            want = plain.fullmatch(sample) is not None
            assert (_iso_2022_jp._ENCODER_SHAPE.fullmatch(sample) is not None) == want, sample


ISO_2022_JP_PIECES = [b"\x1b$B", b"\x1b(B", b"\x1b(J", b"\x1b$@", b"\x1b(I", b"\x1b", b"!!",
                      b"0!", b"-!", b"y!", b"!", b"\n", b" ", b"a", b"\\", b"~", b"\x0e",
                      b"\x80", b"$B", b"(B"]  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(ISO_2022_JP_PIECES), max_size=30).map(b"".join))
def test_iso_2022_jp_hypothesis(data: bytes) -> None:
    assert fast("ISO-2022-JP")(data) == _iso_2022_jp.reference_decode(data)


@pytest.mark.parametrize("name", sorted(FAST_DECODERS))
def test_token_decoder_never_outputs_a_replaced_character(name: str) -> None:
    """The fast path corrects the codec's text, error handler's tokens included, as a whole:
    so no token may output a character that Fixes.replace changes. Checked for every table
    entry and every long (computed) token that can map to a different character: EUC-JP's
    JIS X 0212 ones (gb18030's four-byte ones meet an empty Fixes.replace, as GBK's fast
    path needs none)."""
    decoder = FAST_DECODERS[name]
    replaced = set(decoder.fixes.replace)
    outputs = list(decoder.tokens.table.values())
    if name == "EUC-JP":
        outputs += [
            _euc_jp._three_bytes(bytes([0x8F, lead, byte]))
            for lead in range(0xA1, 0xFF)
            for byte in range(0xA1, 0xFF)
        ]
    if name == "gb18030":
        assert not replaced
    assert [text for text in outputs if replaced & set(text)] == []


# -- differing sequences where the codec is made to stop (Fixes.patch) -------------------------


def differing_pieces(name: str) -> list[bytes]:
    """The sequences the codec gets wrong, their characters from agreeing sequences, each
    inside another character (a leading byte before it, or its last byte a leading one),
    and what surrounds them in pages: ASCII, tags, quotes, the low bytes of the suspects."""
    fixes = FAST_DECODERS[name].fixes
    pieces = list(fixes.sequences)
    pieces += [b"\xa1\xfe", b"\xa2\x40", b"~"]  # agreeing: U+FF0F, U+FF3C, ~
    for seq in fixes.sequences:
        pieces += [b"\xa4" + seq, seq[:1], seq[1:], seq + b"\xa4"]
    pieces += [b"<", b">", b'"', b"d", b"E", b"N", b"A", b"B", b" ", b"\n", b"\xa4\xa1"]
    pieces += [b"\xa4\xa2", b"\xb0\xa1", b"\x8f", b"\x8f\xa2"]
    return pieces


@pytest.mark.usefixtures("piece_size")
@pytest.mark.parametrize("name", ["Big5", "EUC-JP"])
def test_differing_sequences_everywhere(name: str) -> None:
    """Every differing sequence at a boundary and inside characters, next to ASCII and
    tags, with and without errors nearby, in long inputs and cut anywhere (a sequence
    straddling or ending the input)."""
    module = MODULES[name]
    rng = random.Random(f"differing-{name}")
    pieces = differing_pieces(name)
    filler = valid_text(name, rng, 9000)
    for round_ in range(12):
        out = []
        size = 0
        while size < 40000:
            if rng.random() < 0.3:
                piece = filler[: rng.randrange(1, 4000)]
            else:
                piece = b"".join(rng.choices(pieces, k=rng.randrange(1, 6)))
            if round_ % 3 == 1 and rng.random() < 0.05:
                piece += rng.choice([b"\xff", b"\x80", b"\xa1\x30", b"\xa4 "])
            out.append(piece)
            size += len(piece)
        data = b"".join(out)
        # and the same bytes cut at places, so that a sequence is cut off by the end of input
        for edge in (0, 16384, 16385, 32767):
            sample = data[: edge + rng.randrange(-3, 4)] if edge else data
            assert fast(name)(sample) == module.reference_decode(sample), (round_, edge)


@pytest.mark.usefixtures("piece_size")
def test_big5_suspects_after_tags_and_in_characters() -> None:
    """Each big5hkscs suspect right after '<', '"', 'd' (their low bytes), alone, and its
    bytes inside two other characters, in long text."""
    rng = random.Random("big5-suspects")
    text = valid_text("Big5", rng, 20000)
    for seq in _big5.FAST.fixes.sequences:
        for around in (b"<%s>", b'"%s"', b"d%s", b"%s", b"\xa4%s\xa4", b"\xa4%s", b"<\xa4%s"):
            piece = around % seq
            data = text[:16380] + piece + text[16380:] + piece
            assert fast("Big5")(data) == _big5.reference_decode(data), piece
            assert fast("Big5")(piece) == _big5.reference_decode(piece), piece


@settings(max_examples=300, deadline=None)
@given(
    data=st.lists(
        st.sampled_from([*differing_pieces("Big5"), b"\xff", b"\x80", b"\xa1\x30"]), max_size=30
    ).map(b"".join)
)
def test_hypothesis_big5_differing_sequences(data: bytes) -> None:
    assert fast("Big5")(data) == _big5.reference_decode(data)


SEQUENCES = (b"\xa1\xa1", b"\xa1\xa1\xa1", b"\xa1E", b"\xa2E")  # two overlapping
FINDER = _multibyte.SequenceFinder(SEQUENCES)


def starts(data: bytes, start: int, end: int) -> list[int]:
    """Where SEQUENCES start in data[start:end], by brute force."""
    return [
        at
        for at in range(max(start, 0), max(end, 0))
        if any(data.startswith(seq, at, end) for seq in SEQUENCES)
    ]


@settings(max_examples=300, deadline=None)
@given(data=st.lists(st.sampled_from([b"\xa1", b"\xa2", b"E", b"\xa1\xa1", b"x"]), max_size=40))
def test_sequence_finder_finds_every_start(data: list[bytes]) -> None:
    """SequenceFinder.locate finds each start of each sequence, overlapping ones included,
    within the bounds given."""
    joined = b"".join(data)
    for start, end in ((0, len(joined)), (1, len(joined) - 1)):
        assert FINDER.locate(joined, start, end) == starts(joined, start, end)


@pytest.mark.parametrize("seed", range(4))
def test_sequence_finder_sparse_then_dense(seed: int) -> None:
    """Long inputs where a first byte is rare for a while (memchr walks to each) and then
    frequent (sre's scan takes over), overlapping sequences included."""
    rng = random.Random(seed)
    parts = []
    for _ in range(6):
        gap = rng.choice([3, 40, 3000])
        for _ in range(rng.randrange(1, 40)):
            parts.append(b"x" * rng.randrange(gap))
            parts.append(rng.choice([b"\xa1", b"\xa2", b"\xa1E", b"\xa1\xa1\xa1", b"\xa2E", b"E"]))
    data = b"".join(parts)
    for start, end in ((0, len(data)), (5, len(data) - 5)):
        assert FINDER.locate(data, start, end) == starts(data, start, end)


def test_replacements_that_the_standard_outputs_are_patched_instead() -> None:
    """A character the standard outputs for a differing sequence is never replaced in the
    text (the handler gives it for a patched sequence): a swap of two characters (Python's
    gb18030 swaps U+1E3F and U+E7C7 against the standard) is patched, and in a chain only
    the last link is."""
    swap = {"\u1e3f": "\ue7c7", "\ue7c7": "\u1e3f"}
    assert _multibyte.replaceable(swap, "\ue7c7\u1e3f") == {}
    chain = {"a": "b", "b": "c"}
    assert _multibyte.replaceable(chain, "bc") == {"a": "b"}
    assert _multibyte.replaceable({"\u301c": "\uff5e"}, "\uff5e") == {"\u301c": "\uff5e"}


@pytest.mark.parametrize(
    ("codec", "tokens", "max_length", "patch_all"),
    [
        ("big5hkscs", _big5.TOKENS, 1, True),  # its two-byte sequences were not compared
        ("euc_jp", _euc_jp.TOKENS, 2, False),  # nor its three-byte ones
        ("cp932", _shift_jis.TOKENS, 2, True),  # cp932 accepts every byte: nothing stops it
    ],
)
def test_fast_path_that_cannot_be_corrected_decodes_by_tokens(
    codec: str, tokens: _multibyte.TokenDecoder, max_length: int, patch_all: bool
) -> None:
    """Where the comparison with the codec is incomplete, or a sequence needs stopping but
    no byte stops the codec, the token decoder decodes everything (still exact)."""
    decoder = _multibyte.FastDecoder(
        codec, tokens, max_length=max_length, patch_all=patch_all, errors=f"test.{codec}"
    )
    assert not decoder.fixes.usable
    rng = random.Random(codec)
    data = b"".join(rng.choice([b"\xa1\xc2", b"\x8f\xa2\xb7", b"\xff", b"\x81\x40", b"a"])
                    for _ in range(2000))  # fmt: skip
    assert decoder(data) == tokens(data)


@pytest.mark.parametrize("name", ["Big5", "EUC-JP"])
def test_stop_byte_is_never_part_of_a_codec_sequence(name: str) -> None:
    """The byte written over a patched sequence's first byte makes the codec stop, alone,
    after every leading byte and (EUC-JP) in a three-byte sequence."""
    decoder = FAST_DECODERS[name]
    stop = decoder.fixes.stop
    assert stop is not None
    decode = codecs.lookup(decoder.codec).decode
    for lead in range(256):
        for data in (bytes([stop]), bytes([lead, stop]), bytes([0x8F, lead, stop])):
            with pytest.raises(UnicodeDecodeError):
                decode(data)


# -- recorded codec measurements (_measured.py, tools/gen_tables.py) ----------------------------


@pytest.mark.parametrize("name", sorted(FAST_DECODERS))
def test_recorded_fixes_are_what_the_comparison_finds(name: str) -> None:
    """Where this Python's codec has a recorded fingerprint, the record is exactly what the
    exhaustive comparison finds now (tools/gen_tables.py --check also fails where it has
    none); and the fingerprint is the one the comparison's layout gives."""
    decoder = FAST_DECODERS[name]
    measured = decoder.measure()
    fingerprint = _multibyte.codec_fingerprint(decoder.codec, measured.layout, decoder._deferred)
    key = decoder.key
    recorded = _multibyte.recorded_fixes(
        decoder.codec, decoder._max_length, decoder._patch_all, decoder._deferred
    )
    records = _measured.MEASURED.get(key, ())
    if recorded is None:
        assert all(record[0] != fingerprint for record in records)
    else:
        assert recorded[0] == measured
        assert any(record[0] == fingerprint for record in records)
    assert decoder.fixes == measured


def test_recorded_iso_2022_jp_fixes_are_what_the_comparison_finds() -> None:
    found = _iso_2022_jp.fingerprint()
    records = [record for record in _measured.ISO_2022_JP if record[0] == found]
    replace, suspects = _iso_2022_jp.measure()
    assert all((record[1], frozenset(record[2])) == (replace, suspects) for record in records)
    fixes, got = _iso_2022_jp._codec_fixes()
    assert (fixes.replace, got) == (replace, suspects)


def _wrapped_codec(name: str, base: str, old: bytes, new: bytes) -> None:
    """Register codec *name*: *base*'s decoder, which decodes the sequence *old* as
    *new* (of the same length)."""
    info = codecs.lookup(base)

    def decode(data: bytes, errors: str = "strict") -> tuple[str, int]:
        return info.decode(bytes(data).replace(old, new), errors)  # type: ignore[no-any-return]

    def search(looked_up: str) -> codecs.CodecInfo | None:
        if looked_up != name:
            return None
        return codecs.CodecInfo(
            info.encode, decode, incrementaldecoder=info.incrementaldecoder, name=name
        )

    codecs.register(search)


def test_a_codec_that_decodes_otherwise_does_not_take_the_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fingerprint tells a codec that decodes one character otherwise (here euc_jp
    with U+301C turned into U+3012) from the one measured: the record filed for it is not
    taken, and the comparison, run instead, finds the new difference. The same codec,
    unchanged, takes the record."""
    _wrapped_codec("test_same_euc_jp", "euc_jp", b"", b"")
    _wrapped_codec("test_other_euc_jp", "euc_jp", b"\xa1\xc1", b"\xa2\xa9")  # U+3012
    record = _measured.MEASURED[_euc_jp.FAST.key][0]
    layout = record[6]
    assert _multibyte.codec_fingerprint("euc_jp", layout, True) == record[0]
    assert _multibyte.codec_fingerprint("test_same_euc_jp", layout, True) == record[0]
    assert _multibyte.codec_fingerprint("test_other_euc_jp", layout, True) != record[0]
    for codec in ("test_same_euc_jp", "test_other_euc_jp"):
        key = _multibyte.measurement_key(codec, 3, False, True)
        monkeypatch.setitem(_measured.MEASURED, key, (record,))
    same = _multibyte.recorded_fixes("test_same_euc_jp", 3, False, True)
    assert same is not None and same[0] == _euc_jp.FAST.fixes
    assert _multibyte.recorded_fixes("test_other_euc_jp", 3, False, True) is None
    other = _multibyte.FastDecoder(
        "test_other_euc_jp", _euc_jp.TOKENS, max_length=3, errors="test.other_euc_jp"
    )
    assert "\u3012" in other.fixes.replace or b"\xa1\xc1" in other.fixes.patch
    data = b"\xa1\xc1 a \xa1\xc1"  # (euc_jp: U+301C; the standard: U+FF5E)
    assert other(data) == _euc_jp.reference_decode(data) == _euc_jp.FAST(data)


def test_a_codec_that_differs_in_a_deferred_round_is_measured_when_it_matters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """EUC-JP's third round (0x8F and two bytes) is checked for the prefixes (0x8F and a
    byte) that inputs hold: a codec that differs only there (here euc_jp with JIS X 0212's
    U+00E0, 8F AB A2, decoded as U+00E1) takes the record for inputs without 0x8F and for
    inputs with other prefixes, and is measured, and decodes as the standard, at the first
    input with 8F AB."""
    _wrapped_codec("test_jisx0212_euc_jp", "euc_jp", b"\x8f\xab\xa2", b"\x8f\xab\xa1")
    record = _measured.MEASURED[_euc_jp.FAST.key][0]
    layout = record[6]
    first = _multibyte.codec_fingerprint("test_jisx0212_euc_jp", layout[:1])
    assert first == record[0][: len(first)]
    fingerprint = _multibyte.codec_fingerprint("test_jisx0212_euc_jp", layout, True)
    prefixes = [layout[1][at : at + 2] for at in range(0, len(layout[1]), 2)]
    parts = zip(prefixes, fingerprint[3:], record[0][3:], strict=True)
    differing = [prefix for prefix, part, recorded in parts if part != recorded]
    assert differing == [b"\x8f\xab"]
    key = _multibyte.measurement_key("test_jisx0212_euc_jp", 3, False, True)
    monkeypatch.setitem(_measured.MEASURED, key, (record,))
    decoder = _multibyte.FastDecoder(
        "test_jisx0212_euc_jp", _euc_jp.TOKENS, max_length=3, deferred=True, errors="test.0212"
    )
    plain = "日本語のテキスト <p>".encode("euc_jp") * 100
    assert decoder(plain) == _euc_jp.reference_decode(plain)
    assert decoder.fixes == _euc_jp.FAST.fixes
    other = plain + b"\x8f\xa9\xa1\x8f\xb0\xa1" + plain  # (other prefixes: as recorded)
    assert decoder(other) == _euc_jp.reference_decode(other)
    assert decoder.fixes == _euc_jp.FAST.fixes
    assert decoder._later is not None and decoder._later.checked == {b"\x8f\xa9", b"\x8f\xb0"}
    jisx0212 = plain + b"\x8f\xab\xa2" + plain  # (the standard: U+00E0)
    assert decoder(jisx0212) == _euc_jp.reference_decode(jisx0212)
    assert "\xe0" in decoder(jisx0212)
    assert decoder._later is None and decoder.fixes != _euc_jp.FAST.fixes


def _gen_tables() -> ModuleType:
    from pathlib import Path

    tools = str(Path(__file__).resolve().parent.parent / "tools")
    sys.path.insert(0, tools)
    try:
        import gen_tables
    finally:
        sys.path.remove(tools)
    return gen_tables


def test_gen_tables_check_fails_on_a_wrong_record(monkeypatch: pytest.MonkeyPatch) -> None:
    """tools/gen_tables.py --check passes on the records as generated, and fails where a
    record of this Python's fingerprint says other than the comparison finds (here one
    sequence fewer to stop at) or where this Python's fingerprint has no record."""
    gen_tables = _gen_tables()
    assert gen_tables.check_measured() == []
    key = _big5.FAST.key
    record = _measured.MEASURED[key][0]
    wrong = (*record[:3], record[3][1:], *record[4:])
    monkeypatch.setitem(_measured.MEASURED, key, (wrong,))
    assert any(key in each and "not recorded" in each for each in gen_tables.check_measured())
    other = (("0:00000000",), *record[1:])
    monkeypatch.setitem(_measured.MEASURED, key, (other,))
    assert any(key in each and "not recorded" in each for each in gen_tables.check_measured())


def test_deferred_round_checked_whole_after_a_few_inputs() -> None:
    """Per prefix for the first inputs that hold 0x8F, then the whole round at once (a scan
    per input would cost more on pages full of JIS X 0212): the record stands, and the
    decoder stops looking."""
    decoder = _multibyte.FastDecoder(
        "euc_jp", _euc_jp.TOKENS, max_length=3, deferred=True, errors="test.deferred"
    )
    data = "日本語 àé".encode("euc_jp") * 50
    for count in range(1, _multibyte._DEFERRED_INPUTS + 2):
        assert decoder(data) == _euc_jp.reference_decode(data)
        later = decoder._later
        if count <= _multibyte._DEFERRED_INPUTS:
            assert later is not None and later.checked == {b"\x8f\xab"}
    assert decoder._later is None and decoder.fixes == _euc_jp.FAST.fixes


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(exclude_categories=())))
def test_checksum_is_of_the_utf_16le_encoding(text: str) -> None:
    """The fingerprint's checksum: ``_codecs``' UTF-16LE function gives what ``str.encode``
    gives (lone surrogates too), so recorded fingerprints stay valid."""
    import zlib

    encoded = text.encode("utf-16-le", "surrogatepass")
    assert _multibyte.checksum(text) == f"{len(text)}:{zlib.crc32(encoded):08x}"
    lone = encoded + b"\x00\xd8"  # a lone surrogate
    assert _multibyte.checksum(text + "\ud800") == f"{len(text) + 1}:{zlib.crc32(lone):08x}"


@pytest.mark.parametrize("bound", [1000, 1 << 17])
def test_token_dict_of_computed_decoders_is_bounded_and_exact(
    bound: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """gb18030's token decoder looks tokens up by their bytes in a dict of those met so far
    (learning each stretch's new ones); with few entries allowed it is emptied and learns
    again: the output is the standard's throughout, the dict never larger than allowed."""
    monkeypatch.setattr(_multibyte, "_COMPUTED", bound)
    old = _gb18030.TOKENS
    tokens = _multibyte.TokenDecoder(
        old.multi, old.singles, old.separator, old.build, old.leads, old.row, old.compute,
        old.resync, old.legit,
    )  # fmt: skip
    rng = random.Random(f"learn-{bound}")
    four = "".join(chr(rng.randrange(0x0400, 0x1000)) for _ in range(300))  # four-byte
    sizes = []
    for _ in range(6):
        text = valid_text("gb18030", rng, 500)
        data = text + four.encode("gb18030") + random_bytes(rng, 400) + text
        assert tokens(data) == _gb18030.reference_decode(data)
        sizes.append(len(tokens._by_token))
        assert 0 < sizes[-1] <= bound
    # (each input, one stretch, has fewer than 1000 tokens, the six more: the dict was
    # emptied with the lower bound, never with the real one)
    assert (sizes == sorted(sizes)) == (bound > 1000)


# gb18030's four-byte letters in stretches: Python's gb18030 codec, checked on first use.

#: Letters of scripts that gb18030 encodes in four bytes (Hebrew, Arabic, Thai, Tibetan,
#: Latin "ß", emoji beyond U+FFFF), and the characters where Python's codec and the
#: standard disagree: the standard's U+FE10 (A6 D9), U+1E3F (A8 BC), U+E7C7 (81 35 F4 37).
FOUR_BYTE_WORDS = ["שלום", "עברית", "مرحبا", "ภาษาไทย", "བོད", "ßtraße", "🙂🙃", "中文", "ё"]
DIFFERING = [b"\xa6\xd9", b"\xa8\xbc", b"\x81\x35\xf4\x37", b"\xa3\xa0", b"\xfe\x59", b"\x80"]


def four_byte_text(rng: random.Random, words: int) -> bytes:
    return " ".join(rng.choice(FOUR_BYTE_WORDS) for _ in range(words)).encode("gb18030")


def test_codec_stretches_take_four_byte_letters() -> None:
    """A stretch of four-byte letters is decoded by Python's codec (not None: the check on
    first use found it as the standard), and as the standard decodes it."""
    rng = random.Random("stretches")
    for _ in range(50):
        chunk = four_byte_text(rng, rng.randrange(1, 40)) + b"\n"
        text = _gb18030.CODEC_STRETCHES(chunk)
        assert text is not None
        assert text == _gb18030.reference_decode(chunk)


@pytest.mark.parametrize("seed", range(20))
def test_codec_stretches_give_the_standards_text_or_none(seed: int) -> None:
    """Stretches of four-byte letters with Chinese, the sequences where the codec and the
    standard disagree, errors and cut-off sequences: the codec's text is the standard's
    wherever it is taken, and so is every decoder's output over such text."""
    rng = random.Random(f"stretch-{seed}")
    pieces = []
    for _ in range(rng.randrange(1, 30)):
        roll = rng.random()
        if roll < 0.6:
            pieces.append(four_byte_text(rng, rng.randrange(1, 20)))
        elif roll < 0.75:
            pieces.append(valid_text("gb18030", rng, rng.randrange(1, 50)))
        elif roll < 0.9:
            pieces.append(rng.choice(DIFFERING))
        else:
            pieces.append(random_bytes(rng, rng.randrange(1, 8)))
        pieces.append(rng.choice([b" ", b"\n", b"<p>", b""]))
    data = b"".join(pieces)
    want = _gb18030.reference_decode(data)
    text = _gb18030.CODEC_STRETCHES(data)
    assert text is None or text == want
    assert _gb18030.TOKENS(data) == want
    assert fast("gb18030")(data) == want
    long = data * 40
    assert decode_counting("gb18030", long) == reference_decode_counting("gb18030", long)
    stream = StreamDecoder("text/html; charset=gb18030")
    cuts = sorted(rng.randrange(len(long) + 1) for _ in range(20))
    ends = zip([0, *cuts], [*cuts, len(long)], strict=True)
    parts = [stream.feed(long[start:end]) for start, end in ends]
    parts.append(stream.close())
    assert stream.provenance is not None
    assert ("".join(parts), stream.provenance.replacements) == reference_decode_counting(
        "gb18030", long
    )


def test_codec_stretches_check_holds_for_every_sequence() -> None:
    """The first-use check decodes a sample of the four-byte sequences (the ends of every
    range of index gb18030 ranges); on the Python running the tests, every sequence is
    compared: where the codec gives another character than the standard, that character
    is one of the suspects the check found; where the standard has no code point, the codec
    rejects the sequence; and so for every two-byte sequence."""
    decode = codecs.lookup("gb18030").decode
    suspects = _gb18030.CodecStretches.differences(decode)
    assert suspects is not None  # (the codec is used)
    # Four bytes with a code point: below U+10000 (pointers 0-39419) and beyond.
    for start, end in ((0, 39420), (189000, 1237576)):
        # (each sequence followed by a newline: one letter, then "\n")
        lines = decode(_gb18030._four_bytes(list(range(start, end))), "strict")[0]
        assert lines[1::2] == "\n" * (end - start)
        got = lines[0::2]
        if start:
            want = "".join(map(chr, range(0x10000, 0x110000)))
        else:
            want = "".join(_gb18030.ranges_code_point(pointer) or "" for pointer in range(end))
        assert len(got) == len(want) == end - start
        assert {mine for mine, theirs in zip(got, want, strict=True) if mine != theirs} <= suspects
    # Four bytes without a code point: each rejected.
    for start, end in ((39420, 189000), (1237576, 126 * 12600)):
        got = decode(_gb18030._four_bytes(list(range(start, end))), "replace")[0]
        assert not _gb18030._NOT_REJECTED.search(got)
    # Two bytes: a leading byte with every byte but a digit.
    for lead in range(0x81, 0xFF):
        for byte in set(range(256)) - set(range(0x30, 0x3A)):
            want = _gb18030.reference_decode(bytes([lead, byte]))
            got = decode(bytes([lead, byte]), "replace")[0]
            if len(want) == 1 and want != "\ufffd":  # (a letter)
                assert got == want or got in suspects
            else:  # (an error: the codec rejects the pair too)
                assert "\ufffd" in got and not _gb18030._NOT_REJECTED.search(got)


def _altered(change: Callable[[bytes], bytes]) -> Callable[[bytes, str], tuple[str, int]]:
    """Python's gb18030 codec, decoding its input after *change*."""
    decode = codecs.lookup("gb18030").decode

    def altered(data: bytes, errors: str = "strict") -> tuple[str, int]:
        return decode(change(bytes(data)), errors)

    return altered


CHINESE = "中".encode("gb18030")


@pytest.mark.parametrize(
    ("what", "change"),
    [
        # accepts a four-byte sequence past the ranges (pointer 39420)
        ("past the ranges", lambda data: data.replace(b"\x84\x31\xa5\x30", CHINESE)),
        # accepts the last four-byte sequence of all (leading byte 0xFE)
        ("the last sequence", lambda data: data.replace(b"\xfe\x39\xfe\x39", CHINESE)),
        # accepts a leading byte with DEL
        ("a leading byte and DEL", lambda data: data.replace(b"\xa1\x7f", CHINESE)),
        # accepts a four-byte sequence cut short by an ASCII byte
        ("a cut-off sequence", lambda data: data.replace(b"\xfe\x30A", CHINESE + b"A")),
        # rejects a two-byte letter
        ("a letter rejected", lambda data: data.replace(b"\xb0\xa1", b"\xff\xff")),
        # decodes ASCII otherwise
        ("ASCII", lambda data: data.replace(b"~", b"-")),
    ],
)
def test_codec_stretches_refuse_a_codec_that_differs(
    what: str, change: Callable[[bytes], bytes]
) -> None:
    """A codec that accepts what the standard rejects, or rejects a letter, fails the check
    (it is not used: every stretch goes to the tokens)."""
    assert _gb18030.CodecStretches.differences(_altered(change)) is None, what
    stretches = _gb18030.CodecStretches()
    stretches.differences = staticmethod(lambda decode: None)  # type: ignore[method-assign]
    assert stretches("שלום".encode("gb18030")) is None


@pytest.mark.parametrize(
    "sequence",
    [
        b"\x81\x30\x81\x30",  # pointer 0, the first of the first range: U+0080
        b"\x84\x31\xa4\x39",  # pointer 39419, the last below U+10000: U+FFFF
        b"\x90\x30\x81\x30",  # pointer 189000: U+10000
        b"\x81\x35\xf4\x38",  # pointer 7458, beside the exception 7457
    ],
)
def test_codec_stretches_suspect_what_a_codec_decodes_otherwise(sequence: bytes) -> None:
    """A codec that decodes a sampled four-byte sequence to another character (here that
    of 81 30 81 31, U+0081): the character becomes a suspect, and a stretch that holds it
    goes to the tokens."""
    other = b"\x81\x30\x81\x31" if sequence != b"\x81\x30\x81\x31" else b"\x81\x30\x81\x32"
    decode = _altered(lambda data: data.replace(sequence, other))
    suspects = _gb18030.CodecStretches.differences(decode)
    assert suspects is not None
    assert decode(other, "strict")[0] in suspects


def test_codec_stretches_without_the_codec() -> None:
    """Where Python has no such codec, every stretch goes to the tokens."""
    stretches = _gb18030.CodecStretches("no-such-codec")
    assert stretches("שלום".encode("gb18030")) is None
    assert stretches("שלום".encode("gb18030")) is None
