"""A league table's game starts with the seat order the colour rules chose, in a game that shuffles its seats
(By All Means) as in one that keeps the lobby's order (Pobeda): the seed the league picks is checked against
the real session layer's start."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.leagues.seating import seed_for_order
from bot.core.sessions import SessionManager, UserInfo
from bot.core.store import Store
from bot.games.registry import game_class


@pytest.mark.parametrize("game", ["byallmeans", "pobeda", "godstorm"])
@pytest.mark.parametrize("wanted", [[2, 1], [1, 2]])
async def test_the_first_seat_goes_to_the_player_chosen(tmp_path: Path, game: str, wanted: list[int]) -> None:
    store = await Store.open(tmp_path / "s.sqlite3")
    sessions = SessionManager(store)
    host, guest = UserInfo(1, "one"), UserInfo(2, "two")  # the lobby's order: 1, 2
    session = await sessions.create(guild_id=1, channel_id=10, host=host, game_key=game, options={}, deadline_s=0)
    await sessions.join(session.id, guest)
    seed = None
    for start in range(5):  # whatever seed the search starts from
        seed = seed_for_order(game_class(game), [p.user for p in session.row.lobby], wanted, session.row.options,
                              start=start * 7919)
        if game == "pobeda" and wanted == [2, 1]:  # Pobeda seats the lobby in order: the league joins in order
            assert seed is None
            await store.close()
            return
        assert seed is not None
    started = await sessions.start(session.id, host.id, seed=seed)
    assert started.row.seat_users == [[wanted[0]], [wanted[1]]]
    await store.close()
