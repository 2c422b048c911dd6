"""Layer 7, learning from self-play: training data (datagen) and fitting the model (train)."""
