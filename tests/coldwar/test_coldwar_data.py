"""Checks of the card sets (data/coldwar/) against the sourced card list, and of the translations.

``fixtures/coldwar_cards_sourced.json`` is a copy of the research file
``../shared/research/coldwar_cards_sourced.json`` (a public hand transcription of the English cards).
"""

import itertools
import json
from pathlib import Path

import pytest

from bot.core.i18n import catalogue
from bot.games.coldwar.cards import CARD_SETS, FACTIONS, GROUPS, PHASES, TARGETS

ROOT = Path(__file__).resolve().parents[2]
I18N = json.loads((ROOT / "data/i18n/coldwar.json").read_text("utf-8"))
SOURCED = json.loads((Path(__file__).parent / "fixtures/coldwar_cards_sourced.json").read_text("utf-8"))
RULEBOOK = "printed (rulebook)"
TRANSCRIPTION = "printed (card list transcription, unconfirmed by a second source)"
ABILITY = {"Nobel Peace Prize": "nobel", "Live Benefit": "benefit_discard",
           "Nuclear Escalation": "nuclear_military", "Space Race": "space_race",
           "Olympic Games": "olympics_return", "Summit Meeting": "summit_reveal"}


def test_counts() -> None:
    """"21 карта целей (15 стран, 6 событий)", "24 карты групп (6 военных, 6 экономических, 6 общест-
    венных и 6 политических)"."""
    kinds = [t["kind"] for t in TARGETS.values()]
    assert kinds.count("country") == 15 and kinds.count("event") == 6
    assert len(GROUPS) == 24
    for fac in FACTIONS:
        assert sorted(g["influence"] for g in GROUPS.values() if g["faction"] == fac) == [1, 2, 3, 4, 5, 6]


def _by_printed_name(cards: dict[str, dict]) -> dict[str, dict]:
    return {c["printed_name"]: c for c in cards.values()}


def test_every_target_is_the_sourced_card() -> None:
    ours = _by_printed_name(TARGETS)
    assert sorted(ours) == sorted(t["name_en"] for t in SOURCED["targets"])
    for src in SOURCED["targets"]:
        card = ours[src["name_en"]]
        assert card["kind"] == {"nation": "country", "event": "event"}[src["kind"]]
        assert (card["stability"], card["limit"], card["vp"]) == (
            src["stability"], src["group_limit"], src["victory_points"]), src["name_en"]
        assert card["priority"] == src["bias"], src["name_en"]
        assert card["phase"] == src.get("ability_phase")
        assert card["ability"] == ABILITY.get(src["name_en"])


def test_every_group_is_the_sourced_card() -> None:
    ours = _by_printed_name(GROUPS)
    assert sorted(ours) == sorted(g["name_en"] for g in SOURCED["groups"])
    for src in SOURCED["groups"]:
        assert (ours[src["name_en"]]["faction"], ours[src["name_en"]]["influence"]) == (
            src["sphere"], src["influence"])


def test_ranges_match_the_rulebook_and_reviews() -> None:
    """"Каждая цель даёт от 5 до 20 победных очков"; reviews: stability 6–13, 1–5 group icons."""
    for tid, t in TARGETS.items():
        assert 1 <= t["limit"] <= 5 and 6 <= t["stability"] <= 13 and 5 <= t["vp"] <= 20, tid


def test_every_stability_reachable_within_the_group_limit() -> None:
    values = [g["influence"] for g in GROUPS.values()]
    for tid, t in TARGETS.items():
        sums = {sum(c) for k in range(1, t["limit"] + 1) for c in itertools.combinations(values, k)}
        assert t["stability"] in sums, tid


def test_vp_total_lets_a_player_reach_100() -> None:
    assert sum(t["vp"] for t in TARGETS.values() if t["kind"] == "country") >= 100


def test_priority_tie_break_always_resolves() -> None:
    """Two groups of one sphere never share a value, and the struggle can only end with groups on
    both sides (a player without groups may not wait), so some sphere always decides."""
    for fac in FACTIONS:
        vals = [g["influence"] for g in GROUPS.values() if g["faction"] == fac]
        assert len(vals) == len(set(vals))
    for t in TARGETS.values():
        assert sorted(t["priority"]) == sorted(FACTIONS)


def test_events_have_a_phase() -> None:
    for cards in CARD_SETS.values():
        for t in cards.targets.values():
            assert (t["kind"] == "event") == (t["phase"] in PHASES) == bool(t["ability"])


def test_provenance_says_exactly_what_the_rulebook_confirms() -> None:
    confirmed = {(tid, field) for tid, t in TARGETS.items()
                 for field, value in t["provenance"].items() if value == RULEBOOK}
    assert confirmed == {("cuba", "name"), ("cuba", "vp"), ("cuba", "priority"), ("czechoslovakia", "name"),
                         ("space_race", "name"), ("space_race", "ability"), ("nobel", "name"),
                         ("nobel", "ability"), ("nuclear", "name"), ("protest", "name")}
    for tid, t in TARGETS.items():
        fields = {"name", "stability", "limit", "priority", "vp"} | ({"ability"} if t["ability"] else set())
        assert fields <= set(t["provenance"]), tid
        assert all(v in (RULEBOOK, TRANSCRIPTION) for k, v in t["provenance"].items() if k != "note"), tid
    groups = {gid for gid, g in GROUPS.items() if g["provenance"] == RULEBOOK}
    assert groups == {"opposition", "industry", "newspapers", "mafia", "food"}
    assert all(g["provenance"] in (RULEBOOK, TRANSCRIPTION) for g in GROUPS.values())


@pytest.mark.parametrize("version", sorted(CARD_SETS))
def test_translations_complete(version: int) -> None:
    assert all(k.startswith("coldwar.") for k in I18N)
    for key, val in I18N.items():
        assert val.get("ru") and val.get("en"), key
    cards = CARD_SETS[version]
    for tid in cards.targets:
        assert f"coldwar.target.{tid}" in I18N
    for gid in cards.groups:
        assert f"coldwar.group.{gid}" in I18N
    prefix = "coldwar.evdesc." if version == 2 else f"coldwar.evdesc.v{version}."
    for tid, t in cards.targets.items():
        if t["kind"] == "event":
            assert prefix + tid in I18N
    assert len(I18N["coldwar.rules"]["ru"]) <= 1800 and len(I18N["coldwar.rules"]["en"]) <= 1800
    assert "coldwar.name" in catalogue()


def test_russian_names_keep_the_rulebooks_words() -> None:
    """The Russian rulebook prints «Акция протеста» and «Ядерная эскалация»."""
    assert I18N["coldwar.target.protest"]["ru"] == "Акция протеста"
    assert I18N["coldwar.target.nuclear"]["ru"] == "Ядерная эскалация"
