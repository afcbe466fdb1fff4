"""The rules of Cold War: CIA vs KGB on a plain JSON state.

The round is a queue of *steps* (``state["queue"]``). Automatic steps run at once; a step that
needs a player sets ``state["dec"]`` (the open decision) and stops. Applying an answer clears the
decision, and the queue runs on until the next decision. Seat 0 is the CIA, seat 1 the KGB.

The turn structure is declared in two tables at the end of this module: ``STEPS`` (each step of a
round, in order, with the phase it belongs to) and ``DECISIONS`` (each kind of open decision: who
answers it, what they may answer, what an answer does).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.games.base import Action, Event, IllegalAction, Rng
from bot.games.coldwar.cards import (
    ANALYST,
    ASSASSIN,
    CARD_SETS,
    CURRENT,
    DEPUTY,
    DIRECTOR,
    DOUBLE,
    SPY,
    card_set,
)

ROUND_STEPS = ["reveal", "balance", "win:briefing", "first", "shuffle", "analyst", "plan", "return",
               "struggle", "win:truce", "truce", "report", "win:detente", "detente"]
NO_GROUP_EVENTS = ("protest", "benefit_discard", "summit_reveal")
"""Struggle abilities a seat without groups may use: the recruiting ones, and Summit Meeting (not an
action, so the seat still has to recruit afterwards)."""


def new_state(seed: int, goal: int = 100, cards: int = CURRENT) -> dict[str, Any]:
    rng = Rng(seed)
    tdeck = list(CARD_SETS[cards].target_ids)
    rng.shuffle(tdeck)
    gdeck = list(CARD_SETS[cards].group_ids)
    rng.shuffle(gdeck)
    return {
        "cards": cards, "rng": rng.to_json(), "goal": goal, "round": 0, "phase": "briefing",
        "tdeck": tdeck, "target": None, "tdiscard": [], "burnt": [[], []],
        "gdeck": gdeck, "gdiscard": [], "table": [[], []],
        "trophies": [[], []], "won_round": {},
        "agents": [{"hq": list(range(1, 7)), "leave": [], "dead": []} for _ in range(2)],
        "x": [None, None], "exposed": [False, False], "saved": [False, False],
        "balance": None, "token": None, "claimed": None, "unrest_capture": False,
        "last_loser": None, "double_unrest": False, "analyst": None, "peek": None,
        "turn": None, "waits": 0, "queue": [], "dec": None, "offered": [], "over": None,
    }


class Engine:
    """Rules over ``self.s`` (the JSON state). Every public method keeps the state consistent."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.s = state
        self.c = card_set(state)
        self.rng = Rng.from_json(state["rng"])
        self.ev: list[Event] = []

    # ---- helpers ---------------------------------------------------------------------------
    def _emit(self, type_: str, **data: Any) -> None:
        data["type"] = type_
        self.ev.append(data)

    def _sync(self) -> None:
        self.s["rng"] = self.rng.to_json()

    def inf(self, seat: int) -> int:
        return sum(self.c.influence(g) for g, _ in self.s["table"][seat])

    def count(self, seat: int) -> int:
        return len(self.s["table"][seat])

    def limit(self) -> int:
        return int(self.c.targets[self.s["target"]]["limit"])

    def stability(self) -> int:
        return int(self.c.targets[self.s["target"]]["stability"])

    def score(self, seat: int) -> int:
        return sum(self.c.vp(t) for t in self.s["trophies"][seat])

    def where(self, gid: str) -> tuple[int, int]:
        for seat in (0, 1):
            for i, (g, _) in enumerate(self.s["table"][seat]):
                if g == gid:
                    return seat, i
        raise IllegalAction("coldwar.err.illegal")

    def in_play(self) -> list[str]:
        return [g for seat in (0, 1) for g, _ in self.s["table"][seat]]

    def usable_events(self, seat: int, phase: str) -> list[str]:
        """Captured events of ``seat`` usable in ``phase`` (never in the round they were won)."""
        s = self.s
        return [t for t in s["trophies"][seat] if self.c.phase(t) == phase
                and s["won_round"].get(t, s["round"]) < s["round"]]

    def _draw_group(self) -> str:
        """Top group card; an empty deck is rebuilt from the shuffled discard (house rule)."""
        s = self.s
        if not s["gdeck"]:
            s["gdeck"] = s["gdiscard"]
            s["gdiscard"] = []
            self.rng.shuffle(s["gdeck"])
            self._emit("group_reshuffle")
        return str(s["gdeck"].pop(0))

    def _peek_group(self) -> str:
        s = self.s
        if not s["gdeck"]:
            s["gdeck"] = s["gdiscard"]
            s["gdiscard"] = []
            self.rng.shuffle(s["gdeck"])
            self._emit("group_reshuffle")
        return str(s["gdeck"][0])

    def _capture(self, seat: int, tid: str, how: str) -> None:
        self.s["trophies"][seat].append(tid)
        self.s["won_round"][tid] = self.s["round"]
        self._emit("capture", seat=seat, target=tid, how=how, vp=self.c.vp(tid))

    def _eliminate(self, seat: int, reason: str) -> None:
        """Agent X of ``seat`` dies, except the Deputy Director who returns to headquarters."""
        s = self.s
        agent = s["x"][seat]
        if agent is None:
            return
        if agent == DEPUTY:
            if agent not in s["agents"][seat]["hq"]:
                s["agents"][seat]["hq"].append(agent)
                s["agents"][seat]["hq"].sort()
            self._emit("deputy_survives", seat=seat, reason=reason)
        elif s["saved"][seat]:
            s["agents"][seat]["leave"].append(agent)
            self._emit("nobel_saved", seat=seat, agent=agent)
        else:
            s["agents"][seat]["dead"].append(agent)
            self._emit("eliminated", seat=seat, agent=agent, reason=reason)
        s["x"][seat] = None

    # ---- driving the queue ---------------------------------------------------------------
    def start(self) -> None:
        self.s["queue"] = ["round"]
        self.run()

    def run(self) -> None:
        """Run the queued steps (see ``STEPS``) until one opens a decision or the game ends."""
        s = self.s
        while s["dec"] is None and s["over"] is None and s["queue"]:
            name, _, arg = s["queue"].pop(0).partition(":")
            step = STEPS[name if name != "win" else f"win:{arg}"]
            if step.phase is not None:
                s["phase"] = step.phase
            step.run(self, arg)
        self._sync()

    def _step_round(self) -> None:
        s = self.s
        s["round"] += 1
        s["queue"] = list(ROUND_STEPS)
        self._emit("round", round=s["round"])

    def _step_reveal(self) -> None:
        s = self.s
        if not s["tdeck"] and s["tdiscard"]:
            s["tdeck"] = s["tdiscard"]
            s["tdiscard"] = []
            self.rng.shuffle(s["tdeck"])
            self._emit("target_reshuffle")
        if not s["tdeck"]:
            self._finish(exhausted=True)
            return
        s["target"] = s["tdeck"].pop(0)
        self._emit("reveal", target=s["target"])

    def _step_balance(self) -> None:
        s = self.s
        a, b = self.score(0), self.score(1)
        if s["round"] == 1 or s["balance"] is None:
            s["balance"] = self.rng.randint(0, 1)
            why = "random"
        elif a != b:
            s["balance"] = 0 if a < b else 1
            why = "behind"
        elif s["double_unrest"] or s["last_loser"] is None:
            why = "stays"
        else:
            s["balance"] = s["last_loser"]
            why = "loser"
        self._emit("balance", seat=s["balance"], why=why)

    def _window(self, phase: str) -> None:
        """Offer each usable event of ``phase`` once (balance holder first)."""
        s = self.s
        first = s["balance"] if s["balance"] is not None else 0
        for seat in (first, 1 - first):
            for card in self.usable_events(seat, phase):
                if card in s["offered"] or not self._event_possible(seat, card):
                    continue
                s["queue"].insert(0, "win:" + phase)
                s["dec"] = {"kind": "event", "seat": seat, "card": card}
                return
        s["offered"] = []

    def _step_win_briefing(self) -> None:
        self._window("briefing")

    def _step_win_truce(self) -> None:
        self._window("truce")

    def _step_win_detente(self) -> None:
        self._window("detente")

    def military_in_play(self) -> list[str]:
        return [g for g in self.in_play() if self.c.faction(g) == "military"]

    def _event_possible(self, seat: int, card: str) -> bool:
        """Whether using ``card`` now would do anything (an event is never offered in vain)."""
        s = self.s
        ability = self.c.ability(card)
        if ability == "nobel":
            return self.inf(seat) > self.stability() and s["x"][seat] not in (None, DEPUTY)
        if ability == "space_race":
            return len(s["tdeck"]) >= 2
        if ability == "summit_reveal":
            return s["x"][1 - seat] is not None and not self.shown(1 - seat)
        if ability == "olympics_return":
            return bool(s["agents"][seat]["dead"])
        if ability == "nuclear_military":
            return bool(self.military_in_play())
        if ability == "benefit_discard":
            return bool(s["gdiscard"]) and self.count(seat) < self.limit()
        # card set 1
        if ability == "summit":
            return bool(s["tdeck"])
        if ability == "protest":
            return self.count(seat) < self.limit()
        if ability == "nuclear":
            return self.count(seat) > 0
        return True

    def shown(self, seat: int) -> bool:
        """Agent X of ``seat`` was revealed by Summit Meeting during this round."""
        return bool(self.s.get("shown", [False, False])[seat])

    def _step_first(self) -> None:
        self.s["dec"] = {"kind": "first", "seat": self.s["balance"]}

    def _step_shuffle(self) -> None:
        s = self.s
        if s["round"] > 1 and s["gdiscard"]:
            s["gdeck"].extend(s["gdiscard"])
            s["gdiscard"] = []
            self.rng.shuffle(s["gdeck"])
            self._emit("shuffle")

    def _step_analyst(self) -> None:
        s = self.s
        seat = s["analyst"]
        s["analyst"] = None
        if seat is not None and len(s["gdeck"]) >= 2:
            s["dec"] = {"kind": "analyst", "seat": seat, "cards": s["gdeck"][:3]}

    def _step_plan(self) -> None:
        s = self.s
        s["dec"] = {"kind": "plan", "peek": s["peek"]}
        s["peek"] = None
        self._emit("planning")

    def _step_return(self) -> None:
        s = self.s
        for seat in (0, 1):
            ag = s["agents"][seat]
            if ag["leave"]:
                ag["hq"] = sorted(ag["hq"] + ag["leave"])
                ag["leave"] = []

    def _step_struggle(self) -> None:
        s = self.s
        s["waits"] = 0
        s["dec"] = {"kind": "turn", "seat": s["turn"]}

    def _step_truce(self) -> None:
        s = self.s
        stab = self.stability()
        infl = [self.inf(0), self.inf(1)]
        over = [infl[0] > stab, infl[1] > stab]
        self._emit("truce", influence=infl, stability=stab)
        if over[0] and over[1]:
            for seat in (0, 1):
                self._unrest(seat)
            s["tdeck"].append(s["target"])
            s["claimed"] = "bottom"
            s["double_unrest"] = True
            self._emit("double_unrest", target=s["target"])
        elif over[0] or over[1]:
            bust = 0 if over[0] else 1
            s["token"] = 1 - bust
            s["last_loser"] = bust
            s["double_unrest"] = False
            self._unrest(bust)
            s["unrest_capture"] = True
            s["claimed"] = 1 - bust
            self._capture(1 - bust, s["target"], "unrest")
        else:
            winner, why = self._truce_winner(infl)
            s["double_unrest"] = False
            if winner is None:
                # house rule: no group on either side; the target goes under the deck
                s["tdeck"].append(s["target"])
                s["claimed"] = "bottom"
                self._emit("no_winner", target=s["target"])
            else:
                s["token"] = winner
                s["last_loser"] = 1 - winner
                self._emit("token", seat=winner, why=why)

    def _truce_winner(self, infl: list[int]) -> tuple[int | None, str]:
        if infl[0] != infl[1]:
            return (0 if infl[0] > infl[1] else 1), "influence"
        for fac in self.c.targets[self.s["target"]]["priority"]:
            best = [max((self.c.influence(g) for g, _ in self.s["table"][seat] if self.c.faction(g) == fac),
                        default=0)
                    for seat in (0, 1)]
            if best[0] != best[1]:
                return (0 if best[0] > best[1] else 1), fac
        return None, "none"

    def _unrest(self, seat: int) -> None:
        s = self.s
        s["exposed"][seat] = True
        s.setdefault("unrest_x", [None, None])[seat] = s["x"][seat]
        self._emit("unrest", seat=seat, agent=s["x"][seat])
        self._eliminate(seat, "unrest")

    def _step_report(self) -> None:
        s = self.s
        self._emit("report", agents=list(s["x"]), exposed=list(s["exposed"]))
        s["queue"][:0] = [f"ab:{n}" for n in range(1, 7)] + ["capture"]

    def _resolving(self, agent: int) -> list[int]:
        """Seats whose agent X is ``agent`` and may use its ability (not exposed by unrest)."""
        s = self.s
        first = s["balance"] if s["balance"] is not None else 0
        return [seat for seat in (first, 1 - first) if s["x"][seat] == agent and not s["exposed"][seat]]

    def _sent(self, agent: int) -> list[int]:
        """Seats that sent ``agent`` as agent X this round, including one lost to civil unrest."""
        s = self.s
        lost = s.get("unrest_x", [None, None])
        return [seat for seat in (0, 1) if agent in (s["x"][seat], lost[seat])]

    def _ability(self, agent: int) -> None:
        s = self.s
        seats = self._resolving(agent)
        token = s["token"]
        if agent == ANALYST and len(self._sent(ANALYST)) == 2:
            # "применяется свойство аналитика того игрока, чей жетон превосходства не лежит на карте
            # цели": only that Analyst; if it was lost to civil unrest, nobody looks
            seats = [seat for seat in seats if token is not None and seat == 1 - token]
        if not seats:
            return
        if agent == SPY:
            for seat in seats:
                if s["claimed"] is None and token is not None:
                    s["claimed"] = 1 - token
                    self._emit("ability", seat=seat, agent=SPY, effect="transfer")
                    self._capture(1 - token, s["target"], "spy")
                else:
                    self._emit("ability", seat=seat, agent=SPY, effect="none")
        elif agent == DEPUTY:
            for seat in seats:
                self._emit("ability", seat=seat, agent=DEPUTY, effect="none")
        elif agent == DOUBLE:
            if len(seats) == 2:
                seats = [token] if token is not None else []
            for seat in seats:
                s["dec"] = {"kind": "double", "seat": seat}
        elif agent == ANALYST:
            for seat in seats:
                s["analyst"] = seat
                self._emit("ability", seat=seat, agent=ANALYST, effect="analyst")
        elif agent == ASSASSIN:
            for seat in seats:
                if token != seat or s["unrest_capture"]:
                    self._emit("ability", seat=seat, agent=ASSASSIN, effect="none")
                    continue
                self._emit("ability", seat=seat, agent=ASSASSIN, effect="kill")
                self._eliminate(1 - seat, "assassin")
                if s["claimed"] is None:
                    s["claimed"] = "bottom"
                    s["tdeck"].append(s["target"])
                    self._emit("to_bottom", target=s["target"])
        elif agent == DIRECTOR:
            for seat in seats:
                if token == seat and s["tdeck"]:
                    self._emit("ability", seat=seat, agent=DIRECTOR, effect="bottom")
                    self._capture(seat, s["tdeck"].pop(), "director")
                else:
                    self._emit("ability", seat=seat, agent=DIRECTOR, effect="none")

    def _step_capture(self) -> None:
        s = self.s
        if s["claimed"] is None and s["token"] is not None:
            s["claimed"] = s["token"]
            self._capture(s["token"], s["target"], "token")

    def _step_detente(self) -> None:
        s = self.s
        for seat in (0, 1):
            agent = s["x"][seat]
            if agent is not None:
                ag = s["agents"][seat]
                (ag["hq"] if agent == DEPUTY else ag["leave"]).append(agent)
                ag["hq"].sort()
            s["gdiscard"].extend(g for g, _ in s["table"][seat])
            s["table"][seat] = []
        scores = [self.score(0), self.score(1)]
        self._emit("detente", scores=scores)
        s.update(x=[None, None], exposed=[False, False], saved=[False, False], token=None, claimed=None,
                 unrest_capture=False, target=None, turn=None, waits=0)
        # round-only records, present only in a round that needed them
        s.pop("shown", None)
        s.pop("unrest_x", None)
        goal = s["goal"]
        if max(scores) >= goal and scores[0] != scores[1]:
            self._finish()
        else:
            if min(scores) >= goal:
                self._emit("extra_round")
            s["queue"] = ["round"]

    def _finish(self, exhausted: bool = False) -> None:
        s = self.s
        scores = [self.score(0), self.score(1)]
        if scores[0] == scores[1]:
            s["over"] = {"winners": [], "draw": True, "scores": scores, "exhausted": exhausted}
        else:
            w = 0 if scores[0] > scores[1] else 1
            s["over"] = {"winners": [w], "draw": False, "scores": scores, "exhausted": exhausted}
        s["dec"] = None
        s["queue"] = []
        s["phase"] = "over"
        self._emit("game_over", winners=s["over"]["winners"], scores=scores, exhausted=exhausted)

    # ---- decisions -----------------------------------------------------------------------
    def actors(self) -> list[int]:
        d = self.s["dec"]
        if d is None or self.s["over"] is not None:
            return []
        return DECISIONS[d["kind"]].who(self, d)

    def _planners(self, d: dict[str, Any]) -> list[int]:
        """Both seats choose agent X at once, except that a Double Agent's peek makes the other seat
        choose first."""
        waiting = [seat for seat in (0, 1) if self.s["x"][seat] is None]
        peek = d.get("peek")
        if peek is not None and peek in waiting and len(waiting) == 2:
            return [1 - peek]
        return waiting

    def _decider(self, d: dict[str, Any]) -> list[int]:
        return [d["seat"]]

    def legal(self, seat: int) -> list[Action]:
        if seat not in self.actors():
            return []
        d = self.s["dec"]
        return DECISIONS[d["kind"]].legal(self, seat, d)

    def _legal_plan(self, seat: int, d: dict[str, Any]) -> list[Action]:
        return [{"type": "agent", "agent": a} for a in self.s["agents"][seat]["hq"]]

    def _legal_first(self, seat: int, d: dict[str, Any]) -> list[Action]:
        return [{"type": "first", "seat": seat}, {"type": "first", "seat": 1 - seat}]

    def _legal_event(self, seat: int, d: dict[str, Any]) -> list[Action]:
        card = d["card"]
        if self.c.ability(card) == "olympics_return":
            uses: list[Action] = [{"type": "event", "card": card, "agent": a}
                                  for a in sorted(self.s["agents"][seat]["dead"])]
        else:
            uses = [{"type": "event", "card": card}]
        return uses + [{"type": "skip"}]

    def _legal_analyst(self, seat: int, d: dict[str, Any]) -> list[Action]:
        return [{"type": "order", "order": list(p)} for p in itertools.permutations(d["cards"])]

    def _legal_space(self, seat: int, d: dict[str, Any]) -> list[Action]:
        return self._legal_analyst(seat, d)

    def _legal_double(self, seat: int, d: dict[str, Any]) -> list[Action]:
        acts: list[Action] = [{"type": "double", "mode": "peek"}]
        for a in self.s["agents"][1 - seat]["hq"]:
            if a != DEPUTY:
                acts.append({"type": "double", "mode": "leave", "agent": a})
        return acts

    def _legal_media(self, seat: int, d: dict[str, Any]) -> list[Action]:
        acts: list[Action] = []
        if self.count(seat) < self.limit():
            acts.append({"type": "media", "choice": "take"})
        acts += [{"type": "media", "choice": "discard"}, {"type": "media", "choice": "return"}]
        return acts

    def _legal_discard(self, seat: int, d: dict[str, Any]) -> list[Action]:
        return [{"type": "discard", "group": g} for g in d["cards"]]

    def _legal_turn(self, seat: int, d: dict[str, Any]) -> list[Action]:
        s = self.s
        mine = s["table"][seat]
        opp = 1 - seat
        acts: list[Action] = []
        lim = self.limit()
        if len(mine) < lim:
            acts.append({"type": "recruit"})
        if mine:
            stab = self.stability()
            opp_inf = self.inf(opp)
            others = self.in_play()
            for gid, active in mine:
                if not active:
                    continue
                fac = self.c.faction(gid)
                if fac == "military":
                    acts += [{"type": "use", "group": gid, "target": t} for t in others if t != gid]
                elif fac == "economic":
                    acts += [{"type": "use", "group": gid, "target": t} for t in others
                             if t != gid and self.c.faction(t) != "economic"]
                elif fac == "media":
                    acts.append({"type": "use", "group": gid})
                elif fac == "political" and opp_inf <= stab:
                    if len(mine) < lim:
                        acts += [{"type": "use", "group": gid, "target": t} for t, _ in s["table"][opp]]
                    if len(s["table"][opp]) < lim:
                        acts += [{"type": "use", "group": gid, "target": t} for t, _ in mine
                                 if t != gid and opp_inf + self.c.influence(t) <= stab]
            acts += [{"type": "event", "card": c} for c in self.usable_events(seat, "struggle")
                     if self._event_possible(seat, c)]
            acts.append({"type": "wait"})
        else:
            # without groups a seat must recruit: a recruiting event, or one that is not an action
            acts += [{"type": "event", "card": c} for c in self.usable_events(seat, "struggle")
                     if self.c.ability(c) in NO_GROUP_EVENTS and self._event_possible(seat, c)]
        return acts

    # ---- applying ------------------------------------------------------------------------
    def apply(self, seat: int, action: Action) -> list[Event]:
        if self.s["over"] is not None:
            raise IllegalAction("coldwar.err.over")
        if seat not in self.actors():
            raise IllegalAction("coldwar.err.not_your_turn")
        if action not in self.legal(seat):
            raise IllegalAction("coldwar.err.illegal")
        self.ev = []
        d = self.s["dec"]
        DECISIONS[d["kind"]].do(self, seat, d, action)
        self.run()
        return self.ev

    def _do_plan(self, seat: int, d: dict[str, Any], a: Action) -> None:
        s = self.s
        agent = a["agent"]
        s["x"][seat] = agent
        s["agents"][seat]["hq"].remove(agent)
        self._emit("agent_chosen", seat=seat, agent=agent, to=[seat])
        self._emit("chosen", seat=seat)
        peek = d.get("peek")
        if peek is not None and peek == 1 - seat and s["x"][peek] is None:
            self._emit("peek_x", seat=peek, agent=agent, to=[peek])
        if s["x"][0] is not None and s["x"][1] is not None:
            s["dec"] = None

    def _do_first(self, seat: int, d: dict[str, Any], a: Action) -> None:
        self.s["turn"] = a["seat"]
        self.s["dec"] = None
        self._emit("first", seat=seat, first=a["seat"])

    def _reorder_top(self, seat: int, deck: str, order: list[Any], event: str) -> None:
        """Put the peeked top cards of ``deck`` back in the chosen order."""
        self.s[deck][:len(order)] = order
        self.s["dec"] = None
        self._emit(event, seat=seat)

    def _do_analyst(self, seat: int, d: dict[str, Any], a: Action) -> None:
        self._reorder_top(seat, "gdeck", a["order"], "analyst_done")

    def _do_space(self, seat: int, d: dict[str, Any], a: Action) -> None:
        self._reorder_top(seat, "tdeck", a["order"], "space_done")

    def _do_double(self, seat: int, d: dict[str, Any], a: Action) -> None:
        s = self.s
        s["dec"] = None
        if a["mode"] == "peek":
            s["peek"] = seat
            self._emit("ability", seat=seat, agent=DOUBLE, effect="peek")
        else:
            ag = s["agents"][1 - seat]
            ag["hq"].remove(a["agent"])
            ag["leave"].append(a["agent"])
            self._emit("ability", seat=seat, agent=DOUBLE, effect="leave", victim=a["agent"])

    def _do_event(self, seat: int, d: dict[str, Any], a: Action) -> None:
        s = self.s
        if a["type"] == "skip":
            s["offered"].append(d["card"])
            s["dec"] = None
            return
        s["dec"] = None
        self._use_event(seat, a)

    def _burn(self, seat: int, card: str) -> None:
        s = self.s
        s["trophies"][seat].remove(card)
        s["tdiscard"].append(card)
        s["burnt"][seat].append(card)
        self._emit("event_used", seat=seat, card=card, vp=self.c.vp(card))

    def _use_event(self, seat: int, a: Action) -> None:
        """Burn the event and apply its ability; sets the next decision where the ability needs one."""
        s = self.s
        card = a["card"]
        ability = self.c.ability(card)
        self._burn(seat, card)
        if ability == "summit_reveal":
            # not an action: the reveal is public and the same seat still has its turn
            opp = 1 - seat
            s.setdefault("shown", [False, False])[opp] = True
            self._emit("x_revealed", seat=opp, agent=s["x"][opp], by=seat)
            s["dec"] = {"kind": "turn", "seat": seat}
        elif ability == "olympics_return":
            ag = s["agents"][seat]
            ag["dead"].remove(a["agent"])
            ag["leave"].append(a["agent"])
            self._emit("agent_returned", seat=seat, agent=a["agent"])
        elif ability == "nuclear_military":
            s["dec"] = {"kind": "discard", "seat": seat, "cards": self.military_in_play()}
        elif ability == "benefit_discard":
            gid = s["gdiscard"].pop()
            s["table"][seat].append([gid, True])
            self._emit("recruit", seat=seat, group=gid, how="benefit")
            self._next_turn(seat, False)
        elif ability == "summit":
            s["tdeck"].append(s["target"])
            s["target"] = s["tdeck"].pop(0)
            self._emit("reveal", target=s["target"])
        elif ability == "olympics":
            s["balance"] = seat
            self._emit("balance", seat=seat, why="olympics")
        elif ability == "nobel":
            s["saved"][seat] = True
        elif ability == "space_race":
            s["dec"] = {"kind": "space", "seat": seat, "cards": s["tdeck"][:3]}
        elif ability == "protest":
            gid = self._draw_group()
            s["table"][seat].append([gid, True])
            s["waits"] = 0
            self._emit("recruit", seat=seat, group=gid, how="protest")
            s["dec"] = {"kind": "turn", "seat": seat}
        elif ability == "nuclear":
            s["dec"] = {"kind": "discard", "seat": seat, "cards": self.in_play()}

    def _next_turn(self, seat: int, waited: bool) -> None:
        s = self.s
        s["waits"] = s["waits"] + 1 if waited else 0
        if s["waits"] >= 2:
            s["dec"] = None
            self._emit("struggle_over")
        else:
            s["dec"] = {"kind": "turn", "seat": 1 - seat}

    def _do_discard(self, seat: int, d: dict[str, Any], a: Action) -> None:
        s = self.s
        gid = a["group"]
        owner, i = self.where(gid)
        s["table"][owner].pop(i)
        s["gdiscard"].append(gid)
        d["cards"].remove(gid)
        self._emit("destroyed", seat=seat, group=gid, owner=owner, by="nuclear")
        if len(d["cards"]) == 1:
            last = d["cards"][0]
            owner, i = self.where(last)
            s["table"][owner].pop(i)
            s["gdiscard"].append(last)
            self._emit("destroyed", seat=seat, group=last, owner=owner, by="nuclear")
            d["cards"] = []
        if not d["cards"]:
            self._next_turn(seat, False)

    def _do_media(self, seat: int, d: dict[str, Any], a: Action) -> None:
        s = self.s
        choice = a["choice"]
        gid = s["gdeck"][0]
        if choice == "take":
            s["gdeck"].pop(0)
            s["table"][seat].append([gid, True])
            self._emit("media_take", seat=seat, group=gid)
        elif choice == "discard":
            s["gdeck"].pop(0)
            s["gdiscard"].append(gid)
            self._emit("media_discard", seat=seat, group=gid)
        else:
            self._emit("media_return", seat=seat)
        self._next_turn(seat, False)

    def _do_turn(self, seat: int, d: dict[str, Any], a: Action) -> None:
        s = self.s
        kind = a["type"]
        if kind == "wait":
            self._emit("wait", seat=seat)
            self._next_turn(seat, True)
            return
        if kind == "recruit":
            gid = self._draw_group()
            s["table"][seat].append([gid, True])
            self._emit("recruit", seat=seat, group=gid, how="recruit")
            self._next_turn(seat, False)
            return
        if kind == "event":
            self._use_event(seat, a)
            d = s["dec"]
            if d is not None and d["kind"] == "discard" and len(d["cards"]) <= 1:
                self._do_discard(seat, d, {"type": "discard", "group": d["cards"][0]})
            return
        gid = a["group"]
        _, i = self.where(gid)
        s["table"][seat][i][1] = False
        fac = self.c.faction(gid)
        if fac == "media":
            top = self._peek_group()
            self._emit("media_use", seat=seat, group=gid)
            self._emit("media_peek", seat=seat, group=top, to=[seat])
            s["dec"] = {"kind": "media", "seat": seat}
            return
        target = a["target"]
        owner, j = self.where(target)
        if fac == "military":
            s["table"][owner].pop(j)
            s["gdiscard"].append(target)
            self._emit("use", seat=seat, group=gid, on=target, owner=owner, effect="destroy")
        elif fac == "economic":
            s["table"][owner][j][1] = not s["table"][owner][j][1]
            self._emit("use", seat=seat, group=gid, on=target, owner=owner,
                       effect="activate" if s["table"][owner][j][1] else "deactivate")
        else:
            card = s["table"][owner].pop(j)
            s["table"][1 - owner].append(card)
            self._emit("use", seat=seat, group=gid, on=target, owner=owner,
                       effect="steal" if owner != seat else "give")
        self._next_turn(seat, False)


# ---- the turn structure -------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """An automatic step of the round queue: the phase the game is in while it runs (None: unchanged)
    and what it does, given the step's argument (``ab:3`` -> ``"3"``; ``""`` for most steps)."""

    phase: str | None
    run: Callable[[Engine, str], None]


def _plain(method: Callable[[Engine], None]) -> Callable[[Engine, str], None]:
    return lambda engine, _arg: method(engine)


STEPS: dict[str, Step] = {
    # a new round queues ROUND_STEPS
    "round": Step(None, _plain(Engine._step_round)),
    # briefing: reveal a target, the balance token, events, who acts first, the Analyst's look
    "reveal": Step("briefing", _plain(Engine._step_reveal)),
    "balance": Step("briefing", _plain(Engine._step_balance)),
    "win:briefing": Step("briefing", _plain(Engine._step_win_briefing)),   # decision "event"
    "first": Step("briefing", _plain(Engine._step_first)),                 # decision "first"
    "shuffle": Step("briefing", _plain(Engine._step_shuffle)),
    "analyst": Step("briefing", _plain(Engine._step_analyst)),             # decision "analyst"
    # planning: both seats choose agent X at once; agents on leave come back
    "plan": Step("planning", _plain(Engine._step_plan)),                   # decision "plan"
    "return": Step("planning", _plain(Engine._step_return)),
    # struggle: alternate turns until both wait in a row
    "struggle": Step("struggle", _plain(Engine._step_struggle)),           # decision "turn"
    # truce: events, then civil unrest and the token
    "win:truce": Step("truce", _plain(Engine._step_win_truce)),            # decision "event"
    "truce": Step("truce", _plain(Engine._step_truce)),
    # report: agents revealed, abilities 1-6 in order (queued as ab:1 .. ab:6), the target captured
    "report": Step("report", _plain(Engine._step_report)),
    "ab": Step("report", lambda engine, agent: engine._ability(int(agent))),  # may open "double"
    "capture": Step("report", _plain(Engine._step_capture)),
    # detente: events, then clear the table, score, end or queue the next round
    "win:detente": Step("detente", _plain(Engine._step_win_detente)),      # decision "event"
    "detente": Step("detente", _plain(Engine._step_detente)),
}


@dataclass(frozen=True)
class Decision:
    """A kind of open decision (``state["dec"]["kind"]``): who answers it, the answers they may give,
    and what an answer does (it clears or replaces the decision; the queue then runs on)."""

    who: Callable[[Engine, dict[str, Any]], list[int]]
    legal: Callable[[Engine, int, dict[str, Any]], list[Action]]
    do: Callable[[Engine, int, dict[str, Any], Action], None]


DECISIONS: dict[str, Decision] = {
    # agent X, secretly and simultaneously (step "plan")
    "plan": Decision(Engine._planners, Engine._legal_plan, Engine._do_plan),
    # the balance holder names the seat that acts first in the struggle (step "first")
    "first": Decision(Engine._decider, Engine._legal_first, Engine._do_first),
    # use a captured event now or skip it (an event window of briefing, truce or detente)
    "event": Decision(Engine._decider, Engine._legal_event, Engine._do_event),
    # the Analyst orders the top group cards (step "analyst")
    "analyst": Decision(Engine._decider, Engine._legal_analyst, Engine._do_analyst),
    # Space Race orders the top target cards (an event)
    "space": Decision(Engine._decider, Engine._legal_space, Engine._do_space),
    # the Double Agent peeks at the next agent X or sends an enemy agent on leave (agent 3)
    "double": Decision(Engine._decider, Engine._legal_double, Engine._do_double),
    # a struggle turn: recruit, use a group, use an event, or wait
    "turn": Decision(Engine._decider, Engine._legal_turn, Engine._do_turn),
    # a media group's peeked card: take, discard or return it
    "media": Decision(Engine._decider, Engine._legal_media, Engine._do_media),
    # a nuclear event: the groups to destroy, one at a time
    "discard": Decision(Engine._decider, Engine._legal_discard, Engine._do_discard),
}
