#!/usr/bin/env bash
# Build arle_ai.engine._core with AddressSanitizer and UBSan in a scratch copy of the source, then run
# random games, short searches, damaged inputs (bench/sanitize_run.py), the fuzz tests and the
# core's boundary tests (tests/test_core_boundary.py: None, bad weights, bad tables) under it.
# Any out-of-bounds access or undefined behaviour in the core aborts with a report.
#
#   bash bench/sanitize.sh            # the full run (about 10 minutes on a loaded 2-core box)
#   bash bench/sanitize.sh --quick    # the short run .ci/run does (a few minutes)
#
# Needs gcc with libasan and libubsan (Debian: gcc) and a Python environment with the project's
# test extra; Cython, numpy and setuptools are installed into it if missing. The in-place
# extension of the working tree is not touched.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
quick=0
if [[ "${1:-}" == "--quick" ]]; then
    quick=1
fi

for lib in libasan.so libubsan.so; do
    if [[ "$(gcc -print-file-name="$lib")" == "$lib" ]]; then
        echo "sanitize: gcc has no $lib (install gcc's sanitizer runtimes)" >&2
        exit 2
    fi
done
python -c "import Cython, numpy, setuptools" 2>/dev/null \
    || python -m pip install -q "Cython>=3.0" numpy "setuptools>=77"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# the tracked and new files of the working tree (not .so files, builds or venvs)
(cd "$root" && git ls-files -z --cached --others --exclude-standard \
    | xargs -0 -I{} sh -c 'test -f "{}" && cp --parents "{}" "'"$work"'"')
rm -f "$work"/src/arle_ai/engine/_core.c

echo "sanitize: building the extension with -fsanitize=address,undefined in $work"
(
    cd "$work"
    CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
    LDFLAGS="-fsanitize=address,undefined" \
        python setup.py -q build_ext --inplace >/dev/null
)

export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export PYTHONPATH="$work/src"
cd "$work"
python - <<'EOF'
import arle_ai.engine._core, os, sys
if not arle_ai.engine._core.__file__.startswith(os.getcwd()):
    sys.exit(f"sanitize: imported {arle_ai.engine._core.__file__}, not the sanitized build")
EOF

if [[ $quick == 1 ]]; then
    python bench/sanitize_run.py --games 40 --searches 12 --forgeries 600
    python -m pytest -q -p no:cacheprovider tests/test_position_fuzz.py \
        tests/test_impossible_positions.py -k "not round_trips or 0"
    python -m pytest -q -p no:cacheprovider tests/test_core_boundary.py
else
    python bench/sanitize_run.py --games 400 --searches 80 --forgeries 5000
    python -m pytest -q -p no:cacheprovider tests/test_position_fuzz.py \
        tests/test_impossible_positions.py tests/test_hostile_input.py tests/test_properties.py \
        tests/test_core_boundary.py
fi
echo "sanitize: no report from AddressSanitizer or UBSan"
