"""ColdWar: the platform-facing class (lobby, decisions, views, JSON) around the rules engine.

Its play is the decision table ``engine.DECISIONS`` (:class:`~bot.games.decision.DecisionGame` derives
``actors``, ``legal_actions``, ``apply``, timeouts and the open decisions from it); its text methods are
one-line delegations to :mod:`bot.games.coldwar.text`."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, ClassVar

from bot.games.base import (
    Action,
    Arrangement,
    Event,
    IllegalAction,
    OptionSpec,
    Outcome,
    Player,
    Rng,
    as_outcome,
    state_text,
)
from bot.games.coldwar import text, why
from bot.games.coldwar.cards import CARD_SETS, CURRENT
from bot.games.coldwar.engine import DECISIONS, Engine, new_state
from bot.games.coldwar.state import State
from bot.games.coldwar.view import build as build_view
from bot.games.decision import DecisionGame, DecisionKind

GOALS = (100, 75, 50)


class ColdWar(DecisionGame):
    """Cold War: CIA vs KGB. Seat 0 is the CIA, seat 1 the KGB; a seat may be a team of users."""

    key: ClassVar[str] = "coldwar"
    STATE_VERSION: ClassVar[int] = 2
    """2: the state names its card set (``State.cards``); version-1 states used card set 1."""
    DECISIONS: ClassVar[Mapping[str, DecisionKind[Any]]] = DECISIONS

    def __init__(self, state: State, seat_info: list[dict[str, Any]] | None = None) -> None:
        self.engine = Engine(state)
        self.seat_info = seat_info or [{}, {}]

    @property
    def s(self) -> State:
        return self.engine.s

    @classmethod
    def migrate_state(cls, data: dict[str, Any], from_version: int) -> dict[str, Any]:
        """A version-1 state was started with card set 1 (this edition's earlier values): say so, so
        the game finishes with the cards it started with."""
        if from_version == 1:
            data = copy.deepcopy(data)
            data["state"].setdefault("cards", 1)
            return data
        return super().migrate_state(data, from_version)

    @classmethod
    def migrate_options(cls, options: dict[str, Any], from_version: int) -> dict[str, Any]:
        """A replay of a version-1 game starts it with card set 1, as it was."""
        if from_version == 1:
            return {**options, "cards": options.get("cards", 1)}
        return options

    # ---- lobby ---------------------------------------------------------------------------
    @classmethod
    def option_specs(cls) -> list[OptionSpec]:
        return [OptionSpec("goal", "coldwar.opt.goal",
                           tuple((g, f"coldwar.opt.goal.{g}") for g in GOALS), 100)]

    @classmethod
    def player_range(cls, options: dict[str, Any]) -> tuple[int, int]:
        return (2, 20)

    @classmethod
    def team_count(cls, options: dict[str, Any], n_players: int) -> int:
        return 2

    @classmethod
    def arrange_seats(cls, players: list[Player], options: dict[str, Any], rng: Rng) -> Arrangement:
        lo, hi = cls.player_range(options)
        if not lo <= len(players) <= hi:
            raise IllegalAction("coldwar.err.players", min=lo, max=hi)
        seats: list[list[int]] = [[], []]
        free: list[int] = []
        for p in players:
            if p.team in (0, 1):
                seats[p.team].append(p.user_id)
            else:
                free.append(p.user_id)
        rng.shuffle(free)
        for uid in free:
            seats[0 if len(seats[0]) <= len(seats[1]) else 1].append(uid)
        if not seats[0] or not seats[1]:
            raise IllegalAction("coldwar.err.empty_side")
        return Arrangement(seat_users=seats, seat_info=[{"side": 0}, {"side": 1}])

    @classmethod
    def new(cls, seat_info: list[dict[str, Any]], options: dict[str, Any], seed: int) -> ColdWar:
        goal = int(options.get("goal", 100)) if options else 100
        # "cards" is no lobby option: it lets a replay rebuild a game stored with an older card set
        cards = int(options.get("cards", CURRENT)) if options else CURRENT
        if goal not in GOALS or cards not in CARD_SETS:
            raise IllegalAction("coldwar.err.option")
        game = cls(new_state(seed, goal, cards), list(seat_info) or [{}, {}])
        game.engine.start()
        return game

    # ---- decisions ----------------------------------------------------------------------
    def open_kinds(self) -> list[str]:
        """One decision at a time (``State.dec``; planning is one decision of both seats, a sequence of
        two after a Double Agent's peek)."""
        d = self.s.dec
        if d is None or self.s.over is not None:
            return []
        return ["plan_peek" if d.kind == "plan" and d.peek is not None else d.kind]

    def decision_key(self, kind: str) -> str:
        """A decision that follows one of the same kind for the same seat: the next event offered at a
        window (its card), a struggle turn kept after an event that is no action (Summit Meeting; card set
        1's Protest: one more event burnt), the next group of a nuclear event (the number left)."""
        d = self.s.dec
        if d is None:
            return ""
        if kind == "event":
            return d.card or ""
        if kind == "turn":
            return str(sum(len(b) for b in self.s.burnt))
        if kind == "discard":
            return str(len(d.cards or []))
        return ""

    def refuse(self, seat: int, action: Any, open_kind: str | None) -> IllegalAction:
        """After the end ``coldwar.err.over``; a seat without a decision ``coldwar.err.not_your_turn``; a
        move its decision does not take ``coldwar.err.illegal`` (an unlisted one of a type it takes is
        refused by the move itself with the same words)."""
        if self.s.over is not None:
            return IllegalAction("coldwar.err.over")
        return IllegalAction("coldwar.err.illegal" if open_kind is not None else "coldwar.err.not_your_turn")

    def why_not(self, seat: int, action: Any) -> tuple[str, dict[str, Any]] | None:
        """Why a move is refused (issue 25): see :mod:`bot.games.coldwar.why`."""
        return why.why_not(self, seat, action)

    def reason_params(self, params: dict[str, Any], lang: str) -> dict[str, Any]:
        return why.localise(params, lang)

    def outcome(self) -> Outcome | None:
        """The stored result, with why it ended (``reason``: ``goal``, a score goal reached at a
        détente, or ``exhausted``, the target deck ran out) for the end announcement (issue 25)."""
        over = self.s.over
        if over is None:
            return None
        return as_outcome({**over.to_json(), "reason": "exhausted" if over.exhausted else "goal"})

    # ---- views ---------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """See :mod:`bot.games.coldwar.view` (the typed shape bot/games/coldwar/render.py and the bots read)."""
        return dict(build_view(self, seat))

    def to_json(self) -> dict[str, Any]:
        return {"state": self.s.to_json(), "seat_info": copy.deepcopy(self.seat_info)}

    def to_json_text(self) -> str:
        return state_text({"state": self.s.to_json(copy=False), "seat_info": self.seat_info})

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ColdWar:
        return cls(State.from_json(data["state"]), copy.deepcopy(data.get("seat_info")))

    # ---- text ----------------------------------------------------------------------------
    def action_path(self, seat: int, action: Action, lang: str) -> list[str]:
        return text.action_path(self, seat, action, lang)

    def panel_actions(self, seat: int, lang: str) -> list[Action]:
        return text.panel_actions(self, self.legal_actions(seat), lang)

    def event_text(self, event: Event, lang: str) -> str | None:
        return text.event_text(event, lang, self.engine.c)

    @classmethod
    def team_label(cls, team: int, options: dict[str, Any], lang: str) -> str:
        return text.side(team, lang)

    def side_name(self, side: int, lang: str) -> str:
        return text.side(side, lang)

    def status_lines(self, lang: str) -> list[str]:
        return text.status_lines(self, lang)

    def private_text(self, seat: int, lang: str) -> str:
        return text.private_text(self, seat, lang)

    def prompt_text(self, seat: int, lang: str) -> str:
        return text.prompt_text(self, seat, lang)
