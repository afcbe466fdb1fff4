"""Lines of victory: the rulebook's cases, played through Pobeda.apply."""

from __future__ import annotations

import pytest

from bot.games.base import IllegalAction
from bot.games.pobeda.data import cell_index
from tests.pobeda.pobeda_helpers import give, make, play_event, put, row


def line_cells(game) -> list[tuple[int, list[str]]]:
    return [(line["side"], line["cells"]) for line in game.view(None)["lines"]]


def test_six_in_a_row_finishes_a_line_locks_it_and_wins() -> None:
    game = make(2)
    put(game, 0, *row("A", "E", 3))
    events = play_event(game, 0, "F3")
    assert line_cells(game) == [(0, row("A", "F", 3))]
    assert all(game.s.locked[cell_index(c)] for c in row("A", "F", 3))
    assert [e for e in events if e["type"] == "line"][0]["cells"] == row("A", "F", 3)
    assert game.outcome() == {"winners": [0], "draw": False, "reason": "lines", "lines": [1, 0]}
    assert game.actors() == []


def test_five_in_a_row_is_not_a_line_and_opponent_chip_breaks_the_run() -> None:
    game = make(2, lines=1)
    put(game, 0, *row("A", "D", 3))
    put(game, 1, "F3")
    play_event(game, 0, "E3")
    assert line_cells(game) == []
    assert game.outcome() is None
    assert game.s.current == 1


def test_vertical_and_diagonal_lines() -> None:
    game = make(2, lines=3)
    put(game, 0, "C2", "C3", "C4", "C5", "C6")
    play_event(game, 0, "C7")
    put(game, 0, "E2", "F3", "G4", "H5", "I6")
    play_event(game, 0, "J7")
    assert line_cells(game) == [(0, ["C2", "C3", "C4", "C5", "C6", "C7"]),
                                (0, ["E2", "F3", "G4", "H5", "I6", "J7"])]


def test_anti_diagonal_through_the_corner() -> None:
    game = make(2, lines=3)
    put(game, 0, "K2", "J3", "I4", "H5")
    play_event(game, 0, "G6")
    assert line_cells(game) == [(0, ["L1", "K2", "J3", "I4", "H5", "G6"])]


def test_anti_diagonal_line() -> None:
    game = make(2, lines=3)
    put(game, 0, "K3", "J4", "I5", "H6", "F8")
    play_event(game, 0, "G7")
    assert line_cells(game) == [(0, ["K3", "J4", "I5", "H6", "G7", "F8"])]


def test_corner_makes_a_seven_cell_run_so_the_player_chooses() -> None:
    game = make(2, lines=3)
    put(game, 0, "K2", "J3", "I4", "H5", "F7")
    play_event(game, 0, "G6")
    options = game.view(None)["pending_choice"]["options"]
    assert options == [[["L1", "K2", "J3", "I4", "H5", "G6"]], [["K2", "J3", "I4", "H5", "G6", "F7"]]]


def test_eleven_in_a_row_placed_in_the_middle_is_two_lines() -> None:
    game = make(2, lines=3)
    put(game, 0, *row("A", "E", 4), *row("G", "K", 4))
    play_event(game, 0, "F4")
    assert line_cells(game) == [(0, row("A", "F", 4)), (0, row("F", "K", 4))]
    assert game.s.pending is None  # no choice: the pair is the only way


def test_eleven_in_a_row_built_from_one_end_is_two_lines_sharing_one_chip() -> None:
    game = make(2, lines=3)
    put(game, 0, *row("A", "E", 4))
    play_event(game, 0, "F4")
    put(game, 0, *row("G", "J", 4))
    play_event(game, 0, "K4")
    assert line_cells(game) == [(0, row("A", "F", 4)), (0, row("F", "K", 4))]


def test_a_line_may_not_reuse_two_chips_of_another_line() -> None:
    game = make(2, lines=3)
    put(game, 0, *row("A", "E", 4))
    play_event(game, 0, "F4")
    play_event(game, 0, "G4")  # B4..G4 would share five chips with A4..F4
    play_event(game, 0, "H4")  # C4..H4 would share four
    assert line_cells(game) == [(0, row("A", "F", 4))]
    assert game.s.pending is None


def test_crossing_lines_of_one_colour_share_one_chip() -> None:
    game = make(2, lines=3)
    put(game, 0, *row("B", "F", 6))
    play_event(game, 0, "G6")
    put(game, 0, "D3", "D4", "D5", "D7")  # D6 is already in the first line
    play_event(game, 0, "D8")
    assert line_cells(game) == [(0, row("B", "G", 6)), (0, ["D3", "D4", "D5", "D6", "D7", "D8"])]


def test_corner_starts_and_ends_a_line() -> None:
    game = make(2, lines=3)
    put(game, 0, "B1", "C1", "D1", "E1")
    play_event(game, 0, "F1")  # A1 corner + five chips
    put(game, 1, "H12", "I12", "J12", "K12")
    play_event(game, 1, "G12")  # five chips + L12 corner
    assert line_cells(game) == [(0, ["A1", "B1", "C1", "D1", "E1", "F1"]),
                                (1, ["G12", "H12", "I12", "J12", "K12", "L12"])]


def test_diagonal_from_a_corner() -> None:
    game = make(2, lines=3)
    put(game, 0, "B2", "C3", "D4", "E5")
    play_event(game, 0, "F6")
    assert line_cells(game) == [(0, ["A1", "B2", "C3", "D4", "E5", "F6"])]


def test_one_corner_may_serve_two_lines_of_one_colour() -> None:
    game = make(2, lines=3)
    put(game, 0, "B1", "C1", "D1", "E1")
    play_event(game, 0, "F1")
    put(game, 0, "A2", "A3", "A4", "A5")
    play_event(game, 0, "A6")
    assert [cells for _, cells in line_cells(game)] == [
        ["A1", "B1", "C1", "D1", "E1", "F1"], ["A1", "A2", "A3", "A4", "A5", "A6"]]


def test_different_colours_never_share_a_corner_line() -> None:
    game = make(2, lines=3)
    put(game, 0, "B1", "C1", "D1", "E1")
    play_event(game, 0, "F1")
    put(game, 1, "A2", "A3", "A4", "A5")
    play_event(game, 1, "A6")  # A1 is taken by red's line: no line for blue
    assert line_cells(game) == [(0, ["A1", "B1", "C1", "D1", "E1", "F1"])]
    play_event(game, 1, "A7")  # A2..A7 needs no corner
    assert line_cells(game)[-1] == (1, ["A2", "A3", "A4", "A5", "A6", "A7"])


def test_choose_line_when_a_chip_finishes_a_line_in_two_ways() -> None:
    game = make(2, lines=3)
    put(game, 0, *row("B", "F", 5), "H5")
    play_event(game, 0, "G5")
    assert game.actors() == [0]
    assert game.s.current == 0
    legal = game.legal_actions(0)
    assert legal == [{"type": "choose_line", "option": 0}, {"type": "choose_line", "option": 1}]
    assert game.view(None)["pending_choice"]["options"] == [[row("B", "G", 5)], [row("C", "H", 5)]]
    assert game.timeout_action(0) == {"type": "choose_line", "option": 0}
    with pytest.raises(IllegalAction):
        game.apply(0, {"type": "play", "card": game.s.hands[0][0], "cell": "A1"})
    with pytest.raises(IllegalAction):
        game.apply(1, {"type": "choose_line", "option": 0})
    with pytest.raises(IllegalAction):
        game.apply(0, {"type": "choose_line", "option": 2})
    labels = [game.action_path(0, a, "en") for a in legal]
    assert labels == [["Line 1: B5–G5"], ["Line 2: C5–H5"]]
    game.apply(0, {"type": "choose_line", "option": 1})
    assert line_cells(game) == [(0, row("C", "H", 5))]
    assert not game.s.locked[cell_index("B5")]
    assert game.s.current == 1 and game.s.pending is None


def test_line_choice_in_two_directions_is_asked_one_direction_at_a_time() -> None:
    game = make(2, lines=3)
    put(game, 0, *row("B", "F", 7), "H7", "G2", "G3", "G4", "G5", "G6", "G8")
    play_event(game, 0, "G7")
    assert len(game.s.pending.queue) == 2
    game.apply(0, {"type": "choose_line", "option": 0})
    assert game.actors() == [0]
    game.apply(0, {"type": "choose_line", "option": 0})
    assert len(line_cells(game)) == 2 and game.s.current == 1


def test_crossing_lines_are_finished_together_automatically() -> None:
    game = make(2, lines=2)
    put(game, 0, *row("B", "F", 9), "G4", "G5", "G6", "G7", "G8")
    play_event(game, 0, "G9")
    assert len(line_cells(game)) == 2
    assert game.outcome()["winners"] == [0]


def test_locked_chips_refuse_minus1_and_swap() -> None:
    game = make(2, lines=3)
    put(game, 0, *row("A", "E", 3))
    play_event(game, 0, "F3")
    put(game, 0, "H8")  # an unlocked red chip
    give(game, 1, "minus1_1", "swap_1")
    game.s.current = 1
    for card in ("minus1_1", "swap_1"):
        with pytest.raises(IllegalAction) as err:
            game.apply(1, {"type": "play", "card": card, "cell": "C3"})
        assert err.value.key == f"pobeda.err.target_{card.split('_')[0]}"
    targets = {a["cell"] for a in game.legal_actions(1) if a["card"] in ("minus1_1", "swap_1")}
    assert targets == {"H8"}
    game.apply(1, {"type": "play", "card": "swap_1", "cell": "H8"})
    assert game.s.owner[cell_index("H8")] == 1
