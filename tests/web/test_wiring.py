"""How the bot feeds the pages (issue 29): its own commits and, on PostgreSQL, the other processes'
change notifications both move a game's version, so an open page follows a move whichever process
committed it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

from bot.core.config import load_config
from bot.core.sessions import SessionManager
from bot.core.store import Store
from bot.web import start_web
from tests.web.conftest import Site


async def test_commits_here_and_notifications_from_elsewhere(tmp_path: Path, site: Site) -> None:
    store = await Store.open(tmp_path / "wired.sqlite3")
    sessions = SessionManager(store)
    heard: list[int] = []
    cluster = SimpleNamespace(on_changed=heard.append)  # the publisher's listener of NOTIFY
    config = replace(load_config({"DISCORD_TOKEN": "x", "WEB_PORT": "1"}, read_dotenv=False), web_port=0)
    server = await start_web(config, sessions, store, SimpleNamespace(cluster=cluster))
    try:
        views = server.views
        before = views.version(42)
        cluster.on_changed(42)  # another process committed a move of game 42
        assert heard == [42]  # the publisher still hears it
        after = views.version(42)
        assert after != before
        here = Site(store, sessions, server, site.http, site.clock)
        session = await here.game()  # committed in this process
        started = views.version(session.id)
        await here.move(session, 4)
        assert views.version(session.id) != started
    finally:
        await server.close()
        await store.close()


async def test_off_unless_configured() -> None:
    config = load_config({"DISCORD_TOKEN": "x"}, read_dotenv=False)
    assert config.web_port is None  # bot.discord_app.app starts the pages only when this is set
