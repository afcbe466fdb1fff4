"""Pobeda: a Sequence-like race to build lines of six chips on a 12x12 board of war events.

State is plain JSON (see :meth:`Pobeda.to_json`). Derived caches (cell of each event, lines
through each cell) are rebuilt on load and never serialised.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from bot.core.i18n import LANGS
from bot.games.base import (
    ADMIN,
    Action,
    Arrangement,
    Event,
    Game,
    IllegalAction,
    OptionSpec,
    Player,
    Rng,
    state_text,
)
from bot.games.pobeda import data, seating
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
from bot.games.pobeda.text import colour_name, count_text
from bot.games.pobeda.text_game import TextMixin

PENALTY_SECONDS = 3600


class Pobeda(TextMixin, Game):
    key = "pobeda"
    STATE_VERSION = 2  # 2: the dead-card option (``options.dead``) and the turn's ``replaced`` flag

    @classmethod
    def migrate_state(cls, data: dict[str, Any], from_version: int) -> dict[str, Any]:
        """Version 1 games started before the dead-card option: they keep the reading they were
        started with (discarding a dead card is the whole turn)."""
        if from_version == 1:
            data = copy.deepcopy(data)
            data["options"]["dead"] = "turn"
            data["replaced"] = False
            return data
        return super().migrate_state(data, from_version)

    @classmethod
    def migrate_options(cls, options: dict[str, Any], from_version: int) -> dict[str, Any]:
        """A replay rebuilds a version-1 game with the reading it was started with."""
        return {**options, "dead": "turn"} if from_version == 1 else options

    # ---- lobby -------------------------------------------------------------------------
    @classmethod
    def option_specs(cls) -> list[OptionSpec]:
        return [
            OptionSpec("lines", "pobeda.opt.lines", (
                (1, "pobeda.opt.lines.1"), (2, "pobeda.opt.lines.2"), (3, "pobeda.opt.lines.3"),
            ), 1),
            OptionSpec("teams", "pobeda.opt.teams", (
                (0, "pobeda.opt.teams.0"), (2, "pobeda.opt.teams.2"), (3, "pobeda.opt.teams.3"),
            ), 0),
            # house rule (docs/games/pobeda.md): replace one dead card before playing, or
            # discarding a dead card is the whole turn
            OptionSpec("dead", "pobeda.opt.dead", (
                ("replace", "pobeda.opt.dead.replace"), ("turn", "pobeda.opt.dead.turn"),
            ), "replace"),
            # last: a team lobby has rows for three option selects only (lobby_message)
            OptionSpec("layout", "pobeda.opt.layout", (
                ("chrono", "pobeda.opt.layout.chrono"), ("shuffled", "pobeda.opt.layout.shuffled"),
            ), "chrono"),
        ]

    @classmethod
    def _opts(cls, options: dict[str, Any] | None) -> dict[str, Any]:
        merged = cls.default_options()
        merged.update(options or {})
        if merged["lines"] not in (1, 2, 3) or merged["teams"] not in (0, 2, 3) \
                or merged["layout"] not in ("chrono", "shuffled") or merged["dead"] not in ("replace", "turn"):
            raise IllegalAction("pobeda.err.bad_option")
        return merged

    @classmethod
    def player_range(cls, options: dict[str, Any]) -> tuple[int, int]:
        teams = cls._opts(options)["teams"]
        return (2, 3) if teams == 0 else (teams, 12)

    @classmethod
    def team_count(cls, options: dict[str, Any], n_players: int) -> int:
        return int(cls._opts(options)["teams"])

    @classmethod
    def arrange_seats(cls, players: list[Player], options: dict[str, Any], rng: Rng) -> Arrangement:
        """Solo: lobby order. Teams: unpicked players fill the smallest team, then the teams sit
        alternately round the table (rulebook: «Сядьте вокруг игрового поля через одного так,
        чтобы участники разных команд чередовались»), see :mod:`bot.games.pobeda.seating`.
        Picks so lopsided that a fairer split would alternate better are refused, with the
        players to move."""
        opts = cls._opts(options)
        low, high = cls.player_range(opts)
        if not low <= len(players) <= high:
            raise IllegalAction("pobeda.err.player_count", low=low, high=high)
        teams = opts["teams"]
        if teams == 0:
            return Arrangement([[p.user_id] for p in players], [{"side": i} for i in range(len(players))])
        members: list[list[int]] = [[] for _ in range(teams)]
        free: list[int] = []
        for p in players:
            if p.team is not None and 0 <= p.team < teams:
                members[p.team].append(p.user_id)
            else:
                free.append(p.user_id)
        rng.shuffle(free)
        for uid in free:
            smallest = min(range(teams), key=lambda k: (len(members[k]), k))
            members[smallest].append(uid)
        if any(not m for m in members):
            raise IllegalAction("pobeda.err.empty_team")
        sizes = [len(m) for m in members]
        if seating.fewest_clashes(sizes) > seating.balanced_clashes(len(players), teams):
            raise cls._lopsided(sizes)
        queues = [list(m) for m in members]
        order = seating.alternating_order(sizes)
        return Arrangement([[queues[k].pop(0)] for k in order], [{"side": k} for k in order])

    @staticmethod
    def _lopsided(sizes: list[int]) -> IllegalAction:
        """The refusal for teams that cannot alternate, naming the players to move (all from the
        largest team, to one or two others). Its words are given for every language (``team_ru``,
        ``team_en``...) because a refusal's parameters are formatted into the reader's language;
        each is short, so no parameter is clipped as a quotation of user text."""
        big = max(range(len(sizes)), key=lambda k: (sizes[k], -k))
        moves = seating.rebalance_moves(sizes)
        assert moves and all(src == big for src, _, _ in moves) and len(moves) <= 2
        params: dict[str, Any] = {"others": sum(sizes) - sizes[big]}
        for lang in LANGS:
            params[f"team_{lang}"] = colour_name(big, lang)
            params[f"count_{lang}"] = count_text("pobeda.players", sizes[big], lang)
            for i, (_, dst, n) in enumerate(moves, start=1):
                suffix = "" if i == 1 else str(i)
                params[f"moved{suffix}_{lang}"] = count_text("pobeda.move_players", n, lang)
                params[f"to{suffix}_{lang}"] = colour_name(dst, lang)
        key = "pobeda.err.no_alternation" if len(moves) == 1 else "pobeda.err.no_alternation_two"
        return IllegalAction(key, **params)

    @classmethod
    def new(cls, seat_info: list[dict[str, Any]], options: dict[str, Any], seed: int) -> Pobeda:
        opts = cls._opts(options)
        rng = Rng(seed)
        sides = [int(info["side"]) for info in seat_info]
        n_sides = max(sides) + 1
        if not 2 <= n_sides <= 3 or sorted(set(sides)) != list(range(n_sides)):
            raise IllegalAction("pobeda.err.sides")
        layout: list[str | None] = list(data.chrono_layout())
        if opts["layout"] == "shuffled":
            ids = [cell for cell in layout if cell is not None]
            rng.shuffle(ids)
            it = iter(ids)
            layout = [None if i in CORNERS else next(it) for i in range(CELLS)]
        deck = data.full_deck()
        rng.shuffle(deck)
        hands = [[deck.pop() for _ in range(HAND_SIZE)] for _ in sides]
        state = {
            "options": opts,
            "seat_sides": sides,
            "n_sides": n_sides,
            "required": opts["lines"],
            "layout": layout,
            "owner": [FREE] * CELLS,
            "locked": [False] * CELLS,
            "lines": [],
            "deck": deck,
            "hands": hands,
            "discard": [],
            "dealer": 0,
            "current": 0,
            "turn": 1,
            "pending": None,
            "replaced": False,
            "penalty": None,
            "last_move": [],
            "outcome": None,
            "rng": None,
        }
        first = rng.randint(0, len(sides) - 1)
        state["dealer"] = first
        state["current"] = first
        state["rng"] = rng.to_json()
        return cls(state)

    def __init__(self, state: dict[str, Any]) -> None:
        self.s = state
        self.rng = Rng.from_json(state["rng"])
        self.cell_of = {ev: i for i, ev in enumerate(state["layout"]) if ev is not None}
        self.cell_lines: list[list[int]] = [[] for _ in range(CELLS)]
        for idx, line in enumerate(state["lines"]):
            for cell in line["cells"]:
                self.cell_lines[cell].append(idx)

    # ---- serialisation -----------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        self.s["rng"] = self.rng.to_json()
        return copy.deepcopy(self.s)

    def to_json_text(self) -> str:
        self.s["rng"] = self.rng.to_json()
        return state_text(self.s)

    @classmethod
    def from_json(cls, data_: dict[str, Any]) -> Pobeda:
        return cls(copy.deepcopy(data_))

    # ---- helpers -----------------------------------------------------------------------
    @property
    def n_seats(self) -> int:
        return len(self.s["seat_sides"])

    def side_of(self, seat: int) -> int:
        return self.s["seat_sides"][seat]

    def seats_of_side(self, side: int) -> list[int]:
        return pview.seats_of_side(self.s, side)

    def supply(self, side: int) -> int:
        """Chips left in a side's supply (48 minus its chips on the board)."""
        return pview.supply(self.s, side)

    def lines_of(self, side: int) -> int:
        return pview.lines_of(self.s, side)

    def _targets(self, side: int, kind: str) -> list[int]:
        """Cells a special card of ``kind`` may target for ``side`` (empty: unplayable)."""
        owner, locked = self.s["owner"], self.s["locked"]
        if kind == "plus1":
            if self.supply(side) <= 0:
                return []
            corners = set(CORNERS)
            return [i for i in range(CELLS) if owner[i] == FREE and i not in corners]
        if kind == "swap" and self.supply(side) <= 0:
            return []
        return [i for i in range(CELLS) if owner[i] not in (FREE, side) and not locked[i]]

    def _target_ok(self, side: int, kind: str, cell: int) -> bool:
        owner = self.s["owner"]
        if kind == "plus1":
            return self.supply(side) > 0 and cell not in CORNERS and owner[cell] == FREE
        if kind == "swap" and self.supply(side) <= 0:
            return False
        return owner[cell] not in (FREE, side) and not self.s["locked"][cell]

    def _event_playable(self, side: int, card: str) -> bool:
        return self.s["owner"][self.cell_of[card]] == FREE and self.supply(side) > 0

    def is_dead(self, seat: int, card: str) -> bool:
        """A card this seat cannot play now (it may be discarded as the turn instead)."""
        side = self.side_of(seat)
        kind = card_kind(card)
        if kind == "event":
            return not self._event_playable(side, card)
        return not self._targets(side, kind)

    def replace_rule(self) -> bool:
        """Dead cards are replaced before playing (the default), rather than discarded as the turn."""
        return self.s["options"]["dead"] == "replace"

    def can_replace(self, seat: int) -> bool:
        """``seat`` (the player to move) may still replace a dead card this turn."""
        return self.replace_rule() and not self.s["replaced"] and bool(self.s["deck"])

    def has_play(self, seat: int) -> bool:
        return any(not self.is_dead(seat, card) for card in self.s["hands"][seat])

    def _draw(self, seat: int) -> list[Event]:
        if not self.s["deck"]:
            return []
        card = self.s["deck"].pop()
        self.s["hands"][seat].append(card)
        return [{"type": "drew", "to": [seat], "seat": seat, "card": card}]

    # ---- decisions ---------------------------------------------------------------------
    def decision(self) -> str | None:
        """The key of the open decision in ``DECISIONS``: a team penalty interrupts everything, a line
        choice finishes the move that made it, otherwise it is the current seat's turn (None: game over)."""
        s = self.s
        if s["outcome"] is not None:
            return None
        if s["penalty"] is not None:
            return "penalty"
        if s["pending"] is not None:
            return "line_choice"
        return "turn"

    def actors(self) -> list[int]:
        key = self.decision()
        return [] if key is None else DECISIONS[key].who(self)

    def _penalised(self) -> list[int]:
        """Every seat of the penalised team that has not yet given its card (simultaneously)."""
        penalty = self.s["penalty"]
        return [seat for seat in penalty["waiting"] if str(seat) not in penalty["chosen"]]

    def _chooser(self) -> list[int]:
        return [self.s["pending"]["seat"]]

    def _player_to_move(self) -> list[int]:
        return [self.s["current"]]

    def is_simultaneous(self) -> bool:
        return self.s["outcome"] is None and self.s["penalty"] is not None

    def forced_timeout(self) -> int | None:
        return PENALTY_SECONDS if self.is_simultaneous() else None

    def legal_actions(self, seat: int) -> list[Action]:
        """All legal actions; of several copies of one special card only the first copy is
        listed (apply accepts any copy), which keeps the control lists short."""
        key = self.decision()
        if key is None or seat not in self.actors():
            return []
        return DECISIONS[key].legal(self, seat)

    def _penalty_legal(self, seat: int) -> list[Action]:
        return [{"type": "penalty_card", "card": card} for card in sorted(self.s["hands"][seat])]

    def _choice_legal(self, seat: int) -> list[Action]:
        return [{"type": "choose_line", "option": i} for i in range(len(self.s["pending"]["queue"][0]))]

    def _turn_legal(self, seat: int) -> list[Action]:
        s = self.s
        side = self.side_of(seat)
        entries: list[Action | str] = []  # plays, and dead cards (decided below)
        seen: set[str] = set()
        for card in sorted(s["hands"][seat], key=card_order):
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
        s = self.s
        if s["outcome"] is not None or s["penalty"] is not None or s["pending"] is not None:
            return []
        if not s["options"]["teams"]:
            return []
        return [{"type": "penalty", "side": k} for k in range(s["n_sides"])]

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

    def timeout_action(self, seat: int) -> Action | None:
        """Absent seat: turn passed; pending line choice: the first option; penalty: a card
        picked by a generator derived from the game's Rng (the Rng itself is not advanced,
        so replaying the logged action reproduces the state)."""
        s = self.s
        if seat not in self.actors():
            return None
        if s["penalty"] is not None:
            hand = sorted(s["hands"][seat])
            pick = Rng(self.rng.seed * 31 + seat + 1, self.rng.n).choice(hand)
            return {"type": "penalty_card", "card": pick}
        if s["pending"] is not None:
            return {"type": "choose_line", "option": 0}
        return {"type": "pass"}

    def outcome(self) -> dict[str, Any] | None:
        return self.s["outcome"]

    # ---- apply -------------------------------------------------------------------------
    def apply(self, seat: int, action: Action) -> list[Event]:
        if not isinstance(action, dict):
            raise IllegalAction("pobeda.err.bad_action")
        kind = action.get("type")
        if self.s["outcome"] is not None:
            raise IllegalAction("pobeda.err.game_over")
        if seat == ADMIN:
            if kind != "penalty":
                raise IllegalAction("pobeda.err.bad_action")
            return self._apply_penalty(action)
        if not isinstance(seat, int) or not 0 <= seat < self.n_seats:
            raise IllegalAction("pobeda.err.bad_seat")
        # The decisions in the order they take precedence; each refuses what comes after it while it
        # is open (a penalty card is routed even when none is due, to say so).
        move = kind if isinstance(kind, str) else ""  # no decision has a move named ""
        answers = next((key for key, d in DECISIONS.items() if move in d.moves), None)
        if answers == "penalty":
            return DECISIONS["penalty"].moves[move](self, seat, action)
        if self.s["penalty"] is not None:
            raise IllegalAction("pobeda.err.penalty_open")
        if answers == "line_choice":
            return DECISIONS["line_choice"].moves[move](self, seat, action)
        if self.s["pending"] is not None:
            raise IllegalAction("pobeda.err.choose_first")
        if seat != self.s["current"]:
            raise IllegalAction("pobeda.err.not_your_turn")
        if answers != "turn":
            raise IllegalAction("pobeda.err.bad_action")
        return DECISIONS["turn"].moves[move](self, seat, action)

    def _apply_pass(self, seat: int, action: Action) -> list[Event]:
        self.s["last_move"] = []
        events: list[Event] = [{"type": "passed", "seat": seat}]
        return events + self._end_turn()

    def _card_in_hand(self, seat: int, action: Action) -> str:
        card = action.get("card")
        if not isinstance(card, str) or card not in self.s["hands"][seat]:
            raise IllegalAction("pobeda.err.not_in_hand")
        return card

    def _apply_play(self, seat: int, action: Action) -> list[Event]:
        card = self._card_in_hand(seat, action)
        side = self.side_of(seat)
        kind = card_kind(card)
        owner = self.s["owner"]
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
        self.s["hands"][seat].remove(card)
        self.s["discard"].append(card)
        self.s["last_move"] = [cell]
        event: Event = {"type": "played", "seat": seat, "side": side, "card": card,
                        "kind": kind, "cell": cell_name(cell)}
        if kind == "event":
            event["event"] = card
        if kind in ("minus1", "swap"):
            event["victim"] = owner[cell]
        owner[cell] = FREE if kind == "minus1" else side
        events: list[Event] = [event]
        queue: list[list[list[list[int]]]] = []
        if kind != "minus1":
            for options in line_options(cell, side, owner, self.s["lines"], self.cell_lines):
                if len(options) == 1:
                    events += self._finish(side, options[0])
                else:
                    queue.append(options)
        events += self._draw(seat)
        if queue:
            self.s["pending"] = {"seat": seat, "cell": cell, "queue": queue}
            events.append({"type": "line_choice", "seat": seat, "cell": cell_name(cell)})
            return events
        return events + self._end_turn()

    def _finish(self, side: int, windows: list[list[int]]) -> list[Event]:
        events: list[Event] = []
        for window in windows:
            idx = len(self.s["lines"])
            self.s["lines"].append({"side": side, "cells": list(window)})
            for cell in window:
                self.cell_lines[cell].append(idx)
                if cell not in CORNERS:
                    self.s["locked"][cell] = True
            events.append({"type": "line", "side": side, "cells": [cell_name(c) for c in window],
                           "count": self.lines_of(side)})
        return events

    def _apply_choose(self, seat: int, action: Action) -> list[Event]:
        pending = self.s["pending"]
        if pending is None or pending["seat"] != seat:
            raise IllegalAction("pobeda.err.no_choice")
        options = pending["queue"][0]
        option = action.get("option")
        if not isinstance(option, int) or isinstance(option, bool) or not 0 <= option < len(options):
            raise IllegalAction("pobeda.err.bad_option_choice")
        events = self._finish(self.side_of(seat), options[option])
        pending["queue"].pop(0)
        if pending["queue"]:
            return events
        self.s["pending"] = None
        return events + self._end_turn()

    def _apply_discard(self, seat: int, action: Action) -> list[Event]:
        card = self._card_in_hand(seat, action)
        if not self.is_dead(seat, card):
            raise IllegalAction("pobeda.err.not_dead")
        if self.replace_rule():
            if self.has_play(seat):
                raise IllegalAction("pobeda.err.must_play")
            if self.can_replace(seat):
                raise IllegalAction("pobeda.err.replace_first")
        self.s["hands"][seat].remove(card)
        self.s["discard"].append(card)
        self.s["last_move"] = []
        events: list[Event] = [{"type": "discarded", "seat": seat, "card": card}]
        events += self._draw(seat)
        return events + self._end_turn()

    def _apply_replace(self, seat: int, action: Action) -> list[Event]:
        """House rule: once per turn, before playing, discard a dead card publicly and draw a
        replacement; the turn goes on."""
        card = self._card_in_hand(seat, action)
        if not self.replace_rule():
            raise IllegalAction("pobeda.err.replace_off")
        if self.s["replaced"]:
            raise IllegalAction("pobeda.err.replaced_already")
        if not self.is_dead(seat, card):
            raise IllegalAction("pobeda.err.not_dead")
        if not self.s["deck"]:
            raise IllegalAction("pobeda.err.no_replacement")
        self.s["hands"][seat].remove(card)
        self.s["discard"].append(card)
        self.s["replaced"] = True
        events: list[Event] = [{"type": "replaced", "seat": seat, "card": card}]
        return events + self._draw(seat)

    def _end_turn(self) -> list[Event]:
        s = self.s
        winners = [k for k in range(s["n_sides"]) if self.lines_of(k) >= s["required"]]
        if winners:
            return self._game_over(winners, "lines")
        s["turn"] += 1
        s["replaced"] = False
        return self._start_turn((s["current"] + 1) % self.n_seats)

    def _start_turn(self, seat: int) -> list[Event]:
        """Give the turn to ``seat``; a seat without cards draws one (if it can) and the turn
        moves on. When the deck and every hand are empty the game ends."""
        s = self.s
        events: list[Event] = []
        while True:
            if not s["deck"] and not any(s["hands"]):
                counts = [self.lines_of(k) for k in range(s["n_sides"])]
                best = max(counts)
                return events + self._game_over([k for k, c in enumerate(counts) if c == best], "cards")
            if s["hands"][seat]:
                s["current"] = seat
                return events
            events.append({"type": "skipped", "seat": seat, "drew": bool(s["deck"])})
            s["replaced"] = False
            events += self._draw(seat)
            seat = (seat + 1) % self.n_seats

    def _game_over(self, winners: list[int], reason: str) -> list[Event]:
        lines = [self.lines_of(k) for k in range(self.s["n_sides"])]
        outcome = {"winners": winners, "draw": len(winners) > 1, "reason": reason, "lines": lines}
        self.s["outcome"] = outcome
        self.s["pending"] = None
        return [{"type": "game_over", **outcome}]

    # ---- penalty (team rule) -----------------------------------------------------------
    def _apply_penalty(self, action: Action) -> list[Event]:
        if action not in self.admin_actions():
            side_arg = action.get("side")
            if not self.s["options"]["teams"]:
                raise IllegalAction("pobeda.err.not_team_game")
            if not isinstance(side_arg, int) or not 0 <= side_arg < self.s["n_sides"]:
                raise IllegalAction("pobeda.err.bad_side")
            raise IllegalAction("pobeda.err.penalty_busy")
        side: int = action["side"]  # every admin action names its side
        waiting = [seat for seat in self.seats_of_side(side) if self.s["hands"][seat]]
        events: list[Event] = [{"type": "penalty", "side": side, "seats": waiting}]
        if waiting:
            self.s["penalty"] = {"side": side, "waiting": waiting, "chosen": {}}
        return events

    def _apply_penalty_card(self, seat: int, action: Action) -> list[Event]:
        penalty = self.s["penalty"]
        if penalty is None or seat not in penalty["waiting"] or str(seat) in penalty["chosen"]:
            raise IllegalAction("pobeda.err.no_penalty")
        card = self._card_in_hand(seat, action)
        self.s["hands"][seat].remove(card)
        penalty["chosen"][str(seat)] = card
        events: list[Event] = [
            {"type": "penalty_card", "seat": seat},
            {"type": "penalty_card_private", "to": [seat], "seat": seat, "card": card},
        ]
        if len(penalty["chosen"]) < len(penalty["waiting"]):
            return events
        self.s["deck"].extend(penalty["chosen"][str(w)] for w in penalty["waiting"])
        self.rng.shuffle(self.s["deck"])
        self.s["penalty"] = None
        events.append({"type": "penalty_done", "side": penalty["side"], "deck": len(self.s["deck"])})
        return events + self._start_turn(self.s["current"])

    # ---- views -------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """See :mod:`bot.games.pobeda.view` (the typed shape bot/games/pobeda/render.py reads)."""
        return cast("dict[str, Any]", pview.build(self.s, seat))


# ---- the turn structure -------------------------------------------------------------------
Move = Callable[[Pobeda, int, Action], list[Event]]


@dataclass(frozen=True)
class Decision:
    """A kind of open decision (``Pobeda.decision()``): who acts, what they may do, and what each
    action type does. Listed in the order they take precedence."""

    who: Callable[[Pobeda], list[int]]
    legal: Callable[[Pobeda, int], list[Action]]
    moves: Mapping[str, Move]


DECISIONS: dict[str, Decision] = {
    # team rule: a moderator penalises a team; each of its seats with cards gives one, at once
    # (the moderator's own action, ``penalty``, is an admin action: see ``admin_actions``)
    "penalty": Decision(Pobeda._penalised, Pobeda._penalty_legal, {"penalty_card": Pobeda._apply_penalty_card}),
    # a chip that completes lines in more than one way: the player picks the line(s), one choice at a time
    "line_choice": Decision(Pobeda._chooser, Pobeda._choice_legal, {"choose_line": Pobeda._apply_choose}),
    # the turn: play a card (an event on its cell, or a special card on a target), replace or discard a
    # dead card, or pass (only a timeout passes)
    "turn": Decision(Pobeda._player_to_move, Pobeda._turn_legal, {
        "play": Pobeda._apply_play,
        "replace_dead": Pobeda._apply_replace,
        "discard_dead": Pobeda._apply_discard,
        "pass": Pobeda._apply_pass,
    }),
}
