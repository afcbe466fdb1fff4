"""Text of the miracle cards: event lines, action paths and prompts (keys in ``data/i18n/godstorm_miracles.json``).

Card names and texts come from ``data/godstorm/miracles.json`` (``card_name``, ``card_text``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core.i18n import t
from bot.games import narration
from bot.games.base import Action, Event
from bot.games.godstorm import board, data, names
from bot.games.godstorm.miracles import CARDS, card_of

if TYPE_CHECKING:
    from bot.games.godstorm.game import Godstorm

MIRACLE_EVENTS = frozenset({
    "card_private", "relic_in_play", "cards_read", "card_discarded", "card_played", "window_open", "no_answer",
    "card_cancelled", "answer_pref", "invasion_stopped", "attack_called_off", "card_taken", "hand_shown",
    "tree_of_life", "book_of_the_dead", "relic_armies", "relic_faith", "die", "continent_drawn", "faith_gained",
    "temple_placed", "temple_destroyed", "temple_moved", "swapped", "card_moved", "epoch_back", "plague_removed",
    "plague_placed", "plague_moved", "hand_discarded", "dead_rise", "card_losses", "emptied", "atlantis_sunk",
    "relic_destroyed", "relic_stolen", "trojan", "maelstrom", "card_armies",
})
MIRACLE_ACTIONS = frozenset({"play_card", "no_answer", "cancel_card", "take_card", "book_of_the_dead", "answer_pref"})


def card_name(card: str, lang: str) -> str:
    """The name of a card id or a card instance id."""
    c = CARDS.get(card) or card_of(card)
    return c.name.get(lang, c.name["en"])


def card_text(card: str, lang: str) -> str:
    c = CARDS.get(card) or card_of(card)
    return c.text.get(lang, c.text["en"])


def _place(where: str, lang: str) -> str:
    if where in data.TERRITORIES:
        return data.TERRITORIES[where].name.get(lang, where)
    if where in data.UNDERWORLD:
        return data.UNDERWORLD[where].name.get(lang, where)
    return where


def event_text(g: Godstorm, e: Event, lang: str) -> str | None:
    kind = e["type"]
    key = f"godstorm.m.evt.{kind}"
    who = names.who_name(g, e.get("seat"), lang)
    to = names.who_name(g, (e.get("to") or [None])[0], lang)  # a private event's seat, named in a replay (bot.games.narration)
    if kind in ("card_private", "relic_in_play", "card_discarded", "relic_destroyed"):
        key = narration.key(key) if kind == "card_private" else key
        return t(key, lang, who=who, card=card_name(e["card"], lang), text=card_text(e["card"], lang), **narration.named(to))
    if kind == "cards_read":
        return t(narration.key(key), lang, cards=", ".join(card_name(c, lang) for c in e["cards"]) or "—", **narration.named(to))
    if kind == "card_played":
        return t(key, lang, who=who, card=card_name(e["card"], lang), text=card_text(e["card"], lang), cost=e["cost"])
    if kind == "window_open":
        if e["kind"] == "sky":
            return t(key + ".sky", lang, who=who, src=_place(e["frm"], lang), dst=_place(e["dst"], lang))
        return t(key + ".aegis", lang, who=who, card=card_name(e["card"], lang))
    if kind == "card_cancelled":
        return t(key, lang, who=who, card=card_name(e["card"], lang))
    if kind == "answer_pref":
        return t(narration.key(key + (".never" if e["never"] else ".ask")), lang, **narration.named(to))
    if kind in ("invasion_stopped", "attack_called_off"):
        return t(key, lang, who=who, dst=_place(e["dst"], lang))
    if kind == "card_taken":
        return t(key, lang, who=who, other=names.who_name(g, e["frm"], lang), deck=t(f"godstorm.deck.{e['kind']}", lang))
    if kind == "hand_shown":
        return t(key, lang, who=who, cards=", ".join(card_name(c, lang) for c in e["cards"]) or "—")
    if kind in ("tree_of_life", "relic_armies", "relic_faith", "faith_gained", "hand_discarded"):
        return t(key, lang, who=who, n=e["n"])
    if kind == "die":
        return t(key, lang, n=e["value"])
    if kind == "continent_drawn":
        return t(key, lang, cont=data.CONTINENTS[e["continent"]].name.get(lang, e["continent"]))
    if kind in ("temple_placed", "temple_destroyed", "plague_removed", "plague_placed"):
        return t(key, lang, where=_place(e["territory"], lang))
    if kind in ("temple_moved", "plague_moved"):
        return t(key, lang, src=_place(e["frm"], lang), dst=_place(e["dst"], lang))
    if kind == "swapped":
        return t(key, lang, a=_place(e["a"], lang), b=_place(e["b"], lang))
    if kind == "card_moved":  # keys of the god moves in godstorm.json (issue 26: name the god, no "0 armies")
        src, dst = _place(e["frm"], lang), _place(e["dst"], lang)
        owner = e.get("owner", e.get("seat"))
        gods = ", ".join(names.god_name(g, owner, kind_, lang) for kind_ in e["gods"])
        if e["gods"] and not e["count"]:
            return t("godstorm.evt.card_god_moved", lang, who=who, gods=gods, src=src, dst=dst)
        if e["gods"]:
            return t("godstorm.evt.card_moved_gods", lang, who=who, n=e["count"], gods=gods, src=src, dst=dst)
        return t(key, lang, who=who, src=src, dst=dst, n=e["count"], gods=0)
    if kind == "epoch_back":
        return t(key, lang, n=e["epoch"])
    if kind == "dead_rise":
        return t(key, lang, who=who, src=_place(e["space"], lang), dst=_place(e["territory"], lang), n=e["count"])
    if kind in ("card_losses", "card_armies"):
        return t(key, lang, who=who, where=_place(e["territory"], lang), n=e.get("lost", e.get("count", 0)))
    if kind == "emptied":
        return t(key, lang, where=_place(e["territory"], lang))
    if kind == "relic_stolen":
        return t(key, lang, who=who, other=names.who_name(g, e["frm"], lang), card=card_name(e["card"], lang))
    if kind == "trojan":
        return t(key, lang, who=who, where=_place(e["territory"], lang), n=e["count"])
    if kind == "maelstrom":
        return t(key, lang, a=_place(e["a"], lang), b=_place(e["b"], lang))
    if kind in ("atlantis_sunk", "book_of_the_dead", "no_answer"):
        return t(key, lang, who=who)
    return None


def action_path(g: Godstorm, seat: int, a: Action, lang: str) -> list[str]:
    kind = a["type"]
    L = lambda key, **kw: t("godstorm.m.act." + key, lang, **kw)  # noqa: E731
    if kind == "play_card":
        c = CARDS[a["card"]]
        path = [L("play"), f"{card_name(c.id, lang)} ({c.cost})"]
        if "a" in a and "b" in a and c.target == "sea_link":
            return path + [f"{_place(a['a'], lang)} — {_place(a['b'], lang)}"]
        for k in ("territory", "from", "a", "to", "b", "space"):
            if k in a:
                where = str(a[k])
                if where in board.CONTINENT_OF:
                    cont = data.CONTINENTS[board.CONTINENT_OF[where]]
                    path.append(cont.name.get(lang) or cont.id)
                path.append(_place(where, lang))
        if "territories" in a:
            path.append(", ".join(_place(x, lang) for x in a["territories"]))
        if "relic" in a:
            path.append(f"{card_name(a['relic'], lang)} ({names.who_name(g, a['seat'], lang)})")
        elif "seat" in a:
            path.append(names.who_name(g, a["seat"], lang))
        if "deck" in a:
            path.append(" + ".join(t(f"godstorm.deck.{a[k]}", lang) for k in ("deck", "deck2")))
        if "god" in a:
            path.append(data.GOD_KIND_NAMES[a["god"]].get(lang) or str(a["god"]))
        if "count" in a:
            path.append(f"{a['count']} + {L('with_gods')}" if a.get("gods") else str(a["count"]))
        return path
    if kind == "no_answer":
        return [L("no_answer_never") if a.get("never") else L("no_answer")]
    if kind == "answer_pref":
        return [L("pref_never") if a["never"] else L("pref_ask")]
    if kind == "take_card":
        return [L("take"), card_name(a["card"], lang)]
    return [L(kind)]


def prompt(g: Godstorm, seat: int, lang: str) -> str | None:
    m = g.s.mir
    if m is None:
        return None
    if m.windows:
        w = m.windows[-1]
        if w.kind == "sky":
            return t("godstorm.m.prompt.sky", lang, src=_place(w.src or "", lang), dst=_place(w.dst or "", lang))
        return t("godstorm.m.prompt.aegis", lang, card=card_name(w.card or "", lang))
    if m.pick is not None:
        return t("godstorm.m.prompt.pick", lang)
    return None


def status_lines(g: Godstorm, lang: str) -> list[str]:
    """Public lines: the answer being waited for, relics in play, sunken Atlantis and the maelstrom."""
    m = g.s.mir
    if m is None:
        return []
    out: list[str] = []
    if m.windows and m.windows[-1].seats:
        w = m.windows[-1]
        out.append(t("godstorm.m.status.waiting", lang, who=names.who_name(g, w.seats[0], lang)))
    for i, relics in enumerate(m.relics):
        if relics:
            out.append(t("godstorm.m.status.relics", lang, who=names.who_name(g, i, lang),
                         relics=", ".join(card_name(r, lang) for r in relics)))
    if m.sunk:
        out.append(t("godstorm.m.status.sunk", lang))
    if m.maelstrom is not None:
        out.append(t("godstorm.m.status.maelstrom", lang, a=_place(m.maelstrom[0], lang), b=_place(m.maelstrom[1], lang)))
    return out


def hand_text(g: Godstorm, seat: int, lang: str) -> str:
    """The seat's own cards (private text): hand and relics in play."""
    m = g.s.mir
    if m is None or not 0 <= seat < len(m.hands):
        return ""
    hand = ", ".join(card_name(c, lang) for c in m.hands[seat]) or "—"
    relics = ", ".join(card_name(c, lang) for c in m.relics[seat]) or "—"
    name = g.seat_display(seat, t("godstorm.player", lang, n=seat + 1))  # a replay's third person (narration)
    return t(narration.key("godstorm.m.private.cards"), lang, hand=hand, relics=relics, **narration.named(name))


__all__ = ["MIRACLE_ACTIONS", "MIRACLE_EVENTS", "action_path", "board", "card_name", "card_text", "event_text",
           "hand_text", "prompt", "status_lines"]
