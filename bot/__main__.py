"""``python -m bot``: run the bot. Exit status 2 with one clear line on a configuration error.

Starting while Discord cannot be reached (no DNS, connection refused, a timeout, a 5xx) is not an
error: one warning line says so, and the bot retries with backoff until Discord answers. SIGTERM
(``docker stop``) and SIGINT close the bot cleanly with exit status 0.
"""

from __future__ import annotations

import asyncio
import logging
import random
import signal
import sys

import aiohttp
import discord
import yarl

from bot.core import drawing, loopwatch
from bot.core.config import Config, ConfigError, load_config
from bot.tools import memdebug

log = logging.getLogger("bot")

PROBE_TIMEOUT = 15.0  # seconds per attempt to reach Discord at start-up
BACKOFF_FIRST, BACKOFF_CAP = 1.0, 60.0


class Unreachable(Exception):
    """Discord did not answer usefully this time (network error, timeout, 5xx, 429): try again."""


class UnexpectedAnswer(Exception):
    """The API base answered something Discord never does (a 404, not JSON): a configuration error."""


def fail(message: str) -> None:
    print(f"error: {message}", file=sys.stderr, flush=True)
    raise SystemExit(2)


def point_at_api(base: str) -> None:
    """Send discord.py's REST calls to ``base`` (the end-to-end tests' fake Discord, or a proxy).
    The gateway address is asked from ``base`` once it answers (see :func:`probe`)."""
    from discord.http import Route

    Route.BASE = base


def api_base() -> str:
    from discord.http import Route

    return Route.BASE


def describe(exc: BaseException) -> str:
    """One short line for a failed attempt, without a traceback."""
    if isinstance(exc, Unreachable):
        return str(exc)
    if isinstance(exc, discord.HTTPException):
        return f"HTTP {exc.status}"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def transient(exc: BaseException) -> bool:
    if isinstance(exc, discord.HTTPException):
        return exc.status >= 500 or exc.status == 429
    return isinstance(exc, (Unreachable, OSError, aiohttp.ClientError, asyncio.TimeoutError,
                            discord.GatewayNotFound))


async def probe(token: str, custom_base: bool) -> None:
    """Ask Discord who we are with the bot's token, as Discord requires (``Authorization: Bot``);
    with a custom ``DISCORD_API_BASE`` also ask it for the gateway address the same way.

    Raises :class:`discord.LoginFailure` for a rejected token, :class:`Unreachable` (or a network
    error) when it is worth trying again, and :class:`UnexpectedAnswer` for anything else."""
    from discord.gateway import DiscordWebSocket

    base = api_base()
    headers = {"Authorization": f"Bot {token}", "User-Agent": f"DiscordBot (tabletop-bot, {discord.__version__})"}
    timeout = aiohttp.ClientTimeout(total=PROBE_TIMEOUT)
    async with aiohttp.ClientSession(timeout=timeout, headers=headers) as http:
        paths = ["/users/@me"] + (["/gateway/bot"] if custom_base else [])
        answers = {}
        for path in paths:
            async with http.get(base + path) as response:
                if response.status == 401:
                    raise discord.LoginFailure("Improper token has been passed.")
                if response.status >= 500 or response.status == 429:
                    raise Unreachable(f"{path} answered HTTP {response.status}")
                if response.status != 200:
                    raise UnexpectedAnswer(f"{base}{path} answered HTTP {response.status}")
                try:
                    answers[path] = await response.json(content_type=None)
                except ValueError:
                    raise UnexpectedAnswer(f"{base}{path} did not answer JSON") from None
    if custom_base:
        try:
            DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(answers["/gateway/bot"]["url"])
        except (KeyError, TypeError, ValueError):
            raise UnexpectedAnswer(f"{base}/gateway/bot did not name a gateway url") from None


async def reset_http(bot: discord.Client) -> None:
    """Drop the HTTP session of a failed login so the next ``login`` starts a fresh one."""
    await bot.http.close()
    bot.http.connector = discord.utils.MISSING


async def login_when_reachable(bot: discord.Client, config: Config) -> None:
    """Log in, waiting out an unreachable Discord with exponential backoff and jitter.

    The first failure logs one warning line; later ones are DEBUG, and success after failures
    logs how long it took."""
    failures = 0
    loop = asyncio.get_running_loop()
    first_failure = 0.0
    while True:
        try:
            await probe(config.token, config.api_base is not None)
            await bot.login(config.token)
        except discord.LoginFailure:
            raise
        except Exception as exc:
            if not transient(exc):
                raise
            failures += 1
            delay = min(BACKOFF_CAP, BACKOFF_FIRST * 2 ** (failures - 1)) * random.uniform(0.8, 1.2)
            if failures == 1:
                first_failure = loop.time()
                log.warning("Discord is not reachable at %s (%s); retrying with backoff until it answers",
                            api_base(), describe(exc))
            else:
                log.debug("Discord still not reachable (%s); attempt %d in %.1f s", describe(exc),
                          failures + 1, delay)
            await reset_http(bot)
            await asyncio.sleep(delay)
            continue
        if failures:
            log.info("Discord answered after %d failed attempts (%.0f s)", failures, loop.time() - first_failure)
        return


async def serve(bot: discord.Client, config: Config) -> None:
    await login_when_reachable(bot, config)
    await bot.connect(reconnect=True)


async def run(config: Config) -> None:
    from bot.discord_app.app import create_bot

    bot = create_bot(config)  # sharded when SHARD_COUNT is set, else exactly as before
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    memdebug.start(loop)  # off unless TABLETOP_TRACEMALLOC is set (an operator's diagnostic)
    loopwatch.start(loop)  # a WARNING with the stack for any stall of the loop over 250 ms
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop.set)
        except NotImplementedError:  # pragma: no cover - Windows
            pass
    async with bot:
        runner = asyncio.create_task(serve(bot, config))
        waiter = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done:
            waiter.cancel()
            runner.result()
        else:
            log.info("shutting down (signal received)")
            await bot.close()
            runner.cancel()
            try:
                await runner
            except (asyncio.CancelledError, Exception):
                pass


class OneLineReconnects(logging.Filter):
    """discord.py logs each failed gateway (re)connection with a full traceback; an outage is not
    a bug, so keep it to one line naming the error."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None and str(record.msg).startswith("Attempting a reconnect"):
            exc = record.exc_info[1]
            record.msg = f"{record.getMessage()} (gateway: {describe(exc)})"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"  # an outage, not a bug
        return True


def setup_logging(config: Config) -> None:
    from bot.core.logs import handler_for

    json_handler = handler_for(config)  # LOG_FORMAT=json: one object per line with the shard ids
    logging.basicConfig(
        level=getattr(logging, config.log_level),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        handlers=[json_handler] if json_handler is not None else None,
    )
    for noisy in ("discord", "aiosqlite"):
        logging.getLogger(noisy).setLevel(max(logging.INFO, getattr(logging, config.log_level)))
    for name in ("discord.client", "discord.shard"):  # the latter with SHARD_COUNT set
        logging.getLogger(name).addFilter(OneLineReconnects())
    # A game bot never joins voice: no "PyNaCl / davey is not installed" warnings.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


def main() -> None:
    memdebug.tune_malloc()  # first, before any thread: big render buffers must not pile up in arenas
    try:
        config = load_config()
    except ConfigError as exc:
        fail(str(exc))
        return
    setup_logging(config)
    from bot.core.shards import store_warning

    if warning := store_warning(config):
        log.warning(warning)
    if config.api_base:
        point_at_api(config.api_base)
    preload_games()
    try:
        asyncio.run(run(config))
    except ConfigError as exc:  # found once running, e.g. HEALTH_PORT taken
        fail(str(exc))
    except discord.LoginFailure:
        fail("DISCORD_TOKEN was rejected by Discord: check the token in the DISCORD_TOKEN environment variable")
    except discord.PrivilegedIntentsRequired:
        fail("the bot asked for a privileged intent that is not enabled in the Developer Portal")
    except UnexpectedAnswer as exc:
        fail(f"unexpected answer at start-up: {exc} (is DISCORD_API_BASE right?)")
    except KeyboardInterrupt:
        pass
    finally:
        drawing.stop_sync()  # the render processes (bot/core/drawing.py), if any started


def preload_games() -> None:
    """Import every game's rules and renderer before the event loop runs: imported on first use, they
    stalled the loop for 0.3-0.6 s at start (the loop watchdog showed it), while Discord was connecting."""
    from bot.games import registry

    for key in registry.available():
        registry.renderer(key)


if __name__ == "__main__":
    main()
