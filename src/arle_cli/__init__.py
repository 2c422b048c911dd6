"""The click command-line application ``arle``."""
