"""By All Means pictures: size limits, the public field carries nothing of a hand, the hand is legible
on a phone. (Rulebook, l. 141: «Количество карт в руке не ограничено. Карты в руке — секретная
информация».)"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from PIL import Image

from bot.games.byallmeans import ByAllMeans, bench_state, data
from bot.games.byallmeans import render as r
from render.common import font

FIELD = r.render.uncached  # type: ignore[attr-defined]  # the drawing itself, not the reuse of a PNG
HAND = r.render_hand.uncached  # type: ignore[attr-defined]
MAX_SIDE = 2048
MAX_BYTES = 800_000


def _plain(view: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(view))
    return out


@pytest.fixture(scope="module")
def game() -> ByAllMeans:
    return bench_state()


def _size(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as im:
        return im.size


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_field_and_hand_within_limits(game: ByAllMeans, lang: str) -> None:
    field = FIELD(_plain(game.view(None)), lang)
    hand = HAND(_plain(game.view(0)), lang)
    for png in (field, hand):
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert max(_size(png)) <= MAX_SIDE and len(png) <= MAX_BYTES


def test_a_huge_hand_still_fits() -> None:
    """«Количество карт в руке не ограничено» (l. 141): 20 cards and a full buffer stay within 2048 px."""
    game = ByAllMeans.new([{}, {}], {"decks": ["press", "syndicate"]}, 5)
    s = game.s
    s.players[0].hand = sorted(s.players[0].main[:20])
    view = _plain(game.view(0))
    png = HAND(view, "ru")
    assert max(_size(png)) <= MAX_SIDE and len(png) <= MAX_BYTES


def test_public_field_shows_nothing_of_the_hands(game: ByAllMeans) -> None:
    """Two games alike but for which cards the hands hold give the same public picture, byte for byte,
    and a seat's own view (with its hand) draws the same field as the public view."""
    base = _plain(game.view(None))
    before = FIELD(base, "en")
    other = ByAllMeans.from_json(json.loads(json.dumps(game.to_json())))
    codes = sorted(data.cards())
    for seat in (0, 1):
        for i, uid in enumerate(other.s.players[seat].hand):
            other.s.cards[uid] = codes[(codes.index(other.s.cards[uid]) + 7 + i) % len(codes)]
    changed = _plain(other.view(None))
    assert changed == base  # the view itself: sizes only
    own_changed = _plain(other.view(0))
    assert own_changed["me"] != _plain(game.view(0))["me"]  # the hands really differ
    assert FIELD(changed, "en") == before
    assert FIELD(own_changed, "en") == before  # ``me`` is never drawn on the field
    # and the hand picture does show the difference
    assert HAND(own_changed, "en") != HAND(_plain(game.view(0)), "en")


def test_hand_text_is_legible_at_phone_width(game: ByAllMeans, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every font on the hand picture keeps a cap height of at least 7 px once the picture is shown
    400 px wide."""
    sizes: set[tuple[int, str]] = set()

    def spy(size: int, style: str = "regular") -> Any:
        sizes.add((size, style))
        return font(size, style)

    monkeypatch.setattr(r, "font", spy)
    for seat in (0, 1):
        view = _plain(game.view(seat))
        image = r.reference_hand(view, "ru")
    assert sizes
    scale = 400 / image.width
    for size, style in sizes:
        top, bottom = font(size, style).getbbox("H")[1::2]
        assert (bottom - top) * scale >= 7, (size, style, (bottom - top) * scale)
