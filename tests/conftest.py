"""Shared test helpers: where the vendored data and the spec live."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SPEC = ROOT / "spec" / "whatwg-encoding"
#: The development corpus beside the checkout (absent in a user's clone).
CORPUS = ROOT.parent / "shared" / "corpus" / "dev"


@cache
def encodings_json() -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = json.loads((SPEC / "encodings.json").read_text("utf-8"))
    return result


@cache
def indexes_json() -> dict[str, Any]:
    result: dict[str, Any] = json.loads((SPEC / "indexes.json").read_text("utf-8"))
    return result


def spec_labels() -> dict[str, str]:
    """Every label of the standard -> its encoding's name, straight from encodings.json."""
    return {
        label: encoding["name"]
        for group in encodings_json()
        for encoding in group["encodings"]
        for label in encoding["labels"]
    }
