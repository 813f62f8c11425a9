"""Every object of the library pickles: cluster workers send results between processes."""

from __future__ import annotations

import pickle

from browser_decode import Confidence, DecodeResult, Provenance, Source, decode_html, get_encoding
from browser_decode._get_an_encoding import ENCODINGS


def test_library_objects_pickle() -> None:
    """Cluster workers send results between processes: every public object pickles."""
    for encoding in ENCODINGS.values():
        assert pickle.loads(pickle.dumps(encoding)) is encoding
    for source in Source:
        for confidence in Confidence:
            provenance = Provenance("Shift_JIS", source, confidence, "sjis", 12, 1, 0.5, "EUC-JP")
            assert pickle.loads(pickle.dumps(provenance)) == provenance
    result = decode_html(b"<meta charset=shift_jis>\x82\xa0")
    copy = pickle.loads(pickle.dumps(result))
    assert isinstance(copy, DecodeResult)
    assert copy == result
    assert copy.encoding == "Shift_JIS"
    assert pickle.loads(pickle.dumps(get_encoding("latin1"))) is get_encoding("windows-1252")


_PROVENANCES = [
    Provenance(encoding, source, confidence, label, offset, replacements, score, runner_up, det)
    for encoding, label, offset, score, runner_up, det in [
        ("Shift_JIS", "sjis", 12, None, None, None),
        ("windows-1251", None, None, 0.973, "KOI8-R", "builtin"),
        ("UTF-8", None, None, 1.0, None, "charset-normalizer"),
        ("EUC-KR", None, None, 0.0, "UHC?", "tests.my_detector"),
    ]
    for source in Source
    for confidence in Confidence
    for replacements in (0, 3)
]


def test_provenance_round_trips_through_json() -> None:
    import json

    for provenance in _PROVENANCES:
        stored = json.dumps(provenance.to_dict())
        copy = Provenance.from_dict(json.loads(stored))
        assert copy == provenance
        assert str(copy) == str(provenance)
        assert type(copy.source) is Source and type(copy.confidence) is Confidence
        # The plain constructor with the stored strings gives the enums back too.
        again = Provenance(**json.loads(stored))
        assert again == provenance and str(again) == str(provenance)
        assert type(again.source) is Source


def test_provenance_dict_has_every_field_as_plain_json() -> None:
    import dataclasses

    provenance = _PROVENANCES[0]
    data = provenance.to_dict()
    assert list(data) == [field.name for field in dataclasses.fields(Provenance)]
    assert all(type(value) in (str, int, float, bool, type(None)) for value in data.values())


def test_from_dict_defaults_and_errors() -> None:
    import pytest

    old = {"encoding": "UTF-8", "source": "utf-8", "confidence": "tentative"}
    assert Provenance.from_dict(old) == Provenance("UTF-8", Source.UTF8, Confidence.TENTATIVE)
    with pytest.raises(ValueError, match="unknown field"):
        Provenance.from_dict({**old, "colour": "red"})
    with pytest.raises(ValueError):
        Provenance.from_dict({**old, "source": "guessed"})
    with pytest.raises(TypeError):
        Provenance.from_dict([("encoding", "UTF-8")])  # type: ignore[arg-type]


def test_decode_result_round_trips_through_json_and_shows_every_field() -> None:
    import dataclasses
    import json

    bodies = [
        b"<meta charset=shift_jis>\x82\xa0",
        "Привет, как дела? Всё хорошо, спасибо.".encode("cp1251"),
        b"\xef\xbb\xbfabc",
        b"plain",
    ]
    for body in bodies:
        result = decode_html(body)
        copy = DecodeResult.from_dict(json.loads(json.dumps(result.to_dict())))
        assert copy == result and str(copy.provenance) == str(result.provenance)
        for field in dataclasses.fields(Provenance):
            assert getattr(result, field.name) == getattr(result.provenance, field.name)
    detected = decode_html(bodies[1])
    assert detected.score is not None and detected.detector == "builtin"
    assert detected.runner_up == detected.provenance.runner_up
