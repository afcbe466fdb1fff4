"""ColdWar: the platform-facing class (lobby, views, JSON) around the rules engine."""

from __future__ import annotations

import copy
from typing import Any, ClassVar, cast

from bot.games.base import (
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
from bot.games.coldwar import text, why
from bot.games.coldwar.cards import CARD_SETS, CURRENT
from bot.games.coldwar.engine import Engine, new_state
from bot.games.coldwar.view import build as build_view

GOALS = (100, 75, 50)


class ColdWar(Game):
    """Cold War: CIA vs KGB. Seat 0 is the CIA, seat 1 the KGB; a seat may be a team of users."""

    key: ClassVar[str] = "coldwar"
    STATE_VERSION: ClassVar[int] = 2
    """2: the state names its card set (``state["cards"]``); version-1 states used card set 1."""

    def __init__(self, state: dict[str, Any], seat_info: list[dict[str, Any]] | None = None) -> None:
        self.engine = Engine(state)
        self.seat_info = seat_info or [{}, {}]

    @property
    def s(self) -> dict[str, Any]:
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

    # ---- play ----------------------------------------------------------------------------
    def actors(self) -> list[int]:
        return self.engine.actors()

    def legal_actions(self, seat: int) -> list[Action]:
        return self.engine.legal(seat)

    def apply(self, seat: int, action: Action) -> list[Event]:
        return self.engine.apply(seat, action)

    def why_not(self, seat: int, action: Any) -> tuple[str, dict[str, Any]] | None:
        """Why a move is refused (issue 25): see :mod:`bot.games.coldwar.why`."""
        return why.why_not(self, seat, action)

    def reason_params(self, params: dict[str, Any], lang: str) -> dict[str, Any]:
        return why.localise(params, lang)

    def is_simultaneous(self) -> bool:
        d = self.s["dec"]
        return d is not None and d["kind"] == "plan" and len(self.actors()) == 2

    def is_secret(self, seat: int, action: Action) -> bool:
        d = self.s["dec"]
        return d is not None and d["kind"] == "plan"  # agent X stays secret until both are revealed

    def timeout_action(self, seat: int) -> Action | None:
        """Planning: a random agent (not advancing the stored Rng); struggle: wait (or recruit
        when waiting is not allowed); others: the choice that changes least (skip an event,
        keep an order, return a peeked card, the Double Agent's peek, the holder plays first)."""
        legal = self.legal_actions(seat)
        if not legal:
            return None
        kind = self.s["dec"]["kind"]
        if kind == "plan":
            rng = Rng(self.s["rng"]["seed"] ^ 0x5EC7E7, self.s["rng"]["n"] * 2 + seat)
            return dict(rng.choice(legal))
        prefer = {"turn": {"type": "wait"}, "event": {"type": "skip"},
                  "media": {"type": "media", "choice": "return"},
                  "double": {"type": "double", "mode": "peek"},
                  "first": {"type": "first", "seat": seat}}.get(kind)
        if prefer in legal:
            return dict(prefer)
        if kind == "turn":
            return {"type": "recruit"} if {"type": "recruit"} in legal else dict(legal[0])
        return dict(legal[0])

    def outcome(self) -> dict[str, Any] | None:
        """The stored result, with why it ended (``reason``: ``goal``, a score goal reached at a
        détente, or ``exhausted``, the target deck ran out) for the end announcement (issue 25)."""
        over = copy.deepcopy(self.s["over"])
        if over is not None:
            over.setdefault("reason", "exhausted" if over.get("exhausted") else "goal")
        return cast("dict[str, Any]", over)

    # ---- views ---------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """See :mod:`bot.games.coldwar.view` (the typed shape bot/games/coldwar/render.py and the bots read)."""
        return cast("dict[str, Any]", build_view(self.engine, seat))

    def to_json(self) -> dict[str, Any]:
        return {"state": copy.deepcopy(self.s), "seat_info": copy.deepcopy(self.seat_info)}

    def to_json_text(self) -> str:
        return state_text({"state": self.s, "seat_info": self.seat_info})

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ColdWar:
        return cls(copy.deepcopy(data["state"]), copy.deepcopy(data.get("seat_info")))

    # ---- text ----------------------------------------------------------------------------
    def action_path(self, seat: int, action: Action, lang: str) -> list[str]:
        return text.action_path(self.s, seat, action, lang)

    def panel_actions(self, seat: int, lang: str) -> list[Action]:
        return text.panel_actions(self.s, self.legal_actions(seat), lang)

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
