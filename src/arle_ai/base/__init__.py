"""Layer 0, plain helpers with no game knowledge: bounded file reads and atomic writes (files),
.npz writing (npzfile), child processes (procs), numeric limits of inputs (limits), JSON text
(jsontext) and the library's error types (errors)."""
