"""The build's one dynamic part: the compiled core (``vigtavl_env/compiled.py`` owns it).

Everything else about the package is declared in ``pyproject.toml``. ``compiled.py`` is loaded
by path, so the build needs none of the project's dependencies, only setuptools and Cython.
"""

import importlib.util
from pathlib import Path

from setuptools import setup

spec = importlib.util.spec_from_file_location("_vigtavl_compiled", Path(__file__).parent / "vigtavl_env" / "compiled.py")
compiled = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compiled)

setup(**compiled.setup_arguments())
