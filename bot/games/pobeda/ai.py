"""Pobeda bots: a line-potential evaluation of the board, and (strong) sampled opponent hands.

Every six-cell window of the board is worth something to a side while no other side holds a cell
of it: ``WEIGHTS[k]`` for ``k`` of its cells held (a corner counts for every side not barred from
it by another side's line). A move is scored by how it changes the windows through its cell: for
the mover (more chips in its windows) and for the other sides (windows they lose).

* ``quick``: the best immediate change, mostly offence.
* ``strong``: the same evaluation with defence weighted as much as offence and wild cards kept
  for when they matter (a fifth chip in a window, a finished line, a removal that breaks a threat); then, for the best few moves, the hands of the next opposing seat are
  sampled from the cards this seat has not seen (the deck and other hands, i.e. every card that is
  neither in the discard pile nor in its own hand), and the move whose worst expected reply is
  smallest wins. Only the seat's view is read.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, cast

from bot.games.base import Action, Event, Rng
from bot.games.pobeda.data import CELLS, CORNERS, SIZE, card_kind, cell_index, full_deck
from bot.games.pobeda.lines import DIRECTIONS, LINE
from bot.games.pobeda.view import PobedaView

FREE = -1
WEIGHTS = (0.0, 1.0, 4.0, 16.0, 70.0, 400.0, 20000.0)
CORNER_SET = frozenset(CORNERS)


@lru_cache(maxsize=1)
def windows() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """All six-cell windows, and for each cell the indices of the windows through it."""
    wins: list[tuple[int, ...]] = []
    for r in range(SIZE):
        for c in range(SIZE):
            for dr, dc in DIRECTIONS:
                er, ec = r + dr * (LINE - 1), c + dc * (LINE - 1)
                if 0 <= er < SIZE and 0 <= ec < SIZE:
                    wins.append(tuple((r + dr * k) * SIZE + c + dc * k for k in range(LINE)))
    through: list[list[int]] = [[] for _ in range(CELLS)]
    for i, w in enumerate(wins):
        for cell in w:
            through[cell].append(i)
    return tuple(wins), tuple(tuple(t) for t in through)


class Board:
    """The public board of a view: owners, locks, finished lines."""

    def __init__(self, view: PobedaView) -> None:
        self.owner = [FREE] * CELLS
        self.locked = [False] * CELLS
        for chip in view["chips"]:
            i = cell_index(chip["cell"])
            self.owner[i] = chip["side"]
            self.locked[i] = chip["locked"]
        self.n_sides = len(view["lines_per_side"])
        self.cell_lines: dict[int, list[tuple[int, int]]] = {}
        for idx, line in enumerate(view["lines"]):
            for name in line["cells"]:
                self.cell_lines.setdefault(cell_index(name), []).append((idx, line["side"]))
        self.layout = view["layout"]
        self.cell_of = {ev: i for i, ev in enumerate(self.layout) if ev is not None}

    def wscore(self, w: tuple[int, ...], side: int) -> float:
        """What window ``w`` is worth to ``side`` now (0: blocked)."""
        owner = self.owner
        count = 0
        for cell in w:
            o = owner[cell]
            if o == side:
                count += 1
            elif cell in CORNER_SET:
                count += 1
            elif o != FREE:
                return 0.0
        if self.cell_lines:
            shared: dict[int, int] = {}
            for cell in w:
                for idx, s in self.cell_lines.get(cell, ()):
                    if s != side:
                        return 0.0
                    shared[idx] = shared.get(idx, 0) + 1
                    if shared[idx] > 1:
                        return 0.0
        return WEIGHTS[count]

    def delta(self, cell: int, new: int, side: int, defence: float) -> float:
        """Change of ``side``'s evaluation when ``cell`` becomes ``new`` (a side or FREE): its own
        windows gained or lost, plus ``defence`` times the other sides' windows lost or regained."""
        wins, through = windows()
        old = self.owner[cell]
        before = [[self.wscore(wins[i], k) for k in range(self.n_sides)] for i in through[cell]]
        self.owner[cell] = new
        total = 0.0
        for row, i in zip(before, through[cell], strict=True):
            for k in range(self.n_sides):
                change = self.wscore(wins[i], k) - row[k]
                total += change if k == side else -defence * change
        self.owner[cell] = old
        return total


class PobedaBot:
    """One level of the Pobeda bot (see the module docstring)."""

    def __init__(self, level: str) -> None:
        self.level = level
        self.name = f"pobeda-{level}"
        strong = level == "strong"
        self.defence = 1.0 if strong else 0.4
        self.wild_cost = 300.0 if strong else 0.0  # measured: hold wild cards for a fifth chip or a line
        self.candidates = 6
        self.samples = 6 if strong else 0

    # ---- the interface -----------------------------------------------------------------
    def choose(self, view: dict[str, Any], legal: Sequence[Action], rng: Rng,
               history: Sequence[Event] = ()) -> Action:
        mine = cast("PobedaView", view)  # the seat's view (bot.games.pobeda.view), with its hand
        kinds = {a["type"] for a in legal}
        if "confirm" in kinds:  # the undo window (issue 27): a bot stands by its move and draws at once
            return dict(legal[0])
        if "penalty_card" in kinds:
            return self._penalty(mine, legal)
        if "choose_line" in kinds:
            return dict(legal[0])
        plays = [a for a in legal if a["type"] == "play"]
        if "replace_dead" in kinds:
            return dict(next(a for a in legal if a["type"] == "replace_dead"))
        if not plays:
            return dict(legal[0])
        board = Board(mine)
        side = mine["seat_sides"][mine["seat"]]
        scored = sorted(((self._score(board, side, a), i) for i, a in enumerate(plays)), reverse=True)
        if self.samples == 0 or len(scored) == 1:
            return dict(plays[scored[0][1]])
        return dict(plays[self._lookahead(mine, board, side, plays, scored, rng)])

    # ---- one ply -----------------------------------------------------------------------
    def _score(self, board: Board, side: int, action: Action) -> float:
        kind = card_kind(action["card"])
        cell = cell_index(action["cell"])
        if kind == "event":
            return board.delta(cell, side, side, self.defence)
        if kind == "plus1":
            return board.delta(cell, side, side, self.defence) - self.wild_cost
        victim = board.owner[cell]
        gain = board.delta(cell, FREE, side, self.defence)
        if kind == "swap":
            board.owner[cell], saved = FREE, victim
            gain += board.delta(cell, side, side, self.defence)
            board.owner[cell] = saved
            return gain - 1.5 * self.wild_cost
        return gain - self.wild_cost

    @staticmethod
    def _after(board: Board, side: int, action: Action) -> tuple[int, int]:
        """Apply ``action`` to ``board`` in place; returns (cell, previous owner) to undo it."""
        cell = cell_index(action["cell"])
        old = board.owner[cell]
        board.owner[cell] = FREE if card_kind(action["card"]) == "minus1" else side
        return cell, old

    # ---- sampled replies ---------------------------------------------------------------
    def _lookahead(self, view: PobedaView, board: Board, side: int, plays: Sequence[Action],
                   scored: list[tuple[float, int]], rng: Rng) -> int:
        seat = view["seat"]
        sides = view["seat_sides"]
        n = len(sides)
        nxt = next((s for k in range(1, n) if sides[s := (seat + k) % n] != side), None)
        if nxt is None or view["hand_counts"][nxt] == 0:
            return scored[0][1]
        opp = sides[nxt]
        seen = set(view["discard"]) | set(view["hand"])
        pool = [c for c in full_deck() if c not in seen]
        size = min(view["hand_counts"][nxt], len(pool))
        hands = [rng.sample(pool, size) for _ in range(self.samples)]
        supply = {entry["side"]: entry["supply"] for entry in view["sides"]}
        best_i, best_value = scored[0][1], float("-inf")
        for score, i in scored[:self.candidates]:
            if score >= WEIGHTS[6] / 2:  # it finishes a line: nothing to look at
                return i
            cell, old = self._after(board, side, plays[i])
            replies = _Replies(board, opp, self.defence, supply.get(opp, 1) > 0)
            threat = sum(replies.best(hand) for hand in hands) / len(hands)
            board.owner[cell] = old
            value = score - 0.9 * threat
            if value > best_value:
                best_i, best_value = i, value
        return best_i

    # ---- penalty -----------------------------------------------------------------------
    def _penalty(self, view: PobedaView, legal: Sequence[Action]) -> Action:
        """Give back the card worth least: a dead event first, then the least useful event;
        wild cards are kept."""
        board = Board(view)
        side = view["seat_sides"][view["seat"]]

        def worth(card: str) -> float:
            if card_kind(card) != "event":
                return 1e6
            cell = board.cell_of[card]
            if board.owner[cell] != FREE:
                return -1.0
            return board.delta(cell, side, side, self.defence)

        return dict(min(legal, key=lambda a: (worth(a["card"]), a["card"])))


class _Replies:
    """The best reply value of side ``opp`` for a hand, with the per-kind maxima cached."""

    def __init__(self, board: Board, opp: int, defence: float, has_chips: bool) -> None:
        self.board, self.opp, self.defence, self.has_chips = board, opp, defence, has_chips
        self.cache: dict[str, float] = {}

    def _wild(self, kind: str) -> float:
        if kind in self.cache:
            return self.cache[kind]
        b, opp = self.board, self.opp
        best = 0.0
        if kind == "plus1" and self.has_chips:
            for cell in range(CELLS):
                if b.owner[cell] == FREE and cell not in CORNER_SET:
                    best = max(best, b.delta(cell, opp, opp, self.defence))
        elif kind in ("minus1", "swap"):
            for cell in range(CELLS):
                o = b.owner[cell]
                if o not in (FREE, opp) and not b.locked[cell]:
                    gain = b.delta(cell, FREE, opp, self.defence)
                    if kind == "swap" and self.has_chips:
                        b.owner[cell] = FREE
                        gain += b.delta(cell, opp, opp, self.defence)
                        b.owner[cell] = o
                    best = max(best, gain)
        self.cache[kind] = best
        return best

    def best(self, hand: Sequence[str]) -> float:
        b = self.board
        value = 0.0
        for card in hand:
            kind = card_kind(card)
            if kind == "event":
                cell = b.cell_of.get(card)
                if cell is None or b.owner[cell] != FREE or not self.has_chips:
                    continue
                key = "c" + card
                if key not in self.cache:
                    self.cache[key] = b.delta(cell, self.opp, self.opp, self.defence)
                value = max(value, self.cache[key])
            else:
                value = max(value, self._wild(kind))
        return value


def policy(level: str) -> PobedaBot:
    return PobedaBot(level)
