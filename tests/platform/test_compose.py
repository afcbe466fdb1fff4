"""docker-compose.yml (issue 14's example deployment) parses and is consistent: PostgreSQL with a
health check, bot processes built from the Dockerfile with asyncpg, every shard run exactly once,
the same SHARD_COUNT everywhere, each process's health check on its HEALTH_PORT's /readyz, and each
process's environment accepted by the bot's own configuration check. The deployment itself is
rehearsed with real processes in tests/e2e/test_compose_e2e.py."""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from bot.core.config import load_config
from tests.compose_file import (
    ROOT,
    MissingVariable,
    bot_services,
    compose,
    duration,
    final_stage,
    health_argv,
    service_environment,
    substitute,
)

OPERATOR = {"DISCORD_TOKEN": "stand-in-token"}  # what `DISCORD_TOKEN=... docker compose up` supplies


def test_postgres_service_with_a_health_check() -> None:
    pg = compose()["services"]["postgres"]
    assert pg["image"] == "postgres:15"
    assert "pg_isready" in " ".join(pg["healthcheck"]["test"])
    assert pg["environment"]["POSTGRES_DB"] == "tabletop"


def test_two_bot_processes_share_the_database_and_split_the_shards() -> None:
    data = compose()
    bots = bot_services(data)
    assert sorted(bots) == ["bot-shard-0", "bot-shard-1"]
    assert (ROOT / "Dockerfile").exists() and "WITH_PG" in (ROOT / "Dockerfile").read_text(encoding="utf-8")
    shards: list[int] = []
    counts, urls = set(), set()
    for name, svc in bots.items():
        assert svc["build"]["context"] == "." and svc["build"]["args"]["WITH_PG"] == "1", name
        assert svc["depends_on"]["postgres"]["condition"] == "service_healthy", name
        env = service_environment(svc, OPERATOR)
        assert set(data["x-bot-env"]) <= set(env), name  # the anchor merged in, with the service's own on top
        config = load_config(env, read_dotenv=False)  # raises ConfigError on a bad value
        assert config.token == "stand-in-token"
        assert config.database_url is not None and "@postgres:5432/" in config.database_url
        assert config.shard_ids is not None and config.shard_count is not None and config.log_format == "json"
        shards += config.shard_ids
        counts.add(config.shard_count)
        urls.add(config.database_url)
        check = " ".join(svc["healthcheck"]["test"])
        assert f"http://127.0.0.1:{config.health_port}/readyz" in check, (name, check)
    assert len(counts) == 1 and len(urls) == 1
    assert sorted(shards) == list(range(counts.pop()))  # each shard in exactly one process


def test_the_compose_file_needs_the_token_and_defaults_the_password() -> None:
    bot = compose()["services"]["bot-shard-0"]
    with pytest.raises(MissingVariable, match="DISCORD_TOKEN"):  # compose refuses to start without it
        service_environment(bot, {})
    url = service_environment(bot, OPERATOR)["DATABASE_URL"]
    assert url == "postgresql://tabletop:tabletop@postgres:5432/tabletop"
    secret = service_environment(bot, {**OPERATOR, "POSTGRES_PASSWORD": "s3cret"})["DATABASE_URL"]
    assert secret == "postgresql://tabletop:s3cret@postgres:5432/tabletop"


def test_substitution_follows_compose() -> None:
    assert substitute("a${X:-d}b", {}) == "adb"
    assert substitute("${X:-d}", {"X": ""}) == "d"  # ':' treats empty as unset
    assert substitute("${X-d}", {"X": ""}) == ""
    assert substitute("$X/${X}/$$X", {"X": "v"}) == "v/v/$X"
    with pytest.raises(MissingVariable, match="X: needed"):
        substitute("${X:?needed}", {"X": ""})
    assert duration("15s") == 15 and duration("1m30s") == 90 and duration("500ms") == 0.5
    with pytest.raises(ValueError):
        duration("15 seconds")
    assert health_argv(["CMD-SHELL", "pg_isready -U x"]) == ["/bin/sh", "-c", "pg_isready -U x"]
    assert health_argv(["CMD", "python", "-c", "pass"]) == ["python", "-c", "pass"]


def test_the_image_runs_the_bot_module_and_stops_on_sigterm() -> None:
    stage = final_stage()
    assert stage.base.startswith("python:3.11")
    assert stage.command() == ["python", "-m", "bot"]  # no ENTRYPOINT; bot/__main__.py
    assert (ROOT / "bot" / "__main__.py").exists()
    assert stage.all("STOPSIGNAL") == ["SIGTERM"]
    assert stage.env()["PYTHONUNBUFFERED"] == "1"  # log lines leave the container as they are written


def locked(path: Path) -> dict[str, tuple[str, list[str]]]:
    """A pip-compile lock as {canonical name: (pinned version, its sha256 hashes)}; every requirement
    in it must be pinned with ``==``."""
    text = path.read_text(encoding="utf-8").replace("\\\n", " ")
    out: dict[str, tuple[str, list[str]]] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("-"):  # comments, --find-links
            continue
        spec, *options = line.split(" --hash=")
        requirement = Requirement(spec.strip())
        (pin,) = requirement.specifier
        assert pin.operator == "==", f"{path.name}: {spec} is not pinned"
        out[canonicalize_name(requirement.name)] = (pin.version, [o.strip() for o in options])
    return out


def test_the_with_pg_image_installs_the_pg_extra_from_a_hashed_lock() -> None:
    """``--build-arg WITH_PG=1`` installs every requirement of pyproject's ``pg`` extra (the one the
    README's ``pip install '.[pg]'`` names), asyncpg among them, at versions the extra allows, from a
    lock with hashes and ``--require-hashes`` like the rest of the image (issue 23, item 11)."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    wanted = {canonicalize_name(r.name): r for r in map(Requirement, extras["pg"])}
    assert "asyncpg" in wanted
    stage = final_stage()
    assert any(re.fullmatch(r"WITH_PG=0", arg) for arg in stage.all("ARG"))  # off unless asked for
    runs = [run for run in stage.all("RUN") if "WITH_PG" in run]
    assert len(runs) == 1, runs
    assert '"$WITH_PG" = "1"' in runs[0], runs[0]
    words = shlex.split(runs[0].split("pip install", 1)[1].split(";")[0].split("&&")[0])
    assert "--require-hashes" in words, runs[0]
    assert [w for w in words if not w.startswith("-") and w != words[words.index("-r") + 1]] == [], words
    in_image = words[words.index("-r") + 1]
    copies = {shlex.split(c)[-1]: shlex.split(c)[0] for c in stage.all("COPY") if not c.startswith("--from")}
    assert in_image in copies, f"{in_image} is not copied into the image"
    pins = locked(ROOT / copies[in_image])
    for name, requirement in wanted.items():
        assert name in pins, f"WITH_PG=1 does not install {requirement} (pyproject's pg extra)"
        version, hashes = pins[name]
        assert requirement.specifier.contains(version), f"{name}=={version} is outside the pg extra's {requirement}"
    for name, (_version, hashes) in pins.items():
        assert hashes and all(re.fullmatch(r"sha256:[0-9a-f]{64}", h) for h in hashes), f"{name} has no hashes"


@pytest.mark.parametrize("lock", ["requirements.lock", "requirements-pg.lock"])
def test_every_locked_direct_dependency_is_within_pyproject(lock: str) -> None:
    """The locks and pyproject's ranges agree: every pin of a direct dependency (or of an extra) is one
    pyproject allows, so raising a lower bound past an advisory cannot leave the lock behind it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    direct = [Requirement(r) for r in project["dependencies"]]
    direct += [Requirement(r) for r in project["optional-dependencies"]["pg"]]
    pins = locked(ROOT / lock)
    checked = 0
    for requirement in direct:
        name = canonicalize_name(requirement.name)
        if name in pins:
            checked += 1
            assert requirement.specifier.contains(pins[name][0]), f"{lock}: {name}=={pins[name][0]} vs {requirement}"
    assert checked >= 2


# the first release past every known advisory of a direct dependency (issue 23, item 11), as published
# in the GitHub / PyPA advisory databases
ADVISORY_FLOORS = {
    "aiohttp": "3.14.5",  # GHSA-2g87-pp6c-29x5, GHSA-5wr8-gcqf-gqf3, GHSA-494j-54xm-rwp3 (and 3.13.4's batch)
    "pillow": "12.2.0",  # PYSEC-2026-2251 (nested coordinate lists); CVE-2024-28219 was 10.3.0
    "python-dotenv": "1.2.2",  # CVE-2026-28684 (set_key follows symlinks)
    "orjson": "3.9.15",  # CVE-2024-27454 (unbounded recursion)
}


def test_pyproject_lower_bounds_are_past_known_advisories() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    groups = [project["dependencies"], *project["optional-dependencies"].values()]
    seen = set()
    for requirement in (Requirement(r) for group in groups for r in group):
        name = canonicalize_name(requirement.name)
        if name not in ADVISORY_FLOORS:
            continue
        seen.add(name)
        floor = Version(ADVISORY_FLOORS[name])
        lower = [Version(s.version) for s in requirement.specifier if s.operator in (">=", ">", "==", "~=")]
        assert lower and max(lower) >= floor, f"{requirement} admits a release before {floor}"
    assert seen == set(ADVISORY_FLOORS)
