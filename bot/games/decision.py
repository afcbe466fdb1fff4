"""Decisions in the contract: one record of what is open, and a base that derives play from a table.

A game's turn structure is a table of *decision kinds* (:class:`DecisionKind`): who answers it, the
answers each of them may give, and what each answer type does, plus the facts the platform needs about
it (simultaneous, secret, a deadline the rules impose, the answer of an absent seat). The game names
which kinds are open now (:meth:`DecisionGame.open_kinds`); :class:`DecisionGame` derives ``actors``,
``legal_actions``, ``apply``'s dispatch, ``forced_timeout``, ``is_simultaneous`` and ``timeout_action``
from the table, so a game writes none of them.

After every move the platform asks for :meth:`Game.open_decisions` (records of :class:`OpenDecision`)
and prompts from them: a seat is prompted when it holds an open decision it did not hold before (a new
kind, or the same kind with a new ``key``). That is the model of boardgame.io's stages and
``activePlayers`` and of OpenSpiel's ``current_player()``: the game says who decides what, and the host
never infers it from legal lists.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from bot.games.base import Action, Event, Game, IllegalAction, OpenDecision

G = TypeVar("G", bound=Game)

Move = Callable[[G, int, Any], "list[Event] | None"]
"""``(game, seat, action) -> events``: what one answer does (a game collecting its events elsewhere
returns None and overrides :meth:`DecisionGame.apply` to return them). The action is ``Any`` so a move
may name its own typed action (a ``TypedDict``) without a cast."""


@dataclass(frozen=True)
class DecisionKind(Generic[G]):
    """One row of a game's decision table."""

    who: Callable[[G], Sequence[int]]
    """The seats that must answer now, in the order they are listed to players."""
    legal: Callable[[G, int], list[Action]]
    """Every legal answer of one of those seats, in a stable order."""
    moves: Mapping[str, Move[G]]
    """What each answer type does (an action type not listed is refused)."""
    simultaneous: bool = False
    """Several seats answer at once without seeing each other's answers (bids, agent X)."""
    secret: bool = False
    """An answer is hidden until the decision resolves (the platform logs a failed one by type only)."""
    deadline_s: int | Callable[[G], int | None] | None = None
    """Seconds the rules themselves give (Pobeda's penalty card), whatever the game's pace says; a function
    of the game when an option sets them (Godstorm's answer window)."""
    timeout: Callable[[G, int], Action | None] | None = None
    """The answer given for a seat whose deadline passed (None: the platform's default, nothing)."""
    auto: bool = False
    """A window the rules close themselves (an undo window before a draw or a roll, issue 27): the
    ``timeout`` answer is given when ``deadline_s`` passes, with no reminder and no missed turn."""


def held(decisions: Sequence[OpenDecision]) -> dict[int, set[tuple[str, str]]]:
    """For each seat, the identities of the open decisions it answers."""
    out: dict[int, set[tuple[str, str]]] = {}
    for d in decisions:
        for seat in d.seats:
            out.setdefault(seat, set()).add(d.ident())
    return out


def in_window(decisions: Sequence[OpenDecision], seat: int) -> bool:
    """Whether ``seat`` holds an automatic window (:attr:`DecisionKind.auto`) among ``decisions``."""
    return any(d.auto and seat in d.seats for d in decisions)


def newly_open(before: Sequence[OpenDecision], after: Sequence[OpenDecision]) -> set[int]:
    """The seats that hold a decision in ``after`` they did not hold in ``before``."""
    old = held(before)
    return {seat for seat, idents in held(after).items() if not idents <= old.get(seat, set())}


class DecisionGame(Game):
    """A :class:`Game` whose play is its table :attr:`DECISIONS`; it implements :meth:`open_kinds`.

    Standing actions (preferences a seat sets at any time, issue 10) are in :attr:`STANDING`: they never
    close a decision. A game with refusals of its own words overrides :meth:`refuse`."""

    DECISIONS: ClassVar[Mapping[str, DecisionKind[Any]]] = {}
    STANDING: ClassVar[Mapping[str, Move[Any]]] = {}
    CHECK_LISTED: ClassVar[bool] = False
    """Refuse (:meth:`refuse`) an answer that is not one of the seat's :meth:`legal_actions` before its move
    runs, so a move may trust its action's values. Off by default: the platform already refuses anything
    unlisted before ``apply``, and some games' moves give refusals of their own words for what they do not
    list; a game on which a replay, a test or a tool applies actions directly may turn it on."""

    @abstractmethod
    def open_kinds(self) -> list[str]:
        """The keys of :attr:`DECISIONS` open now, by precedence (empty: nobody acts)."""

    def decision_key(self, kind: str) -> str:
        """What tells the open decision of ``kind`` apart from the previous one (default: nothing)."""
        return ""

    def open_decisions(self) -> list[OpenDecision]:
        out = []
        for kind in self.open_kinds():
            row = self.DECISIONS[kind]
            seats = tuple(row.who(self))
            if seats:
                out.append(OpenDecision(kind, seats, self.decision_key(kind), row.simultaneous, row.secret,
                                        self._deadline(kind), row.auto))
        return out

    def _kind_of(self, seat: int) -> str | None:
        return next((kind for kind in self.open_kinds() if seat in self.DECISIONS[kind].who(self)), None)

    def actors(self) -> list[int]:
        seen: list[int] = []
        for kind in self.open_kinds():
            seen.extend(s for s in self.DECISIONS[kind].who(self) if s not in seen)
        return seen

    def legal_actions(self, seat: int) -> list[Action]:
        kind = self._kind_of(seat)
        return [] if kind is None else self.DECISIONS[kind].legal(self, seat)

    def refuse(self, seat: int, action: Any, open_kind: str | None) -> IllegalAction:
        """The refusal of an action no open decision of ``seat`` takes (``open_kind``: the one it holds)."""
        return IllegalAction("err.not_legal" if open_kind is not None else "err.not_your_turn")

    def route(self, seat: int, action: Any) -> Move[Any]:
        """The move that answers ``action`` of ``seat`` now, or the refusal raised."""
        kind = self._kind_of(seat)
        kind_type = action.get("type") if isinstance(action, dict) else None
        if isinstance(kind_type, str):
            if kind is not None and kind_type in self.DECISIONS[kind].moves:
                if self.CHECK_LISTED and not self.is_listed(seat, action):
                    raise self.refuse(seat, action, kind)
                return self.DECISIONS[kind].moves[kind_type]
            if kind_type in self.STANDING and self.is_standing(seat, action):
                return self.STANDING[kind_type]
        raise self.refuse(seat, action, kind)

    def apply(self, seat: int, action: Action) -> list[Event]:
        return list(self.route(seat, action)(self, seat, action) or [])

    @classmethod
    def continues(cls, action: Action) -> bool:
        """An answer only a window the rules close themselves takes (:attr:`DecisionKind.auto`) finishes
        the move that opened the window."""
        kind = action.get("type") if isinstance(action, dict) else None
        rows = [row for row in cls.DECISIONS.values() if kind in row.moves]
        return bool(rows) and all(row.auto for row in rows)

    def forced_timeout(self) -> int | None:
        return max((s for s in map(self._deadline, self.open_kinds()) if s), default=None)

    def _deadline(self, kind: str) -> int | None:
        deadline = self.DECISIONS[kind].deadline_s
        return deadline(self) if callable(deadline) else deadline

    def is_simultaneous(self) -> bool:
        return any(self.DECISIONS[k].simultaneous for k in self.open_kinds())

    def is_secret(self, seat: int, action: Action) -> bool:
        """While a secret or simultaneous decision is open, for every seat: a refused action of a seat that
        has already answered is logged by its type only, like everyone else's."""
        return any(self.DECISIONS[k].secret or self.DECISIONS[k].simultaneous for k in self.open_kinds())

    def timeout_action(self, seat: int) -> Action | None:
        kind = self._kind_of(seat)
        timeout = None if kind is None else self.DECISIONS[kind].timeout
        return None if timeout is None else timeout(self, seat)
