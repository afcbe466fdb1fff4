"""Game rules: pure Python, no Discord, no rendering, no storage.

Every game package exports one manifest (:mod:`bot.games.manifest`), listed in :mod:`bot.games.registry`.
"""
