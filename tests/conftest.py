"""Suite-wide collection order: the soak (the longest test by far) starts first, so that under
``pytest -n 2`` (pytest-xdist, the README's test command) it runs beside the rest of the suite
instead of after it."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("soak") is None)  # stable: the rest keep their order
