""""Since your last move" leads with what happened to the reader (issue 25, item 8: it counted moves,
"carol: 10 moves, 1 territory conquered"), then a short count of the rest; public events only."""

from __future__ import annotations

from bot.catchup import Record, summarise, summary_text

NAMES = ["Alice", "Bob", "Carol"]


def text(game: str, records: list[Record], me: int, lang: str = "en", side: int | None = None) -> str:
    return summary_text(summarise(game, records, me, side), NAMES.__getitem__, lambda s: f"Side{s}", lang)


def test_godstorm_leads_with_your_territories_and_armies_lost_by_whom() -> None:
    records = [
        Record(2, [{"type": "roll", "seat": 2, "defender": 0, "frm": "Iberia", "dst": "Gaul", "att": [6, 5],
                    "dfn": [1, 1], "att_loss": 0, "def_loss": 2},
                   {"type": "conquered", "seat": 2, "frm": "Iberia", "dst": "Gaul", "count": 2, "previous": 0},
                   {"type": "roll", "seat": 2, "defender": 1, "frm": "Gaul", "dst": "Roma", "att": [6],
                    "dfn": [1], "att_loss": 0, "def_loss": 1},
                   {"type": "conquered", "seat": 2, "frm": "Gaul", "dst": "Roma", "count": 1, "previous": 1}]),
        *[Record(2, []) for _ in range(9)],
        Record(1, [{"type": "roll", "seat": 1, "defender": 0, "frm": "Thule", "dst": "Rus", "att": [6, 6, 6],
                    "dfn": [2, 2], "att_loss": 0, "def_loss": 2}]),
    ]
    en = text("godstorm", records, 0).split("\n")
    assert en == ["📰 **Since your last move:**",
                  "⚔️ Bob: 2 of your armies lost",
                  "⚔️ Carol: 1 of your territories conquered, 2 of your armies lost",
                  "• Bob: 1 move",
                  "• Carol: 10 moves, 1 territory conquered"]  # Roma was Bob's: the rest
    ru = text("godstorm", records, 0, "ru").split("\n")
    assert ru[1:3] == ["⚔️ Bob: потеряны 2 ваши армии",
                       "⚔️ Carol: захвачена 1 ваша территория, потеряны 2 ваши армии"]
    # Bob reads of Roma, not of Alice's Gaul
    assert text("godstorm", records, 1).split("\n")[1] == "⚔️ Carol: 1 of your territories conquered, 1 of your armies lost"


def test_pobeda_leads_with_your_chips_removed_and_the_other_sides_lines() -> None:
    records = [
        Record(1, [{"type": "played", "seat": 1, "side": 1, "kind": "minus1", "cell": "C3", "victim": 0},
                   {"type": "played", "seat": 1, "side": 1, "kind": "swap", "cell": "C4", "victim": 2}]),
        Record(2, [{"type": "played", "seat": 2, "side": 1, "kind": "plus1", "cell": "D4"},
                   {"type": "line", "side": 1, "cells": ["A1", "A6"], "count": 1}]),
        Record(1, [{"type": "played", "seat": 1, "side": 1, "kind": "swap", "cell": "E5", "victim": 0}]),
    ]
    assert text("pobeda", records, 0, "ru").split("\n") == [
        "📰 **С вашего прошлого хода:**",
        "⚔️ Bob: сняты 2 ваши фишки",
        "⚔️ Side1: 1 линия",
        "• Bob: 2 хода, снята 1 чужая фишка",  # the chip of side 2
        "• Carol: 1 ход"]


def test_coldwar_leads_with_your_groups_destroyed_and_taken() -> None:
    records = [
        Record(1, [{"type": "use", "seat": 1, "group": "g1", "on": "g7", "owner": 0, "effect": "destroy"}]),
        Record(1, [{"type": "use", "seat": 1, "group": "g2", "on": "g8", "owner": 0, "effect": "steal"},
                   {"type": "capture", "seat": 1, "target": "t3", "how": "struggle", "vp": 3}]),
        Record(1, [{"type": "destroyed", "seat": 1, "group": "g9", "owner": 0, "by": "nuclear"},
                   {"type": "use", "seat": 1, "group": "g3", "on": "g4", "owner": 1, "effect": "give"}]),
    ]
    assert text("coldwar", records, 0).split("\n") == [
        "📰 **Since your last move:**",
        "⚔️ Bob: 2 of your groups destroyed, 1 of your groups taken",
        "• Bob: 3 moves, 1 capture, +3 victory points"]


def test_byallmeans_leads_with_your_reputation_influence_and_agents() -> None:
    records = [
        Record(1, [{"type": "bam.lose", "seat": 0, "res": "rep", "n": 3},
                   {"type": "bam.lose", "seat": 0, "res": "inf", "n": 2},
                   {"type": "bam.gain", "seat": 1, "res": "rep", "n": 4},
                   {"type": "bam.exposed", "seat": 0, "code": "A03"}]),
        Record(2, [{"type": "bam.lose", "seat": 1, "res": "trust", "n": 1}]),
        Record(1, [{"type": "bam.lose", "seat": 0, "res": "trust", "n": 1, "to": [0]}]),  # private: never read
    ]
    assert text("byallmeans", records, 0, "ru").split("\n") == [
        "📰 **С вашего прошлого хода:**",
        "⚔️ Bob: ваша репутация −3, ваше влияние −2, раскрыт 1 ваш агент",
        "• Bob: 2 хода, +4 репутации",
        "• Carol: 1 ход"]


def test_nothing_of_yours_lost_means_no_lead() -> None:
    records = [Record(1, [{"type": "conquered", "seat": 1, "frm": "a", "dst": "b", "count": 1, "previous": 2}])]
    assert text("godstorm", records, 0) == "📰 **Since your last move:**\n• Bob: 1 move, 1 territory conquered"
