"""Shared helpers for the Pobeda tests: hand-built positions on a real game."""

from __future__ import annotations

from typing import Any

from bot.games.pobeda import Pobeda
from bot.games.pobeda.data import cell_index

ALL_CARDS = 151


def make(n_seats: int = 2, *, lines: int = 1, teams: int = 0, seed: int = 7,
         sides: list[int] | None = None, dead: str = "replace", undo_window: int = 0) -> Pobeda:
    """A fresh game with seat 0 to move (``dead``: the dead-card option; ``undo_window``: 0 by default, the
    draw coming with the move as the rulebook's turn reads, which these tests were written for)."""
    if sides is None:
        sides = list(range(n_seats)) if not teams else [i % teams for i in range(n_seats)]
    game = Pobeda.new([{"side": k} for k in sides], {"lines": lines, "teams": teams, "dead": dead, "undo_window": undo_window}, seed)
    game.s.current = 0
    return game


def put(game: Pobeda, side: int, *cells: str) -> None:
    """Place chips directly (a position set-up, not a move)."""
    for name in cells:
        game.s.owner[cell_index(name)] = side


def give(game: Pobeda, seat: int, *cards: str) -> None:
    """Move ``cards`` into ``seat``'s hand from wherever they are (deck, other hands)."""
    for card in cards:
        for pile in [game.s.deck, game.s.discard, *game.s.hands]:
            if card in pile:
                pile.remove(card)
        game.s.hands[seat].append(card)


def event_at(game: Pobeda, name: str) -> str:
    event = game.s.layout[cell_index(name)]
    assert event is not None
    return event


def play_event(game: Pobeda, seat: int, name: str) -> list[dict[str, Any]]:
    """Give ``seat`` the event card of cell ``name`` and play it."""
    card = event_at(game, name)
    give(game, seat, card)
    game.s.current = seat
    return game.apply(seat, {"type": "play", "card": card, "cell": name})


def card_total(game: Pobeda) -> int:
    state = game.s
    pending = len(state.penalty.chosen) if state.penalty else 0
    return len(state.deck) + sum(len(h) for h in state.hands) + len(state.discard) + pending


def row(letter_from: str, letter_to: str, number: int) -> list[str]:
    cols = "ABCDEFGHIJKL"
    return [f"{c}{number}" for c in cols[cols.index(letter_from): cols.index(letter_to) + 1]]
