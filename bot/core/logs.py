"""``LOG_FORMAT=json``: one JSON object per log line (issue 14), for log collectors that merge the
lines of several bot processes. The default ``text`` format is unchanged.

Each object has ``time`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger``, ``message``,
``shards`` (this process's shard ids; ``[0]`` unsharded, ``"auto"`` when Discord picks the count),
``game_id`` when the record carries one (``extra={"game_id": id}``, or the argument the project's
log lines put after the word "game", as in ``log.info("game %s: ...", game_id)``), and
``exception`` (the formatted traceback) when there is one.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime

from bot.core.config import Config


def process_shards(config: Config) -> list[int] | str:
    if not config.sharded:
        return [0]
    own = config.own_shards
    return list(own) if own is not None else "auto"


PLACEHOLDER = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(?:\d+|\*)?(?:\.\d+)?[a-zA-Z%]")


def logged_game_id(record: logging.LogRecord) -> int | None:
    """The game id of a record: ``extra={"game_id": ...}``, else the argument whose placeholder
    follows the word "game" in the format string ("game %s", "of game %s")."""
    explicit = getattr(record, "game_id", None)
    if explicit is not None:
        return int(explicit)
    if not isinstance(record.msg, str) or not isinstance(record.args, tuple):
        return None
    index = 0
    for match in PLACEHOLDER.finditer(record.msg):
        if match.group() == "%%":
            continue
        if record.msg[:match.start()].endswith("game ") and index < len(record.args):
            value = record.args[index]
            if isinstance(value, int) and not isinstance(value, bool):
                return value
            if isinstance(value, str) and value.isdigit():
                return int(value)
            return None
        index += 1
    return None


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
        game_id = logged_game_id(record)
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
