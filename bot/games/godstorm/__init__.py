"""Risk Godstorm (and classic Risk on the same board): rules engine."""

from bot.games.godstorm.game import Godstorm
from bot.games.godstorm.playout import bench_state, random_playout

__all__ = ["Godstorm", "bench_state", "random_playout"]
