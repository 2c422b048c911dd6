# cython: language_level=3
"""The Fields of Arle rules engine, compiled. Everything on the hot path (copy, legal actions,
apply, playouts) works on one C struct; Python sees it through :class:`GameState`."""

# The sections, one namespace joined by textual includes. Each begins with what it offers (the
# functions and names other sections use), what it uses (sections above it) and its
# invariants; a section uses only the ones included before it (tests/test_core_sections.py
# checks this against the code). The rules dispatch downwards: _engine calls into the
# sections of the spaces, buildings and sub-decisions, never the other way round.

# data and state
include "_tables.pxi"           # names and sizes as C enums, generated from rules.py
include "_state.pxi"            # the C struct of a position
include "_data.pxi"             # every rules number, filled from rules.py at import
include "_rng.pxi"              # random streams
include "_frames.pxi"           # the decision stack; each frame kind's fields, by name

# the rules
include "_home.pxi"             # a player's home board: goods, tools, land, moors, animals
include "_supply.pxi"           # the shared tiles left in the general supply
include "_barn.pxi"             # barn room, vehicles, buying barn pieces
include "_tiles.pxi"            # home tiles and animals taken; the discard decision
include "_subdecisions.pxi"     # cutting, flipping, Master steps, fields, forests, animals
include "_buildings.pxi"        # the buildings' effects, uses and sub-decisions
include "_payment.pxi"          # paying for a building
include "_spaces.pxi"           # the 30 action spaces
include "_vehicles.pxi"         # loading and travel deliveries
include "_engine.pxi"           # turns, inventorying, game end; legal actions and applying
include "_scoring.pxi"          # final scoring
include "_playout.pxi"          # random playouts

# the Python face
include "_seam.pxi"             # functions the layers above install (text, position checks)
include "_names.pxi"            # the Python names of the game's things
include "_position.pxi"         # positions as dicts, loaded with the checks the engine needs
include "_api.pxi"              # GameState

# evaluation and search
include "_rollout.pxi"          # static evaluation, heuristic rollouts
include "_features.pxi"         # the feature vector
include "_search.pxi"           # the MCTS tree and the leaf evaluators
include "_net.pxi"              # the learned value model
