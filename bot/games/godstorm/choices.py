"""The choices the rulebook gives a player that the engine first made for them: the gods an attacker holds
back, and the defender's dice (a standing preference, or asked for each roll with a short window).

The standing preferences (the defence dice, and the miracle cards' "never answer") are
``standing_actions``: a seated player still in the game may change them at any time, on their turn or not
(the rulebook's defender declares their dice at each roll, «Защитник может бросить 1 или 2 куба»; the
preference is how an asynchronous game asks without stalling)."""

from __future__ import annotations

from bot.games.base import Action
from bot.games.godstorm import events as ev
from bot.games.godstorm.actions import DefendAction, DicePrefAction, HoldGodAction
from bot.games.godstorm.combat import CombatMixin
from bot.games.godstorm.core import as_int
from bot.games.godstorm.turn import TurnMixin

DICE_PREFS = ("most", "one", "ask")
"""Standing defence-dice preferences: the most dice allowed (default), always one, or ask me each roll."""
DEFEND_WINDOW_S = 180
"""Seconds the defender has to choose their dice when miracles (and their ``answer_window``) are off."""


class ChoiceMixin(TurnMixin, CombatMixin):
    # ---- legal --------------------------------------------------------------------------
    def _hold_actions(self, seat: int) -> list[Action]:
        """In the invasion step: keep a god out of (or back in) the attacks from its territory."""
        s = self.s
        if not self.godstorm or s.step != "invade" or s.pending > 0:
            return []
        out: list[Action] = []
        for t in sorted(self.owned(seat)):
            v = s.terr[t]
            if not v.gods or v.armies < 2 or not self._targets(seat, t):
                continue
            held = s.turn.held.get(t, [])
            out += [{"type": "hold_god", "territory": t, "god": g, "hold": g not in held} for g in sorted(v.gods)]
        return out

    def _pref_actions(self, seat: int) -> list[Action]:
        mine = self.dice_pref_of(seat)
        return [{"type": "dice_pref", "pref": p} for p in DICE_PREFS if p != mine]

    def _turn_legal(self, seat: int) -> list[Action]:
        acts = super()._turn_legal(seat)
        if (not any(a["type"] in ("end_step", "end_attacks", "end_turn") for a in acts)
                or (self.s.mir is not None and self.s.mir.forced is not None)):
            return acts  # a forced trade, placement or card comes first
        return acts + self._hold_actions(seat)

    # ---- standing preferences (any time, ``Game.standing_actions``) ----------------------
    def standing_actions(self, seat: int) -> list[Action]:
        """The defence-dice preference, and with the miracle cards "never answer" (or asked again): for
        every seated player not eliminated, while the game runs, whoever is to act."""
        s = self.s
        if s.outcome is not None or s.phase == "over" or not 0 <= seat < len(s.players) or s.players[seat].eliminated:
            return []
        acts = self._pref_actions(seat)
        if s.mir is not None:
            acts.append({"type": "answer_pref", "never": not s.mir.never[seat]})
        return acts

    # ---- holding gods back --------------------------------------------------------------
    def _act_hold_god(self, seat: int, a: HoldGodAction) -> None:
        s = self.s
        t, g, hold = a.get("territory"), a.get("god"), a.get("hold")
        if not self.godstorm or s.step != "invade" or s.pending > 0:
            raise self._refuse("not_now")
        if not isinstance(t, str) or t not in s.terr or s.terr[t].owner != seat:
            raise self._refuse("bad_territory")
        if not isinstance(g, str) or g not in s.terr[t].gods or not isinstance(hold, bool):
            raise self._refuse("bad_god")
        held = [x for x in s.turn.held.get(t, []) if x != g and x in s.terr[t].gods]
        if hold:
            held.append(g)
        if held:
            s.turn.held[t] = sorted(held)
        else:
            s.turn.held.pop(t, None)
        # told to the attacker (the gods that fight show in the godswar and roll lines that follow)
        self._emit(ev.GodsHeld(type="gods_held", to=[seat], seat=seat, territory=t, god=g, hold=hold))

    # ---- the defender's dice ------------------------------------------------------------
    def _act_dice_pref(self, seat: int, a: DicePrefAction) -> None:
        pref = a.get("pref")
        if pref not in DICE_PREFS:
            raise self._refuse("bad_action")
        if pref == "most":
            self.s.dice_pref.pop(str(seat), None)
        else:
            self.s.dice_pref[str(seat)] = str(pref)
        self._emit(ev.DicePref(type="dice_pref", to=[seat], pref=pref))

    def defend_actors(self) -> list[int]:
        d = self.s.defend
        return [] if d is None else [int(d["seat"])]

    def defend_legal(self, seat: int) -> list[Action]:
        d = self.s.defend
        if d is None or d["seat"] != seat:
            return []
        most = min(2, self._loc(d["to"]).armies)
        return [{"type": "defend", "dice": n} for n in range(most, 0, -1)] + self._pref_actions(seat)

    def _act_defend(self, seat: int, a: DefendAction) -> None:
        s = self.s
        d = s.defend
        if d is None or d["seat"] != seat:
            raise self._refuse("not_now")
        n = as_int(a.get("dice"))
        if n is None or not 1 <= n <= min(2, self._loc(d["to"]).armies):
            raise self._refuse("bad_dice")
        s.defend = None
        self._emit(ev.DefenceChosen(type="defence_chosen", seat=seat, dice=n))
        att = self.current_seat
        if d["until"] is None:
            self._roll_once(att, d["from"], d["to"], int(d["dice"]), n)
            self._settle()
        else:
            self._fight_until(att, d["from"], d["to"], int(d["dice"]), int(d["until"]), int(d["rolls"]), n)

    def _act_defend_pref(self, seat: int, a: DicePrefAction) -> None:
        """A preference changed while asked: it applies now (``most``/``one`` answer this roll too)."""
        self._act_dice_pref(seat, a)
        d = self.s.defend
        pref = a.get("pref")
        if d is not None and pref in ("most", "one"):
            self._act_defend(seat, {"type": "defend", "dice": 1 if pref == "one" else 2})


__all__ = ["ChoiceMixin", "DEFEND_WINDOW_S", "DICE_PREFS"]
