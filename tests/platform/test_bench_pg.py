"""The two-process PostgreSQL benchmark (issue 14, ``bot.tools.bench_pg``) in a tiny configuration: it runs
two real worker processes on one throwaway server, reports every figure ``python -m bot.bench`` prints
for it, and every move it counts is an action row committed in the database. No timing thresholds
(benchmarks are not timed tests)."""

from __future__ import annotations

import math

import asyncpg

from bot.tools.bench_pg import bench_cluster, unix_socket_url
from tests.pg_server import PgServer, new_pg_url

FIGURES = ("pg_step_commit_ms_p50", "pg_step_commit_ms_p99", "pg_actions_per_s",
           "pg_saturated_step_ms_p50", "pg_saturated_step_ms_p99", "pg_paced_actions_per_s",
           "pg_shared_step_commit_ms_p50", "pg_shared_step_commit_ms_p99", "pg_shared_actions_per_s",
           "pg_shared_saturated_step_ms_p50", "pg_shared_saturated_step_ms_p99", "pg_shared_paced_actions_per_s")


async def test_two_process_bench_reports_positive_figures_of_committed_moves(pg_server: PgServer | None) -> None:
    await new_pg_url(pg_server)  # skips (with the reason) when there is no PostgreSQL
    assert pg_server is not None
    # enough games that no channel runs out in the saturated phase (a game lasts ~120 moves; the tests'
    # server flushes nothing, so two processes may pass 2,000 moves a second)
    result = await bench_cluster(pg_server, "pobeda", processes=2, channels=4, seconds=0.4, rate=100.0,
                                 games_per_channel=8)
    for key in FIGURES:
        value = result[key]
        assert isinstance(value, (int, float)) and math.isfinite(value) and value > 0, (key, value)
    assert result["pg_processes"] == 2 and result["pg_channels"] == 4
    for database, moves in (("bench_split", "pg_moves"), ("bench_shared", "pg_shared_moves")):
        conn = await asyncpg.connect(pg_server.url(database))
        try:
            stored = await conn.fetchval("SELECT count(*) FROM actions")
            seqs = await conn.fetchval("SELECT coalesce(sum(seq), 0) FROM games")
        finally:
            await conn.close()
        # every counted move is one committed action, and each game's seq counts its actions
        assert stored == result[moves] > 0
        assert seqs == stored
    assert result["pg_shared_conflicts"] >= 0  # counted (the split variant raises on any)


async def test_the_unix_socket_url_reaches_the_same_server(pg_server: PgServer | None) -> None:
    """``--unix``: the workers connect through the server's socket (the bench's figures are then
    labelled ``pg_transport: unix``)."""
    await new_pg_url(pg_server)
    assert pg_server is not None
    url = await pg_server.fresh_database("bench_unix")
    conn = await asyncpg.connect(unix_socket_url(pg_server, "bench_unix"))
    try:
        assert await conn.fetchval("SELECT current_database()") == "bench_unix"
        # no TCP peer: the connection came through the socket
        assert await conn.fetchval("SELECT inet_client_addr()") is None
    finally:
        await conn.close()
    assert url != unix_socket_url(pg_server, "bench_unix")
