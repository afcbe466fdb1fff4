"""Language-dependent labels of Pobeda's cards and events (all strings via bot.core.i18n)."""

from __future__ import annotations

from bot.core.i18n import Named, plural_form, t, tn  # noqa: F401  (plural_form re-exported for callers)
from bot.games.pobeda.data import card_kind, events

SIDE_COLOUR_KEYS = ("red", "blue", "green")
"""The i18n key of each side's colour (``pobeda.colour.<key>``); ``bot/games/pobeda/render.py`` holds the pixels."""
_MONTHS_EN = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def format_date(iso: str, lang: str) -> str:
    """``1941-06-22`` -> ``22.06.1941`` (ru) / ``22 Jun 1941`` (en); month-only dates too."""
    parts = iso.split("-")
    year, month = parts[0], int(parts[1])
    day = int(parts[2]) if len(parts) > 2 else None
    if lang == "ru":
        return f"{day:02d}.{month:02d}.{year}" if day else f"{month:02d}.{year}"
    return f"{day} {_MONTHS_EN[month - 1]} {year}" if day else f"{_MONTHS_EN[month - 1]} {year}"


def event_title(event_id: str, lang: str) -> str:
    return events()[event_id]["title"].get(lang) or events()[event_id]["title"]["en"]


def event_label(event_id: str, lang: str) -> str:
    """``22.06.1941 Нападение Германии на СССР``: the date first, as on the card."""
    return f"{format_date(events()[event_id]['date'], lang)} {event_title(event_id, lang)}"


def event_description(event_id: str, lang: str) -> str:
    record = events()[event_id]["description"]
    return record.get(lang) or record["en"]


def card_label(card: str, lang: str) -> str:
    kind = card_kind(card)
    if kind == "event":
        return event_label(card, lang)
    return t(f"pobeda.card.{kind}", lang)


def colour_name(side: int, lang: str) -> str:
    return t(f"pobeda.colour.{SIDE_COLOUR_KEYS[side]}", lang)


def side_name(side: int, team_game: bool, lang: str) -> Named:
    """``Красные`` alone (plural), or ``Команда «Красные»`` in a team game (one team: feminine in
    Russian, singular in English); texts agree with it through ``{side:select:...}``."""
    if team_game:
        return Named(t("pobeda.team_name", lang, colour=colour_name(side, lang)), "f")
    return Named(colour_name(side, lang), "pl")


def seat_label(seat: int, lang: str) -> str:
    return t("pobeda.seat", lang, n=seat + 1)



def count_text(key: str, n: int, lang: str) -> str:
    """Count + noun in ``lang``'s plural form (``bot.core.i18n.tn``)."""
    return tn(key, lang, n)
