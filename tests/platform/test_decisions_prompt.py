"""Prompting from the open decisions (issue 24 item 1, the platform side).

The rules these tests hold the session layer to come from the issue and docs/architecture.md ("Who is
prompted"): after a move the platform prompts exactly the seats that hold an open decision they did not
hold before (``bot.games.decision.newly_open``), with no comparison of legal lists; the acting seat sees
its next panel in place and is not prompted, except a seat shared by a team that is still deciding after a
move of its own (its other members are told; the clicker is ``skip_user``); a standing preference prompts
nobody; the ``platform.prompt`` event carries the open decisions; a deadline the rules impose comes from
the open decisions; a click computes the acting seat's legal list once and nobody else's; after a restart
the open decisions are asked of the loaded game; logs written before the decisions were stored replay.

The game here is a small one written for these checks (``Relay``), on :class:`DecisionGame`:

* ``turn`` (seat ``turn``): ``step 1`` (the seat goes again) or ``step 2`` (a vote opens for every seat);
* ``vote`` (every seat that has not voted; simultaneous, secret, 600 s imposed by the rules; its key is the
  vote's round): when every seat has voted, the turn passes to the next seat;
* a moderator's ``recount`` while a vote is open starts the vote's round again (the same seats, a new key);
* a standing ``mood`` any seat may set at any time; whoever reaches 20 wins.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, ClassVar

import pytest

from bot.core.replay import verify
from bot.core.sessions import SessionManager, UserInfo
from bot.core.store import Store
from bot.games import registry
from bot.games.base import ADMIN, Action, Arrangement, Event, OptionSpec, Outcome, Player, Rng
from bot.games.decision import DecisionGame, DecisionKind
from bot.games.manifest import GameManifest, RendererSpec

ALICE, BOB, CAROL, DAN = UserInfo(1, "alice"), UserInfo(2, "bob"), UserInfo(3, "carol"), UserInfo(4, "dan")
VOTE_DEADLINE = 600


def _step(game: Relay, seat: int, action: Action) -> list[Event]:
    s = game.s
    s["total"] += action["n"]
    events: list[Event] = [{"type": "stepped", "seat": seat, "n": action["n"]}]
    if s["total"] >= 20:
        s["winner"] = seat
    elif action["n"] == 2:
        s["votes"], s["round"] = {}, s["round"] + 1
    return events


def _vote(game: Relay, seat: int, action: Action) -> list[Event]:
    s = game.s
    s["votes"][str(seat)] = action["v"]
    events: list[Event] = [{"type": "voted", "seat": seat, "to": [seat]}]
    if len(s["votes"]) == s["n"]:
        s["votes"], s["turn"] = None, (s["turn"] + 1) % s["n"]
        events.append({"type": "vote_over"})
    return events


def _mood(game: Relay, seat: int, action: Action) -> list[Event]:
    game.s["moods"][str(seat)] = action["m"]
    return []


class Relay(DecisionGame):
    key = "relay"
    DECISIONS: ClassVar[dict[str, DecisionKind[Any]]] = {
        "turn": DecisionKind["Relay"](
            who=lambda g: [g.s["turn"]],
            legal=lambda g, seat: [{"type": "step", "n": 1}, {"type": "step", "n": 2}],
            moves={"step": _step},
            timeout=lambda g, seat: {"type": "step", "n": 1}),
        "vote": DecisionKind["Relay"](
            who=lambda g: [i for i in range(g.s["n"]) if str(i) not in g.s["votes"]],
            legal=lambda g, seat: [{"type": "vote", "v": 0}, {"type": "vote", "v": 1}],
            moves={"vote": _vote}, simultaneous=True, secret=True, deadline_s=VOTE_DEADLINE,
            timeout=lambda g, seat: {"type": "vote", "v": 0}),
    }
    STANDING = {"mood": _mood}

    def __init__(self, state: dict[str, Any]) -> None:
        self.s = state

    @classmethod
    def option_specs(cls) -> list[OptionSpec]:
        return [OptionSpec("teams", "relay.teams", ((0, "relay.no"), (1, "relay.yes")), 0)]

    @classmethod
    def player_range(cls, options: dict[str, Any]) -> tuple[int, int]:
        return 2, 4

    @classmethod
    def team_count(cls, options: dict[str, Any], n_players: int) -> int:
        return 2 if options.get("teams") else 0

    @classmethod
    def arrange_seats(cls, players: list[Player], options: dict[str, Any], rng: Rng) -> Arrangement:
        if not options.get("teams"):
            return Arrangement([[p.user_id] for p in players], [{} for _ in players])
        seats: list[list[int]] = [[], []]
        for p in players:
            seats[p.team or 0].append(p.user_id)
        return Arrangement(seats, [{}, {}])

    @classmethod
    def new(cls, seat_info: list[dict[str, Any]], options: dict[str, Any], seed: int) -> Relay:
        return cls({"n": len(seat_info), "turn": 0, "total": 0, "round": 0, "votes": None, "winner": None,
                    "moods": {}})

    def open_kinds(self) -> list[str]:
        if self.s["winner"] is not None:
            return []
        return ["vote"] if self.s["votes"] is not None else ["turn"]

    def decision_key(self, kind: str) -> str:
        return str(self.s["round"]) if kind == "vote" else ""

    def standing_actions(self, seat: int) -> list[Action]:
        return [{"type": "mood", "m": m} for m in ("calm", "bold")]

    def admin_actions(self) -> list[Action]:
        return [{"type": "recount"}] if self.s["votes"] is not None else []

    def apply(self, seat: int, action: Action) -> list[Event]:
        if seat == ADMIN and action in self.admin_actions():
            self.s["votes"], self.s["round"] = {}, self.s["round"] + 1
            return [{"type": "recounted"}]
        return super().apply(seat, action)

    def outcome(self) -> Outcome | None:
        return None if self.s["winner"] is None else {"winners": [self.s["winner"]], "draw": False}

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"total": self.s["total"], "turn": self.s["turn"]}

    def to_json(self) -> dict[str, Any]:
        return json.loads(json.dumps(self.s))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Relay:
        return cls(json.loads(json.dumps(data)))

    def action_path(self, seat: int, action: Action, lang: str) -> list[str]:
        return [f"{action['type']} {action.get('n', action.get('v', action.get('m')))}"]

    def event_text(self, event: Event, lang: str) -> str | None:
        return str(event["type"])


class CountingRelay(Relay):
    """The same game, counting every seat's legal lists asked for (the rules' own calls included)."""

    calls: ClassVar[Counter[int]] = Counter()

    def legal_actions(self, seat: int) -> list[Action]:
        CountingRelay.calls[seat] += 1
        return super().legal_actions(seat)


@pytest.fixture(autouse=True)
def relay_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    here = __name__ if __name__.startswith("tests.") else "tests.platform.test_decisions_prompt"
    for key, cls in (("relay", "Relay"), ("relaycount", "CountingRelay")):
        monkeypatch.setitem(registry.GAMES, key, GameManifest(key=key, rules=f"{here}:{cls}",
                                                              renderer=RendererSpec("tests.platform.toy")))


@pytest.fixture
async def store(tmp_path: Path):
    store = await Store.open(tmp_path / "d.sqlite3")
    yield store
    await store.close()


async def started(sessions: SessionManager, *users: UserInfo, game: str = "relay", teams: bool = False,
                  deadline_s: int = 0) -> int:
    session = await sessions.create(guild_id=5, channel_id=100, host=users[0], game_key=game,
                                    options={"teams": 1} if teams else {}, deadline_s=deadline_s)
    for i, user in enumerate(users):
        await sessions.join(session.id, user, team=i % 2 if teams else None)
    await sessions.start(session.id, users[0].id, seed=7)
    return session.id


def prompts(events: list[Event]) -> list[Event]:
    return [e for e in events if e.get("type") == "platform.prompt"]


async def test_the_seats_prompted_are_those_with_a_decision_they_did_not_hold(store: Store) -> None:
    sessions = SessionManager(store)
    gid = await started(sessions, ALICE, BOB, CAROL)
    # seat 0 steps twice: a vote opens for every seat; the two others are prompted, not the clicker
    assert prompts((await sessions.act(gid, ALICE.id, 0, {"type": "step", "n": 1})).events) == []
    result = await sessions.act(gid, ALICE.id, 0, {"type": "step", "n": 2})
    [prompt] = prompts(result.events)
    assert prompt["seats"] == [1, 2] and "skip_user" not in prompt
    assert prompt["decisions"] == [{"kind": "vote", "seats": [0, 1, 2], "key": "1", "simultaneous": True,
                                    "secret": True, "deadline_s": VOTE_DEADLINE}]
    # a vote landing changes no other voter's decision: nobody is prompted
    assert prompts((await sessions.act(gid, BOB.id, 1, {"type": "vote", "v": 1})).events) == []
    # the moderator's recount gives the seats still voting a new decision (a new key): prompted again
    result = await sessions.act_admin(gid, 99, {"type": "recount"})
    assert [p["seats"] for p in prompts(result.events)] == [[0, 1, 2]]
    for seat, user in ((0, ALICE), (1, BOB)):
        await sessions.act(gid, user.id, seat, {"type": "vote", "v": 0})
    # the last vote passes the turn to seat 1
    result = await sessions.act(gid, CAROL.id, 2, {"type": "vote", "v": 0})
    assert [p["seats"] for p in prompts(result.events)] == [[1]]
    assert prompts(result.events)[0]["decisions"] == [{"kind": "turn", "seats": [1]}]


async def test_a_team_seat_still_deciding_is_prompted_for_its_other_members(store: Store) -> None:
    sessions = SessionManager(store)
    gid = await started(sessions, ALICE, BOB, CAROL, DAN, teams=True)  # seat 0: alice, carol; seat 1: bob, dan
    assert sessions.sessions[gid].row.seat_users == [[ALICE.id, CAROL.id], [BOB.id, DAN.id]]
    # alice steps 1: seat 0 goes again, so carol must hear of it; alice sees her panel in place
    [prompt] = prompts((await sessions.act(gid, ALICE.id, 0, {"type": "step", "n": 1})).events)
    assert prompt["seats"] == [0] and prompt["skip_user"] == ALICE.id
    # a standing preference is no move of the seat's turn: nobody is prompted
    assert prompts((await sessions.act(gid, CAROL.id, 0, {"type": "mood", "m": "bold"})).events) == []
    # carol steps 2: both seats now vote; seat 1 is new to it, seat 0 still decides (its other member told)
    [prompt] = prompts((await sessions.act(gid, CAROL.id, 0, {"type": "step", "n": 2})).events)
    assert prompt["seats"] == [0, 1] and prompt["skip_user"] == CAROL.id
    # seat 0's vote ends its decision: only the other seat was deciding, and it was asked already
    assert prompts((await sessions.act(gid, ALICE.id, 0, {"type": "vote", "v": 1})).events) == []


async def test_a_click_computes_the_acting_seats_legal_list_once(store: Store) -> None:
    sessions = SessionManager(store)
    gid = await started(sessions, ALICE, BOB, CAROL, game="relaycount")
    moves = [(0, ALICE, {"type": "step", "n": 1}), (0, ALICE, {"type": "step", "n": 2}),
             (2, CAROL, {"type": "vote", "v": 1}), (1, BOB, {"type": "mood", "m": "calm"}),
             (1, BOB, {"type": "vote", "v": 0}), (0, ALICE, {"type": "vote", "v": 0}),
             (1, BOB, {"type": "step", "n": 1}), (2, CAROL, {"type": "mood", "m": "bold"})]
    for seat, user, action in moves:
        CountingRelay.calls.clear()
        await sessions.act(gid, user.id, seat, action)
        # checking the action against the seat's list, once; a seat not deciding (carol's mood at the
        # end) has no list to check, and no other seat's list is asked for
        deciding = not (seat == 2 and action["type"] == "mood")
        assert dict(CountingRelay.calls) == ({seat: 1} if deciding else {}), (action, CountingRelay.calls)


async def test_deadlines_follow_the_open_decisions(store: Store) -> None:
    now = {"t": 1000.0}
    sessions = SessionManager(store, clock=lambda: now["t"])
    gid = await started(sessions, ALICE, BOB)  # no deadline of the game's own
    session = sessions.sessions[gid]
    assert session.deadlines == {}
    await sessions.act(gid, ALICE.id, 0, {"type": "step", "n": 2})  # the vote's 600 s are the rules'
    assert {s: t.due_at for s, t in session.deadlines.items()} == {0: 1000.0 + VOTE_DEADLINE,
                                                                   1: 1000.0 + VOTE_DEADLINE}
    now["t"] = 1100.0
    await sessions.act(gid, BOB.id, 1, {"type": "vote", "v": 0})  # seat 0 still voting keeps its deadline
    assert {s: t.due_at for s, t in session.deadlines.items()} == {0: 1000.0 + VOTE_DEADLINE}
    assert [d.seat for d in await store.deadlines(gid)] == [0]
    await sessions.act(gid, ALICE.id, 0, {"type": "vote", "v": 0})  # a turn: no deadline imposed, none set
    assert session.deadlines == {}


async def test_after_a_restart_the_decisions_come_from_the_loaded_game(store: Store) -> None:
    sessions = SessionManager(store)
    gid = await started(sessions, ALICE, BOB, CAROL)
    await sessions.act(gid, ALICE.id, 0, {"type": "step", "n": 2})
    await sessions.act(gid, BOB.id, 1, {"type": "vote", "v": 1})
    again = SessionManager(store)
    await again.restore()
    session = await again.get(gid)
    assert session.decisions is None  # nothing computed until a move needs it
    # still the same vote for seat 2: no prompt; the recount is a new one for the two still voting
    assert prompts((await again.act(gid, CAROL.id, 2, {"type": "vote", "v": 0})).events) == []
    result = await again.act_admin(gid, 99, {"type": "recount"})
    assert [p["seats"] for p in prompts(result.events)] == [[0, 1, 2]]


async def test_logs_stored_before_the_decisions_were_recorded_still_replay(store: Store) -> None:
    sessions = SessionManager(store)
    gid = await started(sessions, ALICE, BOB)
    for seat, user, action in [(0, ALICE, {"type": "step", "n": 2}), (1, BOB, {"type": "vote", "v": 1}),
                               (0, ALICE, {"type": "vote", "v": 0}), (1, BOB, {"type": "step", "n": 1})]:
        await sessions.act(gid, user.id, seat, action)
    assert await verify(store, gid)
    # the previous shape of the prompt event: {"type": "platform.prompt", "seats": [...]} and nothing else
    async with store.db.execute("SELECT seq, events FROM actions WHERE game_id = ?", (gid,)) as cur:
        rows = await cur.fetchall()
    old = 0
    for seq, text in rows:
        events = json.loads(text)
        for event in events:
            if event.get("type") == "platform.prompt":
                event.pop("decisions")
                old += 1
        await store.db.execute("UPDATE actions SET events = ? WHERE game_id = ? AND seq = ?",
                               (json.dumps(events), gid, seq))
    await store.db.commit()
    assert old == 2  # the vote opening for seat 1, and the turn passing to it
    assert await verify(store, gid)
    again = SessionManager(store)
    await again.restore()
    result = await again.act(gid, BOB.id, 1, {"type": "step", "n": 2})
    assert [p["seats"] for p in prompts(result.events)] == [[0]]


async def test_a_game_not_on_the_decision_table_is_prompted_as_before(store: Store, monkeypatch) -> None:
    """The base ``Game.open_decisions`` (one "move" of all actors) for a game that declares no table:
    the toy's turns prompt the next seat and its secret round every seat but the one that opened it."""
    from tests.platform.toy import toy_manifest

    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())
    sessions = SessionManager(store)
    session = await sessions.create(guild_id=5, channel_id=100, host=ALICE, game_key="toy", options={})
    await sessions.join(session.id, BOB)
    await sessions.join(session.id, CAROL)
    await sessions.start(session.id, ALICE.id, seed=1)
    game = session.game
    assert game is not None
    first = game.actors()[0]
    seen: list[list[int]] = []
    for i in range(3):  # each move passes the turn on; the third opens the secret round
        seat = (first + i) % 3
        result = await sessions.act(session.id, session.row.seat_users[seat][0], seat, {"type": "add", "n": 1})
        seen.append([p["seats"] for p in prompts(result.events)][0])
    last = (first + 2) % 3
    assert seen == [[(first + 1) % 3], [(first + 2) % 3], sorted({0, 1, 2} - {last})]
    # a pick landing in the secret round prompts nobody: the others' decision is unchanged
    other = (last + 1) % 3
    result = await sessions.act(session.id, session.row.seat_users[other][0], other, {"type": "pick", "n": 2})
    assert prompts(result.events) == []


def test_a_game_may_have_its_moves_see_only_listed_actions() -> None:
    """``DecisionGame.CHECK_LISTED``: off, a move runs on whatever its type routes to it (a game's own
    refusals stay its moves'); on, an answer not among the seat's legal actions is refused before it runs,
    and changes nothing. Standing preferences are still taken."""
    from bot.games.base import IllegalAction

    class Checked(Relay):
        CHECK_LISTED = True

    loose, checked = Relay.new([{}, {}], {}, 1), Checked.new([{}, {}], {}, 1)
    loose.apply(0, {"type": "step", "n": 3})
    assert loose.s["total"] == 3
    before = checked.to_json()
    with pytest.raises(IllegalAction) as err:
        checked.apply(0, {"type": "step", "n": 3})
    assert err.value.key == "err.not_legal" and checked.to_json() == before
    checked.apply(1, {"type": "mood", "m": "calm"})
    checked.apply(0, {"type": "step", "n": 2})
    assert checked.s["moods"] == {"1": "calm"} and checked.s["total"] == 2
