"""End to end (issue 13): ``/game board`` answers privately unless asked to post; its ``zoom`` option is
autocompleted per game in the caller's language and answers with a zoomed picture; the Pobeda DM
panel carries the seat's personal board (the seat's own cells marked, in the seat's language)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.games.coldwar import ColdWar
from bot.games.pobeda import Pobeda
from bot.games.pobeda import render as pobeda
from bot.games.pobeda.data import cell_index, cell_name
from tests.e2e.helpers import (
    SharedBot,
    assert_clean_output,
    decode_png,
    game_row,
    last_turn_post,
    open_lobby,
    play_panel,
    shared_table,
    start_lobby,
    turn_posts,
    wait_dm_panel,
)

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]  # one bot: the module's (shared_bot)


def difference(a: Image.Image, b: Image.Image) -> float:
    return float(sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean))


def marked_cells(image: Image.Image) -> set[str]:
    """The cells whose top margin shows the personal board's purple frame."""
    marked = set()
    for index in range(144):
        x0, y0, x1, _ = pobeda.BOARD_GRID.box(index)
        band = image.convert("RGB").crop((x0 + 1, y0 + 1, x1 - 1, y0 + pobeda.PAD - 2))
        if pobeda.PLAYABLE in {c for _, c in band.getcolors(1 << 16) or []}:
            marked.add(cell_name(index))
    return marked


def colours(image: Image.Image) -> set[tuple[int, int, int]]:
    return {c for _, c in image.convert("RGB").getcolors(1 << 20) or []}


def channel_posts(table: object) -> int:
    return len(table.fake.channel_messages(table.channel))  # type: ignore[attr-defined]


async def test_board_zoom_private_post_and_personal_board(shared_bot: SharedBot) -> None:
    table = shared_table(shared_bot, ["alice", "bob"], locales={"alice": "ru", "bob": "en-US"})
    fake = table.fake
    lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob"])
    await start_lobby(table, "alice", lobby)
    await fake.wait_for(lambda: turn_posts(table), timeout=20)
    post = last_turn_post(table)
    actor = table.by_id(post.mentions[0])
    panel = await wait_dm_panel(table, actor)  # the first DM panel (checked at the end)
    before = channel_posts(table)

    # a plain /game board: only the caller sees it, in the caller's language
    plain = await fake.slash(table.user("bob"), table.channel, "game board")
    assert plain.ephemeral and plain.attachments, plain.content
    assert decode_png(plain.attachments[0].data).size == (pobeda.WIDTH, pobeda.HEIGHT)
    assert channel_posts(table) == before

    # zoom choices come from the game's board, in the caller's language
    en = await fake.autocomplete(table.user("bob"), table.channel, "game board", "zoom")
    ru = await fake.autocomplete(table.user("alice"), table.channel, "game board", "zoom")
    assert [c["value"] for c in en] == ["nw", "ne", "sw", "se"]  # no move yet: no "last move"
    assert en[0]["name"].startswith("Top left") and ru[0]["name"].startswith("Левый верх")
    narrowed = await fake.autocomplete(table.user("bob"), table.channel, "game board", "zoom",
                                       {"zoom": "bottom"})
    assert [c["value"] for c in narrowed] == ["sw", "se"]

    zoomed = await fake.slash(table.user("bob"), table.channel, "game board", zoom="se")
    assert zoomed.ephemeral and zoomed.attachments, zoomed.content
    image = decode_png(zoomed.attachments[0].data)
    size = pobeda.zoom_text_size(image.width)  # the text size of a zoom of this width
    assert pobeda.CAP_RATIO * size * 400 / image.width >= 9
    assert image.width < pobeda.WIDTH and max(image.size) <= 2048
    assert channel_posts(table) == before

    # a zoom typed by its label (without autocomplete) works too; an unknown one is refused, listing
    # the choices in the caller's language
    typed = await fake.slash(table.user("alice"), table.channel, "game board", zoom="Левый низ · A–F, 7–12")
    assert typed.ephemeral and typed.attachments
    bad = await fake.slash(table.user("bob"), table.channel, "game board", zoom="moon")
    assert bad.ephemeral and not bad.attachments and "Top left" in bad.content

    # post:True posts in the channel, and the cooldown applies to posting
    posted = await fake.slash(table.user("bob"), table.channel, "game board", zoom="nw", post=True)
    assert not posted.ephemeral and posted.attachments
    assert channel_posts(table) == before + 1
    again = await fake.slash(table.user("bob"), table.channel, "game board", post=True)
    assert again.ephemeral and not again.attachments and "wait" in again.content.lower()
    private = await fake.slash(table.user("bob"), table.channel, "game board")  # private: no cooldown
    assert private.ephemeral and private.attachments

    # the DM panel of the player to move carries their personal board, in their language
    assert panel.attachments, "the Pobeda DM panel has no personal board"
    first_png = panel.attachments[0].data
    mine = decode_png(first_png).convert("RGB")
    assert mine.size == (pobeda.WIDTH, pobeda.HEIGHT)
    marked = marked_cells(mine)
    # exactly the cells of the event cards in that seat's hand (the stored state is the oracle)
    row = game_row(table.db, table.channel.id)
    state = row["state"]
    seat = next(k for k, users in enumerate(row["seat_users"]) if actor.id in users)
    hand = state["hands"][seat]
    expected = {cell_name(i) for i, event in enumerate(state["layout"]) if event is not None and event in hand}
    assert expected and marked == expected
    # in the reader's language: the board's title pixels are those of that language's static board
    game = Pobeda.from_json(state)
    view = game.view(seat)
    lang = "ru" if actor.id == table.user("alice").id else "en"
    other = "en" if lang == "ru" else "ru"
    first = next(i for i, event in enumerate(state["layout"]) if event is not None)
    x0, y0, x1, _ = pobeda.BOARD_GRID.box(first)
    title_band = (x0 + pobeda.PAD, y0 + pobeda.PAD, x1 - pobeda.PAD, y0 + 60)
    own = pobeda.reference(view, lang).crop(title_band)
    foreign = pobeda.reference(view, other).crop(title_band)
    got = mine.crop(title_band)
    assert own.tobytes() != foreign.tobytes()
    assert difference(got, own) < difference(got, foreign)

    # a private zoom of the quadrant holding one of those cells marks it for its player; a posted
    # zoom is drawn from the public view and marks nothing
    target = sorted(expected)[0]
    row_, col_ = divmod(cell_index(target), 12)
    quadrant = ("n" if row_ < 6 else "s") + ("w" if col_ < 6 else "e")
    own_zoom = await fake.slash(actor, table.channel, "game board", zoom=quadrant)
    assert own_zoom.ephemeral and own_zoom.attachments
    assert pobeda.PLAYABLE in colours(decode_png(own_zoom.attachments[0].data))
    assert pobeda.PLAYABLE not in colours(decode_png(posted.attachments[0].data))
    assert pobeda.PLAYABLE not in colours(decode_png(plain.attachments[0].data))

    # a move from the DM panel: the answer comes at once, then the panel's board follows the new hand
    played = await play_panel(fake, actor, panel)
    assert played.answered.startswith("✅"), played.content

    def refreshed() -> object:
        message = fake.message(panel.id)
        return message if message.attachments and message.attachments[0].data != first_png else None

    updated = await fake.wait_for(refreshed, timeout=20)
    state = game_row(table.db, table.channel.id)["state"]
    hand = state["hands"][seat]
    now = {cell_name(i) for i, event in enumerate(state["layout"]) if event is not None and event in hand}
    assert marked_cells(decode_png(updated.attachments[0].data)) == now

    assert_clean_output(table.output())


async def test_coldwar_board_zoom_and_personal_board(shared_bot: SharedBot) -> None:
    """Cold War (issue 13): the zooms (the target, each side) are autocompleted in the caller's language
    and answered with a picture whose text reads at 400 px; a posted zoom is the public one; the DM
    panel of the side to act carries its personal board."""
    from bot.games.coldwar import render_zoom as coldwar_zoom
    from render.phone_zoom import CAP_AT_400, cap_height, text_size
    from tests.e2e.test_coldwar_e2e import open_coldwar

    table = shared_table(shared_bot, ["alice", "bob"], locales={"alice": "ru", "bob": "en-US"})
    fake = table.fake
    await open_coldwar(table, "alice", {"alice": 0, "bob": 1}, 100)
    actor = table.by_id(last_turn_post(table).mentions[0])
    panel = await wait_dm_panel(table, actor)
    en = await fake.autocomplete(table.user("bob"), table.channel, "game board", "zoom")
    ru = await fake.autocomplete(table.user("alice"), table.channel, "game board", "zoom")
    assert [c["value"] for c in en] == [c["value"] for c in ru] == ["target", "side:0", "side:1"]
    assert en[0]["name"].startswith("Target: ") and ru[0]["name"].startswith("Цель: ")
    assert en[2]["name"].startswith("KGB") and ru[1]["name"].startswith("ЦРУ")

    before = channel_posts(table)
    zoomed = await fake.slash(table.user("bob"), table.channel, "game board", zoom="side:1")
    assert zoomed.ephemeral and zoomed.attachments, zoomed.content
    image = decode_png(zoomed.attachments[0].data)
    assert image.width == coldwar_zoom.ZOOM_W and max(image.size) <= 2048
    assert cap_height(text_size(image.width), "regular") * 400 / image.width >= CAP_AT_400
    assert channel_posts(table) == before
    typed = await fake.slash(table.user("alice"), table.channel, "game board", zoom="ЦРУ: группы, агенты, очки")
    assert typed.ephemeral and typed.attachments

    posted = await fake.slash(table.user("bob"), table.channel, "game board", zoom="target", post=True)
    assert not posted.ephemeral and posted.attachments
    assert channel_posts(table) == before + 1
    # the posted zoom is drawn from the public view, in the host's language
    row = game_row(table.db, table.channel.id)
    game = ColdWar.from_json(row["state"])
    public = dict(game.view(None), seat_names=["alice", "bob"])
    expected = decode_png(coldwar_zoom.render_zoom(public, "ru", "target") or b"").convert("RGB")
    assert decode_png(posted.attachments[0].data).convert("RGB").tobytes() == expected.tobytes()

    assert panel.attachments, "the Cold War DM panel has no personal board"
    assert decode_png(panel.attachments[0].data).width == coldwar_zoom.ZOOM_W

    assert_clean_output(table.output())
