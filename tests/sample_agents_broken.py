"""A user module that fails on import (for the py: spec tests)."""

BROKEN = 1 / 0
