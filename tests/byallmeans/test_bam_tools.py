"""The commands that measure the game: the balance runner and the arena entry for the unregistered game."""

from __future__ import annotations

import pytest

from bot.games.ai import policy_for
from bot.games.byallmeans import balance, decks
from bot.tools import arena


def test_balance_runner_prints_every_pair(capsys: pytest.CaptureFixture[str]) -> None:
    balance.main(["--games", "2", "--turn-cap", "120"])
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| ") and " – " in line]
    assert len(rows) == len(decks.presets()) * (len(decks.presets()) - 1) // 2
    assert all("| 2 |" in row for row in rows)


def test_a_pair_counts_every_game() -> None:
    res = balance.run_pair("press", "syndicate", 4, seed=7)
    assert res.games == 4 and res.wins_a + res.wins_b + res.draws + res.unfinished == 4
    assert res.unfinished == 0 and all(t <= balance.TURN_CAP for t in res.turns)


def test_the_arena_plays_the_game_before_registration() -> None:
    key, options = arena.resolve("byallmeans")
    res = arena.play(key, [policy_for(key, "strong"), policy_for(key, "random")], 3, options)
    assert res.finished and res.actions > 0
