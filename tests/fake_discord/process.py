"""BotProcess: run the real bot (``python -m bot`` by default) as a subprocess against a FakeDiscord."""

from __future__ import annotations

import asyncio
import codecs
import os
import signal
import sys
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from .server import FakeDiscord

REPO_ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    """A bot subprocess wired to ``fake`` through environment variables.

    ``start()`` returns once the process has IDENTIFYed on the fake gateway *and* (unless
    ``wait_for_sync=False``) PUT its commands for every guild in ``guild_ids`` (or globally when
    ``guild_ids`` is empty) since this start, and (if ``ready_log`` is set) the run's output contains
    that text, e.g. the bot's on_ready log line. Note discord.py fires on_ready only
    ``guild_ready_timeout`` (2 s) after the last GUILD_CREATE; interactions are handled before that.
    ``output()`` is the combined stdout+stderr of every run.
    """

    made: ClassVar[list[BotProcess]] = []
    """Every bot process object of this test process, in the order they were made (``tests/conftest.py``
    shows what those of a failed test logged)."""

    def __init__(
        self,
        fake: FakeDiscord,
        db_path: str | os.PathLike[str],
        guild_ids: Iterable[int] = (),
        extra_env: Mapping[str, str] | None = None,
        *,
        module: str = "bot",
        cwd: str | os.PathLike[str] = REPO_ROOT,
        token: str = "fake-token",
        wait_for_sync: bool = True,
        ready_log: str | None = None,
    ) -> None:
        self.fake = fake
        self.db_path = str(db_path)
        self.guild_ids = [int(g) for g in guild_ids]
        self.extra_env = dict(extra_env or {})
        self.module = module
        self.cwd = str(cwd)
        self.token = token
        self.wait_for_sync = wait_for_sync
        self.ready_log = ready_log
        self.proc: asyncio.subprocess.Process | None = None
        self.runs = 0
        BotProcess.made.append(self)
        self._chunks: list[str] = []
        self._reader: asyncio.Task[None] | None = None
        fake._processes.append(self)

    @property
    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            DISCORD_TOKEN=self.token,
            DISCORD_API_BASE=self.fake.api_base,
            DATABASE_PATH=self.db_path,
            DISCORD_GUILD_IDS=",".join(str(g) for g in self.guild_ids),
            LOG_LEVEL="DEBUG",
            PYTHONUNBUFFERED="1",
        )
        env.update(self.extra_env)
        return env

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode if self.proc else None

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def output(self) -> str:
        return "".join(self._chunks)

    async def _pump(self, stream: asyncio.StreamReader) -> None:
        # Chunked reads, not readline(): DEBUG logs of big gateway payloads exceed the 64 KiB line
        # limit, and a pump that dies stops draining the pipe, which would freeze the bot.
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        while True:
            chunk = await stream.read(65536)
            if not chunk:
                self._chunks.append(decoder.decode(b"", final=True))
                return
            self._chunks.append(decoder.decode(chunk))
            self.fake.changed()  # a wait on the output looks again

    async def start(self, timeout: float = 30.0) -> None:
        if self.running:
            raise RuntimeError("bot process already running")
        t0 = time.monotonic()
        self.runs += 1
        self._chunks.append(f"----- run {self.runs}: python -m {self.module} -----\n")
        first_chunk = len(self._chunks)
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            self.module,
            cwd=self.cwd,
            env=self.env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        assert self.proc.stdout is not None
        self._reader = asyncio.get_running_loop().create_task(self._pump(self.proc.stdout))

        def ready() -> bool:
            if not self.running:
                raise RuntimeError(
                    f"bot exited with {self.returncode} during startup:\n{self.output()[-6000:]}"
                )
            if not any(t >= t0 for t, _ in self.fake.identifies):
                return False
            if self.ready_log is not None and self.ready_log not in "".join(self._chunks[first_chunk:]):
                return False
            if not self.wait_for_sync:
                return True
            synced = {g for t, g in self.fake.sync_log if t >= t0}
            wanted = set(self.guild_ids) if self.guild_ids else {None}
            return wanted <= synced

        try:
            await self.fake.wait_for(ready, timeout=timeout)
        except TimeoutError:
            raise TimeoutError(
                f"bot did not identify+sync within {timeout}s; unknown routes: "
                f"{self.fake.unknown_routes}\n{self.output()[-6000:]}"
            ) from None

    async def _finish(self, timeout: float) -> None:
        assert self.proc is not None
        try:
            await asyncio.wait_for(self.proc.wait(), timeout)
        finally:
            if self._reader is not None:
                try:
                    await asyncio.wait_for(self._reader, 2)
                except TimeoutError:
                    self._reader.cancel()
                self._reader = None

    async def kill(self) -> None:
        """SIGKILL (no cleanup in the bot; its gateway socket just drops)."""
        if self.running:
            assert self.proc is not None
            self.proc.send_signal(signal.SIGKILL)
        if self.proc is not None:
            await self._finish(10)

    async def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM, then SIGKILL if it has not exited after ``timeout`` seconds."""
        if self.running:
            assert self.proc is not None
            self.proc.send_signal(signal.SIGTERM)
            try:
                await self._finish(timeout)
            except TimeoutError:
                await self.kill()
        elif self.proc is not None:
            await self._finish(timeout)
