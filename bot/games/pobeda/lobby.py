"""Pobeda's lobby: its options, the player counts they allow, and the seats round the table.

Teams sit alternately (rulebook: «Сядьте вокруг игрового поля через одного так, чтобы участники разных
команд чередовались»); :mod:`bot.games.pobeda.seating` finds the order, this module fills the teams and
words the refusal of picks too lopsided to alternate.
"""

from __future__ import annotations

from typing import Any

from bot.core.i18n import LANGS
from bot.games.base import Arrangement, IllegalAction, OptionSpec, Player, Rng
from bot.games.pobeda import seating
from bot.games.pobeda.text import colour_name, count_text

UNDO_WINDOWS = (0, 30, 60, 120)
"""The undo window's choices in seconds (0: off)."""

OPTION_SPECS = (
    OptionSpec("lines", "pobeda.opt.lines", (
        (1, "pobeda.opt.lines.1"), (2, "pobeda.opt.lines.2"), (3, "pobeda.opt.lines.3"),
    ), 1),
    OptionSpec("teams", "pobeda.opt.teams", (
        (0, "pobeda.opt.teams.0"), (2, "pobeda.opt.teams.2"), (3, "pobeda.opt.teams.3"),
    ), 0),
    # house rule (docs/games/pobeda.md): replace one dead card before playing, or
    # discarding a dead card is the whole turn
    OptionSpec("dead", "pobeda.opt.dead", (
        ("replace", "pobeda.opt.dead.replace"), ("turn", "pobeda.opt.dead.turn"),
    ), "replace"),
    # past the third: a team lobby has rows for three option selects only (lobby_message)
    OptionSpec("layout", "pobeda.opt.layout", (
        ("chrono", "pobeda.opt.layout.chrono"), ("shuffled", "pobeda.opt.layout.shuffled"),
    ), "chrono"),
    # house rule (issue 27, docs/games/pobeda.md): a move that draws waits this many seconds for its player's
    # ✔ before the draw, so a misclick is undone alone; 0: the draw comes with the move. Past the fourth
    # option the lobby has no select row for it: set with ``/game new options:"undo_window=60"``
    OptionSpec("undo_window", "pobeda.opt.undo_window", tuple(
        (seconds, f"pobeda.opt.undo_window.{seconds}") for seconds in UNDO_WINDOWS), 30),
)


def checked(options: dict[str, Any] | None) -> dict[str, Any]:
    """The options over their defaults, refused when one has a value the game does not know."""
    merged: dict[str, Any] = {spec.name: spec.default for spec in OPTION_SPECS}
    merged.update(options or {})
    if merged["lines"] not in (1, 2, 3) or merged["teams"] not in (0, 2, 3) \
            or merged["layout"] not in ("chrono", "shuffled") or merged["dead"] not in ("replace", "turn") \
            or merged["undo_window"] not in UNDO_WINDOWS or isinstance(merged["undo_window"], bool):
        raise IllegalAction("pobeda.err.bad_option")
    return merged


def player_range(teams: int) -> tuple[int, int]:
    """2 or 3 players each for themselves; in teams, a player per team at least and 12 at most."""
    return (2, 3) if teams == 0 else (teams, 12)


def arrange(players: list[Player], teams: int, rng: Rng) -> Arrangement:
    """Solo: lobby order. Teams: unpicked players fill the smallest team, then the teams sit
    alternately round the table, see :mod:`bot.games.pobeda.seating`. Picks so lopsided that a fairer
    split would alternate better are refused, with the players to move."""
    low, high = player_range(teams)
    if not low <= len(players) <= high:
        raise IllegalAction("pobeda.err.player_count", low=low, high=high)
    if teams == 0:
        return Arrangement([[p.user_id] for p in players], [{"side": i} for i in range(len(players))])
    members: list[list[int]] = [[] for _ in range(teams)]
    free: list[int] = []
    for p in players:
        if p.team is not None and 0 <= p.team < teams:
            members[p.team].append(p.user_id)
        else:
            free.append(p.user_id)
    rng.shuffle(free)
    for uid in free:
        smallest = min(range(teams), key=lambda k: (len(members[k]), k))
        members[smallest].append(uid)
    if any(not m for m in members):
        raise IllegalAction("pobeda.err.empty_team")
    sizes = [len(m) for m in members]
    if seating.fewest_clashes(sizes) > seating.balanced_clashes(len(players), teams):
        raise lopsided(sizes)
    queues = [list(m) for m in members]
    order = seating.alternating_order(sizes)
    return Arrangement([[queues[k].pop(0)] for k in order], [{"side": k} for k in order])


def lopsided(sizes: list[int]) -> IllegalAction:
    """The refusal for teams that cannot alternate, naming the players to move (all from the
    largest team, to one or two others). Its words are given for every language (``team_ru``,
    ``team_en``...) because a refusal's parameters are formatted into the reader's language;
    each is short, so no parameter is clipped as a quotation of user text."""
    big = max(range(len(sizes)), key=lambda k: (sizes[k], -k))
    moves = seating.rebalance_moves(sizes)
    assert moves and all(src == big for src, _, _ in moves) and len(moves) <= 2
    params: dict[str, Any] = {"others": sum(sizes) - sizes[big]}
    for lang in LANGS:
        params[f"team_{lang}"] = colour_name(big, lang)
        params[f"count_{lang}"] = count_text("pobeda.players", sizes[big], lang)
        for i, (_, dst, n) in enumerate(moves, start=1):
            suffix = "" if i == 1 else str(i)
            params[f"moved{suffix}_{lang}"] = count_text("pobeda.move_players", n, lang)
            params[f"to{suffix}_{lang}"] = colour_name(dst, lang)
    key = "pobeda.err.no_alternation" if len(moves) == 1 else "pobeda.err.no_alternation_two"
    return IllegalAction(key, **params)
