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
