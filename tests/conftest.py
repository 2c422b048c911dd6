"""Make tests/helpers.py importable from the test subfolders (tests/rules/...), and give the
processes the tests start Ctrl-C as a terminal delivers it."""

import signal
import sys
from pathlib import Path

_TESTS = str(Path(__file__).resolve().parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

# A run started as a background job of a non-interactive shell (`bash .ci/run &`, as a CI
# runner or a terminal-less session may) ignores SIGINT, and every `arle` process the tests
# start would inherit that and shrug off the tests' Ctrl-C (5 tests failed so: exit 0 where a
# Ctrl-C gives 130). Python's own handler here makes an exec'd child start with the default,
# as under a terminal; `arle` itself keeps honouring an inherited SIG_IGN (nohup, `&`).
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
