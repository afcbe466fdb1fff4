from __future__ import annotations

import pytest

from bot.games import registry


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", ("tests.platform.toy:Toy", "tests.platform.toy:render"))
