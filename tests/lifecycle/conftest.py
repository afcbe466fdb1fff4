from __future__ import annotations

import pytest

from bot.games import registry
from tests.platform.toy import toy_manifest


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())
