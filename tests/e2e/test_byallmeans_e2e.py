"""End to end (issue 9): a whole By All Means game by two users through the real bot process and the fake
Discord. Before the start Bob brings his own deck list (``/bam deck import``; an illegal one is refused).
Alice plays from her DM panel (which carries her hand's picture), Bob has his DMs closed and plays
from ``/game hand`` (the ephemeral fallback); the quick AI picks each move and the test enters it through the
real controls (buttons and nested selects). In the middle the bot process is SIGKILLed and restarted, and the
game goes on to its end from the stored state; the stored log then replays to the final state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.games.ai import decide, policy_for
from bot.games.base import Game
from bot.games.byallmeans import decks
from bot.games.byallmeans.panel import _canon
from tests.e2e.helpers import Table, assert_clean_output, latest_panel, make_table, open_lobby, start_lobby
from tests.e2e.test_bots_e2e import assert_replays, committed, operate, seat_of
from tests.fake_discord import FakeDiscord

pytestmark = pytest.mark.e2e

KILL_AT = 12
"""Moves before the SIGKILL: well inside a duel (the game's seed is the bot's own; one ended after 24 moves)."""
MAX_MOVES = 900


def panel_twin(game: Game, seat: int, action: dict[str, Any]) -> dict[str, Any]:
    """The move as the panel offers it (one of twin moves using another copy of the same hand card)."""
    s = game.s  # type: ignore[attr-defined]
    hand = {u: s.cards[u] for u in s.players[seat].hand}
    want = repr(_canon(action, hand))
    return next(a for a in game.panel_actions(seat, "en") if repr(_canon(a, hand)) == want)


async def settled(table: Table) -> tuple[dict[str, Any], Game]:
    """The committed game once everything committed has been published."""
    def ready() -> bool:
        row, _ = committed(table)
        return row["status"] == "finished" or row["published_seq"] >= row["seq"]

    await table.fake.wait_for(ready, timeout=30)
    return committed(table)


async def hand_panel(table: Table, user: Any) -> Any:
    r = await table.fake.slash(user, table.channel, "game hand")
    assert r.ephemeral
    return r.message


async def test_two_users_whole_game_dm_and_fallback_with_a_kill(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, ["alice", "bob"])
        alice, bob = table.user("alice"), table.user("bob")
        fake.close_dms(bob)
        lobby = await open_lobby(table, "alice", "byallmeans", ["alice", "bob"])
        # Bob brings his own deck: an illegal list is refused with the reason and changes nothing
        own = decks.preset("press")[:30] + decks.preset("cityhall")[30:]  # no preset, still legal
        assert not decks.validate(own), decks.validate(own)
        r = await fake.slash(bob, table.channel, "bam deck import", codes=" ".join(own[:39]))
        assert r.ephemeral and r.answered.startswith("⛔") and "39" in r.content, r.content
        r = await fake.slash(bob, table.channel, "bam deck import", codes=decks.export(own))
        assert r.ephemeral and r.answered.startswith("✅"), r.content
        r = await fake.slash(alice, table.channel, "bam deck export", preset="cityhall")
        assert r.ephemeral and decks.export(decks.preset("cityhall")) in r.content
        started = await start_lobby(table, "alice", lobby)
        assert not started.content.startswith("⛔"), started.content
        row, game = await settled(table)
        bob_seat = seat_of(row, bob)
        assert sorted(c for u, c in game.s.cards.items() if u.startswith(f"{bob_seat}.")) == sorted(own)  # type: ignore[attr-defined]
        r = await fake.slash(bob, table.channel, "bam deck export")
        assert r.ephemeral and decks.export(own) in r.content  # his seat's deck, to him only
        moves = dm_moves = fallback_moves = fast_plays = 0
        killed = False
        for _ in range(MAX_MOVES):
            row, game = await settled(table)
            if row["status"] == "finished":
                break
            if moves == KILL_AT and not killed:
                await table.bot.kill()  # SIGKILL between two moves
                await table.bot.start(timeout=60)
                killed = True
                row, game = await settled(table)
            seat = game.actors()[0]
            user = table.by_id(row["seat_users"][seat][0])
            action = panel_twin(game, seat, decide(game, seat, policy_for("byallmeans", "quick"), 90_000 + row["seq"]))
            result = None
            if action["type"] == "play" and user is alice and not fast_plays:  # the fast form, once
                found = await fake.autocomplete(alice, table.channel, "bam play", "card", {"card": ""})
                assert action["uid"] in [c["value"] for c in found], found
                opts: dict[str, Any] = {"card": action["uid"]}
                wheres = await fake.autocomplete(alice, table.channel, "bam play", "where", {"card": action["uid"]})
                if wheres:
                    want = " · ".join(game.panel_path(seat, action, "en")[2:]) or "—"  # a choice without words
                    picked = [c["value"] for c in wheres if c["name"] == want]
                    assert picked, (want, wheres, action, table.bot.output()[-2000:])
                    opts["where"] = picked[0]
                result = await fake.slash(alice, table.channel, "bam play", **opts)
                assert result.ephemeral and result.answered.startswith("✅"), result.content
                fast_plays += 1
            if user is alice and result is None:
                panel = latest_panel(fake.dm_messages(alice))
                if panel is not None:
                    try:
                        result = await operate(table, alice, panel, game, seat, action)
                    except (LookupError, AssertionError):
                        result = None  # an older DM panel: the move goes through /game hand below
                    if result is not None and result.answered.startswith("✅"):
                        dm_moves += 1
                    else:
                        result = None
            if result is None:
                result = await operate(table, user, await hand_panel(table, user), game, seat, action)
                if user is bob:
                    fallback_moves += 1
            assert result.answered.startswith("✅"), (result.content, table.bot.output()[-3000:])
            moves += 1
        row, game = await settled(table)
        assert row["status"] == "finished", f"not finished after {moves} moves"
        print(f"by all means e2e: {moves} moves, {dm_moves} from the DM panel, {fallback_moves} by the fallback")
        assert killed and moves > KILL_AT
        assert dm_moves > 0 and fallback_moves > 0 and fast_plays == 1
        # Bob's DMs are closed: nothing reached him there, and the channel told him where his panel is
        assert not fake.dm_messages(bob)
        assert any("/game hand" in m.content and bob.id in m.mentions for m in fake.channel_messages(table.channel))
        # Alice's private panel carries her hand's picture; the channel's boards are the public field only
        assert any(a.is_png and "seat" in a.filename for m in fake.dm_messages(alice) for a in m.attachments)
        for m in fake.channel_messages(table.channel):
            assert all("seat" not in a.filename for a in m.attachments)
        assert seat_of(row, alice) in (0, 1)
        assert_replays(table.db, row["id"])
        await table.bot.stop()
        assert_clean_output(table.bot.output())
