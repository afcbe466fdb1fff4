"""The ``Godstorm`` game: contract methods (actors, legal actions, apply, views, JSON) over the mixins."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from bot.core.i18n import t
from bot.games.base import Action, Arrangement, Event, Game, OptionSpec, Player, Rng, state_text
from bot.games.godstorm import board, data
from bot.games.godstorm.choices import DEFEND_WINDOW_S, ChoiceMixin
from bot.games.godstorm.combat import CombatMixin
from bot.games.godstorm.core import NEUTRAL
from bot.games.godstorm.epoch import EpochMixin
from bot.games.godstorm.miracles import ANSWER_WINDOWS, DEFAULT_ANSWER_S, MiracleMixin, new_miracle_state
from bot.games.godstorm.setup import SetupMixin, fresh_state
from bot.games.godstorm.state import State
from bot.games.godstorm.text import TextMixin
from bot.games.godstorm.turn import TurnMixin
from bot.games.godstorm.view import PlaceView
from bot.games.godstorm.view import build as build_view
from bot.games.godstorm.view import place as place_view
from bot.games.godstorm.why import localise as localise_reason
from bot.games.godstorm.why import why_not as why_not_of

RULESETS = ("godstorm", "classic")
PLACEMENTS = ("random", "choose")

class Godstorm(ChoiceMixin, MiracleMixin, EpochMixin, TurnMixin, CombatMixin, SetupMixin, TextMixin, Game):
    key = "godstorm"
    free_keys = frozenset({"count", "stop_at"})  # the lists offer a few counts; apply takes any
    STATE_VERSION = 3  # 2: the played miracle cards (``State.mir``, option ``miracles``); 3: the rulebook's
    # choices (issue 10: optional keys ``dice_pref``, ``defend``, ``piles``, ``turn.held``; option ``piles``)

    @classmethod
    def migrate_state(cls, data: dict[str, Any], from_version: int) -> dict[str, Any]:
        """Version 1 had no playable miracle cards: such a state is a version-2 state without ``miracles``
        (the cards stay counted face down, as they were), so it loads unchanged."""
        if from_version in (1, 2):  # version 3 only adds keys that are absent when unused
            return data
        return super().migrate_state(data, from_version)

    @classmethod
    def migrate_options(cls, options: dict[str, Any], from_version: int) -> dict[str, Any]:
        """Games started before version 2 keep their miracle cards unplayable (replays rebuild them so)."""
        if from_version < 2 and "miracles" not in options:
            options = {**options, "miracles": "off"}
        if from_version < 3 and "piles" not in options:  # two players were dealt their piles in order then
            options = {**options, "piles": "dealt"}
        return options

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
            OptionSpec("miracles", "godstorm.opt.miracles",
                       (("on", "godstorm.opt.miracles.on"), ("off", "godstorm.opt.miracles.off")), "on"),
            OptionSpec("answer_window", "godstorm.opt.answer_window",
                       tuple((n, f"godstorm.opt.answer_window.{n}") for n in ANSWER_WINDOWS), DEFAULT_ANSWER_S),
            OptionSpec("piles", "godstorm.opt.piles",
                       (("choose", "godstorm.opt.piles.choose"), ("dealt", "godstorm.opt.piles.dealt")), "choose"),
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
        if (opts["ruleset"] not in RULESETS or opts["placement"] not in PLACEMENTS
                or opts.get("miracles", "on") not in ("on", "off") or opts.get("answer_window") not in ANSWER_WINDOWS
                or opts.get("piles", "choose") not in ("choose", "dealt")):
            raise cls._refuse("bad_option")
        n = len(seat_info)
        lo, hi = cls.player_range(opts)
        if not lo <= n <= hi:
            raise cls._refuse("player_count", min=lo, max=hi)
        game = cls(fresh_state(n, opts, seed))
        if n == 2 and opts["placement"] == "random" and opts.get("piles", "choose") == "choose":
            game.s.piles = []  # the two players choose their piles (rulebook); see ``SetupMixin._deal``
        if opts["ruleset"] == "classic":
            deck = list(board.CARD_TERR)
            game.rng.shuffle(deck)
            game.s.tdeck = deck
        game._setup_begin()
        if opts["ruleset"] == "godstorm" and opts.get("miracles", "on") == "on":
            game.s.mir = new_miracle_state(n, game.rng, int(opts["answer_window"]))
        game._ev = []
        return game

    # ---- play ---------------------------------------------------------------------------
    def decision(self) -> str | None:
        """The key of the open decision in ``DECISIONS`` (None: nobody acts, the game is over or not set up).

        The phase names it, except that in the set-up placement the neutral armies are their own decision,
        and during a turn a battle in progress or armies waiting to move in come before the turn's moves."""
        s = self.s
        phase = s.phase
        if phase == "setup_place" and s.neutral_due:
            return "setup_neutral"
        if phase == "turn":
            if s.mir is not None and s.mir.windows:
                return "answer"
            if s.mir is not None and s.mir.pick is not None:
                return "pick_card"
            if s.defend is not None:
                return "defend"
            if s.battle is not None:
                return "battle"
            if s.move is not None:
                return "move_in"
        return phase if phase in DECISIONS else None

    def post_group(self) -> str | None:
        """One channel post per set-up round (issue 25), not one per placement; None after the set-up."""
        return self.setup_round()

    def actors(self) -> list[int]:
        key = self.decision()
        return [] if key is None else DECISIONS[key].who(self)

    def legal_actions(self, seat: int) -> list[Action]:
        key = self.decision()
        if key is None or seat not in self.actors():
            return []
        return DECISIONS[key].legal(self, seat)

    def apply(self, seat: int, action: Action) -> list[Event]:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise self._refuse("bad_action")
        actor = seat in self.actors()
        key = self.decision()
        move = None if key is None or not actor else DECISIONS[key].moves.get(action["type"])
        if move is None and self.is_standing(seat, action):
            move = STANDING[action["type"]]  # a preference set at any time, on one's turn or not
        if move is None:
            raise self._refuse("bad_action" if actor else "not_your_turn")
        self._ev = []
        move(self, seat, action)
        events, self._ev = self._ev, []
        return events

    # who acts, for the table below
    def _setup_actors(self) -> list[int]:
        actor = self._setup_actor()
        return [] if actor is None else [actor]

    def _bidders(self) -> list[int]:
        """The secret bid is simultaneous: every seat still in the game that has not bid."""
        return [i for i in self.active_seats() if self.s.players[i].bid is None]

    def _order_picker(self) -> list[int]:
        return self.s.pick_queue[:1]

    def _battle_actors(self) -> list[int]:
        actor = self._battle_actor()
        return [] if actor is None or actor < 0 else [actor]

    def _turn_player(self) -> list[int]:
        return [self.current_seat]

    def timeout_action(self, seat: int) -> Action | None:
        s = self.s
        legal = self.legal_actions(seat)
        if not legal:
            return None
        phase = s.phase
        key = self.decision()
        if key == "answer":
            return {"type": "no_answer"}
        if key == "pick_card":
            return legal[0]
        if key == "defend":  # the defender did not choose in time: the most dice allowed
            return legal[0]
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

    def forced_timeout(self) -> int | None:
        """A response window (Sky answer, Aegis) lasts the game's ``answer_window`` whatever the deadline option."""
        key = self.decision()
        if key == "answer" and self.s.mir is not None:
            return self.s.mir.answer_s
        if key == "defend":  # "ask me" for the defence dice: the same short window as a Sky answer
            return self.s.mir.answer_s if self.s.mir is not None else DEFEND_WINDOW_S
        return None

    def is_simultaneous(self) -> bool:
        return self.s.phase == "bid"

    def outcome(self) -> dict[str, Any] | None:
        return self.s.outcome

    def why_not(self, seat: int, action: Any) -> tuple[str, dict[str, Any]] | None:
        """Why an attack, placement, move-in or fortification is not possible now (``why.py``)."""
        return why_not_of(self, seat, action)

    def reason_params(self, params: dict[str, Any], lang: str) -> dict[str, Any]:
        return localise_reason(params, lang)

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


# ---- the turn structure -------------------------------------------------------------------------
Move = Callable[[Godstorm, int, Action], None]


@dataclass(frozen=True)
class Decision:
    """A kind of open decision: who acts, what they may do, and what each action type does (an action
    type not listed here is refused as ``bad_action``). ``Godstorm.decision()`` names the open one."""

    who: Callable[[Godstorm], list[int]]
    legal: Callable[[Godstorm, int], list[Action]]
    moves: Mapping[str, Move]


_SETUP = (Godstorm._setup_actors, Godstorm._setup_legal)
DECISIONS: dict[str, Decision] = {
    # set-up, one seat at a time in set-up order
    "pantheon": Decision(*_SETUP, {"pick_pantheon": Godstorm._act_pick_pantheon}),
    "pile": Decision(*_SETUP, {"pick_pile": Godstorm._act_pick_pile}),
    "claim": Decision(*_SETUP, {"place": Godstorm._act_claim}),
    "setup_place": Decision(*_SETUP, {"place": Godstorm._act_setup_place, "place_all": Godstorm._act_setup_place_all,
                                      "place_auto": Godstorm._act_setup_place_auto}),
    "setup_neutral": Decision(*_SETUP, {"place_neutral": Godstorm._act_place_neutral}),
    "setup_gods": Decision(*_SETUP, {"summon": Godstorm._act_setup_god, "build_temple": Godstorm._act_setup_god}),
    # each epoch: a secret simultaneous bid of faith, then the bidders pick their places in the turn order
    "bid": Decision(Godstorm._bidders, Godstorm._bid_legal, {"bid": Godstorm._act_bid}),
    "pick_order": Decision(Godstorm._order_picker, Godstorm._pick_legal, {"pick_order": Godstorm._act_pick_order}),
    # a player's turn, step by step (GODSTORM_STEPS / CLASSIC_STEPS in core.py)
    "turn": Decision(Godstorm._turn_player, Godstorm._turn_legal, {
        "place": Godstorm._act_place,
        "resurrect": Godstorm._act_resurrect,
        "trade": Godstorm._act_trade,
        "summon": Godstorm._act_summon,
        "build_temple": Godstorm._act_build_temple,
        "buy_cards": Godstorm._act_buy_cards,
        "attack": Godstorm._act_attack,
        "attack_until": Godstorm._act_attack_until,
        "fortify": Godstorm._act_fortify,
        "descend": Godstorm._act_descend,
        "end_step": Godstorm._act_end_step,
        "end_attacks": Godstorm._act_end_step,
        "end_turn": Godstorm._act_end_turn,
        "play_card": Godstorm._act_play_card,
        "book_of_the_dead": Godstorm._act_book,
        "answer_pref": Godstorm._act_answer_pref,
        "hold_god": Godstorm._act_hold_god,
        "dice_pref": Godstorm._act_dice_pref,
    }),
    # miracle cards: a response window (the defender's Sky answer to a declared attack, or a holder of the
    # Aegis answering a card just played), and the card taken after Visions Become Real
    "answer": Decision(Godstorm.window_actors, Godstorm.window_legal, {
        "play_card": Godstorm._act_play_card, "no_answer": Godstorm._act_no_answer,
        "cancel_card": Godstorm._act_cancel_card, "answer_pref": Godstorm._act_answer_pref}),
    "pick_card": Decision(Godstorm.pick_actors, Godstorm.pick_legal, {"take_card": Godstorm._act_take_card}),
    # the defender who asked to choose their dice, before a roll against them ("ask me")
    "defend": Decision(Godstorm.defend_actors, Godstorm.defend_legal,
                       {"defend": Godstorm._act_defend, "dice_pref": Godstorm._act_defend_pref}),
    # inside a turn: a battle in progress (the attacker, then the defender, may call a champion god or
    # the attacker retreats), and the armies a won battle lets move in
    "battle": Decision(Godstorm._battle_actors, Godstorm._battle_legal,
                       {"champion": Godstorm._act_champion, "retreat": Godstorm._act_retreat}),
    "move_in": Decision(Godstorm._turn_player, Godstorm._move_legal, {"move_in": Godstorm._act_move_in}),
}

# the standing preferences (``ChoiceMixin.standing_actions``), applied whoever is to act
STANDING: dict[str, Move] = {"dice_pref": Godstorm._act_dice_pref, "answer_pref": Godstorm._act_answer_pref}

__all__ = ["DECISIONS", "Godstorm", "NEUTRAL", "STANDING"]
