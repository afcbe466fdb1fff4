"""The step-by-step panel's view of the legal actions (``Game.panel_actions`` / ``Game.panel_path``).

The rules list one action per *card*: two copies of «Доки» in hand give two «Play · Доки · Cell 5»
actions, the same move twice under one label. The panel shows one of them (copies in the seat's own
hand are interchangeable: a hand card has no state of its own). Field objects are not interchangeable
(two Newsrooms on two cells), so a field object's name in a panel path carries its cell. Every label
of the panel is then different, and every legal move is still reachable (each one dropped has a twin
that stays, with the same effect).
"""

from __future__ import annotations

from typing import Any

from bot.core.i18n import sort_key, t
from bot.games.base import Action
from bot.games.byallmeans import text
from bot.games.byallmeans.state import State


def cells(s: State) -> dict[str, int]:
    """uid -> cell index of every object on the field (shadows under their Agent's cell)."""
    out: dict[str, int] = {}
    for i, cell in enumerate(s.field):
        for o in cell.objects():
            out[o.uid] = i
            for sh in getattr(o, "shadows", ()) or ():
                out[str(sh)] = i
    return out


def _canon(value: Any, hand: dict[str, str]) -> Any:
    """``value`` with every uid of the seat's hand replaced by its card code (copies are the same move)."""
    if isinstance(value, str):
        if value in hand:
            return "=" + hand[value]
        parts = value.split(":")
        if len(parts) == 3 and parts[1] in hand:
            return f"{parts[0]}:={hand[parts[1]]}:{parts[2]}"
        return value
    if isinstance(value, list):
        return sorted((_canon(v, hand) for v in value), key=repr)
    if isinstance(value, dict):
        return {k: _canon(v, hand) for k, v in value.items()}
    return value


def distinct(s: State, seat: int, legal: list[Action]) -> list[Action]:
    """The legal actions, keeping the first of each group that differs only in which copy of a hand card
    it uses (the rules' order is kept)."""
    hand = {u: s.cards[u] for u in s.players[seat].hand} if 0 <= seat < len(s.players) else {}
    seen: set[str] = set()
    out: list[Action] = []
    for action in legal:
        key = repr(_canon(action, hand))
        if key not in seen:
            seen.add(key)
            out.append(action)
    return out


def where(s: State, seat: int, uids: list[str], lang: str, move: bool = False) -> str:
    """Where the named objects and planned objects are: «Клетка 5», «Клетка 2, 7», «буфер 1» ('' for
    hand cards only); ``move``: the two cells of a symbol's move, source first."""
    at = cells(s)
    if move and len(uids) == 2 and all(u in at for u in uids):  # a symbol's move: in its order
        return " → ".join(t("bam.cell", lang, n=at[u] + 1) for u in uids)
    found = sorted({at[u] + 1 for u in uids if u in at})
    parts = [t("bam.cell", lang, n=", ".join(str(n) for n in found))] if found else []
    buffer = [b.uid for b in s.players[seat].buffer] if 0 <= seat < len(s.players) else []
    slots = sorted({buffer.index(u) + 1 for u in uids if u in buffer})
    if slots:
        parts.append(t("bam.r.slot", lang, n=", ".join(str(n) for n in slots)))
    return "; ".join(parts)


def named_uids(action: Action) -> list[str]:
    """The uids an action names: ``uid``, ``target``, ``cards``, a decision's value (both ends of a
    symbol move), the cards of sources ``<zone>:<uid>:<sym>``."""
    out: list[str] = []
    value = action.get("v")
    if isinstance(value, str) and value.count(":") == 2:  # a symbol's move: source and destination, in order
        return [value.split(":")[0], value.split(":")[2]]
    for key in ("uid", "target", "v"):
        value = action.get(key)
        if isinstance(value, str):
            out += [value.split(":")[0], value.split(":")[2]] if value.count(":") == 2 else [value]
    out += [u for u in action.get("cards") or [] if isinstance(u, str)]
    for key in ("a", "b"):
        src = action.get(key)
        if isinstance(src, str) and src.count(":") == 2:
            out.append(src.split(":")[1])
    return out


def is_move(action: Action) -> bool:
    """A decision's answer that moves a symbol (``"<src uid>:<sym>:<dst uid>"``)."""
    value = action.get("v")
    return action.get("type") == "choose" and isinstance(value, str) and value.count(":") == 2


def path(s: State, who: text.Names, seat: int, action: Action, lang: str) -> list[str]:
    """The action's label path (``text.action_path``) with the cell of each field object and the buffer slot of
    each planned object it names, so two cards of one name differ (at the card's level; for a combination, in
    its cards)."""
    labels = text.action_path(s, who, seat, action, lang)
    place = where(s, seat, named_uids(action), lang, move=is_move(action))
    if place:
        i = len(labels) - 1 if action["type"] in ("symbols", "number") else min(1, len(labels) - 1)
        labels[i] = f"{labels[i]} ({place})"
    return labels


NAMED = ("play", "utilise", "discard", "activate", "agent", "neutral")
"""Action kinds whose second level is the name of a card (hand card or field object)."""


def by_name(s: State, legal: list[Action], lang: str) -> list[Action]:
    """``legal`` with the cards of each kind in the alphabet of ``lang`` (issue 13). Action kinds, cells,
    an Agent's orders, sums and symbol effects keep the rules' order (they carry meaning)."""
    kinds: dict[str, int] = {}
    orders: dict[str, int] = {}

    def key(i: int) -> tuple[Any, ...]:
        a = legal[i]
        # (slot, value) parts: an order with a target and one without must not compare a name with an index
        parts: list[tuple[int, Any]] = [(0, kinds.setdefault(str(a["type"]), len(kinds)))]
        if a["type"] in NAMED:
            parts.append((1, sort_key(text.card_name(s.cards[a["uid"]], lang), lang)))
            if a["type"] == "agent":
                parts.append((2, orders.setdefault(str(a["do"]), len(orders))))
                if "target" in a:
                    parts.append((3, sort_key(text.card_name(s.cards[a["target"]], lang), lang)))
        return (*parts, (4, i))

    return [legal[i] for i in sorted(range(len(legal)), key=key)]
