"""League texts that do not need Discord: the standings image's cells in the reader's language."""

from __future__ import annotations

from typing import Any

from bot.core.i18n import t
from bot.core.leagues.model import Format
from bot.core.leagues.scheduler import league_rounds
from bot.core.leagues.standings import Row, points_text
from bot.core.leagues.storage import LeaguePlayer, LeagueRow


def standings_doc(league: LeagueRow, players: list[LeaguePlayer], rows: list[Row], changes: dict[int, float],
                  lang: str, members: dict[int, list[LeaguePlayer]] | None = None) -> dict[str, Any]:
    """The standings image's cells, translated (``render.league.StandingsDoc``; the image is drawn in a
    render process from this JSON-like dict). A league of teams (``members``) names each team's members
    under it (``notes``; who left is not listed)."""
    names = {p.user_id: p.name for p in players}
    total = league_rounds(league, len(players))
    second = {Format.SWISS: "league.col.buchholz", Format.ROUND_ROBIN: "league.col.h2h",
              Format.ELIMINATION: "league.col.round"}[league.format]
    entrant = "league.col.team" if members is not None else "league.col.player"
    headers = [t("league.col.place", lang), t(entrant, lang), t("league.col.points", lang),
               t(second, lang), t("league.col.wins", lang), t("league.col.rating", lang)]
    cells: list[list[str]] = []
    out: list[bool] = []
    notes: list[str] = []
    for row in rows:
        if members is not None:
            notes.append(", ".join(plain_name(m.name) for m in members.get(row.user_id, []) if m.active))
        tie = (points_text(row.buchholz) if league.format is Format.SWISS else points_text(row.head_to_head)
               if league.format is Format.ROUND_ROBIN else str(row.reached))
        change = changes.get(row.user_id)
        cells.append([str(row.place), plain_name(names.get(row.user_id, str(row.user_id))),
                      points_text(row.points), tie, str(row.wins), rating_change(change)])
        out.append(row.dropped or row.out)
    status = t(f"league.status.{league.status.value}", lang)
    return {
        "title": t("league.standings.title", lang, game=t(f"{league.game}.name", lang)),
        "subtitle": t("league.standings.sub", lang, format=t(f"league.format.{league.format.value}", lang),
                   round=league.round, total=total, status=status),
        "headers": headers, "rows": cells, "out": out, "notes": notes}


def plain_name(name: str) -> str:
    """A display name as typed (the image draws text, not markdown), on one line, without the
    characters past the Basic Multilingual Plane (emoji: the bundled font has none)."""
    return " ".join("".join(ch for ch in name if ord(ch) <= 0xFFFF).split())[:40] or "?"


def rating_change(change: float | None) -> str:
    if change is None:
        return "—"
    if abs(change) < 0.05:
        return "0.0"
    return f"+{change:.1f}" if change > 0 else f"−{abs(change):.1f}"
