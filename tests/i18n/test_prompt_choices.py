"""Prompts name only the choices offered (issue 13, item 5): a Godstorm step's prompt "Attack, or end
your attacks" says only "end" when no attack is among the legal actions."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.core.i18n import t
from bot.games.godstorm.game import Godstorm

LANGS = ("ru", "en")
MOVES = {"invade": {"attack", "attack_until"}, "underworld": {"attack", "attack_until"},
         "raise": {"resurrect"}, "fortify": {"fortify"}}


def at_plain_step(game: Godstorm, seat: int) -> str | None:
    """The step whose own prompt the seat sees (no battle, move-in, placement or card question)."""
    s = game.s
    if s.phase != "turn" or s.battle is not None or s.move is not None or s.pending or s.step not in MOVES:
        return None
    kinds = {a["type"] for a in game.legal_actions(seat)}
    return s.step if kinds & {"end_attacks", "end_step"} else None


@pytest.mark.parametrize("lang", LANGS)
def test_a_godstorm_step_prompt_names_the_move_only_when_it_is_offered(lang: str) -> None:
    seen: set[tuple[str, bool]] = set()
    # five seeds: the defence-dice preference left the turn's choices (a standing action, issue 10),
    # and three random walks no longer happened to reach a raise step with a crypt
    for seed in range(1, 6):
        game = Godstorm.new([{}, {}, {}], {}, seed)
        rnd = random.Random(seed)
        for _ in range(1500):
            actors = game.actors()
            if not actors:
                break
            seat = actors[0]
            legal = game.legal_actions(seat)
            step = at_plain_step(game, seat)
            if step is not None:
                offered = bool({a["type"] for a in legal} & MOVES[step])
                key = f"godstorm.prompt.{step}" if offered else f"godstorm.prompt.only_end.{step}"
                assert game.prompt_text(seat, lang) == t(key, lang)
                seen.add((step, offered))
                if step == "invade" and offered:  # every army left alone: nothing can attack
                    alone = Godstorm.from_json(game.to_json())
                    places: list[Any] = [*alone.s.terr.values(), *alone.s.uw.values()]
                    for place in places:
                        if place.owner == seat:
                            place.armies = 1
                    if not {a["type"] for a in alone.legal_actions(seat)} & MOVES["invade"]:
                        prompt = alone.prompt_text(seat, lang)
                        assert prompt == t("godstorm.prompt.only_end.invade", lang)
                        assert prompt != t("godstorm.prompt.invade", lang)
                        seen.add(("invade", False))
            game.apply(seat, rnd.choice(legal))
    assert {("invade", True), ("invade", False), ("fortify", True), ("raise", True)} <= seen, seen


@pytest.mark.parametrize("lang", LANGS)
def test_the_cold_war_double_agent_prompt_offers_leave_only_when_it_can_be_chosen(lang: str) -> None:
    from bot.games.coldwar.game import ColdWar

    seen: set[bool] = set()
    for seed in range(1, 40):
        game = ColdWar.new([{}, {}], {}, seed)
        rnd = random.Random(seed)
        for _ in range(300):
            actors = game.actors()
            if not actors:
                break
            seat = actors[0]
            legal = game.legal_actions(seat)
            if game.s.dec.kind == "double":
                leave = any(a.get("mode") == "leave" for a in legal)
                key = "coldwar.prompt.double" if leave else "coldwar.prompt.double_peek_only"
                assert game.prompt_text(seat, lang) == t(key, lang)
                seen.add(leave)
                if leave:  # no opposing agent left in headquarters but the Deputy: only learning remains
                    bare = ColdWar.from_json(game.to_json())
                    bare.s.agents[1 - seat].hq = [a for a in bare.s.agents[1 - seat].hq if a == 2]
                    assert [a["mode"] for a in bare.legal_actions(seat)] == ["peek"]
                    assert bare.prompt_text(seat, lang) == t("coldwar.prompt.double_peek_only", lang)
                    seen.add(False)
            game.apply(seat, rnd.choice(legal))
        if seen == {True, False}:
            break
    assert seen == {True, False}, seen


@pytest.mark.parametrize("lang", LANGS)
def test_the_pobeda_no_chips_prompt_names_only_the_offered_choices(lang: str) -> None:
    from bot.games.pobeda.game import Pobeda

    phrases = {"play": t("pobeda.prompt.no_chips_play", lang), "discard_dead": t("pobeda.prompt.no_chips_discard", lang),
               "replace_dead": t("pobeda.prompt.no_chips_replace", lang)}
    seen: set[frozenset[str]] = set()
    for seed in range(1, 30):
        game = Pobeda.new([{"side": 0}, {"side": 1}], {}, seed)
        rnd = random.Random(seed)
        for _ in range(400):
            actors = game.actors()
            if not actors:
                break
            seat = actors[0]
            legal = game.legal_actions(seat)
            if not legal:
                break
            s = game.s
            if s.penalty is None and s.pending is None and s.current == seat \
                    and game.supply(game.side_of(seat)) <= 0:
                offered = frozenset(a["type"] for a in legal)
                prompt = game.prompt_text(seat, lang)
                assert {k for k, phrase in phrases.items() if phrase in prompt} == offered & set(phrases), prompt
                seen.add(offered)
            game.apply(seat, rnd.choice(legal))
    assert {frozenset({"discard_dead"}), frozenset({"replace_dead"}), frozenset({"play"})} <= seen, seen
