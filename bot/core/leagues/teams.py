"""Leagues of teams: what a game offers for them, read from the game's own lobby declarations.

A league of teams seats ``k`` teams at a table, each of up to ``team_size`` members. The game decides
how many teams its lobby offers (``Game.team_count``) from its options, so the league looks for the
lobby options that give ``k`` teams: the game's defaults when they do (a game always played in
teams), else the defaults with one option changed to one of its declared choices (a game whose
teams are an option). Nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import Game, IllegalAction

TEAM_SIZES = range(2, 7)
"""Members a team may have at most (``/league new team_size:``)."""


def team_options(cls: type[Game], base: Mapping[str, Any], teams: int, players: int) -> dict[str, Any] | None:
    """The lobby options (``base`` over the defaults, one option changed at most) under which ``cls``
    offers ``teams`` teams and seats ``players`` users; None when no declared choice does."""
    defaults = {**cls.default_options(), **base}
    candidates: list[dict[str, Any]] = [defaults]
    for spec in cls.option_specs():
        if spec.name in base:
            continue
        candidates += [{**defaults, spec.name: value} for value, _label in spec.choices if value != defaults[spec.name]]
    for options in candidates:
        try:
            if cls.team_count(options, players) != teams:
                continue
            low, high = cls.player_range(options)
        except IllegalAction:
            continue
        if low <= players <= high:
            return options
    return None


def team_counts(cls: type[Game], team_size: int) -> list[int]:
    """The numbers of teams a table of full teams of ``team_size`` can seat in ``cls`` (empty: the game
    has no teams)."""
    return [k for k in range(2, 7) if team_options(cls, {}, k, k * team_size) is not None]


def team_places(places: Mapping[int, int], members: Mapping[int, Sequence[int]]) -> dict[int, int]:
    """The teams' places at a table from their members' (members of one side share its place; the best
    counts, a team none of whose members was recorded is last), as ranks: 1 + the teams placed better."""
    worst = max(places.values(), default=0) + 1
    best = {team: min((places[m] for m in users if m in places), default=worst) for team, users in members.items()}
    return {team: 1 + sum(1 for other in best.values() if other < mine) for team, mine in best.items()}
