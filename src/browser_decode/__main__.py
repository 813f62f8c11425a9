"""Command line: ``python -m browser_decode FILE [--content-type CT]``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ._api import decode_html


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="browser-decode",
        description="Decode a saved web page as a browser would and print how it was decided.",
    )
    parser.add_argument("file", help="the raw bytes of a page ('-' for standard input)")
    parser.add_argument(
        "--content-type",
        default=None,
        help="the HTTP Content-Type header the page was served with (default: none)",
    )
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            body = sys.stdin.buffer.read()
        else:
            with open(args.file, "rb") as handle:
                body = handle.read()
    except OSError as error:
        print(f"browser-decode: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 2
    text, provenance = decode_html(body, args.content_type)
    details = [f"confidence={provenance.confidence}"]
    if provenance.label is not None:
        details.append(f"label={provenance.label!r}")
    if provenance.offset is not None:
        details.append(f"offset={provenance.offset}")
    details.append(f"replacements={provenance.replacements}")
    print(f"# {provenance} " + " ".join(details))
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
