"""The ``Godstorm`` game: contract methods (actors, legal actions, apply, views, JSON) over the mixins."""

from __future__ import annotations

from typing import Any, cast

from bot.games.base import Action, Arrangement, Event, Game, OptionSpec, Player, Rng, state_text
from bot.games.godstorm import board, data
from bot.games.godstorm.combat import CombatMixin
from bot.games.godstorm.core import NEUTRAL
from bot.games.godstorm.epoch import EpochMixin
from bot.games.godstorm.setup import SetupMixin, fresh_state
from bot.games.godstorm.state import State
from bot.games.godstorm.text import TextMixin
from bot.games.godstorm.turn import TurnMixin
from bot.games.godstorm.view import PlaceView
from bot.games.godstorm.view import build as build_view
from bot.games.godstorm.view import place as place_view
from bot.i18n import t

RULESETS = ("godstorm", "classic")
PLACEMENTS = ("random", "choose")

_TURN_HANDLERS = {
    "place": "_act_place",
    "resurrect": "_act_resurrect",
    "trade": "_act_trade",
    "summon": "_act_summon",
    "build_temple": "_act_build_temple",
    "buy_cards": "_act_buy_cards",
    "attack": "_act_attack",
    "attack_until": "_act_attack_until",
    "fortify": "_act_fortify",
    "descend": "_act_descend",
    "end_step": "_act_end_step",
    "end_attacks": "_act_end_step",
    "end_turn": "_act_end_turn",
}


class Godstorm(EpochMixin, TurnMixin, CombatMixin, SetupMixin, TextMixin, Game):
    key = "godstorm"
    free_keys = frozenset({"count", "stop_at"})  # the lists offer a few counts; apply takes any

    def __init__(self, state: State) -> None:
        self.s = state
        self._ev = []

    # ---- lobby --------------------------------------------------------------------------
    @classmethod
    def option_specs(cls) -> list[OptionSpec]:
        return [
            OptionSpec("ruleset", "godstorm.opt.ruleset",
                       (("godstorm", "godstorm.opt.ruleset.godstorm"), ("classic", "godstorm.opt.ruleset.classic")),
                       "godstorm"),
            OptionSpec("placement", "godstorm.opt.placement",
                       (("random", "godstorm.opt.placement.random"), ("choose", "godstorm.opt.placement.choose")),
                       "random"),
        ]

    @classmethod
    def player_range(cls, options: dict[str, Any]) -> tuple[int, int]:
        return (2, 6) if options.get("ruleset") == "classic" else (2, 5)

    @classmethod
    def arrange_seats(cls, players: list[Player], options: dict[str, Any], rng: Rng) -> Arrangement:
        lo, hi = cls.player_range(options)
        if not lo <= len(players) <= hi:
            raise cls._refuse("player_count", min=lo, max=hi)
        users = [p.user_id for p in players]
        rng.shuffle(users)
        return Arrangement(seat_users=[[u] for u in users], seat_info=[{} for _ in users])

    @classmethod
    def new(cls, seat_info: list[dict[str, Any]], options: dict[str, Any], seed: int) -> Godstorm:
        opts = {**cls.default_options(), **(options or {})}
        if opts["ruleset"] not in RULESETS or opts["placement"] not in PLACEMENTS:
            raise cls._refuse("bad_option")
        n = len(seat_info)
        lo, hi = cls.player_range(opts)
        if not lo <= n <= hi:
            raise cls._refuse("player_count", min=lo, max=hi)
        game = cls(fresh_state(n, opts, seed))
        if opts["ruleset"] == "classic":
            deck = list(board.CARD_TERR)
            game.rng.shuffle(deck)
            game.s.tdeck = deck
        game._setup_begin()
        game._ev = []
        return game

    # ---- play ---------------------------------------------------------------------------
    def actors(self) -> list[int]:
        s = self.s
        phase = s.phase
        if phase == "over":
            return []
        if phase == "bid":
            return [i for i in self.active_seats() if s.players[i].bid is None]
        if phase == "pick_order":
            return s.pick_queue[:1]
        if phase == "turn":
            if s.battle is not None:
                actor = self._battle_actor()
                return [] if actor is None or actor < 0 else [actor]
            return [self.current_seat]
        actor = self._setup_actor()
        return [] if actor is None else [actor]

    def legal_actions(self, seat: int) -> list[Action]:
        s = self.s
        phase = s.phase
        if phase == "over" or seat not in self.actors():
            return []
        if phase == "bid":
            return self._bid_legal(seat)
        if phase == "pick_order":
            return self._pick_legal(seat)
        if phase == "turn":
            if s.battle is not None:
                return self._battle_legal(seat)
            if s.move is not None:
                return self._move_legal(seat)
            return self._turn_legal(seat)
        return self._setup_legal(seat)

    def apply(self, seat: int, action: Action) -> list[Event]:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise self._refuse("bad_action")
        if seat not in self.actors():
            raise self._refuse("not_your_turn")
        self._ev = []
        kind = action["type"]
        s = self.s
        phase = s.phase
        if phase == "pantheon" and kind == "pick_pantheon":
            self._act_pick_pantheon(seat, action)
        elif phase == "claim" and kind == "place":
            self._act_claim(seat, action)
        elif phase == "setup_place" and kind == "place" and not s.neutral_due:
            self._act_setup_place(seat, action)
        elif phase == "setup_place" and kind == "place_neutral" and s.neutral_due:
            self._act_place_neutral(seat, action)
        elif phase == "setup_gods" and kind in ("summon", "build_temple"):
            self._act_setup_god(seat, action)
        elif phase == "bid" and kind == "bid":
            self._act_bid(seat, action)
        elif phase == "pick_order" and kind == "pick_order":
            self._act_pick_order(seat, action)
        elif phase == "turn" and s.battle is not None and kind in ("champion", "retreat"):
            (self._act_champion if kind == "champion" else self._act_retreat)(seat, action)
        elif phase == "turn" and s.move is not None and kind == "move_in":
            self._act_move_in(seat, action)
        elif phase == "turn" and s.battle is None and s.move is None and kind in _TURN_HANDLERS:
            getattr(self, _TURN_HANDLERS[kind])(seat, action)
        else:
            raise self._refuse("bad_action")
        events, self._ev = self._ev, []
        return events

    def timeout_action(self, seat: int) -> Action | None:
        s = self.s
        legal = self.legal_actions(seat)
        if not legal:
            return None
        phase = s.phase
        if phase == "bid":
            return {"type": "bid", "faith": 0}
        if phase == "setup_place" and not s.neutral_due:
            t = min(sorted(self.owned(seat)), key=lambda x: s.terr[x].armies)
            return {"type": "place", "territory": t, "count": s.round_left}
        if phase == "turn" and s.move is not None:
            return {"type": "move_in", "count": s.move.min}
        if phase == "turn" and s.battle is None and {"type": "end_turn"} in legal:
            return {"type": "end_turn"}
        if phase == "turn" and s.battle is not None and {"type": "retreat"} in legal:
            return {"type": "retreat"}
        return legal[0]

    def is_simultaneous(self) -> bool:
        return self.s.phase == "bid"

    def outcome(self) -> dict[str, Any] | None:
        return self.s.outcome

    # ---- views --------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        return cast("dict[str, Any]", build_view(self.s, seat))

    def place(self, where: str) -> PlaceView | None:
        """Public facts about one place (owner, armies, gods) for labels; see ``view.place``."""
        return place_view(self.s, where)

    def to_json(self) -> dict[str, Any]:
        return self.s.to_json()

    def to_json_text(self) -> str:
        return state_text(self.to_json())

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Godstorm:
        return cls(State.from_json(data))

    def side_name(self, side: int, lang: str) -> str:
        """The pantheon (the player's name is shown beside it by the platform)."""
        pid = self.s.players[side].pantheon if 0 <= side < len(self.s.players) else None
        if pid:
            return data.PANTHEONS[pid].name.get(lang, "")
        return t("godstorm.player", lang, n=side + 1)


__all__ = ["Godstorm", "NEUTRAL"]
