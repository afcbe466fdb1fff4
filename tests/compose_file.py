"""Reading issue 14's example deployment as Docker would: ``docker-compose.yml`` (services, their merged
environments with ``${VAR}`` substituted, health checks, durations) and the ``Dockerfile``'s final
stage (ENV, CMD/ENTRYPOINT, STOPSIGNAL, the RUN lines). Shared by the compose file's unit tests
(tests/platform/test_compose.py) and its rehearsal (tests/e2e/test_compose_e2e.py)."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
TO_JSON = "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1], encoding='utf-8'))))"
COMPOSE_STOP_GRACE = 10.0
"""Seconds ``docker compose down``/``stop`` waits after the stop signal before SIGKILL, unless a
service sets ``stop_grace_period``."""

_VARIABLE = re.compile(r"\$(?:(\$)|\{(\w+)(?:(:?)([-?])([^}]*))?\}|(\w+))")


class MissingVariable(KeyError):
    """A ``${VAR:?message}`` (or ``${VAR?message}``) whose variable is not set: compose refuses to start."""


def substitute(value: str, variables: Mapping[str, str]) -> str:
    """Compose's interpolation of ``value`` with ``variables`` (the operator's shell or .env):
    ``$VAR``, ``${VAR}``, ``${VAR:-default}``/``${VAR-default}``, ``${VAR:?message}``/``${VAR?message}``
    and ``$$`` for a dollar sign. ``:`` treats an empty variable as unset, as compose does."""

    def one(m: re.Match[str]) -> str:
        escaped, name, colon, kind, arg, bare = m.groups()
        if escaped:
            return "$"
        if bare:
            return variables.get(bare, "")
        current = variables.get(name)
        unset = current is None or (colon == ":" and current == "")
        if kind == "-":
            return arg if unset else str(current)
        if kind == "?":
            if unset:
                raise MissingVariable(f"{name}: {arg}")
            return str(current)
        return current or ""

    return _VARIABLE.sub(one, value)


def yaml_reader() -> list[str]:
    """A Python that has PyYAML: this one, else the system's (PyYAML is no dependency of the bot)."""
    for python in (sys.executable, "/usr/bin/python3", shutil.which("python3") or ""):
        if python and subprocess.run([python, "-c", "import yaml"], capture_output=True).returncode == 0:
            return [python, "-c", TO_JSON]
    pytest.skip("no Python with PyYAML here to parse docker-compose.yml")


def compose() -> dict[str, Any]:
    """docker-compose.yml as data; PyYAML's safe loader resolves the ``<<: *anchor`` merges as compose does."""
    out = subprocess.run([*yaml_reader(), str(COMPOSE)], capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def bot_services(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The services built from the Dockerfile (the bot processes), by name."""
    return {name: svc for name, svc in data["services"].items() if "build" in svc}


def service_environment(service: dict[str, Any], variables: Mapping[str, str]) -> dict[str, str]:
    """The ``environment`` compose gives the container (mapping or ``KEY=value`` list), substituted."""
    raw = service.get("environment") or {}
    if isinstance(raw, list):  # ["KEY=value", "KEY"] (a bare KEY takes the operator's value)
        raw = {item.partition("=")[0]: item.partition("=")[2] if "=" in item else variables.get(item)
               for item in raw}
    return {str(k): substitute(str(v), variables) for k, v in raw.items() if v is not None}


def duration(text: str | int | float) -> float:
    """Seconds of a compose duration such as ``15s``, ``1m30s``, ``500ms`` (a bare number is seconds)."""
    if isinstance(text, (int, float)):
        return float(text)
    units = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 0.001, "us": 1e-6}
    parts = re.findall(r"(\d+(?:\.\d+)?)(h|ms|us|m|s)", text)
    if not parts or "".join(n + u for n, u in parts) != text:
        raise ValueError(f"not a compose duration: {text!r}")
    return sum(float(n) * units[u] for n, u in parts)


def health_argv(test: list[str] | str) -> list[str]:
    """The argv Docker runs for a healthcheck ``test``: ``CMD`` runs its arguments as they are,
    ``CMD-SHELL`` (and a plain string) through ``/bin/sh -c``."""
    if isinstance(test, str):
        return ["/bin/sh", "-c", test]
    kind, *rest = test
    if kind == "CMD":
        return list(rest)
    if kind == "CMD-SHELL":
        return ["/bin/sh", "-c", " ".join(rest)]
    raise ValueError(f"healthcheck test {test!r}: neither CMD nor CMD-SHELL")


@dataclass
class Stage:
    """One ``FROM`` stage of a Dockerfile: its instructions, in order, as (INSTRUCTION, arguments)."""

    base: str
    instructions: list[tuple[str, str]] = field(default_factory=list)

    def all(self, name: str) -> list[str]:
        return [args for instr, args in self.instructions if instr == name]

    def env(self) -> dict[str, str]:
        """Every ``ENV`` of the stage (``KEY=value`` pairs; the old ``ENV KEY value`` form too)."""
        result: dict[str, str] = {}
        for args in self.all("ENV"):
            words = shlex.split(args)
            if words and "=" not in words[0]:
                result[words[0]] = args.split(None, 1)[1].strip() if len(words) > 1 else ""
                continue
            for word in words:
                key, _, value = word.partition("=")
                result[key] = value
        return result

    def exec_form(self, name: str) -> list[str] | None:
        """The last ``CMD``/``ENTRYPOINT`` as the argv Docker runs (the shell form via ``/bin/sh -c``)."""
        found = self.all(name)
        if not found:
            return None
        args = found[-1]
        if args.startswith("["):
            value = json.loads(args)
            assert isinstance(value, list) and all(isinstance(v, str) for v in value), args
            return value
        return ["/bin/sh", "-c", args]

    def command(self) -> list[str]:
        """What the container runs: ENTRYPOINT followed by CMD (either may be absent)."""
        return (self.exec_form("ENTRYPOINT") or []) + (self.exec_form("CMD") or [])


def dockerfile_stages(path: Path = DOCKERFILE) -> list[Stage]:
    """The Dockerfile's stages, with continuation lines joined and comments dropped."""
    logical: list[str] = []
    pending = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        logical.append(pending + stripped)
        pending = ""
    if pending:
        logical.append(pending)
    stages: list[Stage] = []
    for entry in logical:
        instr, _, args = entry.partition(" ")
        instr, args = instr.upper(), args.strip()
        if instr == "FROM":
            stages.append(Stage(args))
        elif stages:
            stages[-1].instructions.append((instr, args))
    return stages


def final_stage(path: Path = DOCKERFILE) -> Stage:
    """The stage the image is made of (the last one)."""
    stages = dockerfile_stages(path)
    assert stages, f"{path}: no FROM"
    return stages[-1]
