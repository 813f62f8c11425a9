"""Detection of undeclared bodies: pre-filters, candidates, hints, provenance.

Every text here was written for these tests (no corpus page is copied); the
expected encoding of each body is the one it was encoded with, and "right"
means the exact text: the chosen encoding's decoder gives the same string as
the true one's.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from browser_decode import Source, decode_html, get_encoding
from browser_decode._detect import default, detect, valid_utf8
from browser_decode._detect._hints import LOCALE_ENCODINGS, TLD_ENCODINGS, tld_encoding, tld_of
from browser_decode._detect._models import LATIN, MULTI_BYTE, SINGLE_BYTE, context_classes
from browser_decode._detect._rank import rank_candidates
from browser_decode._detect._sample import WHOLE, high_bytes, sample, trim
from browser_decode._labels import NAMES

# (at import: imported inside a hypothesis test, its module's own @given tests would be
# defined during that test, which hypothesis refuses when this file runs alone)
from .test_fast_paths import _context_by_counts

RUSSIAN = (
    "Вчера вечером мы долго гуляли по старому парку. Листья уже пожелтели, и ветер "
    "носил их по дорожкам. Мой брат рассказывал о своей новой работе: он пишет "
    "программы для больницы и очень доволен коллегами. Потом мы зашли в кафе, "
    "выпили горячего чаю с лимоном и решили, что в субботу поедем за город."
)
UKRAINIAN = (
    "Учора ввечері ми довго гуляли старим парком. Листя вже пожовкло, і вітер "
    "носив його доріжками. Мій брат розповідав про свою нову роботу: він пише "
    "програми для лікарні і дуже задоволений колегами. Потім ми зайшли до кав'ярні."
)
BULGARIAN = (
    "Вчера вечерта се разходихме дълго из стария парк. Листата вече бяха пожълтели "
    "и вятърът ги носеше по алеите. Брат ми разказваше за новата си работа: пише "
    "програми за болницата и е много доволен от колегите си."
)
GREEK = (
    "Χθες το βράδυ περπατήσαμε πολλή ώρα στο παλιό πάρκο. Τα φύλλα είχαν ήδη "
    "κιτρινίσει και ο άνεμος τα σκόρπιζε στα μονοπάτια. Ο αδελφός μου μιλούσε για "
    "τη νέα του δουλειά: γράφει προγράμματα για το νοσοκομείο και είναι ευχαριστημένος."
)
HEBREW = (
    "אתמול בערב טיילנו זמן רב בפארק הישן. העלים כבר הצהיבו והרוח פיזרה אותם על "
    "השבילים. אחי סיפר על העבודה החדשה שלו: הוא כותב תוכנות לבית החולים ומרוצה "
    "מאוד מהעמיתים שלו. אחר כך נכנסנו לבית קפה ושתינו תה חם עם לימון."
)
ARABIC = (
    "مشينا أمس في المساء طويلا في الحديقة القديمة. كانت الأوراق قد اصفرت وكانت "
    "الريح تحملها على الممرات. حدثني أخي عن عمله الجديد: إنه يكتب برامج للمستشفى "
    "وهو راض جدا عن زملائه. ثم دخلنا مقهى وشربنا الشاي الساخن."
)
TURKISH = (
    "Dün akşam eski parkta uzun süre yürüdük. Yapraklar sararmıştı ve rüzgâr onları "
    "yollara savuruyordu. Kardeşim yeni işini anlattı: hastane için yazılım geliştiriyor "
    "ve iş arkadaşlarından çok memnun. Sonra bir kafeye girip sıcak çay içtik."
)
CZECH = (
    "Včera večer jsme se dlouho procházeli starým parkem. Listí už zežloutlo a vítr "
    "je rozfoukával po cestičkách. Můj bratr vyprávěl o své nové práci: píše programy "
    "pro nemocnici a je se svými kolegy velmi spokojený. Potom jsme zašli do kavárny."
)
POLISH = (
    "Wczoraj wieczorem długo spacerowaliśmy po starym parku. Liście już pożółkły, a "
    "wiatr roznosił je po ścieżkach. Mój brat opowiadał o swojej nowej pracy: pisze "
    "programy dla szpitala i jest bardzo zadowolony z kolegów. Potem poszliśmy na kawę."
)
HUNGARIAN = (
    "Tegnap este sokáig sétáltunk a régi parkban. A levelek már megsárgultak, és a "
    "szél szétszórta őket az ösvényeken. A bátyám az új munkájáról mesélt: programokat "
    "ír a kórháznak, és nagyon elégedett a kollégáival. Utána beültünk egy kávézóba."
)
FRENCH = (
    "Hier soir, nous nous sommes longuement promenés dans le vieux parc. Les feuilles "
    "avaient déjà jauni et le vent les dispersait sur les allées. Mon frère parlait de "
    "son nouveau travail : il écrit des logiciels pour l'hôpital et en est très content."
)
GERMAN = (
    "Gestern Abend sind wir lange durch den alten Park spaziert. Die Blätter waren "
    "schon gelb, und der Wind wehte sie über die Wege. Mein Bruder erzählte von seiner "
    "neuen Arbeit: Er schreibt Programme für das Krankenhaus und ist sehr zufrieden."
)
THAI = (
    "เมื่อวานตอนเย็นเราเดินเล่นในสวนสาธารณะเก่าเป็นเวลานาน ใบไม้เริ่มเปลี่ยนเป็นสีเหลือง "
    "และลมพัดใบไม้ไปตามทางเดิน พี่ชายของฉันเล่าเรื่องงานใหม่ของเขา เขาเขียนโปรแกรมให้โรงพยาบาล"
)
JAPANESE = (
    "昨日の夜、私たちは古い公園を長い間散歩しました。葉はもう黄色くなっていて、"
    "風がそれを小道に散らしていました。兄は新しい仕事について話してくれました。"
    "病院のためのプログラムを書いていて、同僚にとても満足しているそうです。"
    "そのあと喫茶店に入って、温かいお茶を飲みました。"
)
CHINESE_SIMPLIFIED = (
    "昨天晚上我们在老公园里散步了很长时间。树叶已经变黄了，风把它们吹到小路上。"
    "我哥哥讲了他的新工作：他为医院编写程序，对同事们非常满意。"
    "后来我们走进一家咖啡馆，喝了热茶，决定星期六去郊外。"
)
CHINESE_TRADITIONAL = (
    "昨天晚上我們在老公園裡散步了很長時間。樹葉已經變黃了，風把它們吹到小路上。"
    "我哥哥講了他的新工作：他為醫院編寫程式，對同事們非常滿意。"
    "後來我們走進一家咖啡館，喝了熱茶，決定星期六去郊外。"
)
KOREAN = (
    "어제 저녁에 우리는 오래된 공원을 오랫동안 산책했습니다. 나뭇잎은 이미 노랗게 "
    "변했고 바람이 그것들을 길 위로 날려 보냈습니다. 형은 새 직장에 대해 이야기했습니다. "
    "병원을 위한 프로그램을 만들고 있고 동료들에게 아주 만족한다고 합니다."
)

#: (true WHATWG encoding, Python codec that makes the bytes, text)
CASES = [
    ("windows-1251", "cp1251", RUSSIAN),
    ("windows-1251", "cp1251", BULGARIAN),
    ("KOI8-R", "koi8_r", RUSSIAN),
    ("KOI8-U", "koi8_u", UKRAINIAN),
    ("IBM866", "cp866", RUSSIAN),
    ("ISO-8859-5", "iso8859_5", RUSSIAN),
    ("x-mac-cyrillic", "mac_cyrillic", RUSSIAN),
    ("ISO-8859-7", "iso8859_7", GREEK),
    ("windows-1253", "cp1253", GREEK),
    ("windows-1255", "cp1255", HEBREW),
    ("windows-1256", "cp1256", ARABIC),
    ("windows-1254", "cp1254", TURKISH),
    ("windows-1250", "cp1250", CZECH),
    ("ISO-8859-2", "iso8859_2", CZECH),
    ("ISO-8859-2", "iso8859_2", POLISH),
    ("windows-1250", "cp1250", POLISH),
    ("ISO-8859-2", "iso8859_2", HUNGARIAN),
    ("windows-1252", "cp1252", FRENCH),
    ("windows-1252", "cp1252", GERMAN),
    ("windows-874", "cp874", THAI),
    ("Shift_JIS", "cp932", JAPANESE),
    ("EUC-JP", "euc_jp", JAPANESE),
    ("GBK", "gbk", CHINESE_SIMPLIFIED),
    ("Big5", "big5", CHINESE_TRADITIONAL),
    ("EUC-KR", "euc_kr", KOREAN),
]


def _page(text: str, codec: str) -> bytes:
    return b"<html><head><title>t</title></head><body><p>" + text.encode(codec) + b"</p></body>"


def _same_text(chosen: str, truth: str, body: bytes) -> bool:
    a, b = get_encoding(chosen), get_encoding(truth)
    assert a is not None and b is not None
    return a.decode(body) == b.decode(body)


@pytest.mark.parametrize(
    ("truth", "codec", "text"), CASES, ids=[f"{c[0]}-{c[2][:3]}" for c in CASES]
)
def test_detects_the_exact_text(truth: str, codec: str, text: str) -> None:
    body = _page(text, codec)
    assert valid_utf8(body) is None
    hint = detect(body)
    assert hint is not None
    assert hint.source is Source.DETECTED
    assert _same_text(hint.encoding.name, truth, body), (hint.encoding.name, truth)
    result = decode_html(body)
    assert text in result.text
    assert result.provenance.source is Source.DETECTED
    assert result.provenance.score is not None and 0.0 <= result.provenance.score <= 1.0


@pytest.mark.parametrize(("truth", "codec", "text"), CASES[:8], ids=[c[0] for c in CASES[:8]])
def test_short_text_in_a_long_ascii_page(truth: str, codec: str, text: str) -> None:
    # the only non-ASCII text sits far beyond the sample's head
    body = b"<p>" + b"filler text " * 20000 + text[:120].encode(codec) + b"</p>"
    hint = detect(body)
    assert hint is not None
    assert _same_text(hint.encoding.name, truth, body), hint


# -- UTF-16 without a BOM -------------------------------------------------------


@pytest.mark.parametrize("name", ["UTF-16LE", "UTF-16BE"])
@pytest.mark.parametrize("text", ["<html><body>Hello, world. Plain text.</body></html>", RUSSIAN])
def test_utf16_nul_patterns(name: str, text: str) -> None:
    body = text.encode(name)
    if text.isascii():
        assert valid_utf8(body) is None  # valid UTF-8 (NULs are ASCII), but not UTF-8
    hint = detect(body)
    assert hint is not None and hint.encoding.name == name
    assert decode_html(body).text == text


def test_nuls_on_both_sides_are_not_utf16() -> None:
    body = b"\x00\x00abc\x00de\x00\x00fgh\x00" * 10 + "Привет".encode("cp1251")
    hint = detect(body)
    assert hint is None or not hint.encoding.name.startswith("UTF-16")


# -- ISO-2022-JP ---------------------------------------------------------------


def test_iso_2022_jp_is_not_taken_for_utf8() -> None:
    body = _page(JAPANESE, "iso2022_jp")
    assert body.isascii()  # 7-bit: valid UTF-8 ...
    assert valid_utf8(body) is None  # ... but left to detection
    hint = detect(body)
    assert hint is not None and hint.encoding.name == "ISO-2022-JP"
    assert JAPANESE in decode_html(body).text


def test_escape_bytes_alone_are_not_iso_2022_jp() -> None:
    body = b"\x1b[31mred\x1b[0m " + RUSSIAN.encode("cp1251")
    hint = detect(body)
    assert hint is not None and hint.encoding.name == "windows-1251"


# -- candidates ----------------------------------------------------------------


def test_multi_byte_candidates_that_fail_drop_out() -> None:
    data = _page(RUSSIAN, "cp1251")
    ranked = rank_candidates(data, high_bytes(data), {})
    names = {r.name for r in ranked}
    # Russian words of odd length end in a lead byte followed by a space: an error
    # in every multi-byte encoding
    assert not names & set(MULTI_BYTE)
    assert ranked[0].name == "windows-1251"


def test_latin_text_is_not_read_in_a_cyrillic_or_hebrew_encoding() -> None:
    # accented letters between ASCII letters: Latin script, whatever the language
    body = _page(GERMAN + " " + HUNGARIAN + " " + CZECH, "cp1250")
    hint = detect(body)
    assert hint is not None
    assert all(language in LATIN for language in SINGLE_BYTE[hint.encoding.name])


def test_candidates_are_whatwg_encodings_browsers_detect() -> None:
    for name in (*SINGLE_BYTE, *MULTI_BYTE):
        encoding = get_encoding(name)
        assert encoding is not None and encoding.name == name
    assert "replacement" not in SINGLE_BYTE
    assert "x-user-defined" not in SINGLE_BYTE


def test_nearly_valid_utf8_is_utf8() -> None:
    body = ("Grüße aus Köln, " * 20).encode() + b"\xff and a stray byte"
    assert valid_utf8(body) is None
    hint = detect(body)
    assert hint is not None and hint.encoding.name == "UTF-8"


# -- sampling ------------------------------------------------------------------


def test_large_bodies_are_sampled() -> None:
    body = (RUSSIAN.encode("cp1251") + b"\n") * 20000
    data = sample(body)
    assert len(data) <= WHOLE
    # pieces start and end at boundaries, so no character is cut
    assert data.startswith(body[:100])
    hint = detect(body)
    assert hint is not None and hint.encoding.name == "windows-1251"


def test_trim_keeps_a_bounded_number_of_non_ascii_bytes() -> None:
    data = (JAPANESE.encode("cp932") + b" ") * 50
    short, high = trim(data, high_bytes(data))
    assert len(high) < len(high_bytes(data))
    assert short.decode("cp932")  # cut between characters


# -- hints ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "tld"),
    [
        ("https://www.example.co.jp/path?q=1", "jp"),
        ("http://EXAMPLE.RU:8080/", "ru"),
        ("example.kr/index.html", "kr"),
        ("jp", "jp"),
        (".tw", "tw"),
        ("https://example.com./", "com"),
        ("", ""),
    ],
)
def test_tld_of(url: str, tld: str) -> None:
    assert tld_of(url) == tld == _tld_of_by_urlsplit(url)


def _tld_of_by_urlsplit(url: str) -> str:
    """tld_of as it was before its plain-URL shortcut: urlsplit's hostname for every URL."""
    from urllib.parse import urlsplit

    text = url.strip()
    if "/" in text or ":" in text:
        try:
            host = urlsplit(text if "//" in text else "//" + text).hostname or ""
        except ValueError:
            host = ""
    else:
        host = text
    return host.rstrip(".").rpartition(".")[2].lower()


@settings(max_examples=3000, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["http", "https", "HTTP", ":", "//", "/", "\\", "?", "#", "@", ".", "-", "a", "Ru",
             "jp.", "[", "]", "8080", " ", "\t", "\n", "\x00", "é", "xn--p1ai", "www"]
        ),
        max_size=12,
    ).map("".join)
)  # fmt: skip
def test_tld_of_plain_urls_as_urlsplit_reads_them(url: str) -> None:
    """tld_of's shortcut for plain http(s) URLs gives urlsplit's host's last label."""
    for text in (url, "http://" + url, "https://" + url, " http://" + url + "/x"):
        assert tld_of(text) == _tld_of_by_urlsplit(text), text


@pytest.mark.parametrize(
    ("url", "name"),
    [(".jp", "Shift_JIS"), ("ru", "windows-1251"), ("https://a.kr/", "EUC-KR"),
     ("x.tw", "Big5"), ("cn", "GBK"), ("gr", "ISO-8859-7"), ("com", None), (None, None)],
)  # fmt: skip
def test_tld_encoding(url: str | None, name: str | None) -> None:
    encoding = tld_encoding(url)
    assert (encoding and encoding.name) == name


def test_hint_tables_name_whatwg_encodings() -> None:
    for table in (TLD_ENCODINGS, LOCALE_ENCODINGS):
        for name in table.values():
            encoding = get_encoding(name)
            assert encoding is not None and encoding.name == name


# Hungarian with only the letters windows-1250 and ISO-8859-2 share: a tie.
TIE = _page(HUNGARIAN, "iso8859_2")


def test_tie_without_hint_is_decided_by_preference() -> None:
    assert get_encoding("windows-1250").decode(TIE) == get_encoding("ISO-8859-2").decode(TIE)  # type: ignore[union-attr]
    hint = detect(TIE)
    assert hint is not None and hint.encoding.name == "windows-1250"
    assert hint.runner_up == "ISO-8859-2"


def test_url_hint_breaks_a_tie() -> None:
    hint = detect(TIE, url="https://example.hu/")
    assert hint is not None and hint.encoding.name == "ISO-8859-2"


def test_default_encoding_breaks_a_tie() -> None:
    hint = detect(TIE, default_encoding="latin2")
    assert hint is not None and hint.encoding.name == "ISO-8859-2"


def test_hints_never_override_strong_evidence() -> None:
    body = _page(RUSSIAN, "cp1251")
    for kwargs in ({"url": ".jp"}, {"default_encoding": "shift_jis"}, {"url": "gr"}):
        hint = detect(body, **kwargs)  # type: ignore[arg-type]
        assert hint is not None and hint.encoding.name == "windows-1251", kwargs


def test_same_decoder_hint_keeps_its_name() -> None:
    body = _page(CHINESE_SIMPLIFIED, "gbk")
    assert detect(body).encoding.name == "GBK"  # type: ignore[union-attr]
    assert detect(body, default_encoding="gb18030").encoding.name == "gb18030"  # type: ignore[union-attr]


def test_unknown_default_encoding_is_ignored() -> None:
    body = _page(RUSSIAN, "koi8_r")
    assert detect(body, default_encoding="utf-7").encoding.name == "KOI8-R"  # type: ignore[union-attr]
    assert default(b"", default_encoding="utf-7").encoding.name == "windows-1252"


def test_default_uses_the_hints() -> None:
    assert default(b"").encoding.name == "windows-1252"
    assert default(b"", url="https://example.jp/").encoding.name == "Shift_JIS"
    hint = default(b"", url=".jp", default_encoding="euc-kr")
    assert hint.encoding.name == "EUC-KR" and hint.label == "euc-kr"
    assert hint.source is Source.DEFAULT
    # no browser falls back on the replacement decoder
    assert default(b"", default_encoding="iso-2022-kr").encoding.name == "windows-1252"


def test_decode_html_passes_hints() -> None:
    result = decode_html(TIE, url="example.hu")
    assert result.provenance.encoding == "ISO-8859-2"
    assert result.provenance.source is Source.DETECTED
    assert result.provenance.runner_up == "windows-1250"


# -- robustness ----------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600))
def test_any_bytes_give_a_whatwg_answer(body: bytes) -> None:
    hint = valid_utf8(body) or detect(body) or default(body)
    assert hint.encoding.name in NAMES
    assert hint.encoding.name not in ("replacement", "x-user-defined")
    if hint.score is not None:
        assert 0.0 <= hint.score <= 1.0
    assert hint.runner_up is None or hint.runner_up in NAMES
    decode_html(body)


def test_random_high_bytes_never_crash() -> None:
    rng = random.Random(4)
    for size in (1, 2, 3, 17, 1000, 70000):
        body = bytes(rng.randrange(256) for _ in range(size))
        hint = detect(body)
        assert hint is None or hint.encoding.name in NAMES


# -- the development corpus (measured, not tuned on) --------------------------------

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "dev"


@pytest.mark.skipif(not (CORPUS / "manifest.jsonl").exists(), reason="no development corpus")
def test_corpus_exact_text_accuracy() -> None:
    right = total = 0
    for line in (CORPUS / "manifest.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        body = (CORPUS / (row.get("undecl") or row["orig"])).read_bytes()
        chosen = decode_html(body).provenance.encoding
        total += 1
        right += _same_text(chosen, row["encoding"], body)
    assert right / total >= 0.99, f"{right}/{total}"


def test_generated_tables_are_up_to_date() -> None:
    # wordfreq and babel come with the test extra; iso-codes with Debian (apt-get install
    # iso-codes): the generator reads its catalogs under /usr/share/locale
    import babel  # noqa: F401
    import msgpack  # noqa: F401
    import wordfreq  # noqa: F401

    from ._chromium import require_tool

    require_tool(
        bool(list(Path("/usr/share/locale/eo/LC_MESSAGES").glob("iso_*.mo"))),
        "iso-codes' catalogs",
        "apt-get install iso-codes",
    )
    import subprocess
    import sys

    tool = Path(__file__).resolve().parents[1] / "tools" / "gen_detect_tables.py"
    subprocess.run([sys.executable, str(tool), "--check"], check=True)


def test_valid_utf8_with_non_ascii_is_not_taken_for_utf16() -> None:
    """A NUL next to a multi-byte UTF-8 sequence: UTF-16 would not be valid UTF-8."""
    body = "0\x00\x80".encode()
    hint = valid_utf8(body)
    assert hint is not None and hint.encoding.name == "UTF-8"


# -- shortcuts of the ranking: the same scores as the plain computation ------------------------

_WINDOW_PIECES = [b"Word", b"word", b"e", b"B", b"7", b" ", b"  ", b"<p>", b"-", b"\xe9", b"\xc9",
                  b"\xe0\xe8", b"\xa0", b"\xb7", b"\x80", b"\xcc", b"\xf0\xf1\xf2", b"\x00",
                  b"x" * 40, b"lorem ipsum dolor " * 3, b"0A", b"\xd1", b"\xe9\xb7\xe9\xb7\xe9",
                  b"\xc9\xd7\xc9"]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_WINDOW_PIECES), max_size=60).map(b"".join), st.floats(0.5, 4))
def test_context_on_the_bytes_near_high_ones_is_context_on_all(around: bytes, scale: float) -> None:
    """_rank._context over all the bytes, and over _rank._window's (from two bytes before
    the first byte 0x80-0xFF to two after the last) for the encodings of non-Latin scripts
    as the ranking counts them, give the context penalty of the plain count."""
    from browser_decode._detect._rank import (
        _ASCII_CASES,
        _context,
        _context_of,
        _flag_table,
        _window,
    )

    plain = (around, scale, around.translate(_ASCII_CASES).count(b"lu"))
    near, ones = _window(around, high_bytes(around))
    for name in SINGLE_BYTE:
        # as the penalty was first written: the script branch when the classes hold "a"
        alnum = b"a" in around.translate(context_classes(name))
        want = _context_by_counts(name, *plain, alnum)
        assert _context(name, around, scale) == want, name
        if context_classes(name)[0x61] == 0x61:  # (not a Latin encoding)
            flags = int.from_bytes(near.translate(_flag_table(name)), "big")
            assert _context_of(flags, ones, scale, 0) == want, name


@pytest.mark.parametrize("codec", sorted({codec for codec, _ in MULTI_BYTE.values()}))
def test_decode_with_few_errors_stops_early_but_agrees(codec: str) -> None:
    """What decoding (the sample without its long ASCII stretches) with "replace" and
    counting U+FFFD gives."""
    from browser_decode._detect._rank import _compact, _decode_with_few_errors

    rng = random.Random(codec)
    # gb18030 decodes 84 31 A4 37 to U+FFFD itself: counted, though not an error
    inputs = [b"\x841\xa47" * 3, b"", b"abc"]
    inputs += [bytes(rng.randrange(256) for _ in range(rng.randrange(0, 200))) for _ in range(300)]
    inputs += ["漢字かな한국어".encode(codec, "ignore") * 5 + b"\xff" * n for n in range(5)]
    for data in inputs:
        for limit in (0, 1, 2, 5, 50):
            text = _compact(data).decode(codec, "replace")
            want = text if text.count("\ufffd") <= limit else None
            got = _decode_with_few_errors(data, 0, len(data), codec, limit, [])
            assert got == want, (data, limit)
