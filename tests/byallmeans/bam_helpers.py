"""Building By All Means positions for rule tests: a started game, cards moved into hands, objects on cells."""

from __future__ import annotations

from typing import Any

from bot.games.byallmeans import ByAllMeans, data
from bot.games.byallmeans.state import FieldObj, State, TurnState


def started(seed: int = 1, first: int = 0) -> ByAllMeans:
    """Through the setup: nobody reshuffles, the chooser lets ``first`` begin, nobody exchanges."""
    g = ByAllMeans.new([{}, {}], {}, seed)
    for seat in (0, 1):
        g.apply(seat, {"type": "shuffle", "main": False, "extra": False})
    g.apply(g.s.chooser, {"type": "order", "first": first})
    for seat in (0, 1):
        g.apply(seat, {"type": "exchange", "cards": []})
    return g


def fresh(seed: int = 1, seat: int = 0, empty_hands: bool = True) -> ByAllMeans:
    """A game in the middle of ``seat``'s unrestricted turn 5 with two main actions, hands emptied into
    the main archives (so tests give exactly the cards they need)."""
    g = started(seed, 0)
    s = g.s
    if empty_hands:
        for p in s.players:
            p.main[:0] = p.hand
            p.hand.clear()
    s.stack.clear()
    s.phase = "turn"
    s.turn = TurnState(active=seat, number=5, main_left=2)
    return g


def uid_of(s: State, seat: int, code: str) -> str:
    """A uid of ``code`` owned by ``seat`` that is still in an archive (taken out of it), or a new one when
    the deck has no such card left."""
    p = s.players[seat]
    for pile in (p.main, p.extra, p.utility):
        for uid in pile:
            if s.cards[uid] == code:
                pile.remove(uid)
                return uid
    if code not in data.cards():
        raise LookupError(code)
    uid = f"{seat}.{100 + len(s.cards)}"  # a card the deck lacks: minted for the test, owned by ``seat``
    s.cards[uid] = code
    return uid


def give(g: ByAllMeans, seat: int, code: str) -> str:
    uid = uid_of(g.s, seat, code)
    g.s.players[seat].hand.append(uid)
    return uid


def put(g: ByAllMeans, seat: int, code: str, cell: int, **fields: Any) -> FieldObj:
    """Put a card straight onto a cell (no entry effects): territories, graffiti and agents."""
    s = g.s
    uid = uid_of(s, seat, code)
    d = data.card(code)
    kind = "agent" if d.is_agent else d.type
    obj = FieldObj(uid, seat, kind, list(d.symbols) if kind != "plot" else [], d.loyalty if kind == "territory" else 0)
    for k, v in fields.items():
        setattr(obj, k, v)
    setattr(s.field[cell], kind, obj)
    return obj


def acts(g: ByAllMeans, seat: int, kind: str) -> list[dict[str, Any]]:
    return [a for a in g.legal_actions(seat) if a["type"] == kind]


def choose(g: ByAllMeans, value: Any) -> None:
    seat = g.actors()[0]
    g.apply(seat, {"type": "choose", "v": value})


def everywhere(s: State) -> list[str]:
    """Every uid in every place (a card in two places appears twice)."""
    out: list[str] = []
    for p in s.players:
        out += p.main + p.extra + p.hand + p.utility + [b.uid for b in p.buffer]
    out += [n.uid for n in s.neutral]
    out += [o.uid for c in s.field for o in c.objects()]
    out += [u for c in s.field for o in c.objects() for u in o.shadows]
    return out
