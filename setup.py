"""Build the Cython extension ``arle_ai.engine._core``; all metadata lives in pyproject.toml."""

import importlib.util
from pathlib import Path

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

CORE_DIR = "src/arle_ai/engine"


def _generate_tables() -> None:
    """Write src/arle_ai/engine/_tables.pxi (the engine's enums) from rules.py before compiling."""
    path = Path(__file__).resolve().parent / CORE_DIR / "_gen_tables.py"
    spec = importlib.util.spec_from_file_location("_arle_gen_tables", path)
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    gen.write()


_generate_tables()

extensions = [
    Extension(
        "arle_ai.engine._core",
        sources=[f"{CORE_DIR}/_core.pyx"],
        include_dirs=[np.get_include(), CORE_DIR],
        extra_compile_args=["-O3", "-falign-functions=64"],
    )
]

setup(
    ext_modules=cythonize(
        extensions,
        include_path=[CORE_DIR],
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
            # a None passed for a GameState (or other engine object) argument is a TypeError,
            # never a struct read from None's memory
            "allow_none_for_extension_args": False,
        },
    )
)
