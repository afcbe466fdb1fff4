"""``LOG_FORMAT=json``: one JSON object per log line (issue 14), for log collectors that merge the
lines of several bot processes. The default ``text`` format is unchanged.

Each object has ``time`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger``, ``message``,
``shards`` (this process's shard ids; ``[0]`` unsharded, ``"auto"`` when Discord picks the count),
``game_id`` when the record carries one (``log.info(..., extra={"game_id": id})``), and
``exception`` (the formatted traceback) when there is one.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

from bot.config import Config


def process_shards(config: Config) -> list[int] | str:
    if not config.sharded:
        return [0]
    own = config.own_shards
    return list(own) if own is not None else "auto"


class JsonFormatter(logging.Formatter):
    def __init__(self, shards: list[int] | str) -> None:
        super().__init__()
        self.shards = shards

    def format(self, record: logging.LogRecord) -> str:
        stamp = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
        entry: dict[str, object] = {
            "time": stamp.replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "shards": self.shards,
        }
        game_id = getattr(record, "game_id", None)
        if game_id is not None:
            entry["game_id"] = game_id
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def handler_for(config: Config) -> logging.Handler | None:
    """The root handler for ``LOG_FORMAT=json`` (stderr, like the text format), or None for text."""
    if config.log_format != "json":
        return None
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter(process_shards(config)))
    return handler
