"""Names in texts: places, continents, god kinds, decks, seats and gods, in a reader's language.

The lowest of the text modules: ``text``, ``miracle_text`` and ``choice_text`` all name things through it,
so none of them needs another (issue 24: no import cycle)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core.i18n import t
from bot.games.godstorm import board, data
from bot.games.godstorm.core import NEUTRAL

if TYPE_CHECKING:
    from bot.games.godstorm.game import Godstorm


def tname(tid: str, lang: str) -> str:
    if tid == "heaven":
        return t("godstorm.heaven", lang)
    if tid in data.TERRITORIES:
        return data.TERRITORIES[tid].name.get(lang, tid)
    if tid in data.UNDERWORLD:
        return data.UNDERWORLD[tid].name.get(lang, tid)
    return tid


def cname(tid: str, lang: str) -> str:
    return data.CONTINENTS[board.CONTINENT_OF[tid]].name.get(lang, tid)


def kind_name(kind: str, lang: str) -> str:
    return data.GOD_KIND_NAMES[kind].get(lang, kind)


def deck_name(kind: str, lang: str) -> str:
    return t(f"godstorm.deck.{kind}", lang)


def who_name(g: Godstorm, seat: int | None, lang: str) -> str:
    """A seat as texts name it: the player's display name (or "Player n") and the pantheon."""
    if seat is None:
        return t("godstorm.nobody", lang)
    if seat == NEUTRAL:
        return t("godstorm.neutral", lang)
    if seat < 0 or seat >= len(g.s.players):
        return str(seat)
    pid = g.s.players[seat].pantheon
    base = g.seat_display(seat, t("godstorm.player", lang, n=seat + 1))
    return f"{base} ({data.PANTHEONS[pid].name.get(lang, pid)})" if pid else base


def god_name(g: Godstorm, seat: int | None, kind: str, lang: str) -> str:
    """A god of the seat's pantheon by name and kind ("Thor (war)"), or the kind alone."""
    pid = g.s.players[seat].pantheon if seat is not None and seat >= 0 else None
    if pid:
        return f"{data.PANTHEONS[pid].gods[kind].get(lang, kind)} ({kind_name(kind, lang)})"
    return kind_name(kind, lang)


def tlabel(g: Godstorm, tid: str, lang: str) -> str:
    """A place with its armies now ("Gaul (5)"); ``heaven``: the current player's heavens."""
    if tid == "heaven":
        return f"{tname(tid, lang)} ({g.s.players[g.current_seat].heaven})"
    loc = g.s.terr.get(tid) or g.s.uw[tid]
    return f"{tname(tid, lang)} ({loc.armies})"
