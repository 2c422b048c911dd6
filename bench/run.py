"""Print the speed report (the same as `arle bench`): python bench/run.py [--quick] [--json]."""

from __future__ import annotations

import json
import sys

from arle_ai.play.benchmark import format_report, run_benchmarks


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    figures = run_benchmarks(quick=quick, progress=lambda m: print(f"... {m}", file=sys.stderr))
    print(json.dumps(figures, indent=1) if "--json" in argv else format_report(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
