"""Soak: three games at once, played to their end by scripted users, while the bot is SIGKILLed
now and then and Discord refuses requests, drops connections and the gateway socket.

Every user acts through ``/game hand`` (an ephemeral panel) with a random choice at every level of
the panel, so the moves of one game do not wait for its channel post; each game keeps at most a few
committed moves ahead of what is announced, so a turn post stays within the lines it shows. At the
end every game is finished, every committed event is announced exactly once (by content, as in
:mod:`tests.e2e.test_faults_e2e`), and the bot's resident memory (``/proc/<pid>/status``) over the
last 600 moves, long after the last restart, is flat.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.games.registry import game_class
from tests.e2e.helpers import Table, custom_ids, db_query, game_row, latest_panel, make_table, play_panel
from tests.e2e.test_faults_e2e import announced, expected_lines
from tests.fake_discord import FakeDiscord

pytestmark = [pytest.mark.e2e, pytest.mark.soak]

GAMES = [("pobeda", 3, {}), ("coldwar", 2, {"options": "goal=50"}), ("godstorm", 3, {})]
MOVES = 1100         # moves in all; each channel starts a new game after the last one ended until then
KILL_EVERY = 80      # a SIGKILL (and restart) every so many moves, until KILLS_END: three kills
KILLS_END = 270
LAST_RUN = 600       # the last moves, over which the bot's memory (warm by then) must stay flat
# 260 moves between the last restart (move 240) and LAST_RUN, whose first 100 moves are more warm-up: 360 moves
# after the restart before the first sample that counts. The boards are drawn in the render processes
# (bot.core.drawing), so the bot's own caches are small and fill early. Measured over a whole soak of 1633
# moves whose last restart came at move 300 (median RSS of each hundred moves): 74 MB at move 300, 77 at 500,
# 79 at 700, 80 at 1000, 81 at 1300, 82 at 1600, a creep that slows; over the moves checked now (360 to 860
# after the restart) about +2.5 %, against the 8 % bound. (While boards were drawn in the bot process, its
# caches took 600 moves to fill: Pobeda's static boards alone were 15 MB, and a run warm for 400 moves saw a
# 10 MB step; the soak then made 1500 moves, and 1800 before issue 24, whose kills came every 200 moves up to
# 700 and whose faults were drawn at random, so a run could miss a kind. Now the faults take turns
# (FAULT_KINDS, each round in a random order) and every kind is asserted.)
FAULT_KINDS = ("post 503", "edit 503", "post dropped", "gateway dropped")
MAX_AHEAD = 3        # committed moves a game may be ahead of its announcements
SOAK_ENV = {"PANEL_REFRESH_DELAY": "1"}
"""The production DM-panel refresh delay, not the e2e default (a quarter of a second): every soak move is made
through ``/game hand``, and a player's moves within a second are one refresh of their DM panel, as in play,
rather than nearly one personal board drawn per move."""
PUBLISHED = "SELECT status, seq, published_seq FROM games WHERE id = ?"
LATEST = "SELECT status, seq, published_seq FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1"


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


class Soak:
    def __init__(self, table: Table, seed: int) -> None:
        self.table = table
        self.fake: FakeDiscord = table.fake
        self.rng = random.Random(seed)
        self.up = asyncio.Event()
        self.up.set()
        self.moves = 0
        self.failed_moves = 0
        self.started = time.monotonic()
        self.rss: list[tuple[int, int]] = []  # (moves into the last run, RSS in kB)
        self.games: dict[int, list[int]] = {}  # channel id -> its games, in order
        self.faults: Counter[str] = Counter()  # FAULT_KINDS met

    async def cut_by_a_kill(self, click: Any) -> Any:
        """The answer to ``click()``, or None when a SIGKILL cut it (the bot restarted meanwhile and
        never answered: as on Discord, the click is lost and the player looks and tries again)."""
        runs = self.table.bot.runs
        try:
            return await click()
        except (TimeoutError, RuntimeError):
            if self.table.bot.runs == runs and self.up.is_set():
                raise  # no restart: the bot really failed to answer
            await self.up.wait()
            return None

    def lobby_message(self, channel: Any, game_id: int) -> Any:
        posts = [m for m in self.fake.channel_messages(channel) if custom_ids(m, f"tt:l:{game_id}:")]
        return posts[-1] if posts else None

    async def open_game(self, channel: Any, key: str, players: list[Any], options: dict[str, str]) -> int:
        """A lobby, every player joined, started; each step is checked in the database and tried again
        when a SIGKILL cut it (the chaos kills the bot whenever the moves of any channel reach a mark)."""
        fake, db = self.fake, self.table.db
        known = set(self.games.get(channel.id, []))
        lobby = None
        while lobby is None:
            await self.up.wait()
            r = await self.cut_by_a_kill(lambda: fake.slash(players[0], channel, "game new",
                                                            options={"game": key, **options}, timeout=20))
            if r is not None:
                assert not r.ephemeral, r.content
                lobby = r.message
            elif (row := game_row(db, channel.id))["status"] == "lobby" and row["id"] not in known:
                lobby = self.lobby_message(channel, row["id"])  # opened before the kill; its post is out
                if lobby is None:  # opened, but its post never went out: the host ends it, opens another
                    known.add(row["id"])
                    r = await self.cut_by_a_kill(lambda: fake.slash(players[0], channel, "game abort", timeout=20))
                    confirm = custom_ids(r.message, "tt:x:") if r is not None else []
                    if confirm:
                        await self.cut_by_a_kill(lambda m=r.message, c=confirm[0]: fake.click(
                            players[0], m, custom_id=c, timeout=20))
        game_id = int(custom_ids(lobby, "tt:l:")[0].split(":")[2])
        for user in players[1:]:
            while True:
                joined = await self.cut_by_a_kill(
                    lambda u=user: fake.click(u, lobby, custom_id=custom_ids(lobby, "tt:l:")[0], timeout=20))
                if joined is not None:
                    assert f"<@{user.id}>" in joined.text, joined.text
                    break
                lobby_json = db_query(db, "SELECT lobby FROM games WHERE id = ?", (game_id,))[0][0]
                if any(entry["user"] == user.id for entry in json.loads(lobby_json)):
                    break
        start = next(c for c in custom_ids(lobby, "tt:l:") if c.endswith(":start"))
        while await self.cut_by_a_kill(lambda: fake.click(players[0], lobby, custom_id=start, timeout=20)) is None:
            if game_row(db, channel.id)["status"] == "running":
                break
        row = await fake.wait_for(lambda: (r := game_row(db, channel.id))["status"] == "running" and r,
                                  timeout=20)
        assert int(row["id"]) == game_id
        self.games.setdefault(channel.id, []).append(game_id)
        return game_id

    async def move(self, channel: Any, key: str) -> bool:
        """One action of a random seat that must act. False once the game is finished."""
        status, seq, published = db_query(self.table.db, LATEST, (channel.id,))[0]
        if status == "finished":
            return False
        if seq - published >= MAX_AHEAD:  # polled every 50 ms: the state is read only to act
            await asyncio.sleep(0.05)
            return True
        row = game_row(self.table.db, channel.id)
        if row["status"] == "finished":
            return False
        game = game_class(key).from_json(row["state"])
        actors = game.actors()
        assert actors, f"{key}: nobody must act"
        seat = self.rng.choice(actors)
        user = self.table.by_id(self.rng.choice(row["seat_users"][seat]))
        fake = self.fake
        try:
            r = await fake.slash(user, channel, "game hand", timeout=8)
            panel = latest_panel([r.message])
            if panel is None:  # another user acted first: the seat has nothing to do now
                return True
            r = await play_panel(fake, user, panel, pick=self.rng.randrange(30))
            while r.content.startswith("✅") and latest_panel([r.message]) is not None and self.rng.random() < 0.9:
                r = await play_panel(fake, user, r.message, pick=self.rng.randrange(30))
        except (TimeoutError, ValueError, LookupError, AssertionError):
            # a move cut by a SIGKILL or refused as stale: the committed state decides what comes next
            self.failed_moves += 1
            await self.up.wait()
            return True
        self.moves += 1
        if self.moves % 250 == 0:
            print(f"soak: {self.moves} moves ({self.failed_moves} cut) in {time.monotonic() - self.started:.0f} s",
                  flush=True)
        return True

    async def play(self, channel: Any, key: str, players: list[Any], options: dict[str, str],
                   stop: asyncio.Event) -> None:
        """Games back to back in one channel until the soak has made its moves; the last one ends.
        ``stop``: the soak's time is up (the test fails saying how far it got, instead of hanging)."""
        while self.moves < MOVES and not stop.is_set():
            await self.open_game(channel, key, players, options)
            while not stop.is_set():
                await self.up.wait()
                if not await self.move(channel, key):
                    break

    async def chaos(self, stop: asyncio.Event) -> None:
        """Every few moves a 5xx burst, dropped connections or a dropped gateway socket (the
        ``FAULT_KINDS`` in turn, each round in a random order); SIGKILLs every ``KILL_EVERY`` moves; then
        a quiet last run over which the bot's memory is sampled."""
        fake, bot = self.fake, self.table.bot
        rule = None
        mark = self.moves
        turns: list[str] = []
        while self.moves < KILLS_END and not stop.is_set():
            await asyncio.sleep(0.1)
            if self.moves - mark >= 15 and (rule is None or rule.remaining == 0):
                mark = self.moves
                if not turns:
                    turns = self.rng.sample(FAULT_KINDS, len(FAULT_KINDS))
                kind = turns.pop()
                self.faults[kind] += 1
                if kind == "post 503":
                    rule = fake.fail_requests(503, "/messages", method="POST", count=self.rng.randint(2, 4))
                elif kind == "edit 503":
                    rule = fake.fail_requests(503, "/messages/", method="PATCH", count=2)
                elif kind == "post dropped":
                    rule = fake.fail_requests(route_contains="/messages", method="POST", count=2, drop=True)
                else:
                    await fake.disconnect_gateway(4000)
            if self.moves // KILL_EVERY > bot.runs - 1 and self.moves < KILLS_END:
                await asyncio.sleep(self.rng.uniform(0, 0.3))
                self.up.clear()
                await bot.kill()
                await bot.start(timeout=60)
                self.up.set()
        fake.clear_faults()
        while self.moves < MOVES - LAST_RUN and not stop.is_set():
            await asyncio.sleep(0.1)
        assert bot.pid is not None
        pid, start = bot.pid, self.moves
        while not stop.is_set():
            self.rss.append((self.moves - start, rss_kb(pid)))
            await asyncio.sleep(0.5)


async def test_three_games_with_kills_and_faults_finish_with_nothing_lost(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        names = [f"u{i}" for i in range(8)]
        table = await make_table(fake, tmp_path, names, extra_env=SOAK_ENV)
        channels = [table.channel, fake.create_channel(table.guild, "games-2"),
                    fake.create_channel(table.guild, "games-3")]
        soak = Soak(table, seed=16)
        users = [table.user(n) for n in names]
        seating = [users[0:3], users[3:5], users[5:8]]
        stop = asyncio.Event()
        chaos = asyncio.create_task(soak.chaos(stop))
        players = [asyncio.create_task(soak.play(ch, key, seats, options, stop))
                   for ch, (key, _, options), seats in zip(channels, GAMES, seating, strict=True)]
        try:
            done, _ = await asyncio.wait(players, timeout=900)  # 190 s beside other work; a loaded CI machine is slower
            for task in done:
                task.result()
            assert len(done) == len(players), f"games not finished after {soak.moves} moves"
        finally:
            stop.set()
            await asyncio.gather(chaos, *players, return_exceptions=True)
        elapsed = time.monotonic() - soak.started
        assert soak.moves >= MOVES and table.bot.runs == KILLS_END // KILL_EVERY + 1 and fake.faults_injected
        assert set(soak.faults) == set(FAULT_KINDS), soak.faults  # every kind of fault, more than once
        assert min(soak.faults.values()) >= 2, soak.faults
        # memory: the bot, warm some hundred moves after its last start, does not grow with the moves
        # played (RSS sampled every 0.5 s over the last LAST_RUN moves, the first 100 as more warm-up).
        # Compared: the median of the first quarter of the samples and of the last quarter. Not the peak:
        # with glibc tuned (bot/tools/memdebug.py: tune_malloc) a board's buffers of several MB are mapped and
        # returned at once, so RSS swings by 20-40 MB with the boards being drawn at the sampled instant.
        warm = [kb for moves, kb in soak.rss if moves >= 100]
        assert len(warm) >= 20 and soak.rss[-1][0] >= LAST_RUN - 50, soak.rss
        quarter = len(warm) // 4
        first, last = statistics.median(warm[:quarter]), statistics.median(warm[-quarter:])
        print(f"soak: {soak.moves} moves ({soak.failed_moves} cut), {table.bot.runs} runs, "
              f"{sum(map(len, soak.games.values()))} games, {elapsed:.0f} s; RSS over the last "
              f"{soak.rss[-1][0]} moves: median {first:.0f} -> {last:.0f} kB ({(last - first) / first:+.1%}), "
              f"range {min(warm)}-{max(warm)} kB; by quarter "
              f"{[int(statistics.median(warm[k * quarter:(k + 1) * quarter])) for k in range(4)]}", flush=True)
        # The growth was the allocator's, not Python objects' (measured with TABLETOP_TRACEMALLOC, see
        # bot/tools/memdebug.py and README, Troubleshooting). glibc defaults (TABLETOP_MALLOC_TUNE=0): RSS 376-400 MB,
        # median +4.1% (380 -> 396 MB; lowest sample to highest +6.3%; the check before saw 2.6-12% in
        # the last session's runs), glibc's heap 287 -> 304 MB of which 200-240 MB free, while the Python
        # heap tracemalloc saw over the warm run stayed flat (8-10 MB allocated since tracing began) and
        # the gc-tracked objects too (~80k): render buffers freed on worker threads kept in per-thread
        # arenas. MALLOC_ARENA_MAX=2 alone: 235 -> 243 MB (+3.3%), heap still 122 -> 159 MB. Tuned (two
        # arenas and a fixed mmap threshold): median 188.6 -> 187.2 MB (-0.8%), quarters 189/187/193/189 MB,
        # glibc's heap 34-48 MB with 6-15 MB free; other runs +0.6%, +6.4% (a 10 MB step early: 1500 moves
        # then), and with 1800 moves -2.0%, -1.1%, +0.3%. Also gone: discord.py's message cache (1000 received
        # messages, never read; its Message objects were most of what tracemalloc saw grow) and ephemeral
        # panels kept past their token's life (one Interaction per game and user).
        for channel in channels:
            expected: Counter[str] = Counter()
            for game_id in soak.games[channel.id]:
                def announced_to_the_end(g: int = game_id) -> tuple[Any, ...] | None:
                    r = db_query(table.db, PUBLISHED, (g,))[0]
                    return r if r[2] == r[1] else None

                try:
                    row = await fake.wait_for(announced_to_the_end, timeout=60)
                except TimeoutError:  # say which game, and what the bot logged about it
                    told = [line for line in table.bot.output().splitlines() if f"game {game_id}" in line]
                    raise AssertionError(f"game {game_id} not announced up to its last move: "
                                         f"{db_query(table.db, PUBLISHED, (game_id,))}\n" + "\n".join(told[-40:])) from None
                assert row[0] == "finished", (game_id, row)
                expected += expected_lines(fake, table.db, game_id)
            got = announced(fake, channel, list(expected))
            missing = {k: v - got[k] for k, v in expected.items() if got[k] < v}
            repeated = {k: got[k] - v for k, v in expected.items() if got[k] > v}
            where = [(m.id, [v.content.count(text) for v in m.versions], m.content[:300])
                     for text in repeated for m in fake.channel_messages(channel) if text in m.text]
            assert not missing and not repeated, f"channel {channel.name}: lost {missing}\nrepeated {repeated} {where}"
        assert last - first < 0.08 * first, soak.rss  # memory, as printed above
        await table.bot.stop()
