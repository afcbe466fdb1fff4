"""Ending a game together (pure Python): a vote to end it without a result or to call a draw, and
the record of who left a game and how.

The vote lives in the game's settings (``extra["vote"]``), so it survives a restart:
``{"kind": "draw" | "end", "yes": [user ids], "seq": the game's seq when it opened,
"expires": time}``. It passes when every remaining human player has agreed (seats played by a bot, whose user ids are
negative, and conceded seats do not vote). It lapses when a move is
made after it opened (the turn moved on) or after :data:`VOTE_TTL` seconds, and anyone voting "no"
closes it.

``extra["departures"]`` lists how players left: ``{"user", "seat", "how", "at"}`` with ``how`` one
of :data:`HOWS`; ``extra["ending"]`` says how the game ended when it was not played out
(``voted_draw``, ``voted_end``, ``aborted``, ``conceded``). The stats count a game as abandoned
from these.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

VOTE_TTL = 24 * 3600.0
KINDS = ("draw", "end")
HOWS = ("conceded", "dropped", "voted_draw", "voted_end", "aborted")


class VoteRefused(Exception):
    """Why a vote cannot be cast (``key`` is an i18n key)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def bot_seats(extra: Mapping[str, Any]) -> set[int]:
    """The bots recorded in a game's settings (non-empty: the game has bot players). The bots
    feature keys ``extra["bots"]`` by bot user id (a dict); a list is read as it is."""
    bots = extra.get("bots")
    if isinstance(bots, dict):
        return {int(k) for k in bots if str(k).lstrip("-").isdigit()}
    if isinstance(bots, list):
        return {int(s) for s in bots if isinstance(s, int)}
    return set()


def voters(seat_users: list[list[int]], conceded: Iterable[int]) -> set[int]:
    """The users whose agreement a vote needs: every user of a seat still in the game. Bots do not
    vote: their user ids are negative (the bots feature), and a seat a bot has taken over from an
    absent player does not vote either."""
    gone = set(conceded)
    return {u for seat, users in enumerate(seat_users)
            if seat not in gone and not any(x < 0 for x in users) for u in users}


def live_vote(extra: Mapping[str, Any], seq: int, now: float) -> dict[str, Any] | None:
    """The vote in progress, or None when there is none or it has lapsed."""
    vote = extra.get("vote")
    if not isinstance(vote, dict):
        return None
    if vote.get("seq") != seq or float(vote.get("expires", 0)) <= now:
        return None
    return vote


def cast(extra: dict[str, Any], kind: str, user_id: int, eligible: set[int], seq: int, now: float) -> bool:
    """Record ``user_id``'s yes for ``kind`` in ``extra`` (opening the vote if needed). Returns True
    when the vote passes. Raises :class:`VoteRefused` for a spectator, an unknown kind or a vote of
    the other kind already open."""
    if kind not in KINDS:
        raise VoteRefused("lifecycle.vote.bad_kind")
    if user_id not in eligible:
        raise VoteRefused("lifecycle.vote.not_voter")
    vote = live_vote(extra, seq, now)
    if vote is not None and vote["kind"] != kind:
        raise VoteRefused("lifecycle.vote.other_open")
    if vote is None:
        vote = {"kind": kind, "yes": [], "seq": seq, "expires": now + VOTE_TTL}
    vote["yes"] = sorted({*vote["yes"], user_id})
    extra["vote"] = vote
    return eligible <= set(vote["yes"])


def decline(extra: dict[str, Any], user_id: int, eligible: set[int], seq: int, now: float) -> dict[str, Any]:
    """``user_id`` says no: the vote in progress closes. Returns the closed vote."""
    if user_id not in eligible:
        raise VoteRefused("lifecycle.vote.not_voter")
    vote = live_vote(extra, seq, now)
    if vote is None:
        raise VoteRefused("lifecycle.vote.none")
    extra.pop("vote", None)
    return vote


def record_departure(extra: dict[str, Any], user_id: int | None, seat: int | None, how: str, at: float) -> None:
    """Append one departure (who left and how) to the settings' record."""
    if how not in HOWS:
        raise ValueError(how)
    extra.setdefault("departures", []).append({"user": user_id, "seat": seat, "how": how, "at": round(at, 3)})


def close_by_vote(extra: dict[str, Any], kind: str, seat_users: list[list[int]], yes: Iterable[int],
                  at: float) -> dict[str, Any] | None:
    """Settle a passed vote in ``extra``: the departures of everyone who agreed, how it ended, and
    the forced outcome (a draw for ``draw``; None for ``end``, which leaves no result)."""
    how = "voted_draw" if kind == "draw" else "voted_end"
    seat_of = {u: s for s, users in enumerate(seat_users) for u in users}
    for user in sorted(set(yes)):
        record_departure(extra, user, seat_of.get(user), how, at)
    extra.pop("vote", None)
    extra["ending"] = how
    if kind == "draw":
        return {"winners": [], "draw": True, "voted": True}
    return None


# ---- quitting to protect a rating (issue 23) ------------------------------------------------------
def first_round_over(seat_users: list[list[int]], seat_counts: list[int], conceded: Iterable[int]) -> bool:
    """Every seat still in the game has made at least one move (the first round is over)."""
    gone = set(conceded)
    live = [s for s in range(len(seat_users)) if s not in gone]
    return bool(live) and all(s < len(seat_counts) and seat_counts[s] > 0 for s in live)


def abort_needs_vote(user_id: int, seat_users: list[list[int]], seat_counts: list[int], conceded: Iterable[int],
                     *, rated: bool) -> bool:
    """Whether ``user_id``'s ``/game abort`` is refused: they play in this rated game and its first
    round is over, so an abort (no result, ratings unchanged) would let a losing player escape the
    rating. Then the game ends without a result only by a passed ``end`` vote, or the player resigns.
    A moderator who does not play, an unrated game (with a bot) and the first round are free."""
    plays = any(user_id in users for users in seat_users)
    return rated and plays and first_round_over(seat_users, seat_counts, conceded)

