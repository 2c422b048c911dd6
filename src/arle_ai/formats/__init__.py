"""Layer 3, files from outside: the checked position format (position) and game records
(records)."""
