"""Game rules: pure Python, no Discord, no rendering, no storage.

Every game registers its class in :data:`REGISTRY` (see :mod:`bot.games.registry`).
"""
