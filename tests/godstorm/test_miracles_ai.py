"""Bots with the miracle cards: whole games of legal moves only, and choices that do not depend on the
cards other players hold or on the order of the piles (hidden information)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from bot.games.ai import decide, policy_for
from bot.games.godstorm import Godstorm
from bot.games.godstorm.miracles import card_of


@pytest.mark.parametrize("players", [2, 3, 5])
def test_bots_play_whole_games_with_cards(players: int) -> None:
    levels = ["strong", "quick"] * 3
    game = Godstorm.new([{} for _ in range(players)], {"ruleset": "godstorm"}, 40 + players)
    step = 0
    played: set[str] = set()
    while game.outcome() is None:
        assert step < 20_000
        seat = game.actors()[0]
        action = decide(game, seat, policy_for("godstorm", levels[seat]), step)  # raises if unlisted
        played.add(action["type"])
        game.apply(seat, action)
        step += 1
    assert game.outcome() is not None


def _variant(data: dict[str, Any], seat: int, rnd: random.Random) -> dict[str, Any] | None:
    """Opponents' hand cards swapped with cards of the same deck from the piles; the piles shuffled."""
    m = data["miracles"]
    changed = False
    seen = m["pick"]["from"] if m["pick"] is not None and m["pick"]["seat"] == seat else None
    for other, hand in enumerate(m["hands"]):
        if other in (seat, seen):  # its own, or the hand Visions Become Real just showed it
            continue
        for i, inst in enumerate(hand):
            pile = m["piles"][card_of(inst).deck]
            if pile:
                j = rnd.randrange(len(pile))
                hand[i], pile[j] = pile[j], hand[i]
                changed = changed or card_of(hand[i]).id != card_of(inst).id
    for pile in m["piles"].values():
        before = list(pile)
        rnd.shuffle(pile)
        changed = changed or pile != before
    return data if changed else None


def test_choices_ignore_hidden_cards() -> None:
    rnd = random.Random(7)
    checked = 0
    for seed in range(3):
        game = Godstorm.new([{} for _ in range(4)], {"ruleset": "godstorm"}, 300 + seed)
        pick = random.Random(seed)
        step = 0
        while game.outcome() is None and step < 1500:
            seat = game.actors()[0]
            if step % 7 == 0 and not game.is_simultaneous():
                data = game.to_json()
                changed = _variant(copy.deepcopy(data), seat, rnd)
                if changed is not None and changed != data:
                    other = Godstorm.from_json(changed)
                    assert other.view(seat) == game.view(seat)
                    assert other.legal_actions(seat) == game.legal_actions(seat)
                    for level in ("strong", "quick"):
                        policy = policy_for("godstorm", level)
                        assert decide(other, seat, policy, step) == decide(game, seat, policy, step)
                    checked += 1
            game.apply(seat, pick.choice(game.legal_actions(seat)))
            step += 1
    assert checked > 50
