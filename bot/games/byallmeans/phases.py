"""The phases of a game, in one table: who acts, what is legal, what each move does.

=========  =====================================  ==================================================
phase      actors                                 moves
=========  =====================================  ==================================================
shuffle    both seats, simultaneously             ``shuffle``: reshuffle the opponent's main and/or extra archive
order      the seat the lot chose                 ``order``: which seat takes the first turn
exchange   both seats, simultaneously             ``exchange``: 0-4 hand cards into the own extra archive
turn       the active seat, or the seat an        :data:`engine.TURN_ACTIONS`, or ``choose`` while an
           effect waits on                        effect waits for a decision
over       nobody                                 none
=========  =====================================  ==================================================
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from bot.games.base import Action, Event, IllegalAction
from bot.games.byallmeans import effects, engine, rules
from bot.games.byallmeans.state import State


@dataclass(frozen=True, slots=True)
class Phase:
    actors: Callable[[State], list[int]]
    legal: Callable[[State, int], list[Action]]
    apply: Callable[[State, int, Action, list[Event]], None]


# ---- shuffle: «Соперник может перемешать каждый из архивов своего оппонента» ---------------------
def _undecided(s: State) -> list[int]:
    return [seat for seat, p in enumerate(s.players) if not p.setup_done]


def _shuffle_legal(s: State, seat: int) -> list[Action]:
    if s.players[seat].setup_done:
        return []
    return [{"type": "shuffle", "main": m, "extra": x} for m in (False, True) for x in (False, True)]


def _shuffle_apply(s: State, seat: int, a: Action, ev: list[Event]) -> None:
    target = s.players[rules.other(seat)]
    if a["main"]:
        s.rng.shuffle(target.main)
    if a["extra"]:
        s.rng.shuffle(target.extra)
    s.players[seat].setup_done = True
    ev.append({"type": "bam.shuffled", "seat": seat, "main": a["main"], "extra": a["extra"]})
    if not _undecided(s):
        for p_seat, p in enumerate(s.players):  # «Каждый игрок берет 4 карты из своего основного архива»
            p.setup_done = False
            rules.draw(s, p_seat, "main", engine.FIRST_HAND, ev)
        s.chooser = s.rng.randint(0, 1)  # «Жребием определяем игрока, выбирающего порядок хода»
        s.phase = "order"
        ev.append({"type": "bam.lot", "seat": s.chooser})


# ---- order ----------------------------------------------------------------------------------------
def _order_legal(s: State, seat: int) -> list[Action]:
    return [{"type": "order", "first": seat}, {"type": "order", "first": rules.other(seat)}]


def _order_apply(s: State, seat: int, a: Action, ev: list[Event]) -> None:
    s.first = a["first"]
    s.phase = "exchange"
    ev.append({"type": "bam.order", "seat": seat, "first": s.first})


# ---- exchange: «каждый игрок может замешать из рук от 0 до 4 карт в свой дополнительный архив» ------
def _exchange_legal(s: State, seat: int) -> list[Action]:
    p = s.players[seat]
    if p.setup_done:
        return []
    hand = sorted(p.hand)
    return [{"type": "exchange", "cards": list(c)} for k in range(0, min(4, len(hand)) + 1)
            for c in combinations(hand, k)]


def _exchange_apply(s: State, seat: int, a: Action, ev: list[Event]) -> None:
    """The exchange is simultaneous (the rules' «каждый игрок может замешать…» is one step for both): the
    first decision is held secret, told only to its seat, and both are carried out and announced
    together once the second seat has decided (issue 23). They are carried out in the order taken, so
    the random draws are the same as when each was carried out at once."""
    p = s.players[seat]
    p.setup_done = True
    s.exchanges.append([seat, list(a["cards"])])
    if _undecided(s):
        ev.append({"type": "bam.exchange_decided", "seat": seat})  # that, not what: nothing to read off
        ev.append({"type": "bam.exchange_chosen", "to": [seat], "n": len(a["cards"])})
        return
    counts = [0] * len(s.players)
    for who, cards in s.exchanges:
        q = s.players[who]
        for uid in cards:
            q.hand.remove(uid)
            q.extra.append(uid)
        if cards:
            s.rng.shuffle(q.extra)
            rules.draw(s, who, "main", len(cards), ev)
        counts[who] = len(cards)
    s.exchanges = []
    ev.append({"type": "bam.exchanges", "counts": counts})
    for q in s.players:
        q.setup_done = False
    ev.append({"type": "bam.turn", "seat": s.first, "number": 1})
    # «Игрок, получивший первый ход, обязан потратить одно из своих основных действий на взятие карты
    # из основного архива или пропустить это действие.»
    engine.start_turn(s, s.first, 1, restricted=True)
    engine.settle_turn(s, ev)


# ---- turn ------------------------------------------------------------------------------------------
def _turn_actors(s: State) -> list[int]:
    waiting = effects.pending(s)
    return [waiting[0]] if waiting is not None else [s.turn.active]


def _turn_legal(s: State, seat: int) -> list[Action]:
    waiting = effects.pending(s)
    if waiting is not None:
        return [{"type": "choose", "v": v} for v in waiting[1]] if waiting[0] == seat else []
    return engine.turn_actions(s, seat) if seat == s.turn.active else []


def _turn_apply(s: State, seat: int, a: Action, ev: list[Event]) -> None:
    if effects.pending(s) is not None:
        if a.get("type") != "choose":
            raise IllegalAction("bam.err.not_legal")
        effects.answer(s, seat, a.get("v"), ev)
        engine.settle_turn(s, ev)
        return
    if seat != s.turn.active:
        raise IllegalAction("bam.err.not_your_turn")
    engine.apply_turn_action(s, seat, a, ev)


PHASES: dict[str, Phase] = {
    "shuffle": Phase(_undecided, _shuffle_legal, _shuffle_apply),
    "order": Phase(lambda s: [s.chooser], lambda s, seat: _order_legal(s, seat) if seat == s.chooser else [],
                   _order_apply),
    "exchange": Phase(_undecided, _exchange_legal, _exchange_apply),
    "turn": Phase(_turn_actors, _turn_legal, _turn_apply),
    "over": Phase(lambda s: [], lambda s, seat: [], lambda s, seat, a, ev: None),
}
