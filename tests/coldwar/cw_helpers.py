"""Helpers for the Cold War tests: build rigged positions through the real rules."""

from __future__ import annotations

from typing import Any

from bot.games.coldwar import ColdWar
from bot.games.coldwar.state import Group, State

Table = list[tuple[str, bool]]


def fresh(seed: int = 1, goal: int = 100, cards: int | None = None) -> ColdWar:
    """A new game; ``cards=1`` starts it with the old card set (as a game stored before the printed
    cards were adopted)."""
    options: dict[str, Any] = {"goal": goal} if cards is None else {"goal": goal, "cards": cards}
    return ColdWar.new([{"side": 0}, {"side": 1}], options, seed)


def rig_briefing(game: ColdWar, target: str, balance: int = 0, top_groups: list[str] | None = None,
                 tables: tuple[Table, Table] | None = None) -> None:
    """At the 'who acts first' decision: set the revealed target, the balance token, the top of the
    group deck and the groups already on the table (taken out of the deck)."""
    s = game.s
    assert s.dec is not None and s.dec.kind == "first"
    if s.target != target:
        s.tdeck.remove(target)
        s.tdeck.insert(0, s.target)
        s.target = target
    s.balance = balance
    s.dec.seat = balance
    if tables:
        for seat in (0, 1):
            for gid, active in tables[seat]:
                _take_group(s, gid)
                s.table[seat].append(Group(gid, active))
    for gid in reversed(top_groups or []):
        _take_group(s, gid)
        s.gdeck.insert(0, gid)


def _take_group(s: State, gid: str) -> None:
    for pile in (s.gdeck, s.gdiscard):
        if gid in pile:
            pile.remove(gid)
            return
    raise AssertionError(gid)


def to_struggle(game: ColdWar, first: int, x: tuple[int, int]) -> list[dict[str, Any]]:
    """Choose who acts first and both agents X; returns the events."""
    assert game.s.balance is not None
    events = game.apply(game.s.balance, {"type": "first", "seat": first})
    for seat in (0, 1):
        if game.s.x[seat] is None:
            events += game.apply(seat, {"type": "agent", "agent": x[seat]})
    assert game.s.dec.kind == "turn"
    return events


def both_wait(game: ColdWar) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for _ in range(2):
        seat = game.s.dec.seat
        events += game.apply(seat, {"type": "wait"})
    return events


def setup_round(target: str, t0: Table, t1: Table, x: tuple[int, int], balance: int = 0,
                seed: int = 1, first: int = 0) -> ColdWar:
    game = fresh(seed)
    rig_briefing(game, target, balance, tables=(t0, t1))
    to_struggle(game, first, x)
    return game


def play_round(target: str, t0: Table, t1: Table, x: tuple[int, int], balance: int = 0,
               seed: int = 1) -> tuple[ColdWar, list[dict[str, Any]]]:
    """A round where both sides already hold groups and just wait; returns the game and events."""
    game = setup_round(target, t0, t1, x, balance, seed)
    return game, both_wait(game)


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def give(game: ColdWar, seat: int, targets: list[str], won: int = 0) -> None:
    """Put targets into a side's trophies as if captured in round ``won``."""
    s = game.s
    for tid in targets:
        if tid == s.target:  # the revealed target is handed out: the next one of the deck replaces it
            s.target = next(other for other in s.tdeck if other not in targets)
            s.tdeck.remove(s.target)
        else:
            s.tdeck.remove(tid)
        s.trophies[seat].append(tid)
        s.won_round[tid] = won


def tables(game: ColdWar) -> list[list[list[Any]]]:
    """Both sides' groups on the table as stored: ``[group id, active]`` pairs."""
    return [[g.to_json() for g in side] for side in game.s.table]
