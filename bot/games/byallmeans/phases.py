"""The decisions of a game, in one table (:data:`DECISIONS`, rows of :class:`bot.games.decision.DecisionKind`):
who decides, what they may answer, what each answer does, and what the platform must know of it.

=========  =====================================  ==================================================
decision   who                                    answers
=========  =====================================  ==================================================
shuffle    both seats, simultaneously, in secret  ``shuffle``: reshuffle the opponent's main and/or extra archive
order      the seat the lot chose                 ``order``: which seat takes the first turn
exchange   both seats, simultaneously, in secret  ``exchange``: 0-4 hand cards into the own extra archive
effect     the seat the effect stack asks         ``choose``: the answer to its question (a target, an option,
                                                  where a card goes, the rival's window...)
turn       the active seat                        :data:`engine.TURN_ACTIONS`
=========  =====================================  ==================================================

:func:`open_kinds` names the one open now: the step of the opening (``State.phase``), then in the turn the
effect's question while one waits, else the turn itself; nothing once the game is over. An absent seat's
answer (``timeout``): it keeps its archives and hand, lets the chooser go first, passes its turn, and takes
the first answer of an effect's question.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from itertools import combinations
from typing import TYPE_CHECKING, TypeVar, cast

from bot.games.base import Action, Event
from bot.games.byallmeans import effects, engine, rules
from bot.games.byallmeans.state import State
from bot.games.byallmeans.vocab import (
    ChooseAction,
    EndTurnAction,
    Events,
    ExchangeAction,
    OrderAction,
    ShuffleAction,
    json_actions,
    json_events,
)
from bot.games.decision import DecisionKind, Move

if TYPE_CHECKING:
    from bot.games.byallmeans.game import ByAllMeans

A = TypeVar("A")


def move(rule: Callable[[State, int, A, Events], None]) -> Move[ByAllMeans]:
    """The table's move for a rule over the state. The action reaches it only once it is listed
    (``ByAllMeans.apply``), so it is one the rules built, of the type the rule takes."""

    def answer(game: ByAllMeans, seat: int, action: Action) -> list[Event]:
        ev: Events = []
        rule(game.s, seat, cast(A, action), ev)
        return json_events(ev)

    return answer


# ---- shuffle: «Соперник может перемешать каждый из архивов своего оппонента» ---------------------
def _undecided(s: State) -> list[int]:
    return [seat for seat, p in enumerate(s.players) if not p.setup_done]


def _shuffle_legal(s: State, seat: int) -> list[ShuffleAction]:
    return [{"type": "shuffle", "main": m, "extra": x} for m in (False, True) for x in (False, True)]


def _shuffle(s: State, seat: int, a: ShuffleAction, ev: Events) -> None:
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
def _order_legal(s: State, seat: int) -> list[OrderAction]:
    return [{"type": "order", "first": seat}, {"type": "order", "first": rules.other(seat)}]


def _order(s: State, seat: int, a: OrderAction, ev: Events) -> None:
    s.first = a["first"]
    s.phase = "exchange"
    ev.append({"type": "bam.order", "seat": seat, "first": s.first})


# ---- exchange: «каждый игрок может замешать из рук от 0 до 4 карт в свой дополнительный архив» ------
def _exchange_legal(s: State, seat: int) -> list[ExchangeAction]:
    hand = sorted(s.players[seat].hand)
    return [{"type": "exchange", "cards": list(c)} for k in range(0, min(4, len(hand)) + 1)
            for c in combinations(hand, k)]


def _exchange(s: State, seat: int, a: ExchangeAction, ev: Events) -> None:
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


# ---- effect: a question of the effect stack ----------------------------------------------------------
def _effect_legal(s: State, seat: int) -> list[ChooseAction]:
    waiting = effects.pending(s)
    return [] if waiting is None else [{"type": "choose", "v": v} for v in waiting[1]]


def _choose(s: State, seat: int, a: ChooseAction, ev: Events) -> None:
    effects.answer(s, seat, a["v"], ev)
    engine.settle_turn(s, ev)


def _first_answer(game: ByAllMeans, seat: int) -> Action | None:
    legal = _effect_legal(game.s, seat)
    return json_actions(legal[:1])[0] if legal else None


def effect_key(s: State) -> str:
    """What tells one question of the effect stack from the next: the stack and the turn's counters. An
    answer always changes them (it takes the question off, or asks it again with what is left: the
    triggers still to order, the window's uses, the actions still to lose), so a seat asked again is
    asked a new question; nothing else moves while the question waits."""
    text = repr(([f.to_json() for f in s.stack], s.turn.to_json()))
    return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


# ---- an absent seat's answers --------------------------------------------------------------------------
def _keep_archives(game: ByAllMeans, seat: int) -> Action:
    keep: ShuffleAction = {"type": "shuffle", "main": False, "extra": False}
    return json_actions([keep])[0]


def _chooser_first(game: ByAllMeans, seat: int) -> Action:
    first: OrderAction = {"type": "order", "first": seat}
    return json_actions([first])[0]


def _keep_hand(game: ByAllMeans, seat: int) -> Action:
    keep: ExchangeAction = {"type": "exchange", "cards": []}
    return json_actions([keep])[0]


def _end_turn(game: ByAllMeans, seat: int) -> Action:
    end: EndTurnAction = {"type": "end_turn"}
    return json_actions([end])[0]


DECISIONS: dict[str, DecisionKind[ByAllMeans]] = {
    "shuffle": DecisionKind(who=lambda g: _undecided(g.s),
                            legal=lambda g, seat: json_actions(_shuffle_legal(g.s, seat)),
                            moves={"shuffle": move(_shuffle)}, simultaneous=True, secret=True,
                            timeout=_keep_archives),
    "order": DecisionKind(who=lambda g: [g.s.chooser], legal=lambda g, seat: json_actions(_order_legal(g.s, seat)),
                          moves={"order": move(_order)},
                          timeout=_chooser_first),
    "exchange": DecisionKind(who=lambda g: _undecided(g.s),
                             legal=lambda g, seat: json_actions(_exchange_legal(g.s, seat)),
                             moves={"exchange": move(_exchange)}, simultaneous=True, secret=True,
                             timeout=_keep_hand),
    "effect": DecisionKind(who=lambda g: [] if (seat := effects.asked(g.s)) is None else [seat],
                           legal=lambda g, seat: json_actions(_effect_legal(g.s, seat)),
                           moves={"choose": move(_choose)}, timeout=_first_answer),
    "turn": DecisionKind(who=lambda g: [g.s.turn.active],
                         legal=lambda g, seat: json_actions(engine.turn_actions(g.s, seat)),
                         moves={kind: move(engine.turn_move) for kind in engine.TURN_ACTIONS}, timeout=_end_turn),
}


def open_kinds(s: State) -> list[str]:
    """The decision open now: the opening's step, the effect's question while one waits, else the turn."""
    if s.phase in ("shuffle", "order", "exchange"):
        return [s.phase]
    if s.phase == "turn":
        return ["effect" if effects.asked(s) is not None else "turn"]
    return []


def decision_key(s: State, kind: str) -> str:
    """A turn is one decision until it ends (its number); an effect's questions each their own
    (:func:`effect_key`); the opening's steps are one each."""
    if kind == "turn":
        return str(s.turn.number)
    return effect_key(s) if kind == "effect" else ""
