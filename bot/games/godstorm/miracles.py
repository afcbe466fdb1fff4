"""The miracle cards: their data (``data/godstorm/miracles.json``), obtaining, playing, relics, the Sky and
Aegis response windows, Atlantis and the maelstrom.

A card's text is data: ``target`` names what the player chooses (a kind from ``_TARGETS``), ``effect`` is a
list of ops (``_OPS``) whose arguments are numbers, ``"$key"`` (a chosen target), or ``"@selector"`` (a set
of territories: ``@attacking``, ``@defending``, ``@own_temples``, ``@with_gods``, ``@over_one``,
``@random_continent``, ``@attacking+adjacent``; ``$territory+adjacent``). Relics carry a ``relic`` dict of
standing effects read where they apply (turn start, card cost, bid, godswar, defence, crypts).

Everything here runs only when ``State.mir`` exists (the ``miracles`` option); without it the engine
behaves, and stores games, exactly as before the cards were playable.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from bot.core import paths
from bot.games.base import Action, Rng
from bot.games.godstorm import board, data
from bot.games.godstorm import events as ev
from bot.games.godstorm.actions import (
    AnswerPrefAction,
    BookOfTheDeadAction,
    BuyCardsAction,
    CancelCardAction,
    NoAnswerAction,
    PlaceAction,
    PlayCardAction,
    TakeCardAction,
)
from bot.games.godstorm.combat import CombatMixin
from bot.games.godstorm.core import NEUTRAL, as_int
from bot.games.godstorm.state import MiracleState, Territory, Window
from bot.games.godstorm.turn import TurnMixin, small_counts

JSON = dict[str, Any]
ANSWER_WINDOWS = (60, 180, 300, 600)
"""Choices of the ``answer_window`` option (seconds); the default is 180."""
DEFAULT_ANSWER_S = 180
PLAGUE_MARKERS = 5


@dataclass(frozen=True)
class Card:
    id: str
    deck: str
    copies: int
    cost: int
    timing: str
    """``turn`` (War, Death: the play step of your turn), ``attacked`` (Sky: answering an attack), ``relic``."""
    name: dict[str, str]
    text: dict[str, str]
    target: str | None
    effect: tuple[JSON, ...]
    relic: JSON
    territory: str | None
    source: str
    certain: str


def _load() -> dict[str, Card]:
    raw = json.loads((paths.DATA_DIR / "godstorm" / "miracles.json").read_text(encoding="utf-8"))
    return {c["id"]: Card(c["id"], c["deck"], int(c["copies"]), int(c["cost"]), c["timing"], dict(c["name"]),
                          dict(c["text"]), c.get("target"), tuple(c.get("effect", ())), dict(c.get("relic", {})),
                          c.get("territory"), c["source"], c["certain"])
            for c in raw["cards"]}


CARDS: dict[str, Card] = _load()
SKY_MIN_COST = min(c.cost for c in CARDS.values() if c.deck == "sky")
"""A defender with less faith than this can play no Sky card (public facts only decide whether a window opens)."""
ATLANTIS: tuple[str, ...] = board.CONTINENTS["atlantis"] if "atlantis" in board.CONTINENTS else tuple(
    t for t in board.TERR_IDS if board.CONTINENT_OF[t].lower() == "atlantis")
SEA_LINKS: tuple[tuple[str, str], ...] = tuple(sorted({tuple(sorted((a, b))) for a in board.TERR_IDS  # type: ignore[misc]
                                                       for b in data.TERRITORIES[a].sea}))


def card_of(instance: str) -> Card:
    """The card of an instance id ``"<card id>.<copy>"``."""
    return CARDS[instance.rsplit(".", 1)[0]]


def all_instances() -> list[str]:
    return [f"{c.id}.{i}" for c in CARDS.values() for i in range(1, c.copies + 1)]


def new_miracle_state(players: int, rng: Rng, answer_s: int = DEFAULT_ANSWER_S) -> MiracleState:
    """Four shuffled piles and empty hands (called once when a game with miracles starts)."""
    piles: dict[str, list[str]] = {k: [] for k in board.GOD_KINDS}
    for inst in all_instances():
        piles[card_of(inst).deck].append(inst)
    for k in board.GOD_KINDS:
        rng.shuffle(piles[k])
    return MiracleState(piles=piles, hands=[[] for _ in range(players)], unread=[[] for _ in range(players)],
                        relics=[[] for _ in range(players)], gone=[], never=[False] * players, answer_s=answer_s)


class MiracleMixin(TurnMixin, CombatMixin):
    """Rules of the played miracle cards, over the turn and combat mixins (their hooks are overridden here)."""

    # ---- small helpers ------------------------------------------------------------------
    @property
    def mir(self) -> MiracleState:
        m = self.s.mir
        assert m is not None, "miracle cards are off in this game"
        return m

    def has_relic(self, seat: int, key: str) -> bool:
        m = self.s.mir
        if m is None or not 0 <= seat < len(m.relics):
            return False
        return any(key in card_of(r).relic for r in m.relics[seat])

    def _relic_value(self, seat: int, key: str) -> int:
        m = self.s.mir
        if m is None or not 0 <= seat < len(m.relics):
            return 0
        return sum(int(card_of(r).relic[key]) for r in m.relics[seat] if key in card_of(r).relic)

    def _sync(self, seat: int) -> None:
        """Public counts: ``decks`` (cards left) and each seat's ``cards`` (held in hand or unread, by deck)."""
        m = self.mir
        for k in board.GOD_KINDS:
            self.s.decks[k] = len(m.piles[k])
        if 0 <= seat < len(self.s.players):
            counts = {k: 0 for k in board.GOD_KINDS}
            for inst in m.hands[seat] + m.unread[seat]:
                counts[card_of(inst).deck] += 1
            self.s.players[seat].cards = counts

    def neighbours(self, tid: str) -> tuple[str, ...]:
        m = self.s.mir
        if m is None or (not m.sunk and m.maelstrom is None):
            return board.NEIGHBOURS[tid]
        if m.sunk and tid in ATLANTIS:
            return ()
        return tuple(n for n in board.NEIGHBOURS[tid] if not (m.sunk and n in ATLANTIS)
                     and not (m.maelstrom is not None and {tid, n} == set(m.maelstrom)))

    def connected(self, start: str, owned: set[str]) -> set[str]:
        if self.s.mir is None:
            return board.connected(start, owned)
        seen = {start}
        stack = [start]
        while stack:
            cur = stack.pop()
            for n in self.neighbours(cur):
                if n in owned and n not in seen:
                    seen.add(n)
                    stack.append(n)
        seen.discard(start)
        return seen

    def _targets(self, seat: int, src: str) -> list[str]:
        m = self.s.mir
        if m is None or src not in self.s.terr:
            return super()._targets(seat, src)
        return [t for t in self.neighbours(src) if self.s.terr[t].owner != seat and t not in m.sacred]

    # ---- obtaining ----------------------------------------------------------------------
    def card_cost(self, seat: int) -> int:
        """Faith per bought card: 2, or 1 with Stonehenge."""
        return 1 if self.has_relic(seat, "card_cost") else 2

    def _draw_miracle(self, seat: int, kind: str, reason: str) -> bool:
        m = self.s.mir
        if m is None:
            return super()._draw_miracle(seat, kind, reason)
        if not m.piles[kind]:
            return False
        inst = m.piles[kind].pop(0)
        self._emit(ev.CardGained(type="card_gained", seat=seat, kind=kind, reason=reason))
        if kind == "magic":
            m.relics[seat].append(inst)
            self._emit(ev.RelicInPlay(type="relic_in_play", seat=seat, card=inst))
        else:
            m.hands[seat].append(inst)
            self._emit(ev.CardPrivate(type="card_private", to=[seat], card=inst))
        self._sync(seat)
        return True

    def _buy_actions(self, seat: int) -> list[Action]:
        if self.s.mir is None:
            return super()._buy_actions(seat)
        s = self.s
        cost = self.card_cost(seat)
        room = min(4 - s.turn.bought, s.players[seat].faith // cost)
        if room <= 0:
            return []
        gods = self.gods_on_board(seat)
        return [{"type": "buy_cards", "deck": k, "count": c} for k in board.GOD_KINDS if k in gods
                for c in range(1, min(room, s.decks[k]) + 1)]

    def _act_buy_cards(self, seat: int, a: BuyCardsAction) -> None:
        m = self.s.mir
        if m is None:
            super()._act_buy_cards(seat, a)
            return
        s = self.s
        kind, n = a.get("deck"), as_int(a.get("count"))
        p = s.players[seat]
        cost = self.card_cost(seat)
        if s.step != "cards":
            raise self._refuse("not_now")
        if kind not in board.GOD_KINDS or kind not in self.gods_on_board(seat):
            raise self._refuse("bad_deck")
        if n is None or n < 1 or s.turn.bought + n > 4 or n > len(m.piles[kind]):
            raise self._refuse("bad_count")
        if p.faith < cost * n:
            raise self._refuse("no_faith")
        p.faith -= cost * n
        s.turn.bought += n
        for _ in range(n):
            m.unread[seat].append(m.piles[kind].pop(0))
        self._sync(seat)
        self._emit(ev.CardsBought(type="cards_bought", seat=seat, kind=kind, count=n, cost=cost * n))
        self._settle()

    def _read_cards(self, seat: int) -> None:
        """Bought cards are read only after all purchases: relics enter play, the others join the hand."""
        m = self.mir
        if not m.unread[seat]:
            return
        cards, m.unread[seat] = m.unread[seat], []
        for inst in cards:
            if card_of(inst).deck == "magic":
                m.relics[seat].append(inst)
                self._emit(ev.RelicInPlay(type="relic_in_play", seat=seat, card=inst))
            else:
                m.hands[seat].append(inst)
        self._emit(ev.CardsRead(type="cards_read", to=[seat], cards=[c for c in cards if card_of(c).deck != "magic"]))
        self._sync(seat)

    def _advance_step(self) -> bool:
        if self.s.mir is not None and self.s.step == "cards":
            self._read_cards(self.current_seat)
        return super()._advance_step()

    def _end_turn_effects(self) -> None:
        m = self.s.mir
        if m is not None:
            seat = self.current_seat
            self._read_cards(seat)
            if m.forced is not None and m.forced in m.hands[seat]:
                self._discard(seat, m.forced)
            m.forced = None
        super()._end_turn_effects()

    def _discard(self, seat: int, inst: str) -> None:
        m = self.mir
        m.hands[seat].remove(inst)
        m.gone.append(inst)
        self._emit(ev.CardDiscarded(type="card_discarded", seat=seat, card=inst))
        self._sync(seat)

    def _eliminate(self, seat: int, by: int) -> None:
        m = self.s.mir
        if m is not None:
            m.gone.extend(m.hands[seat] + m.unread[seat] + m.relics[seat])
            m.hands[seat], m.unread[seat], m.relics[seat] = [], [], []
            m.windows = [w for w in m.windows if w.kind != "sky" or w.seats[:1] != [seat]]
            for w in m.windows:
                if seat in w.seats:
                    w.seats.remove(seat)
        super()._eliminate(seat, by)
        if m is not None:
            self._sync(seat)

    # ---- relics -------------------------------------------------------------------------
    def _relic_turn_start(self, seat: int) -> None:
        m = self.s.mir
        if m is None:
            return
        m.bonus, m.sacred, m.invasion, m.book, m.forced, m.pick = {}, [], None, False, None, None
        for inst in list(m.relics[seat]):
            rel = card_of(inst).relic
            start = rel.get("start")
            if start == "draw":
                self._draw_miracle(seat, rel["deck"], "relic")
            elif start == "armies":
                self.s.pending += int(rel["n"])
                self._emit(ev.RelicArmies(type="relic_armies", seat=seat, card=inst, n=int(rel["n"])))
            elif start == "armies_per_continent":
                n = int(rel["n"]) * len(board.continents_held(self.owned(seat)))
                if n:
                    self.s.pending += n
                    self._emit(ev.RelicArmies(type="relic_armies", seat=seat, card=inst, n=n))
            elif start == "faith":
                self.s.players[seat].faith += int(rel["n"])
                self._emit(ev.RelicFaith(type="relic_faith", seat=seat, card=inst, n=int(rel["n"])))
            elif start == "pandora" and self._draw_miracle(seat, "death", "relic"):
                drawn = m.hands[seat][-1]
                if self._card_plays(seat, drawn, forced=True):
                    m.forced = drawn
                else:
                    self._discard(seat, drawn)

    def _relic_points(self, seat: int) -> int:
        m = self.s.mir
        if m is None:
            return 0
        return sum(1 for r in m.relics[seat] if (t := card_of(r).territory) and self.s.terr[t].owner == seat)

    def _godswar_bonus(self, seat: int) -> int:
        m = self.s.mir
        if m is None or seat < 0:
            return 0
        return self._relic_value(seat, "godswar_bonus") + m.bonus.get(str(seat), 0)

    def _godswar_reroll(self, seat: int) -> bool:
        return seat >= 0 and self.has_relic(seat, "godswar_reroll")

    def _bid_bonus(self, seat: int) -> int:
        return self._relic_value(seat, "bid")

    def _crypt_revive(self, seat: int) -> int:
        return 2 if self.has_relic(seat, "crypt") else 1

    def _spare_defenders(self, owner: int, losses: int) -> int:
        """The Tree of Life: 1 faith instead of each defending army lost (used whenever the owner has faith)."""
        if losses <= 0 or owner < 0 or not self.has_relic(owner, "tree"):
            return losses
        p = self.s.players[owner]
        spared = min(losses, p.faith)
        if spared:
            p.faith -= spared
            self._emit(ev.TreeOfLife(type="tree_of_life", seat=owner, n=spared))
        return losses - spared

    def _act_book(self, seat: int, a: BookOfTheDeadAction) -> None:
        m = self.mir
        s = self.s
        if s.step != "raise" or m.book or not self.has_relic(seat, "book") or s.pending < 2:
            raise self._refuse("not_now")
        m.book = True
        s.pending -= 2
        s.players[seat].faith += 4
        self._emit(ev.BookOfTheDead(type="book_of_the_dead", seat=seat))
        self._settle()

    def _act_place(self, seat: int, a: PlaceAction) -> None:
        if self.s.mir is not None and self.s.mir.forced is not None:
            raise self._refuse("play_forced")
        super()._act_place(seat, a)

    def _step_actions(self, seat: int) -> list[Action]:
        m = self.s.mir
        if m is None:
            return super()._step_actions(seat)
        if m.forced is not None:
            return self._card_plays(seat, m.forced, forced=True)
        acts = super()._step_actions(seat)
        s = self.s
        if s.step == "raise" and not m.book and s.pending >= 2 and self.has_relic(seat, "book"):
            acts = acts + [{"type": "book_of_the_dead"}]
        return acts  # "never answer" is a standing action now, settable any time (``standing_actions``)

    def _settle(self) -> None:
        m = self.s.mir
        if m is not None and (m.windows or m.pick is not None):
            return  # an answer or a pick is awaited first; the turn moves on after it
        super()._settle()

    # ---- playing ------------------------------------------------------------------------
    def _miracle_actions(self, seat: int) -> list[Action]:
        m = self.s.mir
        if m is None:
            return []
        out: list[Action] = []
        seen: set[str] = set()
        for inst in m.hands[seat]:
            c = card_of(inst)
            if c.timing == "turn" and c.id not in seen:
                seen.add(c.id)
                out += self._card_plays(seat, inst)
        return out

    def _card_plays(self, seat: int, inst: str, forced: bool = False, w: Window | None = None) -> list[Action]:
        """The legal plays of one card instance (same card, same list for every copy)."""
        c = card_of(inst)
        if not forced:
            if c.deck not in self.gods_on_board(seat) or self.s.players[seat].faith < c.cost:
                return []
        return [{"type": "play_card", "card": c.id, **args} for args in self._target_args(seat, c, w, listing=True)]

    def _window(self) -> Window | None:
        m = self.s.mir
        return m.windows[-1] if m is not None and m.windows else None

    def _act_play_card(self, seat: int, a: PlayCardAction) -> None:
        m = self.mir
        s = self.s
        cid = a.get("card")
        if not isinstance(cid, str) or cid not in CARDS:
            raise self._refuse("bad_card")
        c = CARDS[cid]
        w = self._window()
        forced = False
        if w is not None:
            if w.kind != "sky" or w.seats[:1] != [seat] or c.timing != "attacked":
                raise self._refuse("not_now")
        elif m.forced is not None and s.current == seat:
            if card_of(m.forced).id != cid:
                raise self._refuse("play_forced")
            forced = True
        elif s.current != seat or s.step != "miracle" or c.timing != "turn":
            raise self._refuse("not_now")
        inst = m.forced if forced else next((i for i in m.hands[seat] if card_of(i).id == cid), None)
        if inst is None:
            raise self._refuse("no_card")
        if not forced and c.deck not in self.gods_on_board(seat):
            raise self._refuse("no_god")
        cost = 0 if forced else c.cost
        if s.players[seat].faith < cost:
            raise self._refuse("no_faith")
        args = {k: v for k, v in a.items() if k not in ("type", "card")}
        if not self._valid_args(seat, c, w, args):
            raise self._refuse("bad_card_target")
        s.players[seat].faith -= cost
        m.hands[seat].remove(inst)
        if forced:
            m.forced = None
        self._sync(seat)
        self._emit(ev.CardPlayed(type="card_played", seat=seat, card=inst, cost=cost, args=dict(args)))
        holders = [i for i in self._order_from(seat) if i != seat and self.has_relic(i, "aegis") and not m.never[i]]
        if holders:
            m.windows.append(Window("aegis", holders, None if w is None else w.src, None if w is None else w.dst,
                                    card=inst, by=seat, args=dict(args)))
            self._emit(ev.WindowOpen(type="window_open", kind="aegis", seat=holders[0], card=inst))
            return
        self._finish_play(seat, inst, args, w)

    def _order_from(self, seat: int) -> list[int]:
        n = len(self.s.players)
        return [(seat + k) % n for k in range(n) if not self.s.players[(seat + k) % n].eliminated]

    def _finish_play(self, seat: int, inst: str, args: JSON, w: Window | None) -> None:
        """Resolve a played card, put it out of the game, and go on with what was waiting."""
        m = self.mir
        m.gone.append(inst)
        stop = self._resolve(seat, card_of(inst), args, w)
        self._after_card(w, stop)

    def _after_card(self, w: Window | None, stop: bool = False) -> None:
        s = self.s
        if s.outcome is not None:
            return
        if w is not None and w in self.mir.windows:
            seat = w.seats[0]
            if stop:
                self.mir.windows.remove(w)
                self._emit(ev.InvasionStopped(type="invasion_stopped", seat=s.current, frm=w.src, dst=w.dst))
                self._settle()
            elif not self._sky_answers(seat, w):
                self.mir.windows.remove(w)
                self._resume_attack(w)
            return
        self._settle()

    # ---- response windows ---------------------------------------------------------------
    def _can_answer_sky(self, seat: int) -> bool:
        m = self.mir
        p = self.s.players[seat] if seat >= 0 else None
        return (p is not None and not p.eliminated and not m.never[seat] and p.faith >= SKY_MIN_COST
                and "sky" in self.gods_on_board(seat) and any(card_of(i).deck == "sky" for i in m.hands[seat]))

    def _sky_window(self, seat: int, src: str, dst: str, dice: int, until: int | None) -> bool:
        m = self.s.mir
        if m is None or dst not in self.s.terr or src not in self.s.terr:
            return False
        if m.invasion == [src, dst]:
            return False
        m.invasion = [src, dst]
        dfd = self.s.terr[dst].owner
        if dfd is None or dfd == NEUTRAL or not self._can_answer_sky(dfd):
            return False
        w = Window("sky", [dfd], src, dst, dice, until)
        m.windows.append(w)
        self._emit(ev.WindowOpen(type="window_open", kind="sky", seat=dfd, frm=src, dst=dst))
        return True

    def _sky_answers(self, seat: int, w: Window) -> list[Action]:
        m = self.mir
        if not self._can_answer_sky(seat):
            return []
        out: list[Action] = []
        seen: set[str] = set()
        for inst in m.hands[seat]:
            c = card_of(inst)
            if c.deck == "sky" and c.id not in seen:
                seen.add(c.id)
                out += self._card_plays(seat, inst, w=w)
        return out

    def window_actors(self) -> list[int]:
        w = self._window()
        return [] if w is None or not w.seats else [w.seats[0]]

    def window_legal(self, seat: int) -> list[Action]:
        w = self._window()
        if w is None or w.seats[:1] != [seat]:
            return []
        out = self._sky_answers(seat, w) if w.kind == "sky" else [{"type": "cancel_card"}]
        return out + [{"type": "no_answer"}, {"type": "no_answer", "never": True}]

    def _act_no_answer(self, seat: int, a: NoAnswerAction) -> None:
        m = self.mir
        w = self._window()
        if w is None or w.seats[:1] != [seat]:
            raise self._refuse("not_now")
        if a.get("never") is True:
            m.never[seat] = True
            self._emit(ev.AnswerPref(type="answer_pref", to=[seat], never=True))
        w.seats.pop(0)
        self._emit(ev.NoAnswer(type="no_answer", seat=seat, kind=w.kind))
        if w.kind == "sky":
            m.windows.pop()
            self._resume_attack(w)
            return
        if w.seats:
            self._emit(ev.WindowOpen(type="window_open", kind="aegis", seat=w.seats[0], card=w.card))
            return
        m.windows.pop()
        assert w.card is not None and w.by is not None, "an Aegis window holds the card played"
        self._finish_play(w.by, w.card, w.args, self._window())

    def _act_cancel_card(self, seat: int, a: CancelCardAction) -> None:
        m = self.mir
        w = self._window()
        if w is None or w.kind != "aegis" or w.seats[:1] != [seat]:
            raise self._refuse("not_now")
        aegis = next(r for r in m.relics[seat] if "aegis" in card_of(r).relic)
        m.relics[seat].remove(aegis)
        m.gone.append(aegis)
        assert w.card is not None
        m.gone.append(w.card)
        m.windows.pop()
        self._emit(ev.CardCancelled(type="card_cancelled", seat=seat, card=w.card, by=w.by, aegis=aegis))
        self._after_card(self._window())

    def _act_answer_pref(self, seat: int, a: AnswerPrefAction) -> None:
        never = a.get("never")
        if not isinstance(never, bool):
            raise self._refuse("bad_action")
        self.mir.never[seat] = never
        self._emit(ev.AnswerPref(type="answer_pref", to=[seat], never=never))

    def _resume_attack(self, w: Window) -> None:
        """The attack the window held: rolled now (at least once) unless its armies can no longer attack."""
        s = self.s
        seat = self.current_seat
        src, dst = w.src, w.dst
        assert src is not None and dst is not None
        if (s.terr[src].owner != seat or s.terr[src].armies < 2 or s.terr[dst].owner in (None, seat)
                or dst not in self._targets(seat, src)):
            self._emit(ev.AttackCalledOff(type="attack_called_off", seat=seat, frm=src, dst=dst))
            self._settle()
            return
        dice = min(w.dice, s.terr[src].armies - 1)
        if w.until is None or self._godswar_due(src, dst):
            self._fight(seat, src, dst, dice)
        else:
            self._fight_until(seat, src, dst, dice, w.until)

    def pick_actors(self) -> list[int]:
        m = self.s.mir
        return [] if m is None or m.pick is None else [int(m.pick["seat"])]

    def pick_legal(self, seat: int) -> list[Action]:
        m = self.s.mir
        if m is None or m.pick is None or m.pick["seat"] != seat:
            return []
        ids = sorted({card_of(i).id for i in m.hands[int(m.pick["from"])]})
        return [{"type": "take_card", "card": c} for c in ids]

    def _act_take_card(self, seat: int, a: TakeCardAction) -> None:
        m = self.mir
        if m.pick is None or m.pick["seat"] != seat:
            raise self._refuse("not_now")
        other = int(m.pick["from"])
        inst = next((i for i in m.hands[other] if card_of(i).id == a.get("card")), None)
        if inst is None:
            raise self._refuse("bad_card")
        m.hands[other].remove(inst)
        m.hands[seat].append(inst)
        m.pick = None
        self._sync(other)
        self._sync(seat)
        self._emit(ev.CardTaken(type="card_taken", seat=seat, frm=other, kind=card_of(inst).deck))
        self._emit(ev.CardPrivate(type="card_private", to=[seat, other], card=inst))
        self._settle()

    # ---- targets ------------------------------------------------------------------------
    def _target_args(self, seat: int, c: Card, w: Window | None, listing: bool) -> list[JSON]:
        """Every choice of target for ``c`` (counts sampled when ``listing``)."""
        s = self.s
        m = self.mir
        kind = c.target
        terr = s.terr
        live = [t for t in board.TERR_IDS if not (m.sunk and t in ATLANTIS)]
        own = [t for t in live if terr[t].owner == seat]
        others = [i for i in self.active_seats() if i != seat]
        src = None if w is None else w.src
        dst = None if w is None else w.dst
        if kind is None:
            return [{}]
        if kind == "seat_with_cards":
            return [{"seat": i} for i in others if m.hands[i]]
        if kind == "own":
            return [{"territory": t} for t in own]
        if kind == "own_temple":
            return [{"territory": t} for t in own if terr[t].temple]
        if kind == "own_no_temple":
            if self.temples_on_board() >= data.TEMPLES:
                return []
            return [{"territory": t} for t in own if not terr[t].temple]
        if kind == "held":
            return [{"territory": t} for t in live if terr[t].owner is not None]
        if kind == "plague":
            return [{"territory": t} for t in live if terr[t].plague]
        if kind == "other_single":
            return [{"territory": t} for t in live if (o := terr[t].owner) is not None and o >= 0 and o != seat
                    and terr[t].armies == 1]
        if kind == "no_mark":
            if sum(1 for v in terr.values() if v.plague) >= PLAGUE_MARKERS:
                return []
            return [{"territory": t} for t in live if not terr[t].temple and not terr[t].plague]
        if kind == "temple_any":
            return [{"territory": t} for t in live if terr[t].temple]
        if kind == "other_relic":
            return [{"relic": card_of(r).id, "seat": i} for i in others for r in m.relics[i]]
        if kind == "any_relic":
            return [{"relic": card_of(r).id, "seat": i} for i in self.active_seats() for r in m.relics[i]]
        if kind == "two_decks":
            ks = [k for k in board.GOD_KINDS if m.piles[k]]
            return [{"deck": a, "deck2": b} for i, a in enumerate(ks) for b in ks[i:]
                    if a != b or len(m.piles[a]) >= 2]
        if kind == "epoch_back":
            return [{}] if (s.epoch or 0) >= 2 else []
        if kind == "atlantis":
            return [] if m.sunk else [{}]
        if kind == "sea_link":
            if m.maelstrom is not None:
                return []
            return [{"a": x, "b": y} for x, y in SEA_LINKS if not (m.sunk and (x in ATLANTIS or y in ATLANTIS))]
        if kind == "siren_pair":
            out: list[JSON] = []
            for i in others:
                mine = [t for t in live if terr[t].owner == i]
                out += [{"a": x, "b": y} for x, y in combinations(mine, 2)]
            return out
        if kind == "temple_pair":
            out = []
            for t in live:
                o = terr[t].owner
                if terr[t].temple and o is not None and o >= 0:
                    out += [{"from": t, "to": u} for u in live if u != t and terr[u].owner == o and not terr[u].temple]
            return out
        if kind == "largest3":
            return self._largest3(live, listing)
        if kind == "own_move":
            out = []
            for a in own:
                v = terr[a]
                movable = v.armies - 1
                if movable <= 0 and not v.gods:
                    continue
                counts = sorted({1, movable}) if listing and movable > 0 else list(range(1, movable + 1))
                for b in own:
                    if b == a:
                        continue
                    out += [{"from": a, "to": b, "count": n, "gods": []} for n in counts]
                    if v.gods:
                        out.append({"from": a, "to": b, "count": max(0, movable), "gods": sorted(v.gods)})
            return out
        if kind == "dead_walk":
            temples = [t for t in own if terr[t].temple]
            out = []
            for sp in board.SPACE_IDS:
                u = s.uw[sp]
                if u.owner == seat and u.armies >= 2:
                    hi = min(6, u.armies - 1)
                    counts = small_counts(hi) if listing else list(range(1, hi + 1))
                    out += [{"space": sp, "to": t, "count": n} for t in temples for n in counts]
            return out
        # answers to an attack: the window names the attacking and defending territories
        if src is None or dst is None:
            return []
        if kind == "attacking_god":  # «a god of your choice from the attacking territory»: held-back gods too
            return [{"god": g} for g in sorted(terr[src].gods)]
        if kind == "fog":
            out = []
            for t in own:
                if t == dst or terr[t].armies < 2:
                    continue
                hi = min(4, terr[t].armies - 1)
                counts = small_counts(hi) if listing else list(range(1, hi + 1))
                out += [{"from": t, "count": n} for n in counts]
            return out
        if kind == "meek":
            att = terr[src].owner
            temples = [t for t in live if terr[t].owner == att and terr[t].temple and t != src]
            return [{"god": g, "to": t} for g in sorted(terr[src].gods) for t in temples]
        if kind == "defending_no_temple":
            return [] if terr[dst].temple or self.temples_on_board() >= data.TEMPLES else [{}]
        raise ValueError(f"unknown target kind {kind!r}")

    def _largest3(self, live: list[str], listing: bool) -> list[JSON]:
        terr = self.s.terr
        held = sorted((t for t in live if terr[t].owner is not None and terr[t].armies > 0),
                      key=lambda t: -terr[t].armies)
        if len(held) < 3:
            return [{"territories": sorted(held)}] if held else []
        third = terr[held[2]].armies
        sure = [t for t in held if terr[t].armies > third]
        tied = sorted(t for t in held if terr[t].armies == third)
        out = []
        for combo in combinations(tied, 3 - len(sure)):
            out.append({"territories": sorted(sure + list(combo))})
            if listing and len(out) >= 20:
                break
        return out

    def _valid_args(self, seat: int, c: Card, w: Window | None, args: JSON) -> bool:
        if c.target == "largest3":
            ts = args.get("territories")
            if not isinstance(ts, list) or len(args) != 1 or not all(isinstance(x, str) for x in ts):
                return False
            live = [t for t in board.TERR_IDS if not (self.mir.sunk and t in ATLANTIS)]
            return {"territories": sorted(ts)} in self._largest3(live, listing=False) and len(set(ts)) == len(ts)
        if "count" in args:
            n = as_int(args["count"])
            if n is None:
                return False
            args["count"] = n
        if c.target == "two_decks" and args.get("deck") in board.GOD_KINDS and args.get("deck2") in board.GOD_KINDS:
            pair = sorted((args["deck"], args["deck2"]), key=board.GOD_KINDS.index)
            args["deck"], args["deck2"] = pair
        if c.target in ("own_move", "fog", "dead_walk"):
            return self._valid_move(seat, c.target, w, args)
        return args in self._target_args(seat, c, w, listing=False)

    def _valid_move(self, seat: int, kind: str | None, w: Window | None, args: JSON) -> bool:
        """Moves take any count in range (the lists offer a few): checked here rather than enumerated."""
        s = self.s
        n = args.get("count")
        if not isinstance(n, int):
            return False
        if kind == "dead_walk":
            if (set(args) != {"space", "to", "count"} or not isinstance(args["space"], str)
                    or not isinstance(args["to"], str) or args["space"] not in s.uw):
                return False
            u = s.uw[args["space"]]
            rise_to = str(args["to"])
            return (u.owner == seat and 1 <= n <= min(6, u.armies - 1) and rise_to in s.terr
                    and s.terr[rise_to].owner == seat and s.terr[rise_to].temple)
        src, to = args.get("from"), args.get("to")
        if kind == "fog":
            if (set(args) != {"from", "count"} or w is None or w.dst is None or not isinstance(src, str)
                    or src == w.dst or src not in s.terr):
                return False
            return s.terr[src].owner == seat and 1 <= n <= min(4, s.terr[src].armies - 1)
        gods = args.get("gods")
        if set(args) != {"from", "to", "count", "gods"} or not isinstance(gods, list):
            return False
        if not all(isinstance(g, str) for g in gods) or not isinstance(src, str) or not isinstance(to, str):
            return False
        if src not in s.terr or to not in s.terr or src == to:
            return False
        v = s.terr[src]
        if v.owner != seat or s.terr[to].owner != seat:
            return False
        if len(set(gods)) != len(gods) or any(g not in v.gods for g in gods):
            return False
        args["gods"] = sorted(gods)
        return 0 <= n <= v.armies - 1 and (n > 0 or bool(gods))

    # ---- effects ------------------------------------------------------------------------
    def _resolve(self, seat: int, c: Card, args: JSON, w: Window | None) -> bool:
        """Apply the card's ops in order; True when the card stops the invasion (This Ground Is Sacred)."""
        stop = False
        for op in c.effect:
            if self.s.outcome is not None:
                break
            stop = self._op(seat, op, args, w) or stop
        return stop

    def _val(self, v: Any, args: JSON) -> Any:
        return args[v[1:]] if isinstance(v, str) and v.startswith("$") and "+" not in v else v

    def _where(self, seat: int, sel: Any, args: JSON, w: Window | None) -> list[str]:
        s = self.s
        if isinstance(sel, list):
            return list(sel)
        assert isinstance(sel, str)
        if sel.startswith("$"):
            base, _, extra = sel[1:].partition("+")
            val = args[base]
            ts = list(val) if isinstance(val, list) else [val]
            return ts + ([n for n in self.neighbours(ts[0])] if extra == "adjacent" else [])
        src = None if w is None else w.src
        dst = None if w is None else w.dst
        if sel == "@attacking":
            return [src] if src else []
        if sel == "@defending":
            return [dst] if dst else []
        if sel == "@attacking+adjacent":
            return [src, *self.neighbours(src)] if src else []
        if sel == "@own_temples":
            return self.temples_of(seat)
        if sel == "@with_gods":
            return [t for t in board.TERR_IDS if s.terr[t].gods]
        if sel == "@over_one":
            return [t for t in board.TERR_IDS if s.terr[t].armies > 1]
        if sel == "@random_continent":
            conts = sorted(c for c in board.CONTINENTS if not (self.mir.sunk and set(board.CONTINENTS[c]) <= set(ATLANTIS)))
            cont = self.rng.choice(conts)
            self._emit(ev.ContinentDrawn(type="continent_drawn", continent=cont))
            return list(board.CONTINENTS[cont])
        raise ValueError(f"unknown selector {sel!r}")

    def _op(self, seat: int, op: JSON, args: JSON, w: Window | None) -> bool:
        s = self.s
        m = self.mir
        name = op["op"]
        if name == "gain":
            for t in self._where(seat, op["where"], args, w):
                n = op["n"]
                if n == "die":
                    n = self.rng.dice(1)[0]
                    self._emit(ev.Die(type="die", seat=seat, value=n))
                elif n == "half_faith":
                    n = s.players[seat].faith // 2
                self._gain(seat, t, int(n))
        elif name == "destroy":
            to_reserve = op.get("to") == "reserve"
            for t in self._where(seat, op["where"], args, w):
                v = s.terr[t]
                n = op["n"]
                if n in ("die", "die_each"):
                    n = self.rng.dice(1)[0]
                    self._emit(ev.Die(type="die", seat=seat, value=n, territory=t))
                elif n == "half":
                    n = v.armies // 2
                elif n == "all":
                    n = v.armies
                elif n == "per_god":
                    n = len(v.gods)
                self._destroy(t, int(n), to_reserve)
        elif name == "faith":
            n = int(op["n"]) * len(self.temples_of(seat))
            s.players[seat].faith += n
            self._emit(ev.FaithGained(type="faith_gained", seat=seat, n=n))
        elif name == "temple":
            t = self._where(seat, op["where"], args, w)[0]
            s.terr[t].temple = True
            self._emit(ev.TemplePlaced(type="temple_placed", seat=seat, territory=t))
        elif name == "temple_destroy":
            t = args["territory"]
            s.terr[t].temple = False
            self._emit(ev.TempleDestroyed(type="temple_destroyed", seat=seat, territory=t))
        elif name == "temple_move":
            s.terr[args["from"]].temple = False
            s.terr[args["to"]].temple = True
            self._emit(ev.TempleMoved(type="temple_moved", seat=seat, frm=args["from"], dst=args["to"]))
        elif name == "draw":
            self._draw_miracle(seat, self._val(op["deck"], args), "card")
        elif name == "look_take":
            other = int(args["seat"])
            if m.hands[other]:
                m.pick = {"seat": seat, "from": other}
                self._emit(ev.HandShown(type="hand_shown", to=[seat], seat=other, cards=list(m.hands[other])))
        elif name == "swap":
            a, b = s.terr[args["a"]], s.terr[args["b"]]
            a.armies, b.armies = b.armies, a.armies
            a.gods, b.gods = b.gods, a.gods
            self._emit(ev.Swapped(type="swapped", seat=seat, a=args["a"], b=args["b"]))
            for tid in (args["a"], args["b"]):  # gods carried into a plagued land are banished there
                if s.terr[tid].plague and s.terr[tid].gods:
                    self._banish_all(tid, "plague")
        elif name == "move":
            src = args["from"]
            dst = self._where(seat, op["to"], args, w)[0]
            n = int(args["count"])
            gods = list(args.get("gods") or [])
            s.terr[src].armies -= n
            s.terr[dst].armies += n
            for g in gods:
                s.terr[src].gods.remove(g)
                s.terr[dst].gods.append(g)
            self._emit(ev.CardMoved(type="card_moved", seat=seat, frm=src, dst=dst, count=n, gods=gods))
            if gods and s.terr[dst].plague:  # gods carried into a plagued land are banished there
                self._banish_all(dst, "plague")
        elif name == "move_god":
            src = self._where(seat, op["from"], args, w)[0]
            g, dst = args["god"], args["to"]
            s.terr[src].gods.remove(g)
            s.terr[dst].gods.append(g)
            # the card's player moves it (The Mighty Turn Meek: the defender); ``owner`` names whose god it is
            self._emit(ev.CardMoved(type="card_moved", seat=seat, owner=s.terr[src].owner, frm=src, dst=dst, count=0, gods=[g]))
            if s.terr[dst].plague:
                self._banish_all(dst, "plague")
        elif name == "epoch_back":
            s.epoch = (s.epoch or 1) - 1
            self._emit(ev.EpochBack(type="epoch_back", seat=seat, epoch=s.epoch))
        elif name == "unplague":
            s.terr[args["territory"]].plague = False
            self._emit(ev.PlagueRemoved(type="plague_removed", territory=args["territory"]))
        elif name == "plague":
            t = args["territory"]
            v = s.terr[t]
            v.plague = True
            self._emit(ev.PlaguePlaced(type="plague_placed", territory=t))
            if v.owner is not None:
                self._destroy(t, v.armies // 2, False)
            if v.owner is not None:
                self._banish_all(t, "plague")
        elif name == "plague_move":
            src = args["territory"]
            free = [t for t in board.TERR_IDS if not s.terr[t].plague and not (m.sunk and t in ATLANTIS)]
            dst = self.rng.choice(free)
            s.terr[src].plague = False
            s.terr[dst].plague = True
            self._emit(ev.PlagueMoved(type="plague_moved", frm=src, dst=dst))
        elif name == "discard_hand":
            other = int(args["seat"])
            m.gone.extend(m.hands[other])
            n = len(m.hands[other])
            m.hands[other] = []
            self._sync(other)
            self._emit(ev.HandDiscarded(type="hand_discarded", seat=other, n=n))
        elif name == "rise":
            sp, t, n = args["space"], args["to"], int(args["count"])
            s.uw[sp].armies -= n
            s.terr[t].armies += n
            self._emit(ev.DeadRise(type="dead_rise", seat=seat, space=sp, territory=t, count=n))
        elif name == "banish_kinds":
            for t in board.TERR_IDS:
                v = s.terr[t]
                gone = [g for g in v.gods if g in op["kinds"]]
                if gone:
                    v.gods = [g for g in v.gods if g not in op["kinds"]]
                    self._emit(ev.Banished(type="banished", seat=v.owner, gods=gone, territory=t, reason="miracle"))
        elif name == "banish":
            t = self._where(seat, op["where"], args, w)[0]
            s.terr[t].gods.remove(args["god"])
            self._emit(ev.Banished(type="banished", seat=s.terr[t].owner, gods=[args["god"]], territory=t, reason="miracle"))
        elif name == "halve_underworld":
            for sp in board.SPACE_IDS:
                u = s.uw[sp]
                if board.SPACE_KIND[sp] in op["kinds"] and u.owner is not None and u.armies // 2:
                    lost = u.armies // 2
                    u.armies -= lost
                    self._casualties(u.owner, lost, to_reserve=True)
                    self._emit(ev.CardLosses(type="card_losses", seat=u.owner, territory=sp, lost=lost))
        elif name == "sink_atlantis":
            self._sink_atlantis(seat)
        elif name == "destroy_relic":
            which = op["relic"] if op["relic"] == "@all" else args["relic"]
            for i in range(len(s.players)):
                for r in list(m.relics[i]):
                    if which == "@all" or (card_of(r).id == which and i == args.get("seat")):
                        m.relics[i].remove(r)
                        m.gone.append(r)
                        self._emit(ev.RelicDestroyed(type="relic_destroyed", seat=i, card=r))
                        if which != "@all":
                            return False
        elif name == "steal_relic":
            other = int(args["seat"])
            r = next(x for x in m.relics[other] if card_of(x).id == args["relic"])
            m.relics[other].remove(r)
            m.relics[seat].append(r)
            self._emit(ev.RelicStolen(type="relic_stolen", seat=seat, frm=other, card=r))
        elif name == "trojan":
            t = args["territory"]
            v = s.terr[t]
            old = v.owner
            assert old is not None
            self._casualties(old, v.armies, to_reserve=False)
            self._emit(ev.CardLosses(type="card_losses", seat=old, territory=t, lost=v.armies))
            self._banish_all(t, "miracle")
            n = self.rng.dice(1)[0]
            self._emit(ev.Die(type="die", seat=seat, value=n, territory=t))
            v.owner = seat
            self._take(seat, n)
            v.armies = n
            self._emit(ev.Trojan(type="trojan", seat=seat, territory=t, previous=old, count=n))
            self._check_out(old)
        elif name == "maelstrom":
            m.maelstrom = sorted([args["a"], args["b"]])
            self._emit(ev.Maelstrom(type="maelstrom", seat=seat, a=m.maelstrom[0], b=m.maelstrom[1]))
        elif name == "godswar_bonus":
            m.bonus[str(seat)] = m.bonus.get(str(seat), 0) + int(op["n"])
        elif name == "sacred":
            if w is not None and w.dst is not None:
                m.sacred.append(w.dst)
            return True
        else:
            raise ValueError(f"unknown op {name!r}")
        return False

    def _gain(self, seat: int, t: str, n: int) -> None:
        v = self.s.terr[t]
        if n <= 0 or v.owner != seat:
            return
        self._take(seat, n)
        v.armies += n
        self._emit(ev.CardArmies(type="card_armies", seat=seat, territory=t, count=n))

    def _destroy(self, t: str, n: int, to_reserve: bool) -> None:
        """Armies destroyed by a miracle (to the heavens unless the card says otherwise); an emptied
        territory is held by nobody and its gods are banished; a player left with no territory is out."""
        v: Territory = self.s.terr[t]
        owner = v.owner
        lost = min(n, v.armies)
        if owner is None or lost <= 0:
            return
        v.armies -= lost
        self._casualties(owner, lost, to_reserve=to_reserve)
        self._emit(ev.CardLosses(type="card_losses", seat=owner, territory=t, lost=lost))
        if v.armies == 0:
            self._banish_all(t, "miracle")
            v.owner = None
            self._emit(ev.Emptied(type="emptied", territory=t, previous=owner))
            self._check_out(owner)

    def _check_out(self, owner: int) -> None:
        s = self.s
        if owner >= 0 and not s.players[owner].eliminated and self.owned_count(owner) == 0:
            by = s.current if s.current is not None else owner
            self._eliminate(owner, by)

    def _sink_atlantis(self, seat: int) -> None:
        s = self.s
        owners = set()
        for t in ATLANTIS:
            v = s.terr[t]
            if v.owner is not None:
                owners.add(v.owner)
                if v.armies:
                    self._casualties(v.owner, v.armies, to_reserve=False)
                self._banish_all(t, "miracle")
            v.owner, v.armies, v.temple = None, 0, False
        self.mir.sunk = True
        self._emit(ev.AtlantisSunk(type="atlantis_sunk", seat=seat, territories=list(ATLANTIS)))
        for o in sorted(owners):
            self._check_out(o)


__all__ = ["ANSWER_WINDOWS", "ATLANTIS", "CARDS", "Card", "MiracleMixin", "SEA_LINKS", "all_instances", "card_of",
           "new_miracle_state"]
