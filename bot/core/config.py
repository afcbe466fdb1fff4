"""Configuration from environment variables (and an optional ``.env`` in the working directory)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path


class ConfigError(Exception):
    """A configuration problem, reported to the operator as one clear line."""


@dataclass(frozen=True)
class Limits:
    """What one user or server may hold at once, and how long things may wait (issue 23). Each is
    read from an environment variable (see :func:`load_limits`); 0 turns a cap off."""

    lobbies_per_user: int = 3
    """``TABLETOP_MAX_LOBBIES_PER_USER``: open lobbies one user hosts."""
    lobbies_per_server: int = 25
    """``TABLETOP_MAX_LOBBIES_PER_SERVER``: open lobbies in one server."""
    games_per_user: int = 20
    """``TABLETOP_MAX_GAMES_PER_USER``: running games one user plays in (joining or hosting another is refused)."""
    games_per_server: int = 200
    """``TABLETOP_MAX_GAMES_PER_SERVER``: running games in one server (a new lobby or a start is refused)."""
    lobby_ttl_s: float = 24 * 3600.0
    """``TABLETOP_LOBBY_TTL_HOURS``: a lobby that has not started by then is closed (its host is told)."""
    pause_s: float = 7 * 86400.0
    """``TABLETOP_PAUSE_LIMIT_DAYS``: how long a game's clock may stand still in all its pauses."""
    followers_per_game: int = 50
    """``TABLETOP_MAX_FOLLOWERS``: users following one game by DM."""
    deadline_min_s: int = 30
    """``TABLETOP_DEADLINE_MIN_S``: the shortest turn deadline by any way of setting it (the timer ticks
    every 20 s; tests against the fake Discord, ticking faster, lower it)."""
    deadline_max_s: int = 14 * 24 * 3600
    """The longest turn deadline."""


LIMIT_VARIABLES: dict[str, tuple[str, float]] = {
    # variable: (field, unit in seconds or 1 for a count)
    "TABLETOP_MAX_LOBBIES_PER_USER": ("lobbies_per_user", 1),
    "TABLETOP_MAX_LOBBIES_PER_SERVER": ("lobbies_per_server", 1),
    "TABLETOP_MAX_GAMES_PER_USER": ("games_per_user", 1),
    "TABLETOP_MAX_GAMES_PER_SERVER": ("games_per_server", 1),
    "TABLETOP_MAX_FOLLOWERS": ("followers_per_game", 1),
    "TABLETOP_DEADLINE_MIN_S": ("deadline_min_s", 1),
    "TABLETOP_LOBBY_TTL_HOURS": ("lobby_ttl_s", 3600.0),
    "TABLETOP_PAUSE_LIMIT_DAYS": ("pause_s", 86400.0),
}


def load_limits(env: Mapping[str, str] | None = None) -> Limits:
    """The :class:`Limits` from ``env`` (default: the process environment); a value that is not a
    number of at least 0 raises :class:`ConfigError` naming the variable."""
    env = os.environ if env is None else env
    values: dict[str, float | int] = {}
    for name, (attr, unit) in LIMIT_VARIABLES.items():
        raw = env.get(name, "").strip()
        if not raw:
            continue
        try:
            number = float(raw)
        except ValueError:
            number = -1.0
        if not number >= 0 or number == float("inf"):
            raise ConfigError(f"{name} must be a number of at least 0 (0 turns it off), got {raw!r}")
        values[attr] = int(number) if unit == 1 else number * unit
    return Limits(**values)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Config:
    token: str
    database_path: Path
    guild_ids: tuple[int, ...] = ()
    log_level: str = "INFO"
    api_base: str | None = None
    timer_interval: float = 20.0
    publish_interval: float = 4.0
    panel_refresh_delay: float = 1.0
    """``PANEL_REFRESH_DELAY``: seconds before a DM panel is brought up to date after its player acted
    elsewhere (once for the moves made meanwhile; :data:`bot.discord_app.livepanels.REFRESH_DELAY`)."""
    database_url: str | None = None
    """``DATABASE_URL`` (postgresql://…): the store lives in PostgreSQL instead of ``database_path``."""
    shard_count: int | None = None
    """``SHARD_COUNT``: the bot's total number of gateway shards; None runs unsharded, as before."""
    shard_ids: tuple[int, ...] | None = None
    """``SHARD_IDS``: the shards this process runs (all of them when None and ``sharded``)."""
    auto_shards: bool = False
    """``SHARD_COUNT=auto``: discord.py asks Discord for the count and runs every shard here."""
    health_port: int | None = None
    """``HEALTH_PORT``: serve ``/healthz`` and ``/readyz`` on 127.0.0.1 (and the container's
    interfaces, see :mod:`bot.core.health`) on this port; off when None."""
    web_port: int | None = None
    """``WEB_PORT`` (issue 29, :mod:`bot.web`): serve the games' web pages on this port; off when None."""
    web_base_url: str | None = None
    """``WEB_BASE_URL``: the address players reach the pages at (the operator's reverse proxy with TLS)."""
    web_host: str = "127.0.0.1"
    """``WEB_HOST``: the interface the pages listen on (``0.0.0.0`` in a container behind a proxy)."""
    log_format: str = "text"
    """``LOG_FORMAT``: ``text`` (the human format) or ``json`` (one object per line)."""
    limits: Limits = field(default_factory=Limits)
    """Caps and expiries (issue 23): ``TABLETOP_MAX_*``, ``TABLETOP_LOBBY_TTL_HOURS``, ``TABLETOP_PAUSE_LIMIT_DAYS``."""
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def sharded(self) -> bool:
        return self.auto_shards or self.shard_count is not None

    @property
    def own_shards(self) -> tuple[int, ...] | None:
        """The shard ids this process runs, when known from the configuration (None: unsharded,
        or ``auto`` before Discord named the count)."""
        if self.shard_ids is not None:
            return self.shard_ids
        if self.shard_count is not None:
            return tuple(range(self.shard_count))
        return None


def load_config(env: Mapping[str, str] | None = None, *, read_dotenv: bool = True) -> Config:
    """Read the configuration; raises :class:`ConfigError` naming the variable at fault."""
    if env is None:
        if read_dotenv:
            from dotenv import load_dotenv

            load_dotenv(Path.cwd() / ".env", override=False)
        env = os.environ
    token = env.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set: put your bot token in the DISCORD_TOKEN environment variable (or .env)"
        )
    db = Path(env.get("DATABASE_PATH", "").strip() or Path.cwd() / "var" / "tabletop.sqlite3")
    database_url = env.get("DATABASE_URL", "").strip() or None
    if database_url is not None and not database_url.startswith(("postgresql://", "postgres://")):
        raise ConfigError("DATABASE_URL must be a postgresql:// URL (leave it unset to use the SQLite file)")
    guilds: list[int] = []
    for part in env.get("DISCORD_GUILD_IDS", "").replace(" ", "").split(","):
        if not part:
            continue
        if not part.isdigit():
            raise ConfigError(f"DISCORD_GUILD_IDS must be comma-separated numeric ids, got {part!r}")
        guilds.append(int(part))
    level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
        raise ConfigError(f"LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, got {level!r}")
    api_base = env.get("DISCORD_API_BASE", "").strip().rstrip("/") or None
    try:
        interval = float(env.get("TIMER_INTERVAL", "20"))
    except ValueError as exc:
        raise ConfigError("TIMER_INTERVAL must be a number of seconds") from exc
    try:
        publish_interval = float(env.get("PUBLISH_INTERVAL", "4"))
    except ValueError as exc:
        raise ConfigError("PUBLISH_INTERVAL must be a number of seconds") from exc
    try:
        panel_refresh_delay = float(env.get("PANEL_REFRESH_DELAY", "1"))
    except ValueError as exc:
        raise ConfigError("PANEL_REFRESH_DELAY must be a number of seconds") from exc
    shard_count, shard_ids, auto_shards = shards(env)
    health_port = None
    raw_port = env.get("HEALTH_PORT", "").strip()
    if raw_port:
        if not raw_port.isdigit() or not 1 <= int(raw_port) <= 65535:
            raise ConfigError(f"HEALTH_PORT must be a TCP port number (1-65535), got {raw_port!r}")
        health_port = int(raw_port)
    web_port, web_base_url, web_host = web_settings(env)  # issue 29: the web pages (bot.web)
    log_format = env.get("LOG_FORMAT", "text").strip().lower() or "text"
    if log_format not in {"text", "json"}:
        raise ConfigError(f"LOG_FORMAT must be text or json, got {log_format!r}")
    return Config(
        limits=load_limits(env),
        shard_count=shard_count,
        shard_ids=shard_ids,
        auto_shards=auto_shards,
        health_port=health_port,
        web_port=web_port,
        web_base_url=web_base_url,
        web_host=web_host,
        log_format=log_format,
        publish_interval=max(0.0, publish_interval),
        panel_refresh_delay=max(0.0, panel_refresh_delay),
        token=token,
        database_path=db,
        database_url=database_url,
        guild_ids=tuple(guilds),
        log_level=level,
        api_base=api_base,
        timer_interval=max(0.2, interval),
    )


def web_settings(env: Mapping[str, str]) -> tuple[int | None, str | None, str]:
    """``(WEB_PORT, WEB_BASE_URL, WEB_HOST)`` checked (issue 29): the pages are off without a port; the
    base URL is where players reach them (``http(s)://host[:port][/prefix]``, default the bound address)."""
    raw_port = env.get("WEB_PORT", "").strip()
    base = env.get("WEB_BASE_URL", "").strip().rstrip("/") or None
    host = env.get("WEB_HOST", "").strip() or "127.0.0.1"
    if not raw_port:
        return None, base, host
    if not raw_port.isdigit() or not 1 <= int(raw_port) <= 65535:
        raise ConfigError(f"WEB_PORT must be a TCP port number (1-65535), got {raw_port!r}")
    if base is not None and not base.startswith(("https://", "http://")):
        raise ConfigError(f"WEB_BASE_URL must start with https:// (or http://), got {base!r}")
    return int(raw_port), base, host


MAX_SHARDS = 1 << 16  # far above any bot's count; a typo like 20000000 is caught


def shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None, bool]:
    """``(SHARD_COUNT, SHARD_IDS, auto)`` checked: ids are distinct, each below the count; ids
    need a numeric count (every process must agree on it, or guilds would be routed twice)."""
    raw_count = env.get("SHARD_COUNT", "").strip().lower()
    raw_ids = env.get("SHARD_IDS", "").replace(" ", "")
    if not raw_count:
        if raw_ids:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT (the total number of shards across every process)")
        return None, None, False
    if raw_count == "auto":
        if raw_ids:
            raise ConfigError("SHARD_IDS needs a numeric SHARD_COUNT, not auto (every process must use the same count)")
        return None, None, True
    if not raw_count.isdigit() or not 1 <= int(raw_count) <= MAX_SHARDS:
        raise ConfigError(f"SHARD_COUNT must be a whole number of shards from 1 to {MAX_SHARDS}, or auto; "
                          f"got {raw_count!r}")
    count = int(raw_count)
    if not raw_ids:
        return count, None, False
    ids: list[int] = []
    for part in raw_ids.split(","):
        if not part.isdigit():
            raise ConfigError(f"SHARD_IDS must be comma-separated shard numbers, got {part!r}")
        shard = int(part)
        if shard >= count:
            raise ConfigError(f"SHARD_IDS: shard {shard} does not exist with SHARD_COUNT={count} "
                              f"(shards are numbered 0 to {count - 1})")
        if shard in ids:
            raise ConfigError(f"SHARD_IDS names shard {shard} twice")
        ids.append(shard)
    return count, tuple(sorted(ids)), False
