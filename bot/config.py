"""Configuration from environment variables (and an optional ``.env`` in the working directory)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path


class ConfigError(Exception):
    """A configuration problem, reported to the operator as one clear line."""


@dataclass(frozen=True)
class Config:
    token: str
    database_path: Path
    guild_ids: tuple[int, ...] = ()
    log_level: str = "INFO"
    api_base: str | None = None
    timer_interval: float = 20.0
    publish_interval: float = 4.0
    database_url: str | None = None
    """``DATABASE_URL`` (postgresql://…): the store lives in PostgreSQL instead of ``database_path``."""
    extra: dict[str, str] = field(default_factory=dict)


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
    return Config(
        publish_interval=max(0.0, publish_interval),
        token=token,
        database_path=db,
        database_url=database_url,
        guild_ids=tuple(guilds),
        log_level=level,
        api_base=api_base,
        timer_interval=max(0.2, interval),
    )
