"""A refused Pobeda move says why (issue 25, item 7). The platform refuses an action the game does not list
before it reaches the rules (``SessionManager.act``), so the rules' own refusals ("that cell is taken: the
card is dead") were never shown, only "That move is not possible now". ``Pobeda.why_not`` gives them back,
trying the move on a copy: the game itself is left as it was."""

from __future__ import annotations

from bot.core.i18n import t
from bot.core.sessions import not_legal
from bot.games.pobeda import Pobeda
from tests.pobeda.pobeda_helpers import event_at, give, make, put


def unchanged(game: Pobeda, action: dict[str, object], seat: int = 0) -> tuple[str, dict[str, object]] | None:
    before = game.to_json()
    reason = game.why_not(seat, action)
    assert game.to_json() == before  # tried on a copy
    return reason


def test_an_event_card_whose_cell_is_taken_is_dead() -> None:
    """«Если клетка события уже занята, карта считается мёртвой»: its chip has nowhere to go."""
    game = make(2)
    put(game, 1, "E5")
    card = event_at(game, "E5")
    give(game, 0, card)
    assert unchanged(game, {"type": "play", "card": card, "cell": "E5"}) == ("pobeda.err.occupied", {})
    assert unchanged(game, {"type": "play", "card": card, "cell": "E6"}) == ("pobeda.err.wrong_cell", {})
    refusal = not_legal(game, 0, {"type": "play", "card": card, "cell": "E5"})  # what the platform answers
    assert (refusal.key, refusal.params) == ("pobeda.err.occupied", {})
    assert t(refusal.key, "ru") == "Клетка занята: карта мёртвая, сыграть её нельзя."


def test_a_card_not_in_your_hand_and_a_special_cards_target() -> None:
    game = make(2)
    card = event_at(game, "E5")
    give(game, 1, card)
    assert unchanged(game, {"type": "play", "card": card, "cell": "E5"}) == ("pobeda.err.not_in_hand", {})
    give(game, 0, "plus1_1", "minus1_1")
    # «+1» puts a chip on any free cell but a corner; «−1» takes an opponent's chip that is not in a line
    assert unchanged(game, {"type": "play", "card": "plus1_1", "cell": "A1"}) == ("pobeda.err.target_plus1", {})
    assert unchanged(game, {"type": "play", "card": "minus1_1", "cell": "C3"}) == ("pobeda.err.target_minus1", {})
    assert unchanged(game, {"type": "play", "card": "plus1_1", "cell": "Z99"}) == ("pobeda.err.bad_cell", {})


def test_a_move_the_rules_take_gets_no_reason() -> None:
    game = make(2)
    give(game, 0, "plus1_1", "plus1_2")
    # the second copy of a special card is not listed (the panel shows one), but the rules take it
    assert {"type": "play", "card": "plus1_2", "cell": "K11"} not in game.legal_actions(0)
    assert unchanged(game, {"type": "play", "card": "plus1_2", "cell": "K11"}) is None
    assert unchanged(game, {"type": "dance"}) is None  # unknown to the rules: the generic refusal
    assert not_legal(game, 0, {"type": "dance"}).key == "err.not_legal"
    for action in game.legal_actions(0):
        assert unchanged(game, action) is None
