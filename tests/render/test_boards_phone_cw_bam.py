"""Boards for phones (issue 13) for Cold War and By All Means: every text of a zoom reads at 400 px
width (the cap height threshold of ``test_boards_phone``), the Cold War event text is written inside
the target card with a WCAG contrast of at least 4.5:1 measured on the rendered pixels, and no zoom
shows hidden information (By All Means hands and face-down cards; Cold War's secret agents X).

The issue: "image tests that measure text height at 400 px width (at least 9 px cap height for the
zoomed views)".
"""

from __future__ import annotations

import copy
import io
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont, ImageStat

from bot.core.i18n import t
from bot.discord_app import boards
from bot.games.byallmeans import render as byallmeans
from bot.games.byallmeans import render_zoom as byallmeans_zoom
from bot.games.coldwar import ColdWar
from bot.games.coldwar import render as coldwar
from bot.games.coldwar import render_zoom as coldwar_zoom
from render import phone_zoom
from render.common import font, palette
from tests.render.states import NAMES, VIEWS, _play, _public
from tests.render.test_boards_phone import MAX_BYTES, MAX_SIDE, MIN_CAP, PHONE, decode

CONTRAST = 4.5
EVENTS = ("space_race", "nobel", "nuclear", "protest", "summit", "olympics")
CAP_LETTERS = set("0123456789ABCDEFGHIKLMNOPRSTUVWXYZАБВГЕЖЗИКЛМНОПРСТУФХЧШЭЮЯ")
"""Characters whose ink is exactly a cap height tall (no descender, accent or tail)."""


# ---- measuring pixels -------------------------------------------------------------------------
def luminance(colour: tuple[int, ...]) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def text_contrast(image: Image.Image, box: tuple[float, float, float, float]) -> tuple[float, int]:
    """(contrast, ink pixels) of the text in ``box``: the background is the box's most common colour,
    the text's colour the one (of at least 8 pixels, not anti-aliasing strays) that contrasts most with it."""
    crop = image.convert("RGB").crop(tuple(round(v) for v in box))  # type: ignore[arg-type]
    counts: list[tuple[int, tuple[int, int, int]]] = sorted(crop.getcolors(1 << 16) or [], reverse=True)  # type: ignore[arg-type]
    background = counts[0][1]
    inks = [(contrast(colour, background), n) for n, colour in counts[1:] if n >= 8]
    return max(inks) if inks else (1.0, 0)


def ink_height(image: Image.Image, box: tuple[float, float, float, float]) -> int:
    """Rows of ``box`` holding a pixel whose luminance differs from the box's most common colour by more
    than a sixth of the range (the glyph's drawn height, its anti-aliased edges included)."""
    crop = image.convert("L").crop(tuple(round(v) for v in box))  # type: ignore[arg-type]
    background = sorted(crop.getcolors(1 << 16) or [], reverse=True)[0][1]
    rows = [y for y in range(crop.height)
            if any(abs(crop.getpixel((x, y)) - background) > 42 for x in range(crop.width))]  # type: ignore[operator]
    return rows[-1] - rows[0] + 1 if rows else 0


def glyph_cap(fnt: ImageFont.FreeTypeFont) -> int:
    box = fnt.getmask("H").getbbox()
    assert box is not None
    return box[3] - box[1]


@dataclass
class Drawn:
    xy: tuple[float, float]
    label: str
    font: ImageFont.FreeTypeFont
    anchor: str | None


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Drawn]]:
    """Every text a zoom writes (they all go through ``phone_zoom.draw_text``)."""
    seen: list[Drawn] = []
    real = phone_zoom.draw_text

    def record(d: ImageDraw.ImageDraw, xy: tuple[float, float], label: str, fnt: ImageFont.FreeTypeFont,
               fill: Any, anchor: str | None = None) -> None:
        seen.append(Drawn(xy, label, fnt, anchor))
        real(d, xy, label, fnt, fill, anchor)

    monkeypatch.setattr(phone_zoom, "draw_text", record)
    yield seen


def assert_readable_at_400(image: Image.Image, texts: list[Drawn]) -> None:
    """Every font a zoom used has an "H" at least ``MIN_CAP`` px tall at 400 px width, and on the
    pixels, each text's first cap-height character (a capital or a digit) measures so too."""
    assert texts and image.width <= MAX_SIDE and image.height <= MAX_SIDE
    scale = PHONE / image.width
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    measured = 0
    for item in texts:
        assert glyph_cap(item.font) * scale >= MIN_CAP, (item.label, item.font.size)
        at = next((k for k, ch in enumerate(item.label) if ch in CAP_LETTERS), None)
        if at is None:
            continue
        x0 = probe.textlength(item.label[:at], font=item.font)
        x1 = probe.textlength(item.label[:at + 1], font=item.font)
        left, top, _, bottom = probe.textbbox(item.xy, item.label, font=item.font, anchor=item.anchor)
        box = (left + x0 + 1, top - 2, left + x1 - 1, bottom + 2)
        assert ink_height(image, box) * scale >= MIN_CAP, (item.label, item.label[at], ink_height(image, box))
        measured += 1
    assert measured >= len(texts) // 2


def words(text: str) -> list[str]:
    return text.replace("…", " ").split()


# ---- Cold War ---------------------------------------------------------------------------------
def event_view(event: str | None = None) -> Any:
    """A struggle with an event target (seeded random play), its target replaced by ``event`` when given."""
    view = _public(_play(ColdWar.new([{}, {}], {}, 32), 32, 56), 2)
    assert view["target"] is not None and view["target"]["kind"] == "event"
    if event is not None:
        view["target"] = dict(view["target"], id=event)
    return view


def coldwar_cases() -> list[tuple[str, dict[str, Any]]]:
    return [(name, view) for name, view in VIEWS["coldwar"]()] + [("event", event_view())]


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("event", EVENTS)
def test_coldwar_event_text_sits_inside_the_card_with_4_5_contrast(lang: str, event: str) -> None:
    """The phase and every line of the event's description, on the picture the bot sends (on the
    palette) and in full colour: the text's contrast with what is behind it is at least 4.5:1, and the
    whole description is written (nothing cut)."""
    view = event_view(event)
    lines = coldwar.event_lines(event, lang)
    assert " ".join(line for _, line, _ in lines) == " ".join(t("coldwar.evdesc." + event, lang).split())
    sent = decode(coldwar.render(view, lang))
    full = coldwar.reference(view, lang)
    probe = ImageDraw.Draw(full)
    assert all(size == max(coldwar.EVENT_SIZES) for _, _, size in lines)
    x, _, w, _ = coldwar.TARGET_BOX
    boxes = [probe.textbbox(xy, line, font=font(size)) for xy, line, size in lines]
    boxes.append((x + 20, lines[0][0][1] - 26, x + w - 20, lines[0][0][1] - 4))  # the phase above
    for image in (sent, full):
        for box in boxes:
            padded = (box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3)
            ratio, ink = text_contrast(image, padded)
            assert ink >= 20, (event, box)
            assert ratio >= CONTRAST, (event, lang, box, ratio)


def test_the_contrast_measure_fails_text_dark_on_dark() -> None:
    """The measure itself: the old board's event text (34, 34, 40) on the table's background fails."""
    image = Image.new("RGB", (300, 40), coldwar.BG)
    ImageDraw.Draw(image).text((10, 8), "Truce: if you caused civil unrest", font=font(17), fill=(34, 34, 40))
    ratio, _ = text_contrast(image, (0, 0, 300, 40))
    assert ratio < 1.5
    image = Image.new("RGB", (300, 40), coldwar.CARD)
    ImageDraw.Draw(image).text((10, 8), "Truce: if you caused civil unrest", font=font(17), fill=(34, 34, 40))
    assert text_contrast(image, (0, 0, 300, 40))[0] >= CONTRAST


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("case", range(5))
def test_coldwar_zooms_read_at_400(lang: str, case: int, drawn: list[Drawn]) -> None:
    """Each zoom (the target, each side) of each state: every text at least 9 px cap height at 400 px,
    with what a player needs in it (the target's name and whole event text; each group's name and
    influence, the side's score and influence)."""
    _, view = coldwar_cases()[case]
    for zoom, _ in coldwar.zoom_choices(view, lang):
        drawn.clear()
        image = coldwar_zoom.zoom_image(view, lang, zoom)
        assert image is not None
        assert_readable_at_400(image, drawn)
        said = " ".join(d.label for d in drawn).split()
        if zoom == "target":
            tgt = view["target"]
            assert all(w in said for w in words(t("coldwar.target." + tgt["id"], lang)))
            if tgt["kind"] == "event":
                assert " ".join(words(t("coldwar.evdesc." + tgt["id"], lang))) in " ".join(said)
        else:
            side = view["sides"][int(zoom[-1])]
            for g in side["groups"]:
                assert str(g["influence"]) in said
                assert all(w in said for w in words(t("coldwar.group." + g["id"], lang)))
            assert str(side["score"]) in said and str(side["influence"]) in said
        png = coldwar.render_zoom(view, lang, zoom)
        assert png is not None and len(png) <= MAX_BYTES


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_coldwar_event_text_contrast_in_the_target_zoom(lang: str, drawn: list[Drawn]) -> None:
    view = event_view("protest")
    image = decode(coldwar.render_zoom(view, lang, "target") or b"")
    desc = words(t("coldwar.evdesc.protest", lang))
    probe = ImageDraw.Draw(image)
    lines = [d for d in drawn if d.label.split() and d.label.split()[0] in desc]
    assert lines
    for item in lines:
        box = probe.textbbox(item.xy, item.label, font=item.font, anchor=item.anchor)
        ratio, ink = text_contrast(image, (box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3))
        assert ink >= 20 and ratio >= CONTRAST, (item.label, ratio)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_coldwar_captured_event_texts_in_a_side_zoom_have_4_5_contrast(lang: str, drawn: list[Drawn]) -> None:
    """A side's captured events are listed with their texts (the bench KGB holds two): each line of
    those texts contrasts 4.5:1 with its background on the sent picture."""
    view = VIEWS["coldwar"]()[0][1]
    events = [tid for tid in view["sides"][1]["trophies"] if tid in EVENTS]
    assert len(events) >= 2
    image = decode(coldwar.render_zoom(view, lang, "side:1") or b"")
    probe = ImageDraw.Draw(image)
    text = " ".join(" ".join(words(t("coldwar.evdesc." + tid, lang))) for tid in events)
    lines = [d for d in drawn if len(d.label.split()) > 2 and d.label in text]
    assert " ".join(d.label for d in lines) == text  # every word of both texts, in order
    for item in lines:
        box = probe.textbbox(item.xy, item.label, font=item.font, anchor=item.anchor)
        ratio, ink = text_contrast(image, (box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3))
        assert ink >= 20 and ratio >= CONTRAST, (item.label, ratio)


def planned_game() -> Any:
    """A game whose both agents X are chosen and secret (seeded play into the struggle)."""
    for seed in range(60, 90):
        game = _play(ColdWar.new([{}, {}], {}, seed), seed, 30)
        public = game.view(None)
        if all(side["x"] == "hidden" for side in public["sides"]):
            return game
    raise AssertionError("no state with two secret agents X")


def agent_x_lines(texts: list[Drawn], lang: str) -> list[str]:
    heads = (t("coldwar.r.agent_x", lang), t("phoneboards.cw.own_x", lang, agent="").split(":")[0])
    return [d.label for d in texts if d.label.startswith(heads)]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_coldwar_secret_agents_stay_secret(lang: str, drawn: list[Drawn]) -> None:
    """A public zoom names no secret agent X; a seat's personal board names its own and not the other's
    (the rules' secret: "agent X" chosen face down); the personal board reads at 400 px too."""
    game = planned_game()
    public = _public(game, 2)
    secret = {seat: game.s.x[seat] for seat in (0, 1)}
    assert all(isinstance(x, int) for x in secret.values())
    hidden = f"{t('coldwar.r.agent_x', lang)}: {t('coldwar.r.hidden', lang)}"
    for zoom in coldwar_zoom.SIDES:
        drawn.clear()
        coldwar_zoom.zoom_image(public, lang, zoom)
        assert agent_x_lines(drawn, lang) == [hidden]
    for seat in (0, 1):
        own = dict(game.view(seat), seat_names=NAMES[:2])
        drawn.clear()
        image = coldwar_zoom.personal_image(own, lang)
        assert image is not None
        assert_readable_at_400(image, drawn)
        mine = t("phoneboards.cw.own_x", lang, agent=t(f"coldwar.agent.{secret[seat]}", lang))
        assert agent_x_lines(drawn, lang) == [mine]
        # the other side's zoom, asked privately by this seat, still hides the other agent X
        drawn.clear()
        coldwar_zoom.zoom_image(own, lang, coldwar_zoom.SIDES[1 - seat])
        assert agent_x_lines(drawn, lang) == [hidden]
    assert coldwar_zoom.personal_image(public, lang) is None


# ---- By All Means -----------------------------------------------------------------------------
def bam_cases() -> list[tuple[str, dict[str, Any]]]:
    return VIEWS["byallmeans"]()


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("case", range(6))
def test_byallmeans_zooms_read_at_400(lang: str, case: int, drawn: list[Drawn]) -> None:
    """Each zoom of each state (public and seat views): every text at least 9 px cap height at 400 px,
    and the field's names and numbers are in the zooms: every face-up card on the field, each loyalty,
    and each player's counters."""
    _, view = bam_cases()[case]
    said: list[str] = []
    for zoom, _ in byallmeans.zoom_choices(view, lang):
        drawn.clear()
        image = byallmeans_zoom.zoom_image(view, lang, zoom)
        assert image is not None
        assert_readable_at_400(image, drawn)
        said += " ".join(d.label for d in drawn).split()
        png = byallmeans.render_zoom(view, lang, zoom)
        assert png is not None and len(png) <= MAX_BYTES
    text = " ".join(said)
    for cell in view["field"]:
        for obj in cell.values():
            if obj is not None and obj.get("code") and not obj.get("face_down"):
                assert " ".join(words(t("bam.card." + obj["code"], lang))) in text, obj["code"]
        if cell.get("territory") is not None:
            assert str(cell["territory"]["loyalty"]) in text
    for p in view["players"]:
        assert all(str(p[k]) in said for k in ("rep", "inf", "trust", "hand"))


def seat_view_with_secrets() -> tuple[dict[str, Any], set[str]]:
    """Seat 1's view of the bench state with one of its own field cards turned face down (its view
    carries that card's code: ``view._obj``) and its hand; returns the names that must not appear."""
    from bot.games.byallmeans import bench_state

    game = bench_state()
    view: dict[str, Any] = copy.deepcopy(dict(game.view(0)))
    view["seat_names"] = NAMES[:2]
    hand = {c["code"] for c in view["me"]["hand"]}
    assert hand
    cell = next(c for c in view["field"] if c.get("agent") is not None or c.get("graffiti") is not None)
    obj = cell["agent"] if cell.get("agent") is not None else cell["graffiti"]
    obj["face_down"] = True
    obj["code"] = sorted(hand)[0]
    public: set[str] = set(view["neutral"]) | {b["code"] for p in view["players"] for b in p["buffer"]}
    for c in view["field"]:
        public |= {o["code"] for o in c.values() if o is not None and o.get("code") and not o.get("face_down")}
    return view, hand - public


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_byallmeans_zooms_show_no_hand_and_no_face_down_card(lang: str, drawn: list[Drawn]) -> None:
    """Drawn from a seat's own view (as a private zoom is), no zoom names a card of the hand or a
    face-down card, and each zoom is the same picture as from the public view."""
    view, secret = seat_view_with_secrets()
    assert secret
    public = {k: v for k, v in view.items() if k != "me"}
    for zoom, _ in byallmeans.zoom_choices(view, lang):
        drawn.clear()
        byallmeans_zoom.zoom_image(view, lang, zoom)
        said = " ".join(d.label for d in drawn)
        for code in secret:
            assert t("bam.card." + code, lang) not in said, (zoom, code)
        assert byallmeans.render_zoom(view, lang, zoom) == byallmeans.render_zoom(public, lang, zoom)


# ---- both: offered through bot/discord_app/boards.py, sent on the palette -----------------------------------
def test_zooms_and_personal_boards_are_offered_through_bot_boards() -> None:
    for game, view in (("coldwar", event_view()), ("byallmeans", bam_cases()[0][1])):
        drawer = boards.renderer_of(game)
        assert drawer is not None and drawer.personal is not None
        assert drawer.zoom_choices is not None and drawer.zoom is not None
        offered = [value for value, _ in drawer.zoom_choices(view, "ru")]
        assert offered and all(drawer.zoom(view, "ru", value) for value in offered)
        assert drawer.zoom(view, "ru", "north-pole") is None
    assert [v for v, _ in coldwar.zoom_choices(VIEWS["coldwar"]()[3][1], "en")] == ["side:0", "side:1"]  # no target
    own = dict(ColdWar.new([{}, {}], {}, 5).view(1), seat_names=NAMES[:2])
    picture = coldwar.render_personal(own, "en")
    assert picture is not None and max(decode(picture).size) <= MAX_SIDE and len(picture) <= MAX_BYTES


@pytest.mark.parametrize(("game", "zoom"), [("coldwar", "target"), ("coldwar", "side:1"), ("byallmeans", "rows:3-4"),
                                            ("byallmeans", "players")])
def test_zooms_on_the_palette_look_like_full_colour(game: str, zoom: str) -> None:
    """The limits of ``test_render_fidelity``: mean difference at most 0.5 of 255, no 8x8 block over 24."""
    view = event_view() if game == "coldwar" else bam_cases()[0][1]
    module: Any = coldwar_zoom if game == "coldwar" else byallmeans_zoom
    full = module.zoom_image(view, "ru", zoom)
    sent = Image.open(io.BytesIO(module.render_zoom(view, "ru", zoom))).convert("RGB")
    assert sent.size == full.size
    diff = ImageChops.difference(full.convert("RGB"), sent)
    assert sum(ImageStat.Stat(diff).mean) / 3 <= 0.5
    assert max(high for _, high in diff.reduce(8).getextrema()) <= 24
    assert palette(game).quantize(full).convert("RGB").tobytes() == sent.tobytes()
