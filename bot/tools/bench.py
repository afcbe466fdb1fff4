"""Benchmarks: ``python -m bot.bench [--json] [--quick] [--boards [--game KEY ...]]``.

``--boards`` measures only the per-game board figures below (``<game>_render_*``, ``_draw_``/``_encode_``,
the pool, personal boards and zooms), of every game or of the ``--game`` ones: a short run.

Nothing here names a game: the per-game figures come from the manifests (``bench_state``, and ``bench``:
:class:`bot.games.manifest.Bench`), each named ``<key>_...`` after the game's key, and each measurement of
the platform plays the first game whose manifest asks for it (``platform``, ``bots``, ``replay``, ``loop``,
``turn_bytes``, ``backlog``, ``web``). The names below are today's.

Figures (keys of the JSON object):
- ``step_commit_ms_p50`` / ``_p99``: one action through the session layer (lock, rules, one SQLite
  transaction with the new state) on a real file database;
- ``restore_10k_s`` / ``restore_10k_rss_mb``: a fresh process opening a database holding 10,000
  unfinished games and indexing them, as the bot does at start;
- ``actions_per_s``: sustained actions per second from many concurrent channels through the
  session layer, with publishing stubbed at the delivery boundary;
- per game ``<game>_render_ms_p50``, ``<game>_render_kb`` (also ``<game>_png_bytes``), the CPU time of
  a render over all threads ``<game>_render_cpu_ms_p50`` (a big PNG is deflated in parallel bands, so
  wall time drops below CPU time when a core is free), the render's two parts ``<game>_draw_ms_p50`` and ``<game>_encode_ms_p50``, and ``<game>_apply_ms_p50``, on the
  game's own crowded late-game state (``bench_state()`` in its rules package). A render is of the
  next board in a game being played (random legal moves from that state, a new view each time), as the
  bot draws them: the PNG bands a move left unchanged are reused (``render.common``);
  ``<game>_render_cold_ms_p50`` is a board drawn with nothing kept (the first a render process draws);
  ``<game>_render_pool_ms_p50`` the same successive boards through ``bot.core.drawing.draw`` (the render
  process the bot uses: the view sent, the PNG returned), and ``render_worker_rss_mb`` the resident
  size of that process after drawing every game's boards;
- ``pobeda_personal_render_ms_p50`` / ``_kb``: a seat's personal board (its hand's cells marked, in the
  seat's language); ``godstorm_dm_board_render_ms_p50``: Godstorm's (the DM panel's map of the seat's
  territories and targets, with its miracle cards: the personal figure again, an alias its manifest
  declares); per game offering zooms ``<game>_zoom_render_ms_p50`` / ``_kb``: its slowest zoom;
- ``<game>_playout_<n>p_s`` (``godstorm_playout_3p_s`` / ``_5p_s``): a whole game of random legal actions at
  each table of the manifest's ``bench.playouts`` (a five-epoch Godstorm game);
- ``<game>_apply_ms_p50`` / ``_p99`` for a game declaring ``bench.ai_game`` (By All Means): one action over
  whole AI-against-AI games between preset decks, and ``<game>_ai_game_s``: such a whole game, the bots'
  decisions included; ``<game>_hand_render_ms_p50`` / ``_kb`` for a renderer drawing a hand picture: a
  seat's private hand (``byallmeans_hand_render_*``);
- per game asking for ``bots`` (and its arena variants: ``risk``, Godstorm's classic ruleset)
  ``<game>_bot_move_ms_p50`` / ``_p99``: one decision of the strong bot (``policy.choose`` on the seat's
  view), over two-player games against random
  players and against the quick bot, and ``<game>_bot_winrate_vs_random`` from those games (a small
  arena run; ``python -m bot.tools.arena`` measures it properly);
- ``replay_render_s`` / ``replay_gif_mb`` / ``replay_gif_frames``: ``/game replay``'s animated
  board history of a whole finished game at the largest ``playouts`` table of the game asking for
  ``replay`` (a five-player Godstorm game), replayed from its log (the moments picked, drawn, scaled and
  encoded as a GIF opening on the final position), median seconds, its
  size in MB (aim ≤ 8, under Discord's 10 MiB) and its frames;
- ``stats_query_ms_p99``: the reads behind ``/stats`` (a user's rows, the server's totals, the user's
  place per game) and ``/leaderboard``, over a database holding 100,000 recorded finished games;
- ``<game>_bytes_per_turn`` of the game asking for ``turn_bytes`` (``godstorm_bytes_per_turn``): bytes uploaded
  to the channel for one turn (a three-player game played by the strong bot, moves 2.5 s apart on a virtual
  clock) through the real ``Publisher``, with ``_uploads_per_turn`` and ``_moves_per_turn``; the ``_uncoalesced`` figures
  are the same turns published as before issue 13 (an edit and a board upload after every move);
- ``pg_step_commit_ms_p50`` / ``_p99``, ``pg_actions_per_s`` (issue 14): two bot processes sharing a
  throwaway PostgreSQL, 50 channels split between them (``python -m bot.bench_pg`` explains the phases),
  ``pg_shared_*`` the same with both processes acting on all 50 games, ``pg_1proc_*`` one process;
- ``announce_after_fault_s_p50`` / ``_p99``, ``publish_backlog_1k_s``, ``publish_backlog_sigterm_s`` (issue 22):
  the real bot process against the tests' fake Discord (:mod:`bot.tools.bench_delivery` explains them);
- ``loop_lag_ms_max``, ``status_answer_ms_max`` and the other ``loop_*`` figures (issue 22): the event loop's
  longest stall while a 25,000-action finished game is replayed and recorded (:mod:`bot.tools.bench_loop`);
- ``publish_retry_ms_p50``: a Discord outage (every post refused with 503) while games publish, through
  the real ``Publisher`` with a stub channel: time from Discord answering again to each lost post
  being delivered;
- ``web_page_ms_p99`` and ``web_update_lag_ms_p99`` (issue 29): a game's web page with 100 viewers
  (:mod:`bot.web.bench` explains them);
- ``league_pairing_ms_p99`` and ``league_standings_render_ms_p50`` (issue 28): a 1,000-player Swiss round's
  pairing, a 64-player league's standings image (:mod:`bot.tools.bench_league` explains them);
- ``undo_ms_p50`` / ``undo_ms_p99`` and ``undo_replay_ms_p99`` (issue 27): taking back the last move of a
  500-move game (:mod:`bot.tools.bench_takeback` explains them).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.core.sessions import SessionManager
from bot.core.store import Store, dumps
from bot.games.base import Game
from bot.games.registry import available, board_renderer, manifest, renderer
from bot.tools.benchplay import (
    bench_state,
    games_with,
    new_game,
    percentile,
    platform_game,
    play_one,
    playout,
    random_action,
    subject,
)
from render.common import clear_deflated

__all__ = ["bench_state", "board_views", "main", "new_game", "play_one", "random_action", "run", "run_boards"]


# ---- per game ---------------------------------------------------------------------------
def bench_game(key: str, repeats: int) -> dict[str, float]:
    """Every figure of one game's own: its board's (:func:`bench_board`), its hand picture's, its declared
    ``playouts`` and ``ai_game`` (:class:`bot.games.manifest.Bench`), and the aliases it declares."""
    out = bench_board(key, repeats)
    spec = manifest(key).bench
    seeds = 3 if repeats < 10 else 11  # whole games: fewer than boards
    out.update(bench_hand(key, 5 * seeds))
    if spec.playouts:
        out.update(bench_playouts(key, seeds))
    if spec.ai_game is not None:
        out.update(bench_ai_game(key, seeds))
    return aliased(key, out)


def aliased(key: str, figures: dict[str, float]) -> dict[str, float]:
    """``figures`` with the aliases the game's manifest declares (``bench.aliases``) added."""
    for alias, source in manifest(key).bench.aliases.items():
        if f"{key}_{source}" in figures:
            figures[f"{key}_{alias}"] = figures[f"{key}_{source}"]
    return figures


def bench_board(key: str, repeats: int) -> dict[str, float]:
    game = bench_state(key)
    render = renderer(key)
    render = getattr(render, "uncached", render)  # the work itself, not the reuse of identical boards
    view = json.loads(json.dumps(game.view(None)))
    view["seat_names"] = [f"Player {i + 1}" for i in range(8)]
    boards = board_views(game, repeats)
    clear_deflated()
    render(view, "ru")  # warm fonts and caches
    times, cpu_times, cold_times = [], [], []
    size = len(render(view, "ru"))
    for board in boards:  # the next board of a game being played: the bands a move left are reused
        start, cpu_start = time.perf_counter(), time.process_time()
        render(board, "ru")
        times.append((time.perf_counter() - start) * 1000)
        cpu_times.append((time.process_time() - cpu_start) * 1000)  # all threads (the PNG bands too)
    for board in boards[:max(3, repeats // 3)]:  # nothing kept: a render process's first board
        clear_deflated()
        start = time.perf_counter()
        render(board, "ru")
        cold_times.append((time.perf_counter() - start) * 1000)
    cls = type(game)
    state = json.loads(dumps(game.to_json()))
    rng = random.Random(7)
    apply_times = []
    for _ in range(repeats * 10):
        copy = cls.from_json(json.loads(json.dumps(state)))
        choice = random_action(copy, rng)
        if choice is None:
            break
        start = time.perf_counter()
        copy.apply(*choice)
        apply_times.append((time.perf_counter() - start) * 1000)
    return {
        f"{key}_render_ms_p50": round(statistics.median(times), 2),
        f"{key}_render_cpu_ms_p50": round(statistics.median(cpu_times), 2),
        f"{key}_render_cold_ms_p50": round(statistics.median(cold_times), 2),
        **bench_render_pool(key, boards),
        f"{key}_render_kb": round(size / 1024, 1),
        f"{key}_png_bytes": size,
        **bench_render_parts(key, boards),
        **bench_personal_and_zoom(key, game, view, repeats),
        f"{key}_apply_ms_p50": round(statistics.median(apply_times), 4) if apply_times else float("nan"),
    }


def board_views(game: Game, count: int, seed: int = 11) -> list[dict[str, Any]]:
    """The public views of ``count`` successive boards: ``game`` (not changed) and random legal moves on."""
    game = type(game).from_json(json.loads(dumps(game.to_json())))
    rng = random.Random(seed)
    views = []
    for _ in range(count):
        view = json.loads(json.dumps(game.view(None)))
        view["seat_names"] = [f"Player {i + 1}" for i in range(8)]
        views.append(view)
        choice = random_action(game, rng)
        if choice is None:
            break
        game.apply(*choice)
    return views


def bench_render_pool(key: str, boards: list[dict[str, Any]]) -> dict[str, float]:
    """``<game>_render_pool_ms_p50``: the successive boards drawn through ``bot.core.drawing.draw`` (the
    bot's path: a render process, the view pickled there and the PNG back), the first one as warm-up;
    ``render_worker_rss_mb``: that process's resident size afterwards (the last game's figure stands)."""
    from concurrent.futures import ThreadPoolExecutor

    from bot.core import drawing
    from bot.tools.memdebug import rss_kb

    render = renderer(key)  # as the publisher calls it (each board a new view: nothing is reused whole)

    async def run() -> list[float]:
        await drawing.draw(render, boards[0], "ru")
        times = []
        for board in boards[1:]:
            start = time.perf_counter()
            await drawing.draw(render, board, "ru")
            times.append((time.perf_counter() - start) * 1000)
        return times

    with ThreadPoolExecutor(1) as thread:  # its own loop: the bench's may be running
        times = thread.submit(asyncio.run, run()).result()
    workers = drawing.pids()
    if not workers or not times:
        return {}
    return {f"{key}_render_pool_ms_p50": round(statistics.median(times), 2),
            "render_worker_rss_mb": round(sum(rss_kb(pid) for pid in workers) / 1024, 1)}


def bench_render_parts(key: str, boards: list[dict[str, Any]]) -> dict[str, float]:
    """The render split into drawing (``compose``: cached layers plus the view, mapped to the palette)
    and PNG encoding (with the renderer's settings: its ``encode_board``, or its level), over the same
    successive boards as the render figure, for renderers that expose ``compose``."""
    from render.common import PNG_LEVEL, encode_png

    drawer = board_renderer(key)
    compose = drawer.compose
    if compose is None:
        return {}
    level = getattr(sys.modules[drawer.board.__module__], "BOARD_PNG_LEVEL", PNG_LEVEL)  # without an encode
    encode = drawer.encode or (lambda image, _view: encode_png(image, level=level))
    draw_times, encode_times = [], []
    for view in boards:
        start = time.perf_counter()
        image = compose(view, "ru")
        middle = time.perf_counter()
        encode(image, view)
        draw_times.append((middle - start) * 1000)
        encode_times.append((time.perf_counter() - middle) * 1000)
    return {f"{key}_draw_ms_p50": round(statistics.median(draw_times), 2),
            f"{key}_encode_ms_p50": round(statistics.median(encode_times), 2)}


def bench_personal_and_zoom(key: str, game: Game, view: dict[str, Any], repeats: int) -> dict[str, float]:
    """``<game>_personal_render_ms_p50`` / ``_kb``: the personal board of the first seat (its own view,
    hand included), for games that have one (issue 13); ``<game>_zoom_render_ms_p50`` / ``_kb``: the
    slowest zoom the board offers (median over repeats), for games that offer zooms."""
    drawer = board_renderer(key)
    out: dict[str, float] = {}
    personal = drawer.personal
    if personal is not None:
        draw = getattr(personal, "uncached", personal)
        mine = json.loads(json.dumps(game.view(0)))
        mine["seat_names"] = view.get("seat_names", [])
        draw(mine, "en")  # warm the English static board
        times = []
        png = b""
        for _ in range(repeats):
            start = time.perf_counter()
            png = draw(mine, "en") or b""
            times.append((time.perf_counter() - start) * 1000)
        out[f"{key}_personal_render_ms_p50"] = round(statistics.median(times), 2)
        out[f"{key}_personal_render_kb"] = round(len(png) / 1024, 1)
    choices, render_zoom = drawer.zoom_choices, drawer.zoom
    if choices is not None and render_zoom is not None:
        worst: tuple[float, int] = (0.0, 0)
        for zoom, _ in choices(view, "ru"):
            render_zoom(view, "ru", zoom)  # warm
            times = []
            size = 0
            for _ in range(max(3, repeats // 3)):
                start = time.perf_counter()
                size = len(render_zoom(view, "ru", zoom) or b"")
                times.append((time.perf_counter() - start) * 1000)
            worst = max(worst, (statistics.median(times), size))
        out[f"{key}_zoom_render_ms_p50"] = round(worst[0], 2)
        out[f"{key}_zoom_render_kb"] = round(worst[1] / 1024, 1)
    return out


# ---- platform ---------------------------------------------------------------------------
async def bench_steps(db: Path | str, key: str, steps: int) -> dict[str, float]:
    store = await Store.open(db)
    sessions = SessionManager(store)
    rng = random.Random(1)
    channel = 1
    game_id = await new_game(sessions, channel, key, 3)
    times: list[float] = []
    while len(times) < steps:
        start = time.perf_counter()
        ok = await play_one(sessions, game_id, rng)
        elapsed = (time.perf_counter() - start) * 1000
        if ok:
            times.append(elapsed)
        else:
            channel += 1
            game_id = await new_game(sessions, channel, key, 3)
    await store.close()
    return {"step_commit_ms_p50": round(percentile(times, 0.5), 3),
            "step_commit_ms_p99": round(percentile(times, 0.99), 3)}


async def bench_throughput(db: Path | str, key: str, channels: int, seconds: float) -> dict[str, float]:
    store = await Store.open(db)
    sessions = SessionManager(store)  # on_change is a no-op: publishing stubbed at the boundary
    ids = [await new_game(sessions, 1000 + c, key, 3) for c in range(channels)]
    count = 0
    stop_at = time.perf_counter() + seconds

    async def channel_loop(index: int) -> None:
        nonlocal count
        rng = random.Random(index)
        game_id = ids[index]
        while time.perf_counter() < stop_at:
            if await play_one(sessions, game_id, rng):
                count += 1
            else:
                game_id = await new_game(sessions, 100_000 + index * 1000 + count, key, 3)

    start = time.perf_counter()
    await asyncio.gather(*[channel_loop(i) for i in range(channels)])
    elapsed = time.perf_counter() - start
    await store.close()
    return {"actions_per_s": round(count / elapsed, 1), "throughput_channels": channels}


async def fill_games(db: Path, key: str, count: int) -> None:
    """Store ``count`` unfinished games with realistic mid-game states (copies of one played game)."""
    store = await Store.open(db)
    sessions = SessionManager(store)
    game_id = await new_game(sessions, 1, key, 3)
    rng = random.Random(3)
    for _ in range(40):
        await play_one(sessions, game_id, rng)
    row = await store.load_game(game_id)
    assert row is not None and row.state is not None
    state = dumps(row.state)
    now = time.time()
    async with store.transaction():
        await store.db.executemany(
            "INSERT INTO games (guild_id, channel_id, game, status, host_id, lang, options, lobby, settings,"
            " seat_users, seat_info, seed, state, seat_counts, seq, published_seq, created_at, updated_at)"
            " VALUES (1, ?, ?, 'running', 1, 'ru', ?, ?, '{}', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(500_000 + i, key, dumps(row.options), dumps(row.lobby), dumps(row.seat_users), dumps(row.seat_info),
              row.seed, state, dumps(row.seat_counts), row.seq, row.seq, now, now) for i in range(count - 1)],
        )
    await store.close()


async def bench_publish_retry(db: Path, key: str, games: int, rounds: int) -> dict[str, float]:
    """Posts refused by a Discord outage: how long after Discord is back is each lost post delivered?"""
    from types import SimpleNamespace

    import discord

    from bot.discord_app.delivery import Publisher

    outage = {"on": True}
    delivered: dict[int, float] = {}

    class Channel:
        def __init__(self, channel_id: int) -> None:
            self.id = channel_id
            self.attempts = 0

        async def send(self, content: str, **kwargs: Any) -> Any:
            self.attempts += 1
            if outage["on"]:
                raise discord.DiscordServerError(SimpleNamespace(status=503, reason="Service Unavailable"),
                                                 {"code": 0, "message": "Service Unavailable"})
            delivered.setdefault(self.id, time.perf_counter())
            return SimpleNamespace(id=self.attempts)

        def get_partial_message(self, message_id: int) -> Any:
            return SimpleNamespace(edit=self._edit)

        async def _edit(self, **kwargs: Any) -> None:
            await self.send("")

    channels: dict[int, Channel] = {}

    class Client:
        def get_channel(self, channel_id: int) -> Channel:
            return channels.setdefault(channel_id, Channel(channel_id))

        async def create_dm(self, user: Any) -> Channel:
            return channels.setdefault(-user.id, Channel(-user.id))

    logging.getLogger("bot.discord_app.delivery").setLevel(logging.CRITICAL)  # the refusals are the point, not news
    store = await Store.open(db)
    sessions = SessionManager(store)
    publisher = Publisher(Client(), sessions, store)  # type: ignore[arg-type]
    rng = random.Random(5)
    samples: list[float] = []
    for r in range(rounds):
        outage["on"] = True
        delivered.clear()
        ids = [await new_game(sessions, 7000 + r * games + g, key, 3) for g in range(games)]
        table = [7000 + r * games + g for g in range(games)]
        for game_id in ids:
            publisher.request(game_id)
        while any(channels.get(c) is None or channels[c].attempts == 0 for c in table):
            await asyncio.sleep(0.01)  # every board is drawn and its post refused once
        await asyncio.sleep(rng.uniform(1.0, 3.0))
        outage["on"] = False
        back = time.perf_counter()
        await publisher.idle()
        samples += [(delivered[c] - back) * 1000 for c in table]
    await store.close()
    return {"publish_retry_ms_p50": round(percentile(samples, 0.5), 1)}


async def bench_turn_bytes(db: Path, key: str, *, coalesce: bool, turns: int = 3, gap: float = 2.5,
                           seed: int = 3) -> dict[str, float]:
    """Bytes uploaded to the channel for a typical turn of game ``key``, through the real ``Publisher``.

    A three-player game is played by the strong bot through the session layer; the set-up is published
    as it goes, then ``turns`` whole turns are measured (a turn: while the seat of the open decision of the
    manifest's ``turn_kind`` stays the same), every upload (the new post of a turn, each edit re-uploading
    the board) counted in bytes. Moves come ``gap`` seconds apart on a virtual clock (a player on a
    phone), so coalescing is measured as it would happen without the bench waiting for real.
    ``coalesce=False`` is the publishing of before issue 13: an edit and a board after every move,
    whatever the board. Figures ``<key>_bytes_per_turn``, ``<key>_uploads_per_turn``, ``<key>_moves_per_turn``
    (``_uncoalesced`` without coalescing)."""
    from types import SimpleNamespace

    from bot.discord_app.delivery import Publisher
    from bot.games.ai import policy_for
    from bot.games.base import Rng

    uploaded = {"bytes": 0, "files": 0}
    turn_kind = manifest(key).bench.turn_kind

    def count(files: Any) -> None:
        for f in files or []:
            uploaded["bytes"] += len(f.fp.getvalue())
            uploaded["files"] += 1

    class Channel:
        def __init__(self, channel_id: int) -> None:
            self.id = channel_id
            self.sent = 0

        async def send(self, content: str, **kwargs: Any) -> Any:
            count([kwargs["file"]] if kwargs.get("file") is not None else [])
            self.sent += 1
            return SimpleNamespace(id=self.id * 10_000 + self.sent)

        def get_partial_message(self, message_id: int) -> Any:
            async def edit(**kwargs: Any) -> None:
                count(kwargs.get("attachments"))
            return SimpleNamespace(edit=edit)

    channels: dict[int, Channel] = {}

    class Client:
        def get_channel(self, channel_id: int) -> Channel:
            return channels.setdefault(channel_id, Channel(channel_id))

        async def create_dm(self, user: Any) -> Channel:
            return channels.setdefault(-user.id, Channel(-user.id))

    store = await Store.open(db)
    sessions = SessionManager(store)
    publisher = Publisher(Client(), sessions, store)  # type: ignore[arg-type]
    now = [0.0]
    publisher.clock = lambda: now[0]
    if not coalesce:
        publisher.publish_interval = 0
        publisher.reuse_board = False
    game_id = await new_game(sessions, 9000 + seed, key, 3)
    bot, rng = policy_for(key, "strong"), Rng(seed)

    async def quiet() -> None:
        """Until the publisher has done what the last move asked (or holds it back to coalesce)."""
        while True:
            task = publisher._tasks.get(game_id)
            nudge = publisher._nudge.get(game_id)
            if task is None or task.done() or (game_id in publisher.holding and nudge is not None
                                               and not nudge.is_set()):
                return
            await asyncio.sleep(0.002)

    async def move() -> int:
        session = await sessions.get(game_id)
        game = session.game
        assert game is not None and session.row.seat_users is not None
        seat = game.actors()[0]
        action = bot.choose(game.view(seat), game.legal_actions(seat), rng)
        await sessions.act(game_id, session.row.seat_users[seat][0], seat, action)
        now[0] += gap
        publisher.request(game_id)
        await quiet()
        return seat

    def turn_player() -> int | None:
        game = sessions.sessions[game_id].game
        if game is None or game.outcome() is not None:
            return None
        return next((d.seats[0] for d in game.open_decisions() if d.kind == turn_kind and d.seats), None)

    publisher.request(game_id)
    await quiet()
    while turn_player() is None:  # the set-up and the first bids
        await move()
    uploaded.update(bytes=0, files=0)
    moves = 0
    for _ in range(turns):
        player = turn_player()
        while turn_player() in (player, None):
            await move()
            moves += 1
    now[0] += publisher.board_interval + gap  # the last hold, if any, runs out: everything is published
    publisher.request(game_id)
    await publisher.idle()
    await store.close()
    suffix = "" if coalesce else "_uncoalesced"
    return {f"{key}_bytes_per_turn{suffix}": round(uploaded["bytes"] / turns),
            f"{key}_uploads_per_turn{suffix}": round(uploaded["files"] / turns, 1),
            f"{key}_moves_per_turn{suffix}": round(moves / turns, 1)}


RESTORE_CHILD = """
import asyncio, json, resource, sys, time
t0 = time.perf_counter()
from bot.core.sessions import SessionManager
from bot.core.store import Store
async def main():
    store = await Store.open(sys.argv[1])
    sessions = SessionManager(store)
    stale = await sessions.restore()
    n = len(sessions.sessions)
    await store.close()
    return n, len(stale)
n, stale = asyncio.run(main())
elapsed = time.perf_counter() - t0
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"games": n, "stale": stale, "seconds": elapsed, "rss_mb": rss}))
"""


def bench_restore(db: Path) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", RESTORE_CHILD, str(db)], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parents[2])
    data = json.loads(out.stdout)
    return {"restore_10k_s": round(data["seconds"], 3), "restore_10k_rss_mb": round(data["rss_mb"], 1),
            "restore_games": data["games"]}


def run_boards(quick: bool, games: list[str] | None = None) -> dict[str, Any]:
    """Only the per-game board figures (``--boards``, of every game or of ``games``): what ``run``
    measures for each game's board."""
    result: dict[str, Any] = {}
    for game in games or available():
        try:
            result.update(aliased(game, bench_board(game, 5 if quick else 25)))
        except Exception as exc:  # a game without bench_state is reported, not fatal
            result[f"{game}_error"] = repr(exc)
    return result


async def run(quick: bool) -> dict[str, Any]:
    """Every figure: the platform's on the game asking for ``platform``, each game's own, and each
    measurement a manifest asks for (:class:`bot.games.manifest.Bench`) on the first game asking."""
    games = available()
    key = platform_game(games)
    result: dict[str, Any] = {"bench_game": key}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        result.update(await bench_steps(base / "steps.sqlite3", key, 300 if quick else 2000))
        result.update(await bench_throughput(base / "tp.sqlite3", key, 50, 2.0 if quick else 6.0))
        await fill_games(base / "restore.sqlite3", key, 10_000)
        result.update(bench_restore(base / "restore.sqlite3"))
    result.update(await bench_pg(key, quick))
    for game in games:
        try:
            result.update(bench_game(game, 5 if quick else 25))
        except Exception as exc:  # a game without bench_state is reported, not fatal
            result[f"{game}_error"] = repr(exc)
    replayed = subject("replay", games)
    if replayed is not None:
        result.update(bench_replay_render(replayed, 1 if quick else 3))
    looped = subject("loop", games)
    if looped is not None:
        from bot.tools.bench_loop import bench_loop  # issue 22: the event loop during a very long replay

        result.update(await bench_loop(2_000 if quick else 25_000, key=looped))
    with tempfile.TemporaryDirectory() as tmp:
        result.update(await bench_stats_query(Path(tmp) / "stats.sqlite3", 100_000, 200 if quick else 1000))
    result.update(bench_bots(games_with("bots"), 4 if quick else 20))
    with tempfile.TemporaryDirectory() as tmp:
        result.update(await bench_publish_retry(Path(tmp) / "retry.sqlite3", key, 10, 2 if quick else 6))
    # issue 29: a game's web page with 100 viewers (web_page_ms_p99, web_update_lag_ms_p99)
    from bot.web.bench import bench_web

    result.update(await bench_web(subject("web", games) or key, quick))
    from bot.tools.bench_league import bench_league  # issue 28: Swiss pairing of 1,000, standings of 64

    result.update(bench_league(quick))
    from bot.tools.bench_takeback import bench_takeback  # issue 27: the undo of a 500-move game's last move

    result.update(await bench_takeback(quick))
    from bot.tools.bench_delivery import bench_delivery  # the real bot against the tests' fake Discord

    result.update(await bench_delivery(quick))
    for counted in games_with("turn_bytes")[:1]:
        with tempfile.TemporaryDirectory() as tmp:
            for coalesce in (False, True):
                result.update(await bench_turn_bytes(Path(tmp) / f"bytes{coalesce}.sqlite3", counted,
                                                     coalesce=coalesce))
    return result


async def bench_pg(key: str, quick: bool) -> dict[str, Any]:
    """PostgreSQL (issue 14) on a throwaway local server with PostgreSQL's durable defaults (fsync and
    synchronous_commit on: every commit waits for its WAL flush). ``pg_step_commit_ms_p50/p99`` and
    ``pg_actions_per_s`` are two bot processes and 50 channels (:mod:`bot.tools.bench_pg`, which also gives the
    ``pg_shared_*`` figures of both processes acting on the same games); ``pg_1proc_*`` are one
    process: steps one game at a time, throughput over 50 channels. No keys (and ``pg_skipped`` saying
    why) without PostgreSQL or asyncpg."""
    from bot.tools.bench_pg import bench_cluster
    from bot.tools.pg_temp import PgServer, find_binaries

    bindir, why = find_binaries()
    if bindir is None:
        return {"pg_skipped": why}
    server = PgServer.start(bindir, durable=True)
    try:
        steps = await bench_steps(await server.fresh_database("steps"), key, 300 if quick else 2000)
        tp = await bench_throughput(await server.fresh_database("tp"), key, 50, 2.0 if quick else 6.0)
        cluster = await bench_cluster(server, key, seconds=2.0 if quick else 6.0)
    finally:
        server.stop()
    return {"pg_1proc_step_commit_ms_p50": steps["step_commit_ms_p50"],
            "pg_1proc_step_commit_ms_p99": steps["step_commit_ms_p99"],
            "pg_1proc_actions_per_s": tp["actions_per_s"], **cluster}


def bench_ai_game(key: str, seeds: int) -> dict[str, float]:
    """Whole games between the game's bots (its manifest's ``bench.ai_game``): ``<key>_apply_ms_p50`` /
    ``_p99`` is one action over those games (in place of the random moves' figure) and ``<key>_ai_game_s``
    the median time of such a game, the bots' decisions included."""
    from bot.games.manifest import load

    ref = manifest(key).bench.ai_game
    if ref is None:
        return {}
    ai_game = load(ref)
    applies: list[float] = []
    games: list[float] = []
    for seed in range(1, seeds + 1):
        start = time.perf_counter()
        _, times = ai_game(seed, clock=time.perf_counter)
        games.append(time.perf_counter() - start)
        applies += times
    return {f"{key}_apply_ms_p50": round(statistics.median(applies), 4),
            f"{key}_apply_ms_p99": round(percentile(applies, 0.99), 4),
            f"{key}_ai_game_s": round(statistics.median(games), 4)}


def bench_hand(key: str, repeats: int) -> dict[str, float]:
    """``<key>_hand_render_ms_p50`` / ``_kb``: the private hand picture of the first seat on the bench
    state, in Russian, for games whose renderer draws one."""
    hand = board_renderer(key).hand
    if hand is None:
        return {}
    draw = getattr(hand, "uncached", hand)
    view = json.loads(json.dumps(bench_state(key).view(0)))
    draw(view, "ru")
    times = []
    png = b""
    for _ in range(repeats):
        start = time.perf_counter()
        png = draw(view, "ru") or b""
        times.append((time.perf_counter() - start) * 1000)
    return {f"{key}_hand_render_ms_p50": round(statistics.median(times), 2),
            f"{key}_hand_render_kb": round(len(png) / 1024, 1)}


def bench_playouts(key: str, seeds: int) -> dict[str, float]:
    """A whole game of random legal actions at each table of the manifest's ``bench.playouts``, median
    seconds: ``<key>_playout_<players>p_s``."""
    result = {}
    for setup in manifest(key).bench.playouts:
        times = []
        for seed in range(seeds):
            start = time.perf_counter()
            playout(key, setup, seed)
            times.append(time.perf_counter() - start)
        result[f"{key}_playout_{len(setup[0])}p_s"] = round(statistics.median(times), 4)
    return result


def bench_replay_render(key: str, repeats: int) -> dict[str, float]:
    """``/game replay``'s animated history (a GIF) of a whole random game of ``key`` at its largest
    ``bench.playouts`` table (median of ``repeats``)."""
    from bot.core.i18n import t
    from bot.core.replay import history
    from bot.core.store import ActionRow
    from bot.discord_app import limits
    from render.replay import MAX_FRAMES, animate

    names = ["Anna", "Boris", "Clara", "Dmitri", "Eve", "Fyodor", "Galina", "Hugo"]
    seat_info, options = max(manifest(key).bench.playouts, key=lambda setup: len(setup[0]))
    names = names[:len(seat_info)]
    seed = 7
    played = playout(key, (seat_info, options), seed)
    rows = [ActionRow(i + 1, seat, None, action, [], 0.0) for i, (seat, action) in enumerate(played.log)]
    times, size, frames = [], 0, 0
    for _ in range(repeats):
        start = time.perf_counter()
        story = history(key, [dict(s) for s in seat_info], dict(options), seed, rows, names=names, lang="ru",
                        frames=MAX_FRAMES)
        moments = [(t("replay.caption", "ru", n=seq, total=len(rows)), {**view, "seat_names": names})
                   for seq, view in story.frames]
        animation = animate(key, moments, "ru", max_bytes=limits.ANIMATION)
        times.append(time.perf_counter() - start)
        size, frames = len(animation.data), animation.frames
    return {"replay_render_s": round(statistics.median(times), 3), "replay_gif_mb": round(size / 1e6, 2),
            "replay_gif_frames": frames, "replay_game_actions": len(rows)}


async def bench_stats_query(db: Path, games: int, queries: int) -> dict[str, float]:
    """The reads of ``/stats`` and ``/leaderboard`` over ``games`` recorded finished games (one busy
    server of 2,000 players and a few small ones), rows written in bulk as recording writes them."""
    from bot.core.stats import Stats

    store = await Store.open(db)
    stats = Stats(store)
    await stats.setup()
    rng = random.Random(12)
    keys = available()[:3]
    ranges = {key: manifest(key).game_class().player_range({}) for key in keys}
    users: dict[tuple[int, int, str], list[float]] = {}
    game_rows, player_rows = [], []
    for gid in range(1, games + 1):
        guild = 1 if gid % 10 else 2 + gid % 7
        key = keys[gid % len(keys)]
        low, high = max(2, ranges[key][0]), min(5, ranges[key][1])
        seated = rng.sample(range(1, 2001), low if low >= high else rng.randint(low, high))
        result = "finished" if gid % 17 else "aborted"
        game_rows.append((gid, guild, key, result, int(result == "finished"), len(seated), 80, gid * 60.0))
        for place, user in enumerate(seated, 1):
            won = int(place == 1 and result == "finished")
            player_rows.append((gid, user, guild, key, place - 1, place - 1, place, won, 0, 20, 19, 19 * 300.0,
                                25.0, 8.3, 25.5, 8.1))
            agg = users.setdefault((guild, user, key), [0, 0, 0, 0, 0.0, 0])
            agg[0] += result == "finished"
            agg[1] += won
            agg[3] += result == "aborted"
            agg[4] += 19 * 300.0
            agg[5] += result == "finished"
    async with store.transaction() as tx:
        await tx.executemany("INSERT INTO stat_games VALUES (?, ?, ?, ?, ?, ?, ?, ?)", game_rows)
        await tx.executemany("INSERT INTO stat_players VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                             player_rows)
        await tx.executemany(
            "INSERT INTO stat_users VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(g, u, k, f"user{u}", a[0], a[1], a[2], a[3], a[0] * 19, a[4], a[5], 20 + rng.random() * 15,
              2 + rng.random() * 6, None) for (g, u, k), a in users.items()])
        await tx.execute("UPDATE stat_users SET ordinal = mu - 3 * sigma")
        await tx.executemany("INSERT INTO stat_totals VALUES (?, ?, ?, ?, ?, ?, ?)",
                             [(1, k, r, games // 6, 80 * games // 6, 19 * games, 5700.0 * games)
                              for k in keys for r in ("finished", "aborted")])
    await store.db.execute("ANALYZE")
    times = []
    for i in range(queries):
        user = rng.randint(1, 2000)
        game = keys[i % len(keys)] if i % 2 else None
        start = time.perf_counter()
        if i % 4 == 3:
            await stats.leaderboard(1, keys[i % len(keys)], 25)
            await stats.rank_of(1, keys[i % len(keys)], user)
        else:
            rows = await stats.user_stats(1, user, game)
            await stats.totals(1, game)
            for row in rows:
                await stats.rank_of(1, row.game, user)
        times.append((time.perf_counter() - start) * 1000)
    await store.close()
    return {"stats_query_ms_p50": round(percentile(times, 0.5), 3),
            "stats_query_ms_p99": round(percentile(times, 0.99), 3), "stats_games": games}


def bench_bots(games: list[str], per_match: int) -> dict[str, float]:
    """The strong bot's decision time and its win rate against random players (``bot.tools.arena``), per game
    asking for ``bots`` and per arena variant of those games (``risk``: Godstorm's classic ruleset)."""
    from bot.games.ai import policy_for
    from bot.tools.arena import match, percentile, resolve, variants

    result: dict[str, float] = {}
    for name in games + [v for v, (key, _) in variants().items() if key in games and v not in games]:
        key, options = resolve(name)
        strong = policy_for(key, "strong")
        vs_random = match(key, strong, policy_for(key, "random"), per_match, 2, 1, options)
        vs_quick = match(key, strong, policy_for(key, "quick"), per_match, 2, 500, options)
        times = vs_random.bot_ms + vs_quick.bot_ms
        result[f"{name}_bot_move_ms_p50"] = round(percentile(times, 0.5), 3)
        result[f"{name}_bot_move_ms_p99"] = round(percentile(times, 0.99), 3)
        result[f"{name}_bot_winrate_vs_random"] = round(vs_random.wins / vs_random.games, 3)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (smoke run)")
    parser.add_argument("--boards", action="store_true",
                        help="only the per-game board figures (render, pool, draw/encode, personal, zoom)")
    parser.add_argument("--game", action="append", choices=available(), help="with --boards: only this game's")
    args = parser.parse_args()
    result = run_boards(args.quick, args.game) if args.boards else asyncio.run(run(args.quick))
    if args.json:
        print(json.dumps(result))
    else:
        for name, value in result.items():
            print(f"{name:28} {value}")


if __name__ == "__main__":
    main()
