"""``/bam deck ...``: By All Means deck lists from Discord (issue 9).

* ``/bam deck export [preset]``: a deck as a list of card codes (``bot.games.byallmeans.decks.export``):
  the preset named, else your deck in this channel's game (your seat's), else your own list brought
  to this channel's lobby, else the list of presets.
* ``/bam deck check codes:``: is this list a legal deck? The problems come localised from ``decks.py``.
* ``/bam deck import codes:``: bring your own deck to this channel's By All Means lobby (checked first; a
  bad list changes nothing). When the game starts, your seat plays it (``ByAllMeans.arrange_seats``).
* ``/bam deck clear``: back to the lobby's deck option.
* ``/bam play card: [where:]``: play a card from hand or buffer for its price, the fast form of the panel's
  «Play» branch: ``card`` autocompletes to the cards playable now, ``where`` to that card's placements
  (cell, face down, shadow, replacing...) as the panel names them. The move goes through
  ``SessionManager.act`` like a click, so the rules validate it and it is logged and published.

Every answer is ephemeral: a deck list is the player's own business until the cards are played.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.core import parse
from bot.core.i18n import sort_key, t
from bot.core.sessions import Session, SessionError
from bot.discord_app import limits
from bot.discord_app.app import TabletopBot
from bot.discord_app.panels import build_panel, confirmation
from bot.games.base import Action, Game, IllegalAction
from bot.games.registry import available
from cogs.common import defer, lang, reply

log = logging.getLogger(__name__)

GAME_KEY = "byallmeans"
USER_DECKS = "user_decks"
"""The lobby option that holds each player's own deck list (``options[USER_DECKS][str(user id)]``)."""
CodesText = app_commands.Range[str, 1, 1000]


def deck_text(codes: list[str], language: str) -> str:
    """A deck list ready to copy, with its size."""
    from bot.games.byallmeans import decks

    return t("bam.ui.deck_list", language, n=len(codes), codes=limits.echo(decks.export(codes), 1500))


def checked(text: str, language: str) -> tuple[list[str], str | None]:
    """The codes of ``text`` and, when it is not a legal deck, the localised problems (one per line)."""
    from bot.games.byallmeans import decks

    codes, problems = decks.check(text)
    if problems:
        return codes, decks.problems_text(problems, language)
    return codes, None


def seat_deck(session: Session, user_id: int) -> list[str] | None:
    """The deck the user's seat plays in a started game (its preset or its own list)."""
    from bot.games.byallmeans import decks

    seats = session.seats_of(user_id)
    info: Any = session.row.seat_info or []
    if not seats or seats[0] >= len(info):
        return None
    deck = info[seats[0]].get("deck")
    try:
        return decks.resolve(deck) if deck else None
    except IllegalAction:
        return None


def plays(game: Game, seat: int, card: str | None, language: str) -> tuple[list[Action], list[Action]]:
    """The ``play`` actions the panel offers now, and those of the card ``card`` names (a uid, or the
    card's name in the caller's language)."""
    all_plays = [a for a in game.panel_actions(seat, language) if a["type"] == "play"]
    text = (card or "").strip().casefold()
    chosen = [a for a in all_plays if text and text in (a["uid"].casefold(),
                                                        game.panel_path(seat, a, language)[1].casefold())]
    return all_plays, chosen


def why_not_playable(game: Game, seat: int, card: str, language: str) -> SessionError:
    """The refusal of ``/bam play card:`` when the card cannot be played now, saying why (issue 25: not
    in your hand, its price, no main action left, nowhere to go...), else the generic one."""
    from bot.games.byallmeans.game import ByAllMeans
    from bot.games.byallmeans.why import card_reason

    reason = card_reason(game, seat, card, language) if isinstance(game, ByAllMeans) else None
    if reason is None:
        return SessionError("bam.ui.play.no_card")
    key, params = reason
    return SessionError(key, **params)  # the game's ids: the caller names them (Game.reason_params)


def where_label(game: Game, seat: int, action: Action, language: str) -> str:
    """A play's placement as the panel names it (after «Play» and the card): cell, face down, shadow..."""
    return " · ".join(game.panel_path(seat, action, language)[2:]) or "—"


class ByAllMeansCog(commands.Cog):
    bam = app_commands.Group(name="bam", description=_("By All Means: deck lists", key="bam.ui.cmd.bam"),
                             guild_only=True)
    deck = app_commands.Group(name="deck", description=_("Deck lists: export, check, import",
                                                         key="bam.ui.cmd.deck"), parent=bam)

    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot

    async def context(self, interaction: discord.Interaction) -> tuple[Session, Game, int]:
        """This channel's By All Means game and the caller's seat that must act now (else SessionError)."""
        session = self.here(interaction)
        if session is None:
            raise SessionError("err.no_game_here")
        game = session.game
        if game is None or session.row.status != "running":
            raise SessionError("err.not_running")
        seats = session.seats_of(interaction.user.id)
        if not seats:
            raise SessionError("err.spectator")
        seat = next((s for s in seats if s in game.actors()), None)
        if seat is None:
            raise SessionError("err.not_your_turn")
        return session, game, seat

    def here(self, interaction: discord.Interaction) -> Session | None:
        session = self.bot.sessions.by_channel(interaction.channel_id or 0)
        return session if session is not None and session.row.game == GAME_KEY else None

    @deck.command(name="export", description=_("A deck as a list of card codes", key="bam.ui.cmd.export"))
    @app_commands.describe(preset=_("A preset deck (default: yours in this channel's game)",
                                    key="bam.ui.cmd.export.preset"))
    async def export(self, interaction: discord.Interaction, preset: str | None = None) -> None:
        from bot.games.byallmeans import decks

        language = lang(interaction)
        if preset:
            wanted = preset.strip().casefold()
            found = next((d for d in decks.presets() if wanted in (d, t(f"bam.deckname.{d}", language).casefold())),
                         None)
            if found is None:
                await reply(interaction, "⛔ " + t("bam.deck.no_preset", language, name=limits.echo(preset, 60)))
                return
            await reply(interaction, f"**{t(f'bam.deckname.{found}', language)}**\n"
                        + deck_text(decks.preset(found), language))
            return
        session = self.here(interaction)
        if session is not None and session.row.status != "lobby":
            codes = seat_deck(session, interaction.user.id)
            if codes is not None:
                await reply(interaction, deck_text(codes, language))
                return
        if session is not None and session.row.status == "lobby":
            own = (session.row.options.get(USER_DECKS) or {}).get(str(interaction.user.id))
            if own:
                await reply(interaction, deck_text(list(own), language))
                return
        names = ", ".join(f"`{d}` ({t(f'bam.deckname.{d}', language)})" for d in sorted(decks.presets()))
        await reply(interaction, t("bam.ui.presets", language, names=names))

    @export.autocomplete("preset")
    async def export_preset(self, interaction: discord.Interaction, current: str
                            ) -> list[app_commands.Choice[str]]:
        from bot.games.byallmeans import decks

        language = lang(interaction)
        typed = (current or "").casefold()
        out = []
        named = [(t(f"bam.deckname.{d}", language), d) for d in decks.presets()]
        for name, d in sorted(named, key=lambda pair: sort_key(pair[0], language)):  # issue 13
            if typed in name.casefold() or typed in d:
                out.append(app_commands.Choice(name=limits.option_label(name), value=d))
        return out[:25]

    @deck.command(name="check", description=_("Check a deck list", key="bam.ui.cmd.check"))
    @app_commands.describe(codes=_("Card codes, e.g. T01x2 A03 P07 …", key="bam.ui.cmd.codes"))
    async def check(self, interaction: discord.Interaction, codes: CodesText) -> None:
        language = lang(interaction)
        deck, problems = checked(codes, language)
        if problems:
            await reply(interaction, "⛔ " + problems)
            return
        await reply(interaction, "✅ " + deck_text(deck, language))

    @deck.command(name="import", description=_("Play your own deck in this channel's lobby",
                                                key="bam.ui.cmd.import"))
    @app_commands.describe(codes=_("Card codes, e.g. T01x2 A03 P07 …", key="bam.ui.cmd.codes"))
    async def import_(self, interaction: discord.Interaction, codes: CodesText) -> None:
        language = lang(interaction)
        session = self.here(interaction)
        if session is None or session.row.status != "lobby":
            # issue 25: where there is no lobby the deck's size is beside the point; say so first
            key = "bam.cmd.no_lobby_here" if session is None else "err.not_lobby"
            await reply(interaction, "⛔ " + t(key, language))
            return
        deck, problems = checked(codes, language)
        if problems:  # checked before anything is stored: a bad list changes nothing
            await reply(interaction, "⛔ " + problems)
            return
        await self.bot.sessions.set_player_option(session.id, interaction.user.id, USER_DECKS, deck)
        await reply(interaction, "✅ " + t("bam.ui.imported", language, n=len(deck)))

    @deck.command(name="clear", description=_("Play the lobby's deck choice again", key="bam.ui.cmd.clear"))
    async def clear(self, interaction: discord.Interaction) -> None:
        language = lang(interaction)
        session = self.here(interaction)
        if session is None:
            await reply(interaction, "⛔ " + t("bam.ui.no_lobby", language))
            return
        await self.bot.sessions.set_player_option(session.id, interaction.user.id, USER_DECKS, None)
        await reply(interaction, "✅ " + t("bam.ui.cleared", language))


    # ---- /bam play ---------------------------------------------------------------------
    @bam.command(name="play", description=_("Play a card from your hand or buffer", key="bam.ui.cmd.play"))
    @app_commands.describe(card=_("The card (only the ones you can play now)", key="bam.ui.cmd.play.card"),
                           where=_("Where or how, when there is a choice", key="bam.ui.cmd.play.where"))
    async def play(self, interaction: discord.Interaction, card: app_commands.Range[str, 1, 100],
                   where: app_commands.Range[str, 1, 100] | None = None) -> None:
        await defer(interaction)
        language = lang(interaction)
        shown: Game | None = None
        try:
            session, game, seat = await self.context(interaction)
            shown = game
            _all, options = plays(game, seat, card, language)
            if not options:
                raise why_not_playable(game, seat, card, language)
            action: Action | None = options[0] if len(options) == 1 else None
            if action is None and where is not None:
                wanted = where.strip()
                if (position := parse.index(wanted, len(options))) is not None:  # "²": no number, no traceback
                    action = options[position]
                else:
                    action = next((a for a in options
                                   if where_label(game, seat, a, language).casefold() == wanted.casefold()), None)
            if action is None:
                raise SessionError("bam.ui.play.no_where")
            result = await self.bot.sessions.act(session.id, interaction.user.id, seat, action)
        except (SessionError, IllegalAction) as exc:  # refused: the command tree answers
            if shown is not None and exc.key.startswith("bam.why."):  # the game's reason, its cells numbered
                raise SessionError(exc.key, **shown.reason_params(exc.params, language)) from exc
            raise
        after = result.session.game
        assert after is not None
        publisher = getattr(self.bot, "publisher", None)
        link = await publisher.turn_link(result.session) if publisher is not None else None
        note = confirmation(after, result.events, seat, language, link=link)
        content, view = build_panel(result.session, seat, language, note=note)
        message = await reply(interaction, content, view=view)
        if publisher is not None:  # older panels lose their controls, as after a click
            publisher.panels.answered(interaction, result.session, seat, message.id if message is not None else None)

    @play.autocomplete("card")
    async def play_card(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            _session, game, seat = await self.context(interaction)
        except SessionError:
            return []
        language = lang(interaction)
        all_plays, _chosen = plays(game, seat, None, language)
        typed = (current or "").casefold()
        out: list[app_commands.Choice[str]] = []
        seen: set[str] = set()
        for a in all_plays:
            name = game.panel_path(seat, a, language)[1]  # a planned object's name carries its buffer slot
            if name in seen or typed not in name.casefold():
                continue
            seen.add(name)
            out.append(app_commands.Choice(name=limits.option_label(name), value=a["uid"]))
        return out[:25]

    @play.autocomplete("where")
    async def play_where(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            _session, game, seat = await self.context(interaction)
        except SessionError:
            return []
        language = lang(interaction)
        _all, options = plays(game, seat, getattr(interaction.namespace, "card", None), language)
        if len(options) < 2:  # nothing to choose: /bam play ignores ``where`` then, so offer no "—"
            return []
        typed = (current or "").casefold()
        return [app_commands.Choice(name=limits.option_label(label), value=str(i))
                for i, a in enumerate(options)
                if typed in (label := where_label(game, seat, a, language)).casefold()][:25]


async def setup(bot: TabletopBot) -> None:
    if GAME_KEY not in available():
        log.info("the %s rules are not available: /bam is not loaded", GAME_KEY)
        return
    await bot.add_cog(ByAllMeansCog(bot))
