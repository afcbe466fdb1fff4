"""The games' web pages (issue 29): a signed link per game or seat, the board and the log live, the
replay of a finished game. Off unless ``WEB_PORT`` is set; see ``docs/web.md``.

- :mod:`bot.web.links`: the tokens (HMAC with the store's secret, expiry, revocation by generation).
- :mod:`bot.web.views`: what a page shows, built once per change, language and seat.
- :mod:`bot.web.pages`: the HTML (strings, every value escaped); :mod:`bot.web.markup`: Discord's
  markdown of the game texts as safe HTML.
- :mod:`bot.web.server`: the aiohttp server, its security headers, rate limits and event streams.
- :mod:`bot.web.bench`: ``web_page_ms_p99`` and ``web_update_lag_ms_p99`` for ``python -m bot.bench``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.core.config import Config
    from bot.core.sessions import SessionManager
    from bot.core.store import Store
    from bot.web.server import WebServer


async def start_web(config: Config, sessions: SessionManager, store: Store, publisher: Any) -> WebServer:
    """Start the pages' server for the bot and feed it the change notifications: this process's
    commits (``SessionManager.subscribe``, or its older ``on_change``) and, on PostgreSQL, the other processes' (the cluster's
    ``NOTIFY`` listener), so a page follows a game whichever process committed its move. Raises
    :class:`~bot.core.config.ConfigError` when the port cannot be had."""
    from bot.core.config import ConfigError  # noqa: PLC0415
    from bot.web.server import WebServer  # noqa: PLC0415
    from bot.web.views import GameViews  # noqa: PLC0415

    assert config.web_port is not None
    server = WebServer(GameViews(sessions), store, port=config.web_port, host=config.web_host,
                       base_url=config.web_base_url)
    try:
        await server.start()
    except OSError as exc:
        raise ConfigError(f"WEB_PORT {config.web_port}: cannot listen on {config.web_host} "
                          f"({exc.strerror or exc}); pick a free port") from None
    subscribe = getattr(sessions, "subscribe", None)
    if subscribe is not None:  # the session layer's committed-change events
        subscribe(lambda news: server.changed(news.game_id))
    else:
        committed = sessions.on_change

        def on_change(game_id: int) -> None:
            committed(game_id)
            server.changed(game_id)

        sessions.on_change = on_change
    cluster = getattr(publisher, "cluster", None)
    if cluster is not None:
        elsewhere = cluster.on_changed

        def on_changed(game_id: int) -> None:
            elsewhere(game_id)
            server.changed(game_id)

        cluster.on_changed = on_changed
    return server
