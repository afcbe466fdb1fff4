"""Checks of the Godstorm board data against the rulebook's numbers."""

from __future__ import annotations

from collections import Counter

from bot.games.godstorm import data as d

NAMES = ("ru", "en")


def _has_names(name: dict[str, str]) -> bool:
    return all(isinstance(name.get(lang), str) and name[lang].strip() for lang in NAMES)


def test_42_territories_in_6_continents() -> None:
    assert len(d.TERRITORIES) == 42
    assert len(d.CONTINENTS) == 6
    members = Counter(t for c in d.CONTINENTS.values() for t in c.territories)
    assert set(members) == set(d.TERRITORIES)
    assert all(n == 1 for n in members.values()), "a territory is in two continents"
    for tid, terr in d.TERRITORIES.items():
        assert terr.id == tid
        assert tid in d.CONTINENTS[terr.continent].territories
    sizes = sorted(len(c.territories) for c in d.CONTINENTS.values())
    assert sizes[0] >= 4 and sizes[-1] <= 12  # "от 4 до 12 территорий"


def test_continent_bonuses() -> None:
    bonus = {c.name["en"]: c.bonus for c in d.CONTINENTS.values()}
    assert bonus == {"Europa": 7, "Germania": 5, "Africa": 5, "Asia Minor": 3, "Atlantis": 3, "Hyrkania": 2}
    assert d.CONTINENTS["atlantis"].name["ru"] == "Атлантида"


def test_links_symmetric_and_counted() -> None:
    for tid, terr in d.TERRITORIES.items():
        assert tid not in terr.neighbours
        assert list(terr.neighbours) == sorted(set(terr.neighbours))
        assert terr.sea <= set(terr.neighbours)
        for other in terr.neighbours:
            assert tid in d.TERRITORIES[other].neighbours
            assert (other in terr.sea) == (tid in d.TERRITORIES[other].sea)
    assert len(d.links()) == 69
    sea = {tuple(sorted((a, b))) for a, t in d.TERRITORIES.items() for b in t.sea}
    assert len(sea) == 21


def test_map_is_connected_and_rulebook_examples_hold() -> None:
    seen = {"Roma"}
    todo = ["Roma"]
    while todo:
        for n in d.TERRITORIES[todo.pop()].neighbours:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(d.TERRITORIES)
    # rulebook: "Thule or Rus may attack Varangia; Oricalcos may be attacked from Poseidonis or Atlas"
    assert {"Thule", "Rus"} <= set(d.TERRITORIES["Varangia"].neighbours)
    assert {"Poseidonis", "Atlas"} <= set(d.TERRITORIES["Oricalcos"].neighbours)
    assert "Atlas" in d.TERRITORIES["Oricalcos"].sea  # dotted line on the board


def test_mountain_ridges_are_not_links() -> None:
    assert d.MOUNTAIN_RIDGES
    for a, b in d.MOUNTAIN_RIDGES:
        assert b not in d.TERRITORIES[a].neighbours


def test_territory_cards() -> None:
    cards = d.TERRITORY_CARDS
    assert len(cards) == 44
    assert len({c["id"] for c in cards}) == 44
    wild = [c for c in cards if c["symbol"] == "wild"]
    assert len(wild) == 2 and all(c["territory"] is None for c in wild)
    named = [c["territory"] for c in cards if c["territory"] is not None]
    assert sorted(named) == sorted(d.TERRITORIES)
    symbols = Counter(c["symbol"] for c in cards if c["symbol"] != "wild")
    assert set(symbols) == {"infantry", "cavalry", "artillery"} and set(symbols.values()) == {14}
    assert all(_has_names(d.CARD_SYMBOL_NAMES[s]) for s in ("infantry", "cavalry", "artillery", "wild"))


def test_underworld() -> None:
    uw = d.UNDERWORLD
    assert sorted(uw, key=lambda s: int(s[2:])) == [f"uw{i}" for i in range(1, 14)]
    kinds = Counter(s.kind for s in uw.values())
    assert kinds == {"gate": 3, "crypt": 4, "altar": 2, "plain": 4}  # "each heaven reaches all 3 gates"
    for sid, space in uw.items():
        assert _has_names(space.name)
        assert not (set(space.neighbours) & space.fire), "a fire border is never a link"
        for other in space.neighbours:
            assert sid in uw[other].neighbours
        for other in space.fire:
            assert sid in uw[other].fire
    assert len(d.fire_borders()) == 5
    seen = {"uw1"}
    todo = ["uw1"]
    while todo:
        for n in uw[todo.pop()].neighbours:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(uw)


def test_every_name_has_ru_and_en() -> None:
    for terr in d.TERRITORIES.values():
        assert _has_names(terr.name)
        assert terr.name["en"] == terr.id
    for cont in d.CONTINENTS.values():
        assert _has_names(cont.name)
    for heaven in d.HEAVENS.values():
        assert _has_names(heaven)
    assert len({t.name["ru"] for t in d.TERRITORIES.values()}) == 42


def test_pantheons_gods_and_heavens() -> None:
    assert set(d.PANTHEONS) == {"greek", "norse", "egyptian", "celtic", "babylonian"}
    assert set(d.HEAVENS) == {"kurnugia", "avalon", "duat", "elysium", "valhalla"}
    assert sorted(p.heaven for p in d.PANTHEONS.values()) == sorted(d.HEAVENS)
    assert d.PANTHEONS["babylonian"].heaven == "kurnugia"
    assert d.PANTHEONS["celtic"].heaven == "avalon"
    assert d.PANTHEONS["egyptian"].heaven == "duat"
    assert d.PANTHEONS["greek"].heaven == "elysium"
    assert d.PANTHEONS["norse"].heaven == "valhalla"
    gods = [g for p in d.PANTHEONS.values() for g in p.gods.values()]
    assert len(gods) == 20 and all(_has_names(g) for g in gods)
    for p in d.PANTHEONS.values():
        assert set(p.gods) == set(d.GOD_KINDS)
        assert _has_names(p.name)
        assert all(0 <= c <= 255 for c in p.colour)
    assert d.PANTHEONS["egyptian"].gods["war"]["ru"] == "Сет"
    assert d.PANTHEONS["celtic"].gods["magic"]["ru"] == "Бригитта"
    colours = [p.colour for p in d.PANTHEONS.values()]
    for i, a in enumerate(colours):
        for b in colours[i + 1:]:
            assert sum(abs(x - y) for x, y in zip(a, b, strict=True)) > 90, "pantheon colours too similar"


def test_counts_and_tables() -> None:
    assert d.ARMIES_BY_PLAYERS == {2: 30, 3: 35, 4: 30, 5: 25}
    assert d.CLASSIC_ARMIES_BY_PLAYERS == {2: 30, 3: 35, 4: 30, 5: 25}
    assert d.TEMPLES == 12 and d.PLAGUES == 5 and d.PLAGUES_AT_SETUP == 4
    assert d.STARTING_FAITH == 3 and d.EPOCHS == 5
    assert d.MIRACLE_DECK_SIZES == {"war": 17, "magic": 15, "sky": 17, "death": 17}
    assert set(d.RELIC_TERRITORIES.values()) <= set(d.TERRITORIES)


def test_canvas_positions_are_distinct_and_inside() -> None:
    w, h = d.MAP_CANVAS
    pts = [t.xy for t in d.TERRITORIES.values()]
    assert all(0 < x < w and 0 < y < h for x, y in pts)
    for i, (x1, y1) in enumerate(pts):
        for x2, y2 in pts[i + 1:]:
            assert (x1 - x2) ** 2 + (y1 - y2) ** 2 >= 60 ** 2
    uw, uh = d.UNDERWORLD_CANVAS
    assert all(0 < s.xy[0] < uw and 0 < s.xy[1] < uh for s in d.UNDERWORLD.values())
