"""Bots play only listed actions, finish games at every table size, are deterministic and replay.

``bot.tools.arena.play`` checks every choice with ``Game.is_listed`` and raises on anything else, so a game
that reaches its end has been played legally throughout.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.ai import RandomPolicy, bot_rng, decide, game_rng, policy_for
from bot.games.base import Rng
from bot.games.registry import game_class
from bot.tools.arena import play, resolve, wilson

Table = tuple[str, int, dict[str, Any], list[dict[str, Any]] | None]

TABLES: list[Table] = [
    ("pobeda", 2, {}, None),
    ("pobeda", 3, {}, None),
    ("pobeda", 4, {"teams": 2}, [{"side": k % 2} for k in range(4)]),
    ("pobeda", 6, {"teams": 3, "lines": 2}, [{"side": k % 3} for k in range(6)]),
    ("coldwar", 2, {}, None),
    ("coldwar", 2, {"goal": 50}, None),
    *[("godstorm", n, {}, [{} for _ in range(n)]) for n in range(2, 6)],
    *[("godstorm", n, {"placement": "choose"}, [{} for _ in range(n)]) for n in (2, 3)],
    *[("risk", n, {}, [{} for _ in range(n)]) for n in range(2, 7)],
]


def _table_id(t: Table) -> str:
    return f"{t[0]}-{t[1]}-{'-'.join(f'{k}{v}' for k, v in t[2].items())}"


@pytest.mark.parametrize("table", TABLES, ids=_table_id)
def test_bots_finish_with_listed_moves(table: Table) -> None:
    """Strong and quick bots and random players at one table: the game ends with a result."""
    game, n, extra, seat_info = table
    key, options = resolve(game)
    options.update(extra)
    kinds = ["strong", "quick", "random"]
    policies = [policy_for(key, kinds[i % 3]) for i in range(n)]
    res = play(key, policies, seed=11 + n, options=options, max_actions=60_000, seat_info=seat_info)
    assert res.finished, f"{game} with {n} seats did not finish in {res.actions} actions"
    assert res.winners or res.draw


@pytest.mark.parametrize("game", ["pobeda", "coldwar", "godstorm", "risk"])
def test_same_seed_same_moves_and_the_log_replays(game: str) -> None:
    """Two runs from one seed choose the same moves; re-applying the log to a new game from the
    seed gives the same final state (a replay with bots seated)."""
    key, options = resolve(game)
    seats = 3 if key == "godstorm" else 2
    info = [{} for _ in range(seats)] if key == "godstorm" else None
    table = [policy_for(key, "strong"), policy_for(key, "quick"), policy_for(key, "strong")][:seats]
    first = play(key, table, seed=5, options=options, seat_info=info)
    second = play(key, table, seed=5, options=options, seat_info=info)
    assert first.log == second.log
    assert first.state == second.state
    cls = game_class(key)
    replay = cls.new(info or [{"side": i} for i in range(seats)], options, 5)
    for seat, action in first.log:
        replay.apply(seat, action)
    assert replay.to_json() == first.state


def test_other_seed_other_game() -> None:
    """The seed matters (else the determinism test above could pass trivially)."""
    key, options = resolve("coldwar")
    table = [policy_for(key, "strong"), policy_for(key, "quick")]
    assert play(key, table, seed=5).log != play(key, table, seed=6).log


def test_bot_rng_is_derived_and_leaves_the_game_rng_alone() -> None:
    """The bot's source depends on the stored Rng, the seat and the step, and deciding a move does
    not advance the game's own Rng (so a game with bots replays like any other)."""
    stored = Rng(1234, 7, version=2)
    a = [bot_rng(stored, 0, 3).randbelow(1 << 30) for _ in range(2)]
    assert a[0] == a[1]
    draws = {bot_rng(Rng(1234, 7, version=2), 0, 3).randbelow(1 << 30),
             bot_rng(Rng(1234, 8, version=2), 0, 3).randbelow(1 << 30),
             bot_rng(Rng(1234, 7, version=2), 1, 3).randbelow(1 << 30),
             bot_rng(Rng(1234, 7, version=2), 0, 4).randbelow(1 << 30)}
    assert len(draws) == 4
    game = game_class("coldwar").new([{"side": 0}, {"side": 1}], {}, 3)
    seat = game.actors()[0]
    before = game.to_json()
    action = decide(game, seat, policy_for("coldwar", "strong"), step=0)
    assert action in game.legal_actions(seat)
    assert game.to_json() == before
    assert game_rng(game).to_json() == before["state"]["rng"]


def test_decide_refuses_an_unlisted_answer() -> None:
    class Cheat(RandomPolicy):
        name = "cheat"

        def choose(self, view: Any, legal: Any, rng: Rng, history: Any = ()) -> dict[str, Any]:
            return {"type": "play", "card": "plus1_1", "cell": "A1"}  # a corner: never listed

    game = game_class("pobeda").new([{"side": 0}, {"side": 1}], {}, 3)
    with pytest.raises(ValueError, match="unlisted"):
        decide(game, game.actors()[0], Cheat(), step=0)


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError):
        policy_for("pobeda", "grandmaster")


def test_wilson_interval_known_values() -> None:
    """Wilson (1927) score interval: for 50 successes in 100 trials at z = 1.96 the bounds are
    (0.5 + 1.9208/100 ∓ 1.96·sqrt(0.0025 + 0.00009604)) / 1.038416 = 0.4038 and 0.5962; at 0 of n
    the lower bound is 0 and the upper is z²/(n + z²)."""
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4)
    assert hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0
    assert hi == pytest.approx(1.96 ** 2 / (10 + 1.96 ** 2), abs=1e-9)


def test_arena_command_prints_both_matches(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m bot.tools.arena coldwar --games 4``: a row per match with 4 games each, and timings."""
    from bot.tools.arena import main

    assert main(["coldwar", "--games", "4", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| strong vs ")]
    assert [r.split("|")[1].strip() for r in rows] == ["strong vs random", "strong vs quick"]
    assert all(r.split("|")[2].strip() == "4" for r in rows)
    wins = [int(r.split("|")[3]) for r in rows]
    assert all(0 <= w <= 4 for w in wins)
    assert "bot move p50" in out
