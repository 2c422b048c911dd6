"""Build the Cython extension ``arle_ai._core``; all metadata lives in pyproject.toml."""

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

CORE_DIR = "src/arle_ai"

extensions = [
    Extension(
        "arle_ai._core",
        sources=[f"{CORE_DIR}/_core.pyx"],
        include_dirs=[np.get_include(), CORE_DIR],
        extra_compile_args=["-O3"],
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
        },
    )
)
