"""repair: each way of garbling, what must be left alone, the replayable plan.

Garbled inputs are made here the way the wrong decoders make them (Python's
``latin-1``/``cp1252`` codecs, the WHATWG windows-1252 decoder), from bytes
made by Python's encoders; the expected output is the original text.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from browser_decode import (
    RepairResult,
    RepairStatus,
    RepairStep,
    Source,
    get_encoding,
    repair,
)
from browser_decode._text.repair import apply_plan

RUSSIAN = (
    "Съешь же ещё этих мягких французских булок, да выпей чаю. "
    "В чащах юга жил бы цитрус? Да, но фальшивый экземпляр! "
    "Широкая электрификация южных губерний даст мощный толчок подъёму сельского хозяйства."
)
FRENCH = (
    "Le cœur a ses raisons que la raison ne connaît point. "
    "Où est la crème brûlée ? À côté du gâteau, près de la fenêtre. "
    "L'été dernier, nous avons visité la forêt et le château."
)


def _latin1(data: bytes) -> str:
    return data.decode("iso-8859-1")  # requests' default for text/* without charset


def _whatwg_1252(data: bytes) -> str:
    encoding = get_encoding("windows-1252")
    assert encoding is not None
    return encoding.decode(data)


def _assert_repaired(result: RepairResult, garbled: str, expected: str) -> None:
    assert result.text == expected
    assert result.changed
    assert result.status is RepairStatus.REPAIRED
    assert result.provenance is not None and result.provenance.replacements == 0
    assert apply_plan(garbled, result.plan) == expected
    assert result.replay(garbled) == expected


# --- repaired -----------------------------------------------------------


@pytest.mark.parametrize("garble", [_latin1, _whatwg_1252])
def test_utf8_read_as_single_byte(garble: object) -> None:
    """The commonest mojibake: UTF-8 bytes read one byte per character."""
    text = "Crème brûlée — “quoted” 日本語 ✓"
    garbled = garble(text.encode("utf-8"))  # type: ignore[operator]
    result = repair(garbled)
    _assert_repaired(result, garbled, text)
    assert result.provenance is not None and result.provenance.source is Source.UTF8


def test_iso_8859_1_is_reported_for_latin1_garbling() -> None:
    garbled = _latin1("naïve".encode())
    result = repair(garbled)
    assert result.wrong_decoding == "ISO-8859-1"
    assert result.plan == (RepairStep("encode", "iso-8859-1"), RepairStep("decode", "UTF-8"))


def test_python_cp1252_garbling() -> None:
    """Python's cp1252 (no undefined bytes here): the WHATWG inverse undoes it."""
    text = "‘Smart quotes’ – and the € sign"
    garbled = text.encode("utf-8").decode("cp1252")
    assert "â€˜" in garbled
    result = repair(garbled)
    _assert_repaired(result, garbled, text)
    assert result.wrong_decoding == "windows-1252"


def test_whatwg_1252_c1_bytes_are_recovered() -> None:
    """WHATWG windows-1252 maps 0x81 0x8D 0x8F 0x90 0x9D to U+0081...: reversible."""
    text = "Ánd Ō ŏ Ő ŝ"  # UTF-8 C3 81, C5 8C, C5 8F, C5 90, C5 9D
    data = text.encode("utf-8")
    assert all(byte in data for byte in (0x81, 0x8F, 0x90, 0x9D))
    garbled = _whatwg_1252(data)
    _assert_repaired(repair(garbled), garbled, text)


def test_python_cp1252_with_lost_bytes_is_impossible() -> None:
    """requests' errors="replace" turned 0x81 into U+FFFD: the byte is gone."""
    garbled = "Ánd".encode().decode("cp1252", errors="replace")
    result = repair(garbled)
    assert result.status is RepairStatus.IMPOSSIBLE
    assert (result.text, result.changed) == (garbled, False)


def test_meta_declared_shift_jis() -> None:
    text = '<html><head><meta charset="shift_jis"></head><body>日本語のテキストです。</body>'
    garbled = _latin1(text.encode("shift_jis"))
    result = repair(garbled)
    _assert_repaired(result, garbled, text)
    assert result.provenance is not None
    assert (result.provenance.encoding, result.provenance.source) == ("Shift_JIS", Source.META)


@pytest.mark.parametrize("content_type", [None, "application/rss+xml", "text/xml"])
def test_xml_declared_feed(content_type: str | None) -> None:
    text = '<?xml version="1.0" encoding="koi8-r"?><rss><title>' + RUSSIAN + "</title></rss>"
    garbled = _latin1(text.encode("koi8_r"))
    result = repair(garbled, content_type)
    _assert_repaired(result, garbled, text)
    assert result.provenance is not None and result.provenance.encoding == "KOI8-R"


@pytest.mark.parametrize(
    ("bom", "codec", "skip"),
    [
        (b"\xef\xbb\xbf", "utf-8", "3"),
        (b"\xff\xfe", "utf-16-le", "2"),
        (b"\xfe\xff", "utf-16-be", "2"),
    ],
)
def test_bom(bom: bytes, codec: str, skip: str) -> None:
    text = "<p>Grüße, 世界</p>"
    garbled = _latin1(bom + text.encode(codec))
    result = repair(garbled)
    _assert_repaired(result, garbled, text)
    assert RepairStep("skip", skip) in result.plan


def test_header_hint() -> None:
    """A charset the caller still has decides, even for a short text."""
    garbled = _latin1("Привет".encode("cp1251"))
    result = repair(garbled, "text/html; charset=windows-1251")
    _assert_repaired(result, garbled, "Привет")


def test_undeclared_cyrillic_is_detected_and_verified() -> None:
    """No declaration: detection decides, and the reading must be far less garbled."""
    garbled = _latin1(RUSSIAN.encode("cp1251"))
    result = repair(garbled)
    _assert_repaired(result, garbled, RUSSIAN)
    assert result.provenance is not None and result.provenance.source is Source.DETECTED


def test_undeclared_iso_2022_jp() -> None:
    """7-bit ISO-2022-JP read as ASCII is still repaired."""
    text = "日本語のテキストです。これはテストです。"
    garbled = _latin1(text.encode("iso2022_jp"))
    assert garbled.isascii()
    _assert_repaired(repair(garbled), garbled, text)


# --- left alone ---------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Hello, world! <p>Plain ASCII</p>",
        "Crème brûlée à la française, naïve café.",
        FRENCH,
        "Größe – „Zitat“ für 5 € … ‰",
        "SÃO PAULO – CORAÇÃO DO BRASIL, NÃO É?",  # legitimate "Ã"
        "Ã la carte: Ãgua, SÃO, ÃS",
        "日本語のテキストです。中文文本。한국어 텍스트.",
        "Привет, мир!",
        "a replacement character \ufffd stays",
        "",
    ],
)
def test_text_that_is_not_mojibake_comes_back_unchanged(text: str) -> None:
    result = repair(text)
    assert result.text == text
    assert not result.changed
    assert result.status in (RepairStatus.UNNEEDED, RepairStatus.IMPOSSIBLE)
    assert result.plan == ()
    assert result.reason


def test_ascii_is_unneeded() -> None:
    result = repair("plain")
    assert (result.status, result.provenance, result.wrong_decoding) == (
        RepairStatus.UNNEEDED,
        None,
        None,
    )


def test_cjk_is_not_undoable() -> None:
    result = repair("日本語")
    assert result.status is RepairStatus.IMPOSSIBLE
    assert result.wrong_decoding is None


def test_recovered_bytes_must_decode_cleanly() -> None:
    """A declaration the recovered bytes do not satisfy is no repair."""
    text = '<meta charset="utf-8">café'  # correct text; its Latin-1 bytes are not UTF-8
    result = repair(text)
    assert (result.text, result.status) == (text, RepairStatus.IMPOSSIBLE)
    assert result.provenance is not None and result.provenance.replacements > 0


# --- the result and the plan --------------------------------------------


def test_result_is_frozen() -> None:
    result = repair("x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.text = "y"  # type: ignore[misc]


def test_apply_plan_rejects_unknown_steps() -> None:
    with pytest.raises(ValueError, match="action"):
        apply_plan("x", [RepairStep("rot13", "")])
    with pytest.raises(ValueError, match="undo"):
        apply_plan("x", [RepairStep("encode", "utf-8")])
    with pytest.raises(ValueError, match="encoding"):
        apply_plan("x", [RepairStep("encode", "iso-8859-1"), RepairStep("decode", "nope")])


def test_repair_wants_text() -> None:
    with pytest.raises(TypeError, match="decode_body"):
        repair(b"caf\xc3\xa9")  # type: ignore[arg-type]


HUNGARIAN = (
    "Árvíztűrő tükörfúrógép. Öt szép szűz lány őrült írót nyúz. "
    "Egy hűtlen vejét fülöncsípő, dühös mexikói úr wesselényinél mázol Quitóban."
)
SPANISH = (
    "El pingüino Wenceslao hizo kilómetros bajo exhaustiva lluvia y frío, añoraba a su "
    "querido cachorro. La cigüeña tocaba el saxofón detrás del palenque de paja."
)


def test_default_encoding_hint_repairs_plausible_looking_garbling() -> None:
    """Hungarian read as ISO-8859-1 looks like text; the caller's default decides."""
    garbled = _latin1(HUNGARIAN.encode("iso8859_2"))
    result = repair(garbled, default_encoding="iso-8859-2")
    _assert_repaired(result, garbled, HUNGARIAN)
    unhinted = repair(garbled)
    assert unhinted.text in (garbled, HUNGARIAN)  # refused or right, never wrong


def test_default_encoding_hint_does_not_touch_correct_western_text() -> None:
    """Correct Spanish stays, even with a Central European default."""
    result = repair(SPANISH, default_encoding="iso-8859-2")
    assert (result.text, result.changed) == (SPANISH, False)


@pytest.mark.parametrize("text", [SPANISH, FRENCH])
def test_default_encoding_hint_leaves_correct_text(text: str) -> None:
    assert repair(text, default_encoding="windows-1250").text == text


def test_c1_controls_mark_a_wrong_decode() -> None:
    """Undeclared windows-1252 read as ISO-8859-1 leaves C1 controls: repaired."""
    text = "It’s “quoted” — 100 € in the café… " * 3
    garbled = _latin1(text.encode("cp1252"))
    assert "\x93" in garbled
    result = repair(garbled)
    _assert_repaired(result, garbled, text)


# Excluded: ESC (7-bit ISO-2022-JP), "<" and BOMs (declarations), and text that is a
# quarter U+0000 (taken for UTF-16 read byte by byte: a deliberate reading).
_TEXT = st.text(max_size=40).filter(
    lambda text: (
        not any(c in text for c in "\x1b<\ufeff")
        and not (len(text) >= 8 and text.count("\x00") * 4 >= len(text))
    )
)


@settings(max_examples=200, deadline=None)
@given(text=_TEXT)
def test_utf8_read_as_latin1_always_comes_back(text: str) -> None:
    """Any UTF-8 text read as ISO-8859-1 is restored exactly (valid UTF-8 is evidence)."""
    garbled = _latin1(text.encode("utf-8"))
    result = repair(garbled)
    assert result.text == text
    assert result.replay(garbled) == text or not result.changed


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=60))
def test_never_raises_and_unchanged_means_identical(text: str) -> None:
    result = repair(text)
    assert result.changed == (result.text != text)
    if not result.changed:
        assert result.text is text and result.plan == ()


TURKISH = (
    "Türkiye'nin başkenti Ankara'dır. İstanbul ise en kalabalık şehirdir; boğazı, camileri "
    "ve çarşılarıyla ünlüdür. Ağaçların gölgesinde çay içmek, dostlarla sohbet etmek "
    "güzeldir. Öğrenciler okula gidiyor, işçiler işe koşuyor. Kışın dağlara kar yağar, "
    "yazın sahillerde güneş yakıcıdır. Şehrin eski mahallelerinde dar sokaklar, ahşap "
    "evler ve küçük dükkânlar vardır. Akşamları balıkçılar ağlarını toplar, martılar "
    "kıyıda uçuşur. Pazar günleri aileler kahvaltıya çıkar, çocuklar parkta oynar. "
    "Üniversitede öğretim üyeleri araştırmalarını sürdürür, kütüphaneler geç saate kadar "
    "açık kalır. Müzelerde Osmanlı döneminden kalma eşyalar sergilenir."
)


def test_turkish_read_as_latin1_is_repaired() -> None:
    """Turkish windows-1254 read as ISO-8859-1 has "ý", "ð" and "þ" next to "ç" and
    "ü": letters that no single language uses together, so detection may decide."""
    garbled = TURKISH.encode("cp1254").decode("latin-1")
    result = repair(garbled)
    _assert_repaired(result, garbled, TURKISH)
    assert result.provenance is not None and result.provenance.source is Source.DETECTED


def test_ascii_utf16_read_byte_by_byte() -> None:
    """U+0000 between the letters: BOM-less UTF-16 read as ISO-8859-1."""
    page = "<p>Hello, world</p>"
    result = repair(page.encode("utf-16-le").decode("latin-1"))
    assert result.changed and result.text == page
    assert result.provenance is not None and result.provenance.encoding == "UTF-16LE"


HUNGARIAN = (
    "Árvíztűrő tükörfúrógép. A magyar nyelv az uráli nyelvcsalád tagja, ezen belül a "
    "finnugor nyelvek közé tartozik. Legközelebbi rokonai a hanti és a manysi. Budapesten a "
    "Duna két partján fekszik Buda és Pest; a hidak összekötik őket. Őszintén szólva ő is "
    "szerette a gyümölcsöt."
)


def test_hungarian_read_as_latin1_is_repaired() -> None:
    """Hungarian ISO-8859-2 read as ISO-8859-1 has "õ" and "û" ("ő", "ű") next to
    "á" and "ö": no language writes these together, and windows-1250 and
    ISO-8859-2 (a tie, score 0.5) give the same Hungarian text."""
    data = HUNGARIAN.encode("cp1250")
    assert data.decode("iso8859_2") == HUNGARIAN
    result = repair(data.decode("latin-1"))
    assert result.changed and result.text == HUNGARIAN
    assert result.provenance is not None
    assert result.provenance.encoding in ("windows-1250", "ISO-8859-2")


def test_one_accent_in_a_long_text_is_no_evidence() -> None:
    text = "plain words " * 200 + "café"
    assert not repair(text).changed


# --- correct text is never changed (issue 13 item 4) -------------------------

# The reported case: a UTF-8 English page whose only non-ASCII characters were a
# few "§" came back "repaired" as macintosh ("ß 16").
SYMBOLS = "§©®°±µ·¶¼½¾×÷£¥¢«»¿¡¹²³¤¦¨¬¯´¸"
SYMBOLS_1252 = "–—‘’“”•…™€‰†‡‚„ˆ‹›"
ENGLISH = (
    "See section 16 of the agreement and the notes below",
    "The temperature was 21 degrees at noon",
    "Copyright 2024 Example Corporation. All rights reserved",
    "Registered trademark of the company, used with permission",
    "Measured value 4.7 with an error of 0.2 micrometres",
    "Prices include tax; shipping is extra",
)


def _english_symbol_texts() -> list[str]:
    """English sentences whose only non-ASCII characters are symbols."""
    import random

    rng = random.Random(13)
    texts = [
        "See § 16 and § 17 of the Act. " * 3,
        "§ 16 Abs. 2 applies. " * 5,
        "© 2024 Example Inc. All rights reserved. Example® is a registered trademark.",
        "Bake at 180°C ± 5° for 25 min; add 10 µg of yeast · stir · serve.",
    ]
    for number in range(1200):
        words = rng.choice(ENGLISH).split()
        for _ in range(rng.randrange(1, 5)):
            pool = SYMBOLS if number % 3 else SYMBOLS + SYMBOLS_1252
            symbol = rng.choice(pool)
            where = rng.randrange(len(words) + 1)
            words.insert(where, symbol if rng.random() < 0.5 else f"{symbol}{rng.randrange(100)}")
        texts.append(" ".join(words) + ".")
        if number % 4 == 0:  # a whole page
            texts.append(f"<html><body><p>{texts[-1]}</p><footer>© 20{number % 25:02}</footer>")
    return texts


def _wordfreq_texts(per_language: int) -> list[str]:
    """Sentences of real words in each of wordfreq's 42 languages (the `test` extra
    installs it), frequency-weighted, with capitals, digits and punctuation."""
    import random

    import wordfreq

    texts = []
    for language in sorted(wordfreq.available_languages("small")):
        words = wordfreq.top_n_list(language, 3000, wordlist="small")
        weights = [1 / (rank + 10) for rank in range(len(words))]
        rng = random.Random(f"repair/{language}")
        for _ in range(per_language):
            sentences = []
            for _ in range(rng.randrange(1, 5)):
                sentence = rng.choices(words, weights, k=rng.randrange(3, 15))
                sentence[0] = sentence[0].capitalize()
                if rng.random() < 0.2:
                    sentence.insert(rng.randrange(len(sentence)), str(rng.randrange(1, 2000)))
                sentences.append(" ".join(sentence) + rng.choice(".?!;:"))
            texts.append(" ".join(sentences))
    return texts


def _gettext_texts(limit: int) -> list[str]:
    """Translated messages of the machine's gettext catalogs (/usr/share/locale,
    iso-codes left out), a few joined per text: text by translators, as in the
    validation corpus (tools/build_validation.py)."""
    import gettext
    import random
    from pathlib import Path

    root = Path("/usr/share/locale")
    rng = random.Random(13)
    texts: list[str] = []
    for directory in sorted(root.iterdir()) if root.is_dir() else []:
        messages: list[str] = []
        for path in sorted((directory / "LC_MESSAGES").glob("*.mo"))[:6]:
            if path.name.startswith("iso_"):
                continue
            try:
                with open(path, "rb") as f:
                    catalog = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
            except (OSError, ValueError, IndexError, KeyError):
                continue
            messages += [v for v in catalog.values() if isinstance(v, str) and len(v) > 10]
        for _ in range(min(60, len(messages) // 4)):
            texts.append(" ".join(rng.sample(messages, rng.randrange(1, 6))))
    return texts[:limit]


def _recoverable(text: str) -> bool:
    """Whether repair looks at the text at all (it is in the range of a Latin-1 or a
    windows-1252 decode and not ASCII): the texts that can go wrong."""
    return not text.isascii() and all(
        char < "\u0100" or char in SYMBOLS_1252 + "ŠšŽžŒœŸƒ" for char in text
    )


def test_symbol_only_english_is_never_repaired() -> None:
    """Symbols alone are no evidence of a wrong decode, whatever the detector says."""
    for text in ("Read § 16 and § 17.", "§ 16 " * 40, "Example® © 2024", "25 °C ± 1 µm · x"):
        result = repair(text)
        assert (result.text, result.changed) == (text, False), result.reason
        garbled_utf8 = _latin1(text.encode("utf-8"))  # while UTF-8 read as Latin-1 is fixed
        assert repair(garbled_utf8).text == text


def test_ten_thousand_correct_texts_are_never_changed() -> None:
    texts = _english_symbol_texts() + _wordfreq_texts(200) + _gettext_texts(4000)
    texts += [text.upper() for text in texts[::7]]
    assert len(texts) >= 10_000
    assert sum(map(_recoverable, texts)) >= 3_000  # enough of the texts repair examines
    changed = []
    for text in texts:
        result = repair(text)
        if result.changed or result.text != text:
            changed.append((text[:80], result.text[:80], result.reason))
    assert not changed, f"{len(changed)} of {len(texts)} correct texts changed: {changed[:5]}"
