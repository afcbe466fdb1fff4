"""Cold War bots, reading only the seat's view.

The struggle is searched on a small model of the table (each side's groups: influence, faction,
active), with recruiting as a chance node over the group cards this seat has not seen on the
table. A position is worth what the truce would give if the struggle ended there: the token
(highest influence not over stability, ties by the target's priority spheres), or the target by
the opponent's civil unrest.

* ``quick``: one ply (its own move, then the truce), agent X by a fixed preference.
* ``strong``: two plies (its move, the opponent's best answer, then the truce); agent X by flat
  Monte Carlo over the hidden information: the opponent's agent X is sampled from the agents its
  view shows in headquarters (the chosen one is hidden among them) and the token's owner from the
  current struggle estimate, and the agent with the best mean report outcome is sent.

Captured events are never used: using one burns its victory points.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from bot.games.base import Action, Event, Rng
from bot.games.coldwar.cards import (
    ANALYST,
    ASSASSIN,
    CARD_SETS,
    CURRENT,
    DEPUTY,
    DIRECTOR,
    DOUBLE,
    SPY,
)
from bot.games.coldwar.view import ColdWarView

Group = tuple[int, str, bool]  # influence, faction, active
UNREST = 1.0
TOKEN = 0.7
AGENT_VALUE = {SPY: 3.0, DEPUTY: 1.0, DOUBLE: 3.0, ANALYST: 2.0, ASSASSIN: 4.0, DIRECTOR: 5.0}
"""What losing an agent for good costs, in victory points (used by the report model)."""


def truce_value(mine: Sequence[Group], theirs: Sequence[Group], stability: int, priority: Sequence[str]) -> float:
    """The truce as it would go now, from my side: +1 the opponent's unrest, +0.7 the token, and the
    negatives for the opponent."""
    i = sum(g[0] for g in mine)
    o = sum(g[0] for g in theirs)
    over_i, over_o = i > stability, o > stability
    if over_i and over_o:
        return 0.0
    if over_i:
        return -UNREST
    if over_o:
        return UNREST
    if i != o:
        return TOKEN if i > o else -TOKEN
    for fac in priority:
        bi = max((g[0] for g in mine if g[1] == fac), default=0)
        bo = max((g[0] for g in theirs if g[1] == fac), default=0)
        if bi != bo:
            return TOKEN if bi > bo else -TOKEN
    return 0.0


class Struggle:
    """The struggle model: ``sides[0]`` is the mover at the root (this seat), ``sides[1]`` the opponent."""

    def __init__(self, stability: int, limit: int, priority: Sequence[str], pool: Sequence[int]) -> None:
        self.stability, self.limit, self.priority = stability, limit, list(priority)
        counts: dict[int, int] = {}
        for inf in pool:
            counts[inf] = counts.get(inf, 0) + 1
        total = sum(counts.values()) or 1
        self.draws = [(inf, n / total) for inf, n in sorted(counts.items())] or [(3, 1.0)]

    def value(self, sides: tuple[tuple[Group, ...], tuple[Group, ...]]) -> float:
        return truce_value(sides[0], sides[1], self.stability, self.priority)

    def moves(self, sides: tuple[tuple[Group, ...], tuple[Group, ...]], who: int) -> list[Any]:
        """Model moves of ``who``: ``("wait",)``, ``("recruit",)``, ``("use", i, side, j)``."""
        out: list[Any] = [("wait",)]
        own = sides[who]
        if len(own) < self.limit:
            out.append(("recruit",))
        for i, (_, fac, active) in enumerate(own):
            if not active:
                continue
            if fac == "military":
                for side in (0, 1):
                    for j in range(len(sides[side])):
                        if not (side == who and j == i):
                            out.append(("use", i, side, j))
            elif fac == "political" and len(own) < self.limit:
                for j in range(len(sides[1 - who])):
                    out.append(("use", i, 1 - who, j))
        return out

    def after(self, sides: tuple[tuple[Group, ...], tuple[Group, ...]], who: int, move: Any,
              drawn: int = 0) -> tuple[tuple[Group, ...], tuple[Group, ...]]:
        new = [list(sides[0]), list(sides[1])]
        if move[0] == "recruit":
            new[who].append((drawn, "new", False))
        elif move[0] == "use-inert":  # economic or media: only the group's activity changes here
            inf, fac, _ = new[who][move[1]]
            new[who][move[1]] = (inf, fac, False)
        elif move[0] == "use":
            _, i, side, j = move
            inf, fac, _ = new[who][i]
            new[who][i] = (inf, fac, False)
            victim = new[side].pop(j)
            if fac == "political":
                new[1 - side].append(victim)
        return tuple(new[0]), tuple(new[1])

    def search(self, sides: tuple[tuple[Group, ...], tuple[Group, ...]], who: int, depth: int,
               waits: int) -> float:
        """Expectimax value for side 0: side 0 maximises, side 1 minimises, recruits are averaged."""
        if waits >= 2 or depth == 0:
            return self.value(sides)
        best = None
        for move in self.moves(sides, who):
            v = self.move_value(sides, who, move, depth, waits)
            if best is None or (v > best if who == 0 else v < best):
                best = v
        return self.value(sides) if best is None else best

    def move_value(self, sides: tuple[tuple[Group, ...], tuple[Group, ...]], who: int, move: Any, depth: int,
                   waits: int) -> float:
        if move[0] == "wait":
            return self.search(sides, 1 - who, depth - 1, waits + 1)
        if move[0] == "recruit":
            return sum(p * self.search(self.after(sides, who, move, inf), 1 - who, depth - 1, 0)
                       for inf, p in self.draws)
        return self.search(self.after(sides, who, move), 1 - who, depth - 1, 0)


class ColdWarBot:
    def __init__(self, level: str) -> None:
        self.level = level
        self.name = f"coldwar-{level}"
        self.depth = 2 if level == "strong" else 1
        self.samples = 48 if level == "strong" else 0

    def choose(self, view: dict[str, Any], legal: Sequence[Action], rng: Rng,
               history: Sequence[Event] = ()) -> Action:
        v = cast("ColdWarView", view)  # the seat's view (bot.games.coldwar.view)
        kind = v["decision"]
        seat = v["seat"]
        if kind == "plan":
            return self._plan(v, legal, rng)
        if kind == "turn":
            return self._turn(v, legal)
        if kind == "first":
            return {"type": "first", "seat": 1 - seat}
        if kind == "event":
            return {"type": "skip"} if {"type": "skip"} in legal else dict(legal[0])
        if kind == "double":
            return self._double(v, legal)
        if kind == "media":
            return self._media(v, legal)
        if kind == "discard":
            return self._discard(v, legal)
        return dict(legal[0])

    # ---- the struggle ------------------------------------------------------------------
    @staticmethod
    def _groups(view: ColdWarView, side: int) -> tuple[Group, ...]:
        return tuple((g["influence"], g["faction"], g["active"]) for g in view["sides"][side]["groups"])

    @staticmethod
    def _model(view: ColdWarView) -> Struggle:
        target = view["target"]
        assert target is not None  # a struggle is fought over the revealed target
        cards = CARD_SETS[CURRENT]
        on_table = {g["id"] for side in view["sides"] for g in side["groups"]}
        pool = [cards.influence(gid) for gid in cards.group_ids if gid not in on_table]
        return Struggle(target["stability"], target["limit"], target["priority"], pool)

    def _turn(self, view: ColdWarView, legal: Sequence[Action]) -> Action:
        seat = view["seat"]
        model = self._model(view)
        sides = (self._groups(view, seat), self._groups(view, 1 - seat))
        index = {g["id"]: (k, j) for k in (0, 1) for j, g in enumerate(view["sides"][k]["groups"])}
        best: tuple[float, int] | None = None
        for n, action in enumerate(legal):
            move = self._as_move(action, seat, index, sides)
            if move is None:
                continue
            value = model.move_value(sides, 0, move, self.depth, 0)
            # a small preference for acting over waiting when it changes nothing
            value += {"wait": 0.0, "recruit": 0.0, "use": 0.001, "use-inert": 0.0005}[move[0]]
            if best is None or value > best[0] + 1e-9:
                best = (value, n)
        if best is None:
            return dict(legal[0])
        return dict(legal[best[1]])

    @staticmethod
    def _as_move(action: Action, seat: int, index: dict[str, tuple[int, int]],
                 sides: tuple[tuple[Group, ...], tuple[Group, ...]]) -> Any:
        kind = action["type"]
        if kind == "wait":
            return ("wait",)
        if kind == "recruit":
            return ("recruit",)
        if kind != "use":
            return None
        side, i = index[action["group"]]
        fac = sides[0][i][1]
        if "target" not in action or fac not in ("military", "political"):
            return ("use-inert", i)  # handled below as a wait-like move
        tside, j = index[action["target"]]
        return ("use", i, 0 if tside == seat else 1, j)

    # ---- agent X -----------------------------------------------------------------------
    def _plan(self, view: ColdWarView, legal: Sequence[Action], rng: Rng) -> Action:
        mine = [a["agent"] for a in legal]
        if self.samples == 0:
            for pref in (DIRECTOR, DEPUTY, SPY, ANALYST, DOUBLE, ASSASSIN):
                if pref in mine:
                    return {"type": "agent", "agent": pref}
            return dict(legal[0])
        seat = view["seat"]
        opp = view["sides"][1 - seat]
        known = view["private"].get("opponent_x")
        if known is None and isinstance(opp["x"], int):
            known = opp["x"]
        candidates = [known] if known is not None else list(opp["hq"]) or [DEPUTY]
        p_token = 0.5 + 0.15 * self._lead(view)
        vp = view["target"]["vp"] if view["target"] else 10
        totals = dict.fromkeys(mine, 0.0)
        for _ in range(self.samples):
            theirs = rng.choice(candidates)
            token = seat if rng.random() < p_token else 1 - seat
            for agent in mine:
                totals[agent] += report_value(agent, theirs, token == seat, vp)
        best = max(mine, key=lambda a: (totals[a], -a))
        return {"type": "agent", "agent": best}

    @staticmethod
    def _lead(view: ColdWarView) -> float:
        """-1..1: how the struggle tends to go for this seat (the balance holder chooses who starts)."""
        return 0.0

    # ---- the rest ----------------------------------------------------------------------
    @staticmethod
    def _double(view: ColdWarView, legal: Sequence[Action]) -> Action:
        for pref in (DIRECTOR, ASSASSIN, SPY):
            for a in legal:
                if a.get("mode") == "leave" and a.get("agent") == pref:
                    return dict(a)
        return {"type": "double", "mode": "peek"} if {"type": "double", "mode": "peek"} in legal else dict(legal[0])

    def _media(self, view: ColdWarView, legal: Sequence[Action]) -> Action:
        seat = view["seat"]
        top = view["private"].get("media_top")
        cards = CARD_SETS[CURRENT]
        if top is None or top not in cards.groups:
            return dict(legal[0])
        target = view["target"]
        assert target is not None  # a media group is used in the struggle, over the revealed target
        mine = self._groups(view, seat)
        theirs = self._groups(view, 1 - seat)
        take = (cards.influence(top), cards.faction(top), False)
        options = {"return": truce_value(mine, theirs, target["stability"], target["priority"]) - 0.01,
                   "discard": truce_value(mine, theirs, target["stability"], target["priority"])}
        if len(mine) < target["limit"]:
            options["take"] = truce_value(mine + (take,), theirs, target["stability"], target["priority"])
        for choice in ("take", "discard", "return"):
            if choice in options and options[choice] == max(options.values()):
                action = {"type": "media", "choice": choice}
                if action in legal:
                    return action
        return dict(legal[0])

    @staticmethod
    def _discard(view: ColdWarView, legal: Sequence[Action]) -> Action:
        seat = view["seat"]
        theirs = {g["id"]: g["influence"] for g in view["sides"][1 - seat]["groups"]}
        best = max(legal, key=lambda a: theirs.get(a.get("group", ""), -1))
        return dict(best)


def report_value(mine: int, theirs: int, my_token: bool, vp: int) -> float:
    """Victory points this seat gains minus the opponent's in the report phase, agents ``mine`` and
    ``theirs`` revealed, the token on this seat's side or not (the rulebook's order 1 to 6, then
    the token holder's capture)."""
    claimed: int | None = None  # 0: me, 1: the opponent, 2: under the deck
    gain = 0.0
    agents = (mine, theirs)
    token = 0 if my_token else 1
    if SPY in agents:
        claimed = 1 - token
    if ASSASSIN in agents:
        for who in (0, 1):
            if agents[who] == ASSASSIN and token == who:
                victim = agents[1 - who]
                if victim != DEPUTY:
                    gain += AGENT_VALUE[victim] if who == 0 else -AGENT_VALUE[victim]
                if claimed is None:
                    claimed = 2
    if DIRECTOR in agents:
        for who in (0, 1):
            if agents[who] == DIRECTOR and token == who:
                gain += 10.0 if who == 0 else -10.0
    if claimed is None:
        claimed = token
    if claimed == 0:
        gain += vp
    elif claimed == 1:
        gain -= vp
    # spent agents: all but the Deputy Director go on leave for a round
    gain -= 0.0 if mine == DEPUTY else 1.0
    return gain


def policy(level: str) -> ColdWarBot:
    return ColdWarBot(level)
