""""Since your last move" leads with what happened to the reader (issue 25, item 8: it counted moves,
"carol: 10 moves, 1 territory conquered"), then a short count of the rest; public events only."""

from __future__ import annotations

from bot.core.catchup import Record, summarise, summary_text

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


def test_byallmeans_leads_with_the_cards_taken_from_you() -> None:
    """Issue 25, item 8: "cards taken from you": cards of the reader's hand or archives that the other
    player's move sent to the utility pile (a forced discard, a milled archive). A card of theirs that
    leaves the field is not "taken from you" out of a hand or archive, nor is the reader's own discard."""
    taken = [{"type": "bam.utility", "seat": 0, "code": "T01", "from": "main"},
             {"type": "bam.utility", "seat": 0, "code": "T02", "from": "main"},
             {"type": "bam.utility", "seat": 0, "code": "A03", "from": "extra"},
             {"type": "bam.utility", "seat": 0, "code": "P02", "from": "hand"}]
    records = [
        Record(1, [*taken,
                   {"type": "bam.utility", "seat": 0, "code": "T04", "from": "field"},  # a territory, not a card taken
                   {"type": "bam.utility", "seat": 1, "code": "P01", "from": "neutral"}]),  # Bob's own plot
        Record(0, [{"type": "bam.utility", "seat": 0, "code": "P03", "from": "hand"}]),  # Alice's own utilisation
    ]
    assert text("byallmeans", records, 0).split("\n") == [
        "📰 **Since your last move:**",
        "⚔️ Bob: 4 cards taken from you",
        "• Bob: 1 move"]
    assert text("byallmeans", records, 0, "ru").split("\n")[1] == "⚔️ Bob: отняты 4 ваши карты"
    # Bob reads only Alice's move: her own utilisation took nothing from him
    assert text("byallmeans", records, 1) == "📰 **Since your last move:**\n• Alice: 1 move"

    def russian(n: int) -> str:
        many = [Record(1, [{"type": "bam.utility", "seat": 0, "code": "T01", "from": "main"}] * n)]
        return text("byallmeans", many, 0, "ru").split("\n")[1]

    assert [russian(n) for n in (1, 2, 5, 11, 21)] == [
        "⚔️ Bob: отнята 1 ваша карта", "⚔️ Bob: отняты 2 ваши карты", "⚔️ Bob: отнято 5 ваших карт",
        "⚔️ Bob: отнято 11 ваших карт", "⚔️ Bob: отнята 21 ваша карта"]
    one = [Record(1, [{"type": "bam.utility", "seat": 0, "code": "T01", "from": "hand"}])]
    assert text("byallmeans", one, 0).split("\n")[1] == "⚔️ Bob: 1 card taken from you"


def test_byallmeans_cards_milled_by_a_plot_are_told_as_taken() -> None:
    """The events the rules write say where a card went to the utility pile from: Alice's «P01» (the
    rival's top 3 main-archive cards to the utility) reads to Bob as three cards taken from him."""
    from tests.byallmeans.bam_helpers import fresh, give

    g = fresh()
    fire = give(g, 0, "P01")
    events = g.apply(0, {"type": "play", "uid": fire})
    assert [e.get("from") for e in events if e["type"] == "bam.utility" and e["seat"] == 1] == ["main"] * 3
    assert text("byallmeans", [Record(0, events)], 1).split("\n")[:2] == [
        "📰 **Since your last move:**", "⚔️ Alice: 3 cards taken from you"]
