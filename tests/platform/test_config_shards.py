"""SHARD_COUNT / SHARD_IDS / HEALTH_PORT / LOG_FORMAT (issue 14): checked at start with one clear line."""

from __future__ import annotations

import pytest

from bot.core.config import Config, ConfigError, load_config


def cfg(**env: str) -> Config:
    return load_config({"DISCORD_TOKEN": "x", **env}, read_dotenv=False)


def test_unsharded_by_default() -> None:
    config = cfg()
    assert (config.shard_count, config.shard_ids, config.auto_shards, config.sharded) == (None, None, False, False)
    assert config.own_shards is None
    assert config.health_port is None and config.log_format == "text"


def test_count_alone_runs_every_shard_here() -> None:
    config = cfg(SHARD_COUNT="2")
    assert config.sharded and config.shard_count == 2 and config.shard_ids is None
    assert config.own_shards == (0, 1)


def test_ids_are_parsed_sorted_and_spaces_ignored() -> None:
    config = cfg(SHARD_COUNT="4", SHARD_IDS=" 3, 1")
    assert config.shard_ids == (1, 3) and config.own_shards == (1, 3)


def test_auto() -> None:
    config = cfg(SHARD_COUNT="auto")
    assert config.sharded and config.auto_shards and config.shard_count is None and config.own_shards is None


@pytest.mark.parametrize(("env", "names"), [
    ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
    ({"SHARD_COUNT": "auto", "SHARD_IDS": "0"}, "numeric SHARD_COUNT"),
    ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number"),
    ({"SHARD_COUNT": "-2"}, "SHARD_COUNT must be a whole number"),
    ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
    ({"SHARD_COUNT": "99999999"}, "SHARD_COUNT must be a whole number"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "shard 2 does not exist with SHARD_COUNT=2"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "0,x"}, "comma-separated shard numbers, got 'x'"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "names shard 1 twice"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "0,,1"}, "comma-separated shard numbers, got ''"),
    ({"HEALTH_PORT": "http"}, "HEALTH_PORT must be a TCP port"),
    ({"HEALTH_PORT": "70000"}, "HEALTH_PORT must be a TCP port"),
    ({"HEALTH_PORT": "0"}, "HEALTH_PORT must be a TCP port"),
    ({"LOG_FORMAT": "xml"}, "LOG_FORMAT must be text or json"),
])
def test_bad_values_name_the_variable(env: dict[str, str], names: str) -> None:
    with pytest.raises(ConfigError) as caught:
        cfg(**env)
    assert names in str(caught.value)
    assert "\n" not in str(caught.value)


def test_health_port_and_json_logs() -> None:
    config = cfg(HEALTH_PORT="8081", LOG_FORMAT="JSON")
    assert config.health_port == 8081 and config.log_format == "json"


def test_part_of_the_shards_on_sqlite_is_warned_once_at_start() -> None:
    from bot.core.shards import store_warning

    assert store_warning(cfg()) is None
    assert store_warning(cfg(SHARD_COUNT="2")) is None  # every shard in this process
    assert store_warning(cfg(SHARD_COUNT="2", SHARD_IDS="0,1")) is None
    assert store_warning(cfg(SHARD_COUNT="2", SHARD_IDS="1", DATABASE_URL="postgresql://h/db")) is None
    line = store_warning(cfg(SHARD_COUNT="2", SHARD_IDS="1", DATABASE_PATH="/srv/t.sqlite3"))
    assert line is not None and "SHARD_IDS=1 runs 1 of 2 shards" in line and "/srv/t.sqlite3" in line
    assert "DATABASE_URL" in line and "\n" not in line
