"""The ``Godstorm`` game: contract methods (actors, legal actions, apply, views, JSON) over the mixins."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

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
from bot.games.decision import DecisionGame, DecisionKind
from bot.games.godstorm import board, text
from bot.games.godstorm.actions import well_formed
from bot.games.godstorm.choices import DEFEND_WINDOW_S, ChoiceMixin
from bot.games.godstorm.combat import DEFAULT_UNDO_S, UNDO_WINDOWS, CombatMixin
from bot.games.godstorm.core import NEUTRAL
from bot.games.godstorm.epoch import EpochMixin
from bot.games.godstorm.miracles import ANSWER_WINDOWS, DEFAULT_ANSWER_S, MiracleMixin, new_miracle_state
from bot.games.godstorm.setup import SetupMixin, fresh_state
from bot.games.godstorm.state import State
from bot.games.godstorm.turn import TurnMixin
from bot.games.godstorm.view import PlaceView
from bot.games.godstorm.view import build as build_view
from bot.games.godstorm.view import place as place_view
from bot.games.godstorm.why import localise as localise_reason
from bot.games.godstorm.why import why_not as why_not_of

RULESETS = ("godstorm", "classic")
PLACEMENTS = ("random", "choose")

class Godstorm(ChoiceMixin, MiracleMixin, EpochMixin, TurnMixin, CombatMixin, SetupMixin, DecisionGame):
    key = "godstorm"
    free_keys = frozenset({"count", "stop_at"})  # the lists offer a few counts; apply takes any
    STATE_VERSION = 4  # 2: the played miracle cards (``State.mir``, option ``miracles``); 3: the rulebook's
    # choices (issue 10: optional keys ``dice_pref``, ``defend``, ``piles``, ``turn.held``; option ``piles``);
    # 4: the undo window before an attack's roll (issue 27: optional keys ``undo_window``, ``declared``; option
    # ``undo_window``)

    @classmethod
    def migrate_state(cls, data: dict[str, Any], from_version: int) -> dict[str, Any]:
        """Version 1 had no playable miracle cards: such a state is a version-2 state without ``miracles``
        (the cards stay counted face down, as they were), so it loads unchanged."""
        if from_version in (1, 2, 3):  # versions 3 and 4 only add keys that are absent when unused
            return data
        return super().migrate_state(data, from_version)

    @classmethod
    def migrate_options(cls, options: dict[str, Any], from_version: int) -> dict[str, Any]:
        """Games started before version 2 keep their miracle cards unplayable (replays rebuild them so)."""
        if from_version < 2 and "miracles" not in options:
            options = {**options, "miracles": "off"}
        if from_version < 3 and "piles" not in options:  # two players were dealt their piles in order then
            options = {**options, "piles": "dealt"}
        if from_version < 4 and "undo_window" not in options:  # their attacks were rolled at once
            options = {**options, "undo_window": 0}
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
            OptionSpec("undo_window", "godstorm.opt.undo_window",
                       tuple((n, f"godstorm.opt.undo_window.{n}") for n in UNDO_WINDOWS), DEFAULT_UNDO_S),
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
        """A new game. The lobby stores every option (``undo_window`` included, default ``DEFAULT_UNDO_S``);
        options given without ``undo_window`` (the rules called directly: tools, tests, the fixtures of
        earlier versions) roll an attack at once, as the rulebook's flow does."""
        opts = {**cls.default_options(), "undo_window": 0, **(options or {})}
        if (opts["ruleset"] not in RULESETS or opts["placement"] not in PLACEMENTS
                or opts.get("miracles", "on") not in ("on", "off") or opts.get("answer_window") not in ANSWER_WINDOWS
                or opts.get("piles", "choose") not in ("choose", "dealt") or opts["undo_window"] not in UNDO_WINDOWS):
            raise cls._refuse("bad_option")
        n = len(seat_info)
        lo, hi = cls.player_range(opts)
        if not lo <= n <= hi:
            raise cls._refuse("player_count", min=lo, max=hi)
        game = cls(fresh_state(n, opts, seed))
        game.s.undo_s = int(opts["undo_window"])
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

    # ---- play: the open decision (the table ``DECISIONS`` below) ------------------------------
    def open_kinds(self) -> list[str]:
        """The open decision of ``DECISIONS`` (none: nobody acts, the game is over or not set up).

        The phase names it, except that in the set-up placement the neutral armies are their own decision,
        and during a turn a response window, a card to take, a defender choosing dice, a battle in progress
        or armies waiting to move in, then an attack declared and waiting for its roll, come before the turn's
        moves, in that order. One is open at a time."""
        s = self.s
        phase = s.phase
        if phase == "setup_place" and s.neutral_due:
            return ["setup_neutral"]
        if phase == "turn":
            if s.mir is not None and s.mir.windows:
                return ["answer"]
            if s.mir is not None and s.mir.pick is not None:
                return ["pick_card"]
            if s.defend is not None:
                return ["defend"]
            if s.battle is not None:
                return ["battle"]
            if s.move is not None:
                return ["move_in"]
            if s.declared is not None:
                return ["roll"]
        return [phase] if phase in DECISIONS else []

    def decision(self) -> str | None:
        """The kind of the open decision (see :meth:`open_kinds`), or None."""
        kinds = self.open_kinds()
        return kinds[0] if kinds else None

    def decision_key(self, kind: str) -> str:
        """What tells a decision apart from the one of the same kind before it (``OpenDecision.key``): the
        turn (epoch and place in the order), the window on top of the stack, the roll the defender chooses
        dice for, the round and side of a godswar, the hand a card is taken from, the battle moved out of.
        The set-up and the bids are answered once per seat, so their kinds need no key."""
        s = self.s
        if kind == "turn":
            return f"{s.epoch or 0}.{s.turn_idx}.{s.current}"
        if kind == "answer" and s.mir is not None and s.mir.windows:
            w = s.mir.windows[-1]
            return f"{len(s.mir.windows)}:{w.kind}:{w.card or ''}:{w.src or ''}>{w.dst or ''}"
        if kind == "pick_card" and s.mir is not None and s.mir.pick is not None:
            return str(s.mir.pick["from"])
        if kind == "defend" and s.defend is not None:
            d = s.defend
            src, dst = self._loc(str(d["from"])), self._loc(str(d["to"]))
            return f"{d['from']}>{d['to']}:{d['rolls']}:{src.armies}-{dst.armies}"
        if kind == "battle" and s.battle is not None:
            b = s.battle
            return f"{b.src}>{b.dst}:{b.rounds}:{'def' if b.att is not None else 'att'}"
        if kind == "move_in" and s.move is not None:
            return f"{s.move.src}>{s.move.dst}"
        if kind == "roll" and s.declared is not None:
            order = s.declared
            return f"{order.src}>{order.dst}:{order.dice}:{order.until}"
        return ""

    def post_group(self) -> str | None:
        """One channel post per set-up round (issue 25), not one per placement; None after the set-up."""
        return self.setup_round()

    def refuse(self, seat: int, action: Any, open_kind: str | None) -> IllegalAction:
        """Godstorm's own words: a malformed action or one the open decision does not take is a bad action,
        anything from a seat that holds no decision is not its turn."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return self._refuse("bad_action")
        return self._refuse("bad_action" if open_kind is not None else "not_your_turn")

    def apply(self, seat: int, action: Action) -> list[Event]:
        move = self.route(seat, action)
        if not well_formed(action):  # a field missing or of the wrong kind: the typed move may not read it
            raise self._refuse("bad_action")
        self._ev = []
        move(self, seat, action)  # the moves collect their events in ``_ev``
        events, self._ev = self._ev, []
        return cast("list[Event]", events)  # the contract's plain JSON dicts (``events.py`` types them)

    def is_secret(self, seat: int, action: Action) -> bool:
        """While the bids are open, any seat's action is kept secret, also from a seat that has bid already
        (its bid stays hidden until all are revealed), as before issue 24."""
        return self.is_simultaneous() or super().is_secret(seat, action)

    # who acts, what a seat gives when its time is up, for the table below
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

    def _undo_deadline(self) -> int | None:
        """The undo window of a declared attack (option ``undo_window``)."""
        return self.s.undo_s or None

    def _answer_deadline(self) -> int | None:
        return self.s.mir.answer_s if self.s.mir is not None else None

    def _defend_deadline(self) -> int | None:
        """"Ask me" for the defence dice: the same short window as a Sky answer."""
        return self.s.mir.answer_s if self.s.mir is not None else DEFEND_WINDOW_S

    def _first_legal(self, seat: int) -> Action | None:
        """The first legal action: the most dice allowed, the first card, pantheon, pile or place."""
        legal = self.legal_actions(seat)
        return legal[0] if legal else None

    def _timeout_no_answer(self, seat: int) -> Action | None:
        return {"type": "no_answer"} if self.legal_actions(seat) else None

    def _timeout_bid(self, seat: int) -> Action | None:
        return {"type": "bid", "faith": 0} if self.legal_actions(seat) else None

    def _timeout_setup_place(self, seat: int) -> Action | None:
        """The round's armies on the seat's weakest territory."""
        if not self.legal_actions(seat):
            return None
        tid = min(sorted(self.owned(seat)), key=lambda x: self.s.terr[x].armies)
        return {"type": "place", "territory": tid, "count": self.s.round_left}

    def _timeout_move_in(self, seat: int) -> Action | None:
        """The fewest armies the rules allow."""
        m = self.s.move
        return None if m is None or not self.legal_actions(seat) else {"type": "move_in", "count": m.min}

    def _timeout_turn(self, seat: int) -> Action | None:
        """The turn ends (or the step, where the turn may not end yet)."""
        legal = self.legal_actions(seat)
        end: Action = {"type": "end_turn"}
        return end if end in legal else (legal[0] if legal else None)

    def _timeout_battle(self, seat: int) -> Action | None:
        """The attacker retreats when it may, else the first champion."""
        legal = self.legal_actions(seat)
        retreat: Action = {"type": "retreat"}
        return retreat if retreat in legal else (legal[0] if legal else None)

    def outcome(self) -> Outcome | None:
        return as_outcome(self.s.outcome)

    def why_not(self, seat: int, action: Any) -> tuple[str, dict[str, Any]] | None:
        """Why an attack, placement, move-in or fortification is not possible now (``why.py``)."""
        return why_not_of(self, seat, action)

    def reason_params(self, params: dict[str, Any], lang: str) -> dict[str, Any]:
        return localise_reason(params, lang)

    # ---- views --------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        return cast("dict[str, Any]", build_view(self.s, seat, self._targets))

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

    # ---- text (``text.py``: functions that read the state, outside the rules) ---------------------------
    def action_path(self, seat: int, action: Action, lang: str) -> list[str]:
        return text.action_path(self, seat, action, lang)

    def panel_path(self, seat: int, action: Action, lang: str) -> list[str]:
        return text.panel_path(self, seat, action, lang)

    def panel_actions(self, seat: int, lang: str) -> list[Action]:
        return text.panel_actions(self, seat, lang)

    def event_text(self, event: Event, lang: str) -> str | None:
        return text.event_text(self, event, lang)

    def side_name(self, side: int, lang: str) -> str:
        return text.side_name(self, side, lang)

    def status_lines(self, lang: str) -> list[str]:
        return text.status_lines(self, lang)

    def private_text(self, seat: int, lang: str) -> str:
        return text.private_text(self, seat, lang)

    def standing_text(self, seat: int, lang: str) -> str:
        return text.standing_text(self, seat, lang)

    def prompt_text(self, seat: int, lang: str) -> str:
        return text.prompt_text(self, seat, lang)

    def _who(self, seat: int | None, lang: str) -> str:
        """A seat as texts name it (its player and pantheon); kept for the end-to-end tests that read it."""
        return text.who_name(self, seat, lang)


# ---- the turn structure -------------------------------------------------------------------------
Move = Callable[[Godstorm, int, Any], None]
"""What one answer does: a move of the rules mixins, typed with the action it takes (``actions.py``; ``apply``
checked the action's shape before), its events collected in ``Godstorm._ev``."""


def _row(who: Callable[[Godstorm], list[int]], legal: Callable[[Godstorm, int], list[Action]],
         moves: Mapping[str, Move], timeout: Callable[[Godstorm, int], Action | None] = Godstorm._first_legal,
         simultaneous: bool = False, secret: bool = False,
         deadline: Callable[[Godstorm], int | None] | None = None) -> DecisionKind[Godstorm]:
    """A row whose deadline, if any, is a function of the game: a response window (Sky answer, Aegis, "ask
    me" for the defence dice) lasts the game's ``answer_window`` whatever the deadline option."""
    return DecisionKind(who, legal, moves, simultaneous=simultaneous, secret=secret, timeout=timeout,
                        deadline_s=deadline)


_SETUP = (Godstorm._setup_actors, Godstorm._setup_legal)
DECISIONS: dict[str, DecisionKind[Godstorm]] = {
    # set-up, one seat at a time in set-up order
    "pantheon": _row(*_SETUP, {"pick_pantheon": Godstorm._act_pick_pantheon}),
    "pile": _row(*_SETUP, {"pick_pile": Godstorm._act_pick_pile}),
    "claim": _row(*_SETUP, {"place": Godstorm._act_claim}),
    "setup_place": _row(*_SETUP, {"place": Godstorm._act_setup_place, "place_all": Godstorm._act_setup_place_all,
                                  "place_auto": Godstorm._act_setup_place_auto}, Godstorm._timeout_setup_place),
    "setup_neutral": _row(*_SETUP, {"place_neutral": Godstorm._act_place_neutral}),
    "setup_gods": _row(*_SETUP, {"summon": Godstorm._act_setup_god, "build_temple": Godstorm._act_setup_god}),
    # each epoch: a secret simultaneous bid of faith, then the bidders pick their places in the turn order
    "bid": _row(Godstorm._bidders, Godstorm._bid_legal, {"bid": Godstorm._act_bid}, Godstorm._timeout_bid,
                simultaneous=True, secret=True),
    "pick_order": _row(Godstorm._order_picker, Godstorm._pick_legal, {"pick_order": Godstorm._act_pick_order}),
    # a player's turn, step by step (GODSTORM_STEPS / CLASSIC_STEPS in core.py)
    "turn": _row(Godstorm._turn_player, Godstorm._turn_legal, {
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
    }, Godstorm._timeout_turn),
    # miracle cards: a response window (the defender's Sky answer to a declared attack, or a holder of the
    # Aegis answering a card just played), and the card taken after Visions Become Real
    "answer": _row(Godstorm.window_actors, Godstorm.window_legal, {
        "play_card": Godstorm._act_play_card, "no_answer": Godstorm._act_no_answer,
        "cancel_card": Godstorm._act_cancel_card, "answer_pref": Godstorm._act_answer_pref},
        Godstorm._timeout_no_answer, deadline=Godstorm._answer_deadline),
    "pick_card": _row(Godstorm.pick_actors, Godstorm.pick_legal, {"take_card": Godstorm._act_take_card}),
    # the defender who asked to choose their dice, before a roll against them ("ask me"); in time, the most
    "defend": _row(Godstorm.defend_actors, Godstorm.defend_legal,
                   {"defend": Godstorm._act_defend, "dice_pref": Godstorm._act_defend_pref},
                   deadline=Godstorm._defend_deadline),
    # inside a turn: a battle in progress (the attacker, then the defender, may call a champion god or
    # the attacker retreats), and the armies a won battle lets move in
    "battle": _row(Godstorm._battle_actors, Godstorm._battle_legal,
                   {"champion": Godstorm._act_champion, "retreat": Godstorm._act_retreat}, Godstorm._timeout_battle),
    "move_in": _row(Godstorm._turn_player, Godstorm._move_legal, {"move_in": Godstorm._act_move_in},
                    Godstorm._timeout_move_in),
    # an attack declared with an undo window (issue 27): its dice are thrown on the attacker's 🎲, or by the
    # platform when the window closes (``auto``: no reminder, no missed turn); an undo takes the order back
    "roll": DecisionKind(Godstorm._turn_player, Godstorm._roll_legal, {"roll": Godstorm._act_roll},
                         timeout=Godstorm._timeout_roll, deadline_s=Godstorm._undo_deadline, auto=True),
}

# the standing preferences (``ChoiceMixin.standing_actions``), applied whoever is to act
STANDING: dict[str, Move] = {"dice_pref": Godstorm._act_dice_pref, "answer_pref": Godstorm._act_answer_pref}
Godstorm.DECISIONS = DECISIONS
Godstorm.STANDING = STANDING

__all__ = ["DECISIONS", "Godstorm", "NEUTRAL", "STANDING"]
