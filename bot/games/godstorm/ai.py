"""Godstorm and classic Risk bots: a heuristic planner over the seat's view and legal actions.

Only ``view(seat)`` (the public board plus the seat's own hand, bid and armies to place) and the
legal list are read, never the game's state; the static map (neighbours, continents, bonuses)
comes from :mod:`bot.games.godstorm.board`. The secret faith bid is decided from the view alone.

* ``quick``: places every army on one border territory, attacks whenever its stack outnumbers the
  target, moves everything in, never fortifies, ignores gods, the Underworld and bids.
* ``strong``: picks a *focus* continent (the one it holds most of, weighed by bonus per territory),
  places where its armies make the most valuable target beatable (else facing the biggest enemy
  stack), attacks with a lead (and level fights between big stacks, where three dice against two
  favour the attacker), preferring targets that complete or break a continent, keeps armies
  on a border it leaves exposed when moving in, fortifies the interior's armies to the most
  threatened border, summons a war god and builds temples with its faith, sends its dead from the
  heavens into the Underworld for the spaces' points, and bids a little faith for the turn order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.base import Action, Event, Rng
from bot.games.godstorm import board

CONTINENT_WEIGHT = 3.0

# ---- miracle cards: which the strong bot plays, best first (the others it keeps) -----------------
SKY_ANSWERS = ("this_ground_is_sacred", "men_become_warriors", "enemies_convert", "swords_become_plowshares",
               "the_fog_lifts", "your_idol_is_false", "fire_sears_the_sky", "thousand_workers_amass")
TURN_PLAYS = ("heroes_are_born", "the_faithful_gather", "prayers_are_answered", "champions_arise",
              "our_faith_is_our_strength", "an_empire_is_born", "faith_shall_deliver", "the_trojan_horse_is_revealed",
              "storms_rage", "a_shrine_is_plundered", "only_ash_remains", "visions_become_real", "crops_wither")
CARD_VALUE = {c: len(TURN_PLAYS) - i for i, c in enumerate(TURN_PLAYS)}


class GodstormBot:
    def __init__(self, level: str) -> None:
        self.level = level
        self.strong = level == "strong"
        self.name = f"godstorm-{level}"

    # ---- reading the view -------------------------------------------------------------
    def _setup(self, view: dict[str, Any]) -> None:
        self.view = view
        self.me: int = view["me"]["seat"]
        self.terr: dict[str, dict[str, Any]] = view["territories"]
        self.owned = {t for t, v in self.terr.items() if v["owner"] == self.me}
        self.focus = self._focus()
        # measured: a lead of one beats waiting for two (the quick bot's all-in stack punishes waiting)
        self.min_lead = 1

    def _enemy(self, t: str) -> bool:
        owner = self.terr[t]["owner"]
        return owner is not None and owner != self.me

    def _foes(self, t: str) -> list[str]:
        return [n for n in board.NEIGHBOURS[t] if n not in self.owned]

    def _focus(self) -> str | None:
        """The continent to complete next: most held, weighed by its bonus per territory."""
        best, best_key = None, -1.0
        for c, ts in board.CONTINENTS.items():
            held = sum(1 for t in ts if t in self.owned)
            if held == len(ts) or held == 0:
                continue
            key = held / len(ts) + 0.5 * board.BONUS[c] / len(ts)
            if key > best_key:
                best, best_key = c, key
        return best

    def _target_value(self, t: str) -> float:
        """What taking ``t`` is worth: a territory, more in the focus continent, most when it
        completes a continent or breaks one an opponent holds."""
        value = 1.0
        c = board.CONTINENT_OF[t]
        ts = board.CONTINENTS[c]
        if c == self.focus:
            value += 1.5
        missing = [x for x in ts if x not in self.owned]
        if missing == [t]:
            value += CONTINENT_WEIGHT + board.BONUS[c]
        owner = self.terr[t]["owner"]
        if owner is not None and all(self.terr[x]["owner"] == owner for x in ts):
            value += 1.0 + board.BONUS[c]
        return value

    def _siege(self) -> str | None:
        """Facing an enemy stack far bigger than anything of ours (a wall that retakes whatever we
        take), our stack beside it: all new armies go there until it can fight the wall."""
        wall, size = None, 0
        for t in self.owned:
            for n in board.NEIGHBOURS[t]:
                if self._enemy(n) and self.terr[n]["armies"] > size:
                    wall, size = n, self.terr[n]["armies"]
        if wall is None or size < 20:
            return None
        facing = [t for t in board.NEIGHBOURS[wall] if t in self.owned]
        best = max(facing, key=lambda t: (self.terr[t]["armies"], t))
        return best if self.terr[best]["armies"] - 1 < size else None

    def _threat(self, t: str) -> int:
        return max((self.terr[n]["armies"] for n in board.NEIGHBOURS[t] if self._enemy(n)), default=0)

    # ---- the interface ------------------------------------------------------------------
    def choose(self, view: dict[str, Any], legal: Sequence[Action], rng: Rng,
               history: Sequence[Event] = ()) -> Action:
        self._setup(view)
        by: dict[str, list[Action]] = {}
        for a in legal:
            by.setdefault(a["type"], []).append(a)
        if "roll" in by:  # its own declared attack (an undo window): the dice at once
            return dict(by["roll"][0])
        if "defend" in by:  # asked for its defence dice: the most it may throw
            return dict(max(by["defend"], key=lambda a: a["dice"]))
        if "no_answer" in by:  # a response window (a Sky answer to an attack, or the Aegis)
            return dict(self._answer(by))
        if "take_card" in by:
            return dict(max(by["take_card"], key=lambda a: (CARD_VALUE.get(a["card"], 0), a["card"])))
        if "play_card" in by:
            pick = self._play(by["play_card"], forced="end_step" not in by and "place" not in by)
            if pick is not None:
                return dict(pick)
        for kind, handler in (("move_in", self._move_in), ("champion", self._champion), ("bid", self._bid),
                              ("pick_order", self._pick_order), ("pick_pantheon", self._first),
                              ("trade", self._first), ("place_neutral", self._place_neutral)):
            if kind in by:
                return dict(handler(by[kind]))
        step = view["phase"] if view["phase"] != "turn" else view["step"]
        if "place" in by:
            return dict(self._place(by["place"], step))
        if step == "setup_gods" and ("summon" in by or "build_temple" in by):
            return dict(self._gods(by, setup=True) or legal[0])
        if step == "gods" and self.strong:
            pick = self._gods(by, setup=False)
            if pick is not None:
                return dict(pick)
        if step == "descend" and self.strong and "descend" in by:
            return dict(self._descend(by["descend"]))
        if "attack" in by or "attack_until" in by:
            pick = self._attack(by.get("attack_until", []) + by.get("attack", []), step)
            if pick is not None:
                return dict(pick)
        if step == "fortify" and self.strong and "fortify" in by:
            pick = self._fortify(by["fortify"])
            if pick is not None:
                return dict(pick)
        for end in ("end_step", "end_attacks", "retreat", "end_turn"):
            if end in by:
                return dict(by[end][0])
        return dict(legal[0])

    # ---- miracle cards -------------------------------------------------------------------
    def _answer(self, by: dict[str, list[Action]]) -> Action:
        """A Sky answer when it helps (strong bot); the Aegis against a card aimed at this seat."""
        no = next(a for a in by["no_answer"] if not a.get("never"))
        window = (self.view.get("miracles") or {}).get("window") or {}
        if "cancel_card" in by:
            args = window.get("args") or {}
            card = str(window.get("card") or "")
            aimed = (args.get("seat") == self.me or args.get("territory") in self.owned
                     or any(t in self.owned for t in args.get("territories", []))
                     or card.startswith(("the_sea_is_your_tomb", "diamonds_turn_to_rust", "ragnarok_cometh")))
            return by["cancel_card"][0] if self.strong and aimed and window.get("by") != self.me else no
        plays = by.get("play_card", [])
        if not self.strong or not plays:
            return no
        src, dst = window.get("from"), window.get("to")
        strong_attack = src in self.terr and dst in self.terr and \
            self.terr[src]["armies"] > self.terr[dst]["armies"] + 2
        for card in SKY_ANSWERS:
            options = [a for a in plays if a["card"] == card]
            if not options or (card == "this_ground_is_sacred" and not strong_attack):
                continue
            if card == "fire_sears_the_sky" and not (src in self.terr and self.terr[src]["gods"]
                                                     and dst in self.terr and self.terr[dst]["gods"]):
                continue
            return max(options, key=lambda a: (a.get("count", 0), a.get("god") == "war", str(a.get("from", ""))))
        return no

    def _play(self, options: list[Action], forced: bool) -> Action | None:
        """Cards in the play step (strong bot): the ones that help it, aimed at its best spot or at the
        biggest enemy stack beside it; a card it must play now (Pandora's Box) on its best target."""
        if not self.strong and not forced:
            return None
        for card in TURN_PLAYS:
            mine = [a for a in options if a["card"] == card]
            if mine:
                return max(mine, key=self._card_target_key)
        return max(options, key=self._card_target_key) if forced else None

    def _card_target_key(self, a: Action) -> tuple[float, str]:
        t = str(a.get("territory", ""))
        if t in self.owned:
            return (float(self._threat(t) + self.terr[t]["armies"]), t)
        if t in self.terr:
            near = any(n in self.owned for n in board.NEIGHBOURS[t])
            return (self.terr[t]["armies"] + (10.0 if near else 0.0), t)
        seat = a.get("seat")
        if isinstance(seat, int) and seat != self.me:
            return (float(sum(self.view["players"][seat]["cards"].values())), str(seat))
        return (0.0, str(a.get("deck", "")))

    # ---- setup, bids, order -------------------------------------------------------------
    @staticmethod
    def _first(options: list[Action]) -> Action:
        return options[0]

    def _bid(self, options: list[Action]) -> Action:
        """Secret bid from the view alone: the strong bot offers a third of its faith above what
        a summon costs it (turn order matters less than gods and temples)."""
        faith = max(a["faith"] for a in options)
        want = max(0, (faith - 3) // 3) if self.strong else 0
        return max((a for a in options if a["faith"] <= want), key=lambda a: a["faith"])

    @staticmethod
    def _pick_order(options: list[Action]) -> Action:
        return min(options, key=lambda a: a["position"])

    def _place_neutral(self, options: list[Action]) -> Action:
        """Neutral armies go where they stand between an opponent and this seat."""
        def key(a: Action) -> tuple[int, str]:
            t = a["territory"]
            return (sum(1 for n in board.NEIGHBOURS[t] if self._enemy(n) and self.terr[n]["owner"] != -1), t)

        return max(options, key=key)

    def _place(self, options: list[Action], step: str) -> Action:
        """Every army on the stack with the best targets (a claim: the focus continent)."""
        if step == "claim":
            def claim_key(a: Action) -> tuple[float, str]:
                t = a["territory"]
                c = board.CONTINENT_OF[t]
                held = sum(1 for x in board.CONTINENTS[c] if x in self.owned)
                return (held + board.BONUS[c] / len(board.CONTINENTS[c]), t)

            return max(options, key=claim_key)
        spots = sorted({a["territory"] for a in options})
        border = [t for t in spots if self._foes(t)] or spots
        if self.strong:
            pending = max(a["count"] for a in options)

            def key(t: str) -> tuple[float, float, int, str]:
                """Where the new armies make the best target beatable; failing that, the stack
                facing the biggest enemy stack (so a wall of armies is met, not fed)."""
                after = self.terr[t]["armies"] + pending - 1
                beatable = [self._target_value(n) for n in self._foes(t)
                            if after - self.terr[n]["armies"] >= self.min_lead]
                return (max(beatable, default=0.0), 0.1 * len(beatable), self._threat(t), t)

            siege = self._siege()
            spot = siege if siege in border else max(border, key=key)
        else:
            spot = max(border, key=lambda t: (self.terr[t]["armies"], t))
        mine = [a for a in options if a["territory"] == spot]
        return max(mine, key=lambda a: a["count"])

    def _gods(self, by: dict[str, list[Action]], setup: bool) -> Action | None:
        """The war god on the strongest border stack; a temple on the safest territory."""
        summons = [a for a in by.get("summon", []) if a["god"] == "war"] or by.get("summon", [])
        temples = by.get("build_temple", [])
        faith = self.view["players"][self.me]["faith"]
        if summons and (setup or not any("war" in self.terr[t]["gods"] for t in self.owned)):
            return max(summons, key=lambda a: (self.terr[a["territory"]]["armies"] if self._foes(a["territory"])
                                               else -1, a["territory"]))
        if temples and (setup or faith >= 5):
            return min(temples, key=lambda a: (len(self._foes(a["territory"])), -self.terr[a["territory"]]["armies"],
                                               a["territory"]))
        return None

    def _descend(self, options: list[Action]) -> Action:
        """All the dead into a free gate (a new space held), else the space already held."""
        free = [a for a in options if self.view["underworld"][a["space"]]["owner"] is None]
        pool = free or options
        return max(pool, key=lambda a: (a["count"], a["space"]))

    # ---- battle -------------------------------------------------------------------------
    def _champion(self, options: list[Action]) -> Action:
        for god in ("war", "sky", "magic", "death"):
            for a in options:
                if a["god"] == god:
                    return a
        return options[0]

    def _armies(self, where: str) -> int:
        if where == "heaven":
            return int(self.view["players"][self.me]["heaven"])
        if where in self.terr:
            return int(self.terr[where]["armies"])
        return int(self.view["underworld"][where]["armies"])

    def _attack(self, options: list[Action], step: str) -> Action | None:
        best: tuple[float, str, str] | None = None
        pick: Action | None = None
        siege = self._siege() if self.strong and step == "invade" else None
        for a in options:
            src, dst = a["from"], a["to"]
            att = self._armies(src) - (0 if src == "heaven" else 1)
            dfd = self._armies(dst)
            if self.strong:
                if src == siege and not (att >= 8 and att >= dfd):
                    continue
                value = self._target_value(dst) if dst in self.terr else 1.5
                lead = att - dfd
                # big stacks: three dice against two favour the attacker, so a level fight pays
                big = att >= 8 and att >= dfd
                if lead < self.min_lead and not (lead >= 1 and value >= 3) and not big:
                    continue
                score = value * (1 + 0.2 * min(lead, 10))
            elif att <= dfd and not (att >= 8 and att == dfd):
                continue
            else:
                score = float(att - dfd)
            # the whole stack in one go, fighting to the end
            if a["type"] == "attack_until":
                score += 0.5 - 0.01 * a["stop_at"]
            else:
                score += 0.01 * a["dice"] - (1.0 if self.strong and dst in self.terr else 0.0)
            key = (score, src, dst)
            if best is None or key > best:
                best, pick = key, a
        return pick

    def _move_in(self, options: list[Action]) -> Action:
        """Everything forward, unless the strong bot leaves a border behind: then half."""
        if not self.strong:
            return max(options, key=lambda a: a["count"])
        last = self.view.get("last") or {}
        src = last.get("from")
        if src in self.terr and any(self._enemy(n) for n in board.NEIGHBOURS[src]):
            total = max(a["count"] for a in options)
            want = max(total * 2 // 3, min(a["count"] for a in options))
            return min(options, key=lambda a: (abs(a["count"] - want), -a["count"]))
        return max(options, key=lambda a: a["count"])

    def _fortify(self, options: list[Action]) -> Action | None:
        """The interior's biggest stack to the most threatened border it reaches."""
        best: tuple[int, int, int, str, str] | None = None
        pick: Action | None = None
        for a in options:
            src, dst = a["from"], a["to"]
            if self._foes(src) or not self._foes(dst) or a["gods"]:
                continue
            key = (a["count"], self._threat(dst), -self.terr[dst]["armies"], src, dst)
            if best is None or key > best:
                best, pick = key, a
        return pick


def policy(level: str) -> GodstormBot:
    return GodstormBot(level)
