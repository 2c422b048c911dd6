# cython: language_level=3
"""The Fields of Arle rules engine, compiled. Everything on the hot path (copy, legal actions,
apply, playouts) works on one C struct; Python sees it through :class:`GameState`."""

include "_tables.pxi"
include "_state.pxi"
include "_data.pxi"
include "_home.pxi"
include "_engine.pxi"
include "_scoring.pxi"
include "_actions.pxi"
include "_buildings.pxi"
include "_vehicles.pxi"
include "_playout.pxi"
include "_api.pxi"
include "_rollout.pxi"
include "_features.pxi"
include "_search.pxi"
include "_net.pxi"
