"""Layer 6 (beside adapters and web), learning from self-play: training data (datagen) and
fitting the model (train)."""
