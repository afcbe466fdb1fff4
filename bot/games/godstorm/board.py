"""Static board queries built once from ``data.py`` (adjacency, continents, income table)."""

from __future__ import annotations

from bot.games.godstorm import data

TERR_IDS: tuple[str, ...] = tuple(sorted(data.TERRITORIES))
NEIGHBOURS: dict[str, tuple[str, ...]] = {t: tuple(data.TERRITORIES[t].neighbours) for t in TERR_IDS}
CONTINENT_OF: dict[str, str] = {t: data.TERRITORIES[t].continent for t in TERR_IDS}
CONTINENTS: dict[str, tuple[str, ...]] = {c.id: tuple(c.territories) for c in data.CONTINENTS.values()}
BONUS: dict[str, int] = {c.id: c.bonus for c in data.CONTINENTS.values()}
SPACE_IDS: tuple[str, ...] = tuple(sorted(data.UNDERWORLD, key=lambda s: int("".join(ch for ch in s if ch.isdigit()) or 0)))
SPACE_LINKS: dict[str, tuple[str, ...]] = {
    s: tuple(n for n in data.UNDERWORLD[s].neighbours if n not in data.UNDERWORLD[s].fire) for s in SPACE_IDS
}
SPACE_KIND: dict[str, str] = {s: data.UNDERWORLD[s].kind for s in SPACE_IDS}
GATES: tuple[str, ...] = tuple(data.GATES)
CRYPTS: tuple[str, ...] = tuple(data.CRYPTS)
ALTARS: tuple[str, ...] = tuple(data.ALTARS)
PANTHEON_IDS: tuple[str, ...] = tuple(data.PANTHEONS)
GOD_KINDS: tuple[str, ...] = ("war", "magic", "sky", "death")
DECK_SIZES: dict[str, int] = dict(data.MIRACLE_DECK_SIZES)
CARD_SYMBOL: dict[str, str] = {c["id"]: c["symbol"] for c in data.TERRITORY_CARDS}
CARD_TERR: dict[str, str | None] = {c["id"]: c["territory"] for c in data.TERRITORY_CARDS}
CLASSIC_PALETTE: tuple[tuple[int, int, int], ...] = (
    (200, 40, 40), (40, 90, 200), (40, 160, 60), (230, 180, 20), (140, 60, 170), (30, 170, 170),
)
NEUTRAL_CLASSIC_COLOUR: tuple[int, int, int] = (128, 128, 128)


def base_income(territories: int) -> int:
    """Reference-card reading used for both armies and faith: ``max(3, territories // 3)``."""
    return max(3, territories // 3)


def continents_held(owned: set[str]) -> list[str]:
    return [c for c, ts in CONTINENTS.items() if all(t in owned for t in ts)]


def connected(start: str, owned: set[str]) -> set[str]:
    """Territories reachable from ``start`` through ``owned`` ones (``start`` excluded)."""
    seen = {start}
    stack = [start]
    while stack:
        cur = stack.pop()
        for n in NEIGHBOURS[cur]:
            if n in owned and n not in seen:
                seen.add(n)
                stack.append(n)
    seen.discard(start)
    return seen


def count_choices(maximum: int, minimum: int = 1) -> list[int]:
    """A bounded menu of counts between ``minimum`` and ``maximum`` (apply accepts any count)."""
    if maximum < minimum:
        return []
    if maximum - minimum <= 5:
        return list(range(minimum, maximum + 1))
    picks = {minimum, minimum + 1, minimum + 2, (minimum + maximum) // 2, maximum - 1, maximum}
    for v in (5, 10):
        if minimum < v < maximum:
            picks.add(v)
    return sorted(picks)
