"""Layer 1, the game: the one description of its data (rules), the compiled rules engine built
from it (_core: positions, legal actions, apply, playouts, the search tree, features and the
value net's inference) and its invariants and random positions for tests (testing)."""
