"""Godstorm on a phone (issue 25 item 6): the personal board of the DM panel (the seat's own map, its
territories and the ones it can attack now highlighted, readable at 400 px), and zooms with a legend
and no name cut at their edges.

The issue: "The DM panel has no map; the channel map is unreadable at 400 px; the zooms have no legend
and cut names at their edges; the Underworld zoom prints "XII" over "врата" and cuts off the heavens
column."
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot.games.godstorm import Godstorm, bench_state
from bot.games.godstorm import data as D
from bot.games.godstorm import render as godstorm
from render.common import font
from tests.render.states import NAMES

PHONE = 400
MIN_CAP = 9.0


def seat_view(game: Godstorm, seat: int) -> dict[str, Any]:
    view: dict[str, Any] = json.loads(json.dumps(game.view(seat)))
    view["seat_names"] = NAMES[:len(game.s.players)]
    return view


@pytest.fixture(scope="module")
def crowded() -> Godstorm:
    return bench_state()


def cap_at_400(size: int, style: str, width: int) -> float:
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    top, bottom = probe.textbbox((0, 0), "HН", font=font(size, style), anchor="ls")[1::2]
    return (bottom - top) * PHONE / width


def share(image: Image.Image, tid: str, colour: tuple[int, int, int]) -> float:
    """The share of a territory's region (on the personal board) painted exactly ``colour``."""
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).polygon(godstorm._mine_cell(tid), fill=255)
    box = mask.getbbox()
    assert box is not None
    pixels, cover = image.convert("RGB").crop(box).tobytes(), mask.crop(box).tobytes()
    inside = [tuple(pixels[3 * i:3 * i + 3]) for i, m in enumerate(cover) if m]
    return sum(1 for p in inside if p == colour) / max(1, len(inside))


def test_the_seat_view_lists_exactly_its_legal_attacks_on_its_attack_step(crowded: Godstorm) -> None:
    seat = crowded.s.current
    assert seat is not None and crowded.s.step == "invade"
    legal = {(a["from"], a["to"]) for a in crowded.legal_actions(seat) if a["type"] == "attack"}
    assert legal and {tuple(p) for p in crowded.view(seat)["me"]["attacks"]} == legal
    assert "me" not in crowded.view(None)  # the public view carries no seat's facts


def test_personal_board_highlights_own_and_attackable_territories(crowded: Godstorm) -> None:
    seat = crowded.s.current
    assert seat is not None
    view = seat_view(crowded, seat)
    own = {tid for tid, st in view["territories"].items() if st["owner"] == seat}
    targets = {dst for _, dst in view["me"]["attacks"]}
    assert own and targets and not own & targets
    image = godstorm.personal_image(view, "en")
    tint = godstorm._shade(godstorm._seat_colour(view, seat), 1.45)
    for tid in D.TERRITORIES:
        mine, attackable = share(image, tid, tint), share(image, tid, godstorm.TARGET_FILL)
        if tid in own:
            assert mine > 0.1 and attackable == 0, tid
        elif tid in targets:
            assert attackable > 0.1 and mine == 0, tid
        else:
            assert mine < 0.02 and attackable < 0.02, tid
    assert godstorm.highlighted(view) == (sorted(own), sorted(targets))


def test_another_seat_sees_its_own_territories_not_the_current_players(crowded: Godstorm) -> None:
    current = crowded.s.current
    other = next(i for i, p in enumerate(crowded.s.players) if i != current and not p.eliminated)
    view = seat_view(crowded, other)
    own, _ = godstorm.highlighted(view)
    assert own == sorted(t for t, st in view["territories"].items() if st["owner"] == other)
    image = godstorm.personal_image(view, "ru")
    tint = godstorm._shade(godstorm._seat_colour(view, other), 1.45)
    assert all(share(image, tid, tint) > 0.1 for tid in own)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_personal_board_reads_at_400_px_and_cuts_no_text(crowded: Godstorm, lang: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    seat = crowded.s.current
    assert seat is not None
    view = seat_view(crowded, seat)
    boxes: list[tuple[str, tuple[float, float, float, float]]] = []
    real_text = godstorm.text

    def recording(draw: ImageDraw.ImageDraw, xy: tuple[float, float], label: str, fnt: Any, fill: Any,
                  anchor: str | None = None, **outline: Any) -> None:  # the names' white outline too
        boxes.append((label, draw.textbbox(xy, label, font=fnt, anchor=anchor,
                                           stroke_width=outline.get("stroke_width", 0))))
        real_text(draw, xy, label, fnt, fill, anchor, **outline)

    monkeypatch.setattr(godstorm, "text", recording)
    image = godstorm.personal_image(view, lang)
    assert image.width == godstorm.MINE_W
    assert cap_at_400(godstorm.MINE_TEXT, "condensed", image.width) >= MIN_CAP
    assert cap_at_400(godstorm.MINE_NAME, "condensed-bold", image.width) >= 7.5
    assert len(boxes) > 10
    for label, (x0, y0, x1, y1) in boxes:
        assert 0 <= x0 and x1 <= image.width and 0 <= y0 and y1 <= image.height, label
        assert not label.endswith("…"), label  # nothing of the bench seat's lists is cut
    drawn = " ".join(label for label, _ in boxes)
    for _, dst in view["me"]["attacks"]:
        assert D.TERRITORIES[dst].name[lang] in drawn
    png = godstorm.render_personal(view, lang)
    assert png is not None
    full = Image.open(io.BytesIO(png))
    assert full.width == godstorm.MINE_W and full.height >= image.height


def test_personal_board_before_the_turns_has_no_targets() -> None:
    game = Godstorm.new([{} for _ in range(3)], {"ruleset": "godstorm", "placement": "random"}, 5)
    view = seat_view(game, 0)
    assert "attacks" not in view["me"]
    assert godstorm.highlighted(view)[1] == []
    assert godstorm.render_personal(view, "ru") is not None


def zooms() -> list[tuple[int, str]]:
    from tests.render.states import VIEWS

    out = []
    for k, (_, view) in enumerate(VIEWS["godstorm"]()):
        out += [(k, value) for value, _ in godstorm.zoom_choices(view, "ru")]
    return out


@pytest.mark.parametrize(("which", "zoom"), zooms())
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_zoom_has_a_legend_and_cuts_no_name(which: int, zoom: str, lang: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.render.states import VIEWS

    view = VIEWS["godstorm"]()[which][1]
    box = godstorm.zoom_window(view, zoom)
    assert box is not None
    drawn: list[str] = []
    real_text = godstorm.text

    def recording(draw: ImageDraw.ImageDraw, xy: tuple[float, float], label: str, fnt: Any, fill: Any,
                  anchor: str | None = None, **outline: Any) -> None:
        drawn.append(label)
        real_text(draw, xy, label, fnt, fill, anchor, **outline)

    monkeypatch.setattr(godstorm, "text", recording)
    godstorm._zoom_legend.cache_clear()
    image = godstorm.zoom_image(view, lang, zoom)
    assert image is not None
    assert image.height > box[3] - box[1]  # the legend band under the map
    classic = view.get("ruleset") == "classic"
    items = godstorm.zoom_legend_items(lang, classic, box == godstorm.UNDERWORLD_BOX)
    assert {label for _, label in items} <= set(drawn)
    size = max(17, godstorm.zoom_text_size(box[2] - box[0]))
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    f = font(size, "condensed-bold")
    for name, xy in godstorm.zoom_name_boxes(box, lang, size):
        x0, y0, x1, y1 = probe.textbbox(xy, name, font=f, anchor="mb", stroke_width=3)
        assert 0 <= x0 and x1 <= box[2] - box[0] and 0 <= y0 and y1 <= box[3] - box[1], name


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_underworld_zoom_shows_the_heavens_and_no_numeral_over_a_kind(lang: str) -> None:
    box = godstorm.zoom_window({"ruleset": "godstorm"}, godstorm.UNDERWORLD)
    assert box is not None
    assert box[0] <= godstorm.HEAVEN_X and godstorm.HEAVEN_X + godstorm.HEAVEN_W <= box[2]
    size = godstorm.zoom_text_size(box[2] - box[0])
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    labels = godstorm.underworld_zoom_labels(probe, lang, size)
    boxes = [probe.textbbox(xy, label, font=fnt, anchor=anchor) for label, xy, fnt, _, anchor in labels]
    assert len(boxes) == 2 * len(D.UNDERWORLD)
    for i, a in enumerate(boxes):
        assert box[0] <= a[0] and a[2] <= box[2] and box[1] <= a[1] and a[3] <= box[3], labels[i][0]
        for j in range(i + 1, len(boxes)):
            assert not godstorm._overlaps(a, boxes[j]), (labels[i][0], labels[j][0])
    twelve = next(b for (label, *_), b in zip(labels, boxes, strict=True) if label == "XII")
    gate = next(b for (label, xy, *_), b in zip(labels, boxes, strict=True)
                if xy[0] == godstorm.space_center("uw1")[0] and label != "I")
    assert not godstorm._overlaps(twelve, gate)
