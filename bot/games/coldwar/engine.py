"""The rules of Cold War: CIA vs KGB on a typed state (:mod:`bot.games.coldwar.state`).

The round is a queue of *steps* (``State.queue``). Automatic steps run at once; a step that needs a
player opens a decision (``State.dec``) and stops. Answering it closes or replaces the decision, and the
queue runs on until the next one. Seat 0 is the CIA, seat 1 the KGB.

The turn structure is declared in two tables at the end of this module: ``STEPS`` (each automatic step of
a round, in order, with the phase it belongs to) and ``DECISIONS`` (each kind of decision, a
:class:`~bot.games.decision.DecisionKind`: who answers it, what they may answer, what each answer does,
and the facts the platform needs: planning is simultaneous and secret, and what an absent seat answers).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

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
    cards_of,
)
from bot.games.coldwar.state import Group, Over, Pending, State
from bot.games.coldwar.vocab import (
    AbilityEvent,
    AgentAction,
    AgentChosenEvent,
    AgentReturnedEvent,
    AnalystDoneEvent,
    BalanceEvent,
    CaptureEvent,
    ChosenEvent,
    ColdWarEvent,
    DeputySurvivesEvent,
    DestroyedEvent,
    DetenteEvent,
    DiscardAction,
    DoubleAction,
    DoubleUnrestEvent,
    EliminatedEvent,
    EventAction,
    EventUsedEvent,
    ExtraRoundEvent,
    FirstAction,
    FirstEvent,
    GameOverEvent,
    GroupReshuffleEvent,
    MediaAction,
    MediaDiscardEvent,
    MediaPeekEvent,
    MediaReturnEvent,
    MediaTakeEvent,
    MediaUseEvent,
    NobelSavedEvent,
    NoWinnerEvent,
    OrderAction,
    PeekXEvent,
    PlanningEvent,
    RecruitEvent,
    ReportEvent,
    RevealEvent,
    RoundEvent,
    ShuffleEvent,
    SpaceDoneEvent,
    StruggleOverEvent,
    TargetReshuffleEvent,
    ToBottomEvent,
    TokenEvent,
    TruceEvent,
    TurnAction,
    UnrestEvent,
    UseEvent,
    WaitEvent,
    WindowAction,
    XRevealedEvent,
)
from bot.games.decision import DecisionKind, Move

if TYPE_CHECKING:
    from bot.games.coldwar.game import ColdWar

ROUND_STEPS = ["reveal", "balance", "win:briefing", "first", "shuffle", "analyst", "plan", "return",
               "struggle", "win:truce", "truce", "report", "win:detente", "detente"]
NO_GROUP_EVENTS = ("protest", "benefit_discard", "summit_reveal")
"""Struggle abilities a seat without groups may use: the recruiting ones, and Summit Meeting (not an
action, so the seat still has to recruit afterwards)."""


def new_state(seed: int, goal: int = 100, cards: int = CURRENT) -> State:
    rng = Rng(seed)
    tdeck = list(CARD_SETS[cards].target_ids)
    rng.shuffle(tdeck)
    gdeck = list(CARD_SETS[cards].group_ids)
    rng.shuffle(gdeck)
    return State(rng=rng, goal=goal, tdeck=tdeck, gdeck=gdeck, cards=cards)


class Engine:
    """Rules over ``self.s`` (the typed state). Every public method keeps the state consistent."""

    def __init__(self, state: State) -> None:
        self.s = state
        self.c = cards_of(state.cards)
        self.rng = state.rng
        self.ev: list[Event] = []

    # ---- helpers ---------------------------------------------------------------------------
    def _emit(self, event: ColdWarEvent) -> None:
        self.ev.append(cast("Event", event))

    def inf(self, seat: int) -> int:
        return sum(self.c.influence(g.gid) for g in self.s.table[seat])

    def count(self, seat: int) -> int:
        return len(self.s.table[seat])

    def _target(self) -> dict[str, Any]:
        assert self.s.target is not None
        return self.c.targets[self.s.target]

    def limit(self) -> int:
        return int(self._target()["limit"])

    def stability(self) -> int:
        return int(self._target()["stability"])

    def score(self, seat: int) -> int:
        return sum(self.c.vp(t) for t in self.s.trophies[seat])

    def where(self, gid: str) -> tuple[int, int]:
        for seat in (0, 1):
            for i, g in enumerate(self.s.table[seat]):
                if g.gid == gid:
                    return seat, i
        raise IllegalAction("coldwar.err.illegal")

    def in_play(self) -> list[str]:
        return [g.gid for seat in (0, 1) for g in self.s.table[seat]]

    def usable_events(self, seat: int, phase: str) -> list[str]:
        """Captured events of ``seat`` usable in ``phase`` (never in the round they were won)."""
        s = self.s
        return [t for t in s.trophies[seat] if self.c.phase(t) == phase
                and s.won_round.get(t, s.round) < s.round]

    def shown(self, seat: int) -> bool:
        """Agent X of ``seat`` was revealed by Summit Meeting during this round."""
        return self.s.shown is not None and self.s.shown[seat]

    def _refill_groups(self) -> None:
        """An empty group deck is rebuilt from the shuffled discard (house rule)."""
        s = self.s
        if not s.gdeck:
            s.gdeck = s.gdiscard
            s.gdiscard = []
            self.rng.shuffle(s.gdeck)
            self._emit(GroupReshuffleEvent(type="group_reshuffle"))

    def _draw_group(self) -> str:
        """Top group card (the deck rebuilt from the discard when empty)."""
        self._refill_groups()
        return self.s.gdeck.pop(0)

    def _peek_group(self) -> str:
        self._refill_groups()
        return self.s.gdeck[0]

    def _capture(self, seat: int, tid: str, how: Any) -> None:
        self.s.trophies[seat].append(tid)
        self.s.won_round[tid] = self.s.round
        self._emit(CaptureEvent(seat=seat, target=tid, how=how, vp=self.c.vp(tid), type="capture"))

    def _eliminate(self, seat: int, reason: Any) -> None:
        """Agent X of ``seat`` dies, except the Deputy Director who returns to headquarters."""
        s = self.s
        agent = s.x[seat]
        if agent is None:
            return
        agents = s.agents[seat]
        if agent == DEPUTY:
            if agent not in agents.hq:
                agents.hq.append(agent)
                agents.hq.sort()
            self._emit(DeputySurvivesEvent(seat=seat, reason=reason, type="deputy_survives"))
        elif s.saved[seat]:
            agents.leave.append(agent)
            self._emit(NobelSavedEvent(seat=seat, agent=agent, type="nobel_saved"))
        else:
            agents.dead.append(agent)
            self._emit(EliminatedEvent(seat=seat, agent=agent, reason=reason, type="eliminated"))
        s.x[seat] = None

    # ---- driving the queue ---------------------------------------------------------------
    def start(self) -> None:
        self.s.queue = ["round"]
        self.run()

    def run(self) -> None:
        """Run the queued steps (see ``STEPS``) until one opens a decision or the game ends."""
        s = self.s
        while s.dec is None and s.over is None and s.queue:
            name, _, arg = s.queue.pop(0).partition(":")
            step = STEPS[name if name != "win" else f"win:{arg}"]
            if step.phase is not None:
                s.phase = step.phase
            step.run(self, arg)

    def answer(self, move: Callable[[Engine, int, Any], None], seat: int, action: Any) -> list[Event]:
        """Apply one answer to the open decision, then run the queue on; the events of both."""
        self.ev = []
        move(self, seat, action)
        self.run()
        return self.ev

    def _step_round(self) -> None:
        s = self.s
        s.round += 1
        s.queue = list(ROUND_STEPS)
        self._emit(RoundEvent(round=s.round, type="round"))

    def _step_reveal(self) -> None:
        s = self.s
        if not s.tdeck and s.tdiscard:
            s.tdeck = s.tdiscard
            s.tdiscard = []
            self.rng.shuffle(s.tdeck)
            self._emit(TargetReshuffleEvent(type="target_reshuffle"))
        if not s.tdeck:
            self._finish(exhausted=True)
            return
        s.target = s.tdeck.pop(0)
        self._emit(RevealEvent(target=s.target, type="reveal"))

    def _step_balance(self) -> None:
        s = self.s
        a, b = self.score(0), self.score(1)
        why: Any
        if s.round == 1 or s.balance is None:
            s.balance = self.rng.randint(0, 1)
            why = "random"
        elif a != b:
            s.balance = 0 if a < b else 1
            why = "behind"
        elif s.double_unrest or s.last_loser is None:
            why = "stays"
        else:
            s.balance = s.last_loser
            why = "loser"
        self._emit(BalanceEvent(seat=s.balance, why=why, type="balance"))

    def _window(self, phase: str) -> None:
        """Offer each usable event of ``phase`` once (balance holder first)."""
        s = self.s
        first = s.balance if s.balance is not None else 0
        for seat in (first, 1 - first):
            for card in self.usable_events(seat, phase):
                if card in s.offered or not self._event_possible(seat, card):
                    continue
                s.queue.insert(0, "win:" + phase)
                s.dec = Pending("event", seat=seat, card=card)
                return
        s.offered = []

    def military_in_play(self) -> list[str]:
        return [g for g in self.in_play() if self.c.faction(g) == "military"]

    def _event_possible(self, seat: int, card: str) -> bool:
        """Whether using ``card`` now would do anything (an event is never offered in vain)."""
        s = self.s
        ability = self.c.ability(card)
        if ability == "nobel":
            return self.inf(seat) > self.stability() and s.x[seat] not in (None, DEPUTY)
        if ability == "space_race":
            return len(s.tdeck) >= 2
        if ability == "summit_reveal":
            return s.x[1 - seat] is not None and not self.shown(1 - seat)
        if ability == "olympics_return":
            return bool(s.agents[seat].dead)
        if ability == "nuclear_military":
            return bool(self.military_in_play())
        if ability == "benefit_discard":
            return bool(s.gdiscard) and self.count(seat) < self.limit()
        # card set 1
        if ability == "summit":
            return bool(s.tdeck)
        if ability == "protest":
            return self.count(seat) < self.limit()
        if ability == "nuclear":
            return self.count(seat) > 0
        return True

    def _step_first(self) -> None:
        self.s.dec = Pending("first", seat=self.s.balance)

    def _step_shuffle(self) -> None:
        s = self.s
        if s.round > 1 and s.gdiscard:
            s.gdeck.extend(s.gdiscard)
            s.gdiscard = []
            self.rng.shuffle(s.gdeck)
            self._emit(ShuffleEvent(type="shuffle"))

    def _step_analyst(self) -> None:
        s = self.s
        seat = s.analyst
        s.analyst = None
        if seat is not None and len(s.gdeck) >= 2:
            s.dec = Pending("analyst", seat=seat, cards=s.gdeck[:3])

    def _step_plan(self) -> None:
        s = self.s
        s.dec = Pending("plan", peek=s.peek)
        s.peek = None
        self._emit(PlanningEvent(type="planning"))

    def _step_return(self) -> None:
        for agents in self.s.agents:
            if agents.leave:
                agents.hq = sorted(agents.hq + agents.leave)
                agents.leave = []

    def _step_struggle(self) -> None:
        s = self.s
        s.waits = 0
        s.dec = Pending("turn", seat=s.turn)

    def _step_truce(self) -> None:
        s = self.s
        stab = self.stability()
        infl = [self.inf(0), self.inf(1)]
        over = [infl[0] > stab, infl[1] > stab]
        self._emit(TruceEvent(influence=infl, stability=stab, type="truce"))
        assert s.target is not None
        if over[0] and over[1]:
            for seat in (0, 1):
                self._unrest(seat)
            s.tdeck.append(s.target)
            s.claimed = "bottom"
            s.double_unrest = True
            self._emit(DoubleUnrestEvent(target=s.target, type="double_unrest"))
        elif over[0] or over[1]:
            bust = 0 if over[0] else 1
            s.token = 1 - bust
            s.last_loser = bust
            s.double_unrest = False
            self._unrest(bust)
            s.unrest_capture = True
            s.claimed = 1 - bust
            self._capture(1 - bust, s.target, "unrest")
        else:
            winner, why = self._truce_winner(infl)
            s.double_unrest = False
            if winner is None:
                # house rule: no group on either side; the target goes under the deck
                s.tdeck.append(s.target)
                s.claimed = "bottom"
                self._emit(NoWinnerEvent(target=s.target, type="no_winner"))
            else:
                s.token = winner
                s.last_loser = 1 - winner
                self._emit(TokenEvent(seat=winner, why=why, type="token"))

    def _truce_winner(self, infl: list[int]) -> tuple[int | None, str]:
        if infl[0] != infl[1]:
            return (0 if infl[0] > infl[1] else 1), "influence"
        for fac in self._target()["priority"]:
            best = [max((self.c.influence(g.gid) for g in self.s.table[seat] if self.c.faction(g.gid) == fac),
                        default=0)
                    for seat in (0, 1)]
            if best[0] != best[1]:
                return (0 if best[0] > best[1] else 1), fac
        return None, "none"

    def _unrest(self, seat: int) -> None:
        s = self.s
        s.exposed[seat] = True
        if s.unrest_x is None:
            s.unrest_x = [None, None]
        s.unrest_x[seat] = s.x[seat]
        self._emit(UnrestEvent(seat=seat, agent=s.x[seat], type="unrest"))
        self._eliminate(seat, "unrest")

    def _step_report(self) -> None:
        s = self.s
        self._emit(ReportEvent(agents=list(s.x), exposed=list(s.exposed), type="report"))
        s.queue[:0] = [f"ab:{n}" for n in range(1, 7)] + ["capture"]

    def _resolving(self, agent: int) -> list[int]:
        """Seats whose agent X is ``agent`` and may use its ability (not exposed by unrest)."""
        s = self.s
        first = s.balance if s.balance is not None else 0
        return [seat for seat in (first, 1 - first) if s.x[seat] == agent and not s.exposed[seat]]

    def _sent(self, agent: int) -> list[int]:
        """Seats that sent ``agent`` as agent X this round, including one lost to civil unrest."""
        s = self.s
        lost = s.unrest_x or [None, None]
        return [seat for seat in (0, 1) if agent in (s.x[seat], lost[seat])]

    def _ability(self, agent: int) -> None:
        s = self.s
        seats = self._resolving(agent)
        token = s.token
        if agent == ANALYST and len(self._sent(ANALYST)) == 2:
            # "применяется свойство аналитика того игрока, чей жетон превосходства не лежит на карте
            # цели": only that Analyst; if it was lost to civil unrest, nobody looks
            seats = [seat for seat in seats if token is not None and seat == 1 - token]
        if not seats:
            return
        assert s.target is not None
        if agent == SPY:
            for seat in seats:
                if s.claimed is None and token is not None:
                    s.claimed = 1 - token
                    self._emit(AbilityEvent(seat=seat, agent=SPY, effect="transfer", type="ability"))
                    self._capture(1 - token, s.target, "spy")
                else:
                    self._emit(AbilityEvent(seat=seat, agent=SPY, effect="none", type="ability"))
        elif agent == DEPUTY:
            for seat in seats:
                self._emit(AbilityEvent(seat=seat, agent=DEPUTY, effect="none", type="ability"))
        elif agent == DOUBLE:
            if len(seats) == 2:
                seats = [token] if token is not None else []
            for seat in seats:
                s.dec = Pending("double", seat=seat)
        elif agent == ANALYST:
            for seat in seats:
                s.analyst = seat
                self._emit(AbilityEvent(seat=seat, agent=ANALYST, effect="analyst", type="ability"))
        elif agent == ASSASSIN:
            for seat in seats:
                if token != seat or s.unrest_capture:
                    self._emit(AbilityEvent(seat=seat, agent=ASSASSIN, effect="none", type="ability"))
                    continue
                self._emit(AbilityEvent(seat=seat, agent=ASSASSIN, effect="kill", type="ability"))
                self._eliminate(1 - seat, "assassin")
                if s.claimed is None:
                    s.claimed = "bottom"
                    s.tdeck.append(s.target)
                    self._emit(ToBottomEvent(target=s.target, type="to_bottom"))
        elif agent == DIRECTOR:
            for seat in seats:
                if token == seat and s.tdeck:
                    self._emit(AbilityEvent(seat=seat, agent=DIRECTOR, effect="bottom", type="ability"))
                    self._capture(seat, s.tdeck.pop(), "director")
                else:
                    self._emit(AbilityEvent(seat=seat, agent=DIRECTOR, effect="none", type="ability"))

    def _step_capture(self) -> None:
        s = self.s
        if s.claimed is None and s.token is not None:
            assert s.target is not None
            s.claimed = s.token
            self._capture(s.token, s.target, "token")

    def _step_detente(self) -> None:
        s = self.s
        for seat in (0, 1):
            agent = s.x[seat]
            if agent is not None:
                agents = s.agents[seat]
                (agents.hq if agent == DEPUTY else agents.leave).append(agent)
                agents.hq.sort()
            s.gdiscard.extend(g.gid for g in s.table[seat])
            s.table[seat] = []
        scores = [self.score(0), self.score(1)]
        self._emit(DetenteEvent(scores=scores, type="detente"))
        s.x, s.exposed, s.saved = [None, None], [False, False], [False, False]
        s.token = s.claimed = s.target = s.turn = None
        s.unrest_capture = False
        s.waits = 0
        # round-only records, present only in a round that needed them
        s.shown = s.unrest_x = None
        if max(scores) >= s.goal and scores[0] != scores[1]:
            self._finish()
        else:
            if min(scores) >= s.goal:
                self._emit(ExtraRoundEvent(type="extra_round"))
            s.queue = ["round"]

    def _finish(self, exhausted: bool = False) -> None:
        s = self.s
        scores = [self.score(0), self.score(1)]
        if scores[0] == scores[1]:
            s.over = Over([], True, scores, exhausted)
        else:
            s.over = Over([0 if scores[0] > scores[1] else 1], False, scores, exhausted)
        s.dec = None
        s.queue = []
        s.phase = "over"
        self._emit(GameOverEvent(winners=list(s.over.winners), scores=scores, exhausted=exhausted, type="game_over"))

    # ---- who decides -----------------------------------------------------------------------
    def planners(self) -> list[int]:
        """Both seats choose agent X at once, except that a Double Agent's peek makes the other seat
        choose first."""
        waiting = [seat for seat in (0, 1) if self.s.x[seat] is None]
        peek = self.s.dec.peek if self.s.dec is not None else None
        if peek is not None and peek in waiting and len(waiting) == 2:
            return [1 - peek]
        return waiting

    def decider(self) -> list[int]:
        """The one seat a decision other than planning names."""
        seat = self.s.dec.seat if self.s.dec is not None else None
        return [] if seat is None else [seat]

    def _open(self) -> Pending:
        assert self.s.dec is not None
        return self.s.dec

    # ---- what each decision takes ----------------------------------------------------------
    def legal_plan(self, seat: int) -> list[Action]:
        return [{"type": "agent", "agent": a} for a in self.s.agents[seat].hq]

    def legal_first(self, seat: int) -> list[Action]:
        return [{"type": "first", "seat": seat}, {"type": "first", "seat": 1 - seat}]

    def legal_event(self, seat: int) -> list[Action]:
        card = self._open().card
        assert card is not None
        if self.c.ability(card) == "olympics_return":
            uses: list[Action] = [{"type": "event", "card": card, "agent": a}
                                  for a in sorted(self.s.agents[seat].dead)]
        else:
            uses = [{"type": "event", "card": card}]
        return uses + [{"type": "skip"}]

    def legal_order(self, seat: int) -> list[Action]:
        """Every order of the looked-at cards (the Analyst's groups, Space Race's targets)."""
        return [{"type": "order", "order": list(p)} for p in itertools.permutations(self._open().cards or [])]

    def legal_double(self, seat: int) -> list[Action]:
        acts: list[Action] = [{"type": "double", "mode": "peek"}]
        for a in self.s.agents[1 - seat].hq:
            if a != DEPUTY:
                acts.append({"type": "double", "mode": "leave", "agent": a})
        return acts

    def legal_media(self, seat: int) -> list[Action]:
        acts: list[Action] = []
        if self.count(seat) < self.limit():
            acts.append({"type": "media", "choice": "take"})
        acts += [{"type": "media", "choice": "discard"}, {"type": "media", "choice": "return"}]
        return acts

    def legal_discard(self, seat: int) -> list[Action]:
        return [{"type": "discard", "group": g} for g in self._open().cards or []]

    def legal_turn(self, seat: int) -> list[Action]:
        s = self.s
        mine = s.table[seat]
        opp = 1 - seat
        acts: list[Action] = []
        lim = self.limit()
        if len(mine) < lim:
            acts.append({"type": "recruit"})
        if mine:
            stab = self.stability()
            opp_inf = self.inf(opp)
            others = self.in_play()
            for group in mine:
                if not group.active:
                    continue
                gid = group.gid
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
                        acts += [{"type": "use", "group": gid, "target": t.gid} for t in s.table[opp]]
                    if len(s.table[opp]) < lim:
                        acts += [{"type": "use", "group": gid, "target": t.gid} for t in mine
                                 if t.gid != gid and opp_inf + self.c.influence(t.gid) <= stab]
            acts += [{"type": "event", "card": c} for c in self.usable_events(seat, "struggle")
                     if self._event_possible(seat, c)]
            acts.append({"type": "wait"})
        else:
            # without groups a seat must recruit: a recruiting event, or one that is not an action
            acts += [{"type": "event", "card": c} for c in self.usable_events(seat, "struggle")
                     if self.c.ability(c) in NO_GROUP_EVENTS and self._event_possible(seat, c)]
        return acts

    # ---- what each answer does -------------------------------------------------------------
    def do_plan(self, seat: int, a: AgentAction) -> None:
        s = self.s
        agent = a["agent"]
        s.x[seat] = agent
        s.agents[seat].hq.remove(agent)
        self._emit(AgentChosenEvent(seat=seat, agent=agent, to=[seat], type="agent_chosen"))
        self._emit(ChosenEvent(seat=seat, type="chosen"))
        peek = self._open().peek
        if peek is not None and peek == 1 - seat and s.x[peek] is None:
            self._emit(PeekXEvent(seat=peek, agent=agent, to=[peek], type="peek_x"))
        if s.x[0] is not None and s.x[1] is not None:
            s.dec = None

    def do_first(self, seat: int, a: FirstAction) -> None:
        self.s.turn = a["seat"]
        self.s.dec = None
        self._emit(FirstEvent(seat=seat, first=a["seat"], type="first"))

    def do_order(self, seat: int, a: OrderAction) -> None:
        """Put the looked-at top cards back in the chosen order: the Analyst's groups or Space Race's
        targets."""
        s = self.s
        order = a["order"]
        if self._open().kind == "analyst":
            s.gdeck[:len(order)] = order
            s.dec = None
            self._emit(AnalystDoneEvent(seat=seat, type="analyst_done"))
        else:
            s.tdeck[:len(order)] = order
            s.dec = None
            self._emit(SpaceDoneEvent(seat=seat, type="space_done"))

    def do_double(self, seat: int, a: DoubleAction) -> None:
        s = self.s
        s.dec = None
        if a["mode"] == "peek":
            s.peek = seat
            self._emit(AbilityEvent(seat=seat, agent=DOUBLE, effect="peek", type="ability"))
        else:
            victim = a["agent"]
            agents = s.agents[1 - seat]
            agents.hq.remove(victim)
            agents.leave.append(victim)
            self._emit(AbilityEvent(seat=seat, agent=DOUBLE, effect="leave", victim=victim, type="ability"))

    def do_window(self, seat: int, a: WindowAction) -> None:
        s = self.s
        if a["type"] == "skip":
            card = self._open().card
            assert card is not None
            s.offered.append(card)
            s.dec = None
            return
        s.dec = None
        self._use_event(seat, a)

    def _burn(self, seat: int, card: str) -> None:
        s = self.s
        s.trophies[seat].remove(card)
        s.tdiscard.append(card)
        s.burnt[seat].append(card)
        self._emit(EventUsedEvent(seat=seat, card=card, vp=self.c.vp(card), type="event_used"))

    def _recruit(self, seat: int, gid: str, how: Any) -> None:
        self.s.table[seat].append(Group(gid, True))
        self._emit(RecruitEvent(seat=seat, group=gid, how=how, type="recruit"))

    def _use_event(self, seat: int, a: EventAction) -> None:
        """Burn the event and apply its ability; sets the next decision where the ability needs one."""
        s = self.s
        card = a["card"]
        ability = self.c.ability(card)
        self._burn(seat, card)
        if ability == "summit_reveal":
            # not an action: the reveal is public and the same seat still has its turn
            opp = 1 - seat
            if s.shown is None:
                s.shown = [False, False]
            s.shown[opp] = True
            self._emit(XRevealedEvent(seat=opp, agent=s.x[opp], by=seat, type="x_revealed"))
            s.dec = Pending("turn", seat=seat)
        elif ability == "olympics_return":
            back = a["agent"]
            agents = s.agents[seat]
            agents.dead.remove(back)
            agents.leave.append(back)
            self._emit(AgentReturnedEvent(seat=seat, agent=back, type="agent_returned"))
        elif ability == "nuclear_military":
            s.dec = Pending("discard", seat=seat, cards=self.military_in_play())
        elif ability == "benefit_discard":
            self._recruit(seat, s.gdiscard.pop(), "benefit")
            self._next_turn(seat, False)
        elif ability == "summit":
            assert s.target is not None
            s.tdeck.append(s.target)
            s.target = s.tdeck.pop(0)
            self._emit(RevealEvent(target=s.target, type="reveal"))
        elif ability == "olympics":
            s.balance = seat
            self._emit(BalanceEvent(seat=seat, why="olympics", type="balance"))
        elif ability == "nobel":
            s.saved[seat] = True
        elif ability == "space_race":
            s.dec = Pending("space", seat=seat, cards=s.tdeck[:3])
        elif ability == "protest":
            gid = self._draw_group()
            s.waits = 0
            self._recruit(seat, gid, "protest")
            s.dec = Pending("turn", seat=seat)
        elif ability == "nuclear":
            s.dec = Pending("discard", seat=seat, cards=self.in_play())

    def _next_turn(self, seat: int, waited: bool) -> None:
        s = self.s
        s.waits = s.waits + 1 if waited else 0
        if s.waits >= 2:
            s.dec = None
            self._emit(StruggleOverEvent(type="struggle_over"))
        else:
            s.dec = Pending("turn", seat=1 - seat)

    def _destroy(self, seat: int, gid: str) -> None:
        owner, i = self.where(gid)
        self.s.table[owner].pop(i)
        self.s.gdiscard.append(gid)
        self._emit(DestroyedEvent(seat=seat, group=gid, owner=owner, by="nuclear", type="destroyed"))

    def do_discard(self, seat: int, a: DiscardAction) -> None:
        d = self._open()
        cards = d.cards or []
        gid = a["group"]
        self._destroy(seat, gid)
        cards.remove(gid)
        if len(cards) == 1:
            self._destroy(seat, cards[0])
            d.cards = cards = []
        if not cards:
            self._next_turn(seat, False)

    def do_media(self, seat: int, a: MediaAction) -> None:
        s = self.s
        choice = a["choice"]
        gid = s.gdeck[0]
        if choice == "take":
            s.gdeck.pop(0)
            s.table[seat].append(Group(gid, True))
            self._emit(MediaTakeEvent(seat=seat, group=gid, type="media_take"))
        elif choice == "discard":
            s.gdeck.pop(0)
            s.gdiscard.append(gid)
            self._emit(MediaDiscardEvent(seat=seat, group=gid, type="media_discard"))
        else:
            self._emit(MediaReturnEvent(seat=seat, type="media_return"))
        self._next_turn(seat, False)

    def do_turn(self, seat: int, a: TurnAction) -> None:
        s = self.s
        if a["type"] == "wait":
            self._emit(WaitEvent(seat=seat, type="wait"))
            self._next_turn(seat, True)
            return
        if a["type"] == "recruit":
            self._recruit(seat, self._draw_group(), "recruit")
            self._next_turn(seat, False)
            return
        if a["type"] == "event":
            self._use_event(seat, a)
            d = s.dec
            if d is not None and d.kind == "discard" and d.cards is not None and len(d.cards) <= 1:
                self.do_discard(seat, {"type": "discard", "group": d.cards[0]})
            return
        gid = a["group"]
        _, i = self.where(gid)
        s.table[seat][i].active = False
        fac = self.c.faction(gid)
        if fac == "media":
            top = self._peek_group()
            self._emit(MediaUseEvent(seat=seat, group=gid, type="media_use"))
            self._emit(MediaPeekEvent(seat=seat, group=top, to=[seat], type="media_peek"))
            s.dec = Pending("media", seat=seat)
            return
        target = a["target"]
        owner, j = self.where(target)
        if fac == "military":
            s.table[owner].pop(j)
            s.gdiscard.append(target)
            self._emit(UseEvent(seat=seat, group=gid, on=target, owner=owner, effect="destroy", type="use"))
        elif fac == "economic":
            hit = s.table[owner][j]
            hit.active = not hit.active
            self._emit(UseEvent(seat=seat, group=gid, on=target, owner=owner,
                                effect="activate" if hit.active else "deactivate", type="use"))
        else:
            card = s.table[owner].pop(j)
            s.table[1 - owner].append(card)
            self._emit(UseEvent(seat=seat, group=gid, on=target, owner=owner,
                                effect="steal" if owner != seat else "give", type="use"))
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
    "win:briefing": Step("briefing", lambda engine, _arg: engine._window("briefing")),  # decision "event"
    "first": Step("briefing", _plain(Engine._step_first)),                 # decision "first"
    "shuffle": Step("briefing", _plain(Engine._step_shuffle)),
    "analyst": Step("briefing", _plain(Engine._step_analyst)),             # decision "analyst"
    # planning: both seats choose agent X at once; agents on leave come back
    "plan": Step("planning", _plain(Engine._step_plan)),                   # decision "plan"
    "return": Step("planning", _plain(Engine._step_return)),
    # struggle: alternate turns until both wait in a row
    "struggle": Step("struggle", _plain(Engine._step_struggle)),           # decision "turn"
    # truce: events, then civil unrest and the token
    "win:truce": Step("truce", lambda engine, _arg: engine._window("truce")),       # decision "event"
    "truce": Step("truce", _plain(Engine._step_truce)),
    # report: agents revealed, abilities 1-6 in order (queued as ab:1 .. ab:6), the target captured
    "report": Step("report", _plain(Engine._step_report)),
    "ab": Step("report", lambda engine, agent: engine._ability(int(agent))),  # may open "double"
    "capture": Step("report", _plain(Engine._step_capture)),
    # detente: events, then clear the table, score, end or queue the next round
    "win:detente": Step("detente", lambda engine, _arg: engine._window("detente")),  # decision "event"
    "detente": Step("detente", _plain(Engine._step_detente)),
}

# ---- the decisions: who answers, what they may answer, what an answer does ------------------------
A = TypeVar("A")


def _legal(method: Callable[[Engine, int], list[Action]]) -> Callable[[ColdWar, int], list[Action]]:
    return lambda game, seat: method(game.engine, seat)


def _answer(method: Callable[[Engine, int, A], None]) -> Move[ColdWar]:
    """The move of one answer: refused unless listed (``coldwar.err.illegal``), then applied with the
    queue run on."""

    def move(game: ColdWar, seat: int, action: Action) -> list[Event]:
        if action not in game.legal_actions(seat):
            raise IllegalAction("coldwar.err.illegal")
        return game.engine.answer(method, seat, action)

    return move


def _planners(game: ColdWar) -> list[int]:
    return game.engine.planners()


def _decider(game: ColdWar) -> list[int]:
    return game.engine.decider()


def _least(*prefer: Action) -> Callable[[ColdWar, int], Action | None]:
    """The timeout answer: the first of ``prefer`` that is legal, else the first legal answer."""

    def timeout(game: ColdWar, seat: int) -> Action | None:
        legal = game.legal_actions(seat)
        return next((dict(a) for a in prefer if a in legal), dict(legal[0]) if legal else None)

    return timeout


def _timeout_plan(game: ColdWar, seat: int) -> Action | None:
    """A random agent, drawn from a generator of its own (the stored one does not advance)."""
    legal = game.legal_actions(seat)
    if not legal:
        return None
    rng = Rng(game.s.rng.seed ^ 0x5EC7E7, game.s.rng.n * 2 + seat)
    return dict(rng.choice(legal))


def _timeout_first(game: ColdWar, seat: int) -> Action | None:
    return _least({"type": "first", "seat": seat})(game, seat)


_WINDOW: dict[str, Move[ColdWar]] = {"event": _answer(Engine.do_window), "skip": _answer(Engine.do_window)}
_TURN = _answer(Engine.do_turn)
_PLAN = {"agent": _answer(Engine.do_plan)}

DECISIONS: dict[str, DecisionKind[ColdWar]] = {
    # agent X, secretly and simultaneously (step "plan"); absent: a random agent
    "plan": DecisionKind(_planners, _legal(Engine.legal_plan), _PLAN, simultaneous=True, secret=True,
                         timeout=_timeout_plan),
    # the same after a Double Agent's peek (``Pending.peek``): the other seat chooses first, then the peeker
    # knowing it; still secret
    "plan_peek": DecisionKind(_planners, _legal(Engine.legal_plan), _PLAN, secret=True, timeout=_timeout_plan),
    # the balance holder names the seat that acts first in the struggle (step "first"); absent: itself
    "first": DecisionKind(_decider, _legal(Engine.legal_first), {"first": _answer(Engine.do_first)},
                          timeout=_timeout_first),
    # use a captured event now or skip it (an event window of briefing, truce or detente); absent: skip
    "event": DecisionKind(_decider, _legal(Engine.legal_event), _WINDOW, timeout=_least({"type": "skip"})),
    # the Analyst orders the top group cards (step "analyst"); absent: the order as it is
    "analyst": DecisionKind(_decider, _legal(Engine.legal_order), {"order": _answer(Engine.do_order)},
                            timeout=_least()),
    # Space Race orders the top target cards (an event); absent: the order as it is
    "space": DecisionKind(_decider, _legal(Engine.legal_order), {"order": _answer(Engine.do_order)},
                          timeout=_least()),
    # the Double Agent learns the next agent X or sends an enemy agent on leave (agent 3); absent: learn
    "double": DecisionKind(_decider, _legal(Engine.legal_double), {"double": _answer(Engine.do_double)},
                           timeout=_least({"type": "double", "mode": "peek"})),
    # a struggle turn: recruit, use a group, use an event, or wait; absent: wait (or recruit when it must)
    "turn": DecisionKind(_decider, _legal(Engine.legal_turn),
                         {"recruit": _TURN, "use": _TURN, "event": _TURN, "wait": _TURN},
                         timeout=_least({"type": "wait"}, {"type": "recruit"})),
    # a media group's peeked card: take, discard or return it; absent: return it
    "media": DecisionKind(_decider, _legal(Engine.legal_media), {"media": _answer(Engine.do_media)},
                          timeout=_least({"type": "media", "choice": "return"})),
    # a nuclear event: the groups to destroy, one at a time; absent: the first listed
    "discard": DecisionKind(_decider, _legal(Engine.legal_discard), {"discard": _answer(Engine.do_discard)},
                            timeout=_least()),
}
"""Each kind of decision (``State.dec.kind``, except ``plan_peek``: a ``plan`` with a peek); one is open at a
time (planning: of both seats)."""
