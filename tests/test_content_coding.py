"""undo_content_codings: every coding round-trips, stops at the cap, reports broken streams."""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Callable

import pytest

from browser_decode._content_coding import (
    BadCoding,
    TooLarge,
    UnsupportedCoding,
    still_compressed,
    undo_content_codings,
)

brotli = pytest.importorskip("brotli")
zstandard = pytest.importorskip("zstandard")

PAGE = b"<!DOCTYPE html><title>x</title>" + bytes(range(32, 127)) * 3000

CODINGS: dict[str, Callable[[bytes], bytes]] = {
    "gzip": gzip.compress,
    "x-gzip": gzip.compress,
    "deflate": zlib.compress,
    "br": brotli.compress,
    "zstd": lambda data: bytes(zstandard.ZstdCompressor().compress(data)),
}


@pytest.mark.parametrize("name", sorted(CODINGS))
def test_round_trip_and_case(name: str) -> None:
    assert undo_content_codings(CODINGS[name](PAGE), f" {name.upper()} ") == PAGE


def test_raw_deflate_and_stacked_codings() -> None:
    raw = zlib.compress(PAGE)[2:-4]
    assert undo_content_codings(raw, "deflate") == PAGE
    stacked = gzip.compress(brotli.compress(PAGE))
    assert undo_content_codings(stacked, "br, gzip") == PAGE
    assert undo_content_codings(gzip.compress(b"ab") + gzip.compress(b"cd"), "gzip") == b"abcd"


@pytest.mark.parametrize("name", sorted(CODINGS))
def test_cap(name: str) -> None:
    bomb = CODINGS[name](b"\0" * (8 << 20))
    with pytest.raises(TooLarge):
        undo_content_codings(bomb, name, limit=1 << 20)
    assert len(undo_content_codings(bomb, name, limit=8 << 20)) == 8 << 20


@pytest.mark.parametrize("name", sorted(CODINGS))
def test_truncated(name: str) -> None:
    data = CODINGS[name](PAGE)
    with pytest.raises(BadCoding):
        undo_content_codings(data[: len(data) // 2], name)


@pytest.mark.parametrize("name", sorted(CODINGS))
def test_stored_already_decoded(name: str) -> None:
    assert undo_content_codings(PAGE, name) == PAGE


def test_unknown_coding_and_identity() -> None:
    with pytest.raises(UnsupportedCoding):
        undo_content_codings(PAGE, "compress")
    assert undo_content_codings(PAGE, "identity, ") == PAGE
    assert undo_content_codings(PAGE, None) == PAGE


def test_still_compressed() -> None:
    assert still_compressed(gzip.compress(PAGE)) == "gzip"
    assert still_compressed(CODINGS["zstd"](PAGE)) == "zstd"
    assert still_compressed(PAGE) is None
