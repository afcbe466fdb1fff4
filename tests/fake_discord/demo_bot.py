"""A tiny discord.py bot used by tests/test_fake_discord.py to prove the fake works with real discord.py.

Run as ``python -m tests.fake_discord.demo_bot`` with the same environment as the real bot
(DISCORD_TOKEN, DISCORD_API_BASE, DISCORD_GUILD_IDS, LOG_LEVEL). It wires discord.py to the fake the way
the real bot does: ``Route.BASE = base``, then GET {base}/gateway/bot and use its ``url`` as
``DiscordWebSocket.DEFAULT_GATEWAY``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import struct
import zlib

import discord
import yarl
from discord import app_commands
from discord.ext import commands

log = logging.getLogger("demo_bot")


def tiny_png(width: int = 2, height: int = 2) -> bytes:
    """A valid RGB PNG without Pillow."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    )


def png_file(name: str = "board.png") -> discord.File:
    import io

    return discord.File(io.BytesIO(tiny_png()), filename=name)


class RollView(discord.ui.View):
    """Persistent (timeout=None, fixed custom_ids) so it keeps working after a restart."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Roll", style=discord.ButtonStyle.primary, custom_id="demo:roll")
    async def roll(self, interaction: discord.Interaction, button: discord.ui.Button[RollView]) -> None:
        await interaction.response.edit_message(
            content=f"Rolled by {interaction.user.name} ({interaction.locale.value})",
            attachments=[png_file("roll.png")],
            view=None,
        )

    @discord.ui.button(label="Tick", custom_id="demo:tick")
    async def tick(self, interaction: discord.Interaction, button: discord.ui.Button[RollView]) -> None:
        await interaction.response.defer()  # type 6, then edit the clicked message via @original
        assert interaction.message is not None
        await interaction.edit_original_response(content=interaction.message.content + " +tick")

    @discord.ui.button(label="Thread", custom_id="demo:thread")
    async def thread(self, interaction: discord.Interaction, button: discord.ui.Button[RollView]) -> None:
        await interaction.response.defer()  # type 6 with no follow-up: work happens through channel routes
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        thread = await channel.create_thread(name="game thread", type=discord.ChannelType.public_thread)
        await thread.send(
            f"thread for {interaction.user.name}", file=png_file("thread.png")
        )  # multipart POST

    @discord.ui.select(
        custom_id="demo:pick",
        placeholder="Pick a number",
        options=[discord.SelectOption(label=str(i), value=str(i)) for i in range(1, 4)],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[RollView]) -> None:
        await interaction.response.send_message(f"You picked {select.values[0]}", ephemeral=True)


class PlayView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Play", style=discord.ButtonStyle.success, custom_id="demo:play")
    async def play(self, interaction: discord.Interaction, button: discord.ui.Button[PlayView]) -> None:
        where = "dm" if interaction.guild_id is None else "guild"
        await interaction.response.send_message(f"played in {where} by {interaction.user.name}")


class FeedbackModal(discord.ui.Modal, title="Feedback"):
    text: discord.ui.TextInput[FeedbackModal] = discord.ui.TextInput(label="Text", custom_id="demo:fb:text")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"feedback: {self.text.value}", ephemeral=True)


demo = app_commands.Group(name="demo", description="Demo commands")
admin = app_commands.Group(name="admin", description="Admin commands", parent=demo)


@demo.command(name="hello", description="Say hello")
@app_commands.describe(name="Who to greet", times="How many times", secret="Only you see it")
@app_commands.choices(
    times=[app_commands.Choice(name="once", value=1), app_commands.Choice(name="twice", value=2)]
)
async def hello(
    interaction: discord.Interaction,
    name: str,
    times: int = 1,
    secret: bool = False,
    friend: discord.User | None = None,
) -> None:
    text = " ".join([f"Hello {name}!"] * times)
    if friend is not None:
        text += f" (friend: {friend.name})"
    text += (
        f" [{interaction.locale.value}/{interaction.guild_locale.value if interaction.guild_locale else '-'}]"
    )
    await interaction.response.send_message(text, view=RollView(), ephemeral=secret)


@demo.command(name="dm", description="DM me a Play button")
async def dm(interaction: discord.Interaction) -> None:
    try:
        await interaction.user.send("Want to play?", view=PlayView())
    except discord.Forbidden as exc:
        assert interaction.channel is not None
        await interaction.channel.send(f"Cannot DM {interaction.user.name}: {exc.code}")  # type: ignore[union-attr]
        await interaction.response.send_message("DM failed", ephemeral=True)
        return
    await interaction.response.send_message("Check your DMs", ephemeral=True)


@demo.command(name="slow", description="Deferred answer")
async def slow(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True)
    await asyncio.sleep(0.2)
    await interaction.followup.send("done slowly", file=png_file())


@demo.command(name="post", description="Post text in the channel")
async def post(interaction: discord.Interaction, text: str) -> None:
    await interaction.response.defer(ephemeral=True)
    assert interaction.channel is not None
    msg = await interaction.channel.send(text)  # type: ignore[union-attr]
    await msg.edit(content=text + " (edited)", attachments=[png_file("post.png")])  # multipart PATCH
    await interaction.edit_original_response(content="posted")


@demo.command(name="fruit", description="Autocomplete demo")
async def fruit(interaction: discord.Interaction, kind: str) -> None:
    await interaction.response.send_message(f"fruit: {kind}")


@fruit.autocomplete("kind")
async def fruit_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    fruits = ["apple", "apricot", "banana", "cherry"]
    return [app_commands.Choice(name=f, value=f) for f in fruits if f.startswith(current)]


@demo.command(name="feedback", description="Opens a modal")
async def feedback(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(FeedbackModal())


@admin.command(name="echo", description="Echo in a nested group")
async def echo(interaction: discord.Interaction, text: str, count: app_commands.Range[int, 1, 3] = 1) -> None:
    await interaction.response.send_message(" ".join([text] * count))


class DemoBot(commands.Bot):
    def __init__(self) -> None:
        intents = discord.Intents.default()
        intents.members = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents)
        self.guild_ids = [int(g) for g in os.environ.get("DISCORD_GUILD_IDS", "").split(",") if g.strip()]

    async def setup_hook(self) -> None:
        base = os.environ.get("DISCORD_API_BASE")
        if base:
            _shards, url, _limits = await self.http.get_bot_gateway()
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        self.add_view(RollView())
        self.add_view(PlayView())
        self.tree.add_command(demo)
        for gid in self.guild_ids:
            guild = discord.Object(gid)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        if not self.guild_ids:
            await self.tree.sync()

    async def on_ready(self) -> None:
        log.info("demo bot ready as %s in %d guilds", self.user, len(self.guilds))


def main() -> None:
    level = getattr(logging, os.environ.get("LOG_LEVEL", "INFO").upper(), logging.INFO)
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    base = os.environ.get("DISCORD_API_BASE")
    if base:
        discord.http.Route.BASE = base
    bot = DemoBot()
    bot.run(os.environ["DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
