"""The ``ByAllMeans`` game: the :class:`bot.games.base.Game` contract over the phase table.

Registered in ``bot/games/registry.py``; the Discord side is described in ``docs/games/byallmeans.md``,
section 13.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, ClassVar

from bot.core.i18n import sort_key, t
from bot.games import narration
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
from bot.games.byallmeans import data, decks, effects, engine, panel, phases, why
from bot.games.byallmeans.state import CELLS, RULES, Cell, PlayerState, State
from bot.games.byallmeans.view import View, build


class ByAllMeans(Game):
    key = "byallmeans"
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

    # ---- play -----------------------------------------------------------------------------
    def actors(self) -> list[int]:
        return phases.PHASES[self.s.phase].actors(self.s)

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.actors():
            return []
        return phases.PHASES[self.s.phase].legal(self.s, seat)

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Validate against the legal list first, so a refused action changes nothing."""
        if not isinstance(action, dict) or action not in self.legal_actions(seat):
            raise IllegalAction("bam.err.not_legal")
        ev: list[Event] = []
        phases.PHASES[self.s.phase].apply(self.s, seat, action, ev)
        return ev

    def why_not(self, seat: int, action: Any) -> tuple[str, dict[str, Any]] | None:
        """Why a card cannot be played now (issue 25): see :mod:`bot.games.byallmeans.why`."""
        return why.why_not(self, seat, action)

    def reason_params(self, params: dict[str, Any], lang: str) -> dict[str, Any]:
        return why.localise(params)

    def timeout_action(self, seat: int) -> Action | None:
        """An absent seat keeps its archives and hand, lets the chooser go first, and passes its turn; a
        decision it owes takes its first option."""
        legal = self.legal_actions(seat)
        if not legal:
            return None
        for preferred in ({"type": "shuffle", "main": False, "extra": False}, {"type": "exchange", "cards": []},
                          {"type": "order", "first": seat}, {"type": "end_turn"}):
            if preferred in legal:
                return preferred
        return legal[0]

    def is_simultaneous(self) -> bool:
        """The opponent's-shuffle and exchange decisions are taken by both seats at once, in secret."""
        return self.s.phase in ("shuffle", "exchange")

    def outcome(self) -> dict[str, Any] | None:
        return None if self.s.result is None else dict(self.s.result)

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

    # ---- text -------------------------------------------------------------------------------
    def action_path(self, seat: int, action: Action, lang: str) -> list[str]:
        kind = action["type"]
        s = self.s
        if kind == "choose":
            return [t("bam.act.choose", lang), choice_label(s, action["v"], lang, self.who)]
        if kind in ("play", "utilise", "discard", "activate"):
            label = [t(f"bam.act.{kind}", lang), card_name(s.cards[action["uid"]], lang)]
            if "cell" in action:
                label.append(t("bam.cell", lang, n=action["cell"] + 1))
            if "shadow" in action:
                label.append(t("bam.act.shadow", lang))
            if action.get("face_down"):
                label.append(t("bam.act.face_down", lang))
            if "replace" in action:
                label.append(t("bam.act.replace", lang, card=card_name(s.cards[action["replace"]], lang)))
            return label
        if kind == "number":
            return [t("bam.act.number", lang), t(f"bam.num.{action['sum']}", lang),
                    ", ".join(card_name(s.cards[u], lang) for u in action["cards"])]
        if kind == "symbols":
            syms = [action["a"].rsplit(":", 1)[1], action["b"].rsplit(":", 1)[1]]
            effect = data.pair_effect(*syms)
            return [t("bam.act.symbols", lang), t(f"bam.eff.{effect.id}", lang),
                    " + ".join(source_label(s, x, lang) for x in (action["a"], action["b"]))]
        if kind == "agent":
            label = [t("bam.act.agent", lang), card_name(s.cards[action["uid"]], lang),
                     t(f"bam.act.agent_{action['do']}", lang)]
            if "target" in action:
                label.append(card_name(s.cards[action["target"]], lang))
            return label
        if kind == "neutral":
            return [t("bam.act.neutral", lang), card_name(s.cards[action["uid"]], lang)]
        if kind == "shuffle":
            return [t("bam.act.shuffle", lang), t(f"bam.shuffle.{int(action['main'])}{int(action['extra'])}", lang)]
        if kind == "order":
            return [t("bam.act.order_me" if action["first"] == seat else "bam.act.order_opp", lang)]
        if kind == "exchange":  # how many first, then which (the panel offers the count in a select)
            if not action["cards"]:
                return [t("bam.act.keep", lang)]
            names = ", ".join(sorted((card_name(s.cards[u], lang) for u in action["cards"]),
                                     key=lambda name: sort_key(name, lang)))
            return [t("bam.act.exchange_n", lang, n=len(action["cards"])), names]
        return [t(f"bam.act.{kind}", lang)]

    def who(self, seat: int, lang: str) -> str:
        """A seat by its player's name (``Игрок 1`` only where the platform has set no names)."""
        return self.seat_display(seat, t("bam.seat", lang, n=seat + 1))

    def panel_as_select(self, seat: int) -> bool:
        """The opening exchange (up to 16 hand subsets) starts with a select of how many cards (``bot.discord_app.panels``)."""
        return self.s.phase == "exchange"

    def panel_actions(self, seat: int, lang: str) -> list[Action]:
        """The legal actions less the twins that use another copy of the same hand card (``panel.distinct``),
        cards by their name in the reader's alphabet (``panel.by_name``)."""
        return panel.by_name(self.s, panel.distinct(self.s, seat, self.legal_actions(seat)), lang)

    def panel_path(self, seat: int, action: Action, lang: str) -> list[str]:
        """:meth:`action_path` with the cell of each field object and the buffer slot of each planned object it
        names, so two cards of one name differ (at the card's level; for a combination, in its cards)."""
        path = self.action_path(seat, action, lang)
        place = panel.where(self.s, seat, panel.named_uids(action), lang, move=panel.is_move(action))
        if place:
            i = len(path) - 1 if action["type"] in ("symbols", "number") else min(1, len(path) - 1)
            path[i] = f"{path[i]} ({place})"
        return path

    def event_text(self, event: Event, lang: str) -> str | None:
        kind = str(event["type"]).removeprefix("bam.")
        key = f"bam.ev.{kind}"
        params = {k: v for k, v in event.items() if k not in ("type", "to")}
        if event.get("to"):  # a private event: a replay tells it in the third person (bot.games.narration)
            key = narration.key(key)
            params["name"] = self.seat_display(event["to"][0], t("bam.seat", lang, n=event["to"][0] + 1))
        if "seat" in event:
            params["who"] = self.who(event["seat"], lang)
        if "code" in event:
            params["card"] = card_name(event["code"], lang)
        if "codes" in event:
            params["cards"] = ", ".join(card_name(c, lang) for c in event["codes"])
        if "res" in event:
            params["res"] = t(f"bam.res.{event['res']}", lang)
        if "archive" in event:
            params["archive"] = t(f"bam.zone.{event['archive']}", lang)
        if "cell" in event:
            params["cell"] = event["cell"] + 1
        if "first" in event:
            params["first"] = self.who(event["first"], lang)
        if "key" in event:
            params["choice"] = t(event["key"], lang)
        if "effect" in event:
            params["effect"] = t(f"bam.eff.{event['effect']}", lang)
        if "do" in event:
            params["action"] = t(f"bam.act.agent_{event['do']}", lang)
        if kind == "exchanges":  # the opening exchange, both seats at once: "Anna: 2, Boris: 0"
            params["counts"] = ", ".join(f"{self.seat_display(i, t('bam.seat', lang, n=i + 1))}: {n}"
                                         for i, n in enumerate(event["counts"]))
        if kind in ("gain", "lose") and not event.get("n"):
            return None  # nothing changed: no "−0"
        if kind == "symbol_moved":
            params.update(sym=t(f"bam.sym.{event['sym']}", lang), src=card_name(event["from"], lang),
                          dst=card_name(event["to_code"], lang))
        return t(key, lang, **params)

    def status_lines(self, lang: str) -> list[str]:
        return [t("bam.status", lang, who=self.seat_display(i, t("bam.seat", lang, n=i + 1)), rep=p.rep, inf=p.inf,
                  trust=p.trust, hand=len(p.hand), main=len(p.main), extra=len(p.extra))
                for i, p in enumerate(self.s.players)]

    def private_text(self, seat: int, lang: str) -> str:
        hand = ", ".join(card_name(self.s.cards[u], lang) for u in sorted(self.s.players[seat].hand))
        name = self.seat_display(seat, t("bam.seat", lang, n=seat + 1))  # a replay names the seat
        return t(narration.key("bam.private_hand"), lang, cards=hand or "—", name=name)

    def prompt_text(self, seat: int, lang: str) -> str:
        waiting = effects.pending(self.s)
        if waiting is not None and waiting[0] == seat:
            return self.decision_prompt(seat, lang)
        return t(f"bam.prompt.{self.s.phase}", lang)

    def decision_prompt(self, seat: int, lang: str) -> str:
        """What the open decision of the effect stack is about and why: the step of the turn, or the card
        (or combination) whose effect asks."""
        s = self.s
        f = s.stack[-1]
        op = f.ops[0]
        kind = str(op["op"])
        rival = self.who(1 - seat, lang)
        if kind in ("pick_trigger", "lost_action"):
            return t(f"bam.prompt.op.{kind}", lang)
        if kind == "rival_window":
            return t("bam.prompt.op.rival_window", lang, rival=rival, n=engine.RIVAL_WINDOW - int(op["used"]))
        if kind == "route":
            return t("bam.prompt.op.route", lang, card=card_name(s.cards[op["uid"]], lang))
        if kind == "offer_move":
            return t("bam.prompt.op.offer_move", lang, cell=int(op["cell"]) + 1)
        if kind == "target":
            text = t(f"bam.prompt.op.target.{op['kind']}", lang)
            owner = op.get("owner", "any")
            if owner in ("self", "opp"):
                mine = (owner == "self") == (f.controller == seat)
                text += " " + t(f"bam.prompt.op.owner.{'self' if mine else 'opp'}", lang, rival=rival)
        elif kind == "discard_one":
            owner = effects.seats(f, op["who"])[0]
            text = t("bam.prompt.op.discard_one.self" if owner == seat else "bam.prompt.op.discard_one.opp", lang,
                     rival=self.who(owner, lang))
        elif kind == "expose":
            agent = f.vars.get(op["target"])
            text = t("bam.prompt.op.expose", lang, agent=card_name(s.cards[agent], lang) if agent in s.cards else "?")
        elif kind in ("choose", "move_symbol"):
            text = t(f"bam.prompt.op.{kind}", lang)
        else:
            text = t("bam.prompt.op.other", lang)
        if f.source in s.cards:
            return t("bam.prompt.by", lang, card=card_name(s.cards[str(f.source)], lang), text=text)
        return t("bam.prompt.op.effect", lang, text=text)


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


def card_name(code: str, lang: str) -> str:
    return t(f"bam.card.{code}", lang)


def source_label(s: State, src: str, lang: str) -> str:
    """«Клинок: Доки»: the symbol, then the card it comes from (where the card lies, a cell or a buffer slot,
    is added by the panel; a hand card has none)."""
    _zone, uid, sym = src.split(":")
    return t("bam.source", lang, sym=t(f"bam.sym.{sym}", lang), card=card_name(s.cards[uid], lang))


def choice_label(s: State, value: Any, lang: str, who: Callable[[int, str], str] | None = None) -> str:
    """A decision's answer as text: an option of a ``choose`` op, a card, an archive (its owner by ``who``,
    the seat's name), a route, a card used at the end of the rival's turn."""
    if isinstance(value, int) and s.stack and s.stack[-1].ops and s.stack[-1].ops[0]["op"] == "choose":
        return t(s.stack[-1].ops[0]["options"][value]["key"], lang)
    text = str(value)
    if text in s.cards:
        return card_name(s.cards[text], lang)
    if isinstance(value, int) and value >= 0 and s.stack and s.stack[-1].ops and s.stack[-1].ops[0]["op"] == "expose":
        return t("bam.cell", lang, n=value + 1)
    if text in ("utility", "buffer", "stay", "main", "extra", "tap"):
        return t(f"bam.choice.{text}", lang)
    if text == "pass":
        return t("bam.choice.pass", lang)
    kind, _, uid = text.partition(":")
    if kind in ("discard", "utilise") and uid in s.cards:
        return t(f"bam.choice.{kind}", lang, card=card_name(s.cards[uid], lang))
    if text.startswith("buffer:"):
        return t("bam.choice.buffer_as", lang, sym=t(f"bam.sym.{text[7:]}", lang))
    if "." in text and text.split(".")[1] in ("main", "extra"):
        seat, zone = text.split(".")
        name = who(int(seat), lang) if who else t("bam.seat", lang, n=int(seat) + 1)
        return t(f"bam.archive.{zone}", lang, who=name)
    if text.count(":") == 2:
        src, sym, dst = text.split(":")
        return t("bam.choice.move_symbol", lang, sym=t(f"bam.sym.{sym}", lang), src=card_name(s.cards[src], lang),
                 dst=card_name(s.cards[dst], lang))
    return text
