"""Boards addressed to one person (issue 13): a seat's personal board, and the zoomed views of
``/game board zoom:``. Both are optional parts of a game's renderer (``personal``, ``zoom_choices`` and
``zoom`` of :class:`bot.games.manifest.GameRenderer`, named in its manifest).

* **Personal board.** A game whose renderer has a ``personal`` board attaches to the seat's private
  panel the board drawn from that seat's own view (its hand, never another's), in the reader's
  language (Pobeda's marks the cells of the cards it holds; Godstorm's is the seat's own map above its
  miracle cards). The panel code calls :func:`personal_board` where it sends or refreshes a panel;
  games without one get None.
* **Zoom.** A game's renderer may offer ``zoom_choices(view, lang)`` (value, label) and
  ``zoom(view, lang, zoom)``: a region drawn with text a phone reads at 400 px width.
  A posted zoom is drawn from the public view; a private one, for a player of a game with a
  personal board, from that player's own view (its hand's cells marked).

Rendering runs off the event loop, in the render processes (``bot.core.drawing.draw``); the PNGs of
identical requests are reused there (``rendered_once``).
"""

from __future__ import annotations

import io
import json
import logging
from typing import Any

import discord

from bot.core import drawing
from bot.core.drawing import ZOOM_KEY
from bot.core.sessions import Session
from bot.games.manifest import GameRenderer
from bot.games.registry import board_renderer

log = logging.getLogger(__name__)


def renderer_of(game: str) -> GameRenderer | None:
    """The renderer of ``game`` (None: unknown game, or its renderer does not import)."""
    try:
        return board_renderer(game)
    except (KeyError, ImportError, AttributeError, TypeError):
        return None


def has_personal_board(session: Session) -> bool:
    if session.game is None:
        return False
    drawer = renderer_of(session.row.game)
    return drawer is not None and drawer.personal is not None


def seat_view(session: Session, seat: int) -> dict[str, Any]:
    """The seat's own view (its hand and nothing of other hands) with the players' names, as plain JSON."""
    assert session.game is not None
    view: dict[str, Any] = json.loads(json.dumps(session.game.view(seat)))
    view["seat_names"] = session.seat_names()
    return view


async def personal_board(session: Session, seat: int, lang: str) -> tuple[str, bytes] | None:
    """(file name, PNG) of ``seat``'s personal board in ``lang``, or None (no such board for this game,
    or the render failed: the panel then goes out without it)."""
    if not has_personal_board(session) or seat < 0:
        return None
    drawer = renderer_of(session.row.game)
    draw = drawer.personal if drawer is not None else None
    if draw is None:
        return None
    try:
        png = await drawing.draw(draw, seat_view(session, seat), lang)
    except Exception:  # a picture is an extra: the panel itself must still go out
        log.exception("rendering the personal board of game %s (seat %s) failed", session.id, seat)
        return None
    if png is None:
        return None
    return f"{session.row.game}-{session.id}-{session.row.seq}-seat{seat + 1}.png", png


def as_file(board: tuple[str, bytes]) -> discord.File:
    """A fresh upload of a board (a File is consumed by one request: build one per attempt)."""
    return discord.File(io.BytesIO(board[1]), filename=board[0])


# ---- zoom ---------------------------------------------------------------------------------------
def zoom_choices(session: Session, lang: str) -> list[tuple[str, str]]:
    """(value, label) of the zooms the game's board offers now (none when it has none)."""
    if session.game is None:
        return []
    drawer = renderer_of(session.row.game)
    choices = drawer.zoom_choices if drawer is not None else None
    return list(choices(session.public_view(), lang)) if choices is not None else []


def resolve_zoom(session: Session, lang: str, typed: str) -> str | None:
    """The zoom a user typed: a choice's value, or its label in either language (autocomplete may be
    skipped), compared without case; None when it names none."""
    wanted = typed.strip().casefold()
    for language in dict.fromkeys((lang, "ru", "en")):
        for value, label in zoom_choices(session, language):
            if wanted in (value.casefold(), label.casefold()):
                return value
    return None


async def render_zoom(session: Session, lang: str, zoom: str, seat: int | None = None) -> bytes | None:
    """The PNG of a zoom of the board, or None when the game does not offer ``zoom`` now. With
    ``seat`` (an answer only that seat's player sees, in a game with a personal board) the zoom is
    drawn from the seat's own view, so it marks the cells of its hand; otherwise from the public view."""
    if session.game is None or zoom not in dict(zoom_choices(session, lang)):
        return None
    own = seat is not None and seat >= 0 and has_personal_board(session)
    view = seat_view(session, seat) if own and seat is not None else json.loads(json.dumps(session.public_view()))
    view[ZOOM_KEY] = zoom
    return await drawing.draw(drawing.zoom_png, session.row.game, view, lang)


def zoom_file(session: Session, zoom: str, png: bytes) -> discord.File:
    safe = "".join(ch if ch.isalnum() else "-" for ch in zoom)
    return discord.File(io.BytesIO(png), filename=f"{session.row.game}-{session.id}-{session.row.seq}-{safe}.png")
