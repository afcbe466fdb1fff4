"""A player's turn: raising armies and faith, gods and temples, buying miracle cards, plague,
fortifying, descending from the heavens, the end of the turn; classic Risk card trades."""

from __future__ import annotations

from itertools import combinations

from bot.games.base import Action
from bot.games.godstorm import board, data
from bot.games.godstorm import events as ev
from bot.games.godstorm.actions import (
    BuildTempleAction,
    BuyCardsAction,
    DescendAction,
    EndAttacksAction,
    EndStepAction,
    EndTurnAction,
    FortifyAction,
    PlaceAction,
    ResurrectAction,
    SummonAction,
    TradeAction,
)
from bot.games.godstorm.core import CLASSIC_STEPS, GODSTORM_STEPS, NEUTRAL, Core, as_int
from bot.games.godstorm.state import Arrow, TurnFlags

SUMMON_COST = 3
TEMPLE_COST = 5
CARD_COST = 2
MAX_BOUGHT = 4


def set_value(index: int) -> int:
    """Armies for the ``index``-th set traded in the whole game (0-based): 4, 6, 8, 10, 12, 15, 20, 25..."""
    table = (4, 6, 8, 10, 12, 15)
    return table[index] if index < len(table) else 15 + 5 * (index - len(table) + 1)


def is_set(symbols: list[str]) -> bool:
    wild = symbols.count("wild")
    plain = [x for x in symbols if x != "wild"]
    if len(symbols) != 3:
        return False
    if wild >= 1:
        return True
    return len(set(plain)) in (1, 3)


def small_counts(maximum: int) -> list[int]:
    """Fortify/descend menu: 1, half, all (apply accepts any count)."""
    if maximum <= 0:
        return []
    return sorted({1, max(1, maximum // 2), maximum})


class TurnMixin(Core):
    # ---- turn start ---------------------------------------------------------------------
    def _start_turn(self) -> None:
        s = self.s
        seat = s.turn_order[s.turn_idx]
        p = s.players[seat]
        s.current = seat
        s.turn = TurnFlags()
        s.last = None
        s.battle = s.move = None
        s.step = "raise"
        owned = self.owned(seat)
        base = board.base_income(len(owned))
        conts = board.continents_held(owned)
        bonus = sum(board.BONUS[c] for c in conts)
        s.pending = base + bonus
        if self.godstorm:
            self._relic_turn_start(seat)
            temples = self.temples_of(seat)
            faith = base + bonus + len(temples)
            p.faith += faith
            for t in temples:
                self._take(seat, 1)
                s.terr[t].armies += 1
            self._emit(ev.Income(type="income", seat=seat, armies=base + bonus, faith=faith, temples=len(temples),
                                 continents=conts))
        else:
            self._emit(ev.Income(type="income", seat=seat, armies=base + bonus, faith=0, temples=0, continents=conts))
        self._settle()

    def _relic_turn_start(self, seat: int) -> None:
        """Hook for relics acting at the start of a turn (Golden Fleece, Wine of Eternal Life...): next issue."""

    # ---- step machine -------------------------------------------------------------------
    def _steps(self) -> tuple[str, ...]:
        return GODSTORM_STEPS if self.godstorm else CLASSIC_STEPS

    def _settle(self) -> None:
        """Advance through steps that offer nothing to do (running their automatic effects)."""
        s = self.s
        while s.phase == "turn" and s.battle is None and s.move is None and s.defend is None:
            seat = self.current_seat
            if self._step_actions(seat):
                return
            if not self._advance_step():
                return

    def _advance_step(self) -> bool:
        """Leave the current step; False when the turn ended (the next turn has been started)."""
        s = self.s
        steps = self._steps()
        i = steps.index(s.step)
        if i + 1 >= len(steps):
            self._end_turn_effects()
            return False
        s.step = steps[i + 1]
        if s.step == "plague":
            self._suffer_plague()
        elif s.step == "end":
            self._end_turn_effects()
            return False
        return True

    def _end_turn_effects(self) -> None:
        s = self.s
        seat = self.current_seat
        if self.godstorm:
            if not s.turn.plague_done:
                self._suffer_plague()
            crypts = [sp for sp in board.CRYPTS if s.uw[sp].owner == seat]
            if crypts and "death" in self.gods_on_board(seat):
                self._draw_miracle(seat, "death", "labour")
        elif s.turn.conquered > 0 and s.tdeck:
            card = s.tdeck.pop(0)
            s.players[seat].tcards.append(card)
            self._emit(ev.TcardDrawn(type="tcard_drawn", seat=seat))
            self._emit(ev.TcardPrivate(type="tcard_private", to=[seat], card=card))
        self._emit(ev.TurnEnd(type="turn_end", seat=seat))
        s.step = "end"
        self._next_turn()


    def _step_actions(self, seat: int) -> list[Action]:
        """The step's own actions (without ``end_step``/``end_turn``)."""
        s = self.s
        step = s.step
        if step == "raise":
            return self._raise_actions(seat)
        if step == "gods":
            return self._gods_actions(seat)
        if step == "cards":
            return self._buy_actions(seat)
        if step == "miracle":
            return self._miracle_actions(seat)
        if step == "invade":
            if s.pending > 0 or s.turn.forced_trade:
                return self._raise_actions(seat)
            return self._attack_actions(seat, underworld=False)
        if step == "fortify":
            return self._fortify_actions(seat)
        if step == "descend":
            return self._descend_actions(seat)
        if step == "underworld":
            return self._attack_actions(seat, underworld=True)
        return []


    def _turn_legal(self, seat: int) -> list[Action]:
        s = self.s
        acts = self._step_actions(seat)
        step = s.step
        if step in ("raise", "invade") and (s.pending > 0 or s.turn.forced_trade):
            if step == "raise" and not self._must_trade(seat):
                acts = acts + [{"type": "end_turn"}]
            return acts
        if step == "invade":
            return acts + [{"type": "end_attacks"}, {"type": "end_turn"}]
        return acts + [{"type": "end_step"}, {"type": "end_turn"}]

    # ---- raise: placement, crypt resurrection, classic trades ---------------------------
    def _must_trade(self, seat: int) -> bool:
        """Classic: 5+ cards at the start of the turn, or 6+ taken from an eliminated player."""
        if self.godstorm:
            return False
        n = len(self.s.players[seat].tcards)
        if self.s.step == "raise":
            return n >= 5
        return self.s.turn.forced_trade and n > 4

    def _raise_actions(self, seat: int) -> list[Action]:
        s = self.s
        out: list[Action] = []
        if not self.godstorm:
            out += self._trade_actions(seat)
            if self._must_trade(seat):
                return out
        if s.pending > 0:
            counts = board.count_choices(s.pending)
            out += [{"type": "place", "territory": t, "count": c} for t in sorted(self.owned(seat)) for c in counts]
        if self.godstorm and s.step == "raise":
            temples = self.temples_of(seat)
            for sp in board.CRYPTS:
                u = s.uw[sp]
                if u.owner == seat and u.armies >= 2 and sp not in s.turn.crypts_used:
                    out += [{"type": "resurrect", "space": sp, "territory": t} for t in temples]
        return out

    def _act_place(self, seat: int, a: PlaceAction) -> None:
        s = self.s
        t, n = a.get("territory"), as_int(a.get("count"))
        if s.pending <= 0 or self._must_trade(seat):
            raise self._refuse("nothing_to_place")
        if t not in s.terr or s.terr[t].owner != seat:
            raise self._refuse("bad_territory")
        if n is None or not 1 <= n <= s.pending:
            raise self._refuse("bad_count")
        self._take(seat, n)
        s.terr[t].armies += n
        s.pending -= n
        self._emit(ev.Placed(type="placed", seat=seat, territory=t, count=n))
        if s.pending == 0 and s.turn.forced_trade:
            s.turn.forced_trade = False
        self._settle()

    def _auto_place(self, seat: int) -> None:
        """Timeout/end-turn placement: one army at a time round the border territories, in name order."""
        s = self.s
        owned = self.owned(seat)
        border = sorted(t for t in owned if any(n not in owned for n in board.NEIGHBOURS[t])) or sorted(owned)
        placed: dict[str, int] = {}
        i = 0
        while s.pending > 0 and border:
            t = border[i % len(border)]
            placed[t] = placed.get(t, 0) + 1
            s.pending -= 1
            i += 1
        for t, n in placed.items():
            self._take(seat, n)
            s.terr[t].armies += n
            self._emit(ev.Placed(type="placed", seat=seat, territory=t, count=n))

    def _act_resurrect(self, seat: int, a: ResurrectAction) -> None:
        s = self.s
        sp, t = a.get("space"), a.get("territory")
        if s.step != "raise" or sp not in board.CRYPTS or sp in s.turn.crypts_used:
            raise self._refuse("bad_crypt")
        u = s.uw[sp]
        if u.owner != seat or u.armies < 2:
            raise self._refuse("bad_crypt")
        if t not in s.terr or s.terr[t].owner != seat or not s.terr[t].temple:
            raise self._refuse("bad_territory")
        n = min(self._crypt_revive(seat), u.armies - 1)
        u.armies -= n
        s.terr[t].armies += n
        s.turn.crypts_used.append(sp)
        self._emit(ev.Resurrected(type="resurrected", seat=seat, space=sp, territory=t))
        self._settle()

    def _trades_stopped(self, seat: int) -> bool:
        """After an elimination's forced trades: "as soon as your hand is down to 4, 3 or 2 cards you must
        stop trading" (the rulebook); the rest wait for the start of the next turn."""
        s = self.s
        return s.step == "invade" and s.turn.forced_trade and len(s.players[seat].tcards) <= 4

    def _bonus_choices(self, seat: int, cards: list[str] | tuple[str, ...]) -> list[str]:
        """The traded cards' territories the player holds (one of them gets +2, once a turn)."""
        if self.s.turn.match_bonus:
            return []
        owned = self.owned(seat)
        out: list[str] = []
        for c in sorted(cards):
            terr = board.CARD_TERR[c]
            if terr is not None and terr in owned and terr not in out:
                out.append(terr)
        return out

    def _trade_actions(self, seat: int) -> list[Action]:
        if self._trades_stopped(seat):
            return []
        hand = sorted(self.s.players[seat].tcards)
        out: list[Action] = []
        for c in combinations(hand, 3):
            if not is_set([board.CARD_SYMBOL[x] for x in c]):
                continue
            bonus = self._bonus_choices(seat, c)
            if len(bonus) > 1:  # the player picks which matching territory gets the +2
                out += [{"type": "trade", "cards": list(c), "bonus": b} for b in bonus]
            else:
                out.append({"type": "trade", "cards": list(c)})
        return out

    def _act_trade(self, seat: int, a: TradeAction) -> None:
        s = self.s
        p = s.players[seat]
        cards = a.get("cards")
        if (self.godstorm or not isinstance(cards, list) or len(set(cards)) != 3
                or any(c not in p.tcards for c in cards) or not is_set([board.CARD_SYMBOL[c] for c in cards])):
            raise self._refuse("bad_set")
        if (s.step not in ("raise", "invade") or (s.step == "invade" and not s.turn.forced_trade)
                or self._trades_stopped(seat)):
            raise self._refuse("not_now")
        choices = self._bonus_choices(seat, cards)
        chosen = a.get("bonus")
        if chosen is not None and chosen not in choices:
            raise self._refuse("bad_territory")
        value = set_value(s.sets_traded)
        s.sets_traded += 1
        for c in cards:
            p.tcards.remove(c)
        s.tdeck.extend(sorted(cards))
        s.pending += value
        bonus_t = chosen if chosen is not None else (choices[0] if choices else None)
        if bonus_t is not None:
            s.turn.match_bonus = True
            self._take(seat, 2)
            s.terr[bonus_t].armies += 2
        self._emit(ev.Traded(type="traded", seat=seat, cards=sorted(cards), armies=value, bonus_territory=bonus_t))
        self._settle()

    # ---- gods and temples ---------------------------------------------------------------
    def _gods_actions(self, seat: int) -> list[Action]:
        s = self.s
        p = s.players[seat]
        mine = sorted(self.owned(seat))
        out: list[Action] = []
        if p.faith >= SUMMON_COST:
            on_board = self.gods_on_board(seat)
            for kind in board.GOD_KINDS:
                if kind not in on_board:
                    out += [{"type": "summon", "god": kind, "territory": t} for t in mine if not s.terr[t].plague]
        if p.faith >= TEMPLE_COST and self.temples_on_board() < data.TEMPLES:
            out += [{"type": "build_temple", "territory": t} for t in mine if not s.terr[t].temple]
        return out

    def _act_summon(self, seat: int, a: SummonAction) -> None:
        s = self.s
        kind, t = a.get("god"), a.get("territory")
        p = s.players[seat]
        if s.step != "gods":
            raise self._refuse("not_now")
        if kind not in board.GOD_KINDS or kind in self.gods_on_board(seat):
            raise self._refuse("bad_god")
        if t not in s.terr or s.terr[t].owner != seat or s.terr[t].plague:
            raise self._refuse("bad_territory")
        if p.faith < SUMMON_COST:
            raise self._refuse("no_faith")
        p.faith -= SUMMON_COST
        s.terr[t].gods.append(kind)
        self._emit(ev.Summoned(type="summoned", seat=seat, god=kind, territory=t, cost=SUMMON_COST))
        self._settle()

    def _act_build_temple(self, seat: int, a: BuildTempleAction) -> None:
        s = self.s
        t = a.get("territory")
        p = s.players[seat]
        if s.step != "gods":
            raise self._refuse("not_now")
        if t not in s.terr or s.terr[t].owner != seat or s.terr[t].temple:
            raise self._refuse("bad_territory")
        if p.faith < TEMPLE_COST:
            raise self._refuse("no_faith")
        if self.temples_on_board() >= data.TEMPLES:
            raise self._refuse("no_temples")
        p.faith -= TEMPLE_COST
        s.terr[t].temple = True
        self._emit(ev.TempleBuilt(type="temple_built", seat=seat, territory=t, cost=TEMPLE_COST))
        self._settle()

    # ---- miracle cards ------------------------------------------------------------------
    def _buy_actions(self, seat: int) -> list[Action]:
        s = self.s
        p = s.players[seat]
        room = min(MAX_BOUGHT - s.turn.bought, p.faith // CARD_COST)
        if room <= 0:
            return []
        gods = self.gods_on_board(seat)
        out: list[Action] = []
        for kind in board.GOD_KINDS:
            if kind in gods:
                out += [{"type": "buy_cards", "deck": kind, "count": c}
                        for c in range(1, min(room, s.decks[kind]) + 1)]
        return out

    def _act_buy_cards(self, seat: int, a: BuyCardsAction) -> None:
        s = self.s
        kind, n = a.get("deck"), as_int(a.get("count"))
        p = s.players[seat]
        if s.step != "cards":
            raise self._refuse("not_now")
        if kind not in board.GOD_KINDS or kind not in self.gods_on_board(seat):
            raise self._refuse("bad_deck")
        if n is None or n < 1 or s.turn.bought + n > MAX_BOUGHT or n > s.decks[kind]:
            raise self._refuse("bad_count")
        if p.faith < CARD_COST * n:
            raise self._refuse("no_faith")
        p.faith -= CARD_COST * n
        s.turn.bought += n
        s.decks[kind] -= n
        p.cards[kind] += n
        self._emit(ev.CardsBought(type="cards_bought", seat=seat, kind=kind, count=n, cost=CARD_COST * n))
        self._settle()

    def _miracle_actions(self, seat: int) -> list[Action]:
        """Hook: War and Death cards are played here (next issue). Nothing playable yet, so the step is skipped."""
        return []

    # ---- plague -------------------------------------------------------------------------
    def _suffer_plague(self) -> None:
        s = self.s
        seat = self.current_seat
        s.turn.plague_done = True
        for t in board.TERR_IDS:
            v = s.terr[t]
            if v.owner == seat and v.plague:
                loss = v.armies // 2
                if loss:
                    v.armies -= loss
                    self._casualties(seat, loss, to_reserve=False)
                    self._emit(ev.PlagueLoss(type="plague_loss", seat=seat, territory=t, lost=loss))
                self._banish_all(t, "plague")

    # ---- fortify ------------------------------------------------------------------------
    def _fortify_actions(self, seat: int) -> list[Action]:
        s = self.s
        if s.turn.fortified:
            return []
        owned = self.owned(seat)
        out: list[Action] = []
        for a in sorted(owned):
            v = s.terr[a]
            movable = v.armies - 1
            if movable <= 0 and not (self.godstorm and v.gods):
                continue
            targets = self.connected(a, owned) if self.godstorm else {n for n in board.NEIGHBOURS[a] if n in owned}
            for b in sorted(targets):
                out += [{"type": "fortify", "from": a, "to": b, "count": c, "gods": []} for c in small_counts(movable)]
                if self.godstorm and v.gods and not s.terr[b].plague:
                    out.append({"type": "fortify", "from": a, "to": b, "count": movable, "gods": sorted(v.gods)})
        return out

    def _act_fortify(self, seat: int, a: FortifyAction) -> None:
        s = self.s
        src, dst, n = a.get("from"), a.get("to"), as_int(a.get("count"))
        gods = a.get("gods") or []
        if s.step != "fortify" or s.turn.fortified:
            raise self._refuse("not_now")
        owned = self.owned(seat)
        if src not in owned or dst not in owned or src == dst:
            raise self._refuse("bad_territory")
        ok_path = dst in self.connected(src, owned) if self.godstorm else dst in board.NEIGHBOURS[src]
        if not ok_path:
            raise self._refuse("no_path")
        v = s.terr[src]
        if not isinstance(gods, list) or len(set(gods)) != len(gods) or any(g not in v.gods for g in gods):
            raise self._refuse("bad_god")
        if gods and (not self.godstorm or s.terr[dst].plague):
            raise self._refuse("god_plague")
        if n is None or n < 0 or n > v.armies - 1 or (n == 0 and not gods):
            raise self._refuse("bad_count")
        v.armies -= n
        s.terr[dst].armies += n
        for g in gods:
            v.gods.remove(g)
            s.terr[dst].gods.append(g)
        s.turn.fortified = True
        s.last = Arrow(src, dst)
        self._emit(ev.Fortified(type="fortified", seat=seat, frm=src, dst=dst, count=n, gods=sorted(gods)))
        self._settle()

    # ---- descend from the heavens -------------------------------------------------------
    def _descend_targets(self, seat: int) -> list[str]:
        uw = self.s.uw
        return [sp for sp in board.SPACE_IDS
                if uw[sp].owner == seat or (sp in board.GATES and uw[sp].owner is None)]

    def _descend_actions(self, seat: int) -> list[Action]:
        h = self.s.players[seat].heaven
        if h <= 0:
            return []
        return [{"type": "descend", "space": sp, "count": c}
                for sp in self._descend_targets(seat) for c in small_counts(h)]

    def _act_descend(self, seat: int, a: DescendAction) -> None:
        s = self.s
        sp, n = a.get("space"), as_int(a.get("count"))
        p = s.players[seat]
        if s.step != "descend":
            raise self._refuse("not_now")
        if sp not in self._descend_targets(seat):
            raise self._refuse("bad_space")
        if n is None or not 1 <= n <= p.heaven:
            raise self._refuse("bad_count")
        p.heaven -= n
        s.uw[sp].owner = seat
        s.uw[sp].armies += n
        self._emit(ev.Descended(type="descended", seat=seat, space=sp, count=n))
        self._settle()

    # ---- ending steps -------------------------------------------------------------------
    def _act_end_step(self, seat: int, a: EndStepAction | EndAttacksAction) -> None:
        s = self.s
        if a["type"] == "end_attacks" and s.step != "invade":
            raise self._refuse("not_now")
        if a["type"] == "end_step" and s.step == "invade":
            raise self._refuse("not_now")
        if s.pending > 0 or self._must_trade(seat):
            raise self._refuse("place_first")
        if self._advance_step():
            self._settle()

    def _act_end_turn(self, seat: int, a: EndTurnAction) -> None:
        """End the turn now: unplaced armies are spread automatically, plague still strikes."""
        s = self.s
        if self._must_trade(seat):
            raise self._refuse("place_first")
        if s.pending > 0:
            self._auto_place(seat)
        s.turn.forced_trade = False
        self._end_turn_effects()


__all__ = ["TurnMixin", "set_value", "is_set", "NEUTRAL"]
