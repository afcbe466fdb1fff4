"""docker-compose.yml (issue 14's example deployment) parses and is consistent: PostgreSQL with a
health check, bot processes built from the Dockerfile with asyncpg, every shard run exactly once,
the same SHARD_COUNT everywhere, each process's health check on its HEALTH_PORT's /readyz, and each
process's environment accepted by the bot's own configuration check."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.config import load_config

ROOT = Path(__file__).resolve().parents[2]
TO_JSON = "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1], encoding='utf-8'))))"


def substitute(value: str) -> str:
    """Compose's ${VAR:-default} and ${VAR:?message} with the variables unset (a stand-in token)."""
    value = re.sub(r"\$\{(\w+):-([^}]*)\}", lambda m: m.group(2), value)
    return re.sub(r"\$\{(\w+):\?[^}]*\}", lambda m: f"<{m.group(1)}>", value)


def yaml_reader() -> list[str]:
    """A Python that has PyYAML: this one, else the system's (PyYAML is no dependency of the bot)."""
    for python in (sys.executable, "/usr/bin/python3", shutil.which("python3") or ""):
        if python and subprocess.run([python, "-c", "import yaml"], capture_output=True).returncode == 0:
            return [python, "-c", TO_JSON]
    pytest.skip("no Python with PyYAML here to parse docker-compose.yml")


def compose() -> dict[str, Any]:
    out = subprocess.run([*yaml_reader(), str(ROOT / "docker-compose.yml")], capture_output=True, text=True,
                         check=True).stdout
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def test_postgres_service_with_a_health_check() -> None:
    pg = compose()["services"]["postgres"]
    assert pg["image"] == "postgres:15"
    assert "pg_isready" in " ".join(pg["healthcheck"]["test"])
    assert pg["environment"]["POSTGRES_DB"] == "tabletop"


def test_two_bot_processes_share_the_database_and_split_the_shards() -> None:
    data = compose()
    bots = {name: svc for name, svc in data["services"].items() if name.startswith("bot")}
    assert len(bots) == 2
    assert (ROOT / "Dockerfile").exists() and "WITH_PG" in (ROOT / "Dockerfile").read_text(encoding="utf-8")
    shards: list[int] = []
    counts, urls = set(), set()
    for name, svc in bots.items():
        assert svc["build"]["context"] == "." and svc["build"]["args"]["WITH_PG"] == "1", name
        assert svc["depends_on"]["postgres"]["condition"] == "service_healthy", name
        env = {k: substitute(str(v)) for k, v in svc["environment"].items()}
        config = load_config(env, read_dotenv=False)  # raises ConfigError on a bad value
        assert config.database_url is not None and "@postgres:5432/" in config.database_url
        assert config.shard_ids is not None and config.shard_count is not None and config.log_format == "json"
        shards += config.shard_ids
        counts.add(config.shard_count)
        urls.add(config.database_url)
        check = " ".join(svc["healthcheck"]["test"])
        assert f"http://127.0.0.1:{config.health_port}/readyz" in check, (name, check)
    assert len(counts) == 1 and len(urls) == 1
    assert sorted(shards) == list(range(counts.pop()))  # each shard in exactly one process
