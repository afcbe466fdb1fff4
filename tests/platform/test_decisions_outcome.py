"""The typed outcome (issue 24 item 3: "typed actions, events and outcome"): ``Game.outcome()`` returns an
:class:`~bot.games.base.Outcome`, whose required keys are the winning sides and whether it is a draw;
everything else is optional, and a game's own details go under ``extra``. ``as_outcome`` turns a stored
result into one and refuses a malformed one where it is read."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.sessions import SessionManager, UserInfo
from bot.core.store import Store
from bot.games import registry
from bot.games.base import Outcome, as_outcome
from tests.platform.toy import toy_manifest


def test_the_outcome_record_requires_only_winners_and_draw() -> None:
    assert Outcome.__required_keys__ == frozenset({"winners", "draw"})
    assert Outcome.__optional_keys__ == frozenset({"reason", "reasons", "scores", "conceded", "voted", "extra"})


def test_as_outcome_reads_a_stored_result_as_a_copy() -> None:
    stored = {"winners": [1], "draw": False, "reason": "lines", "lines": [2, 3]}
    outcome = as_outcome(stored)
    assert outcome == stored and outcome is not stored
    assert as_outcome(None) is None
    assert as_outcome({"winners": [], "draw": True, "reasons": ["loyalty_tie"]}) == {
        "winners": [], "draw": True, "reasons": ["loyalty_tie"]}


@pytest.mark.parametrize("bad", [
    {"draw": False},                              # no winners
    {"winners": 1, "draw": False},                # not a list
    {"winners": ["1"], "draw": False},            # a side is a number
    {"winners": [True], "draw": False},           # a boolean is not a side
    {"winners": [0]},                             # no draw
    {"winners": [0], "draw": 0},                  # draw is a boolean
])
def test_as_outcome_refuses_a_malformed_result(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        as_outcome(bad)


async def test_a_concession_is_an_outcome_of_the_platform(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())
    store = await Store.open(tmp_path / "o.sqlite3")
    try:
        sessions = SessionManager(store)
        alice, bob = UserInfo(1, "alice"), UserInfo(2, "bob")
        session = await sessions.create(guild_id=5, channel_id=100, host=alice, game_key="toy", options={})
        await sessions.join(session.id, bob)
        await sessions.start(session.id, alice.id, seed=3)
        await sessions.concede(session.id, bob.id)
        bob_seat = session.seats_of(bob.id)[0]
        assert session.outcome() == {"winners": [1 - bob_seat], "draw": False, "conceded": True}
    finally:
        await store.close()
