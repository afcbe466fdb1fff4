"""``WEB_PORT``, ``WEB_BASE_URL`` and ``WEB_HOST`` (issue 29): off by default, checked when set."""

from __future__ import annotations

import pytest

from bot.core.config import ConfigError, load_config


def test_off_without_a_port() -> None:
    c = load_config({"DISCORD_TOKEN": "x"}, read_dotenv=False)
    assert c.web_port is None and c.web_host == "127.0.0.1"


def test_port_base_and_host() -> None:
    c = load_config({"DISCORD_TOKEN": "x", "WEB_PORT": "8088", "WEB_BASE_URL": "https://games.example.org/tt/",
                     "WEB_HOST": "0.0.0.0"}, read_dotenv=False)
    assert (c.web_port, c.web_base_url, c.web_host) == (8088, "https://games.example.org/tt", "0.0.0.0")


@pytest.mark.parametrize("env", [{"WEB_PORT": "http"}, {"WEB_PORT": "70000"}, {"WEB_PORT": "0"},
                                 {"WEB_PORT": "8088", "WEB_BASE_URL": "games.example.org"},
                                 {"WEB_PORT": "8088", "WEB_BASE_URL": "javascript:alert(1)"}])
def test_bad_values_name_the_variable(env: dict[str, str]) -> None:
    with pytest.raises(ConfigError, match="WEB_"):
        load_config({"DISCORD_TOKEN": "x", **env}, read_dotenv=False)
