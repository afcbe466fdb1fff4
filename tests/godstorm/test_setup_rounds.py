"""The set-up's rounds (issue 25, ``Godstorm.post_group``): the channel gets one post per round of the
set-up, where each player acts once (a pantheon, a pile, a claim, one placement of up to three armies,
the war god and the temple), not one per decision. The key names the round under way: it stays the same
through a round, never comes back once left, and is None from the first epoch on."""

from __future__ import annotations

import random

import pytest

from bot.games.godstorm import Godstorm
from bot.games.godstorm.playout import choose

SET_UP = ("pantheon", "pile", "claim", "setup_place", "setup_neutral", "setup_gods")


def rounds_of_a_set_up(ruleset: str, placement: str, players: int, seed: int, plain_share: float = 0.9
                       ) -> list[tuple[str, list[int]]]:
    """(key, seats prompted in turn under it) for a set-up played with mostly plain placements (the rest
    all at once or spread automatically, which ends a player's placing early)."""
    g = Godstorm.new([{} for _ in range(players)], {"ruleset": ruleset, "placement": placement}, seed)
    rnd = random.Random(seed)
    blocks: list[tuple[str, list[int]]] = []
    actors: list[int] = []
    while g.s.phase in SET_UP:
        key = g.post_group()
        assert key is not None
        if g.actors() != actors:  # a prompt
            actors = g.actors()
            if not blocks or blocks[-1][0] != key:
                blocks.append((key, []))
            blocks[-1][1].extend(actors)
        seat = g.actors()[0]
        legal = g.legal_actions(seat)
        plain = [a for a in legal if a["type"] == "place"] if g.s.phase == "setup_place" else []
        g.apply(seat, rnd.choice(plain) if plain and rnd.random() < plain_share else choose(g, seat, legal, rnd))
    assert g.post_group() is None and g.s.phase in ("bid", "turn")
    return blocks


@pytest.mark.parametrize("ruleset", ["godstorm", "classic"])
@pytest.mark.parametrize("placement", ["random", "choose"])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_each_round_of_the_set_up_has_one_key_and_each_player_acts_once_in_it(
        ruleset: str, placement: str, players: int) -> None:
    for seed in range(3):
        blocks = rounds_of_a_set_up(ruleset, placement, players, seed)
        keys = [key for key, _ in blocks]
        assert len(keys) == len(set(keys)), keys  # a round left is never entered again
        for key, seats in blocks:
            assert len(seats) == len(set(seats)), (key, seats)  # nobody is prompted twice in one round
        assert len(blocks) < sum(len(seats) for _, seats in blocks) or players == 2 and placement == "random"


def test_three_players_have_nine_rounds_for_their_decisions() -> None:
    """The issue's count: about thirty decisions (pantheons, seven placements each, war gods and temples)
    and as many pinging posts before; one post per round now."""
    blocks = rounds_of_a_set_up("godstorm", "random", 3, 0, plain_share=1.0)
    assert [key for key, _ in blocks] == ["setup:pantheon", *(f"setup:place:{r}" for r in range(7)),
                                         "setup:setup_gods"]
    assert all(len(seats) == 3 for _, seats in blocks)
