"""The ``ByAllMeans`` game: the :class:`bot.games.base.Game` contract over the decision table
(:data:`bot.games.byallmeans.phases.DECISIONS`, read by :class:`bot.games.decision.DecisionGame`); its words
are :mod:`bot.games.byallmeans.text`'s.

Registered by its manifest (``bot/games/byallmeans/manifest.py``); the Discord side is described in
``docs/games/byallmeans.md``, section 13.
"""

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
from bot.games.byallmeans import data, decks, panel, phases, text, why
from bot.games.byallmeans.state import CELLS, RULES, Cell, PlayerState, State
from bot.games.byallmeans.text import card_name as card_name  # the package's names of cards and answers
from bot.games.byallmeans.text import choice_label as choice_label
from bot.games.byallmeans.text import source_label as source_label
from bot.games.byallmeans.view import View, build
from bot.games.decision import DecisionGame, DecisionKind


class ByAllMeans(DecisionGame):
    key = "byallmeans"
    DECISIONS: ClassVar[Mapping[str, DecisionKind[Any]]] = phases.DECISIONS
    STATE_VERSION: ClassVar[int] = 2
    """2: the state names the rules version it is played by (``State.rules``, issue 26); a version-1 state
    was played by rules version 1."""

    @classmethod
    def migrate_state(cls, data_: dict[str, Any], from_version: int) -> dict[str, Any]:
        """A version-1 game goes on with the readings it was started with (rules version 1)."""
        if from_version == 1:
            data_ = copy.deepcopy(data_)
            data_.setdefault("rules", 1)
            return data_
        return super().migrate_state(data_, from_version)

    @classmethod
    def migrate_options(cls, options: dict[str, Any], from_version: int) -> dict[str, Any]:
        """A replay of a version-1 game starts it under rules version 1, as it was played."""
        if from_version == 1:
            return {**options, "rules": options.get("rules", 1)}
        return options

    s: State
    """The typed state (:mod:`bot.games.byallmeans.state`)."""

    def __init__(self, state: State) -> None:
        self.s = state

    # ---- lobby ----------------------------------------------------------------------------
    @classmethod
    def option_specs(cls) -> list[OptionSpec]:
        """The lobby's deck option for both seats: a preset, or ``random`` (each seat draws one). Per-seat
        decks and deck lists go in the options' ``decks`` list (see :func:`seat_decks`)."""
        return [OptionSpec("deck", "bam.opt.deck",
                           (("random", "bam.opt.deck.random"),
                            *((d, f"bam.deckname.{d}") for d in sorted(decks.presets()))), "random")]

    @classmethod
    def player_range(cls, options: dict[str, Any]) -> tuple[int, int]:
        return (2, 2)

    @classmethod
    def arrange_seats(cls, players: list[Player], options: dict[str, Any], rng: Rng) -> Arrangement:
        if len(players) != 2:
            raise IllegalAction("bam.err.players")
        users = [p.user_id for p in players]
        rng.shuffle(users)
        info = seat_decks(options, rng)
        own = options.get("user_decks") or {}
        for seat, user in enumerate(users):  # a player's own deck list (``/bam deck import`` in the lobby)
            if own.get(str(user)):
                decks.resolve(own[str(user)])
                info[seat] = {"deck": list(own[str(user)])}
        return Arrangement(seat_users=[[u] for u in users], seat_info=info)

    @classmethod
    def new(cls, seat_info: list[dict[str, Any]], options: dict[str, Any], seed: int) -> ByAllMeans:
        """Each seat's deck comes from ``seat_info[i]["deck"]``, else the options' ``decks[i]`` or ``deck``: a
        preset id, ``"random"`` (a preset drawn with the game's Rng), a list of card codes or deck-list text
        (:func:`decks.resolve`, validated); with none of them, the 17-card development deck of the rule tests.

        «Каждый игрок перемешивает свою колоду и раскладывает в случайном порядке на два архива. В
        дополнительном архиве 15 карт, в основном 25.» The uids are given after the shuffle, so a uid says
        where a card was dealt and nothing about which card it is (a face-down graffigent stays secret).
        """
        if len(seat_info) != 2:
            raise IllegalAction("bam.err.players")
        # "rules" is no lobby option: it lets a replay rebuild a game stored under older readings
        version = options.get("rules", RULES) if options else RULES
        if version not in (1, RULES):
            raise IllegalAction("bam.err.not_legal")
        rng = Rng(seed)
        cards: dict[str, str] = {}
        players = []
        for seat, info in enumerate(seat_info):
            entry = info.get("deck") or (options.get("decks") or [options.get("deck")] * 2)[seat]
            if entry == "random":
                names = sorted(decks.presets())
                entry = names[rng.randint(0, len(names) - 1)]
            deck = decks.resolve(entry) if entry else data.starter_deck()
            rng.shuffle(deck)
            uids = []
            for i, code in enumerate(deck):
                uid = f"{seat}.{i}"
                cards[uid] = code
                uids.append(uid)
            players.append(PlayerState(main=uids[:data.MAIN_ARCHIVE], extra=uids[data.MAIN_ARCHIVE:]))
        state = State(cards=cards, players=players, field=[Cell() for _ in range(CELLS)], rng=rng, rules=version)
        return cls(state)

    # ---- play: the decision table ---------------------------------------------------------
    def open_kinds(self) -> list[str]:
        return phases.open_kinds(self.s)

    def decision_key(self, kind: str) -> str:
        return phases.decision_key(self.s, kind)

    def refuse(self, seat: int, action: Any, open_kind: str | None) -> IllegalAction:
        """One refusal for every action that is not listed, whoever sends it."""
        return IllegalAction("bam.err.not_legal")

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Validate against the legal list first, so a refused action changes nothing (and a move is only
        ever given an action the rules built)."""
        move = self.route(seat, action)
        if action not in self.legal_actions(seat):
            raise self.refuse(seat, action, None)
        return list(move(self, seat, action) or [])

    def why_not(self, seat: int, action: Any) -> tuple[str, dict[str, Any]] | None:
        """Why a card cannot be played now (issue 25): see :mod:`bot.games.byallmeans.why`."""
        return why.why_not(self, seat, action)

    def reason_params(self, params: dict[str, Any], lang: str) -> dict[str, Any]:
        return why.localise(params)

    def outcome(self) -> Outcome | None:
        return as_outcome(self.s.result)

    # ---- views and state -------------------------------------------------------------------
    def view(self, seat: int | None) -> View:  # type: ignore[override]
        return build(self.s, seat, self.actors())

    def to_json(self) -> dict[str, Any]:
        return self.s.to_json()

    def to_json_text(self) -> str:
        return state_text(self.s.to_json())

    @classmethod
    def from_json(cls, data_: dict[str, Any]) -> ByAllMeans:
        return cls(State.from_json(data_))

    # ---- text (bot.games.byallmeans.text) -------------------------------------------------------
    def who(self, seat: int, lang: str) -> str:
        """A seat by its player's name (``Игрок 1`` only where the platform has set no names)."""
        return self.seat_display(seat, text.seat_label(seat, lang))

    def action_path(self, seat: int, action: Action, lang: str) -> list[str]:
        return text.action_path(self.s, self.who, seat, action, lang)

    def panel_as_select(self, seat: int) -> bool:
        """The opening exchange (up to 16 hand subsets) starts with a select of how many cards (``bot.discord_app.panels``)."""
        return self.s.phase == "exchange"

    def panel_actions(self, seat: int, lang: str) -> list[Action]:
        """The legal actions less the twins that use another copy of the same hand card (``panel.distinct``),
        cards by their name in the reader's alphabet (``panel.by_name``)."""
        return panel.by_name(self.s, panel.distinct(self.s, seat, self.legal_actions(seat)), lang)

    def panel_path(self, seat: int, action: Action, lang: str) -> list[str]:
        return panel.path(self.s, self.who, seat, action, lang)

    def event_text(self, event: Event, lang: str) -> str | None:
        return text.event_text(self.who, event, lang)

    def status_lines(self, lang: str) -> list[str]:
        return text.status_lines(self.s, self.who, lang)

    def private_text(self, seat: int, lang: str) -> str:
        return text.private_text(self.s, self.who, seat, lang)

    def prompt_text(self, seat: int, lang: str) -> str:
        return text.prompt_text(self.s, self.who, seat, lang)


def seat_decks(options: dict[str, Any], rng: Rng) -> list[dict[str, Any]]:
    """The seats' decks from the lobby options: ``decks`` (a list of two entries, each a preset id, a code
    list or deck-list text; ``"random"`` or a missing entry draws a preset), or ``deck`` for both seats.
    Validated here, so a bad deck is refused before the game starts."""
    chosen = options.get("decks") or [options.get("deck", "random")] * 2
    names = sorted(decks.presets())
    out: list[dict[str, Any]] = []
    for entry in list(chosen)[:2] + ["random"] * (2 - len(chosen)):
        deck = names[rng.randint(0, len(names) - 1)] if entry in (None, "", "random") else entry
        decks.resolve(deck)
        out.append({"deck": deck})
    return out
