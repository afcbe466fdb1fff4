"""``/risk ...``: slash commands with autocomplete for fast Risk Godstorm players.

The generic panels (DMs, ``/game hand``) already offer every legal action as nested selects; these
commands are the shortcut: ``/risk attack from:… to:… dice:… [until:…]``, ``/risk place``,
``/risk fortify``, ``/risk move`` (after a conquest), ``/risk play`` (a miracle card: only the
playable ones are suggested, then its targets), ``/risk end`` and ``/risk prefs`` (the standing
preferences, settable when it is not the caller's turn too). Every option is
autocompleted from the caller's legal actions *right now* (territory names in the caller's
language, values are territory ids), and every move goes through ``SessionManager.act`` like a
click on a panel, so the rules validate it, it is logged and replayable, and the platform
publishes the channel post and the DMs after the commit.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.core import parse
from bot.core.i18n import LANGS, sort_key, t
from bot.core.sessions import Session, SessionError
from bot.discord_app import limits
from bot.discord_app.app import TabletopBot
from bot.discord_app.panels import build_panel, confirmation, offer_undo
from bot.games.base import Action, Event, Game, IllegalAction
from bot.games.registry import available
from cogs.common import defer, lang, reply

if TYPE_CHECKING:
    from bot.games.godstorm.view import PlaceView

log = logging.getLogger(__name__)

GAME_KEY = "godstorm"
MAX_CHOICES = 25
MAX_LOOP = 200
"""Bound on the one-by-one attack loop of ``until`` (used only when the rules offer no ``attack_until``)."""
MAX_COUNT = 9999
"""The largest count a /risk option takes (its Range)."""
HEAVEN = "heaven"
ATTACKS = ("attack", "attack_until")

Choices = list[app_commands.Choice[str]]
PlaceText = app_commands.Range[str, 1, 100]
"""A territory as typed or picked from the suggestions (bounded: Discord refuses longer input)."""
IntChoices = list[app_commands.Choice[int]]


# ---- names and labels ------------------------------------------------------------------
def place_name(where: str, language: str) -> str:
    """A territory, Underworld space or the heavens in ``language`` (the id if unknown)."""
    from bot.games.godstorm.text import tname  # imported lazily: the cog must load only if the game does

    return tname(where, language)


def _place(game: Game, where: str) -> PlaceView | None:
    """Public facts about a place, through the game's view module (never its internal state)."""
    from bot.games.godstorm.game import Godstorm

    return game.place(where) if isinstance(game, Godstorm) else None


def armies_at(game: Game, where: str) -> int | None:
    loc = _place(game, where)
    return None if loc is None else loc["armies"]


def owner_of(game: Game, where: str) -> int | None:
    loc = _place(game, where)
    return None if loc is None else loc["owner"]


def label(game: Game, where: str, language: str) -> str:
    n = armies_at(game, where)
    name = place_name(where, language)
    return name if n is None else f"{name} ({n})"


def target_label(game: Game, where: str, language: str) -> str:
    owner = owner_of(game, where)
    who = game.side_name(owner, language) if owner is not None else t("godstorm.nobody", language)
    return t("godstorm.cmd.owner", language, where=label(game, where, language), who=who)


def resolve(value: str | None, candidates: Iterable[str]) -> str | None:
    """The id among ``candidates`` that ``value`` names: the id itself, or a name in any language
    (also as shown in a suggestion, ``"Gaul (7)"``). None when nothing matches."""
    if value is None:
        return None
    text = str(value).strip()
    pool = list(candidates)
    if text in pool:
        return text
    low = text.casefold()
    if low.endswith(")") and " (" in low:
        low = low[: low.rindex(" (")]
    for cand in pool:
        if low == cand.casefold() or any(low == place_name(cand, lg).casefold() for lg in LANGS):
            return cand
    return None


def all_places() -> list[str]:
    """Every territory, Underworld space and the heavens: what a typed name may mean when it is none of
    the caller's choices (then the refusal says why, issue 25)."""
    from bot.games.godstorm import board  # noqa: PLC0415 (loaded with the game)

    return [*board.TERR_IDS, *board.SPACE_IDS, HEAVEN]


def place_id(value: str, choices: Iterable[str]) -> str:
    """The id ``value`` names among ``choices``, else among all places, else ``value`` as typed."""
    return resolve(value, choices) or resolve(value, all_places()) or value


def explained(exc: SessionError | IllegalAction, game: Game | None, seat: int, action: Action | None,
              language: str) -> SessionError | IllegalAction:
    """A refusal that says why (issue 25): the rules' own generic refusal of ``action`` (a count out of
    range reaches them, since counts are free) is replaced by the game's reason when it has one, and
    a reason's places and step are named in ``language``. A refusal changes nothing, so the game
    still shows why. ``exc`` itself when there is nothing to add."""
    if game is None:
        return exc
    if action is not None and (isinstance(exc, IllegalAction) or exc.key == "err.not_legal"):
        try:
            reason = game.why_not(seat, action)
        except Exception:  # an explanation must never turn a refusal into a failure
            log.exception("why_not failed")
            reason = None
        if reason is not None:
            exc = SessionError(reason[0], **reason[1])
    if exc.key.startswith("godstorm.why."):
        return SessionError(exc.key, **game.reason_params(exc.params, language))
    return exc


def unique(values: Iterable[Any]) -> list[Any]:
    return list(dict.fromkeys(values))


def _matches(current: str, *texts: str) -> bool:
    needle = (current or "").strip().casefold()
    return not needle or any(needle in text.casefold() for text in texts)


def place_choices(game: Game | None, ids: list[str], current: str, language: str,
                  labeller: Callable[[Game, str, str], str] = label) -> Choices:
    """Suggestions in alphabetical order of the caller's language (issue 13: Russian lists were
    in the order of the English ids)."""
    out: Choices = []
    if game is None:
        return out
    labelled = [(labeller(game, where, language), where) for where in ids]
    for text, where in sorted(labelled, key=lambda pair: sort_key(pair[0], language)):
        if _matches(current, text, where):
            out.append(app_commands.Choice(name=limits.option_label(text), value=where))
    return out[:MAX_CHOICES]


def count_choices(values: Iterable[int], current: str, language: str, low: int, high: int,
                  name: Callable[[int], str] | None = None) -> IntChoices:
    """Suggested counts (the rules' menu), with a typed number in range offered first."""
    values = sorted(set(values))
    typed = (current or "").strip()
    n = parse.small_int(typed, -MAX_COUNT, MAX_COUNT)  # "²" is no number (str.isdigit() says it is)
    if n is not None:
        shown = [v for v in values if str(v).startswith(typed)]
        values = ([n] if low <= n <= high and n not in shown else []) + shown
    namer = name or (lambda n: t("godstorm.act.armies_n", language, n=n))
    return [app_commands.Choice(name=limits.option_label(namer(v)), value=v) for v in values][:MAX_CHOICES]


class RiskCog(commands.Cog):
    risk = app_commands.Group(name="risk", description=_("Risk Godstorm: fast moves by command",
                                                         key="godstorm.cmd.risk"), guild_only=True)

    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Defer every /risk command first: a move may be a long commit, an attack a loop of them,
        and the answer a whole panel (the answers are ephemeral, so is the deferral)."""
        if interaction.type is discord.InteractionType.application_command:
            await defer(interaction)
        return True

    # ---- who is asking ---------------------------------------------------------------
    async def seated(self, interaction: discord.Interaction) -> tuple[Session, Game, list[int]]:
        """The running Risk game of this channel and the caller's seats in it (else SessionError)."""
        session = await self.bot.sessions.channel_session(interaction.channel_id or 0)
        if session is None:
            raise SessionError("err.no_game_here")
        if session.row.game != GAME_KEY:
            raise SessionError("godstorm.cmd.not_godstorm")
        game = session.game
        if game is None or session.row.status != "running":
            raise SessionError("err.not_running")
        seats = session.seats_of(interaction.user.id)
        if not seats:
            raise SessionError("err.spectator")
        return session, game, seats

    async def context(self, interaction: discord.Interaction) -> tuple[Session, Game, int]:
        """The Risk game of this channel and the caller's seat that must act now (else SessionError)."""
        session, game, seats = await self.seated(interaction)
        actors = game.actors()
        seat = next((s for s in seats if s in actors), None)
        if seat is None:
            raise SessionError("err.not_your_turn")
        return session, game, seat

    async def legal(self, interaction: discord.Interaction) -> tuple[Game | None, list[Action]]:
        """For autocomplete: the game and the caller's legal actions now (none when not their turn)."""
        try:
            _session, game, seat = await self.context(interaction)
        except SessionError:
            return None, []
        return game, game.legal_actions(seat)

    # ---- acting ----------------------------------------------------------------------
    @staticmethod
    def pick(legal: list[Action], built: Action) -> Action:
        """The identical legal action when there is one (the menus offer a few counts; the rules
        accept any legal count, so a built action is sent as is and validated by ``apply``)."""
        return next((a for a in legal if a == built), built)

    async def run(self, interaction: discord.Interaction, build: Callable[[Game, int, list[Action]], Action]) -> None:
        """Resolve the caller, build the action from their legal ones, apply it and answer."""
        session: Session | None = None
        seat = -1
        action: Action | None = None
        try:
            session, game, seat = await self.context(interaction)
            legal = game.legal_actions(seat)
            action = self.pick(legal, build(game, seat, legal))
            result = await self.bot.sessions.act(session.id, interaction.user.id, seat, action)
        except (SessionError, IllegalAction) as exc:  # refused: the command tree answers, saying why
            why = explained(exc, session.game if session is not None else None, seat, action, lang(interaction))
            if why is exc:
                raise
            raise why from exc
        await self.answer(interaction, result.session, seat, result.events)

    async def answer(self, interaction: discord.Interaction, session: Session, seat: int, events: list[Event]) -> None:
        language = lang(interaction)
        game = session.game
        assert game is not None
        publisher = getattr(self.bot, "publisher", None)  # None: the cog driven without Discord (tests)
        link = await publisher.turn_link(session) if publisher is not None else None
        # every outcome, condensed per event when long (the full text is in the channel post)
        note = confirmation(game, events, seat, language, link=link)
        content, view = build_panel(session, seat, language, note=note)
        # issue 27: ↩ under the confirmation of the caller's own move, when it can be undone or asked for
        await offer_undo(self.bot.sessions, view, session, seat, interaction.user.id, language, latest=False)
        message = await reply(interaction, content, view=view)
        if publisher is not None:  # older panels (the DM one included) lose their controls, the DM is updated
            publisher.panels.answered(interaction, session, seat, message.id if message is not None else None)

    # ---- /risk attack ----------------------------------------------------------------
    @risk.command(name="attack", description=_("Attack from one of your territories", key="godstorm.cmd.attack"))
    @app_commands.rename(from_="from")
    @app_commands.describe(
        from_=_("Your attacking territory", key="godstorm.cmd.attack.from"),
        to=_("The enemy territory to attack", key="godstorm.cmd.attack.to"),
        dice=_("Number of dice (1-3)", key="godstorm.cmd.attack.dice"),
        until=_("Keep rolling until conquered or until this many armies are left",
                key="godstorm.cmd.attack.until"),
    )
    async def attack(self, interaction: discord.Interaction, from_: PlaceText, to: PlaceText,
                     dice: app_commands.Range[int, 1, 3], until: app_commands.Range[int, 0, 9999] | None = None
                     ) -> None:
        if until is None:
            await self.run(interaction, lambda game, seat, legal: self.attack_action(legal, from_, to, dice))
            return
        session: Session | None = None
        seat = -1
        base: Action | None = None
        try:
            session, game, seat = await self.context(interaction)
            legal = game.legal_actions(seat)
            base = self.attack_action(legal, from_, to, dice)
            rolls = {**base, "type": "attack_until", "stop_at": until}
            if any(a["type"] == "attack_until" and a["from"] == base["from"] and a["to"] == base["to"] for a in legal):
                result = await self.bot.sessions.act(session.id, interaction.user.id, seat, self.pick(legal, rolls))
                await self.answer(interaction, result.session, seat, result.events)
                return
            await defer(interaction)
            events = await self.attack_loop(interaction.user.id, session, seat, base, until)
        except (SessionError, IllegalAction) as exc:  # refused: the command tree answers, saying why
            why = explained(exc, session.game if session is not None else None, seat, base, lang(interaction))
            if why is exc:
                raise
            raise why from exc
        await self.answer(interaction, session, seat, events)

    @staticmethod
    def attack_action(legal: list[Action], src: str, dst: str, dice: int) -> Action:
        attacks = [a for a in legal if a["type"] in ATTACKS]
        frm = place_id(src, unique(a["from"] for a in attacks))
        tgt = place_id(dst, unique(a["to"] for a in attacks if a["from"] == frm))
        return {"type": "attack", "from": frm, "to": tgt, "dice": int(dice)}

    async def attack_loop(self, user_id: int, session: Session, seat: int, first: Action, until: int) -> list[Event]:
        """Roll single attacks through the session layer until the target falls, a decision is due
        (godswar champion, move in), or the attacker is down to ``until`` armies (at least one roll).

        With an undo window the first attack is only declared: the loop stops there and the answer shows it
        with 🎲 and ↩ (an attack this loop makes is one a godswar comes first in, whose champions stop it
        anyway)."""
        events: list[Event] = []
        src, dst, dice = first["from"], first["to"], first["dice"]
        for n in range(MAX_LOOP):
            game = session.game
            if game is None or session.row.status != "running" or seat not in game.actors():
                break
            legal = game.legal_actions(seat)
            allowed = [a["dice"] for a in legal if a["type"] == "attack" and a["from"] == src and a["to"] == dst]
            if n > 0:
                left = armies_at(game, src)
                if not allowed or (left is not None and left <= until):
                    break
            action = {"type": "attack", "from": src, "to": dst, "dice": min(dice, max(allowed))} if allowed else first
            try:
                result = await self.bot.sessions.act(session.id, user_id, seat, action)
            except (SessionError, IllegalAction):
                if n == 0:
                    raise  # nothing rolled: the refusal is the answer
                break  # the game moved on under us (a deadline, say): report the rolls made
            events += result.events
            if owner_of(game, dst) == seat or any(d.kind == "roll" for d in game.open_decisions()):
                break  # taken, or the first attack declared and waiting for its 🎲 (the undo window, issue 27)
        return events

    @attack.autocomplete("from_")
    async def attack_from(self, interaction: discord.Interaction, current: str) -> Choices:
        game, legal = await self.legal(interaction)
        sources = unique(a["from"] for a in legal if a["type"] in ATTACKS)
        return place_choices(game, sources, current, lang(interaction))

    @attack.autocomplete("to")
    async def attack_to(self, interaction: discord.Interaction, current: str) -> Choices:
        game, legal = await self.legal(interaction)
        attacks = [a for a in legal if a["type"] in ATTACKS]
        src = resolve(getattr(interaction.namespace, "from", None), unique(a["from"] for a in attacks))
        targets = unique(a["to"] for a in attacks if src is None or a["from"] == src)
        return place_choices(game, targets, current, lang(interaction), target_label)

    def _pair(self, interaction: discord.Interaction, legal: list[Action]) -> list[Action]:
        attacks = [a for a in legal if a["type"] in ATTACKS]
        src = resolve(getattr(interaction.namespace, "from", None), unique(a["from"] for a in attacks))
        dst = resolve(getattr(interaction.namespace, "to", None),
                      unique(a["to"] for a in attacks if a["from"] == src))
        return [a for a in attacks if a["from"] == src and a["to"] == dst]

    @attack.autocomplete("dice")
    async def attack_dice(self, interaction: discord.Interaction, current: str) -> IntChoices:
        _game, legal = await self.legal(interaction)
        language = lang(interaction)
        pair = self._pair(interaction, legal)
        dice = sorted({a["dice"] for a in pair if a["type"] == "attack"}, reverse=True)
        if not pair:
            dice = sorted({a["dice"] for a in legal if a["type"] == "attack"}, reverse=True)
        return [app_commands.Choice(name=t("godstorm.act.dice_n", language, n=d), value=d) for d in dice
                if _matches(current, str(d))]

    @attack.autocomplete("until")
    async def attack_until(self, interaction: discord.Interaction, current: str) -> IntChoices:
        game, legal = await self.legal(interaction)
        language = lang(interaction)
        pair = self._pair(interaction, legal)
        if game is None or not pair:
            return []
        src = pair[0]["from"]
        floor = 0 if src == HEAVEN else 1
        here = armies_at(game, src) or floor
        stops = {a["stop_at"] for a in pair if a["type"] == "attack_until"} | {floor}

        def name(n: int) -> str:
            return t("godstorm.cmd.until_conquered" if n <= floor else "godstorm.cmd.until_left", language, n=n)

        return count_choices(stops, current, language, 0, max(here, floor), name)

    # ---- /risk place -----------------------------------------------------------------
    @risk.command(name="place", description=_("Place armies on one of your territories", key="godstorm.cmd.place"))
    @app_commands.describe(territory=_("Your territory", key="godstorm.cmd.place.territory"),
                           count=_("How many armies", key="godstorm.cmd.place.count"))
    async def place(self, interaction: discord.Interaction, territory: PlaceText,
                    count: app_commands.Range[int, 1, 9999]) -> None:
        def build(game: Game, seat: int, legal: list[Action]) -> Action:
            ids = unique(a["territory"] for a in legal if a["type"] == "place")
            return {"type": "place", "territory": place_id(territory, ids), "count": int(count)}

        await self.run(interaction, build)

    @place.autocomplete("territory")
    async def place_territory(self, interaction: discord.Interaction, current: str) -> Choices:
        game, legal = await self.legal(interaction)
        ids = unique(a["territory"] for a in legal if a["type"] == "place")
        return place_choices(game, ids, current, lang(interaction))

    @place.autocomplete("count")
    async def place_count(self, interaction: discord.Interaction, current: str) -> IntChoices:
        _game, legal = await self.legal(interaction)
        places = [a for a in legal if a["type"] == "place"]
        where = resolve(getattr(interaction.namespace, "territory", None), unique(a["territory"] for a in places))
        counts = [a["count"] for a in places if where is None or a["territory"] == where]
        if not counts:
            return []
        return count_choices(counts, current, lang(interaction), 1, max(counts))

    # ---- /risk fortify ---------------------------------------------------------------
    @risk.command(name="fortify", description=_("Move armies between your connected territories",
                                                key="godstorm.cmd.fortify"))
    @app_commands.rename(from_="from")
    @app_commands.describe(from_=_("Territory to move from", key="godstorm.cmd.fortify.from"),
                           to=_("Territory to move to", key="godstorm.cmd.fortify.to"),
                           count=_("How many armies", key="godstorm.cmd.fortify.count"),
                           gods=_("Move the gods there too", key="godstorm.cmd.fortify.gods"))
    async def fortify(self, interaction: discord.Interaction, from_: PlaceText, to: PlaceText,
                      count: app_commands.Range[int, 0, 9999], gods: bool = False) -> None:
        def build(game: Game, seat: int, legal: list[Action]) -> Action:
            moves = [a for a in legal if a["type"] == "fortify"]
            src = place_id(from_, unique(a["from"] for a in moves))
            dst = place_id(to, unique(a["to"] for a in moves if a["from"] == src))
            moved: list[str] = []
            if gods:
                with_gods = [a["gods"] for a in moves if a["from"] == src and a["to"] == dst and a["gods"]]
                here = _place(game, src)
                moved = with_gods[0] if with_gods else (here["gods"] if here is not None else [])
            return {"type": "fortify", "from": src, "to": dst, "count": int(count), "gods": sorted(moved)}

        await self.run(interaction, build)

    @fortify.autocomplete("from_")
    async def fortify_from(self, interaction: discord.Interaction, current: str) -> Choices:
        game, legal = await self.legal(interaction)
        ids = unique(a["from"] for a in legal if a["type"] == "fortify")
        return place_choices(game, ids, current, lang(interaction))

    @fortify.autocomplete("to")
    async def fortify_to(self, interaction: discord.Interaction, current: str) -> Choices:
        game, legal = await self.legal(interaction)
        moves = [a for a in legal if a["type"] == "fortify"]
        src = resolve(getattr(interaction.namespace, "from", None), unique(a["from"] for a in moves))
        ids = unique(a["to"] for a in moves if src is None or a["from"] == src)
        return place_choices(game, ids, current, lang(interaction))

    @fortify.autocomplete("count")
    async def fortify_count(self, interaction: discord.Interaction, current: str) -> IntChoices:
        game, legal = await self.legal(interaction)
        moves = [a for a in legal if a["type"] == "fortify"]
        src = resolve(getattr(interaction.namespace, "from", None), unique(a["from"] for a in moves))
        if game is None or src is None:
            return []
        counts = [a["count"] for a in moves if a["from"] == src and not a["gods"]]
        high = (armies_at(game, src) or 1) - 1
        low = 0 if any(a["gods"] for a in moves if a["from"] == src) else 1
        return count_choices(counts or ([high] if high >= 1 else []), current, lang(interaction), low, high)

    # ---- /risk move (after a conquest) -----------------------------------------------
    @risk.command(name="move", description=_("Move armies into a conquered territory", key="godstorm.cmd.move"))
    @app_commands.describe(count=_("How many armies", key="godstorm.cmd.move.count"))
    async def move(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 9999]) -> None:
        await self.run(interaction, lambda game, seat, legal: {"type": "move_in", "count": int(count)})

    @move.autocomplete("count")
    async def move_count(self, interaction: discord.Interaction, current: str) -> IntChoices:
        _game, legal = await self.legal(interaction)
        counts = [a["count"] for a in legal if a["type"] == "move_in"]
        if not counts:
            return []
        return count_choices(counts, current, lang(interaction), min(counts), max(counts))

    # ---- /risk play (a miracle card, issue 10) -------------------------------------------
    @staticmethod
    def card_plays(legal: list[Action], card: str | None) -> tuple[str | None, list[Action]]:
        """The card ``card`` names (an id, or its name in any language) among the playable ones, and
        its legal plays (one per choice of targets)."""
        from bot.games.godstorm.miracles import CARDS  # noqa: PLC0415 (loaded with the game)

        plays = [a for a in legal if a["type"] == "play_card"]
        ids = unique(a["card"] for a in plays)
        text = (card or "").strip().casefold()
        cid = next((c for c in ids if text == c.casefold()
                    or any(text == name.casefold() for name in CARDS[c].name.values())), None)
        return cid, [a for a in plays if a["card"] == cid]

    @staticmethod
    def target_label(game: Game, seat: int, action: Action, language: str) -> str:
        """The targets of a play as the panel names them (after "Play" and the card's name)."""
        return " › ".join(game.action_path(seat, action, language)[2:]) or "—"

    @risk.command(name="play", description=_("Play one of your miracle cards", key="godstorm.cmd.play"))
    @app_commands.describe(card=_("The card (only the ones you can play now)", key="godstorm.cmd.play.card"),
                           target=_("Its target, when there is a choice", key="godstorm.cmd.play.target"))
    async def play(self, interaction: discord.Interaction, card: PlaceText, target: PlaceText | None = None) -> None:
        language = lang(interaction)

        def build(game: Game, seat: int, legal: list[Action]) -> Action:
            cid, options = self.card_plays(legal, card)
            if cid is None:
                raise SessionError("godstorm.cmd.play.no_card")
            if len(options) == 1:
                return options[0]
            if target is None:
                raise SessionError("godstorm.cmd.play.no_target")
            wanted = target.strip()
            if (position := parse.index(wanted, len(options))) is not None:
                return options[position]
            for a in options:
                if self.target_label(game, seat, a, language).casefold() == wanted.casefold():
                    return a
            raise SessionError("godstorm.cmd.play.no_target")

        await self.run(interaction, build)

    @play.autocomplete("card")
    async def play_card(self, interaction: discord.Interaction, current: str) -> Choices:
        from bot.games.godstorm.miracles import CARDS  # noqa: PLC0415

        _game, legal = await self.legal(interaction)
        language = lang(interaction)
        out: Choices = []
        for cid in unique(a["card"] for a in legal if a["type"] == "play_card"):
            c = CARDS[cid]
            name = c.name.get(language, c.name["en"])
            if _matches(current, name, cid):
                out.append(app_commands.Choice(name=limits.option_label(f"{name} ({c.cost})"), value=cid))
        out.sort(key=lambda choice: sort_key(choice.name, language))  # issue 13: the reader's alphabet
        return out[:MAX_CHOICES]

    @play.autocomplete("target")
    async def play_target(self, interaction: discord.Interaction, current: str) -> Choices:
        try:
            _session, game, seat = await self.context(interaction)
        except SessionError:
            return []
        language = lang(interaction)
        _cid, options = self.card_plays(game.legal_actions(seat), getattr(interaction.namespace, "card", None))
        out: Choices = []
        for i, a in enumerate(options):
            label = self.target_label(game, seat, a, language)
            if _matches(current, label):
                out.append(app_commands.Choice(name=limits.option_label(label), value=str(i)))
        return out[:MAX_CHOICES]

    # ---- /risk end -------------------------------------------------------------------
    @risk.command(name="end", description=_("End the current step (or the whole turn)", key="godstorm.cmd.end"))
    @app_commands.describe(turn=_("End the whole turn", key="godstorm.cmd.end.turn"))
    async def end(self, interaction: discord.Interaction, turn: bool = False) -> None:
        def build(game: Game, seat: int, legal: list[Action]) -> Action:
            kinds = ("end_turn",) if turn else ("end_attacks", "end_step")
            for kind in kinds:
                if {"type": kind} in legal:
                    return {"type": kind}
            raise SessionError("godstorm.cmd.cannot_end")

        await self.run(interaction, build)

    # ---- /risk prefs (standing preferences, any time: issue 10) ---------------------------
    @staticmethod
    def pref_actions(game: Game, seat: int, dice: str | None, answer: str | None) -> list[Action]:
        """The standing actions that make the seat's preferences ``dice`` / ``answer`` (None: keep it),
        leaving out what is already so. Refused when the game offers no such preference."""
        standing = game.standing_actions(seat)
        if not standing:
            raise SessionError("prefs.cmd.none")
        me = game.view(seat).get("me", {})
        out: list[Action] = []
        if dice is not None and dice != me.get("dice_pref", "most"):
            out.append({"type": "dice_pref", "pref": dice})
        if answer is not None:
            if "never_answer" not in me:
                raise SessionError("prefs.cmd.no_cards")
            never = answer == "never"
            if never != me["never_answer"]:
                out.append({"type": "answer_pref", "never": never})
        for action in out:
            if not game.is_standing(seat, action):
                raise SessionError("err.not_legal")
        return out

    @risk.command(name="prefs", description=_("Your standing preferences: defence dice and answers with Sky cards",
                                              key="prefs.cmd"))
    @app_commands.describe(dice=_("How many dice you defend with from now on", key="prefs.cmd.dice"),
                           answer=_("Whether you are asked to answer attacks with Sky cards", key="prefs.cmd.answer"))
    @app_commands.choices(
        dice=[app_commands.Choice(name=_(t(f"godstorm.ui.pref_{p}", "en"), key=f"godstorm.ui.pref_{p}"), value=p)
              for p in ("most", "one", "ask")],
        answer=[app_commands.Choice(name=_(t(f"prefs.choice.{p}", "en"), key=f"prefs.choice.{p}"), value=p)
                for p in ("ask", "never")])
    async def prefs(self, interaction: discord.Interaction, dice: str | None = None,
                    answer: str | None = None) -> None:
        """Show (and with options, change) the caller's standing preferences, on their turn or not; the
        answer is ephemeral, and a change is told to nobody else (its event is private to the seat)."""
        language = lang(interaction)
        session, game, seats = await self.seated(interaction)
        seat = seats[0]
        events: list[Event] = []
        for action in self.pref_actions(game, seat, dice, answer):
            result = await self.bot.sessions.act(session.id, interaction.user.id, seat, action)
            events += result.events
            session = result.session
            assert session.game is not None
            game = session.game
        note = confirmation(game, events, seat, language) if events else t("prefs.cmd.unchanged", language)
        await reply(interaction, "\n".join(x for x in (note, game.standing_text(seat, language)) if x))


async def setup(bot: TabletopBot) -> None:
    if GAME_KEY not in available():
        log.info("the %s rules are not available: /risk is not loaded", GAME_KEY)
        return
    await bot.add_cog(RiskCog(bot))
