"""Pobeda: a Sequence-like race to build lines of six chips on a 12x12 board of war events.

The turn structure is the decision table :data:`Pobeda.DECISIONS` (:mod:`bot.games.decision`): a moderator's
team penalty interrupts everything, a line choice finishes the move that made it, with an undo window the mover
confirms a move that draws (the draw waits for it), otherwise the seat to move plays its turn. The state is typed
(:mod:`bot.games.pobeda.state`, stored as the JSON it has always been); derived caches (cell of each event, lines
through each cell) are rebuilt on load and never serialised. Texts are built outside the rules, in
:mod:`bot.games.pobeda.texts`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar, cast

from bot.games.base import (
    ADMIN,
    Action,
    Arrangement,
    Event,
    IllegalAction,
    OptionSpec,
    Player,
    Rng,
    as_outcome,
    state_text,
)
from bot.games.base import Outcome as Result
from bot.games.decision import DecisionGame, DecisionKind, Move
from bot.games.pobeda import data, lobby, texts
from bot.games.pobeda import view as pview
from bot.games.pobeda.data import (
    CELLS,
    CORNERS,
    FREE,
    HAND_SIZE,
    card_kind,
    card_order,
    cell_index,
    cell_name,
)
from bot.games.pobeda.lines import line_options
from bot.games.pobeda.state import Line, LineChoice, LineOption, Options, Outcome, Penalty, PobedaState
from bot.games.pobeda.vocab import (
    ChooseLineAction,
    ConfirmAction,
    DiscardAction,
    DrewEvent,
    GameOverEvent,
    LineEvent,
    PassAction,
    PenaltyAction,
    PenaltyCardAction,
    PlayAction,
    PlayedEvent,
    PobedaEvent,
    ReplaceAction,
)

PENALTY_SECONDS = 3600
"""The rules' own deadline for a penalty card (whatever the table's pace)."""

A = TypeVar("A")
Events = list[PobedaEvent]


def _move(fn: Callable[[Pobeda, int, A], Events]) -> Move[Pobeda]:
    """A move of the table, typed by the action it answers (the table routes by ``type`` only: each move
    checks the other fields itself)."""
    return cast("Move[Pobeda]", fn)


class Pobeda(DecisionGame):
    key = "pobeda"
    STATE_VERSION = 3  # 2: the dead-card option (``options.dead``) and the turn's ``replaced`` flag;
    # 3: the undo window (``options.undo_window``, the state's ``confirm``; issue 27)
    DECISIONS: ClassVar[Mapping[str, DecisionKind[Any]]]  # at the end of the module: the moves are defined first

    @classmethod
    def migrate_state(cls, data: dict[str, Any], from_version: int) -> dict[str, Any]:
        """Version 1 games started before the dead-card option: they keep the reading they were
        started with (discarding a dead card is the whole turn). Versions 1 and 2 started before the undo
        window: a state without ``undo_window`` and ``confirm`` has the window off, so their JSON stays."""
        if from_version == 1:
            data = copy.deepcopy(data)
            data["options"]["dead"] = "turn"
            data["replaced"] = False
            from_version = 2
        if from_version == 2:
            return data
        return super().migrate_state(data, from_version)

    @classmethod
    def migrate_options(cls, options: dict[str, Any], from_version: int) -> dict[str, Any]:
        """A replay rebuilds an older game with the rules it was started with: a version-1 game with its
        dead-card reading, and every game from before the undo window without one (new games default to 30 s)."""
        if from_version == 1:
            options = {**options, "dead": "turn"}
        if from_version in (1, 2):
            options = {**options, "undo_window": 0}
        return options

    # ---- lobby (bot/games/pobeda/lobby.py) ----------------------------------------------
    @classmethod
    def option_specs(cls) -> list[OptionSpec]:
        return list(lobby.OPTION_SPECS)

    @classmethod
    def player_range(cls, options: dict[str, Any]) -> tuple[int, int]:
        return lobby.player_range(lobby.checked(options)["teams"])

    @classmethod
    def team_count(cls, options: dict[str, Any], n_players: int) -> int:
        return int(lobby.checked(options)["teams"])

    @classmethod
    def arrange_seats(cls, players: list[Player], options: dict[str, Any], rng: Rng) -> Arrangement:
        return lobby.arrange(players, lobby.checked(options)["teams"], rng)

    @classmethod
    def new(cls, seat_info: list[dict[str, Any]], options: dict[str, Any], seed: int) -> Pobeda:
        opts = Options.from_json(lobby.checked(options))
        rng = Rng(seed)
        sides = [int(info["side"]) for info in seat_info]
        n_sides = max(sides) + 1
        if not 2 <= n_sides <= 3 or sorted(set(sides)) != list(range(n_sides)):
            raise IllegalAction("pobeda.err.sides")
        layout: list[str | None] = list(data.chrono_layout())
        if opts.layout == "shuffled":
            ids = [cell for cell in layout if cell is not None]
            rng.shuffle(ids)
            it = iter(ids)
            layout = [None if i in CORNERS else next(it) for i in range(CELLS)]
        deck = data.full_deck()
        rng.shuffle(deck)
        hands = [[deck.pop() for _ in range(HAND_SIZE)] for _ in sides]
        first = rng.randint(0, len(sides) - 1)
        state = PobedaState(
            options=opts, seat_sides=sides, n_sides=n_sides, required=opts.lines,
            layout=layout, owner=[FREE] * CELLS, locked=[False] * CELLS, lines=[], deck=deck, hands=hands,
            discard=[], dealer=first, current=first, turn=1, pending=None, replaced=False, penalty=None,
            last_move=[], outcome=None, rng=rng)
        return cls(state)

    def __init__(self, state: PobedaState) -> None:
        self.s = state
        self.cell_of = {ev: i for i, ev in enumerate(state.layout) if ev is not None}
        self.cell_lines: list[list[int]] = [[] for _ in range(CELLS)]
        for idx, line in enumerate(state.lines):
            for cell in line.cells:
                self.cell_lines[cell].append(idx)

    @property
    def rng(self) -> Rng:
        return self.s.rng

    # ---- serialisation -----------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return self.s.to_json()

    def to_json_text(self) -> str:
        return state_text(self.s.to_json())

    @classmethod
    def from_json(cls, data_: dict[str, Any]) -> Pobeda:
        return cls(PobedaState.from_json(data_))

    # ---- helpers -----------------------------------------------------------------------
    @property
    def n_seats(self) -> int:
        return len(self.s.seat_sides)

    def side_of(self, seat: int) -> int:
        return self.s.seat_sides[seat]

    def seats_of_side(self, side: int) -> list[int]:
        return pview.seats_of_side(self.s, side)

    def supply(self, side: int) -> int:
        """Chips left in a side's supply (48 minus its chips on the board)."""
        return pview.supply(self.s, side)

    def lines_of(self, side: int) -> int:
        return pview.lines_of(self.s, side)

    def _targets(self, side: int, kind: str) -> list[int]:
        """Cells a special card of ``kind`` may target for ``side`` (empty: unplayable)."""
        owner, locked = self.s.owner, self.s.locked
        if kind == "plus1":
            if self.supply(side) <= 0:
                return []
            corners = set(CORNERS)
            return [i for i in range(CELLS) if owner[i] == FREE and i not in corners]
        if kind == "swap" and self.supply(side) <= 0:
            return []
        return [i for i in range(CELLS) if owner[i] not in (FREE, side) and not locked[i]]

    def _target_ok(self, side: int, kind: str, cell: int) -> bool:
        owner = self.s.owner
        if kind == "plus1":
            return self.supply(side) > 0 and cell not in CORNERS and owner[cell] == FREE
        if kind == "swap" and self.supply(side) <= 0:
            return False
        return owner[cell] not in (FREE, side) and not self.s.locked[cell]

    def _event_playable(self, side: int, card: str) -> bool:
        return self.s.owner[self.cell_of[card]] == FREE and self.supply(side) > 0

    def is_dead(self, seat: int, card: str) -> bool:
        """A card this seat cannot play now (it may be discarded as the turn instead)."""
        side = self.side_of(seat)
        kind = card_kind(card)
        if kind == "event":
            return not self._event_playable(side, card)
        return not self._targets(side, kind)

    def replace_rule(self) -> bool:
        """Dead cards are replaced before playing (the default), rather than discarded as the turn."""
        return self.s.options.dead == "replace"

    def can_replace(self, seat: int) -> bool:
        """``seat`` (the player to move) may still replace a dead card this turn."""
        return self.replace_rule() and not self.s.replaced and bool(self.s.deck)

    def has_play(self, seat: int) -> bool:
        return any(not self.is_dead(seat, card) for card in self.s.hands[seat])

    def _draw(self, seat: int) -> Events:
        if not self.s.deck:
            return []
        card = self.s.deck.pop()
        self.s.hands[seat].append(card)
        drew: DrewEvent = {"type": "drew", "to": [seat], "seat": seat, "card": card}
        return [drew]

    # ---- decisions (the table is DECISIONS, at the end of the module) ------------------
    def open_kinds(self) -> list[str]:
        """The open decision: a team penalty interrupts everything, a line choice finishes the move that made
        it, otherwise it is the current seat's turn (none: game over)."""
        s = self.s
        if s.outcome is not None:
            return []
        if s.penalty is not None:
            return ["penalty"]
        if s.pending is not None:
            return ["line_choice"]
        if s.confirm is not None:
            return ["confirm"]
        return ["turn"]

    def decision_key(self, kind: str) -> str:
        """A turn is told apart by its number (a seat may get the turn again when the others have no cards);
        a line choice by its turn and the choices left (a chip finishing lines in two directions asks twice).
        A seat cannot hold two penalties across one move (a penalty ends with its last card)."""
        if kind == "turn":
            return str(self.s.turn)
        if kind == "line_choice" and self.s.pending is not None:
            return f"{self.s.turn}:{len(self.s.pending.queue)}"
        if kind == "confirm":
            return f"{self.s.turn}:{self.s.confirm}"
        return ""

    def _penalised(self) -> list[int]:
        """Every seat of the penalised team that has not yet given its card (simultaneously)."""
        penalty = self.s.penalty
        return [] if penalty is None else [seat for seat in penalty.waiting if seat not in penalty.chosen]

    def _chooser(self) -> list[int]:
        return [] if self.s.pending is None else [self.s.pending.seat]

    def _player_to_move(self) -> list[int]:
        return [self.s.current]

    def _confirmer(self) -> list[int]:
        return [] if self.s.confirm is None else [self.s.current]

    def _confirm_legal(self, seat: int) -> list[Action]:
        return [{"type": "confirm"}]

    def _undo_window(self) -> int | None:
        """The seconds a move that draws waits for its player's confirmation (None: no window)."""
        return self.s.options.undo_window or None

    def _penalty_legal(self, seat: int) -> list[Action]:
        return [{"type": "penalty_card", "card": card} for card in sorted(self.s.hands[seat])]

    def _choice_legal(self, seat: int) -> list[Action]:
        pending = self.s.pending
        return [] if pending is None else [{"type": "choose_line", "option": i} for i in range(len(pending.queue[0]))]

    def _turn_legal(self, seat: int) -> list[Action]:
        """Every play, and the dead cards' replacement or discard; of several copies of one special card only
        the first copy is listed (apply accepts any copy), which keeps the control lists short."""
        s = self.s
        side = self.side_of(seat)
        entries: list[Action | str] = []  # plays, and dead cards (decided below)
        seen: set[str] = set()
        for card in sorted(s.hands[seat], key=card_order):
            kind = card_kind(card)
            if kind == "event":
                if self._event_playable(side, card):
                    entries.append({"type": "play", "card": card, "cell": cell_name(self.cell_of[card])})
                else:
                    entries.append(card)
                continue
            if kind in seen:
                continue
            seen.add(kind)
            targets = self._targets(side, kind)
            if targets:
                entries.extend({"type": "play", "card": card, "cell": cell_name(c)} for c in targets)
            else:
                entries.append(card)
        dead = self._dead_action(seat, any(not isinstance(e, str) for e in entries))
        return [e if not isinstance(e, str) else {"type": dead, "card": e}
                for e in entries if not isinstance(e, str) or dead]

    def _dead_action(self, seat: int, can_play: bool) -> str | None:
        """What a dead card allows now: ``discard_dead`` (the whole turn) under the old rule or,
        under the replace rule, when nothing can be played and nothing replaced;
        ``replace_dead`` once per turn while the deck has a card; otherwise nothing."""
        if not self.replace_rule():
            return "discard_dead"
        if self.can_replace(seat):
            return "replace_dead"
        return None if can_play else "discard_dead"

    def admin_actions(self) -> list[Action]:
        """A team penalty, while no penalty or line choice is open (it interrupts an undo window: the
        confirmation waits for the penalty, and the card is drawn from the deck as it then is)."""
        s = self.s
        if s.outcome is not None or s.penalty is not None or s.pending is not None:
            return []
        if not s.options.teams:
            return []
        return [{"type": "penalty", "side": k} for k in range(s.n_sides)]

    def why_not(self, seat: int, action: Any) -> tuple[str, dict[str, Any]] | None:
        """Why ``action`` is refused (issue 25): the rules' own refusal ("that cell is taken: the card is
        dead", "that card is not in your hand", "a line must be chosen first", "−1 removes only an opponent's
        chip lying star-down"...), found by trying it on a copy; the platform refuses unlisted actions before
        they reach :meth:`apply`, which would have said so. None when the rules would take it (another copy
        of a listed special card) or know it no better than "unknown action"."""
        trial = Pobeda.from_json(self.to_json())
        try:
            trial.apply(seat, action)
        except IllegalAction as exc:
            return None if exc.key in ("pobeda.err.bad_action", "pobeda.err.game_over") else (exc.key, dict(exc.params))
        except (KeyError, TypeError, ValueError, IndexError):  # a malformed action the rules did not expect
            return None
        return None

    # ---- timeouts (the answers of absent seats, named in the table) --------------------
    def _penalty_timeout(self, seat: int) -> Action:
        """A card picked by a generator derived from the game's Rng (the Rng itself is not advanced, so
        replaying the logged action reproduces the state)."""
        hand = sorted(self.s.hands[seat])
        pick = Rng(self.rng.seed * 31 + seat + 1, self.rng.n).choice(hand)
        return {"type": "penalty_card", "card": pick}

    def _choice_timeout(self, seat: int) -> Action:
        return {"type": "choose_line", "option": 0}

    def _turn_timeout(self, seat: int) -> Action:
        return {"type": "pass"}

    def _confirm_timeout(self, seat: int) -> Action:
        return {"type": "confirm"}

    def outcome(self) -> Result | None:
        return None if self.s.outcome is None else as_outcome(self.s.outcome.to_json())

    # ---- apply -------------------------------------------------------------------------
    def apply(self, seat: int, action: Action) -> list[Event]:
        if not isinstance(action, dict):
            raise IllegalAction("pobeda.err.bad_action")
        if self.s.outcome is not None:
            raise IllegalAction("pobeda.err.game_over")
        if seat == ADMIN:
            if action.get("type") != "penalty":
                raise IllegalAction("pobeda.err.bad_action")
            return cast("list[Event]", self._apply_penalty(cast("PenaltyAction", action)))
        if not isinstance(seat, int) or not 0 <= seat < self.n_seats:
            raise IllegalAction("pobeda.err.bad_seat")
        return super().apply(seat, action)

    def refuse(self, seat: int, action: Any, open_kind: str | None) -> IllegalAction:
        """Pobeda's own refusals, by the decisions' precedence: an answer to a penalty or a line choice the seat
        does not hold says so, and while one of them is open every other move waits for it; then a move out
        of turn, or one the turn does not know."""
        kind = action.get("type") if isinstance(action, dict) else None
        move = kind if isinstance(kind, str) else ""  # no decision has a move named ""
        open_now = self.open_kinds()
        for key, (not_held, waiting) in REFUSALS.items():
            if move in self.DECISIONS[key].moves:
                return IllegalAction(not_held)
            if key in open_now:
                return IllegalAction(waiting)
        return IllegalAction("pobeda.err.bad_action" if open_kind == "turn" else "pobeda.err.not_your_turn")

    def _apply_pass(self, seat: int, action: PassAction) -> Events:
        self.s.last_move = []
        events: Events = [{"type": "passed", "seat": seat}]
        return events + self._end_turn()

    def _card_in_hand(self, seat: int, action: PlayAction | ReplaceAction | DiscardAction | PenaltyCardAction) -> str:
        card = action.get("card")
        if not isinstance(card, str) or card not in self.s.hands[seat]:
            raise IllegalAction("pobeda.err.not_in_hand")
        return card

    def _apply_play(self, seat: int, action: PlayAction) -> Events:
        card = self._card_in_hand(seat, action)
        side = self.side_of(seat)
        kind = card_kind(card)
        owner = self.s.owner
        cell_arg = action.get("cell")
        if kind == "event":
            cell = self.cell_of[card]
            if cell_arg is not None and cell_arg != cell_name(cell):
                raise IllegalAction("pobeda.err.wrong_cell")
            if owner[cell] != FREE:
                raise IllegalAction("pobeda.err.occupied")
            if self.supply(side) <= 0:
                raise IllegalAction("pobeda.err.no_chips")
        else:
            if not isinstance(cell_arg, str):
                raise IllegalAction("pobeda.err.bad_cell")
            try:
                cell = cell_index(cell_arg)
            except (ValueError, TypeError) as exc:
                raise IllegalAction("pobeda.err.bad_cell") from exc
            if not self._target_ok(side, kind, cell):
                raise IllegalAction(f"pobeda.err.target_{kind}")
        # -- validated: change the state
        self.s.hands[seat].remove(card)
        self.s.discard.append(card)
        self.s.last_move = [cell]
        event: PlayedEvent = {"type": "played", "seat": seat, "side": side, "card": card,
                              "kind": kind, "cell": cell_name(cell)}
        if kind == "event":
            event["event"] = card
        if kind in ("minus1", "swap"):
            event["victim"] = owner[cell]
        owner[cell] = FREE if kind == "minus1" else side
        events: Events = [event]
        queue: list[list[LineOption]] = []
        if kind != "minus1":
            for options in line_options(cell, side, owner, self.s.lines, self.cell_lines):
                if len(options) == 1:
                    events += self._finish(side, options[0])
                else:
                    queue.append(options)
        if queue:
            if self._undo_window() is None:
                events += self._draw(seat)  # without a window the card is drawn before the choice
            self.s.pending = LineChoice(seat, cell, queue)
            events.append({"type": "line_choice", "seat": seat, "cell": cell_name(cell)})
            return events
        return events + self._settle(seat, "turn")

    def _settle(self, seat: int, then: str) -> Events:
        """The end of a move that draws: the draw and, when ``then`` is ``turn``, the turn passing. With an undo
        window both wait for the mover's confirmation (the decision ``confirm``), so until then nothing was
        drawn and the move can be taken back alone."""
        if self._undo_window() is not None:
            self.s.confirm = then
            return []
        return self._draw_then(seat, then)

    def _draw_then(self, seat: int, then: str) -> Events:
        events = self._draw(seat)
        return events if then == "replace" else events + self._end_turn()

    def _apply_confirm(self, seat: int, action: ConfirmAction) -> Events:
        """The mover's confirmation (or the window's closing): the draw and the rest of the move as without a
        window."""
        then = self.s.confirm
        assert then is not None  # the decision is open only while something waits for it
        self.s.confirm = None
        return self._draw_then(seat, then)

    def _finish(self, side: int, windows: LineOption) -> Events:
        events: Events = []
        for window in windows:
            idx = len(self.s.lines)
            self.s.lines.append(Line(side, list(window)))
            for cell in window:
                self.cell_lines[cell].append(idx)
                if cell not in CORNERS:
                    self.s.locked[cell] = True
            line: LineEvent = {"type": "line", "side": side, "cells": [cell_name(c) for c in window],
                               "count": self.lines_of(side)}
            events.append(line)
        return events

    def _apply_choose(self, seat: int, action: ChooseLineAction) -> Events:
        pending = self.s.pending
        if pending is None or pending.seat != seat:
            raise IllegalAction("pobeda.err.no_choice")
        options = pending.queue[0]
        option = action.get("option")
        if not isinstance(option, int) or isinstance(option, bool) or not 0 <= option < len(options):
            raise IllegalAction("pobeda.err.bad_option_choice")
        events = self._finish(self.side_of(seat), options[option])
        pending.queue.pop(0)
        if pending.queue:
            return events
        self.s.pending = None
        if self._undo_window() is not None:
            return events + self._settle(seat, "turn")  # the card is drawn on the confirmation
        return events + self._end_turn()

    def _apply_discard(self, seat: int, action: DiscardAction) -> Events:
        card = self._card_in_hand(seat, action)
        if not self.is_dead(seat, card):
            raise IllegalAction("pobeda.err.not_dead")
        if self.replace_rule():
            if self.has_play(seat):
                raise IllegalAction("pobeda.err.must_play")
            if self.can_replace(seat):
                raise IllegalAction("pobeda.err.replace_first")
        self.s.hands[seat].remove(card)
        self.s.discard.append(card)
        self.s.last_move = []
        events: Events = [{"type": "discarded", "seat": seat, "card": card}]
        return events + self._settle(seat, "turn")

    def _apply_replace(self, seat: int, action: ReplaceAction) -> Events:
        """House rule: once per turn, before playing, discard a dead card publicly and draw a
        replacement; the turn goes on."""
        card = self._card_in_hand(seat, action)
        if not self.replace_rule():
            raise IllegalAction("pobeda.err.replace_off")
        if self.s.replaced:
            raise IllegalAction("pobeda.err.replaced_already")
        if not self.is_dead(seat, card):
            raise IllegalAction("pobeda.err.not_dead")
        if not self.s.deck:
            raise IllegalAction("pobeda.err.no_replacement")
        self.s.hands[seat].remove(card)
        self.s.discard.append(card)
        self.s.replaced = True
        events: Events = [{"type": "replaced", "seat": seat, "card": card}]
        return events + self._settle(seat, "replace")

    def _end_turn(self) -> Events:
        s = self.s
        winners = [k for k in range(s.n_sides) if self.lines_of(k) >= s.required]
        if winners:
            return self._game_over(winners, "lines")
        s.turn += 1
        s.replaced = False
        return self._start_turn((s.current + 1) % self.n_seats)

    def _start_turn(self, seat: int) -> Events:
        """Give the turn to ``seat``; a seat without cards draws one (if it can) and the turn
        moves on. When the deck and every hand are empty the game ends."""
        s = self.s
        events: Events = []
        while True:
            if not s.deck and not any(s.hands):
                counts = [self.lines_of(k) for k in range(s.n_sides)]
                best = max(counts)
                return events + self._game_over([k for k, c in enumerate(counts) if c == best], "cards")
            if s.hands[seat]:
                s.current = seat
                return events
            events.append({"type": "skipped", "seat": seat, "drew": bool(s.deck)})
            s.replaced = False
            events += self._draw(seat)
            seat = (seat + 1) % self.n_seats

    def _game_over(self, winners: list[int], reason: str) -> Events:
        lines = [self.lines_of(k) for k in range(self.s.n_sides)]
        outcome = Outcome(winners, len(winners) > 1, reason, lines)
        self.s.outcome = outcome
        self.s.pending = None
        over: GameOverEvent = {"type": "game_over", "winners": list(winners), "draw": outcome.draw,
                               "reason": reason, "lines": list(lines)}
        return [over]

    # ---- penalty (team rule) -----------------------------------------------------------
    def _apply_penalty(self, action: PenaltyAction) -> Events:
        if action not in self.admin_actions():
            side_arg = action.get("side")
            if not self.s.options.teams:
                raise IllegalAction("pobeda.err.not_team_game")
            if not isinstance(side_arg, int) or not 0 <= side_arg < self.s.n_sides:
                raise IllegalAction("pobeda.err.bad_side")
            raise IllegalAction("pobeda.err.penalty_busy")
        side = action["side"]  # every admin action names its side
        waiting = [seat for seat in self.seats_of_side(side) if self.s.hands[seat]]
        events: Events = [{"type": "penalty", "side": side, "seats": waiting}]
        if waiting:
            self.s.penalty = Penalty(side, list(waiting))
        return events

    def _apply_penalty_card(self, seat: int, action: PenaltyCardAction) -> Events:
        penalty = self.s.penalty
        if penalty is None or seat not in penalty.waiting or seat in penalty.chosen:
            raise IllegalAction("pobeda.err.no_penalty")
        card = self._card_in_hand(seat, action)
        self.s.hands[seat].remove(card)
        penalty.chosen[seat] = card
        events: Events = [
            {"type": "penalty_card", "seat": seat},
            {"type": "penalty_card_private", "to": [seat], "seat": seat, "card": card},
        ]
        if len(penalty.chosen) < len(penalty.waiting):
            return events
        self.s.deck.extend(penalty.chosen[w] for w in penalty.waiting)
        self.rng.shuffle(self.s.deck)
        self.s.penalty = None
        events.append({"type": "penalty_done", "side": penalty.side, "deck": len(self.s.deck)})
        if self.s.confirm is not None:
            return events  # the mover's confirmation is open again: it draws and passes the turn
        return events + self._start_turn(self.s.current)

    # ---- views and texts (built outside the rules: view.py, texts.py) ------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """See :mod:`bot.games.pobeda.view` (the typed shape the renderer reads)."""
        return cast("dict[str, Any]", pview.build(self.s, seat))

    @classmethod
    def team_label(cls, team: int, options: dict[str, Any], lang: str) -> str:
        return texts.team_label(team, lang)

    def side_name(self, side: int, lang: str) -> str:
        return texts.side_label(self.s, side, lang)

    def panel_actions(self, seat: int, lang: str) -> list[Action]:
        return texts.panel_actions(self.legal_actions(seat), lang)

    def action_path(self, seat: int, action: Action, lang: str) -> list[str]:
        return texts.action_path(self.s, action, lang)

    def event_text(self, event: Event, lang: str) -> str | None:
        return texts.event_text(self, event, lang)

    def status_lines(self, lang: str) -> list[str]:
        return texts.status_lines(self.s, lang)

    def private_text(self, seat: int, lang: str) -> str:
        return texts.private_text(self, seat, lang)

    def prompt_text(self, seat: int, lang: str) -> str:
        return texts.prompt_text(self, seat, lang)


# ---- the turn structure -------------------------------------------------------------------
Pobeda.DECISIONS = {
    # team rule: a moderator penalises a team; each of its seats with cards gives one, at once and unseen, within
    # the rules' own hour (the moderator's own action, ``penalty``, is an admin action: see ``admin_actions``)
    "penalty": DecisionKind(Pobeda._penalised, Pobeda._penalty_legal,
                            {"penalty_card": _move(Pobeda._apply_penalty_card)},
                            simultaneous=True, secret=True, deadline_s=PENALTY_SECONDS,
                            timeout=Pobeda._penalty_timeout),
    # a chip that completes lines in more than one way: the player picks the line(s), one choice at a time
    "line_choice": DecisionKind(Pobeda._chooser, Pobeda._choice_legal, {"choose_line": _move(Pobeda._apply_choose)},
                                timeout=Pobeda._choice_timeout),
    # the turn: play a card (an event on its cell, or a special card on a target), replace or discard a
    # dead card, or pass (only a timeout passes)
    "turn": DecisionKind(Pobeda._player_to_move, Pobeda._turn_legal, {
        "play": _move(Pobeda._apply_play),
        "replace_dead": _move(Pobeda._apply_replace),
        "discard_dead": _move(Pobeda._apply_discard),
        "pass": _move(Pobeda._apply_pass),
    }, timeout=Pobeda._turn_timeout),
    # with an undo window (house rule, issue 27): a move that draws waits for its player's ✔, or for the window
    # to close (``auto``: no reminder, no missed turn), and until then can be taken back alone
    "confirm": DecisionKind(Pobeda._confirmer, Pobeda._confirm_legal, {"confirm": _move(Pobeda._apply_confirm)},
                            deadline_s=Pobeda._undo_window, timeout=Pobeda._confirm_timeout, auto=True),
}

REFUSALS: dict[str, tuple[str, str]] = {
    "penalty": ("pobeda.err.no_penalty", "pobeda.err.penalty_open"),
    "line_choice": ("pobeda.err.no_choice", "pobeda.err.choose_first"),
}
"""For the decisions that interrupt the turn, by precedence: the refusal of an answer to one the seat does not
hold, and the refusal of anything else while it is open."""
