"""Setup: plague, pantheon choice, dealing or claiming territories, placement rounds, war gods and temples."""

from __future__ import annotations

from typing import Any

from bot.games.base import Action, Rng
from bot.games.godstorm import board, data
from bot.games.godstorm import events as ev
from bot.games.godstorm.actions import (
    BuildTempleAction,
    PickPantheonAction,
    PickPileAction,
    PlaceAction,
    PlaceAllAction,
    PlaceAutoAction,
    PlaceNeutralAction,
    SummonAction,
)
from bot.games.godstorm.core import NEUTRAL, Core, as_int
from bot.games.godstorm.state import Neutral, PlayerState, Space, State, Territory, TurnFlags


def roll_order(rng: Any, seats: list[int]) -> tuple[list[int], list[dict[str, Any]]]:
    """Order seats by one die each, rerolling ties among the tied seats only."""
    rolls: list[dict[str, Any]] = []

    def rank(group: list[int]) -> list[int]:
        dice = {s: rng.dice(1)[0] for s in group}
        rolls.append({str(s): d for s, d in dice.items()})
        out: list[int] = []
        for value in sorted(set(dice.values()), reverse=True):
            tied = [s for s in group if dice[s] == value]
            out.extend(tied if len(tied) == 1 else rank(tied))
        return out

    return rank(list(seats)), rolls


def starting_armies(ruleset: str, n: int) -> int:
    if ruleset == "classic":
        return data.CLASSIC_ARMIES_BY_PLAYERS.get(n, 20)
    return data.ARMIES_BY_PLAYERS[n]


def fresh_state(n: int, options: dict[str, Any], seed: int) -> State:
    ruleset = options.get("ruleset", "godstorm")
    placement = options.get("placement", "random")
    armies = starting_armies(ruleset, n)
    players = [
        PlayerState(pantheon=None,
                    colour=list(board.CLASSIC_PALETTE[i]) if ruleset == "classic" else [160, 160, 160],
                    faith=data.STARTING_FAITH if ruleset == "godstorm" else 0,
                    cards={k: 0 for k in board.GOD_KINDS}, tcards=[], heaven=0, reserve=armies, supply=armies)
        for i in range(n)
    ]
    return State(
        ruleset=ruleset,
        placement=placement,
        seed=seed,
        rng=Rng(seed),
        phase="setup",
        step="setup",
        epoch=None,
        turn_order=list(range(n)),
        turn_idx=0,
        current=None,
        players=players,
        neutral=None,
        terr={t: Territory() for t in board.TERR_IDS},
        uw={sp: Space() for sp in board.SPACE_IDS},
        decks=dict(board.DECK_SIZES),
        tdeck=[],
        sets_traded=0,
        setup_order=[],
        setup_idx=0,
        round_left=0,
        round_size=3,
        neutral_due=False,
        pending=0,
        turn=TurnFlags(begun=False),
        battle=None,
        move=None,
        last=None,
        pick_queue=[],
        positions={},
        outcome=None,
    )


class SetupMixin(Core):
    """Setup phases: ``pantheon``, ``claim``, ``setup_place``, ``setup_gods``."""

    def _setup_begin(self) -> None:
        s = self.s
        n = len(s.players)
        cards = [c for c in board.CARD_TERR if board.CARD_TERR[c] is not None]
        if self.godstorm:
            self.rng.shuffle(cards)
            plagued = [t for c in cards[: data.PLAGUES_AT_SETUP] if (t := board.CARD_TERR[c]) is not None]
            for t in plagued:
                s.terr[t].plague = True
            self._emit(ev.PlagueSet(type="plague_set", territories=sorted(plagued)))
        order, rolls = roll_order(self.rng, list(range(n)))
        s.setup_order = order
        self._emit(ev.OrderRoll(type="order_roll", rolls=rolls, order=order))
        if n == 2:
            s.neutral = Neutral(pantheon=None, heaven=0, reserve=0, supply=0,
                                   colour=list(board.NEUTRAL_CLASSIC_COLOUR))
            if self.godstorm:
                pid = self.rng.choice(list(board.PANTHEON_IDS))
                s.neutral.pantheon = pid
                s.neutral.colour = list(data.PANTHEONS[pid].colour)
                self._emit(ev.NeutralPantheon(type="neutral_pantheon", pantheon=pid))
        if self.godstorm:
            s.phase = s.step = "pantheon"
            s.setup_idx = 0
        else:
            self._deal()

    # ---- pantheon choice ----------------------------------------------------------------
    def _free_pantheons(self) -> list[str]:
        taken = {p.pantheon for p in self.s.players}
        if self.s.neutral:
            taken.add(self.s.neutral.pantheon)
        return [p for p in board.PANTHEON_IDS if p not in taken]

    def _act_pick_pantheon(self, seat: int, a: PickPantheonAction) -> None:
        pid = a.get("pantheon")
        if pid not in self._free_pantheons():
            raise self._refuse("bad_pantheon")
        p = self.s.players[seat]
        p.pantheon = pid
        p.colour = list(data.PANTHEONS[pid].colour)
        self._emit(ev.PantheonPicked(type="pantheon_picked", seat=seat, pantheon=pid))
        self.s.setup_idx += 1
        if self.s.setup_idx >= len(self.s.players):
            self._deal()

    # ---- territories --------------------------------------------------------------------
    def _put(self, owner: int, tid: str, n: int) -> None:
        self._take(owner, n)
        v = self.s.terr[tid]
        v.owner = owner
        v.armies += n

    def _deal(self) -> None:
        s = self.s
        order = s.setup_order
        cards = [board.CARD_TERR[c] for c in board.CARD_TERR if board.CARD_TERR[c] is not None]
        self.rng.shuffle(cards)
        if s.neutral is not None:
            piles = [cards[0:14], cards[14:28], cards[28:42]]
            per = 3 if self.godstorm else 1
            s.neutral.reserve = s.neutral.supply = 14 * per if self.godstorm else 30
            if s.placement == "random" and s.piles is not None:
                # «Перетасуйте колоду территорий и раздайте на три равные стопки. Оба вы и ваш оппонент
                # выбирают разные стопки. Оставшаяся стопка – нейтральная.»
                s.piles = [sorted(str(t) for t in p) for p in piles]
                s.phase = s.step = "pile"
                s.setup_idx = 0
                self._emit(ev.PilesDealt(type="piles_dealt"))
                return
            for t in piles[2]:
                self._put(NEUTRAL, str(t), per)
            if s.placement == "random":
                for i, seat in enumerate(order):
                    for t in piles[i]:
                        self._put(seat, str(t), 1)
        elif s.placement == "random":
            for i, t in enumerate(cards):
                self._put(order[i % len(order)], str(t), 1)
        if s.placement == "random":
            self._emit(ev.Dealt(type="dealt"))
            self._start_rounds()
        else:
            s.phase = s.step = "claim"
            s.setup_idx = 0

    def _free_piles(self) -> list[int]:
        piles = self.s.piles or []
        return [i for i, p in enumerate(piles) if self.s.terr[p[0]].owner is None]

    def _act_pick_pile(self, seat: int, a: PickPileAction) -> None:
        s = self.s
        i = a.get("pile")
        if not isinstance(i, int) or isinstance(i, bool) or i not in self._free_piles():
            raise self._refuse("bad_action")
        assert s.piles is not None
        for t in s.piles[i]:
            self._put(seat, t, 1)
        self._emit(ev.PilePicked(type="pile_picked", seat=seat, pile=i + 1, territories=list(s.piles[i])))
        s.setup_idx += 1
        if s.setup_idx < len(s.setup_order):
            return
        per = 3 if self.godstorm else 1
        for j in self._free_piles():
            for t in s.piles[j]:
                self._put(NEUTRAL, t, per)
        s.piles = None
        self._emit(ev.Dealt(type="dealt"))
        self._start_rounds()

    def _empty_territories(self) -> list[str]:
        return [t for t in board.TERR_IDS if self.s.terr[t].owner is None]

    def _setup_seat(self) -> int:
        order = self.s.setup_order
        return order[self.s.setup_idx % len(order)]

    def _act_claim(self, seat: int, a: PlaceAction) -> None:
        t = a.get("territory")
        if t not in self.s.terr or self.s.terr[t].owner is not None or as_int(a.get("count", 1)) != 1:
            raise self._refuse("bad_territory")
        self._put(seat, t, 1)
        self._emit(ev.Claimed(type="claimed", seat=seat, territory=t))
        self.s.setup_idx += 1
        if not self._empty_territories():
            self._start_rounds()

    def _start_rounds(self) -> None:
        s = self.s
        if self.godstorm:
            s.round_size = 3
        elif s.neutral is not None:
            s.round_size = 2
        else:
            s.round_size = 1 if s.placement == "choose" else 3
        s.phase = s.step = "setup_place"
        s.setup_idx = -1
        self._next_round_seat()

    def _next_round_seat(self) -> None:
        """Move to the next seat that still has armies to place, or finish placement."""
        s = self.s
        order = s.setup_order
        for _ in range(len(order)):
            s.setup_idx = (s.setup_idx + 1) % len(order)
            seat = order[s.setup_idx]
            left = s.players[seat].reserve
            if left > 0:
                s.round_left = min(s.round_size, left)
                return
        self._finish_placement()

    def _act_setup_place(self, seat: int, a: PlaceAction) -> None:
        t, n = a.get("territory"), as_int(a.get("count"))
        if t not in self.s.terr or self.s.terr[t].owner != seat:
            raise self._refuse("bad_territory")
        if n is None or not 1 <= n <= self.s.round_left:
            raise self._refuse("bad_count")
        self._put(seat, t, n)
        self._emit(ev.Placed(type="placed", seat=seat, territory=t, count=n))
        self.s.round_left -= n
        if self.s.round_left == 0:
            neutral = self.s.neutral
            if not self.godstorm and neutral is not None and neutral.reserve > 0:
                self.s.neutral_due = True
            else:
                self._next_round_seat()

    def _act_setup_place_all(self, seat: int, a: PlaceAllAction) -> None:
        """House convenience (issue 13): every army the seat has still to place goes on one of its
        territories at once, instead of round after round; the other seats go on placing in rounds."""
        t = a.get("territory")
        if t not in self.s.terr or self.s.terr[t].owner != seat:
            raise self._refuse("bad_territory")
        n = self.s.players[seat].reserve
        self._put(seat, t, n)
        self._emit(ev.Placed(type="placed", seat=seat, territory=t, count=n))
        self._end_setup_round()

    def _act_setup_place_auto(self, seat: int, a: PlaceAutoAction) -> None:
        """House convenience (issue 13): the seat's remaining armies are spread for it, one by one, each on
        its thinnest territory that borders someone else's (all its territories if none does); ties by
        territory id, so the result follows from the state alone (no dice)."""
        s = self.s
        mine = sorted(self.owned(seat))
        border = [x for x in mine if any(s.terr[n].owner != seat for n in board.NEIGHBOURS[x])] or mine
        if not border:
            raise self._refuse("bad_territory")
        counts: dict[str, int] = {}
        for _ in range(s.players[seat].reserve):
            where = min(border, key=lambda x: (s.terr[x].armies, x))
            self._put(seat, where, 1)
            counts[where] = counts.get(where, 0) + 1
        self._emit(ev.PlacedAuto(type="placed_auto", seat=seat, counts=dict(sorted(counts.items())), n=sum(counts.values())))
        self._end_setup_round()

    def _end_setup_round(self) -> None:
        self.s.round_left = 0
        neutral = self.s.neutral
        if not self.godstorm and neutral is not None and neutral.reserve > 0:
            self.s.neutral_due = True
        else:
            self._next_round_seat()

    def _act_place_neutral(self, seat: int, a: PlaceNeutralAction) -> None:
        t = a.get("territory")
        if t not in self.s.terr or self.s.terr[t].owner != NEUTRAL:
            raise self._refuse("bad_territory")
        self._put(NEUTRAL, t, 1)
        self._emit(ev.PlacedNeutral(type="placed_neutral", seat=seat, territory=t))
        self.s.neutral_due = False
        self._next_round_seat()

    def _finish_placement(self) -> None:
        s = self.s
        neutral = s.neutral
        if neutral is not None and neutral.reserve > 0:
            # Leftover neutral armies (only when players ran out first) go where the neutral is thinnest.
            while neutral.reserve > 0:
                t = min((t for t in board.TERR_IDS if s.terr[t].owner == NEUTRAL),
                        key=lambda x: (s.terr[x].armies, x))
                self._put(NEUTRAL, t, 1)
        if self.godstorm:
            s.phase = s.step = "setup_gods"
            s.setup_idx = 0
        else:
            s.turn_order = list(s.setup_order)
            s.turn_idx = 0
            s.phase = "turn"
            self._start_turn()

    # ---- war god and temple -------------------------------------------------------------
    def _setup_gods_needs(self, seat: int) -> tuple[bool, bool]:
        return "war" not in self.gods_on_board(seat), not self.temples_of(seat)

    def _act_setup_god(self, seat: int, a: SummonAction | BuildTempleAction) -> None:
        need_god, need_temple = self._setup_gods_needs(seat)
        t = a.get("territory")
        if t not in self.s.terr or self.s.terr[t].owner != seat:
            raise self._refuse("bad_territory")
        v = self.s.terr[t]
        if a["type"] == "summon":
            if not need_god or a.get("god") != "war" or v.plague:
                raise self._refuse("bad_god")
            v.gods.append("war")
            self._emit(ev.Summoned(type="summoned", seat=seat, god="war", territory=t, cost=0))
        else:
            if not need_temple:
                raise self._refuse("bad_temple")
            v.temple = True
            self._emit(ev.TempleBuilt(type="temple_built", seat=seat, territory=t, cost=0))
        if self._setup_gods_needs(seat) == (False, False):
            self.s.setup_idx += 1
            if self.s.setup_idx >= len(self.s.setup_order):
                self._start_epoch(1)

    def _setup_legal(self, seat: int) -> list[Action]:
        s = self.s
        phase = s.phase
        if phase == "pantheon":
            return [{"type": "pick_pantheon", "pantheon": p} for p in self._free_pantheons()]
        if phase == "pile":
            return [{"type": "pick_pile", "pile": i} for i in self._free_piles()]
        if phase == "claim":
            return [{"type": "place", "territory": t, "count": 1} for t in self._empty_territories()]
        if phase == "setup_place":
            if s.neutral_due:
                return [{"type": "place_neutral", "territory": t} for t in board.TERR_IDS
                        if s.terr[t].owner == NEUTRAL]
            mine = sorted(self.owned(seat))
            out_place: list[Action] = [{"type": "place", "territory": t, "count": c}
                                       for t in mine for c in board.count_choices(s.round_left)]
            if s.players[seat].reserve > s.round_left:  # more rounds to come: all at once, or spread for me
                out_place += [{"type": "place_all", "territory": t} for t in mine]
                out_place.append({"type": "place_auto"})
            return out_place
        if phase == "setup_gods":
            need_god, need_temple = self._setup_gods_needs(seat)
            mine = sorted(self.owned(seat))
            out: list[Action] = []
            if need_god:
                out += [{"type": "summon", "god": "war", "territory": t} for t in mine if not s.terr[t].plague]
            if need_temple:
                out += [{"type": "build_temple", "territory": t} for t in mine]
            return out
        return []

    def setup_round(self) -> str | None:
        """The set-up round under way as a key (issue 25: one channel post per round, ``Game.post_group``);
        None once the set-up is over.

        A round is one pass of the set-up order in which each player acts once: the pantheon choice, the
        piles, one claim each, one placement each (up to ``round_size`` armies; the neutral armies placed
        by the same player belong to it), the war god and temple. The placement round is read off the
        seat placing: before the rounds each of its territories held one army, and a seat still placing
        has placed a full ``round_size`` in every round before this one."""
        s = self.s
        phase = s.phase
        if phase in ("pantheon", "pile", "setup_gods"):
            return f"setup:{phase}"
        if phase == "claim":
            return f"setup:claim:{s.setup_idx // max(1, len(s.setup_order))}"
        if phase == "setup_place":
            seat = self._setup_seat()
            placed = self.board_armies(seat) - self.owned_count(seat)
            size = max(1, s.round_size)
            return f"setup:place:{(placed - 1) // size if s.neutral_due else placed // size}"
        return None

    def _setup_actor(self) -> int | None:
        s = self.s
        phase = s.phase
        if phase in ("pantheon", "pile"):
            return s.setup_order[s.setup_idx]
        if phase in ("claim", "setup_place"):
            return self._setup_seat()
        if phase == "setup_gods":
            return s.setup_order[s.setup_idx]
        return None
