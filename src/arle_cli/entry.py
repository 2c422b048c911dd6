"""The ``arle`` script's entry point: a Ctrl-C while the program is still importing (about
half a second: numpy, the engine, click) ends it like any other Ctrl-C, with exit code 130 and
one line, instead of a traceback from the middle of an import and death by SIGINT."""

from __future__ import annotations

import sys


def main() -> None:
    try:
        from arle_cli.main import cli
    except KeyboardInterrupt:
        sys.stderr.write("\narle: interrupted\n")
        raise SystemExit(130) from None
    cli()


if __name__ == "__main__":
    main()
