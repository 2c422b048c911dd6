"""Layer 5, using the search: agents, move suggestions (suggest), game reviews (analysis),
tournaments and their ratings, and benchmarks."""
