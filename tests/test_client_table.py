"""docs/clients.md's client table is what the installed clients do today.

On a difference, ``python tools/client_table.py --update`` rewrites the table.
"""

from __future__ import annotations

import sys

import pytest

from .conftest import ROOT

pytest.importorskip("requests")
pytest.importorskip("httpx")
pytest.importorskip("aiohttp")
pytest.importorskip("scrapy")

sys.path.insert(0, str(ROOT / "tools"))
try:
    import client_table
finally:
    sys.path.pop(0)


def test_client_table_matches_the_installed_clients() -> None:
    rows = client_table.measure()
    # The browser's text of every case is what decode_response gives.
    for row in rows:
        assert row[-1].startswith("right: "), row
    assert client_table.table(rows) == client_table.documented(), (
        "docs/clients.md's client table differs from what the clients do now: "
        "run python tools/client_table.py --update"
    )
