"""Pobeda's open decisions (``open_decisions()``, :mod:`bot.games.decision`): who decides what, as the rulebook
(../shared/rules/pobeda.ru.txt, quoted by line) and docs/games/pobeda.md say, and a key that changes exactly
when a seat that is still deciding gets a new decision of the same kind."""

from __future__ import annotations

import pytest

from bot.games.base import ADMIN, IllegalAction
from bot.games.decision import OpenDecision, newly_open
from bot.games.pobeda import Pobeda
from tests.pobeda.pobeda_helpers import event_at, give, make, play_event, put, row


def kinds(game: Pobeda) -> list[tuple[str, tuple[int, ...]]]:
    return [(d.kind, d.seats) for d in game.open_decisions()]


def test_the_dealer_moves_first_then_the_player_to_the_left() -> None:
    """l. 42: «Первым ходит игрок, который раздавал карты»; l. 39: «Передаёте ход игроку слева» (the next
    seat: the platform seats players in turn order)."""
    game = Pobeda.new([{"side": 0}, {"side": 1}, {"side": 2}], {"undo_window": 0}, 5)  # the draw with the move
    dealer = game.s.dealer
    first = game.open_decisions()
    assert first == [OpenDecision("turn", (dealer,), key="1")]
    game.apply(dealer, next(a for a in game.legal_actions(dealer) if a["card"].startswith("ev")))
    after = game.open_decisions()
    assert after == [OpenDecision("turn", ((dealer + 1) % 3,), key="2")]
    assert newly_open(first, after) == {(dealer + 1) % 3}


def test_a_turn_that_comes_back_to_the_same_seat_is_a_new_decision() -> None:
    """l. 58-59: «Если колода закончилась, играйте с оставшимися в руках картами»: a player without cards
    has no turn, so the turn comes back to the one who still holds cards, who must be asked again."""
    game = make(2)
    game.s.deck = []
    game.s.hands[1] = []
    keep = game.s.hands[0][:3]
    game.s.hands[0] = keep
    before = game.open_decisions()
    game.apply(0, game.legal_actions(0)[0])
    after = game.open_decisions()
    assert [(d.kind, d.seats) for d in after] == [("turn", (0,))] and after[0].key != before[0].key
    assert newly_open(before, after) == {0}


def test_replacing_a_dead_card_keeps_the_same_turn_open() -> None:
    """House rule (docs/games/pobeda.md): a dead card is replaced before playing and «the turn goes on»: the
    same decision, not a new one."""
    game = make(2)
    put(game, 1, "E5")
    card = event_at(game, "E5")  # its cell is taken: the card is dead
    give(game, 0, card)
    before = game.open_decisions()
    game.apply(0, {"type": "replace_dead", "card": card})
    after = game.open_decisions()
    assert after == before and newly_open(before, after) == set()


def test_a_team_penalty_asks_every_member_with_cards_at_once() -> None:
    """l. 146-149: «Если команда нарушит это правило, то каждый её участник должен сделать так: • Выбрать
    любую карту из руки. • Замешать её в общую колоду»; docs: a simultaneous, secret choice within 3600 s,
    and then «play resumes with the same player to move»."""
    game = make(4, teams=2)
    game.s.hands[3] = []  # a member without cards has nothing to give
    current = game.s.current
    before = game.open_decisions()
    game.apply(ADMIN, {"type": "penalty", "side": 1})
    opened = game.open_decisions()
    assert opened == [OpenDecision("penalty", (1,), simultaneous=True, secret=True, deadline_s=3600)]
    assert newly_open(before, opened) == {1}
    game.apply(1, game.legal_actions(1)[0])
    resumed = game.open_decisions()
    assert kinds(game) == [("turn", (current,))] and newly_open(opened, resumed) == {current}


def test_members_who_have_given_their_card_are_no_longer_asked() -> None:
    game = make(4, teams=2)
    game.apply(ADMIN, {"type": "penalty", "side": 0})
    opened = game.open_decisions()
    assert kinds(game) == [("penalty", (0, 2))]
    game.apply(2, game.legal_actions(2)[0])
    still = game.open_decisions()
    assert kinds(game) == [("penalty", (0,))] and newly_open(opened, still) == set()


def test_a_line_choice_is_the_placing_players_and_each_direction_is_a_new_choice() -> None:
    """docs: «the player chooses which six (``choose_line``; one direction at a time when two directions are
    ambiguous)». A run of seven through the new chip in two directions: two choices, one after the other."""
    game = make(2, lines=3)
    put(game, 0, *row("B", "F", 7), "H7", "G2", "G3", "G4", "G5", "G6", "G8")
    before = game.open_decisions()
    play_event(game, 0, "G7")
    first = game.open_decisions()
    assert kinds(game) == [("line_choice", (0,))] and newly_open(before, first) == {0}
    game.apply(0, {"type": "choose_line", "option": 0})
    second = game.open_decisions()
    assert kinds(game) == [("line_choice", (0,))] and second[0].key != first[0].key
    assert newly_open(first, second) == {0}
    game.apply(0, {"type": "choose_line", "option": 0})
    assert kinds(game) == [("turn", (1,))]


def test_nothing_is_open_once_a_line_is_built() -> None:
    """l. 114-115: «Игра заканчивается, когда: • На поле появилась линия из фишек одного цвета»."""
    game = make(2)
    put(game, 0, *row("A", "E", 3))
    play_event(game, 0, "F3")
    assert game.open_decisions() == [] and game.actors() == []


@pytest.mark.parametrize(("seat", "action", "key"), [
    (1, {"type": "play", "card": "plus1_1", "cell": "E5"}, "pobeda.err.not_your_turn"),
    (0, {"type": "choose_line", "option": 0}, "pobeda.err.no_choice"),
    (0, {"type": "penalty_card", "card": "plus1_1"}, "pobeda.err.no_penalty"),
    (0, {"type": "dance"}, "pobeda.err.bad_action"),
    (1, {"type": "dance"}, "pobeda.err.not_your_turn"),
])
def test_the_refusals_of_moves_no_open_decision_takes(seat: int, action: dict[str, object], key: str) -> None:
    game = make(2)
    with pytest.raises(IllegalAction) as err:
        game.apply(seat, action)
    assert err.value.key == key


def test_an_open_penalty_or_line_choice_holds_every_other_move() -> None:
    game = make(4, teams=2)
    game.apply(ADMIN, {"type": "penalty", "side": 1})
    with pytest.raises(IllegalAction) as err:
        game.apply(0, {"type": "pass"})
    assert err.value.key == "pobeda.err.penalty_open"
    with pytest.raises(IllegalAction) as err:
        game.apply(0, {"type": "choose_line", "option": 0})
    assert err.value.key == "pobeda.err.penalty_open"
    chooser = make(2, lines=3)
    put(chooser, 0, *row("B", "F", 5), "H5")
    play_event(chooser, 0, "G5")
    for seat in (0, 1):
        with pytest.raises(IllegalAction) as err:
            chooser.apply(seat, {"type": "pass"})
        assert err.value.key == "pobeda.err.choose_first"
