"""Layer 6 (beside learn and web; none of the three imports another), other engines: the
OpenSpiel game, the PettingZoo environment and the Ray backend for tournaments and data runs
(each an optional extra)."""
