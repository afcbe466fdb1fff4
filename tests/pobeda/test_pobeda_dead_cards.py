"""Dead cards: a house rule (the rulebook is silent), as written in docs/games/pobeda.md:

«`replace` (default, the classic rule of line games): once per turn, before playing, the player
may discard one dead card, announced in the channel, and draw a replacement, then takes the turn
as usual ... Not possible when the deck is empty (there is no replacement). If the player then
still holds no playable card (and can replace no more), they discard a dead card as their whole
turn» and «`turn` (the older reading): discarding a dead card is the player's whole turn».
"""

from __future__ import annotations

import json

import pytest

from bot.core.i18n import t
from bot.games.base import IllegalAction
from bot.games.pobeda import Pobeda, texts
from bot.games.pobeda.data import CHIPS_PER_SIDE, cell_index
from bot.games.pobeda.text import card_label
from tests.pobeda.pobeda_helpers import event_at, give, make, put


def dead_and_live(game: Pobeda) -> tuple[str, str]:
    """Seat 0 holds the dead card of E5 (Blue's chip lies there) and the live card of F5."""
    put(game, 1, "E5")
    dead, live = event_at(game, "E5"), event_at(game, "F5")
    game.s.hands[0] = []
    give(game, 0, dead, live)
    return dead, live


def on_top(game: Pobeda, card: str) -> None:
    """Move ``card`` from wherever it is to the top of the deck (the next card drawn)."""
    give(game, 1, card)
    game.s.hands[1].remove(card)
    game.s.deck.append(card)


def test_replace_a_dead_card_then_play_in_the_same_turn() -> None:
    game = make(2)
    dead, live = dead_and_live(game)
    legal = game.legal_actions(0)
    assert {"type": "replace_dead", "card": dead} in legal
    assert not any(a["type"] == "discard_dead" for a in legal)  # a live card: no discarding as the turn
    top = game.s.deck[-1]
    deck = len(game.s.deck)
    events = game.apply(0, {"type": "replace_dead", "card": dead})
    assert events == [{"type": "replaced", "seat": 0, "card": dead},
                      {"type": "drew", "to": [0], "seat": 0, "card": top}]
    assert sorted(game.s.hands[0]) == sorted([live, top]) and game.s.discard == [dead]
    assert len(game.s.deck) == deck - 1
    assert game.actors() == [0] and game.s.current == 0 and game.s.owner[cell_index("E5")] == 1
    # then the turn as usual: the live card goes down, a card is drawn, the turn passes left
    assert {"type": "play", "card": live, "cell": "F5"} in game.legal_actions(0)
    game.apply(0, {"type": "play", "card": live, "cell": "F5"})
    assert game.s.owner[cell_index("F5")] == 0 and len(game.s.hands[0]) == 2
    assert game.s.current == 1 and game.s.replaced is False


def test_only_one_replacement_per_turn() -> None:
    game = make(2)
    put(game, 1, "E5", "E6")
    first, second, live = event_at(game, "E5"), event_at(game, "E6"), event_at(game, "F5")
    game.s.hands[0] = []
    give(game, 0, first, second, live)
    on_top(game, event_at(game, "H8"))
    game.apply(0, {"type": "replace_dead", "card": first})
    assert not any(a["type"] in ("replace_dead", "discard_dead") for a in game.legal_actions(0))
    before = json.dumps(game.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as err:
        game.apply(0, {"type": "replace_dead", "card": second})
    assert err.value.key == "pobeda.err.replaced_already"
    with pytest.raises(IllegalAction) as err:
        game.apply(0, {"type": "discard_dead", "card": second})
    assert err.value.key == "pobeda.err.must_play"
    assert json.dumps(game.to_json(), sort_keys=True) == before  # refusals change nothing
    assert game.prompt_text(0, "en") == t("pobeda.prompt.after_replace", "en")
    # the next turn of this player may replace again
    game.apply(0, {"type": "play", "card": live, "cell": "F5"})
    game.apply(1, {"type": "pass"})
    assert {"type": "replace_dead", "card": second} in game.legal_actions(0)


def test_live_card_cannot_be_replaced_and_discarding_needs_a_stuck_hand() -> None:
    game = make(2)
    dead, live = dead_and_live(game)
    with pytest.raises(IllegalAction) as err:
        game.apply(0, {"type": "replace_dead", "card": live})
    assert err.value.key == "pobeda.err.not_dead"
    with pytest.raises(IllegalAction) as err:
        game.apply(0, {"type": "discard_dead", "card": dead})
    assert err.value.key == "pobeda.err.must_play"


def test_all_dead_replace_first_then_discard_as_the_turn() -> None:
    """Nothing playable: replace one (once), and if still nothing can be played, a dead card is
    discarded as the turn, so a player holding cards always has a move."""
    game = make(2)
    put(game, 1, "E5", "E6")
    a, b = event_at(game, "E5"), event_at(game, "E6")
    game.s.hands[0] = []
    give(game, 0, a, b)
    put(game, 1, "G7")
    on_top(game, event_at(game, "G7"))  # the replacement is dead too
    assert {x["type"] for x in game.legal_actions(0)} == {"replace_dead"}
    assert game.prompt_text(0, "ru") == t("pobeda.prompt.all_dead_replace", "ru")
    with pytest.raises(IllegalAction) as err:
        game.apply(0, {"type": "discard_dead", "card": a})
    assert err.value.key == "pobeda.err.replace_first"
    game.apply(0, {"type": "replace_dead", "card": a})
    legal = game.legal_actions(0)
    assert legal and {x["type"] for x in legal} == {"discard_dead"}
    assert game.prompt_text(0, "en") == t("pobeda.prompt.all_dead", "en")
    events = game.apply(0, {"type": "discard_dead", "card": b})
    assert events[0] == {"type": "discarded", "seat": 0, "card": b}
    assert game.s.current == 1 and len(game.s.hands[0]) == 2


def test_no_replacement_from_an_empty_deck() -> None:
    """«draw a replacement»: with the deck empty there is none, so a dead card is not replaced;
    a stuck hand discards one as the turn."""
    game = make(2)
    dead, live = dead_and_live(game)
    game.s.deck = []
    assert not any(x["type"] == "replace_dead" for x in game.legal_actions(0))
    with pytest.raises(IllegalAction) as err:
        game.apply(0, {"type": "replace_dead", "card": dead})
    assert err.value.key == "pobeda.err.no_replacement"
    game.s.hands[0].remove(live)
    assert game.legal_actions(0) == [{"type": "discard_dead", "card": dead}]


def test_dead_special_cards_are_replaced_too() -> None:
    """«any card that cannot be played now»: −1 with no star-down opponent chip on the board."""
    game = make(2)
    game.s.hands[0] = []
    give(game, 0, "minus1_1", event_at(game, "F5"))
    assert {"type": "replace_dead", "card": "minus1_1"} in game.legal_actions(0)
    game.apply(0, {"type": "replace_dead", "card": "minus1_1"})
    assert "minus1_1" in game.s.discard and game.s.current == 0


def test_empty_supply_makes_chip_cards_dead_and_replaceable() -> None:
    game = make(2)
    free = [i for i in range(144) if game.s.layout[i] is not None][:CHIPS_PER_SIDE]
    for i in free:
        game.s.owner[i] = 0
    put(game, 1, "L11")
    game.s.hands[0] = []
    give(game, 0, event_at(game, "K11"), "plus1_1", "minus1_1")
    legal = game.legal_actions(0)
    assert [x for x in legal if x["type"] == "play"] == [{"type": "play", "card": "minus1_1", "cell": "L11"}]
    assert {x["card"] for x in legal if x["type"] == "replace_dead"} == {event_at(game, "K11"), "plus1_1"}


def test_option_turn_keeps_the_old_reading() -> None:
    """`turn`: discarding a dead card is the whole turn; there is no replacement."""
    game = make(2, dead="turn")
    dead, live = dead_and_live(game)
    legal = game.legal_actions(0)
    assert {"type": "discard_dead", "card": dead} in legal
    assert not any(x["type"] == "replace_dead" for x in legal)
    with pytest.raises(IllegalAction) as err:
        game.apply(0, {"type": "replace_dead", "card": dead})
    assert err.value.key == "pobeda.err.replace_off"
    game.apply(0, {"type": "discard_dead", "card": dead})
    assert game.s.current == 1


def test_a_game_saved_before_the_option_keeps_the_old_reading() -> None:
    """A running game stored by state version 1 (no option) started under the old rule and keeps it."""
    game = make(2)
    state = game.to_json()
    del state["options"]["dead"]
    del state["replaced"]
    assert Pobeda.STATE_VERSION == 3  # 3: the undo window (tests/takeback/test_takeback_pobeda.py)
    old = Pobeda.from_json(Pobeda.migrate_state(state, 1))
    assert old.s.options.dead == "turn" and old.s.replaced is False
    assert Pobeda.migrate_state(game.to_json(), 2) == game.to_json()
    # its replay starts from the stored lobby options, which lack the option too (and the undo window: off)
    legacy_options = {"lines": 1, "teams": 0, "layout": "chrono"}
    assert Pobeda.migrate_options(legacy_options, 1) == {**legacy_options, "dead": "turn", "undo_window": 0}
    current = game.to_json()["options"]
    assert Pobeda.migrate_options(current, 3) == current
    dead, _ = dead_and_live(old)
    assert {"type": "discard_dead", "card": dead} in old.legal_actions(0)
    assert not any(x["type"] == "replace_dead" for x in old.legal_actions(0))


def test_timeout_after_a_replacement_passes_the_turn() -> None:
    """The absent-player rule: the turn is passed (no card played, none drawn), replacement or not;
    the next player starts a fresh turn with its own replacement."""
    game = make(2)
    dead, live = dead_and_live(game)
    game.apply(0, {"type": "replace_dead", "card": dead})
    hand = sorted(game.s.hands[0])
    deck = len(game.s.deck)
    action = game.timeout_action(0)
    assert action == {"type": "pass"}
    game.apply(0, action)
    assert sorted(game.s.hands[0]) == hand and len(game.s.deck) == deck
    assert game.s.current == 1 and game.s.replaced is False


def test_texts_announce_the_replacement_publicly_and_the_draw_privately() -> None:
    game = make(2)
    dead, _ = dead_and_live(game)
    events = game.apply(0, {"type": "replace_dead", "card": dead})
    public = [e for e in events if "to" not in e]
    assert public == [{"type": "replaced", "seat": 0, "card": dead}]  # the new card is not in it
    for lang in ("ru", "en"):
        text = game.event_text(public[0], lang)
        assert text == t("pobeda.evt.replaced", lang, who=texts.who(game, 0, lang), card=card_label(dead, lang))
        assert card_label(dead, lang) in text and "{" not in text
        path = game.action_path(0, {"type": "replace_dead", "card": dead}, lang)
        assert path == [t("pobeda.path.replace", lang, card=card_label(dead, lang))[:80]]
        assert path != game.action_path(0, {"type": "discard_dead", "card": dead}, lang)
    assert game.event_text(public[0], "ru").startswith(texts.who(game, 0, "ru"))


def test_replay_reproduces_a_game_with_replacements() -> None:
    game = make(2)
    seed_state = game.to_json()
    log = []
    dead, live = dead_and_live(game)
    start = game.to_json()
    for seat, action in [(0, {"type": "replace_dead", "card": dead}),
                         (0, {"type": "play", "card": live, "cell": "F5"}),
                         (1, {"type": "pass"})]:
        log.append((seat, action))
        game.apply(seat, action)
    again = Pobeda.from_json(start)
    for seat, action in log:
        again.apply(seat, action)
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(game.to_json(), sort_keys=True)
    assert seed_state["options"]["dead"] == "replace"
