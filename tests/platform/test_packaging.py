"""The wheel runs outside the repository: data files are package data, and the pins hold.

The test builds the wheel from a copy of the sources, installs it into a fresh venv the way the
Dockerfile does (dependencies from ``requirements.lock`` with ``--require-hashes``, then the wheel
with ``--no-deps``), and from a directory outside the repository (1) loads every game's data, starts
a game with its default options and renders its board in both languages, and (2) runs the real bot
from that venv against the fake Discord and opens a lobby. Dependencies come from a local wheelhouse
(``var/wheelhouse``, or ``$TABLETOP_WHEELHOUSE``), filled from the package index on the first run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.fake_discord import BotProcess, FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
WHEELHOUSE = Path(os.environ.get("TABLETOP_WHEELHOUSE", ROOT / "var" / "wheelhouse"))
SOURCES = ("bot", "cogs", "render", "data", "pyproject.toml", "README.md")
BUILD_REQUIREMENTS = ("setuptools>=68", "wheel")

CHECK = r"""
import sys
from pathlib import Path

import bot, bot.core.paths, tabletop_data
from bot.games import registry
from bot.games.base import Player, Rng
from bot.core.i18n import catalogue, t

repo = Path(sys.argv[1])
for module in (bot, tabletop_data):
    assert repo not in Path(module.__file__).resolve().parents, module.__file__
assert bot.core.paths.DATA_DIR == Path(tabletop_data.__file__).resolve().parent, bot.core.paths.DATA_DIR
assert len(catalogue()) > 50
for key in registry.GAMES:
    cls = registry.game_class(key)
    options = cls.default_options()
    low, _ = cls.player_range(options)
    arrangement = cls.arrange_seats([Player(user_id=i + 1) for i in range(low)], options, Rng(11))
    game = cls.new(arrangement.seat_info, options, 11)
    for lang in ("ru", "en"):
        assert t(key + ".name", lang) != key + ".name"
        png = registry.renderer(key)(game.view(None), lang)
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000, (key, lang, len(png))
    print("rendered", key)
"""


def run(*args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None,
        timeout: float = 300) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True,
                            timeout=timeout)
    assert result.returncode == 0, f"{args}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


def offline(*args: str | Path) -> list[str]:
    return [sys.executable, "-m", "pip", *map(str, args), "--no-index", "--find-links", str(WHEELHOUSE),
            "--disable-pip-version-check", "-q"]


def fill_wheelhouse() -> None:
    """Download what the offline steps need, once; later runs find everything in the wheelhouse."""
    WHEELHOUSE.mkdir(parents=True, exist_ok=True)
    pip = [sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check", "-d", str(WHEELHOUSE)]
    run(*pip, "--only-binary=:all:", "-r", ROOT / "requirements.lock")
    run(*pip, *BUILD_REQUIREMENTS)


def build_and_install(tmp: Path) -> Path:
    src = tmp / "src"
    src.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(ROOT / name, src / name)
    venv = tmp / "venv"
    # no pip of its own: this pip installs into it (``--python``), which spares unpacking a pip into every
    # test venv; nothing is compiled ahead either (``--no-compile``): the checks import a fraction of it
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    into = ("--python", python)

    def install() -> None:
        # Build with an isolated build environment (setuptools from the wheelhouse), like the Dockerfile.
        run(*offline("wheel", "--no-deps", "-w", tmp / "dist", src))
        run(*offline(*into, "install", "--no-compile", "--require-hashes", "-r", ROOT / "requirements.lock"))

    try:
        install()
    except AssertionError:
        fill_wheelhouse()
        install()
    wheel = next((tmp / "dist").glob("tabletop_bot-*.whl"))
    run(*offline(*into, "install", "--no-compile", "--no-deps", wheel))
    run(sys.executable, "-m", "pip", *into, "check")
    return python


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_and_install(tmp_path_factory.mktemp("wheel"))


def test_installed_wheel_loads_every_game_and_renders(installed: Path, tmp_path: Path) -> None:
    from bot.games.registry import GAMES

    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    out = run(installed, "-I", "-c", CHECK, ROOT, cwd=tmp_path, env=env).stdout
    assert sorted(re.findall(r"^rendered (\w+)$", out, re.M)) == sorted(GAMES)


def test_installed_wheel_carries_every_data_file(installed: Path) -> None:
    """Every file under data/ (a new game's data included) is in the installed package."""
    site = Path(run(installed, "-I", "-c", "import tabletop_data, os; print(os.path.dirname(tabletop_data.__file__))")
                .stdout.strip())
    wanted = {p.relative_to(ROOT / "data") for p in (ROOT / "data").rglob("*")
              if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}
    have = {p.relative_to(site) for p in site.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert wanted - have == set()


def test_every_python_package_is_listed_for_the_wheel() -> None:
    """pyproject.toml lists the packages explicitly (data/ is mapped to tabletop_data, which
    automatic discovery cannot do): a new package directory must be added there."""
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(meta["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for top in ("bot", "cogs", "render")
             for p in (ROOT / top).rglob("__init__.py") if "__pycache__" not in p.parts}
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
    assert meta["tool"]["setuptools"]["package-dir"] == {"tabletop_data": "data"}


def test_lock_pins_what_pyproject_asks_for() -> None:
    """The lock file pins exactly one version of each runtime dependency, each with hashes."""
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    lock = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    pins = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+) \\$", lock, re.M))
    norm = {re.sub(r"[-_.]+", "-", k).lower(): v for k, v in pins.items()}
    for requirement in meta["project"]["dependencies"]:
        name = re.sub(r"[-_.]+", "-", re.split(r"[<>=!~ ;\[]", requirement, maxsplit=1)[0]).lower()
        assert name in norm, name
    # discord.py stays on the minor version tests/fake_discord is verified against.
    assert norm["discord-py"].startswith("2.7.")
    assert any(re.fullmatch(r"discord\.py>=2\.7(\.\d+)?,<2\.8", r) for r in meta["project"]["dependencies"])
    blocks = re.split(r"\n(?=\S)", lock)
    assert all("--hash=sha256:" in b for b in blocks if re.match(r"[A-Za-z0-9]", b))


async def test_installed_bot_runs_against_fake_discord(installed: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m bot`` from the venv, outside the repo: it connects, syncs and opens a lobby."""
    outside = tmp_path / "cwd"
    outside.mkdir()
    monkeypatch.delenv("PYTHONPATH", raising=False)
    # BotProcess runs ``sys.executable -m bot``: point it at the venv's interpreter for this test.
    monkeypatch.setattr(sys, "executable", str(installed))
    async with FakeDiscord() as fake:
        guild = fake.create_guild("Wheel")
        channel = fake.create_channel(guild, "games")
        alice = fake.create_user("alice", locale="ru")
        fake.add_member(guild, alice)
        bot = BotProcess(fake, tmp_path / "bot.sqlite3", guild_ids=[guild.id], cwd=outside)
        await bot.start(timeout=60)
        r = await fake.slash(alice, channel, "game new", game="pobeda")
        assert not r.ephemeral, r.content
        # The lobby is in Russian: the translations came from the installed package.
        from bot.core.i18n import t

        assert t("pobeda.name", "ru") in r.text
        await bot.stop()
        assert bot.returncode == 0, bot.output()[-3000:]
