"""Driving a Cold War game through the fake Discord as its players would (DM panels, /game hand).

The driver reads the committed game from SQLite to know who must act and what is legal, picks an
action with a simple quick-game strategy and performs it through the controls the bot sent:

* a seat that was *newly prompted* gets a DM panel (every user of the seat does): the driver waits
  for it, so a missing DM fails the test;
* a seat whose decision continues after its own click (holder picks who acts first -> planning,
  media peek -> take/discard/return, ...) acts on the panel the click response left in place
  (``r.message``: the same DM, or the ephemeral ``/game hand`` message);
* now and then a struggle turn is played through ``/game hand`` instead of the DM.

Privacy: every round records a snapshot of the channel message versions when the round is first
seen; once both agents are chosen (struggle phase) and again just before the wait that ends the
struggle (truce and report follow in the same action), every channel version created since the
snapshot is scanned for the chosen agents' names (ru and en), from the round's planning line on.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.core.i18n import t
from bot.discord_app.panels import action_hash
from bot.games.coldwar import ColdWar
from tests.e2e.helpers import Table, custom_ids, db_query, game_row, turn_posts
from tests.fake_discord.models import walk_components

LANGS = ("en", "ru")


def agent_names(agent: int) -> list[str]:
    return [t(f"coldwar.agent.{agent}", lang) for lang in LANGS]


def round_headers(n: int) -> list[str]:
    return [t("coldwar.evt.round", lang, round=n) for lang in LANGS]


def panel_ids(message: Any) -> list[str]:
    return custom_ids(message, "tt:a:") + custom_ids(message, "tt:n:")


def panel_stamp(message: Any) -> tuple[int, int, int] | None:
    """(game, seat, stamp) of a message's current action controls, if it has any."""
    ids = panel_ids(message)
    if not ids:
        return None
    parts = ids[0].split(":")
    return int(parts[2]), int(parts[3]), int(parts[4])


def is_button_for(table: Table, custom_id: str, action: dict[str, Any]) -> bool:
    """Whether an action button stands for ``action``: its tag is keyed with the install's secret,
    which the test reads from the bot's database (as only the bot itself can)."""
    rows = db_query(table.db, "SELECT value FROM meta WHERE key = 'control_key'")
    _, _, gid, seat, stamp, digest = custom_id.split(":")
    return action_hash(action, int(gid), int(seat), int(stamp), key=bytes.fromhex(rows[0][0])) == digest


def user_lang(user: Any) -> str:
    return "ru" if str(user.locale).lower().startswith("ru") else "en"


@dataclass
class RoundLog:
    snapshot: dict[int, int]              # message id -> number of versions when the round was first seen
    agents: list[int] | None = None       # agent X of each seat (from the state once both chose)
    scanned: int = 0                      # channel versions scanned by the last scan before the report
    scans: int = 0                        # scans: once both chose, and before the wait ending the struggle


@dataclass
class Move:
    seat: int
    kind: str
    user: Any
    panel: Any
    how: str          # "dm", "continuation" (panel left by the seat's last click) or "hand"
    action: dict[str, Any]


@dataclass
class Stats:
    actions: int = 0
    via_dm: int = 0
    via_continuation: int = 0
    via_hand: int = 0
    plans_via_dm: int = 0
    users: dict[int, int] = field(default_factory=dict)   # user id -> actions made
    kinds: dict[str, int] = field(default_factory=dict)   # decision kind -> actions made
    selects: int = 0                                      # nested select levels operated
    together: int = 0                                     # planning rounds with both clicks at once
    replaced: int = 0                                     # panels stripped after being chosen, a newer one used


class ColdWarDriver:
    def __init__(self, table: Table | None, *, seed: int = 1, hand_every: int = 7, max_groups: int = 1,
                 busy: float = 0.0, together_every: int = 0) -> None:
        self.table = table  # type: ignore[assignment]
        self.fake = table.fake if table else None
        self.rnd = random.Random(seed)
        self.hand_every = hand_every
        self.max_groups = max_groups
        self.busy = busy  # chance to use a random active group (media peeks, flips, steals) in a turn
        self.together_every = together_every  # every n-th round both agents are clicked at once
        self.cont: dict[int, tuple[Any, Any]] = {}   # seat -> (user, message) left by its last click
        self.last: tuple[int, Any, str, Any] | None = None   # seat, user, how, panel of the latest action
        self.rounds: dict[int, RoundLog] = {}
        self.stats = Stats()
        self.turns = 0
        self.gid: int | None = None

    # ---- reading the committed game ----------------------------------------------------
    def row(self) -> dict[str, Any]:
        row = game_row(self.table.db, self.table.channel.id)
        self.gid = row["id"]
        return row

    def seat_counts(self) -> list[int]:
        (raw,), = db_query(self.table.db, "SELECT seat_counts FROM games WHERE id = ?", (self.gid,))
        return json.loads(raw)

    async def published(self, timeout: float = 20) -> dict[str, Any]:
        """The game row once the publisher has posted everything committed."""
        return await self.fake.wait_for(
            lambda: (r := self.row())["published_seq"] == r["seq"] and r, timeout=timeout)

    def version_counts(self) -> dict[int, int]:
        return {m.id: len(m.versions) for m in self.fake.all_guild_messages()}

    def versions_since(self, snapshot: dict[int, int]) -> list[str]:
        texts = []
        for message in self.fake.all_guild_messages():
            texts += [v.text for v in message.versions[snapshot.get(message.id, 0):]]
        return texts

    # ---- choosing ----------------------------------------------------------------------
    def choose(self, game: ColdWar, seat: int) -> dict[str, Any]:
        s, eng = game.s, game.engine
        legal = game.legal_actions(seat)
        kind = s.dec.kind
        if kind == "plan":
            return self.rnd.choice(legal)
        if kind == "turn":
            recruit = {"type": "recruit"} in legal
            if recruit and (eng.count(seat) == 0 or (eng.count(seat) < self.max_groups
                                                     and eng.inf(seat) + 3 <= eng.stability())):
                return {"type": "recruit"}
            uses = [a for a in legal if a["type"] == "use"]
            if uses and self.rnd.random() < self.busy:
                return self.rnd.choice(uses)
            hits = [a for a in legal if a["type"] == "use" and "target" in a
                    and any(g.gid == a["target"] for g in s.table[1 - seat])]
            if hits and eng.inf(1 - seat) > eng.inf(seat) and self.rnd.random() < 0.5:
                return self.rnd.choice(hits)
            if {"type": "wait"} in legal:
                return {"type": "wait"}
            return legal[0]
        if kind == "event":
            return {"type": "skip"}  # using an event burns its points: the game would last longer
        if kind == "double":
            return self.rnd.choice(legal)
        return legal[0]  # first (holder first), media take, analyst/space order, discard

    # ---- finding the panel -------------------------------------------------------------
    def prompted_since_own(self, seat: int) -> bool:
        """Was ``seat`` newly prompted (DM panels sent) after its own latest action?"""
        rows = db_query(self.table.db, "SELECT seq, seat, events FROM actions WHERE game_id = ? ORDER BY seq",
                        (self.gid,))
        last_own = max((seq for seq, s, _ in rows if s == seat), default=0)
        if last_own == 0 and not any(s == seat for _, s, _ in rows):
            # never acted: prompted at the start or by someone else's action
            return True
        for seq, _, events in rows:
            if seq > last_own and any(e.get("type") == "platform.prompt" and seat in e.get("seats", [])
                                      for e in json.loads(events)):
                return True
        return False

    def stamps_shown(self, message: Any, seat: int) -> str:
        """For a refused click: the stamps each version of the clicked panel carried, oldest first, and the
        seat's stored one. A panel edited back to an older stamp after a newer one is the bot's doing; one
        that never showed the stored stamp was an old panel the driver chose."""
        shown = []
        for version in message.versions:
            ids = [c["custom_id"] for c in walk_components(version.components)
                   if str(c.get("custom_id", "")).startswith("tt:a:")]
            shown.append(int(ids[0].split(":")[4]) if ids else None)
        return f"panel {message.id} stamps by version {shown}; the seat's stored stamp {self.seat_counts()[seat]}"

    def current(self, message: Any, seat: int, stamp: int) -> bool:
        return panel_stamp(message) == (self.gid, seat, stamp)

    async def dm_panels(self, seat: int, users: list[Any], stamp: int, timeout: float = 20,
                        quiet: bool = False) -> dict[int, Any]:
        """Every user of the seat has a DM panel with the seat's current stamp: user id -> panel."""
        def ready() -> dict[int, Any] | None:
            found = {}
            for user in users:
                panels = [m for m in self.fake.dm_messages(user) if self.current(m, seat, stamp)]
                if not panels:
                    return None
                found[user.id] = panels[-1]
            return found

        try:
            return await self.fake.wait_for(ready, timeout=timeout)
        except TimeoutError as exc:
            if quiet:
                raise
            row = self.row()
            recent = db_query(self.table.db, "SELECT seq, seat, action, events FROM actions WHERE game_id = ?"
                                             " ORDER BY seq DESC LIMIT 3", (self.gid,))
            dms = [(u.id, [(m.id, panel_stamp(m), m.content[:80]) for m in self.fake.dm_messages(u)[-3:]])
                   for u in users]
            raise AssertionError(
                f"seat {seat} (stamp {stamp}) got no DM panel; seq {row['seq']} published {row['published_seq']}"
                f" decision {row['state']['state']['dec']}\nrecent actions {recent}\nDMs {dms}\n"
                f"last click {self.last}\nbot output tail:\n" + self.table.bot.output()[-3000:]) from exc

    def no_panel(self, seat: int, kind: str, stamp: int, users: list[Any], panel: Any) -> str:
        recent = db_query(self.table.db, "SELECT seq, seat, action, events FROM actions WHERE game_id = ?"
                                         " ORDER BY seq DESC LIMIT 3", (self.gid,))
        dms = [(u.id, [(m.id, panel_stamp(m), m.content[:80]) for m in self.fake.dm_messages(u)[-3:]])
               for u in users]
        left = None if panel is None else (panel.id, panel_stamp(panel), [v.text[:80] for v in panel.versions])
        return (f"seat {seat} must act ({kind}, stamp {stamp}) but was neither prompted nor left a panel\n"
                f"left panel {left}\nrecent actions {recent}\nDMs {dms}\nlast click {self.last}\n"
                "bot output tail:\n" + self.table.bot.output()[-3000:])

    # ---- acting ------------------------------------------------------------------------
    async def replacement(self, user: Any, panel: Any, seat: int) -> Any:
        """The user's panel that took over from ``panel``, which lost its controls after the driver chose
        it: a newer DM or ephemeral panel of the seat's current decision (one live panel per player, e.g. a
        DM bringing news of an earlier move). A panel stripped with none taking over fails the test."""
        stamp = self.seat_counts()[seat]

        def newer() -> Any:
            shown = [m for m in (*self.fake.dm_messages(user), *self.fake.ephemeral_messages(user))
                     if self.current(m, seat, stamp)]
            return max(shown, key=lambda m: m.id) if shown else None

        try:
            found = await self.fake.wait_for(newer, timeout=10)
        except TimeoutError:
            raise AssertionError(f"panel {panel.id} lost its controls and no other panel took over:\n"
                                 + self.no_panel(seat, "?", stamp, [user], panel)) from None
        self.stats.replaced += 1
        return found

    async def operate(self, user: Any, panel: Any, game: ColdWar, seat: int, action: dict[str, Any]) -> Any:
        """Press the controls leading to ``action`` (buttons by hash, nested selects by label)."""
        path = game.action_path(seat, action, user_lang(user))
        current = panel if panel_stamp(panel) is not None else await self.replacement(user, panel, seat)
        for depth in range(6):
            buttons = [c for c in custom_ids(current, "tt:a:") if is_button_for(self.table, c, action)]
            if buttons:
                return await self.fake.click(user, current, custom_id=buttons[0])
            assert not custom_ids(current, "tt:a:"), f"{action} is not among the buttons of {current.content!r}"
            label = path[depth] if len(path[depth]) <= 100 else path[depth][:99] + "…"
            options = [(c["custom_id"], o["value"]) for c in current.all_components()
                       if c.get("custom_id", "").startswith("tt:n:") for o in c["options"] if o["label"] == label]
            seen = [(c["custom_id"], [o["label"] for o in c["options"]]) for c in current.all_components()
                    if "options" in c]
            assert options, (f"no select option {label!r} for {action} (depth {depth}) on message {current.id} "
                             f"({len(current.history)} earlier versions) {current.content!r}; its selects: {seen}")
            r = await self.fake.select(user, current, values=[options[0][1]], custom_id=options[0][0])
            self.stats.selects += 1
            if r.answered.startswith(("✅", "⛔")):
                return r
            current = r.message
        raise AssertionError(f"the panel did not lead to {action}")

    async def step(self) -> bool:
        """One decision of one seat. Returns False once the game is finished."""
        row = self.row()
        if row["status"] == "finished":
            return False
        game = ColdWar.from_json(row["state"])
        s = game.s
        if s.round not in self.rounds:
            row = await self.published()
            game = ColdWar.from_json(row["state"])
            s = game.s
            self.rounds.setdefault(s.round, RoundLog(self.version_counts()))
        log = self.rounds[s.round]
        if log.agents is None and s.x[0] is not None and s.x[1] is not None and s.phase == "struggle":
            await self.scan_round(s.round)
            row = self.row()
            game = ColdWar.from_json(row["state"])
            s = game.s
        actors = game.actors()
        assert actors, f"nobody must act in {s.phase} ({s.dec})"
        if (s.dec.kind == "plan" and len(actors) == 2 and self.together_every
                and s.round % self.together_every == 0):
            # simultaneous planning: both sides click their agent at the same moment
            moves = [await self.prepare(game, row, seat) for seat in actors]
            await asyncio.gather(*(self.perform(game, move) for move in moves))
            self.stats.together += 1
        else:
            await self.perform(game, await self.prepare(game, row, actors[0]))
        return True

    async def prepare(self, game: ColdWar, row: dict[str, Any], seat: int) -> Move:
        """Choose the seat's action and find the panel to perform it on."""
        s = game.s
        kind = s.dec.kind
        stamp = self.seat_counts()[seat]
        users = [self.table.by_id(u) for u in row["seat_users"][seat]]
        action = self.choose(game, seat)
        if kind == "turn" and action["type"] == "wait" and s.waits == 1:
            # this wait ends the struggle; the truce and the report follow at once: scan again,
            # now with every struggle post of the round
            await self.scan_round(s.round)
        user = users[stamp % len(users)]  # team seats: members take turns
        if self.prompted_since_own(seat):
            dms = await self.dm_panels(seat, users, stamp)
            panel, how = dms[user.id], "dm"
            # the channel post that asked this seat to act pinged all its users (a DM panel can be current
            # before that post is out: an older DM panel is brought up to date a second after the seat's
            # own move made elsewhere, bot/discord_app/livepanels.py)
            def pinged() -> Any:
                post = turn_posts(self.table)[-1]
                return post if all(u.id in post.mentions for u in users) else None

            try:
                await self.fake.wait_for(pinged, timeout=20)
            except TimeoutError:
                post = turn_posts(self.table)[-1]
                raise AssertionError((seat, post.mentions, post.content)) from None
        else:
            user, panel = self.cont.get(seat, (None, None))
            how = "continuation"
            if user is not None and (panel is None or not self.current(panel, seat, stamp)):
                # the click's answer could not show all of the seat's private news (or news of an
                # earlier move was still on its way): a new DM brings it with the current panel,
                # and the clicked one lost its controls (one live panel per player)
                try:
                    panel = (await self.dm_panels(seat, [user], stamp, timeout=10, quiet=True))[user.id]
                    how = "dm"
                except TimeoutError:
                    pass
            if panel is None or not self.current(panel, seat, stamp):
                raise AssertionError(self.no_panel(seat, kind, stamp, users, panel))
        if kind == "plan":
            assert panel.channel_id == self.fake.dm_channel(user).id, "the agent choice must happen in a DM"
            # the DM panel lists exactly the agents in headquarters, in the user's language
            labels = sorted(b.get("label", "") for b in panel.buttons if b.get("custom_id", "").startswith("tt:a:"))
            lang = user_lang(user)
            assert labels == sorted(t("coldwar.act.agent", lang, agent=t(f"coldwar.agent.{a}", lang), n=a)
                                    for a in s.agents[seat].hq), labels
        elif (kind == "turn" and how == "dm" and self.hand_every and self.turns % self.hand_every == 0
              and not (action["type"] == "wait" and s.waits == 1)):
            # not the wait that ends the struggle: when the same seat holds the balance token next
            # round, its "who acts first" and then its agent choice continue on the clicked panel
            # (no new DM), and the agent choice must happen in a DM
            r = await self.fake.slash(user, self.table.channel, "game hand")
            assert r.ephemeral and self.current(r.message, seat, stamp), r.content
            panel, how = r.message, "hand"
        if kind == "turn":
            self.turns += 1
        return Move(seat, kind, user, panel, how, action)

    async def perform(self, game: ColdWar, move: Move) -> None:
        seat, kind, user, action = move.seat, move.kind, move.user, move.action
        r = await self.operate(user, move.panel, game, seat, action)
        # the answer, not the live message: the publisher may already have brought the panel up to date
        assert r.answered.startswith("✅"), (action, r.answered, self.stamps_shown(move.panel, seat))
        if kind == "plan":  # the click response confirms the secret choice (in the DM only)
            name = t(f"coldwar.agent.{action['agent']}", user_lang(user))
            assert t("coldwar.evt.agent_chosen", user_lang(user), agent=name) in r.answered, r.answered
            self.stats.plans_via_dm += 1
        self.cont[seat] = (user, r.message)
        self.last = (seat, user, move.how, move.panel)
        self.stats.actions += 1
        self.stats.users[user.id] = self.stats.users.get(user.id, 0) + 1
        self.stats.kinds[kind] = self.stats.kinds.get(kind, 0) + 1
        if move.how == "dm":
            self.stats.via_dm += 1
        elif move.how == "hand":
            self.stats.via_hand += 1
        else:
            self.stats.via_continuation += 1

    async def scan_round(self, n: int) -> None:
        """Both agents X of round ``n`` are chosen, the report is still to come: no channel text
        posted during this round names them.

        Only text from the round's planning on counts: a post edited in place keeps earlier lines,
        and lines before "Planning: choose your agent X" were written before anybody chose (the
        previous round's report, or this briefing's "studied the top 3 groups (Analyst)", which
        names the *previous* round's agent, who may legitimately be chosen again by the other side).
        """
        row = await self.published()
        game = ColdWar.from_json(row["state"])
        s = game.s
        assert s.round == n and s.phase == "struggle"
        log = self.rounds[n]
        log.agents = list(s.x)
        # the public view (what the board image is drawn from) keeps both agents face down
        assert [side["x"] for side in game.view(None)["sides"]] == ["hidden", "hidden"]
        secret = [name for agent in log.agents for name in agent_names(agent)]
        headers = round_headers(n) + [t("coldwar.evt.planning", lang) for lang in LANGS]
        texts = self.versions_since(log.snapshot)
        for text in texts:
            cut = max((text.rfind(h) + len(h) for h in headers if h in text), default=0)
            part = text[cut:]
            leaked = [name for name in secret if name in part]
            assert not leaked, f"round {n}: agent {leaked} named in the channel before the report:\n{text}"
        log.scanned = len(texts)
        log.scans += 1

    async def play(self, limit: int = 600) -> None:
        for _ in range(limit):
            if not await self.step():
                return
        raise AssertionError("the game did not end")


def report_lines(db: Path, game_id: int) -> dict[int, list[str]]:
    """Round -> the public lines revealing agents X (report, civil unrest), from the action log,
    in the channel's language."""
    from bot.games.coldwar.cards import card_set
    from bot.games.coldwar.text import event_text

    (lang, state), = db_query(db, "SELECT lang, state FROM games WHERE id = ?", (game_id,))
    cards = card_set(json.loads(state)["state"])
    out: dict[int, list[str]] = {}
    n = 1  # round 1 starts with the game (its header is no logged action)
    for (events,) in db_query(db, "SELECT events FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)):
        for e in json.loads(events):
            if e.get("type") == "round":
                n = e["round"]
            elif e.get("type") in ("report", "unrest") and "to" not in e:
                # the round header comes after the report of the previous round in the same action
                out.setdefault(n, []).append(event_text(e, lang, cards) or "")
    return out


def assert_replays(db: Path, channel_id: int) -> None:
    from bot.core.replay import replay
    from bot.core.store import ActionRow

    gid, seed, seat_info, options, state = db_query(
        db, "SELECT id, seed, seat_info, options, state FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
        (channel_id,))[0]
    actions = [ActionRow(seq, seat, None, json.loads(a), [], 0.0)
               for seq, seat, a in db_query(db, "SELECT seq, seat, action FROM actions WHERE game_id = ?"
                                                " ORDER BY seq", (gid,))]
    game = replay("coldwar", json.loads(seat_info), json.loads(options), seed, actions)
    assert json.loads(json.dumps(game.to_json())) == json.loads(state)

