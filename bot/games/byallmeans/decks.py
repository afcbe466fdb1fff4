"""Decks: the preset decks, and a player's own deck brought as a list of card codes (import, export,
validation). Pure functions; the Discord command or lobby option that calls them lives in the cog.

«Колода составляется из 40 карт. В колоде допускается не более двух повторений одной карты.»

A deck list is text of card codes separated by spaces, commas, semicolons or new lines; a code may carry
a count as ``2xT01``, ``2*T01``, ``T01x2`` or ``T01*2`` (case does not matter). :func:`export` writes the
canonical form (sorted codes, ``T01x2`` for a pair), which :func:`parse` reads back.

A seat's deck (``seat_info[i]["deck"]``, see :func:`resolve`) is a preset id (``"press"``), a list of
codes, or deck-list text.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import lru_cache
from typing import Any

from bot.core.i18n import t
from bot.games.base import IllegalAction
from bot.games.byallmeans import data

Problem = tuple[str, dict[str, Any]]

_COUNTED = re.compile(r"^(?:(\d+)[x*×])?([a-z]+\d+)(?:[x*×](\d+))?$", re.IGNORECASE)
_SPLIT = re.compile(r"[\s,;]+")


@lru_cache(maxsize=1)
def presets() -> dict[str, tuple[str, ...]]:
    """Preset id -> its 40 codes, in the order of ``data/byallmeans/decks.json``."""
    raw = json.loads((data.DATA_DIR / "decks.json").read_text(encoding="utf-8"))
    return {d["id"]: tuple(d["cards"]) for d in raw["decks"]}


def preset(deck_id: str) -> list[str]:
    if deck_id not in presets():
        raise IllegalAction("bam.deck.no_preset", name=deck_id)
    return list(presets()[deck_id])


def parse(text: str) -> tuple[list[str], list[Problem]]:
    """Codes from deck-list text, and a problem for each token that is not a (counted) code."""
    codes: list[str] = []
    problems: list[Problem] = []
    for token in _SPLIT.split(text.strip()):
        if not token:
            continue
        m = _COUNTED.match(token)
        if m is None or (m.group(1) and m.group(3)):
            problems.append(("bam.deck.token", {"token": token[:20]}))
            continue
        count = int(m.group(1) or m.group(3) or 1)
        if not 1 <= count <= data.DECK_SIZE:
            problems.append(("bam.deck.token", {"token": token[:20]}))
            continue
        codes += [m.group(2).upper()] * count
    return codes, problems


def export(codes: list[str]) -> str:
    """The canonical deck list: sorted codes, a pair written ``T01x2``."""
    counts = Counter(codes)
    return " ".join(code if n == 1 else f"{code}x{n}" for code, n in sorted(counts.items()))


def validate(codes: list[str]) -> list[Problem]:
    """Why the deck is not legal (size, copies, unknown codes), as (i18n key, params); empty when it is."""
    return data.deck_problems(codes)


def check(text: str) -> tuple[list[str], list[Problem]]:
    """Parse and validate deck-list text in one go: the codes and every problem found."""
    codes, problems = parse(text)
    if not codes and not problems:
        return codes, [("bam.deck.empty", {})]
    return codes, problems + validate(codes)


def problems_text(problems: list[Problem], lang: str) -> str:
    """The problems as localised lines, one per problem."""
    return "\n".join(t(key, lang, **params) for key, params in problems)


def resolve(deck: Any) -> list[str]:
    """A seat's deck from what its seat info holds: a preset id, a list of codes or deck-list text.
    Raises :class:`IllegalAction` with the first problem's key when it is not a legal deck."""
    if isinstance(deck, str) and deck in presets():
        return preset(deck)
    if isinstance(deck, str):
        codes, problems = check(deck)
    elif isinstance(deck, list) and all(isinstance(c, str) for c in deck):
        codes, problems = list(deck), validate(list(deck))
    else:
        raise IllegalAction("bam.deck.empty")
    if problems:
        key, params = problems[0]
        raise IllegalAction(key, **params)
    return codes
