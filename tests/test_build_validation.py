"""tools/build_validation.py: the validation corpus builder, on catalogs made here.

The builder reads gettext catalogs; these tests write a few small ``.mo``
files (the format of GNU gettext, as Python's ``msgfmt.py`` writes it) into a
temporary locale folder and check what the builder makes of them: the
manifest, the truth of every sample, the sizes, the split by source, that the
iso-codes catalogs are never read, and that the same seed gives the same corpus.
"""

from __future__ import annotations

import array
import importlib.util
import json
import random
import struct
import sys
import unicodedata
from pathlib import Path
from types import ModuleType

import pytest

from browser_decode import get_encoding

TOOL = Path(__file__).resolve().parents[1] / "tools" / "build_validation.py"


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_validation", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_validation"] = module
    spec.loader.exec_module(module)
    return module


bv = _load_tool()

WORDS = {
    "fr": "été café fenêtre château garçon où très élève crème la le de et un une avec pour "
    "dans sur nous vous ils sont avoir faire dire cœur",
    "ru": "привет мир съешь же ещё этих мягких французских булок да выпей чаю в городе "
    "прошёл концерт погода была тёплой",
    "ja": "日本語の テキストです。 東京の 価格表 吾輩は 猫である。 名前は まだ無い。 "
    "どこで 生れたか とんと 見当が つかぬ。",
    "tr": "ağaç şehir ılık İstanbul çarşı öğrenci güzel dağ yağmur kış akşam balıkçı "
    "ve bir bu da ile için",
    "eo": "ĉiuj ĝardeno ĥoro ĵaŭdo ŝipo kaj la de en estas al por ne kun ŝi ĝi",
}
# A catalog of iso-codes: its text must never reach the corpus.
ISO_MARK = "Ωμέγαϊσοκώδικας"


def _write_mo(path: Path, messages: dict[str, str]) -> None:
    """A GNU .mo file (little-endian, no hash table) holding *messages*."""
    messages = {"": "Content-Type: text/plain; charset=UTF-8\n", **messages}
    keys = sorted(messages)
    ids = strs = b""
    offsets = []
    for key in keys:
        encoded_key, encoded_value = key.encode(), messages[key].encode()
        offsets.append((len(ids), len(encoded_key), len(strs), len(encoded_value)))
        ids += encoded_key + b"\0"
        strs += encoded_value + b"\0"
    key_start = 7 * 4 + 16 * len(keys)
    value_start = key_start + len(ids)
    key_offsets: list[int] = []
    value_offsets: list[int] = []
    for id_offset, id_length, str_offset, str_length in offsets:
        key_offsets += [id_length, id_offset + key_start]
        value_offsets += [str_length, str_offset + value_start]
    header = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + len(keys) * 8, 0, 0)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(header + array.array("i", key_offsets + value_offsets).tobytes() + ids + strs)


@pytest.fixture(scope="module")
def locale_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("locale")
    rng = random.Random(5)
    for language, words in WORDS.items():
        vocabulary = words.split()
        for domain in ("alpha", "beta", "gamma"):
            messages = {}
            for number in range(120):
                sentence = " ".join(rng.choice(vocabulary) for _ in range(rng.randrange(4, 12)))
                messages[f"Message {number} of {domain}"] = sentence
            _write_mo(root / language / "LC_MESSAGES" / f"{domain}.mo", messages)
        _write_mo(
            root / language / "LC_MESSAGES" / "iso_639.mo",
            {f"Language {n}": f"{ISO_MARK} {n} " * 3 for n in range(50)},
        )
    return root


@pytest.fixture(scope="module")
def corpus(locale_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("validation")
    units = bv.gettext_units(locale_dir)
    bv.build(out, units, seed=7, per=1, log=lambda line: None)
    return out


def _rows(split: Path) -> list[dict[str, str]]:
    with open(split / "manifest.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def test_manifest_rows_and_truth(corpus: Path) -> None:
    for split in ("tune", "report"):
        rows = _rows(corpus / split)
        assert rows
        for row in rows:
            assert set(row) == {"file", "encoding", "language", "size", "kind", "source"}
            assert row["size"] in bv.TEXT_SIZES or row["size"] in bv.PAGE_SIZES
            assert row["kind"] in ("text", "html")
            encoding = get_encoding(row["encoding"])
            assert encoding is not None and encoding.name == row["encoding"]
            assert row["language"] in bv.TABLE[row["encoding"]]
            data = (corpus / split / row["file"]).read_bytes()
            truth = encoding.decode(data)
            assert "\ufffd" not in truth  # the bytes are clean in their encoding
            assert not truth.isascii()
            if row["kind"] == "html":
                assert data.startswith(bv.PAGE_HEAD) and data.endswith(bv.PAGE_TAIL)
                assert b"charset" not in data
            body = data.removeprefix(bv.PAGE_HEAD).removesuffix(bv.PAGE_TAIL)
            if row["size"].isdigit() and row["kind"] == "text":
                assert len(body) <= int(row["size"])
            if row["size"] in bv.PAGE_SIZES and row["encoding"] != "ISO-2022-JP":
                text = encoding.decode(body)
                assert len(text) == bv.PAGE_SIZES[row["size"]]
                assert not any(char in text for char in "&<>")


def test_every_pair_with_text_is_built(corpus: Path) -> None:
    pairs = {(row["encoding"], row["language"]) for row in _rows(corpus / "report")}
    for encoding, languages in bv.TABLE.items():
        for language in set(languages) & set(WORDS):
            assert (encoding, language) in pairs
    assert ("ISO-8859-3", "eo") in pairs and ("ISO-8859-3", "tr") in pairs
    sizes = {row["size"] for row in _rows(corpus / "report")}
    assert sizes == set(bv.TEXT_SIZES) | set(bv.PAGE_SIZES)


def test_splits_have_disjoint_sources_and_no_iso_codes(corpus: Path) -> None:
    units = {}
    for split in ("tune", "report"):
        units[split] = {u for row in _rows(corpus / split) for u in row["source"].split("+")}
        assert all(unit.startswith("gettext:") for unit in units[split])
        assert not any("iso_" in unit for unit in units[split])
        for path in (corpus / split).rglob("*"):
            if path.is_file() and path.name != "manifest.jsonl":
                assert ISO_MARK.encode("utf-8") not in path.read_bytes()
    assert units["tune"] and units["report"]
    assert not units["tune"] & units["report"]


def test_same_seed_same_corpus(locale_dir: Path, corpus: Path, tmp_path: Path) -> None:
    bv.build(tmp_path, bv.gettext_units(locale_dir), seed=7, per=1, log=lambda line: None)
    for split in ("tune", "report"):
        assert (tmp_path / split / "manifest.jsonl").read_bytes() == (
            corpus / split / "manifest.jsonl"
        ).read_bytes()
        for row in _rows(corpus / split):
            assert (tmp_path / split / row["file"]).read_bytes() == (
                corpus / split / row["file"]
            ).read_bytes()


@pytest.mark.parametrize("name", [n for n in bv.TABLE if n not in bv.CODECS])
def test_single_byte_encoder_inverts_the_decoder(name: str) -> None:
    encoding = get_encoding(name)
    assert encoding is not None
    encoder = bv.Encoder(name, "xx")
    for byte in range(256):
        char = encoding.decode(bytes([byte]))
        if char != "\ufffd":
            assert encoder.encode(char) == bytes([byte])
    assert encoder.encode("\u4e00") is None  # not in the encoding: refused, never dropped


def test_legacy_spellings() -> None:
    """Romanian comma-below letters become cedilla letters where the encoding lacks
    them; Vietnamese in windows-1258 is base letter plus combining tone."""
    assert bv.Encoder("ISO-8859-2", "ro").prepare("știință") == "ştiinţă"
    assert bv.Encoder("ISO-8859-16", "ro").prepare("știință") == "știință"
    encoder = bv.Encoder("windows-1258", "vi")
    text = encoder.prepare("Tiếng Việt")
    data = encoder.encode(text)
    assert data is not None and unicodedata.normalize("NFC", text) == "Tiếng Việt"
    assert get_encoding("windows-1258").decode(data) == text  # type: ignore[union-attr]


def test_ud_treebanks_feed_maltese_and_urdu(tmp_path: Path) -> None:
    """``--ud``: each .conllu file is a unit of its language, made of its ``# text =``
    sentences; other languages' treebanks and the annotation lines are not read."""
    maltese = "Il-Gvern ħabbar li l-ħaddiema se jingħataw żieda fil-paga tagħhom."
    urdu = "پاکستان کے وزیر اعظم نے آج ایک اہم اجلاس کی صدارت کی۔"
    folder = tmp_path / "UD_Test"
    folder.mkdir()
    for part in ("train", "dev"):
        (folder / f"mt_mudt-ud-{part}.conllu").write_text(
            f"# sent_id = {part}-1\n# text = {maltese}\n1\tIl-Gvern\tgvern\tNOUN\t_\n\n",
            encoding="utf-8",
        )
    (folder / "ur_udtb-ud-test.conllu").write_text(f"# text = {urdu}\n\n", encoding="utf-8")
    (folder / "de_gsd-ud-test.conllu").write_text("# text = Grüße aus München.\n\n", "utf-8")
    units = bv.ud_units([folder])
    assert set(units) == {"mt", "ur"}
    assert [u.name for u in units["mt"]] == [
        "ud:UD_Test/mt_mudt-ud-dev.conllu",
        "ud:UD_Test/mt_mudt-ud-train.conllu",
    ]
    assert all(u.messages == [maltese] for u in units["mt"])
    assert units["ur"][0].messages == [urdu]
    assert bv.Encoder("ISO-8859-3", "mt").encode(maltese) is not None
    encoder = bv.Encoder("windows-1256", "ur")
    legacy = encoder.prepare(urdu)
    assert legacy == urdu.replace("\u06cc", "\u064a").replace("\u06d4", ".")
    assert encoder.encode(urdu) is None and encoder.encode(legacy) is not None
