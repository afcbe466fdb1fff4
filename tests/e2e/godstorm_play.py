"""Playing Risk Godstorm through the fake Discord: bids in DM panels, moves by ``/risk`` and panels.

The player reads the committed state from the database (the bot answers an interaction only after
its commit), decides like a brisk human (place everything on the strongest border, a few attacks
with the odds, then end the turn) and acts through the real bot: ``/risk`` commands with
autocomplete, DM panels for the secret bids, ``/game hand`` panels for everything else.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from bot.core.i18n import t
from bot.games.godstorm import Godstorm
from bot.games.godstorm import board as gboard
from bot.games.godstorm.text import tname
from tests.e2e.helpers import Table, custom_ids, db_query, game_row, last_turn_post, play_panel

ALREADY_YOURS = "godstorm.why.own_target"
"""The refusal of an attack on one's own territory, saying why (bot/games/godstorm/why.py)."""

MAX_ATTACKS_PER_TURN = 3


@dataclass
class Log:
    """What the run exercised (asserted by the test)."""

    risk_commands: dict[str, int] = field(default_factory=dict)
    attacks: int = 0
    until_attacks: int = 0
    from_autocompletes: int = 0
    russian_autocompletes: int = 0
    fortified: int = 0
    panels: int = 0
    bid_rounds: int = 0
    dm_bids: int = 0
    refusals: list[str] = field(default_factory=list)
    move_autocompletes: int = 0
    until_rolls: list[int] = field(default_factory=list)
    rolls_pressed: int = 0
    """Declared attacks rolled with the answer's 🎲 (the undo window of a new game, issue 27)."""


def bid_shown(who: str, amount: int, text: str) -> bool:
    """``who: amount`` as the reveal lists it (``A: 1; B: 0.``), not a status line's ``who: 14 terr.``."""
    return re.search(re.escape(f"{who}: {amount}") + r"(;|\.)", text) is not None


class RiskPlayer:
    def __init__(self, table: Table, log: Log | None = None) -> None:
        self.table = table
        self.fake = table.fake
        self.log = log or Log()
        self.turn_attacks: dict[tuple[Any, ...], int] = {}

    # ---- state -----------------------------------------------------------------------
    def row(self) -> dict[str, Any]:
        return game_row(self.table.db, self.table.channel.id)

    def game(self) -> tuple[dict[str, Any], Godstorm]:
        """The committed game, with the players' display names as the bot sets them."""
        row = self.row()
        game = Godstorm.from_json(row["state"])
        game.seat_names = [self.table.by_id(users[0]).name for users in row["seat_users"]]
        return row, game

    def user_of(self, row: dict[str, Any], seat: int) -> Any:
        return self.table.by_id(row["seat_users"][seat][0])

    def lang_of(self, user: Any) -> str:
        return "ru" if str(user.locale).startswith("ru") else "en"

    async def wait_published(self, timeout: float = 30) -> None:
        def done() -> bool:
            r = self.row()
            return r["published_seq"] >= r["seq"]

        await self.fake.wait_for(done, timeout=timeout)

    # ---- acting ----------------------------------------------------------------------
    async def risk(self, user: Any, sub: str, **options: Any) -> Any:
        r = await self.fake.slash(user, self.table.channel, f"risk {sub}", options=options)
        assert r.ephemeral, r.content
        assert r.answered.startswith("✅"), (sub, options, r.content)
        self.log.risk_commands[sub] = self.log.risk_commands.get(sub, 0) + 1
        return r

    async def roll(self, user: Any, answer: Any) -> Any:
        """A declared attack waits for its roll (the undo window, issue 27): press the answer's 🎲 and
        return the click's answer (the dice, and the series of an "until"); else the answer as it was."""
        if self.game()[1].s.declared is None:
            return answer
        dice = [c["custom_id"] for c in answer.message.buttons if "🎲" in str(c.get("label", ""))]
        assert dice and custom_ids(answer.message, "tt:u:"), answer.content  # 🎲, and ↩ to take the order back
        done = await self.fake.click(user, answer.message, custom_id=dice[0])
        assert done.answered.startswith("✅"), done.content
        assert self.game()[1].s.declared is None
        self.log.rolls_pressed += 1
        return done

    async def hand(self, user: Any, pick: int = 0) -> Any:
        r = await self.fake.slash(user, self.table.channel, "game hand")
        assert r.ephemeral
        done = await play_panel(self.fake, user, r.message, pick=pick)
        assert done.answered.startswith("✅"), done.content
        self.log.panels += 1
        return done

    async def step(self) -> bool:
        """One decision of whoever must act; False once the game is finished."""
        row, game = self.game()
        if row["status"] == "finished":
            return False
        s = game.s
        if s.phase == "bid":
            await self.bid_round(row, game)
            return True
        seat = game.actors()[0]
        user = self.user_of(row, seat)
        if s.phase == "setup_place":
            where = max(sorted(game.owned(seat)), key=lambda x: self.border_weight(game, seat, x))
            if not self.log.risk_commands.get("place"):
                spots = await self.fake.autocomplete(user, self.table.channel, "risk place", focused="territory")
                assert {c["value"] for c in spots} <= game.owned(seat) and where in [c["value"] for c in spots]
                counts = await self.fake.autocomplete(user, self.table.channel, "risk place", focused="count",
                                                      options={"territory": where})
                assert [c["value"] for c in counts] == list(range(1, s.round_left + 1)), counts
            await self.risk(user, "place", territory=where, count=s.round_left)
        elif s.phase != "turn" or s.declared is not None:
            await self.hand(user)  # pantheon, war god and temple, turn-order position; 🎲 of a declared attack
        elif s.battle is not None:
            await self.hand(user)  # a godswar champion (either side)
        elif s.move is not None:
            await self.risk(user, "move", count=s.move.max)
        elif s.pending > 0:
            where = max(sorted(game.owned(seat)), key=lambda x: self.border_weight(game, seat, x))
            await self.risk(user, "place", territory=where, count=s.pending)
        elif s.step == "invade":
            await self.invade(row, game, seat, user)
        elif s.step == "fortify" and self.log.fortified < 2 and self.fortify_move(game, seat):
            await self.fortify(game, seat, user)
        elif s.step in ("gods", "cards", "raise"):
            await self.risk(user, "end")
        else:
            await self.risk(user, "end", turn=True)
        return True

    @staticmethod
    def border_weight(game: Godstorm, seat: int, where: str) -> tuple[int, int]:
        owned = game.owned(seat)
        enemies = sum(1 for n in gboard.NEIGHBOURS[where] if n not in owned)
        return (1 if enemies else 0, game.s.terr[where].armies)

    async def fortify(self, game: Godstorm, seat: int, user: Any) -> None:
        move = self.fortify_move(game, seat)
        assert move is not None
        src, dst, count = move
        owned = game.owned(seat)
        froms = await self.fake.autocomplete(user, self.table.channel, "risk fortify", focused="from")
        assert src in [c["value"] for c in froms] and {c["value"] for c in froms} <= owned, froms
        tos = await self.fake.autocomplete(user, self.table.channel, "risk fortify", focused="to",
                                           options={"from": src})
        assert dst in [c["value"] for c in tos] and {c["value"] for c in tos} <= owned - {src}, tos
        await self.risk(user, "fortify", **{"from": src, "to": dst, "count": count})
        _row, after = self.game()
        assert after.s.terr[dst].armies == game.s.terr[dst].armies + count
        self.log.fortified += 1

    @staticmethod
    def fortify_move(game: Godstorm, seat: int) -> tuple[str, str, int] | None:
        moves = [a for a in game.legal_actions(seat) if a["type"] == "fortify" and not a["gods"] and a["count"] > 0]
        if not moves:
            return None
        a = moves[0]
        return a["from"], a["to"], a["count"]

    # ---- bids in DMs -----------------------------------------------------------------
    def seat_counts(self) -> list[int]:
        rows = db_query(self.table.db, "SELECT seat_counts FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                        (self.table.channel.id,))
        return list(json.loads(rows[0][0]))

    def channel_lang(self) -> str:
        rows = db_query(self.table.db, "SELECT lang FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                        (self.table.channel.id,))
        return str(rows[0][0])

    def bid_panel(self, row: dict[str, Any], seat: int) -> Any | None:
        """The panel of ``seat`` for the current bid (its controls carry the seat's current stamp): a DM,
        or, for the player whose own move opened the epoch, the ephemeral answer to that move, which
        shows the new decision in place."""
        tag = f":{row['id']}:{seat}:{self.seat_counts()[seat]}:"
        user = self.user_of(row, seat)
        shown = [*self.fake.dm_messages(user), *self.fake.ephemeral_messages(user)]
        for message in sorted(shown, key=lambda m: m.id, reverse=True):
            ids = custom_ids(message, "tt:a:") + custom_ids(message, "tt:n:")
            if ids and all(tag in c for c in ids):
                return message
        return None

    def texts_since(self, first_id: int) -> list[str]:
        """Every version of every channel message from ``first_id`` on."""
        out: list[str] = []
        for message in self.fake.channel_messages(self.table.channel):
            if message.id >= first_id:
                out += [v.text for v in [*message.history, message.version]]
        return out

    async def bid_round(self, row: dict[str, Any], game: Godstorm) -> None:
        """Every remaining player bids from their panel (a DM, or the answer to their own move that opened
        the epoch); the channel learns only who has bid."""
        await self.wait_published()
        since = last_turn_post(self.table).id  # the post announcing the epoch (it pinged every bidder)
        lang = self.channel_lang()
        revealed = t("godstorm.evt.bids_revealed", lang, bids="").rstrip(" .")
        secret = [t("godstorm.evt.bid_secret", lg, n=0).split("0")[0].strip() for lg in ("en", "ru")]
        seats = list(game.actors())
        bids: dict[int, int] = {}
        for n, seat in enumerate(seats):
            user = self.user_of(row, seat)
            panel = await self.fake.wait_for(lambda seat=seat: self.bid_panel(row, seat), timeout=30)
            faith = game.s.players[seat].faith
            assert t("godstorm.prompt.bid", self.lang_of(user), n=faith) in panel.content, panel.content
            bid = min(faith, (seat + game.s.epoch) % 3)
            done = await play_panel(self.fake, user, panel, pick=bid)
            assert done.answered.startswith("✅"), done.content
            assert t("godstorm.evt.bid_secret", self.lang_of(user), n=bid) in done.content, done.content
            bids[seat] = bid
            if not panel.ephemeral:
                self.log.dm_bids += 1
            await self.wait_published()
            texts = self.texts_since(since)
            assert not any(word in x for x in texts for word in secret), "a private bid text reached the channel"
            assert any(t("godstorm.evt.has_bid", lang, who=game._who(seat, lang)) in x for x in texts)
            if n < len(seats) - 1:
                # someone is still thinking: no reveal, and no amount next to a bidder's name
                assert not any(revealed in x for x in texts), texts[-1]
                for other, amount in bids.items():
                    assert not any(bid_shown(game._who(other, lang), amount, x) for x in texts), texts[-1]
        reveal = next(x for x in reversed(self.texts_since(since)) if revealed in x)
        for seat, amount in bids.items():
            assert bid_shown(game._who(seat, lang), amount, reveal), reveal
        self.log.bid_rounds += 1

    # ---- invading --------------------------------------------------------------------
    def strong_attack(self, game: Godstorm, seat: int) -> dict[str, Any] | None:
        s = game.s
        best: tuple[int, dict[str, Any]] | None = None
        for a in game.legal_actions(seat):
            if a["type"] != "attack" or a["from"] not in s.terr:
                continue
            src, dst = s.terr[a["from"]], s.terr[a["to"]]
            if src.gods and dst.gods:
                continue  # a godswar: fine in play, but slow to drive here
            edge = src.armies - dst.armies
            if edge >= 2 and a["dice"] == min(3, src.armies - 1) and (best is None or edge > best[0]):
                best = (edge, a)
        return best[1] if best else None

    async def invade(self, row: dict[str, Any], game: Godstorm, seat: int, user: Any) -> None:
        key = (game.s.epoch, seat, row["seq"] // 1000, game.s.turn_idx)
        done = self.turn_attacks.get(key, 0)
        attack = self.strong_attack(game, seat) if done < MAX_ATTACKS_PER_TURN else None
        if attack is None:
            # once or twice a game, go on to the fortify step; otherwise end the whole turn
            await self.risk(user, "end", turn=self.log.fortified >= 2)
            return
        self.turn_attacks[key] = done + 1
        lang = self.lang_of(user)
        owned = game.owned(seat)
        legal = [a for a in game.legal_actions(seat) if a["type"] in ("attack", "attack_until")]
        fake, channel = self.fake, self.table.channel
        if not self.log.refusals:
            await self.refused_attack(row, user, lang, attack["from"], owned)
        froms = await fake.autocomplete(user, channel, "risk attack", focused="from")
        self.log.from_autocompletes += 1
        values = [c["value"] for c in froms]
        sources = {a["from"] for a in legal}
        assert values and set(values) <= owned, (values, sorted(owned))
        assert set(values) == sources if len(sources) <= 25 else set(values) < sources
        assert all(c["name"].startswith(tname(c["value"], lang)) for c in froms), froms  # the caller's language
        if lang == "ru":
            self.log.russian_autocompletes += 1
        tos = await fake.autocomplete(user, channel, "risk attack", focused="to", options={"from": attack["from"]})
        assert {c["value"] for c in tos} == {a["to"] for a in legal if a["from"] == attack["from"]}, tos
        dice = await fake.autocomplete(user, channel, "risk attack", focused="dice",
                                       options={"from": attack["from"], "to": attack["to"]})
        assert {c["value"] for c in dice} == {a["dice"] for a in legal if a["type"] == "attack"
                                               and a["from"] == attack["from"] and a["to"] == attack["to"]}
        options: dict[str, Any] = {"from": attack["from"], "to": attack["to"], "dice": attack["dice"]}
        if done == 0:
            untils = await fake.autocomplete(user, channel, "risk attack", focused="until", options=options)
            assert 1 in [c["value"] for c in untils], untils
            # until conquered, or (every other turn) until half of the attackers are left
            here = game.s.terr[attack["from"]].armies
            options["until"] = 1 if self.log.until_attacks % 2 == 0 else max(1, here // 2)
        seq = row["seq"]
        r = await self.roll(user, await self.risk(user, "attack", **options))
        self.log.attacks += 1
        if "until" in options:
            self.log.until_attacks += 1
            rolls = self.logged_rolls(row["id"], seq)
            assert rolls >= 1
            self.log.until_rolls.append(rolls)
            # each roll is in the answer too; a long series is condensed to its first and last roll and
            # how many came between (issue 13), never cut to the newest few
            roll_lines = [x for x in r.content.splitlines() if "] vs [" in x or "] против [" in x]
            between = t("panels.more_like_this", lang, n=rolls - 2)
            assert len(roll_lines) >= rolls or (len(roll_lines) >= 2 and between in r.content), r.content
            _after, now = self.game()
            s = now.s
            conquered = s.move is not None or s.terr[attack["to"]].owner == seat
            assert conquered or s.terr[attack["from"]].armies <= options["until"], options
        if self.game()[1].s.move is not None and not self.log.move_autocompletes:
            counts = await fake.autocomplete(user, channel, "risk move", focused="count")
            m = self.game()[1].s.move
            assert counts and all(m.min <= c["value"] <= m.max for c in counts), (counts, m)
            self.log.move_autocompletes += 1

    async def refused_attack(self, row: dict[str, Any], user: Any, lang: str, src: str, owned: set[str]) -> None:
        """An attack on one's own territory is refused in the caller's language, saying why (issue 25
        item 7: the territory is already theirs), and nothing changes: it is not among the caller's
        legal actions, so the platform refuses it before the rules."""
        own = next((n for n in [*gboard.NEIGHBOURS[src], *sorted(owned)] if n in owned and n != src), None)
        if own is None:
            return
        before = self.row()["seq"]
        r = await self.fake.slash(user, self.table.channel, "risk attack", options={"from": src, "to": own, "dice": 1})
        assert r.ephemeral and r.content == "⛔ " + t(ALREADY_YOURS, lang, where=tname(own, lang)), r.content
        assert self.row()["seq"] == before
        self.log.refusals.append(r.content)

    def logged_rolls(self, game_id: int, after_seq: int) -> int:
        """Roll events logged by the actions after ``after_seq`` (each roll of attack_until is one)."""
        rows = db_query(self.table.db, "SELECT action, events FROM actions WHERE game_id = ? AND seq > ?",
                        (game_id, after_seq))
        assert rows and json.loads(rows[0][0])["type"] == "attack_until", rows
        return sum(1 for _, events in rows for e in json.loads(events) if e.get("type") == "roll")

    async def play(self, limit: int = 1500) -> None:
        for _ in range(limit):
            if not await self.step():
                return
        raise AssertionError("the game did not end")
