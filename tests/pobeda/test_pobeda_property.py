"""Random legal games: they end, conserve cards, never stack chips, keep the dead-card rule and end as the
rules say. What every game must do (replay, JSON, refusals, timeouts, secrecy) is checked for Pobeda by
``tests/conformance/test_game_contract.py``."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.base import ADMIN
from bot.games.pobeda import Pobeda
from bot.games.pobeda.data import CELLS, CHIPS_PER_SIDE, CORNERS
from tests.pobeda.pobeda_helpers import ALL_CARDS, card_total

CONFIGS: list[tuple[list[int], dict[str, Any]]] = [
    ([0, 1], {}),
    ([0, 1, 2], {}),
    ([0, 1, 0, 1, 0, 1], {"teams": 2}),
    ([0, 1, 2, 0, 1, 2, 0], {"teams": 3}),
]


def check_invariants(game: Pobeda) -> None:
    s = game.s
    assert card_total(game) == ALL_CARDS
    everything = s.deck + sum(s.hands, []) + s.discard
    if s.penalty:
        everything += list(s.penalty.chosen.values())
    assert len(set(everything)) == ALL_CARDS
    assert len(s.owner) == CELLS  # one owner value per cell: never two chips on a cell
    for side in range(s.n_sides):
        assert s.owner.count(side) <= CHIPS_PER_SIDE
    for corner in CORNERS:
        assert s.owner[corner] == -1
        assert len({s.lines[i].side for i in game.cell_lines[corner]}) <= 1
    for i in range(CELLS):
        if s.locked[i]:
            assert s.owner[i] != -1
    for a, line in enumerate(s.lines):
        assert len(line.cells) == 6
        for b in range(a):
            shared = set(line.cells) & set(s.lines[b].cells)
            assert len(shared) <= (1 if s.lines[b].side == line.side else 0)


def check_dead_card_rule(game: Pobeda, seat: int, legal: list[dict[str, Any]], dead: str) -> None:
    """House rule (docs/games/pobeda.md): `replace` offers one replacement per turn while the deck
    has cards, and discarding as the turn only when nothing can be played or replaced; `turn`
    never replaces."""
    kinds = {a["type"] for a in legal}
    if dead == "turn" or game.s.penalty is not None or game.s.pending is not None:
        assert "replace_dead" not in kinds
        return
    assert not {"replace_dead", "discard_dead"} <= kinds
    if "replace_dead" in kinds:
        assert not game.s.replaced and game.s.deck
    if "discard_dead" in kinds:
        assert "play" not in kinds


def play_random_game(seed: int, config: int, lines: int, layout: str, dead: str = "replace") -> None:
    sides, extra = CONFIGS[config]
    options = {"lines": lines, "layout": layout, "dead": dead, **extra}
    seat_info = [{"side": k} for k in sides]
    game = Pobeda.new(seat_info, options, seed)
    rnd = random.Random(seed)
    penalties = 0
    for _step in range(4000):
        if game.outcome() is not None:
            break
        admin = game.admin_actions()
        if admin and penalties < 2 and rnd.random() < 0.02:
            action = rnd.choice(admin)
            penalties += 1
            game.apply(ADMIN, action)
            check_invariants(game)
            continue
        actors = game.actors()
        assert actors, "a running game always has someone to act"
        seat = rnd.choice(actors)
        legal = game.legal_actions(seat)
        assert legal, "an actor always has a legal action"
        check_dead_card_rule(game, seat, legal, dead)
        turn = game.s.turn
        if rnd.random() < 0.03:
            action = game.timeout_action(seat)
            assert action is not None
        else:
            action = rnd.choice(legal)
        game.apply(seat, action)
        check_invariants(game)
        if action["type"] == "replace_dead":  # the turn goes on with the same player
            assert game.actors() == [seat] and game.s.turn == turn and game.s.replaced
        elif game.s.turn != turn:
            assert not game.s.replaced
    outcome = game.outcome()
    assert outcome is not None, "every game ends"
    assert game.actors() == [] and all(game.legal_actions(s) == [] for s in range(len(sides)))
    if outcome["reason"] == "cards":
        assert not game.s.deck and not any(game.s.hands)
        best = max(outcome["lines"])
        assert outcome["winners"] == [k for k, n in enumerate(outcome["lines"]) if n == best]
    else:
        assert all(outcome["lines"][k] >= lines for k in outcome["winners"])


@settings(max_examples=16, deadline=None)
@given(seed=st.integers(0, 2**31), config=st.integers(0, len(CONFIGS) - 1),
       lines=st.sampled_from([1, 2, 3]), layout=st.sampled_from(["chrono", "shuffled"]),
       dead=st.sampled_from(["replace", "turn"]))
def test_random_legal_games(seed: int, config: int, lines: int, layout: str, dead: str) -> None:
    play_random_game(seed, config, lines, layout, dead)


def test_each_configuration_once() -> None:
    for config in range(len(CONFIGS)):
        for dead in ("replace", "turn"):
            play_random_game(1000 + config, config, 3, "chrono", dead)
