"""Leagues and tournaments (issue 28): pairing, standings and the round scheduler, without Discord.

* :mod:`bot.core.leagues.model`: the records (formats, tables, results, the league's choices);
* :mod:`bot.core.leagues.pairing`: Swiss (FIDE Dutch, no colours), round robin, elimination, tables of 3-5;
* :mod:`bot.core.leagues.standings`: points, Buchholz, head-to-head, the order;
* :mod:`bot.core.leagues.storage`: the league tables of the store (SQLite and PostgreSQL);
* :mod:`bot.core.leagues.scheduler`: the state machine that runs the rounds, restart-proof.

The Discord side is :mod:`bot.discord_app.leagues` and ``cogs/league.py``.
"""
