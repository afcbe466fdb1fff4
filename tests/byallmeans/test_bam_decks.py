"""Preset decks and decks brought as lists of card codes: «Колода составляется из 40 карт. В колоде
допускается не более двух повторений одной карты.»"""

from __future__ import annotations

from collections import Counter

import pytest

from bot.games.base import IllegalAction, Player, Rng
from bot.games.byallmeans import ByAllMeans, data, decks


def test_four_presets_of_forty_with_at_most_two_copies() -> None:
    presets = decks.presets()
    assert len(presets) >= 4
    for deck_id, codes in presets.items():
        assert len(codes) == 40 and max(Counter(codes).values()) <= 2, deck_id
        assert decks.validate(list(codes)) == [], deck_id


def test_presets_have_distinct_styles() -> None:
    """Each preset leans on a different card type (its most common type differs, or its mix does)."""
    mixes = {d: tuple(sorted(Counter(data.card(c).type for c in codes).items())) for d, codes in decks.presets().items()}
    assert len(set(mixes.values())) == len(mixes)


def test_export_and_import_round_trip() -> None:
    for codes in decks.presets().values():
        text = decks.export(list(codes))
        parsed, problems = decks.check(text)
        assert problems == [] and sorted(parsed) == sorted(codes)


def test_counted_and_loose_forms() -> None:
    codes, problems = decks.parse("2xT01, t02*2; T03x2\nA01 A01")
    assert problems == [] and codes == ["T01", "T01", "T02", "T02", "T03", "T03", "A01", "A01"]


def test_each_problem_is_named() -> None:
    codes, problems = decks.check("T01x2 T02 T02 T02 Z99 ???")
    keys = [k for k, _ in problems]
    assert "bam.deck.token" in keys  # ???
    assert ("bam.deck.size", {"n": 6, "size": 40}) in problems
    assert ("bam.deck.copies", {"code": "T02", "n": 3, "max": 2}) in problems
    assert ("bam.deck.unknown", {"code": "Z99"}) in problems
    assert decks.check("")[1] == [("bam.deck.empty", {})]


def test_problems_are_localised() -> None:
    _, problems = decks.check("T02 T02 T02")
    ru, en = decks.problems_text(problems, "ru"), decks.problems_text(problems, "en")
    assert "T02" in ru and "T02" in en and ru != en
    assert "40" in ru and "40" in en


def test_a_seat_brings_a_preset_or_its_own_list() -> None:
    own = decks.export(list(decks.preset("press")))
    g = ByAllMeans.new([{"deck": "syndicate"}, {"deck": own}], {}, 3)
    assert sorted(c for u, c in g.s.cards.items() if u.startswith("0.")) == sorted(decks.preset("syndicate"))
    assert sorted(c for u, c in g.s.cards.items() if u.startswith("1.")) == sorted(decks.preset("press"))
    with pytest.raises(IllegalAction) as bad:
        ByAllMeans.new([{"deck": "T01 T01 T01"}, {}], {}, 3)
    assert bad.value.key == "bam.deck.size"  # the first problem; decks.check lists them all
    with pytest.raises(IllegalAction):
        ByAllMeans.new([{"deck": "nosuchdeck"}, {}], {}, 3)


def test_lobby_options_choose_the_decks() -> None:
    players = [Player(1), Player(2)]
    arr = ByAllMeans.arrange_seats(players, {"decks": ["cityhall", "random"]}, Rng(5))
    assert arr.seat_info[0] == {"deck": "cityhall"} and arr.seat_info[1]["deck"] in decks.presets()
    with pytest.raises(IllegalAction):
        ByAllMeans.arrange_seats(players, {"deck": "T01"}, Rng(5))


def test_uids_do_not_reveal_the_card() -> None:
    """A uid is the position a card was dealt to, so two games of one preset name different cards alike."""
    a = ByAllMeans.new([{"deck": "underground"}, {"deck": "underground"}], {}, 1)
    b = ByAllMeans.new([{"deck": "underground"}, {"deck": "underground"}], {}, 2)
    assert [a.s.cards[f"1.{i}"] for i in range(40)] != [b.s.cards[f"1.{i}"] for i in range(40)]


def test_the_lobby_option_lists_every_preset() -> None:
    spec = {s.name: s for s in ByAllMeans.option_specs()}["deck"]
    assert spec.default == "random"
    assert {v for v, _ in spec.choices} == {"random", *decks.presets()}
