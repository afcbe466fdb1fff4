"""Checks of the card set (data/coldwar/cards.json) and of the translations."""

import itertools
import json
from pathlib import Path

from bot.games.coldwar.cards import FACTIONS, GROUPS, TARGETS
from bot.i18n import catalogue

I18N = json.loads((Path(__file__).resolve().parents[2] / "data/i18n/coldwar.json").read_text("utf-8"))


def test_counts() -> None:
    kinds = [t["kind"] for t in TARGETS.values()]
    assert kinds.count("country") == 15 and kinds.count("event") == 6
    assert len(GROUPS) == 24
    for fac in FACTIONS:
        assert sorted(g["influence"] for g in GROUPS.values() if g["faction"] == fac) == [1, 2, 3, 4, 5, 6]


def test_every_stability_reachable_within_the_group_limit() -> None:
    values = [g["influence"] for g in GROUPS.values()]
    for tid, t in TARGETS.items():
        sums = {sum(c) for k in range(1, t["limit"] + 1) for c in itertools.combinations(values, k)}
        assert t["stability"] in sums, tid
        assert 1 <= t["limit"] <= 5 and 6 <= t["stability"] <= 13 and 5 <= t["vp"] <= 20


def test_vp_total_lets_a_player_reach_100() -> None:
    assert sum(t["vp"] for t in TARGETS.values()) >= 100
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
    for t in TARGETS.values():
        if t["kind"] == "event":
            assert t["phase"] in ("briefing", "struggle", "truce", "detente") and t["ability"]


def test_translations_complete() -> None:
    assert all(k.startswith("coldwar.") for k in I18N)
    for key, val in I18N.items():
        assert val.get("ru") and val.get("en"), key
    for tid in TARGETS:
        assert f"coldwar.target.{tid}" in I18N
    for gid in GROUPS:
        assert f"coldwar.group.{gid}" in I18N
    assert len(I18N["coldwar.rules"]["ru"]) <= 1800 and len(I18N["coldwar.rules"]["en"]) <= 1800
    assert "coldwar.name" in catalogue()
