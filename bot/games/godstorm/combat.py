"""Invasions on the Ancient Earth and in the Underworld: godswar, dice, conquest, elimination."""

from __future__ import annotations

from bot.games.base import Action
from bot.games.godstorm import board
from bot.games.godstorm import events as ev
from bot.games.godstorm.actions import (
    AttackAction,
    AttackUntilAction,
    ChampionAction,
    MoveInAction,
    RetreatAction,
    RollAction,
)
from bot.games.godstorm.core import NEUTRAL, Core, as_int
from bot.games.godstorm.dice import compare, has_triple, roll
from bot.games.godstorm.state import Arrow, Battle, Declared, Move, Space, Territory

HEAVEN = "heaven"
MAX_AUTO_ROLLS = 500
UNDO_WINDOWS = (0, 10, 20, 60)
"""The choices of option ``undo_window``: seconds a declared attack waits for its roll (0: rolled at once)."""
DEFAULT_UNDO_S = 20
"""A new game's undo window (games stored before state version 4 keep 0)."""


class CombatMixin(Core):
    # ---- locations ----------------------------------------------------------------------
    def _loc(self, where: str) -> Territory | Space:
        return self.s.terr[where] if where in self.s.terr else self.s.uw[where]

    def _available(self, seat: int, src: str) -> int:
        """Armies that may attack from ``src`` (the heavens need not leave one behind)."""
        if src == HEAVEN:
            return self.s.players[seat].heaven
        return self._loc(src).armies - 1

    def _add_src(self, seat: int, src: str, delta: int) -> None:
        if src == HEAVEN:
            self.s.players[seat].heaven += delta
        else:
            self._loc(src).armies += delta

    def _targets(self, seat: int, src: str) -> list[str]:
        s = self.s
        if src in s.terr:
            return [t for t in board.NEIGHBOURS[src] if s.terr[t].owner != seat]
        if src == HEAVEN:
            return [g for g in board.GATES if s.uw[g].owner not in (None, seat)]
        return [n for n in board.SPACE_LINKS[src] if s.uw[n].owner != seat]

    def _att_gods(self, src: str) -> list[str]:
        """The gods in ``src`` that join its attacks (all but those the attacker holds back this turn)."""
        s = self.s
        if src not in s.terr:
            return []
        held = s.turn.held.get(src)
        gods = s.terr[src].gods
        return [g for g in gods if g not in held] if held else gods

    def _godswar_due(self, src: str, dst: str) -> bool:
        s = self.s
        return (self.godstorm and src in s.terr and bool(self._att_gods(src))
                and bool(s.terr[dst].gods))

    # ---- legal --------------------------------------------------------------------------
    def _attack_actions(self, seat: int, underworld: bool) -> list[Action]:
        s = self.s
        if underworld:
            sources = [sp for sp in board.SPACE_IDS if s.uw[sp].owner == seat]
            if s.players[seat].heaven > 0:
                sources.append(HEAVEN)
        else:
            sources = sorted(self.owned(seat))
        out: list[Action] = []
        for src in sources:
            avail = self._available(seat, src)
            if avail < 1:
                continue
            for dst in self._targets(seat, src):
                if self._loc(dst).owner is None:
                    out.append({"type": "attack", "from": src, "to": dst, "dice": 1})
                    continue
                for d in range(1, min(3, avail) + 1):
                    out.append({"type": "attack", "from": src, "to": dst, "dice": d})
                if not self._godswar_due(src, dst):
                    floor = 0 if src == HEAVEN else 1
                    stops = sorted({floor, max(floor, (avail + 1) // 2)})
                    out += [{"type": "attack_until", "from": src, "to": dst, "dice": min(3, avail), "stop_at": k}
                            for k in stops]
        return out

    def _check_attack(self, seat: int, a: AttackAction | AttackUntilAction) -> tuple[str, str, int]:
        s = self.s
        src, dst, dice = a.get("from"), a.get("to"), as_int(a.get("dice"))
        underworld = s.step == "underworld"
        if s.step not in ("invade", "underworld") or s.pending > 0 or s.turn.forced_trade:
            raise self._refuse("not_now")
        if not isinstance(src, str) or not isinstance(dst, str):
            raise self._refuse("bad_territory")
        if underworld:
            ok_src = src == HEAVEN or (src in s.uw and s.uw[src].owner == seat)
        else:
            ok_src = src in s.terr and s.terr[src].owner == seat
        if not ok_src or dst not in self._targets(seat, src):
            raise self._refuse("bad_target")
        avail = self._available(seat, src)
        if dice is None or not 1 <= dice <= min(3, avail):
            raise self._refuse("bad_dice")
        return src, dst, dice

    # ---- declaring ----------------------------------------------------------------------
    def _act_attack(self, seat: int, a: AttackAction) -> None:
        src, dst, dice = self._check_attack(seat, a)
        s = self.s
        s.last = Arrow(src, dst)
        if self._loc(dst).owner is None:
            if dice != 1:
                raise self._refuse("bad_dice")
            self._emit(ev.Advance(type="advance", seat=seat, frm=src, dst=dst))
            self._begin_move(seat, src, dst, 1)
            return
        if not self._declare(seat, src, dst, dice, None):
            self._launch(seat, src, dst, dice, None)

    def _declare(self, seat: int, src: str, dst: str, dice: int, until: int | None) -> bool:
        """With an undo window (option ``undo_window``), record the declared attack and wait for its roll
        (decision ``roll``): True. The declaration draws nothing, tells nothing privately and asks nobody
        else, so the attacker may take it back freely until the dice are thrown (issue 27)."""
        if self.s.undo_s <= 0:
            return False
        self.s.declared = Declared(src, dst, dice, until)
        self._emit(ev.AttackDeclared(type="attack_declared", seat=seat, frm=src, dst=dst, dice=dice, until=until))
        return True

    def _launch(self, seat: int, src: str, dst: str, dice: int, until: int | None) -> None:
        """A declared attack goes ahead: the defender's Sky window if any, then the dice (one roll, or rolls
        until ``until`` armies are left)."""
        if self._sky_window(seat, src, dst, dice, until):
            return
        if until is None:
            self._fight(seat, src, dst, dice)
        else:
            self._fight_until(seat, src, dst, dice, until)

    def _roll_legal(self, seat: int) -> list[Action]:
        """The declared attack's only answer: its dice (an undo takes the order back instead)."""
        return [{"type": "roll"}] if self.s.declared is not None and seat == self.s.current else []

    def _act_roll(self, seat: int, a: RollAction) -> None:
        d = self.s.declared
        if d is None or seat != self.s.current:
            raise self._refuse("not_now")
        self.s.declared = None
        self._launch(seat, d.src, d.dst, d.dice, d.until)

    def _timeout_roll(self, seat: int) -> Action | None:
        """The window closed: the dice are thrown."""
        return {"type": "roll"} if self._roll_legal(seat) else None

    def _fight(self, seat: int, src: str, dst: str, dice: int) -> None:
        """A declared attack: the godswar when both sides have gods, else one roll of the armies."""
        s = self.s
        if self._godswar_due(src, dst):
            s.battle = battle = Battle(src, dst, dice)
            self._emit(ev.GodswarStart(type="godswar_start", seat=seat, frm=src, dst=dst, defender=s.terr[dst].owner))
            self._battle_autopick(battle)
            return
        self._roll_asking(seat, src, dst, dice)

    def _act_attack_until(self, seat: int, a: AttackUntilAction) -> None:
        src, dst, dice = self._check_attack(seat, a)
        stop = as_int(a.get("stop_at"))
        s = self.s
        if stop is None or stop < 0:
            raise self._refuse("bad_count")
        if self._godswar_due(src, dst) or self._loc(dst).owner is None:
            raise self._refuse("godswar_first")
        s.last = Arrow(src, dst)
        if not self._declare(seat, src, dst, dice, stop):
            self._launch(seat, src, dst, dice, stop)

    def _fight_until(self, seat: int, src: str, dst: str, dice: int, stop: int, start: int = 0,
                     ddice: int | None = None) -> None:
        """Roll again and again (at least once) until the target falls or ``stop`` armies are left.

        A defender who asked to choose their dice pauses the series before each roll (``s.defend``);
        their answer resumes it with ``start`` rolls done and ``ddice`` chosen for the next one."""
        for i in range(start, MAX_AUTO_ROLLS):
            avail = self._available(seat, src)
            left = avail if src == HEAVEN else avail + 1
            if avail < 1 or (i > 0 and left <= stop):
                break
            if ddice is None and self._ask_defender(seat, src, dst, min(dice, avail), stop, i):
                return
            if self._roll_once(seat, src, dst, min(dice, avail), ddice):
                break
            ddice = None
        self._settle()

    # ---- the defender's dice ------------------------------------------------------------
    def dice_pref_of(self, seat: int) -> str:
        """A seat's standing choice of defence dice: ``most`` (the default), ``one`` or ``ask``."""
        return self.s.dice_pref.get(str(seat), "most")

    def _ask_defender(self, seat: int, src: str, dst: str, dice: int, until: int | None, rolls: int) -> bool:
        """True when the defender asked to choose their dice and may throw two: the roll then waits."""
        target = self._loc(dst)
        dfd = target.owner
        if dfd is None or dfd < 0 or target.armies < 2 or self.dice_pref_of(dfd) != "ask":
            return False
        self.s.defend = {"seat": dfd, "from": src, "to": dst, "dice": dice, "until": until, "rolls": rolls}
        self._emit(ev.DefenceAsked(type="defence_asked", seat=dfd, attacker=seat, frm=src, dst=dst, dice=dice))
        return True

    def _roll_asking(self, seat: int, src: str, dst: str, dice: int) -> None:
        """One declared roll, unless the defender first chooses their dice."""
        if self._ask_defender(seat, src, dst, dice, None, 0):
            return
        self._roll_once(seat, src, dst, dice)
        self._settle()

    def _sky_window(self, seat: int, src: str, dst: str, dice: int, until: int | None) -> bool:
        """Hook: True when the defender may first answer the declared attack with Sky cards (the attack then
        waits in a response window; ``miracles.py``)."""
        return False

    # ---- godswar ------------------------------------------------------------------------
    def _battle_actor(self) -> int | None:
        b = self.s.battle
        if b is None:
            return None
        if b.att is None:
            return self.s.current
        return self.s.terr[b.dst].owner

    def _battle_legal(self, seat: int) -> list[Action]:
        b = self.s.battle
        if b is None or self._battle_actor() != seat:
            return []
        gods = self._att_gods(b.src) if b.att is None else self.s.terr[b.dst].gods
        out: list[Action] = [{"type": "champion", "god": g} for g in sorted(gods)]
        if b.att is None and b.rounds > 0:
            out.append({"type": "retreat"})
        return out

    def _battle_autopick(self, b: Battle) -> None:
        terr = self.s.terr
        joined = self._att_gods(b.src)
        if b.att is None and b.rounds == 0 and len(joined) == 1:
            b.att = joined[0]
        if b.att is not None and b.def_ is None and len(terr[b.dst].gods) == 1:
            b.def_ = terr[b.dst].gods[0]
        if b.att is not None and b.def_ is not None:
            self._godswar_round(b)

    def _act_champion(self, seat: int, a: ChampionAction) -> None:
        b = self.s.battle
        if b is None or self._battle_actor() != seat:
            raise self._refuse("not_now")
        g = a.get("god")
        gods = self._att_gods(b.src) if b.att is None else self.s.terr[b.dst].gods
        if g not in gods:
            raise self._refuse("bad_god")
        if b.att is None:
            b.att = g
        else:
            b.def_ = g
        self._emit(ev.Champion(type="champion", seat=seat, god=g))
        self._battle_autopick(b)

    def _act_retreat(self, seat: int, a: RetreatAction) -> None:
        b = self.s.battle
        if b is None or self._battle_actor() != seat or b.att is not None or b.rounds == 0:
            raise self._refuse("not_now")
        self.s.battle = None
        self._emit(ev.Retreat(type="retreat", seat=seat, frm=b.src, dst=b.dst))
        self._settle()

    def _godswar_round(self, b: Battle) -> None:
        s = self.s
        seat = self.current_seat
        src, dst = s.terr[b.src], s.terr[b.dst]
        dfd = dst.owner
        assert dfd is not None and b.att is not None and b.def_ is not None, "a godswar round needs both champions"
        att_gods, def_gods = list(self._att_gods(b.src)), list(dst.gods)
        na = 3 + ("sky" in att_gods) + self.altars_of(seat)
        nd = 3 + ("sky" in def_gods) + (self.altars_of(dfd) if dfd != NEUTRAL else 0)
        a = roll(self.rng, na, "magic" in att_gods or self._godswar_reroll(seat))
        d = roll(self.rng, nd, "magic" in def_gods or dst.temple or self._godswar_reroll(dfd))
        ta = sum(a) + src.armies - 1 + self._godswar_bonus(seat)
        td = sum(d) + dst.armies + (self._godswar_bonus(dfd) if dfd != NEUTRAL else 0)
        att_wins = ta > td or (ta == td and "war" in att_gods)
        att_magic = "magic" in self.gods_on_board(seat)
        def_magic = dfd != NEUTRAL and "magic" in self.gods_on_board(dfd)
        loser_seat, loser_god, where = (dfd, b.def_, dst) if att_wins else (seat, b.att, src)
        where.gods.remove(loser_god)
        self._emit(ev.Godswar(type="godswar", seat=seat, defender=dfd, att_god=b.att, def_god=b.def_, att_dice=a,
                              def_dice=d, att_total=ta, def_total=td, winner=seat if att_wins else dfd,
                              banished=loser_god, loser=loser_seat))
        if att_magic and has_triple(a):
            self._draw_miracle(seat, "magic", "triple")
        if def_magic and has_triple(d):
            self._draw_miracle(dfd, "magic", "triple")
        if att_wins and not s.turn.sky_card and "sky" in self.gods_on_board(seat):
            if self._draw_miracle(seat, "sky", "labour"):
                s.turn.sky_card = True
        b.rounds += 1
        b.att = b.def_ = None
        if self._att_gods(b.src) and dst.gods:
            self._battle_autopick(b)
            return
        s.battle = None
        self._roll_asking(seat, b.src, b.dst, min(b.dice, src.armies - 1))

    # ---- one roll of the armies ---------------------------------------------------------
    def _roll_once(self, seat: int, src: str, dst: str, dice: int, ddice: int | None = None) -> bool:
        """Roll one battle; True when the target fell (a move-in is then pending or done). The defender
        throws ``ddice`` when they chose, else what their standing preference says."""
        s = self.s
        earth = dst in s.terr
        target = self._loc(dst)
        dfd = target.owner
        assert dfd is not None, "only a held place is rolled against"
        land = target if self.godstorm and isinstance(target, Territory) else None  # gods and temples count
        att_gods = self._att_gods(src) if land is not None else []
        def_gods = land.gods if land is not None else []
        temple = land is not None and land.temple
        a = roll(self.rng, dice, "magic" in att_gods)
        most = min(2, target.armies)
        if ddice is None:
            ddice = 1 if dfd >= 0 and self.dice_pref_of(dfd) == "one" else most
        d = roll(self.rng, max(1, min(ddice, most)), "magic" in def_gods or temple)
        al, dl = compare(a, d, "war" in att_gods)
        if land is not None:
            dl = self._spare_defenders(dfd, dl)
        self._add_src(seat, src, -al)
        target.armies -= dl
        self._casualties(seat, al, to_reserve=not earth)
        self._casualties(dfd, dl, to_reserve=(not earth) or "death" in att_gods)
        self._emit(ev.Roll(type="roll", seat=seat, defender=dfd, frm=src, dst=dst, att=a, dfn=d, att_loss=al, def_loss=dl))
        if self.godstorm:
            if has_triple(a) and "magic" in self.gods_on_board(seat):
                self._draw_miracle(seat, "magic", "triple")
            if dfd != NEUTRAL and has_triple(d) and "magic" in self.gods_on_board(dfd):
                self._draw_miracle(dfd, "magic", "triple")
        if target.armies == 0:
            self._begin_move(seat, src, dst, dice)
            return True
        return False

    # ---- conquest -----------------------------------------------------------------------
    def _begin_move(self, seat: int, src: str, dst: str, minimum: int) -> None:
        maximum = self._available(seat, src)
        minimum = min(minimum, maximum)
        self.s.move = Move(src, dst, minimum, maximum)
        if minimum >= maximum:
            self._do_move(seat, maximum)

    def _move_legal(self, seat: int) -> list[Action]:
        m = self.s.move
        if m is None or self.s.current != seat:
            return []
        return [{"type": "move_in", "count": c} for c in board.count_choices(m.max, m.min)]

    def _act_move_in(self, seat: int, a: MoveInAction) -> None:
        m = self.s.move
        n = as_int(a.get("count"))
        if m is None or self.s.current != seat:
            raise self._refuse("not_now")
        if n is None or not m.min <= n <= m.max:
            raise self._refuse("bad_count")
        self._do_move(seat, n)

    def _do_move(self, seat: int, n: int) -> None:
        s = self.s
        m = s.move
        assert m is not None, "a move-in is pending"
        src, dst = m.src, m.dst
        target = self._loc(dst)
        old = target.owner
        self._add_src(seat, src, -n)
        target.owner = seat
        target.armies = n
        s.move = None
        if isinstance(target, Territory):
            self._banish_all(dst, "conquest")
            gods = list(self._att_gods(src))
            target.gods = gods
            s.terr[src].gods = [g for g in s.terr[src].gods if g not in gods]
            self._emit(ev.Conquered(type="conquered", seat=seat, frm=src, dst=dst, count=n, previous=old,
                                    gods=list(target.gods), temple=target.temple))
            if self.godstorm and target.plague:
                loss = n // 2
                if loss:
                    target.armies -= loss
                    self._casualties(seat, loss, to_reserve=False)
                    self._emit(ev.PlagueLoss(type="plague_loss", seat=seat, territory=dst, lost=loss))
                self._banish_all(dst, "plague")
            if old is not None:
                s.turn.conquered += 1
            if (self.godstorm and s.turn.conquered >= 3 and not s.turn.war_card
                    and "war" in self.gods_on_board(seat)):
                if self._draw_miracle(seat, "war", "labour"):
                    s.turn.war_card = True
            if old is not None and old >= 0 and self.owned_count(old) == 0:
                self._eliminate(old, seat)
        else:
            self._emit(ev.Conquered(type="conquered", seat=seat, frm=src, dst=dst, count=n, previous=old, gods=[], temple=False))
        if s.outcome is None:
            self._settle()

    def _eliminate(self, seat: int, by: int) -> None:
        s = self.s
        p = s.players[seat]
        p.eliminated = True
        self._emit(ev.Eliminated(type="eliminated", seat=seat, by=by))
        for k in p.cards:
            p.cards[k] = 0
        for sp in board.SPACE_IDS:
            u = s.uw[sp]
            if u.owner == seat:
                p.reserve += u.armies
                u.owner, u.armies = None, 0
        if not self.godstorm and p.tcards:
            winner = s.players[by]
            winner.tcards.extend(p.tcards)
            self._emit(ev.TcardsTaken(type="tcards_taken", seat=by, frm=seat, count=len(p.tcards)))
            p.tcards = []
            if len(winner.tcards) >= 6:
                s.turn.forced_trade = True
        if len(self.active_seats()) <= 1:
            self._finish_game()


