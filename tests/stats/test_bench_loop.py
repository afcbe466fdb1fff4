"""bot/tools/bench_loop.py: the event-loop benchmark runs end to end on a short game (its figure is the
benchmark's business, not this test's)."""

from __future__ import annotations

from pathlib import Path

from bot.tools.bench_loop import bench_loop
from render.replay import MAX_FRAMES


async def test_the_loop_benchmark_replays_records_and_answers_meanwhile(tmp_path: Path) -> None:
    figures = await bench_loop(40, tmp_path / "loop.sqlite3", ruleset="godstorm")
    assert figures["loop_game_actions"] >= 40
    assert figures["loop_replay_pages"] >= 1
    assert 2 <= figures["loop_replay_frames"] <= MAX_FRAMES + 1  # the moments and the final position first
    assert figures["loop_lag_ms_max"] >= 0 and figures["loop_lag_ms_p99"] <= figures["loop_lag_ms_max"]
    assert 0 < figures["status_answer_ms_p50"] <= figures["status_answer_ms_max"]
    assert figures["loop_record_s"] > 0 and figures["loop_replay_s"] > 0
    assert figures["loop_stalls_logged"] >= 0 and figures["loop_gc_full_count"] >= 0
