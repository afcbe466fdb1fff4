"""Takeback figures of ``python -m bot.bench`` (issue 27):

- ``undo_ms_p50`` / ``undo_ms_p99``: ``SessionManager.takeback`` of the last move of a 500-move game
  (Godstorm's classic ruleset, the slowest game to replay, played by seeded random legal moves through the session layer on
  a SQLite file), from the call to its commit: the plan (which moves, whether any revealed something), the
  state and clocks restored from the takeback point, the one transaction. The move is played again between
  two undos, so every undo takes back the same move of the same position;
- ``undo_replay_ms_p99``: the same undo with its takeback point gone (a move stored before the points
  existed), so the game is rebuilt from its seed and the whole log;
- ``undo_moves``: the moves in the log before the undone one (500 unless the game ended first).
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.core.sessions import SessionManager, UserInfo
from bot.core.store import Store
from bot.games.registry import manifest
from bot.tools.benchplay import platform_game, subject


def long_game() -> tuple[str, dict[str, Any]]:
    """The game whose random legal play lasts thousands of moves, so it reaches 500 (Godstorm's classic
    ruleset): the manifests' ``loop`` game and its ``long_game`` options (:class:`bot.games.manifest.Bench`)."""
    key = subject("loop") or platform_game()
    return key, dict(manifest(key).bench.long_game)


USERS = (UserInfo(1, "anna"), UserInfo(2, "boris"), UserInfo(3, "vera"))


def _free(session: Any, seat: int, action: dict[str, Any]) -> bool:
    import json  # noqa: PLC0415

    game = session.game
    before = type(game).from_json(json.loads(session.state_text))
    after = type(game).from_json(json.loads(session.state_text))
    events = after.apply(seat, json.loads(json.dumps(action)))
    return set(before.actors()) == {seat} and not after.reveals(seat, action, events, before, after)


async def _undo_figures(path: Path, moves: int, rounds: int) -> dict[str, Any]:
    key, options = long_game()
    store = await Store.open(path)
    try:
        sessions = SessionManager(store)
        session = await sessions.create(guild_id=1, channel_id=1, host=USERS[0], game_key=key, options=options,
                                        deadline_s=3600)
        for joining in USERS[1:]:
            await sessions.join(session.id, joining)
        await sessions.start(session.id, USERS[0].id, seed=27)
        rnd = random.Random(27)
        found: tuple[int, dict[str, Any]] | None = None
        while session.game is not None and session.game.outcome() is None:
            game = session.game
            actor = rnd.choice(game.actors())
            legal = game.legal_actions(actor)
            if session.row.seq >= moves:
                found = next(((actor, a) for a in legal if _free(session, actor, a)), None)
                if found is not None:
                    break
            assert session.row.seat_users is not None
            await sessions.act(session.id, session.row.seat_users[actor][0], actor, rnd.choice(legal))
        if found is None:
            return {"undo_error": "no undoable move found"}
        seat, action = found
        assert session.row.seat_users is not None
        user = session.row.seat_users[seat][0]
        depth = session.row.seq
        warm: list[float] = []
        cold: list[float] = []
        for i in range(rounds):
            await sessions.act(session.id, user, seat, action)
            if i % 4 == 3:  # now and then without the takeback point: rebuilt from the whole log
                await store.write("DELETE FROM takeback_points WHERE game_id = ?", (session.id,))
            started = time.perf_counter()
            result = await sessions.takeback(session.id, user, seat)
            elapsed = (time.perf_counter() - started) * 1000
            assert result.done
            (cold if i % 4 == 3 else warm).append(elapsed)
        return {"undo_ms_p50": round(statistics.median(warm), 2), "undo_ms_p99": round(_p99(warm), 2),
                "undo_replay_ms_p99": round(_p99(cold), 2), "undo_moves": depth}
    finally:
        await store.close()


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


async def bench_takeback(quick: bool) -> dict[str, Any]:
    """The ``undo_*`` figures (the module's docstring)."""
    with tempfile.TemporaryDirectory() as tmp:
        return await _undo_figures(Path(tmp) / "undo.sqlite3", 500, 20 if quick else 100)


if __name__ == "__main__":
    import asyncio
    import json

    print(json.dumps(asyncio.run(bench_takeback(quick=True))))
