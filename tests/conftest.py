"""Suite-wide settings.

* Collection order: the soak (the longest test by far) starts first, so that under ``pytest -n 3``
  (pytest-xdist, the README's test command) it runs beside the rest of the suite instead of after it.
* Bytecode: machines that set ``PYTHONDONTWRITEBYTECODE`` (this one and CI do) make every process
  the suite starts compile the project's sources again: each bot process, each render worker it
  spawns and each test worker, about 0.7 s of CPU apiece and a fifth of the suite's CPU in all. The
  suite lets them write bytecode under ``var/pycache`` (ignored by git), so each source is compiled
  once per run; what the processes do is unchanged.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

PYCACHE = Path(__file__).resolve().parents[1] / "var" / "pycache"

os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
os.environ.setdefault("PYTHONPYCACHEPREFIX", str(PYCACHE))
sys.dont_write_bytecode = False
sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("soak") is None)  # stable: the rest keep their order
