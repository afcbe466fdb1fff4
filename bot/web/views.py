"""What a game's web page shows, built once per change, language and seat and shared by every viewer.

Nothing here runs per request: a page, an update on the event stream and a board are looked up by
``(game, version, language, seat)``, where the *version* moves with every change notification of the
game (:meth:`GameViews.changed`: a committed move of this process, or a ``NOTIFY`` from another one on
PostgreSQL). A miss builds the entry once however many viewers ask at the same moment (one future per
key). The live game is read under its lock, so the page never shows a move that is being committed;
boards are drawn in the render processes (:func:`bot.core.drawing.draw`), never on the event loop; the
replay of a finished game is rebuilt from its seed and log in :func:`bot.core.replay.off_loop`'s threads.

What is shown follows the Discord side's rules: a running game's public page has the public view, the
public events and the status lines only; a seat's page adds exactly what that seat's DM panel shows
(its private text, its prompt, the events sent to it, its personal board); a finished game's page is
the replay with everything revealed (as ``/game replay``); an aborted game shows its last public state.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.core import drawing, takeback
from bot.core.i18n import t
from bot.core.replay import LoggedAction, history, off_loop, read_log, stored_options, takeback_line
from bot.core.session import Session
from bot.core.sessions import SessionManager
from bot.core.store import ActionRow, GameRow
from bot.discord_app import limits
from bot.games.base import Game, rng_version
from bot.games.registry import board_renderer, game_class
from bot.web.markup import stamp_html, to_html
from bot.web.model import Flights, Live, Replay, ReplayStep, seat_names

log = logging.getLogger(__name__)

LOG_ACTIONS = 120
"""Actions whose events a running game's page lists (the latest)."""
LIVE_CACHE = 1024
PNG_CACHE = 256
REPLAY_CACHE = 16
MAX_READER_KINDS = 16
"""(language, seat) pages of one game rebuilt eagerly at a change (two languages, the public view and seats)."""
class GameViews:
    """The page data of every game viewed in this process, and the change notifications."""

    def __init__(self, sessions: SessionManager, *, clock: Callable[[], float] = time.time) -> None:
        self.sessions = sessions
        self.store = sessions.store
        self.clock = clock
        self._tick = 0
        self._versions: limits.Lru[int, int] = limits.Lru(100_000)
        self._waiters: dict[int, asyncio.Event] = {}
        self._live: limits.Lru[tuple[int, int, str, int | None], Live] = limits.Lru(LIVE_CACHE)
        self._latest: limits.Lru[tuple[int, str, int | None], Live] = limits.Lru(LIVE_CACHE)
        self._pngs: limits.Lru[tuple[Any, ...], bytes] = limits.Lru(PNG_CACHE)
        self._replays: limits.Lru[tuple[int, str], Replay] = limits.Lru(REPLAY_CACHE)
        self._told: limits.Lru[tuple[int, int, str, int | None], str] = limits.Lru(50_000)
        self._logs: limits.Lru[int, tuple[int, list[ActionRow]]] = limits.Lru(LIVE_CACHE)
        self._stories: limits.Lru[int, tuple[GameRow, list[LoggedAction]]] = limits.Lru(REPLAY_CACHE)
        self._cursors: limits.Lru[int, tuple[int, Game]] = limits.Lru(REPLAY_CACHE)
        self._cursor_lock = threading.Lock()  # the two replay threads never step one game object at once
        self._flights = Flights()
        self._readers: limits.Lru[int, set[tuple[str, int | None]]] = limits.Lru(LIVE_CACHE)
        """Per game, the (language, seat) pages looked at since it was first viewed: rebuilt at each change."""
        self._warming: set[asyncio.Task[None]] = set()
        self.closed = False
        self.builds = 0
        """Entries built (a bench checks that viewers share them)."""

    # ---- change notifications ------------------------------------------------------------
    def version(self, game_id: int) -> int:
        current = self._versions.get(game_id)
        if current is None:  # first seen (or forgotten): a number no cached entry can carry
            self._tick += 1
            current = self._versions[game_id] = self._tick
        return current

    def changed(self, game_id: int) -> None:
        """The game changed (a commit here, or a notification from another process): every page
        of it is rebuilt, at once for the kinds of readers who looked at it lately (so the database
        read is under way before their browsers ask), and its event streams wake."""
        self._tick += 1
        self._versions[game_id] = self._tick
        readers = self._readers.get(game_id)
        if readers and not self.closed:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # not on the loop (a test calling directly): built when asked
                loop = None
            if loop is not None:
                task = loop.create_task(self._warm(game_id, sorted(readers, key=str)))
                self._warming.add(task)
                task.add_done_callback(self._warming.discard)
        waiter = self._waiters.pop(game_id, None)
        if waiter is not None:
            waiter.set()

    async def _warm(self, game_id: int, readers: list[tuple[str, int | None]]) -> None:
        """Build every page kind of ``readers`` side by side (each is under way before any viewer asks)."""
        done = await asyncio.gather(*(self.live(game_id, lang, seat) for lang, seat in readers),
                                    return_exceptions=True)
        for result in done:
            if isinstance(result, BaseException):  # the next look builds it again and answers the error itself
                log.debug("web: warming game %s failed: %s", game_id, result)

    async def wait_change(self, game_id: int, seen: int, timeout: float) -> bool:
        """Wait until the game's version is no longer ``seen`` (True), or ``timeout`` (False)."""
        if self.version(game_id) != seen or self.closed:
            return True
        waiter = self._waiters.setdefault(game_id, asyncio.Event())
        try:
            await asyncio.wait_for(waiter.wait(), timeout)
        except TimeoutError:
            return self.version(game_id) != seen
        return True

    def close(self) -> None:
        """Wake every stream (the server is stopping)."""
        self.closed = True
        for waiter in self._waiters.values():
            waiter.set()
        self._waiters.clear()

    # ---- the live page -------------------------------------------------------------------
    async def live(self, game_id: int, lang: str, seat: int | None, *, stale_ok: bool = False) -> Live:
        """The page's data at the game's current version (built once per version, language, seat).

        ``stale_ok``: while the current version is being built, the previous one will do (a public
        page: its script is sent the current one on its event stream as soon as it is built, so a
        burst of viewers right after a move is answered without waiting for the build)."""
        version = self.version(game_id)
        key = (game_id, version, lang, seat)
        cached = self._live.get(key)
        if cached is not None:
            return cached
        if stale_ok and self._flights.running(("live", *key)):
            latest = self._latest.get((game_id, lang, seat))
            if latest is not None:
                return latest
        readers = self._readers.get(game_id)
        if readers is None:
            readers = self._readers[game_id] = set()
        if len(readers) < MAX_READER_KINDS:
            readers.add((lang, seat))

        async def build() -> Live:
            live = await self._build_live(game_id, version, lang, seat)
            self.builds += 1
            self._live[key] = live
            self._latest[(game_id, lang, seat)] = live
            return live

        return await self._flights.once(("live", *key), build)

    async def session(self, game_id: int) -> Session:
        return await self.sessions.get(game_id)

    async def _recent(self, game_id: int, seq: int) -> list[ActionRow]:
        """The game's latest :data:`LOG_ACTIONS` actions, read incrementally."""
        read, rows = self._logs.get(game_id) or (0, [])
        if seq > read:
            rows = (rows + await self.store.actions(game_id, read, limit=LOG_ACTIONS))[-LOG_ACTIONS:]
            read = rows[-1].seq if rows else read
            self._logs[game_id] = (read, rows)
        return [r for r in rows if r.seq <= seq]

    async def _build_live(self, game_id: int, version: int, lang: str, seat: int | None) -> Live:
        session = await self.session(game_id)
        rows = await self._recent(game_id, session.row.seq)
        async with session.lock:  # nothing is half applied while the page reads the game
            return self._read_live(session, version, lang, seat, rows)

    def _read_live(self, session: Session, version: int, lang: str, seat: int | None,
                   rows: list[ActionRow]) -> Live:
        row = session.row
        game = session.game
        name = t(f"{row.game}.name", lang)
        title = f"{name} #{row.id}"
        seat_users = tuple(tuple(users) for users in row.seat_users or [])
        actors = set(game.actors()) if game is not None and row.status == "running" else set()
        players: list[str] = []
        for s in range(len(seat_users)):
            side = f" — {to_html(game.side_name(game.side_of(s), lang))}" if game is not None else ""
            marks = (" <span class=\"turn\">▶</span>" if s in actors else "") + \
                    (" ✖" if s in session.conceded else "")
            you = " <span class=\"you\">★</span>" if s == seat else ""
            players.append(f"<li>{to_html(session.seat_name(s))}{side}{marks}{you}</li>")
        if row.status == "lobby":
            players = [f"<li>{to_html(_escaped(p.name))}</li>" for p in row.lobby]
        status = [f"<p class=\"phase\">{to_html(t('lobby.status_' + row.status, lang))}</p>"]
        if game is not None:
            status += [f"<p>{to_html(line)}</p>" for line in game.status_lines(lang)]
        if row.status in ("finished", "aborted"):
            from bot.discord_app.delivery import result_line  # noqa: PLC0415 (the end post's own words)

            status.append(f"<p class=\"result\">🏁 {to_html(result_line(session, lang))}</p>")
        turn = self._turn_html(session, lang, actors)
        log_lines: list[str] = []
        for action in rows:
            told = self._told.get((row.id, action.seq, lang, seat))
            if told is None and game is not None:  # an action's lines are told once per reader kind, not per change
                told = self._tell(game, action, lang, seat, session.seat_names())
                self._told[(row.id, action.seq, lang, seat)] = told
            log_lines.append(told or "")
        private = ""
        if seat is not None and game is not None and row.status == "running":
            parts = [game.private_text(seat, lang).strip()]
            if seat in actors:
                parts.append(game.prompt_text(seat, lang).strip())
            private = "".join(f"<p>{to_html(p)}</p>" for p in parts if p)
        drawer = _renderer(row.game)
        personal = seat is not None and game is not None and drawer is not None and drawer.personal is not None
        return Live(row.id, version, row.seq, row.status, title, "".join(players), "".join(status), turn,
                    "".join(log_lines) or f"<li class=\"empty\">{to_html(t('web.log.empty', lang))}</li>",
                    private, seat_users, personal, game is not None and drawer is not None)

    @staticmethod
    def _tell(game: Game, action: ActionRow, lang: str, seat: int | None, names: list[str]) -> str:
        """The log lines of one action for a reader: public events, and those sent to ``seat``."""
        if takeback.is_takeback(action.seat, action.action):  # issue 27, as /game log tells it
            return (f"<li data-seq=\"{action.seq}\"><span class=\"seq\">{action.seq}</span> "
                    f"{to_html(takeback_line(action.action, names, lang))}</li>")
        out = []
        for event in action.events:
            to = event.get("to")
            if str(event.get("type", "")).startswith("platform."):
                continue
            if to is not None and (seat is None or seat not in to):
                continue
            text = game.event_text(event, lang)
            if text:
                mark = "🔒 " if to is not None else ""
                out.append(f"<li data-seq=\"{action.seq}\"><span class=\"seq\">{action.seq}</span> "
                           f"{mark}{to_html(text)}</li>")
        return "".join(out)

    @staticmethod
    def _turn_html(session: Session, lang: str, actors: set[int]) -> str:
        row = session.row
        if row.status != "running" or not actors:
            return ""
        if row.settings.extra.get("paused_at") is not None:
            return f"<p>{to_html(t('lifecycle.status.paused_line', lang, ts=int(row.settings.extra['paused_at'])))}</p>"
        items = []
        for s in sorted(actors):
            timer = session.deadlines.get(s)
            due = ""
            if timer is not None:
                due = (f" <span class=\"due\" data-due=\"{int(timer.due_at)}\">{stamp_html(int(timer.due_at))}</span>")
            items.append(f"<li>▶ {to_html(session.seat_name(s))}{due}</li>")
        return f"<p>{to_html(t('web.turn', lang))}</p><ul>{''.join(items)}</ul>"

    # ---- boards --------------------------------------------------------------------------
    async def _png(self, key: tuple[Any, ...], draw: Callable[[], Awaitable[bytes | None]]) -> bytes | None:
        cached = self._pngs.get(key)
        if cached is not None:
            return cached

        async def build() -> bytes | None:
            png = await draw()
            if png is not None:
                self._pngs[key] = png
            return png

        return await self._flights.once(("png", *key), build)

    async def board(self, game_id: int, lang: str) -> bytes | None:
        """The public board at the game's current version (None: nothing to draw, a lobby)."""
        version = self.version(game_id)

        async def draw() -> bytes | None:
            session = await self.session(game_id)
            drawer = _renderer(session.row.game)
            if session.game is None or drawer is None:
                return None
            async with session.lock:
                view = json.loads(json.dumps(session.public_view()))
            return await drawing.draw(drawer.board, view, lang)

        return await self._png(("board", game_id, version, lang), draw)

    async def personal(self, game_id: int, seat: int, lang: str) -> bytes | None:
        """The seat's personal board (the one its DM panel carries), when its game draws one."""
        version = self.version(game_id)

        async def draw() -> bytes | None:
            session = await self.session(game_id)
            drawer = _renderer(session.row.game)
            if session.game is None or drawer is None or drawer.personal is None or session.row.status != "running":
                return None
            async with session.lock:
                assert session.game is not None
                view = json.loads(json.dumps(session.game.view(seat)))
                view["seat_names"] = session.seat_names()
            png: bytes | None = await drawing.draw(drawer.personal, view, lang)
            return png

        return await self._png(("mine", game_id, version, lang, seat), draw)

    # ---- the replay of a finished game ----------------------------------------------------
    async def _story(self, game_id: int) -> tuple[GameRow, list[LoggedAction]]:
        cached = self._stories.get(game_id)
        if cached is not None:
            return cached
        session = await self.session(game_id)
        story = (session.row, await read_log(self.store, game_id))
        self._stories[game_id] = story
        return story

    async def replay(self, game_id: int, lang: str) -> Replay:
        """The finished game's replay in ``lang``: every action with its hidden parts revealed."""
        cached = self._replays.get((game_id, lang))
        if cached is not None:
            return cached

        async def build() -> Replay:
            session = await self.session(game_id)
            row, actions = await self._story(game_id)
            assert row.seed is not None
            names = seat_names(row)
            options = stored_options(row.game, row.options, row.settings.to_json())
            story = await off_loop(functools.partial(
                history, row.game, row.seat_info or [], options, row.seed, actions, names=names, lang=lang,
                rng=row.settings.rng_version or 1))
            from bot.discord_app.delivery import result_line  # noqa: PLC0415

            def who(s: int) -> str:
                return to_html(names[s]) if 0 <= s < len(names) else "—"

            replay = Replay(
                row.id, f"{t(f'{row.game}.name', lang)} #{row.id}", to_html(result_line(session, lang)),
                tuple(to_html(line) for line in story.opening),
                tuple(ReplayStep(st.seq, who(st.seat), tuple(to_html(line) for line in st.lines)) for st in story.steps),
                tuple(to_html(line) for line in story.closing))
            self._replays[(game_id, lang)] = replay
            self.builds += 1
            return replay

        return await self._flights.once(("replay", game_id, lang), build)

    async def step_board(self, game_id: int, seq: int, lang: str) -> bytes | None:
        """The public board of a finished game right after its action ``seq`` (0: the start)."""

        async def draw() -> bytes | None:
            row, actions = await self._story(game_id)
            drawer = _renderer(row.game)
            if drawer is None or row.seed is None or not 0 <= seq <= (actions[-1].seq if actions else 0):
                return None
            view = await off_loop(self._view_at, game_id, row, actions, seq)
            return await drawing.draw(drawer.board, view, lang)

        return await self._png(("step", game_id, seq, lang), draw)

    def _view_at(self, game_id: int, row: GameRow, actions: list[LoggedAction], seq: int) -> dict[str, Any]:
        """(In a worker thread.) The public view after ``seq``, replayed from the nearest earlier
        position this game was replayed to (stepping forward costs one action per step)."""
        assert row.seed is not None
        upto = [a for a in actions if a.seq <= seq]
        options = stored_options(row.game, row.options, row.settings.to_json())
        with self._cursor_lock, rng_version(row.settings.rng_version or 1):
            if any(takeback.is_takeback(a.seat, a.action) for a in upto):
                # a takeback (issue 27) undid earlier moves: the game as if they never were, from the seed
                game = game_class(row.game).new(row.seat_info or [], options, row.seed)
                for action in takeback.effective(upto):
                    game.apply(action.seat, json.loads(action.action))
                return self._public(game, row)
            cursor = self._cursors.get(game_id)
            if cursor is None or cursor[0] > seq:
                cursor = (0, game_class(row.game).new(row.seat_info or [], options, row.seed))
            at, game = cursor
            for action in upto:
                if at < action.seq:
                    game.apply(action.seat, json.loads(action.action))
                    at = action.seq
            self._cursors[game_id] = (at, game)
            return self._public(game, row)

    @staticmethod
    def _public(game: Game, row: GameRow) -> dict[str, Any]:
        view = json.loads(json.dumps(game.view(None)))
        view["seat_names"] = seat_names(row)
        return view




def _escaped(name: str) -> str:
    from bot.core.parse import escape  # noqa: PLC0415

    return escape(name)


def _renderer(game: str) -> Any:
    try:
        return board_renderer(game)
    except (KeyError, ImportError, AttributeError, TypeError):
        return None
