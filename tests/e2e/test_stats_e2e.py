"""End to end: a game played to its end through the fake Discord, then its replay, stats and ratings.

``/game replay`` is refused while the game runs; once it has ended it posts the whole log publicly,
paged, with the hands revealed (cards dealt at the start, cards never played), and an animated board
history. ``/stats`` and ``/leaderboard`` then show the new ratings, which must be what OpenSkill's
Plackett-Luce model gives two newcomers for this result (computed here with the library itself).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from openskill.models import PlackettLuce
from PIL import Image

from bot.core.i18n import t
from bot.discord_app import limits
from bot.games.pobeda import Pobeda
from tests.e2e.helpers import (
    NO_WINDOW,
    assert_clean_output,
    custom_ids,
    db_query,
    game_row,
    make_table,
    open_lobby,
    start_lobby,
)
from tests.e2e.test_pobeda_e2e import assert_no_private_content, card_titles, play_to_end, wait_turn_post
from tests.fake_discord import UPLOAD_LIMIT, FakeDiscord

pytestmark = pytest.mark.e2e


def expected_ratings(outcome: dict) -> list[float]:
    """Displayed rating (mu - 3 sigma) of seats 0 and 1, both newcomers, after this result."""
    model = PlackettLuce()
    winners = set(outcome["winners"])
    ranks = [1, 1] if outcome.get("draw") or not winners else [1 if s in winners else 2 for s in (0, 1)]
    new = model.rate([[model.rating()], [model.rating()]], ranks=ranks)
    return [team[0].mu - 3 * team[0].sigma for team in new]


async def test_replay_stats_and_leaderboard_after_a_game(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, ["alice", "bob"], locales={"alice": "ru"})
        alice, bob = table.user("alice"), table.user("bob")
        # no undo window: a whole game of one action per turn (the window has tests of its own)
        lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob"], options=NO_WINDOW)
        await start_lobby(table, "alice", lobby)
        await wait_turn_post(table, 0)

        # while the game runs, the replay is refused (privately, in the caller's language)
        r = await fake.slash(alice, table.channel, "game replay")
        assert r.ephemeral and r.content == t("replay.running", "ru")
        r = await fake.slash(bob, table.channel, "game replay")
        assert r.ephemeral and r.content == t("replay.running", "en")
        # nobody has a rating yet
        r = await fake.slash(bob, table.channel, "leaderboard", game="pobeda")
        assert t("stats.board.empty", "en", game=t("pobeda.name", "en")) in r.content

        await play_to_end(table)
        row = game_row(table.db, table.channel.id)
        assert row["status"] == "finished"
        gid = row["id"]
        seed, seat_info, options, seat_users = db_query(
            table.db, "SELECT seed, seat_info, options, seat_users FROM games WHERE id = ?", (gid,))[0]
        seat_users = json.loads(seat_users)
        titles = card_titles()
        dealt = Pobeda.new(json.loads(seat_info), json.loads(options), seed).s.hands
        left = row["state"]["hands"]
        if any(left):
            assert_no_private_content(fake, row["state"])  # never shown before the replay

        # after the end: a public, paged replay with the hands revealed, then the animated board
        r = await fake.slash(bob, table.channel, "game replay")
        assert not r.ephemeral
        title = t("replay.title", "en", game=t("pobeda.name", "en"), id=gid, page=1, pages=0).split("(")[0]
        assert r.content.startswith(title.strip())
        pages = [r.message.content]
        message = r.message
        while True:
            forward = [c for c in custom_ids(message, "ttr:") if int(c.split(":")[2]) == len(pages)]
            if not forward:
                break
            click = await fake.click(alice, message, custom_id=forward[0])
            message = click.message
            pages.append(message.content)
        whole = "\n".join(pages)
        assert t("replay.start", "en") in whole and len(pages) >= 2
        for seat, hand in enumerate(dealt):  # every card dealt at the start, under its player's name
            name = "alice" if alice.id in seat_users[seat] else "bob"
            block = whole.split(f"**{name}**", 1)[1]
            for card in hand:
                if card in titles:  # event cards (the chip cards have no title)
                    assert any(title in block for title in titles[card]), card
        for hand in left:  # and every card never played
            for card in hand:
                if card in titles:
                    assert any(title in whole for title in titles[card]), card
        anim = await fake.wait_for(lambda: next((m for m in r.followups if m.attachments), None), timeout=60)
        (gif,) = anim.attachments
        # a GIF, which Discord plays inline (an APNG would show its first frame only), under our cap
        assert gif.filename == "history.gif" and gif.is_gif and gif.animated and gif.frames > 2
        assert gif.size <= limits.ANIMATION < UPLOAD_LIMIT
        image = Image.open(io.BytesIO(gif.data))
        frames = []
        for index in (0, 1, image.n_frames - 1):
            image.seek(index)
            frames.append(image.convert("RGB").tobytes())
        assert frames[0] == frames[2] != frames[1]  # the preview is the final position, then the start
        assert not anim.ephemeral
        # told in the third person (issue 25 item 9): each hand names its holder, nobody is addressed
        assert not re.search(r"\b(?:You|Your)\b", whole), whole
        for name in ("alice", "bob"):
            assert f"**{name}**\n{name} (" in whole

        # the ratings: what OpenSkill gives this result, on /stats and /leaderboard
        expected = expected_ratings(row["state"]["outcome"])
        seat_of = {u: s for s, users in enumerate(seat_users) for u in users}
        r = await fake.slash(alice, table.channel, "stats")
        assert not r.ephemeral
        assert f"{expected[seat_of[alice.id]]:.1f}" in r.content
        assert t("pobeda.name", "ru") in r.content and "1 партия" in r.content
        r = await fake.slash(bob, table.channel, "stats", options={"user": alice})  # another's, in bob's language
        assert f"{expected[seat_of[alice.id]]:.1f}" in r.content and "alice" in r.content and "1 game," in r.content
        r = await fake.slash(bob, table.channel, "leaderboard", game="pobeda")
        board = [line for line in r.content.splitlines() if line[:2] in ("1.", "2.")]
        assert len(board) == 2
        for line in board:
            name = "alice" if "**alice**" in line else "bob"
            user = alice if name == "alice" else bob
            assert f"{expected[seat_of[user.id]]:.1f}" in line
        await table.bot.stop()
        assert_clean_output(table.bot.output())
