"""The undo window (issue 27, house rule in docs/games/pobeda.md "Takebacks"): a move that draws waits for its
player's ✔ (or the window's end) before the draw, so a misclick is taken back before anyone saw a new card.

The rulebook's turn is unchanged, only the moment of the draw is the player's confirmation: «Ваш ход выглядит
так: • Выбираете одну карту с руки. • Кладёте жетон на поле. • Сыгранную карту убираете в сброс. • Добираете
одну карту из колоды. • Передаёте ход игроку слева.» and «5. Возьмите новую карту из общей колоды. [...] Взять
карту можно только в свой ход.» (shared/rules/pobeda.ru.txt, l. 34-39 and 58-61). So: the play leaves the hand
one card short, the deck and the random generator as they were and the same player to act; the confirmation
draws the deck's top card (the last of ``deck``, the end cards are drawn from) and passes the turn to the left.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.core.jsontext import compact
from bot.games.base import ADMIN, IllegalAction, OpenDecision
from bot.games.pobeda import Pobeda
from bot.games.pobeda.data import HAND_SIZE
from tests.pobeda.pobeda_helpers import event_at, give, make, put, row

CONFIRM = {"type": "confirm"}
FIXTURES = Path(__file__).parent / "fixtures"


def playable_event(game: Pobeda, seat: int) -> dict[str, Any]:
    return next(a for a in game.legal_actions(seat) if a["type"] == "play" and a["card"].startswith("ev"))


def test_a_play_waits_for_the_confirmation_before_the_draw() -> None:
    game = make(2, undo_window=30)
    assert len(game.s.hands[0]) == HAND_SIZE
    deck, rng = list(game.s.deck), game.s.rng.to_json()
    play = playable_event(game, 0)
    events = game.apply(0, play)
    assert [e["type"] for e in events] == ["played"] and not any("to" in e for e in events)
    assert len(game.s.hands[0]) == HAND_SIZE - 1 and play["card"] not in game.s.hands[0]
    assert game.s.deck == deck and game.s.rng.to_json() == rng
    assert game.actors() == [0] and game.s.turn == 1
    assert game.legal_actions(0) == [CONFIRM] and game.legal_actions(1) == []
    assert game.open_decisions() == [OpenDecision("confirm", (0,), key="1:turn", deadline_s=30, auto=True)]
    assert game.timeout_action(0) == CONFIRM  # the window's end gives the same answer as the ✔
    events = game.apply(0, CONFIRM)
    assert events == [{"type": "drew", "to": [0], "seat": 0, "card": deck[-1]}]
    assert len(game.s.hands[0]) == HAND_SIZE and game.s.deck == deck[:-1]
    assert game.actors() == [1] and game.s.turn == 2  # «Передаёте ход игроку слева»


def test_the_play_reveals_nothing_and_the_confirmation_does() -> None:
    """Issue 27's rule of what reveals (``Game.reveals``): nothing drawn, nothing private, the turn stays; the
    confirmation shows a card to its player and hands the turn on."""
    game = make(2, undo_window=30)
    before = Pobeda.from_json(game.to_json())
    play = playable_event(game, 0)
    events = game.apply(0, play)
    assert not game.reveals(0, play, events, before, game)
    before = Pobeda.from_json(game.to_json())
    events = game.apply(0, CONFIRM)
    assert game.reveals(0, CONFIRM, events, before, game)


def test_nothing_else_is_taken_while_the_confirmation_is_open() -> None:
    game = make(2, undo_window=30)
    plays = [a for a in game.legal_actions(0) if a["type"] == "play"]
    game.apply(0, plays[0])
    text = game.to_json_text()
    second = next(a for a in plays if a["card"] != plays[0]["card"])
    for seat, action in ((0, second), (1, CONFIRM), (1, {"type": "pass"})):
        with pytest.raises(IllegalAction):
            game.apply(seat, action)
    assert game.to_json_text() == text


def test_a_dead_card_exchange_waits_for_the_confirmation_and_the_turn_goes_on() -> None:
    """docs: «once per turn, before playing, the player may discard one dead card [...] and draw a
    replacement, then takes the turn as usual»: the replacement is the draw that waits."""
    game = make(2, undo_window=60)
    dead = event_at(game, "F2")
    give(game, 0, dead)
    put(game, 1, "F2")
    deck = list(game.s.deck)
    size = len(game.s.hands[0])
    assert game.apply(0, {"type": "replace_dead", "card": dead}) == [{"type": "replaced", "seat": 0, "card": dead}]
    assert len(game.s.hands[0]) == size - 1 and game.s.deck == deck
    assert game.open_decisions() == [OpenDecision("confirm", (0,), key="1:replace", deadline_s=60, auto=True)]
    assert game.apply(0, CONFIRM) == [{"type": "drew", "to": [0], "seat": 0, "card": deck[-1]}]
    assert game.actors() == [0] and game.s.turn == 1 and game.s.replaced
    assert all(a["type"] == "play" for a in game.legal_actions(0))  # replaced once: now a play


def test_a_dead_card_discarded_as_the_turn_waits_for_the_confirmation() -> None:
    game = make(2, dead="turn", undo_window=30)
    dead = event_at(game, "F2")
    give(game, 0, dead)
    put(game, 1, "F2")
    deck = list(game.s.deck)
    assert game.apply(0, {"type": "discard_dead", "card": dead}) == [{"type": "discarded", "seat": 0, "card": dead}]
    assert game.legal_actions(0) == [CONFIRM] and game.s.deck == deck
    assert game.apply(0, CONFIRM) == [{"type": "drew", "to": [0], "seat": 0, "card": deck[-1]}]
    assert game.actors() == [1]


def test_a_line_choice_comes_before_the_confirmation() -> None:
    """A run of seven through the new chip: the player picks the six, then confirms; the card is drawn last."""
    game = make(2, lines=3, undo_window=30)
    put(game, 0, *row("A", "E", 7), "G7")
    card = event_at(game, "F7")
    give(game, 0, card)
    deck = list(game.s.deck)
    events = game.apply(0, {"type": "play", "card": card, "cell": "F7"})
    assert [e["type"] for e in events] == ["played", "line_choice"] and game.s.deck == deck
    events = game.apply(0, {"type": "choose_line", "option": 0})
    assert [e["type"] for e in events] == ["line"] and game.legal_actions(0) == [CONFIRM]
    assert game.apply(0, CONFIRM) == [{"type": "drew", "to": [0], "seat": 0, "card": deck[-1]}]
    assert game.actors() == [1]


def test_a_winning_play_ends_the_game_on_the_confirmation() -> None:
    """The required line wins «at the end of that move»: the move ends with its draw."""
    game = make(2, undo_window=30)
    put(game, 0, *row("A", "E", 2))
    card = event_at(game, "F2")
    give(game, 0, card)
    game.apply(0, {"type": "play", "card": card, "cell": "F2"})
    assert game.outcome() is None and game.legal_actions(0) == [CONFIRM]
    events = game.apply(0, CONFIRM)
    assert [e["type"] for e in events] == ["drew", "game_over"] and game.outcome()["winners"] == [0]


def test_an_empty_deck_still_asks_and_only_passes_the_turn() -> None:
    game = make(2, undo_window=30)
    game.s.deck = []
    game.apply(0, playable_event(game, 0))
    assert game.legal_actions(0) == [CONFIRM]
    assert game.action_path(0, CONFIRM, "en") == ["✔ End turn"]
    assert game.apply(0, CONFIRM) == [] and game.actors() == [1]


def test_a_penalty_interrupts_the_window_and_the_confirmation_follows() -> None:
    """The moderator's penalty (rulebook: teammates may not advise each other) interrupts everything; the
    mover's confirmation is open again once every penalised player gave a card, and draws from the deck as
    the penalty left it (shuffled)."""
    game = make(4, teams=2, undo_window=30)
    game.apply(0, playable_event(game, 0))
    assert game.admin_actions() == [{"type": "penalty", "side": 0}, {"type": "penalty", "side": 1}]
    game.apply(ADMIN, {"type": "penalty", "side": 1})
    assert game.actors() == [1, 3] and game.legal_actions(0) == []
    game.apply(1, {"type": "penalty_card", "card": game.s.hands[1][0]})
    events = game.apply(3, {"type": "penalty_card", "card": game.s.hands[3][0]})
    assert events[-1]["type"] == "penalty_done"
    assert game.actors() == [0] and game.legal_actions(0) == [CONFIRM] and game.s.turn == 1
    top = game.s.deck[-1]
    assert game.apply(0, CONFIRM) == [{"type": "drew", "to": [0], "seat": 0, "card": top}]
    assert game.actors() == [1] and game.s.turn == 2


def test_the_texts_of_the_confirmation() -> None:
    game = make(2, undo_window=30)
    game.apply(0, playable_event(game, 0))
    assert game.action_path(0, CONFIRM, "en") == ["✔ Draw now"]
    assert game.action_path(0, CONFIRM, "ru") == ["✔ Взять карту"]
    assert "30 seconds" in game.prompt_text(0, "en") and "Draw now" in game.prompt_text(0, "en")
    assert "30 секунд" in game.prompt_text(0, "ru") and "Взять карту" in game.prompt_text(0, "ru")
    assert game.prompt_text(1, "en") == ""
    assert game.view(None)["confirm"] == "turn" and game.view(0)["confirm"] == "turn"


def test_the_window_is_stored_only_when_on() -> None:
    """State version 3: ``undo_window`` and ``confirm`` are in the stored JSON only when set, so a game
    without the window is stored exactly as by version 2."""
    off = make(2)
    assert "undo_window" not in off.to_json()["options"] and "confirm" not in off.to_json()
    on = make(2, undo_window=120)
    assert on.to_json()["options"]["undo_window"] == 120 and "confirm" not in on.to_json()
    on.apply(0, playable_event(on, 0))
    stored = on.to_json_text()
    assert json.loads(stored)["confirm"] == "turn"
    assert Pobeda.from_json(json.loads(stored)).to_json_text() == stored
    assert Pobeda.new([{"side": 0}, {"side": 1}], {}, 1).s.options.undo_window == 30  # new games: 30 s


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("name", sorted(p.stem for p in FIXTURES.glob("*.json")))
def test_without_the_window_a_stored_game_replays_byte_for_byte(name: str) -> None:
    """Window 0 is the old flow: each game stored before the window (state version 2, written by the rules
    before it existed), started again with ``undo_window`` 0, makes the same events and state text."""
    stored = load(name)
    game = Pobeda.new(stored["seat_info"], {**stored["options"], "undo_window": 0}, stored["seed"])
    for n, entry in enumerate(stored["log"]):
        assert compact(game.apply(entry["seat"], entry["action"])) == compact(entry["events"]), f"action {n}"
    assert game.to_json_text() == stored["state_text"]


@pytest.mark.parametrize("name", sorted(p.stem for p in FIXTURES.glob("*.json")))
def test_with_the_window_the_same_moves_and_confirmations_reach_the_same_state(name: str) -> None:
    """The window changes when a card is drawn, never which: the stored moves with a confirmation wherever one
    is asked for end in the stored state (but for the option itself), and each turn's events are the old ones,
    the draw after the line choice rather than before it."""
    stored = load(name)
    game = Pobeda.new(stored["seat_info"], {**stored["options"], "undo_window": 30}, stored["seed"])
    old: list[Any] = []
    new: list[Any] = []
    for entry in stored["log"]:
        if game.s.confirm is not None:
            new += game.apply(game.s.current, CONFIRM)
        old += entry["events"]
        new += game.apply(entry["seat"], entry["action"])
    if game.s.confirm is not None:
        new += game.apply(game.s.current, CONFIRM)
    state = game.to_json()
    assert state["options"].pop("undo_window") == 30
    assert compact(state) == stored["state_text"]
    assert sorted(map(compact, new)) == sorted(map(compact, json.loads(json.dumps(old))))
