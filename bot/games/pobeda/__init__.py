"""Победа (Pobeda): lines of six chips on a 12x12 board of Great Patriotic War events."""

from bot.games.pobeda.bench import bench_state
from bot.games.pobeda.game import Pobeda

__all__ = ["Pobeda", "bench_state"]
