"""Catch-up summaries: counts of what others did since a seat's last move, per game, from public
events only, with correct plural forms (issue 12: "a short summary of what changed since their
last move (moves, captures, lines, points), not a wall of log lines")."""

from __future__ import annotations

from pathlib import Path

from bot.core import catchup
from bot.core.catchup import Record, Summary, summarise, summary_text
from bot.core.sessions import SessionManager
from bot.core.store import Store
from bot.discord_app import lifecycle
from tests.lifecycle.common import ALICE, BOB, CAROL, Clock, running_game

NAMES = ["Alice", "Bob", "Carol"]


def text(game: str, records: list[Record], me: int, lang: str = "en") -> str:
    return summary_text(summarise(game, records, me), NAMES.__getitem__, lambda side: f"Side{side}", lang)


def test_coldwar_captures_and_victory_points() -> None:
    # Cold War rulebook: the side whose agent wins the struggle takes the target card, worth its
    # victory points; an event card used also scores its points
    records = [
        Record(1, [{"type": "agent", "seat": 1, "to": [1]}]),
        Record(1, [{"type": "capture", "seat": 1, "target": "t3", "how": "struggle", "vp": 3},
                   {"type": "event_used", "seat": 1, "card": "e1", "vp": 2}]),
        Record(0, [{"type": "capture", "seat": 0, "target": "t1", "how": "struggle", "vp": 1}]),
    ]
    summary = summarise("coldwar", records, 0)
    assert summary.moves == {1: 2}
    assert summary.counts == {("seat", 1): {"captures": 1, "points": 5}}  # seat 0's own move is not news
    assert text("coldwar", records, 0) == ("📰 **Since your last move:**\n"
                                           "• Bob: 2 moves, 1 capture, +5 victory points")


def test_pobeda_lines_by_side_and_removed_chips() -> None:
    records = [
        Record(1, [{"type": "played", "seat": 1, "side": 1, "kind": "minus1", "cell": "C3", "victim": 0}]),
        Record(2, [{"type": "played", "seat": 2, "side": 0, "kind": "plus1", "cell": "D4"},
                   {"type": "line", "side": 0, "cells": ["A1", "A6"], "count": 1}]),
        Record(2, [{"type": "drew", "card": "x", "to": [2]}], {"type": "confirm"}),  # issue 27: the ✔ of Carol's
        # move, not one more
        Record(2, [{"type": "discarded", "seat": 2, "card": "ev001"}]),
    ]
    assert text("pobeda", records, 0) == ("📰 **Since your last move:**\n"  # issue 25: the reader's chip first
                                          "⚔️ Bob: 1 of your chips removed\n"
                                          "• Bob: 1 move\n"
                                          "• Carol: 2 moves\n"
                                          "• Side0: 1 line")


def test_godstorm_conquests_temples_and_eliminations_with_russian_plurals() -> None:
    conquests = [{"type": "conquered", "seat": 1, "frm": "a", "dst": f"t{i}", "count": 1} for i in range(5)]
    records = [Record(1, conquests), Record(1, [{"type": "temple_built", "seat": 1, "territory": "x", "cost": 1},
                                                {"type": "eliminated", "seat": 2, "by": 1}]),
               Record(2, []), Record(2, [])]
    ru = text("godstorm", records, 0, "ru")
    assert ru == ("📰 **С вашего прошлого хода:**\n"
                  "• Bob: 2 хода, захвачено 5 территорий, построен 1 храм\n"
                  "• Carol: 2 хода, выбывает из игры")


def test_a_godstorm_attack_and_its_roll_are_one_move() -> None:
    """Issue 27's undo window: the 🎲 (or the window's end) only throws the dice of the attack declared before it."""
    records = [Record(1, [{"type": "attack_declared", "seat": 1}], {"type": "attack", "from": "a", "to": "b", "dice": 3}),
               Record(1, [{"type": "conquered", "seat": 1, "frm": "a", "dst": "b", "count": 1}], {"type": "roll"}),
               Record(2, [], {"type": "end_turn"})]
    assert text("godstorm", records, 0) == ("📰 **Since your last move:**\n"
                                            "• Bob: 1 move, 1 territory conquered\n"
                                            "• Carol: 1 move")


def test_byallmeans_reputation_and_timeouts() -> None:
    records = [
        Record(1, [{"type": "bam.gain", "seat": 1, "res": "rep", "n": 2},
                   {"type": "bam.gain", "seat": 1, "res": "inf", "n": 5}]),
        Record(2, [{"type": "platform.timeout", "seat": 2}, {"type": "bam.skip", "seat": 2}]),
    ]
    assert text("byallmeans", records, 0) == ("📰 **Since your last move:**\n"
                                              "• Bob: 1 move, +2 reputation\n"
                                              "• Carol: 1 timed out")


def test_private_events_never_count_and_nothing_new_is_empty() -> None:
    secret = [Record(1, [{"type": "capture", "seat": 1, "vp": 9, "to": [1]}])]
    assert summarise("coldwar", secret, 0).counts == {}
    assert summary_text(Summary(), str, str, "en") == ""
    assert text("coldwar", [], 0) == ""


def test_russian_plural_forms() -> None:
    # CLDR Russian: 1, 21 -> one; 2-4, 22-24 -> few; 5-20, 25 -> many
    assert [catchup.count_text("moves", n, "ru") for n in (1, 2, 5, 11, 21, 22, 25)] == [
        "1 ход", "2 хода", "5 ходов", "11 ходов", "21 ход", "22 хода", "25 ходов"]
    assert [catchup.count_text("lines", n, "en") for n in (1, 2)] == ["1 line", "2 lines"]


async def test_catchup_note_reads_the_log_since_the_seats_last_action(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "c.sqlite3")
    sessions = SessionManager(store, clock=Clock(1000.0))
    gid = await running_game(sessions, players=(ALICE, BOB, CAROL), span=0)
    session = sessions.sessions[gid]
    game = session.game
    assert game is not None
    moved: list[int] = []
    for _ in range(4):  # every seat moves in turn (the toy opens a secret round every third move)
        actors = game.actors()
        if len(actors) > 1:
            for seat in actors:
                await sessions.act(gid, (session.row.seat_users or [])[seat][0], seat, {"type": "pick", "n": 1})
            continue
        (seat,) = actors
        await sessions.act(gid, (session.row.seat_users or [])[seat][0], seat, {"type": "add", "n": 1})
        moved.append(seat)
    (now,) = game.actors() if len(game.actors()) == 1 else game.actors()[:1]
    note = await lifecycle.catchup_note(store, session, now, "en")
    last = await store.last_seq_of_seat(gid, now)
    others = [a for a in await store.actions(gid, last) if a.seat != now]
    assert others, "someone else moved since"
    by_seat: dict[int, int] = {}
    for a in others:
        by_seat[a.seat] = by_seat.get(a.seat, 0) + 1
    expected = [f"• {session.seat_name(s)}: {n} move{'s' if n > 1 else ''}" for s, n in sorted(by_seat.items())]
    assert note.split("\n") == ["📰 **Since your last move:**", *expected]
    await store.close()
