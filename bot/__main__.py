"""``python -m bot``: run the bot. Exit status 2 with one clear line on a configuration error."""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import sys
import urllib.request

import discord
import yarl

from bot.config import Config, ConfigError, load_config


def point_at_api(base: str) -> None:
    """Send discord.py's REST calls to ``base`` and its gateway to what ``base`` advertises.

    Used by the end-to-end tests (a fake Discord on 127.0.0.1) and by self-hosted proxies.
    """
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    Route.BASE = base
    with urllib.request.urlopen(f"{base}/gateway/bot", timeout=10) as response:  # noqa: S310
        url = json.loads(response.read())["url"]
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)


def fail(message: str) -> None:
    print(f"error: {message}", file=sys.stderr, flush=True)
    raise SystemExit(2)


async def run(config: Config) -> None:
    from bot.app import TabletopBot

    bot = TabletopBot(config)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop.set)
        except NotImplementedError:  # pragma: no cover - Windows
            pass
    async with bot:
        runner = asyncio.create_task(bot.start(config.token))
        waiter = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done:
            runner.result()
        else:
            await bot.close()
            runner.cancel()


def main() -> None:
    try:
        config = load_config()
    except ConfigError as exc:
        fail(str(exc))
        return
    logging.basicConfig(
        level=getattr(logging, config.log_level),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    for noisy in ("discord", "aiosqlite"):
        logging.getLogger(noisy).setLevel(max(logging.INFO, getattr(logging, config.log_level)))
    if config.api_base:
        try:
            point_at_api(config.api_base)
        except OSError as exc:
            fail(f"DISCORD_API_BASE {config.api_base} is not reachable: {exc}")
    try:
        asyncio.run(run(config))
    except discord.LoginFailure:
        fail("DISCORD_TOKEN was rejected by Discord: check the token in the DISCORD_TOKEN environment variable")
    except discord.PrivilegedIntentsRequired:
        fail("the bot asked for a privileged intent that is not enabled in the Developer Portal")
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
