"""FakeDiscord: an aiohttp server speaking enough of Discord's REST API (v10) and gateway for an
unmodified discord.py bot to run against it, plus a Python API for tests to act as users.

Design notes (the why):

* One catch-all REST handler: every request is parsed (JSON or multipart), recorded, checked against
  the 429 switch and only then routed through a small regex table. Unknown routes answer 404 JSON and
  are logged/recorded in ``unknown_routes``.
* discord.py only decodes a body as JSON when ``Content-Type`` is exactly ``application/json``
  (``http.json_or_text``), so responses set that header by hand (no ``; charset=utf-8``).
* discord.py treats a 429 without a ``Via`` header as a Cloudflare ban (raises instead of retrying),
  so the 429 switch sends ``Via`` plus the ``X-RateLimit-*`` / ``Retry-After`` headers.
* Gateway: the client asks ``compress=zlib-stream`` (no zstd module installed). discord.py only
  decompresses *binary* frames, so we honour the query and send zlib-stream binary frames with a
  ``Z_SYNC_FLUSH`` suffix; without the query we send plain text frames.
* Every dispatched event is buffered per session so a RESUME replays what the client missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import socket
import time
import traceback
import zlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .models import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    OVERWRITE_MEMBER,
    OVERWRITE_ROLE,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    UPLOAD_LIMIT,
    VIEW_CHANNEL,
    Attachment,
    Channel,
    Guild,
    InteractionResult,
    Message,
    Overwrite,
    RecordedRequest,
    Role,
    User,
    iso_now,
    new_snowflake,
    snowflake_of,
    walk_components,
)

if TYPE_CHECKING:
    from .process import BotProcess

log = logging.getLogger("fake_discord")

API_PREFIX_RE = re.compile(r"^/api/v\d+")
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12


class ApiError(Exception):
    """Raised by route handlers; becomes a Discord-shaped JSON error response."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


@dataclass
class _Req:
    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[Attachment]


@dataclass
class _RateRule:
    retry_after: float
    route_contains: str | None
    method: str | None
    remaining: int
    is_global: bool


@dataclass(eq=False)
class FaultRule:
    """One ``fail_requests`` switch; ``remaining`` counts down as matching requests are refused."""

    status: int
    route_contains: str | None
    method: str | None
    remaining: int
    code: int = 0
    drop: bool = False
    lose_response: bool = False
    hits: int = 0

    def matches(self, path: str, method: str) -> bool:
        return (
            self.remaining > 0
            and (self.route_contains is None or self.route_contains in path)
            and (self.method is None or self.method == method)
        )


@dataclass(eq=False)
class _Session:
    id: str
    intents: int
    shard_id: int = 0
    shard_count: int = 1
    seq: int = 0
    buffer: list[dict[str, Any]] = field(default_factory=list)
    conn: _Conn | None = None


@dataclass(eq=False)
class _Conn:
    """One gateway websocket. Frames go through a FIFO queue drained by a single writer task, so
    events reach the bot in the order they were dispatched (and zlib-stream frames in compression
    order) even though producers are synchronous test-API calls."""

    ws: web.WebSocketResponse
    compress: bool
    session: _Session | None = None
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    zctx: Any = field(default_factory=zlib.compressobj)

    def send(self, payload: dict[str, Any]) -> None:
        self.queue.put_nowait(payload)

    async def writer(self) -> None:
        while True:
            raw = json.dumps(await self.queue.get())
            if self.ws.closed:
                continue
            try:
                if self.compress:
                    await self.ws.send_bytes(
                        self.zctx.compress(raw.encode()) + self.zctx.flush(zlib.Z_SYNC_FLUSH)
                    )
                else:
                    await self.ws.send_str(raw)
            except (ConnectionResetError, RuntimeError) as exc:
                log.debug("gateway send failed: %s", exc)


Handler = Callable[..., Awaitable[tuple[int, Any]]]


def _json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
    hdrs = {"Content-Type": "application/json"}
    hdrs.update(headers or {})
    if status == 204:
        return web.Response(status=204, headers={k: v for k, v in hdrs.items() if k != "Content-Type"})
    return web.Response(status=status, body=json.dumps(body).encode(), headers=hdrs)


def _form_error(field_name: str, code: str, message: str) -> ApiError:
    return ApiError(
        400, 50035, "Invalid Form Body", {field_name: {"_errors": [{"code": code, "message": message}]}}
    )


_BOUNDARY_RE = re.compile(r'boundary=(?:"([^"]+)"|([^;\s]+))', re.I)
_PLAIN_DISPOSITION_RE = re.compile(r'form-data; name="([^"\\/;]*)"(?:; filename="([^"\\/;]*)")?')


def _disposition(header: str) -> tuple[str, str | None]:
    """(name, filename) of a part's Content-Disposition. discord.py's plain form (aiohttp's FormData
    without quoting: ``form-data; name="files[0]"; filename="board.png"``) is read directly; anything
    else (escapes, ``filename*``, odd spacing) by aiohttp's own parser, which costs about a millisecond a
    part (it rebuilds a regular expression on every call; a soak uploads thousands of boards)."""
    plain = _PLAIN_DISPOSITION_RE.fullmatch(header)
    if plain is not None:
        return plain[1], plain[2]
    from aiohttp.multipart import content_disposition_filename, parse_content_disposition

    _, params = parse_content_disposition(header)
    return content_disposition_filename(params, "name") or "", content_disposition_filename(params, "filename")


def multipart_parts(content_type: str, body: bytes) -> list[tuple[str, str | None, bytes]]:
    """(name, filename, data) of each part of a ``multipart/form-data`` body (RFC 7578), read at once
    from the whole body instead of through aiohttp's streaming reader and e-mail header parser, which
    were a third of the fake's CPU in a soak."""
    found = _BOUNDARY_RE.search(content_type)
    if found is None:
        raise ValueError(f"multipart body without a boundary: {content_type!r}")
    delimiter = b"--" + (found[1] or found[2]).encode("latin-1")
    chunks = body.split(delimiter)
    parts: list[tuple[str, str | None, bytes]] = []
    for chunk in chunks[1:]:
        if chunk.startswith(b"--"):  # the close delimiter: the epilogue follows
            break
        head, sep, data = chunk.partition(b"\r\n\r\n")
        if not sep:
            raise ValueError("multipart part without a header block")
        if data.endswith(b"\r\n"):
            data = data[:-2]  # the CRLF belongs to the next delimiter
        disposition = ""
        for line in head.decode("utf-8", "surrogateescape").split("\r\n"):
            key, colon, value = line.partition(":")
            if colon and key.strip().lower() == "content-disposition":
                disposition = value.strip()
        name, filename = _disposition(disposition)
        parts.append((name, filename, data))
    return parts


class FakeDiscord:
    """A fake Discord for end-to-end tests. Use as ``async with FakeDiscord() as fake:``."""

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        heartbeat_interval_ms: int = 41250,
        send_message_events: bool = True,
        callback_deadline: float | None = 3.0,
        quiet_period: float = 0.5,
        shard_count: int = 1,
    ) -> None:
        """
        ``send_message_events``: dispatch MESSAGE_CREATE/UPDATE for the bot's own messages (as Discord
        does when the bot has the message intents). ``callback_deadline``: if set (Discord uses 3.0),
        interaction callbacks arriving later get 404 "Unknown interaction". ``quiet_period``: after a
        type 6 (deferred update) callback, how long the bot must stay silent before ``click``/``select``
        return without an ``@original`` edit or follow-up. ``shard_count``: what ``GET /gateway/bot``
        recommends; sessions IDENTIFYing with ``shard: [id, count]`` get only their guilds' events
        (see :meth:`shard_of`), DMs go to shard 0, as on Discord.
        """
        self.host = host
        self.port = 0
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.send_message_events = send_message_events
        self.callback_deadline = callback_deadline
        self.quiet_period = quiet_period
        self.shard_count = shard_count

        self.bot_user = User(new_snowflake(), "FakeBot", bot=True)
        self.application_id = self.bot_user.id
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self._channel_messages: dict[int, list[Message]] = {}
        self._dm_by_user: dict[int, Channel] = {}
        self.closed_dms: set[int] = set()

        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.sync_log: list[tuple[float, int | None]] = []  # (monotonic time, guild id or None=global)

        self.requests: list[RecordedRequest] = []
        self.unknown_routes: list[str] = []
        self.errors_returned: list[tuple[RecordedRequest, dict[str, Any]]] = []
        self.crashes: list[str] = []  # requests a handler of the fake failed on (answered 500)
        self.gateway_queries: list[dict[str, str]] = []  # query string of every gateway connection
        self.identifies: list[tuple[float, dict[str, Any]]] = []
        self.resumes: list[tuple[float, dict[str, Any]]] = []
        self.interactions: list[InteractionResult] = []
        self._by_token: dict[str, InteractionResult] = {}
        self.enforce_view = True  # interactions only in channels the user can view, as Discord's client
        self.gateway_down = False  # switch: new gateway connections are refused with 503
        self.require_token = False  # switch: as Discord, /gateway/bot and /users/@me need "Bot <token>"
        self.reject_tokens = False  # switch: GET /users/@me answers 401, as Discord does for a bad token
        self._rate_rules: list[_RateRule] = []
        self._fault_rules: list[FaultRule] = []
        # switch: every REST route answers 503 (or, with outage_drops, the connection is dropped)
        self.rest_outage = False
        self.outage_drops = False
        self.faults_injected: list[RecordedRequest] = []  # requests refused by a fault switch
        self._nonces: dict[tuple[int, str], tuple[float, int]] = {}  # (author, nonce) -> (time, message id)
        self._last_request_at = time.monotonic()
        self._waiters: list[asyncio.Future[None]] = []  # wait_for calls to wake at the next change

        self._sessions: dict[str, _Session] = {}
        self._current: dict[int, _Session] = {}  # shard id -> its latest IDENTIFYed session
        self._conns: list[_Conn] = []
        self._processes: list[BotProcess] = []
        self._runner: web.AppRunner | None = None
        self._uploads: dict[int, Attachment] = {}  # attachment id -> file, served under /attachments/
        self._routes: list[tuple[str, re.Pattern[str], Handler]] = []
        self._build_routes()

    # ------------------------------------------------------------------ lifecycle
    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._ws_handler)
        app.router.add_get("/attachments/{channel}/{att}/{filename}", self._attachment_handler)
        app.router.add_route("*", "/api/{tail:.*}", self._rest_handler)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        log.info("fake discord listening on %s", self.api_base)

    async def close(self) -> None:
        for proc in list(self._processes):
            if proc.running:
                await proc.kill()
        for conn in list(self._conns):
            await conn.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def api_base(self) -> str:
        return f"http://{self.host}:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    # ------------------------------------------------------------------ world building
    def create_user(self, name: str, *, locale: str = "en-US", bot: bool = False) -> User:
        user = User(new_snowflake(), name, locale=locale, bot=bot)
        self.users[user.id] = user
        return user

    def create_guild(
        self, name: str = "Test Guild", *, owner: User | None = None, locale: str = "en-US",
        everyone_permissions: int | None = None,
    ) -> Guild:
        """``everyone_permissions``: the @everyone role's permissions (default: all, administrator
        included, so nothing is denied; ``MEMBER_PERMISSIONS`` for a server where overwrites matter)."""
        guild = Guild(new_snowflake(), name, owner_id=(owner or self.bot_user).id, preferred_locale=locale)
        if everyone_permissions is not None:
            guild.everyone_permissions = everyone_permissions
        self.guilds[guild.id] = guild
        if owner is not None:
            guild.members[owner.id] = owner
        self._dispatch_if_connected("GUILD_CREATE", lambda: guild.to_payload(self.bot_user))
        return guild

    def create_channel(self, guild: Guild | int, name: str, *, overwrites: list[Overwrite] | None = None) -> Channel:
        g = self.guilds[snowflake_of(guild)]
        ch = Channel(new_snowflake(), name, type=0, guild_id=g.id, position=len(g.channels),
                     overwrites=list(overwrites or []))
        g.channels.append(ch)
        self.channels[ch.id] = ch
        self._channel_messages[ch.id] = []
        self._dispatch_if_connected("CHANNEL_CREATE", ch.to_payload)
        return ch

    def create_private_channel(
        self, guild: Guild | int, name: str, *, members: Sequence[User] = (), roles: Sequence[Role] = ()
    ) -> Channel:
        """A channel only ``members``, members with one of ``roles``, and the bot can view: @everyone
        is denied View Channel. Needs a guild whose @everyone is not administrator."""
        g = self.guilds[snowflake_of(guild)]
        if g.base_permissions(0) & ADMINISTRATOR:
            raise ValueError("everyone is administrator in this guild: create_guild(everyone_permissions=...)")
        see = VIEW_CHANNEL | SEND_MESSAGES | SEND_MESSAGES_IN_THREADS
        overwrites = [Overwrite(g.id, OVERWRITE_ROLE, deny=VIEW_CHANNEL)]
        overwrites += [Overwrite(r.id, OVERWRITE_ROLE, allow=see) for r in roles]
        overwrites += [Overwrite(u.id, OVERWRITE_MEMBER, allow=see) for u in [self.bot_user, *members]]
        return self.create_channel(g, name, overwrites=overwrites)

    def set_overwrite(self, channel: Channel | int, target: User | Role | Guild, *, allow: int = 0,
                      deny: int = 0) -> None:
        """Set (replace) the overwrite of a member, a role or @everyone (the guild) on a channel."""
        ch = self.channels[snowflake_of(channel)]
        kind = OVERWRITE_MEMBER if isinstance(target, User) else OVERWRITE_ROLE
        ch.overwrites = [o for o in ch.overwrites if o.id != target.id]
        ch.overwrites.append(Overwrite(target.id, kind, allow=allow, deny=deny))
        self._dispatch_if_connected("CHANNEL_UPDATE", ch.to_payload)

    def create_role(self, guild: Guild | int, name: str, permissions: int) -> Role:
        g = self.guilds[snowflake_of(guild)]
        role = Role(new_snowflake(), name, permissions, position=len(g.roles) + 1)
        g.roles.append(role)
        self._dispatch_if_connected("GUILD_ROLE_CREATE",
                                    lambda: {"guild_id": str(g.id), "role": role.to_payload()})
        return role

    def set_roles(self, guild: Guild | int, user: User, roles: Sequence[Role]) -> None:
        """Give a member exactly these roles (GUILD_MEMBER_UPDATE)."""
        g = self.guilds[snowflake_of(guild)]
        g.member_roles[user.id] = [r.id for r in roles]
        self._dispatch_if_connected(
            "GUILD_MEMBER_UPDATE", lambda: {**g.member_payload(user), "guild_id": str(g.id)}
        )

    def permissions(self, user: User | int, channel: Channel | int) -> int:
        """``user``'s permissions in ``channel`` as Discord resolves them (0 in a DM)."""
        ch = self.channels[snowflake_of(channel)]
        if ch.guild_id is None:
            return 0
        return self.guilds[ch.guild_id].permissions(snowflake_of(user), ch)

    def can_view(self, user: User | int, channel: Channel | int) -> bool:
        ch = self.channels[snowflake_of(channel)]
        if ch.guild_id is None:
            return ch.recipient is not None and ch.recipient.id == snowflake_of(user)
        return bool(self.permissions(user, ch) & VIEW_CHANNEL)

    def create_thread(self, channel: Channel | int, name: str, *, owner: User | None = None,
                      private: bool = False, members: Sequence[User] = (), message_id: int | None = None) -> Channel:
        """A public thread (type 11), or a private one (type 12) seen by its ``members`` (the owner,
        the bot and those given) and by members with Manage Threads. A thread started from a message
        (``message_id``) has the message's id, and a message has one thread at most: a second is
        refused with 160004, as Discord does."""
        parent = self.channels[snowflake_of(channel)]
        assert parent.guild_id is not None, "threads live in guild channels"
        if message_id is not None and message_id in self.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        owner_id = (owner or self.bot_user).id
        th = Channel(
            new_snowflake() if message_id is None else message_id,
            name,
            type=12 if private else 11,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner_id,
            thread_members={owner_id, self.bot_user.id, *(u.id for u in members)},
        )
        self.guilds[parent.guild_id].channels.append(th)
        self.channels[th.id] = th
        self._channel_messages[th.id] = []
        self._dispatch_if_connected("THREAD_CREATE", lambda: {**th.to_payload(), "newly_created": True})
        return th

    def add_thread_member(self, thread: Channel | int, user: User) -> None:
        self.channels[snowflake_of(thread)].thread_members.add(user.id)

    def remove_thread_member(self, thread: Channel | int, user: User) -> None:
        self.channels[snowflake_of(thread)].thread_members.discard(user.id)

    def add_member(self, guild: Guild | int, user: User, *, roles: Sequence[Role] = ()) -> None:
        g = self.guilds[snowflake_of(guild)]
        g.members[user.id] = user
        if roles:
            g.member_roles[user.id] = [r.id for r in roles]
        self._dispatch_if_connected(
            "GUILD_MEMBER_ADD", lambda: {**g.member_payload(user), "guild_id": str(g.id)}
        )

    def dm_channel(self, user: User | int) -> Channel | None:
        """The DM channel the bot opened with ``user`` (None if it never did)."""
        return self._dm_by_user.get(snowflake_of(user))

    def open_dm_channel(self, user: User | int) -> Channel:
        """Get or create the bot<->user DM channel (what POST /users/@me/channels does)."""
        uid = snowflake_of(user)
        ch = self._dm_by_user.get(uid)
        if ch is None:
            recipient = self.users[uid]
            ch = Channel(new_snowflake(), f"dm-{recipient.name}", type=1, recipient=recipient)
            self._dm_by_user[uid] = ch
            self.channels[ch.id] = ch
            self._channel_messages[ch.id] = []
        return ch

    # ------------------------------------------------------------------ switches
    def close_dms(self, user: User | int) -> None:
        """Later DM sends to ``user`` fail with 403 ``{"code": 50007}``."""
        self.closed_dms.add(snowflake_of(user))

    def open_dms(self, user: User | int) -> None:
        self.closed_dms.discard(snowflake_of(user))

    def rate_limit_next(
        self,
        retry_after: float = 0.3,
        route_contains: str | None = None,
        *,
        method: str | None = None,
        count: int = 1,
        is_global: bool = False,
    ) -> None:
        """The next ``count`` requests whose path (without /api/v10) contains ``route_contains`` (any
        request if None) and whose method matches get 429 with ``retry_after`` seconds."""
        self._rate_rules.append(
            _RateRule(retry_after, route_contains, method.upper() if method else None, count, is_global)
        )

    def fail_requests(
        self,
        status: int = 503,
        route_contains: str | None = None,
        *,
        method: str | None = None,
        count: int = 1,
        code: int = 0,
        drop: bool = False,
        lose_response: bool = False,
    ) -> FaultRule:
        """The next ``count`` requests whose path (without /api/v10) contains ``route_contains`` (any
        if None) and whose method matches are refused: answered ``status`` with a Discord-shaped body,
        or with ``drop=True`` the connection is closed without an answer (a network error). With
        ``lose_response=True`` the request is carried out and only the answer is lost (the bot sees a
        network error for something Discord did). Returns the rule (``remaining``, ``hits``)."""
        rule = FaultRule(status, route_contains, method.upper() if method else None, count, code, drop,
                         lose_response)
        self._fault_rules.append(rule)
        return rule

    def forget_nonces(self) -> None:
        """As if Discord's nonce window (a few minutes) had passed: a nonce seen before makes a new message."""
        self._nonces.clear()

    def clear_faults(self) -> None:
        """Drop every pending ``fail_requests`` rule and end a REST outage."""
        self._fault_rules.clear()
        self.rest_outage = self.outage_drops = False

    async def disconnect_gateway(self, code: int = 4000, *, shard: int | None = None) -> None:
        """Close the bot's gateway sockets (only ``shard``'s if given); discord.py then RESUMEs
        (code 4000) or re-identifies."""
        for conn in list(self._conns):
            if shard is None or (conn.session is not None and conn.session.shard_id == shard):
                await conn.ws.close(code=code)

    async def invalidate_session(self, *, shard: int | None = None) -> None:
        """Send op 9 (resumable=false): discord.py drops the session and re-identifies."""
        for sid, session in self._current.items():
            if shard is None or sid == shard:
                session.id = "invalidated-" + session.id
        for conn in list(self._conns):
            if shard is None or conn.session is None or conn.session.shard_id == shard:
                conn.send({"op": 9, "d": False, "s": None, "t": None})

    # ------------------------------------------------------------------ queries
    def channel_messages(
        self, channel: Channel | int, *, include_ephemeral: bool = False, include_deleted: bool = False
    ) -> list[Message]:
        """Messages in the channel (or thread / DM channel), oldest first, latest edited state."""
        msgs = self._channel_messages.get(snowflake_of(channel), [])
        return [
            m for m in msgs if (include_ephemeral or not m.ephemeral) and (include_deleted or not m.deleted)
        ]

    def dm_messages(self, user: User | int, **kwargs: bool) -> list[Message]:
        ch = self.dm_channel(user)
        return self.channel_messages(ch, **kwargs) if ch else []

    def ephemeral_messages(self, user: User | int | None = None) -> list[Message]:
        """Ephemeral messages (optionally only those shown to ``user``)."""
        uid = snowflake_of(user) if user is not None else None
        return [
            m
            for m in self.messages.values()
            if m.ephemeral
            and (uid is None or (m.interaction_user is not None and m.interaction_user.id == uid))
        ]

    def last_message(self, channel: Channel | int, containing: str | None = None, **kwargs: bool) -> Message:
        """Newest message in the channel, optionally whose text (content, embeds, labels) contains a string."""
        for m in reversed(self.channel_messages(channel, **kwargs)):
            if containing is None or containing in m.text:
                return m
        raise LookupError(
            f"no message containing {containing!r} in channel {snowflake_of(channel)}; have: "
            f"{[m.text[:80] for m in self.channel_messages(channel, **kwargs)]}"
        )

    def all_guild_messages(self, *, include_ephemeral: bool = False) -> list[Message]:
        """Every message in any guild channel or thread (use ``m.versions`` for the edit history)."""
        return [
            m
            for m in self.messages.values()
            if m.guild_id is not None and (include_ephemeral or not m.ephemeral)
        ]

    def message(self, message_id: int) -> Message:
        return self.messages[int(message_id)]

    def requests_matching(self, path_contains: str = "", method: str | None = None) -> list[RecordedRequest]:
        return [
            r
            for r in self.requests
            if path_contains in r.path and (method is None or r.method == method.upper())
        ]

    def command(self, name: str, guild: Guild | int | None = None) -> dict[str, Any] | None:
        """A synced top-level command definition by name (guild commands first, then global)."""
        pools = [self.guild_commands.get(snowflake_of(guild), [])] if guild is not None else []
        pools.append(self.global_commands)
        for pool in pools:
            for cmd in pool:
                if cmd["name"] == name:
                    return cmd
        return None

    @property
    def connected(self) -> bool:
        return any(c.session is not None and not c.ws.closed for c in self._conns)

    def shard_of(self, guild: Guild | int | None) -> int:
        """The shard Discord sends a guild's events to, ``(guild_id >> 22) % shard_count``, with the
        count the bot IDENTIFYed with (``self.shard_count`` before that); 0 for DMs."""
        if guild is None:
            return 0
        counts = {s.shard_count for s in self._current.values()}
        count = counts.pop() if len(counts) == 1 else self.shard_count
        return (snowflake_of(guild) >> 22) % count

    @property
    def shard_sessions(self) -> dict[int, str]:
        """Shard id -> session id of the sessions IDENTIFYed so far (the latest per shard)."""
        return {sid: s.id for sid, s in sorted(self._current.items())}

    def shard_connected(self, shard: int) -> bool:
        session = self._current.get(shard)
        return session is not None and session.conn is not None and not session.conn.ws.closed

    def _targets(self, guild_id: int | None) -> list[_Session]:
        """The current sessions an event of ``guild_id`` (None: a DM or no guild) goes to."""
        if guild_id is None:
            return [s for s in self._current.values() if s.shard_id == 0]
        return [s for s in self._current.values() if s.shard_id == (guild_id >> 22) % s.shard_count]

    def changed(self) -> None:
        """Wake every :meth:`wait_for`: the bot did something the fake saw (a request, a gateway
        message, a line of output), which may have made its condition true."""
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float = 10.0, interval: float = 0.02, poll: float = 0.05
    ) -> Any:
        """Check ``predicate`` until it returns something truthy; return that value.

        It is checked again as soon as the bot does something the fake sees (:meth:`changed`), but at
        most once every ``interval`` seconds, and at least every ``poll`` seconds (a condition on the
        bot's database or the clock can come true with nothing sent to the fake)."""
        loop = asyncio.get_running_loop()
        deadline = time.monotonic() + timeout
        while True:
            checked = time.monotonic()
            value = predicate()
            if value:
                return value
            if checked > deadline:
                raise TimeoutError(f"condition not met within {timeout}s")
            waiter = loop.create_future()
            self._waiters.append(waiter)
            try:
                await asyncio.wait({waiter}, timeout=max(0.0, min(poll, deadline - time.monotonic())))
            finally:
                if not waiter.done():
                    waiter.cancel()
                    with contextlib.suppress(ValueError):
                        self._waiters.remove(waiter)
            rest = interval - (time.monotonic() - checked)
            if rest > 0:
                await asyncio.sleep(rest)

    # ------------------------------------------------------------------ acting as users
    async def slash(
        self,
        user: User,
        channel: Channel,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        timeout: float = 10.0,
        **kwargs: Any,
    ) -> InteractionResult:
        """Run ``/command`` (e.g. ``"game new"``); options by name as Python values (``options=`` for
        names that clash with this signature). Returns once the bot's response is visible."""
        data = self._command_data(channel, command, {**(options or {}), **kwargs}, focused=None)
        return await self._interact(user, channel, 2, data, timeout=timeout)

    async def autocomplete(
        self,
        user: User,
        channel: Channel,
        command: str,
        focused: str,
        options: dict[str, Any] | None = None,
        *,
        timeout: float = 10.0,
    ) -> list[dict[str, Any]]:
        """Ask for autocomplete of option ``focused`` (its current text is ``options.get(focused, "")``)."""
        opts = dict(options or {})
        opts.setdefault(focused, "")
        data = self._command_data(channel, command, opts, focused=focused)
        result = await self._interact(user, channel, 4, data, timeout=timeout)
        return result.choices or []

    async def click(
        self,
        user: User,
        message: Message,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        index: int = 0,
        timeout: float = 10.0,
        allow_disabled: bool = False,
    ) -> InteractionResult:
        """Press a button found by label or custom_id (else the ``index``-th button)."""
        msg = self._live(message)
        btn = self._pick(msg.buttons, "button", label=label, custom_id=custom_id, index=index)
        if btn.get("style") == 5 or "custom_id" not in btn:
            raise ValueError(f"button {btn.get('label')!r} is a link/premium button and cannot be clicked")
        if btn.get("disabled") and not allow_disabled:
            raise ValueError(f"button {btn.get('label')!r} is disabled")
        data: dict[str, Any] = {"custom_id": btn["custom_id"], "component_type": 2}
        if "id" in btn:
            data["id"] = btn["id"]
        return await self._interact(user, self.channels[msg.channel_id], 3, data, source=msg, timeout=timeout)

    async def select(
        self,
        user: User,
        message: Message,
        values: list[Any],
        *,
        custom_id: str | None = None,
        placeholder: str | None = None,
        index: int = 0,
        timeout: float = 10.0,
    ) -> InteractionResult:
        """Choose ``values`` in a select menu (found by custom_id, placeholder, or index among selects)."""
        msg = self._live(message)
        sel = self._pick(msg.selects, "select", custom_id=custom_id, placeholder=placeholder, index=index)
        if sel.get("disabled"):
            raise ValueError(f"select {sel.get('custom_id')!r} is disabled")
        ctype = sel.get("type", 3)
        str_values: list[str] = []
        resolved: dict[str, Any] = {}
        channel = self.channels[msg.channel_id]
        guild = self.guilds.get(channel.guild_id) if channel.guild_id else None
        for v in values:
            if ctype == 3:
                sv = str(v)
                allowed = [str(o.get("value")) for o in sel.get("options", [])]
                if sv not in allowed:
                    raise ValueError(f"value {sv!r} not among select options {allowed}")
                str_values.append(sv)
            elif isinstance(v, User) or ctype == 5:
                u = self.users[snowflake_of(v)]
                str_values.append(str(u.id))
                resolved.setdefault("users", {})[str(u.id)] = u.to_payload()
                if guild is not None and u.id in guild.members:
                    m = guild.member_payload(u, with_permissions=True, channel=channel)
                    m.pop("user")
                    resolved.setdefault("members", {})[str(u.id)] = m
            elif isinstance(v, Channel) or ctype == 8:
                ch = self.channels[snowflake_of(v)]
                str_values.append(str(ch.id))
                resolved.setdefault("channels", {})[str(ch.id)] = self._resolved_channel(ch)
            else:
                str_values.append(str(snowflake_of(v)))
        lo, hi = sel.get("min_values", 1), sel.get("max_values", 1)
        if not lo <= len(str_values) <= hi:
            raise ValueError(f"select needs between {lo} and {hi} values, got {len(str_values)}")
        data: dict[str, Any] = {"custom_id": sel["custom_id"], "component_type": ctype, "values": str_values}
        if resolved:
            data["resolved"] = resolved
        return await self._interact(user, channel, 3, data, source=msg, timeout=timeout)

    async def submit_modal(
        self, user: User, result: InteractionResult, values: dict[str, str], *, timeout: float = 10.0
    ) -> InteractionResult:
        """Submit the modal the bot opened in ``result`` with text values by custom_id."""
        if not result.modal:
            raise ValueError("that interaction did not open a modal")
        modal = result.modal

        def answer(comp: dict[str, Any]) -> dict[str, Any] | None:
            if comp.get("type") == 1:
                inner = [a for c in comp.get("components", []) if (a := answer(c))]
                return {"type": 1, "components": inner}
            if comp.get("type") == 18:  # label wrapper (components v2 modals)
                inner_answer = answer(comp["component"])
                return {"type": 18, "component": inner_answer} if inner_answer else None
            if comp.get("type") == 4:
                return {
                    "type": 4,
                    "custom_id": comp["custom_id"],
                    "value": str(values.get(comp["custom_id"], comp.get("value") or "")),
                }
            if comp.get("type") == 3:
                return {
                    "type": 3,
                    "custom_id": comp["custom_id"],
                    "values": list(values.get(comp["custom_id"], [])),
                }
            return None

        comps = [a for c in modal.get("components", []) if (a := answer(c))]
        data = {"custom_id": modal["custom_id"], "components": comps}
        return await self._interact(
            user, result.channel, 5, data, source=result.source_message, timeout=timeout
        )

    def user_message(self, user: User, channel: Channel, content: str) -> Message:
        """A user posts a message (dispatched as MESSAGE_CREATE; bots without message-content intent
        see empty content on real Discord, the fake sends it anyway)."""
        msg = Message(new_snowflake(), channel.id, channel.guild_id, user, content=content)
        self._store_message(msg)
        self._dispatch_message_event("MESSAGE_CREATE", msg)
        return msg

    # ------------------------------------------------------------------ interaction plumbing
    def _live(self, message: Message | int) -> Message:
        return self.messages[snowflake_of(message)]

    @staticmethod
    def _pick(
        components: list[dict[str, Any]],
        kind: str,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        placeholder: str | None = None,
        index: int = 0,
    ) -> dict[str, Any]:
        found = components
        if label is not None:
            found = [c for c in found if c.get("label") == label] or [
                c for c in found if label.casefold() in str(c.get("label") or "").casefold()
            ]
        if custom_id is not None:
            found = [c for c in found if c.get("custom_id") == custom_id]
        if placeholder is not None:
            found = [c for c in found if c.get("placeholder") == placeholder]
        if len(found) <= index:
            avail = [(c.get("label") or c.get("placeholder"), c.get("custom_id")) for c in components]
            raise LookupError(
                f"no {kind} matching label={label!r} custom_id={custom_id!r} "
                f"placeholder={placeholder!r} index={index}; available: {avail}"
            )
        return found[index]

    def _resolved_channel(self, ch: Channel, user: User | None = None) -> dict[str, Any]:
        """A channel as an interaction carries it: with the permissions of ``user`` there (all when
        none is given)."""
        data = ch.to_payload()
        data["permissions"] = str(self.permissions(user, ch)) if user is not None else ALL_PERMISSIONS
        return data

    def _command_data(
        self, channel: Channel, path: str, options: dict[str, Any], focused: str | None
    ) -> dict[str, Any]:
        names = path.split()
        if not names:
            raise ValueError("empty command path")
        top = self.command(names[0], channel.guild_id) if channel.guild_id else self.command(names[0])
        if top is None:
            known = [c["name"] for c in self.global_commands] + [
                c["name"] for c in self.guild_commands.get(channel.guild_id or 0, [])
            ]
            raise LookupError(f"command {names[0]!r} was not synced; synced: {known}")
        node = top
        chain: list[dict[str, Any]] = []
        for name in names[1:]:
            sub = next(
                (o for o in node.get("options", []) if o.get("type") in (1, 2) and o["name"] == name), None
            )
            if sub is None:
                subs = [o["name"] for o in node.get("options", []) if o.get("type") in (1, 2)]
                raise LookupError(f"{name!r} is not a subcommand of {node['name']!r}; have {subs}")
            chain.append(sub)
            node = sub
        if any(o.get("type") in (1, 2) for o in node.get("options", [])):
            subs = [o["name"] for o in node.get("options", []) if o.get("type") in (1, 2)]
            raise LookupError(f"{path!r} is a group; pick a subcommand: {subs}")

        guild = self.guilds.get(channel.guild_id) if channel.guild_id else None
        resolved: dict[str, Any] = {}
        leaf_opts = self._build_options(node, options, guild, resolved, focused)
        for sub in reversed(chain):
            leaf_opts = [{"name": sub["name"], "type": sub["type"], "options": leaf_opts}]
        data: dict[str, Any] = {
            "id": top["id"],
            "name": top["name"],
            "type": top.get("type", 1),
            "options": leaf_opts,
        }
        if top.get("guild_id"):
            data["guild_id"] = top["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _build_options(
        self,
        node: dict[str, Any],
        given: dict[str, Any],
        guild: Guild | None,
        resolved: dict[str, Any],
        focused: str | None,
    ) -> list[dict[str, Any]]:
        defs = {o["name"]: o for o in node.get("options", [])}
        unknown = set(given) - set(defs)
        if unknown:
            raise ValueError(f"unknown option(s) {sorted(unknown)} for {node['name']!r}; have {list(defs)}")
        out: list[dict[str, Any]] = []
        for name, d in defs.items():
            if name not in given:
                if d.get("required") and focused is None:
                    raise ValueError(f"missing required option {name!r} of {node['name']!r}")
                continue
            value = given[name]
            otype = d["type"]
            if name == focused:
                out.append({"name": name, "type": otype, "value": str(value), "focused": True})
                continue
            out.append({"name": name, "type": otype, "value": self._option_value(d, value, guild, resolved)})
        return out

    def _option_value(
        self, d: dict[str, Any], value: Any, guild: Guild | None, resolved: dict[str, Any]
    ) -> Any:
        otype = d["type"]
        if otype in (6, 9) and (isinstance(value, User) or otype == 6):
            u = self.users[snowflake_of(value)]
            resolved.setdefault("users", {})[str(u.id)] = u.to_payload()
            if guild is not None and u.id in guild.members:
                m = guild.member_payload(u, with_permissions=True)
                m.pop("user")
                resolved.setdefault("members", {})[str(u.id)] = m
            return str(u.id)
        if otype == 7:
            ch = self.channels[snowflake_of(value)]
            resolved.setdefault("channels", {})[str(ch.id)] = self._resolved_channel(ch)
            return str(ch.id)
        if otype in (8, 9):
            return str(snowflake_of(value))
        if otype == 11:
            filename, blob = value
            att_id = new_snowflake()
            resolved.setdefault("attachments", {})[str(att_id)] = {
                "id": str(att_id),
                "filename": filename,
                "size": len(blob),
                "url": f"http://{self.host}:{self.port}/attachments/0/{att_id}/{filename}",
                "proxy_url": f"http://{self.host}:{self.port}/attachments/0/{att_id}/{filename}",
                "content_type": "image/png" if blob.startswith(b"\x89PNG") else "application/octet-stream",
            }
            self._uploads[att_id] = Attachment(filename, blob)
            return str(att_id)
        if otype == 5:
            converted: Any = bool(value)
        elif otype == 4:
            converted = value if isinstance(value, int) else None
        elif otype == 10:
            converted = float(value) if isinstance(value, int | float) else None
        else:
            converted = str(value)
        choices = d.get("choices")
        if choices:
            by_value = [c["value"] for c in choices]
            if converted not in by_value:
                named = [c["value"] for c in choices if c["name"] == value]
                if not named:
                    raise ValueError(f"{value!r} is not a choice of option {d['name']!r}: {choices}")
                converted = named[0]
        if converted is None:
            raise ValueError(f"option {d['name']!r} (type {otype}) cannot take {value!r}")
        # The Discord client refuses out-of-range input, so the bot never sees it: mirror that.
        if otype in (4, 10):
            if d.get("min_value") is not None and converted < d["min_value"]:
                raise ValueError(f"option {d['name']!r} must be >= {d['min_value']}, got {converted}")
            if d.get("max_value") is not None and converted > d["max_value"]:
                raise ValueError(f"option {d['name']!r} must be <= {d['max_value']}, got {converted}")
        if otype == 3:
            if len(converted) < int(d.get("min_length") or 0) or len(converted) > int(
                d.get("max_length") or 6000
            ):
                raise ValueError(f"option {d['name']!r} length out of range: {converted!r}")
        return converted

    async def _interact(
        self,
        user: User,
        channel: Channel,
        itype: int,
        data: dict[str, Any],
        *,
        source: Message | None = None,
        timeout: float,
    ) -> InteractionResult:
        def reachable() -> bool:
            targets = self._targets(channel.guild_id)
            return any(s.conn is not None and not s.conn.ws.closed for s in targets)

        if not reachable():  # e.g. right after a restart or while the bot is resuming
            try:
                await self.wait_for(reachable, timeout=timeout)
            except TimeoutError:
                raise RuntimeError(
                    f"the bot is not connected to the fake gateway (shard {self.shard_of(channel.guild_id)})"
                ) from None
        iid = new_snowflake()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
        guild = self.guilds.get(channel.guild_id) if channel.guild_id else None
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "channel_id": str(channel.id),
            "channel": self._resolved_channel(channel, user) if guild else channel.to_payload(),
            "token": token,
            "version": 1,
            "locale": user.locale,
            "app_permissions": ALL_PERMISSIONS,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if guild is not None:
            if user.id not in guild.members:
                raise ValueError(f"{user.name} is not a member of guild {guild.name}; call add_member first")
            if self.enforce_view and not guild.can_view(user.id, channel):
                # Discord's client shows neither the channel nor its messages to such a member
                raise ValueError(f"{user.name} cannot view channel {channel.name}; set enforce_view = False "
                                 "to act as a client that still shows it (a stale view)")
            payload.update(
                guild_id=str(guild.id),
                guild_locale=guild.preferred_locale,
                guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
                member=guild.member_payload(user, with_permissions=True, channel=channel),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(
                user=user.to_payload(), authorizing_integration_owners={"0": str(user.id)}, context=1
            )
        if source is not None:
            payload["message"] = self._message_payload(source)
        result = InteractionResult(iid, token, itype, payload, user, channel, source_message=source)
        self._by_token[token] = result
        self.interactions.append(result)
        self.dispatch("INTERACTION_CREATE", payload)
        result.delivery = [
            (s.id[:8], s.seq, s.conn is not None and not s.conn.ws.closed) for s in self._targets(channel.guild_id)
        ]
        await self._await_result(result, timeout)
        return result

    def _diagnostics(self, result: InteractionResult | None = None) -> str:
        """Context for timeout errors: fake-side errors, what became of the interaction (the gateway
        session and seq it went out with, the bot's requests since, the bot's log lines naming it) and
        the tail of the bot's output."""
        parts = [f"\nunknown routes: {self.unknown_routes}", f"errors returned: {self.errors_returned[-5:]}",
                 f"fake handler crashes: {self.crashes[-3:]}"]
        now = time.monotonic()
        if result is not None:
            since = [r for r in self.requests if r.at >= result.sent_at]
            sessions = [(s.id[:8], s.seq, s.conn is not None) for s in self._current.values()]
            recent = (sum(1 for at, _ in self.identifies if now - at < 60), sum(1 for at, _ in self.resumes if now - at < 60))
            requests = (f"{len(since)} requests from the bot since, the last {now - since[-1].at:.1f} s ago: {since[-5:]}"
                        if since else "no request from the bot since")
            parts.append(f"interaction {result.id} sent {now - result.sent_at:.1f} s ago over (session, seq, open) "
                         f"{result.delivery}; sessions now {sessions}; identifies/resumes in the last 60 s: "
                         f"{recent}; {requests}")
        for proc in self._processes:
            text = proc.output()
            if result is not None:
                named = [line for line in text.splitlines() if str(result.id) in line][-10:]
                parts.append("--- bot lines naming the interaction ---\n" + "\n".join(named))
                slow = [line for line in text.splitlines() if " WARNING " in line or " ERROR " in line][-10:]
                parts.append("--- bot warnings (last) ---\n" + "\n".join(slow))
            parts.append(f"--- bot output (tail) ---\n{text[-4000:]}")
        return "\n".join(parts)

    async def _await_result(self, result: InteractionResult, timeout: float) -> None:
        try:
            await asyncio.wait_for(result.responded.wait(), timeout)
        except TimeoutError:
            raise TimeoutError(
                f"bot did not answer interaction {result.payload['data']} within {timeout}s"
                f"{self._diagnostics(result)}"
            ) from None
        if result.callback_type == 5:
            try:
                await asyncio.wait_for(result.completed.wait(), timeout)
            except TimeoutError:
                raise TimeoutError(
                    f"bot deferred but sent no follow-up/edit within {timeout}s for {result.payload['data']}"
                    f"{self._diagnostics(result)}"
                ) from None
        elif result.callback_type == 6:
            deadline = time.monotonic() + timeout
            while not result.completed.is_set() and time.monotonic() < deadline:
                if time.monotonic() - self._last_request_at >= self.quiet_period:
                    break
                await asyncio.sleep(0.02)

    # ------------------------------------------------------------------ gateway
    @staticmethod
    def _guild_of_event(event: str, data: dict[str, Any]) -> int | None:
        if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"):
            return int(data["id"])
        gid = data.get("guild_id")
        return int(gid) if gid else None

    def dispatch(self, event: str, data: dict[str, Any], *, intents: int = 0) -> None:
        """Send a DISPATCH to the current session of the shard that gets it, as Discord routes: a
        guild's events to shard ``(guild_id >> 22) % count``, the rest (DMs) to shard 0; buffered
        for RESUME while the shard is reconnecting. ``intents``: only sessions that asked for one
        of these bits get it."""
        for session in self._targets(self._guild_of_event(event, data)):
            if not intents or session.intents & intents:
                self._send(session, event, data)

    @staticmethod
    def _send(session: _Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.buffer.append(frame)
        del session.buffer[:-1000]
        if session.conn is not None:
            session.conn.send(frame)

    def _dispatch_if_connected(self, event: str, make: Callable[[], dict[str, Any]]) -> None:
        if self._current:
            self.dispatch(event, make())

    def _dispatch_message_event(self, event: str, msg: Message) -> None:
        if not self._current or not self.send_message_events or msg.ephemeral:
            return
        data = self._message_payload(msg)
        if msg.guild_id:
            data["member"] = {
                k: v for k, v in self.guilds[msg.guild_id].member_payload(msg.author).items() if k != "user"
            }
        self.dispatch(event, data, intents=INTENT_GUILD_MESSAGES if msg.guild_id else INTENT_DIRECT_MESSAGES)

    async def _ws_handler(self, request: web.Request) -> web.StreamResponse:
        if self.gateway_down:  # switch: the gateway refuses every connection (an outage)
            return web.Response(status=503)
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.gateway_queries.append(dict(request.query))
        if request.query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"only encoding=json is supported by the fake")
            return ws
        conn = _Conn(ws, compress=request.query.get("compress") == "zlib-stream")
        self._conns.append(conn)
        writer = asyncio.get_running_loop().create_task(conn.writer())
        log.debug("gateway connected (compress=%s)", conn.compress)
        conn.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._on_gateway_message(conn, json.loads(msg.data))
                    self.changed()
                elif msg.type == WSMsgType.BINARY:
                    await self._on_gateway_message(conn, json.loads(msg.data.decode()))
                    self.changed()
        finally:
            writer.cancel()
            self._conns.remove(conn)
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            log.debug("gateway disconnected (close code %s)", ws.close_code)
        return ws

    async def _on_gateway_message(self, conn: _Conn, msg: dict[str, Any]) -> None:
        op, d = msg.get("op"), msg.get("d")
        d = d if isinstance(d, dict) else {}
        if op == 1:
            conn.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:
            await self._identify(conn, d)
        elif op == 6:
            await self._resume(conn, d)
        elif op == 8:
            gid = int(d["guild_id"])
            guild = self.guilds.get(gid)
            members = list(guild.members.values()) + [self.bot_user] if guild else []
            if d.get("user_ids"):
                wanted = {
                    int(u) for u in (d["user_ids"] if isinstance(d["user_ids"], list) else [d["user_ids"]])
                }
                members = [m for m in members if m.id in wanted]
            elif d.get("query"):
                members = [m for m in members if m.name.startswith(d["query"])]
            self.dispatch(
                "GUILD_MEMBERS_CHUNK",
                {
                    "guild_id": str(gid),
                    "members": [guild.member_payload(m) for m in members] if guild else [],
                    "chunk_index": 0,
                    "chunk_count": 1,
                    "not_found": [],
                    "nonce": d.get("nonce"),
                },
            )
        elif op in (3, 4):
            pass  # presence / voice state updates: accepted and ignored
        else:
            log.warning("unknown gateway op %s: %s", op, msg)

    async def _identify(self, conn: _Conn, d: dict[str, Any]) -> None:
        self.identifies.append((time.monotonic(), d))
        shard_id, shard_count = d.get("shard") or (0, 1)
        if not 0 <= int(shard_id) < int(shard_count):  # as Discord: 4010 Invalid shard
            await conn.ws.close(code=4010, message=b"Invalid shard")
            return
        session = _Session(secrets.token_hex(16), intents=int(d.get("intents", 0)), conn=conn,
                           shard_id=int(shard_id), shard_count=int(shard_count))
        self._sessions[session.id] = session
        for sid in [sid for sid, s in self._current.items() if s.shard_count != session.shard_count]:
            del self._current[sid]  # the bot now shards differently: those sessions get nothing more
        self._current[session.shard_id] = session
        conn.session = session
        user = {**self.bot_user.to_payload(), "verified": True, "mfa_enabled": False, "flags": 0}
        ready = {
            "v": 10,
            "user": user,
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds if session in self._targets(g)],
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "_trace": ["fake-discord"],
        }
        if "shard" in d:
            ready["shard"] = d["shard"]
        self._send(session, "READY", ready)
        for g in list(self.guilds.values()):
            if session in self._targets(g.id):
                self._send(session, "GUILD_CREATE", g.to_payload(self.bot_user))

    async def _resume(self, conn: _Conn, d: dict[str, Any]) -> None:
        self.resumes.append((time.monotonic(), d))
        session = self._sessions.get(d.get("session_id", ""))
        if session is None or session is not self._current.get(session.shard_id):
            conn.send({"op": 9, "d": False, "s": None, "t": None})
            return
        session.conn = conn
        conn.session = session
        seq = d.get("seq") or 0
        for frame in [f for f in session.buffer if f["s"] > seq]:
            conn.send(frame)
        self._send(session, "RESUMED", {"_trace": ["fake-discord"]})

    # ------------------------------------------------------------------ REST plumbing
    def _build_routes(self) -> None:
        table: list[tuple[str, str, Handler]] = [
            ("GET", r"/gateway/bot", self._h_gateway_bot),
            ("GET", r"/gateway", self._h_gateway),
            ("GET", r"/users/@me", self._h_me),
            ("GET", r"/users/(?P<uid>\d+)", self._h_user),
            ("POST", r"/users/@me/channels", self._h_create_dm),
            ("GET", r"/(?:oauth2/)?applications/@me", self._h_app_info),
            ("GET", r"/applications/(?P<app>\d+)/commands", self._h_get_commands),
            ("PUT", r"/applications/(?P<app>\d+)/commands", self._h_put_commands),
            ("POST", r"/applications/(?P<app>\d+)/commands", self._h_post_command),
            ("GET", r"/applications/(?P<app>\d+)/guilds/(?P<gid>\d+)/commands", self._h_get_commands),
            ("PUT", r"/applications/(?P<app>\d+)/guilds/(?P<gid>\d+)/commands", self._h_put_commands),
            ("POST", r"/applications/(?P<app>\d+)/guilds/(?P<gid>\d+)/commands", self._h_post_command),
            (
                "GET",
                r"/applications/(?P<app>\d+)/guilds/(?P<gid>\d+)/commands/permissions",
                self._h_empty_list,
            ),
            ("GET", r"/applications/(?P<app>\d+)/emojis", self._h_emojis),
            ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", self._h_callback),
            ("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", self._h_followup),
            (
                "GET",
                r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
                self._h_wh_get,
            ),
            (
                "PATCH",
                r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
                self._h_wh_edit,
            ),
            (
                "DELETE",
                r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
                self._h_wh_delete,
            ),
            ("GET", r"/channels/(?P<cid>\d+)", self._h_get_channel),
            ("PATCH", r"/channels/(?P<cid>\d+)", self._h_edit_channel),
            ("POST", r"/channels/(?P<cid>\d+)/typing", self._h_no_content),
            ("GET", r"/channels/(?P<cid>\d+)/messages", self._h_history),
            ("POST", r"/channels/(?P<cid>\d+)/messages", self._h_send),
            ("GET", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._h_get_message),
            ("PATCH", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._h_edit_message),
            ("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._h_delete_message),
            ("PUT", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/reactions/.+", self._h_no_content),
            ("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/reactions.*", self._h_no_content),
            ("PUT", r"/channels/(?P<cid>\d+)/pins/(?P<mid>\d+)", self._h_no_content),
            ("PUT", r"/channels/(?P<cid>\d+)/messages/pins/(?P<mid>\d+)", self._h_no_content),
            ("POST", r"/channels/(?P<cid>\d+)/threads", self._h_create_thread),
            ("POST", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/threads", self._h_create_thread),
            ("GET", r"/channels/(?P<cid>\d+)/thread-members/(?P<uid>@me|\d+)", self._h_thread_member),
            ("GET", r"/channels/(?P<cid>\d+)/thread-members", self._h_thread_members),
            ("PUT", r"/channels/(?P<cid>\d+)/thread-members/(?P<uid>@me|\d+)", self._h_join_thread),
            ("DELETE", r"/channels/(?P<cid>\d+)/thread-members/(?P<uid>@me|\d+)", self._h_leave_thread),
            ("GET", r"/guilds/(?P<gid>\d+)", self._h_get_guild),
            ("GET", r"/guilds/(?P<gid>\d+)/channels", self._h_guild_channels),
            ("GET", r"/guilds/(?P<gid>\d+)/members/(?P<uid>\d+)", self._h_guild_member),
        ]
        self._routes = [(m, re.compile(p + r"/?$"), h) for m, p, h in table]

    async def _parse_body(self, request: web.Request) -> tuple[Any, list[Attachment]]:
        files: list[Attachment] = []
        ctype = request.headers.get("Content-Type", "")
        raw = await request.read()
        if ctype.lower().startswith("multipart/"):
            payload: Any = None
            for name, filename, blob in multipart_parts(ctype, raw):
                if name == "payload_json":
                    payload = json.loads(blob.decode())
                elif name.startswith("file"):
                    files.append(Attachment(filename or name, blob))
            return payload, files
        if not raw:
            return None, files
        try:
            return json.loads(raw.decode()), files
        except ValueError:
            return raw.decode(errors="replace"), files

    async def _rest_handler(self, request: web.Request) -> web.StreamResponse:
        try:
            return await self._handle_rest(request)
        finally:
            self.changed()

    async def _handle_rest(self, request: web.Request) -> web.StreamResponse:
        path = API_PREFIX_RE.sub("", request.path)
        body, files = await self._parse_body(request)
        rec = RecordedRequest(request.method, path, dict(request.query), body, files)
        self.requests.append(rec)
        self._last_request_at = time.monotonic()
        if self.require_token and path.rstrip("/") in ("/gateway/bot", "/users/@me") and not request.headers.get(
                "Authorization", "").startswith("Bot "):
            rec.status = 401
            return _json_response(401, {"message": "401: Unauthorized", "code": 0})

        fault = self._fault_for(path, request.method)
        if fault is not None and not fault.lose_response:
            return await self._refuse(request, rec, fault.status, fault.code, fault.drop)

        for rule in self._rate_rules:
            if (
                rule.remaining > 0
                and (rule.route_contains is None or rule.route_contains in path)
                and (rule.method is None or rule.method == request.method)
            ):
                rule.remaining -= 1
                rec.status = 429
                self._rate_rules = [r for r in self._rate_rules if r.remaining > 0]
                return self._too_many(rule)

        for method, pattern, handler in self._routes:
            if method != request.method:
                continue
            m = pattern.match(path)
            if m is None:
                continue
            req = _Req(request.method, path, dict(request.query), body, files)
            try:
                status, out = await handler(req, **m.groupdict())
            except ApiError as err:
                rec.status = err.status
                self.errors_returned.append((rec, err.body()))
                log.info("%s %s -> %s %s", request.method, path, err.status, err.body())
                return _json_response(err.status, err.body())
            except Exception:  # a bug of the fake: a 500, which discord.py retries for ~16 s; kept for diagnostics
                rec.status = 500
                self.crashes.append(f"{request.method} {path}: {traceback.format_exc(limit=6)}")
                raise
            rec.status = status
            if fault is not None:  # lose_response: done, but the bot never hears so
                return await self._refuse(request, rec, 0, 0, True)
            return _json_response(status, out)

        rec.status = 404
        self.unknown_routes.append(f"{request.method} {path}")
        log.warning("fake discord: unknown route %s %s", request.method, path)
        return _json_response(404, {"message": "404: Not Found", "code": 0})

    def _fault_for(self, path: str, method: str) -> FaultRule | None:
        if self.rest_outage:
            return FaultRule(503, None, None, 1, 0, self.outage_drops)
        for rule in self._fault_rules:
            if rule.matches(path, method):
                rule.remaining -= 1
                rule.hits += 1
                self._fault_rules = [r for r in self._fault_rules if r.remaining > 0]
                return rule
        return None

    async def _refuse(
        self, request: web.Request, rec: RecordedRequest, status: int, code: int, drop: bool
    ) -> web.StreamResponse:
        self.faults_injected.append(rec)
        if drop:
            rec.status = rec.status or -1  # -1: no answer at all
            log.info("fault: dropping the connection of %s %s", request.method, rec.path)
            if request.transport is not None:
                request.transport.abort()
            raise asyncio.CancelledError  # aiohttp treats the handler as cancelled: nothing is written
        rec.status = status
        log.info("fault: %s %s -> %s", request.method, rec.path, status)
        body = {"message": "Service Unavailable" if status == 503 else f"{status}: injected fault", "code": code}
        return _json_response(status, body)

    def _too_many(self, rule: _RateRule) -> web.Response:
        headers = {
            "Via": "1.1 google",
            "Retry-After": str(max(1, int(rule.retry_after + 0.999))),
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + rule.retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{rule.retry_after:.3f}",
            "X-RateLimit-Bucket": "fakebucket" + secrets.token_hex(4),
            "X-RateLimit-Scope": "global" if rule.is_global else "user",
        }
        if rule.is_global:
            headers["X-RateLimit-Global"] = "true"
        body = {
            "message": "You are being rate limited.",
            "retry_after": rule.retry_after,
            "global": rule.is_global,
        }
        return _json_response(429, body, headers)

    async def _attachment_handler(self, request: web.Request) -> web.Response:
        att = self._uploads.get(int(request.match_info["att"]))
        if att is None:
            return web.Response(status=404)
        return web.Response(body=att.data, headers={"Content-Type": att.content_type})

    # ------------------------------------------------------------------ message helpers
    def _store_message(self, msg: Message) -> None:
        self.messages[msg.id] = msg
        self._channel_messages.setdefault(msg.channel_id, []).append(msg)

    def _attachment_payload(self, msg: Message, idx: int) -> dict[str, Any]:
        att, att_id = msg.attachments[idx], msg.attachment_ids[idx]
        url = f"http://{self.host}:{self.port}/attachments/{msg.channel_id}/{att_id}/{att.filename}"
        data: dict[str, Any] = {
            "id": str(att_id),
            "filename": att.filename,
            "size": att.size,
            "url": url,
            "proxy_url": url,
            "content_type": att.content_type,
        }
        size = att.dimensions
        if size is not None:
            data["width"], data["height"] = size
        return data

    def _message_payload(self, msg: Message) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(msg.id),
            "channel_id": str(msg.channel_id),
            "author": msg.author.to_payload(),
            "content": msg.content,
            "timestamp": msg.timestamp,
            "edited_timestamp": msg.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [self.users[u].to_payload() for u in msg.mentions if u in self.users],
            "mention_roles": [],
            "attachments": [self._attachment_payload(msg, i) for i in range(len(msg.attachments))],
            "embeds": msg.embeds,
            "components": msg.components,
            "pinned": False,
            "type": msg.message_type,
            "flags": msg.flags,
        }
        if msg.guild_id:
            data["guild_id"] = str(msg.guild_id)
        if msg.webhook_id:
            data["webhook_id"] = str(msg.webhook_id)
            data["application_id"] = str(self.application_id)
        if msg.interaction_id and msg.interaction_user:
            data["interaction_metadata"] = {
                "id": str(msg.interaction_id),
                "type": 2,
                "user": msg.interaction_user.to_payload(),
                "authorizing_integration_owners": {"0": str(msg.guild_id or msg.interaction_user.id)},
            }
        if "message_reference" in msg.raw:
            data["message_reference"] = msg.raw["message_reference"]
        return data

    def _validate(self, payload: dict[str, Any], files: list[Attachment], *, creating: bool) -> None:
        """The Discord limits bots most often trip over (400 50035 / 50006), to catch bugs early."""
        content = payload.get("content") or ""
        if len(content) > 2000:
            raise _form_error("content", "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
        embeds = payload.get("embeds") or []
        if len(embeds) > 10:
            raise _form_error("embeds", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
        for i, e in enumerate(embeds):
            if len(e.get("title") or "") > 256:
                raise _form_error(
                    f"embeds.{i}.title", "BASE_TYPE_MAX_LENGTH", "Must be 256 or fewer in length."
                )
            if len(e.get("description") or "") > 4096:
                raise _form_error(
                    f"embeds.{i}.description", "BASE_TYPE_MAX_LENGTH", "Must be 4096 or fewer in length."
                )
            if len(e.get("fields") or []) > 25:
                raise _form_error(
                    f"embeds.{i}.fields", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
                )
        components = payload.get("components") or []
        v2 = bool(int(payload.get("flags") or 0) & 32768)
        if not v2 and len(components) > 5:
            raise _form_error("components", "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
        for comp in walk_components(components):
            if comp.get("type") == 1 and not v2 and len(comp.get("components") or []) > 5:
                raise _form_error("components", "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
            if len(str(comp.get("custom_id") or "")) > 100:
                raise _form_error(
                    "components.custom_id", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length."
                )
            if len(str(comp.get("label") or "")) > 80:
                raise _form_error(
                    "components.label", "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length."
                )
            if len(comp.get("options") or []) > 25:
                raise _form_error(
                    "components.options", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
                )
        if sum(f.size for f in files) > UPLOAD_LIMIT:  # an unboosted server's limit
            raise ApiError(413, 40005, "Request entity too large")
        if creating and not (
            content or embeds or components or files or payload.get("sticker_ids") or payload.get("poll")
        ):
            raise ApiError(400, 50006, "Cannot send an empty message")

    def _compute_mentions(self, msg: Message) -> list[int]:
        ids = [int(x) for x in re.findall(r"<@!?(\d+)>", msg.content)]
        am = msg.allowed_mentions
        if am is not None:
            if "users" in (am.get("parse") or []):
                pass
            else:
                allowed = {int(u) for u in am.get("users") or []}
                ids = [i for i in ids if i in allowed]
        return list(dict.fromkeys(ids))

    def _apply(
        self, msg: Message, payload: dict[str, Any], files: list[Attachment], *, creating: bool
    ) -> None:
        """Apply a create/edit payload (JSON or payload_json + files[n]) to a message record."""
        if not creating:
            msg.history.append(msg.version)
            msg.edited_timestamp = iso_now()
        if "content" in payload:
            msg.content = payload["content"] or ""
        if "embeds" in payload:
            msg.embeds = list(payload["embeds"] or [])
        elif "embed" in payload:
            msg.embeds = [payload["embed"]] if payload["embed"] else []
        if "components" in payload:
            msg.components = list(payload["components"] or [])
        if "allowed_mentions" in payload:
            msg.allowed_mentions = payload["allowed_mentions"]
        if "flags" in payload and payload["flags"] is not None:
            keep = msg.flags & 64  # ephemeral-ness cannot change after creation
            msg.flags = (int(payload["flags"]) & ~(64 | 128)) | keep
        if "message_reference" in payload and creating:
            msg.message_type = 19
        meta = payload.get("attachments")
        if meta is not None:
            by_id = dict(zip(msg.attachment_ids, msg.attachments, strict=True))
            new_atts: list[Attachment] = []
            new_ids: list[int] = []
            for entry in meta:
                eid = int(entry.get("id", -1))
                if eid in by_id and not creating:
                    new_atts.append(by_id[eid])
                    new_ids.append(eid)
                elif 0 <= eid < len(files):
                    f = files[eid]
                    new_atts.append(Attachment(entry.get("filename") or f.filename, f.data))
                    new_ids.append(new_snowflake())
            msg.attachments, msg.attachment_ids = new_atts, new_ids
        elif files:
            msg.attachments = msg.attachments + files
            msg.attachment_ids = msg.attachment_ids + [new_snowflake() for _ in files]
        for att, att_id in zip(msg.attachments, msg.attachment_ids, strict=True):
            self._uploads[att_id] = att
        msg.raw = payload
        msg.mentions = self._compute_mentions(msg)

    def _create_message(
        self,
        channel: Channel,
        payload: dict[str, Any],
        files: list[Attachment],
        *,
        interaction: InteractionResult | None = None,
    ) -> Message:
        payload = payload or {}
        self._validate(payload, files, creating=True)
        msg = Message(new_snowflake(), channel.id, channel.guild_id, self.bot_user)
        if interaction is not None:
            msg.interaction_id = interaction.id
            msg.interaction_user = interaction.user
            msg.webhook_id = self.application_id
            msg.message_type = 20 if interaction.type == 2 else 0
            msg.flags = int(payload.get("flags") or 0) & 64
        self._apply(msg, payload, files, creating=True)
        self._store_message(msg)
        self._dispatch_message_event("MESSAGE_CREATE", msg)
        return msg

    def _edit_message(self, msg: Message, payload: dict[str, Any], files: list[Attachment]) -> None:
        self._validate(payload or {}, files, creating=False)
        self._apply(msg, payload or {}, files, creating=False)
        self._dispatch_message_event("MESSAGE_UPDATE", msg)

    def _fill_deferred(self, msg: Message, payload: dict[str, Any], files: list[Attachment]) -> None:
        self._validate(payload, files, creating=True)
        self._apply(msg, payload, files, creating=True)
        msg.flags &= ~128
        msg.timestamp = iso_now()
        self._dispatch_message_event("MESSAGE_UPDATE", msg)

    def _channel(self, cid: str) -> Channel:
        ch = self.channels.get(int(cid))
        if ch is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return ch

    def _channel_message(self, cid: str, mid: str) -> Message:
        msg = self.messages.get(int(mid))
        if msg is None or msg.channel_id != int(cid) or msg.deleted or msg.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def _interaction(self, token: str) -> InteractionResult:
        res = self._by_token.get(token)
        if res is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        return res

    # ------------------------------------------------------------------ REST handlers
    async def _h_gateway_bot(self, req: _Req) -> tuple[int, Any]:
        return 200, {
            "url": self.gateway_url,
            "shards": self.shard_count,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
        }

    async def _h_gateway(self, req: _Req) -> tuple[int, Any]:
        return 200, {"url": self.gateway_url}

    async def _h_me(self, req: _Req) -> tuple[int, Any]:
        if self.reject_tokens:
            raise ApiError(401, 0, "401: Unauthorized")
        return 200, {**self.bot_user.to_payload(), "verified": True, "mfa_enabled": False, "flags": 0}

    async def _h_user(self, req: _Req, uid: str) -> tuple[int, Any]:
        user = self.users.get(int(uid))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return 200, user.to_payload()

    async def _h_app_info(self, req: _Req) -> tuple[int, Any]:
        return 200, {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": {**self.bot_user.to_payload(), "bot": False, "id": "1", "username": "owner"},
            "summary": "",
            "verify_key": "0" * 64,
            "team": None,
            "flags": 0,
            "bot": self.bot_user.to_payload(),
            "tags": [],
            "install_params": None,
            "custom_install_url": None,
            "integration_types_config": {},
            "approximate_guild_count": len(self.guilds),
        }

    async def _h_emojis(self, req: _Req, app: str) -> tuple[int, Any]:
        return 200, {"items": []}

    async def _h_empty_list(self, req: _Req, **_: str) -> tuple[int, Any]:
        return 200, []

    async def _h_no_content(self, req: _Req, **_: str) -> tuple[int, Any]:
        return 204, None

    def _command_record(
        self, cmd: dict[str, Any], gid: str | None, existing: list[dict[str, Any]]
    ) -> dict[str, Any]:
        old = next(
            (c for c in existing if c["name"] == cmd["name"] and c.get("type", 1) == cmd.get("type", 1)), None
        )
        rec = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            **cmd,
        }
        rec["id"] = old["id"] if old else str(new_snowflake())
        rec["application_id"] = str(self.application_id)
        rec["version"] = str(new_snowflake())
        if gid:
            rec["guild_id"] = gid
        return rec

    async def _h_get_commands(self, req: _Req, app: str, gid: str | None = None) -> tuple[int, Any]:
        return 200, self.guild_commands.get(int(gid), []) if gid else self.global_commands

    async def _h_put_commands(self, req: _Req, app: str, gid: str | None = None) -> tuple[int, Any]:
        if not isinstance(req.json, list):
            raise _form_error("_root", "LIST_TYPE_CONVERT", "Must be a list")
        existing = self.guild_commands.get(int(gid), []) if gid else self.global_commands
        names = [(c["name"], c.get("type", 1)) for c in req.json]
        if len(names) != len(set(names)):
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "_errors": [
                        {"code": "APPLICATION_COMMANDS_DUPLICATE_NAME", "message": "duplicate command name"}
                    ]
                },
            )
        records = [self._command_record(c, gid, existing) for c in req.json]
        if gid:
            self.guild_commands[int(gid)] = records
        else:
            self.global_commands = records
        self.sync_log.append((time.monotonic(), int(gid) if gid else None))
        return 200, records

    async def _h_post_command(self, req: _Req, app: str, gid: str | None = None) -> tuple[int, Any]:
        existing = self.guild_commands.setdefault(int(gid), []) if gid else self.global_commands
        rec = self._command_record(req.json, gid, existing)
        existing[:] = [c for c in existing if c["id"] != rec["id"]] + [rec]
        return 201, rec

    @staticmethod
    def _answered(res: InteractionResult, msg: Message | None) -> None:
        """Keep the first state of the message that answers ``res`` (see ``InteractionResult.answer``)."""
        if res.answer is None and msg is not None and not msg.loading:
            res.answer = msg.version

    async def _h_callback(self, req: _Req, iid: str, token: str) -> tuple[int, Any]:
        res = self._by_token.get(token)
        if res is None or res.id != int(iid):
            raise ApiError(404, 10062, "Unknown interaction")
        latency = time.monotonic() - res.sent_at
        if self.callback_deadline is not None and latency > self.callback_deadline:
            raise ApiError(404, 10062, "Unknown interaction")
        if res.callback_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = req.json or {}
        ctype = int(body.get("type", 0))
        data = body.get("data") or {}
        resource: dict[str, Any] = {"type": ctype}
        if ctype == 4:
            res.message = self._create_message(res.channel, data, req.files, interaction=res)
            resource["message"] = self._message_payload(res.message)
            self._answered(res, res.message)
            res.completed.set()
        elif ctype == 5:
            msg = Message(
                new_snowflake(),
                res.channel.id,
                res.channel.guild_id,
                self.bot_user,
                flags=128 | (int(data.get("flags") or 0) & 64),
                interaction_id=res.id,
                interaction_user=res.user,
                webhook_id=self.application_id,
                message_type=20 if res.type == 2 else 0,
            )
            self._store_message(msg)
            res.message = msg
            resource["message"] = self._message_payload(msg)
        elif ctype in (6, 7):
            if res.source_message is None:
                raise ApiError(400, 40004, "Interaction has no message to update")
            res.message = res.source_message
            if ctype == 7:
                self._edit_message(res.source_message, data, req.files)
                resource["message"] = self._message_payload(res.source_message)
                self._answered(res, res.source_message)
                res.completed.set()
        elif ctype == 8:
            res.choices = list(data.get("choices") or [])
            if len(res.choices) > 25:
                raise _form_error("data.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            res.completed.set()
        elif ctype == 9:
            res.modal = data
            res.completed.set()
        else:
            res.completed.set()
        res.callback_type = ctype
        res.callback_data = data
        res.callback_latency = latency
        res.responded.set()
        shown = res.message
        out: dict[str, Any] = {
            "interaction": {
                "id": str(res.id),
                "type": res.type,
                "response_message_loading": ctype == 5,
                "response_message_ephemeral": bool(shown and shown.ephemeral and ctype in (4, 5)),
            }
        }
        if shown is not None and ctype in (4, 5, 7):
            out["interaction"]["response_message_id"] = str(shown.id)
        if ctype in (4, 5, 7):
            out["resource"] = resource
        return 200, out

    async def _h_followup(self, req: _Req, app: str, token: str) -> tuple[int, Any]:
        res = self._interaction(token)
        if res.callback_type is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        payload = req.json or {}
        if res.callback_type == 5 and res.message is not None and res.message.loading:
            # The first follow-up after a deferred response fills in the "thinking…" message.
            msg = res.message
            self._fill_deferred(msg, payload, req.files)
            self._answered(res, msg)
        else:
            msg = self._create_message(res.channel, payload, req.files, interaction=res)
            res.followups.append(msg)
        res.completed.set()
        return 200, self._message_payload(msg)

    def _wh_target(self, res: InteractionResult, mid: str) -> Message:
        if mid == "@original":
            msg = (
                res.message
                if res.callback_type in (4, 5)
                else res.source_message
                if res.callback_type in (6, 7)
                else None
            )
        else:
            msg = next((m for m in [res.message, *res.followups] if m is not None and m.id == int(mid)), None)
        if msg is None or msg.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    async def _h_wh_get(self, req: _Req, app: str, token: str, mid: str) -> tuple[int, Any]:
        return 200, self._message_payload(self._wh_target(self._interaction(token), mid))

    async def _h_wh_edit(self, req: _Req, app: str, token: str, mid: str) -> tuple[int, Any]:
        res = self._interaction(token)
        msg = self._wh_target(res, mid)
        if msg.loading:  # filling a deferred "thinking…" message is its first real state, not an edit
            self._fill_deferred(msg, req.json or {}, req.files)
        else:
            self._edit_message(msg, req.json or {}, req.files)
        if mid == "@original":
            self._answered(res, msg)
            res.completed.set()
        return 200, self._message_payload(msg)

    async def _h_wh_delete(self, req: _Req, app: str, token: str, mid: str) -> tuple[int, Any]:
        msg = self._wh_target(self._interaction(token), mid)
        msg.deleted = True
        return 204, None

    async def _h_create_dm(self, req: _Req) -> tuple[int, Any]:
        uid = int((req.json or {}).get("recipient_id", 0))
        if uid not in self.users:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {"recipient_id": {"_errors": [{"code": "USER_NOT_FOUND", "message": "Unknown user"}]}},
            )
        return 200, self.open_dm_channel(uid).to_payload()

    async def _h_get_channel(self, req: _Req, cid: str) -> tuple[int, Any]:
        return 200, self._channel(cid).to_payload()

    async def _h_edit_channel(self, req: _Req, cid: str) -> tuple[int, Any]:
        ch = self._channel(cid)
        body = req.json or {}
        if "name" in body:
            ch.name = body["name"]
        if "archived" in body:
            ch.archived = bool(body["archived"])
        event = "THREAD_UPDATE" if ch.is_thread else "CHANNEL_UPDATE"
        self._dispatch_if_connected(event, ch.to_payload)
        return 200, ch.to_payload()

    async def _h_history(self, req: _Req, cid: str) -> tuple[int, Any]:
        self._channel(cid)
        msgs = [m for m in self.channel_messages(int(cid))]
        if "before" in req.query:
            msgs = [m for m in msgs if m.id < int(req.query["before"])]
        if "after" in req.query:
            msgs = [m for m in msgs if m.id > int(req.query["after"])]
        limit = int(req.query.get("limit", 50))
        newest_first = list(reversed(msgs))[:limit]
        return 200, [self._message_payload(m) for m in newest_first]

    async def _h_send(self, req: _Req, cid: str) -> tuple[int, Any]:
        ch = self._channel(cid)
        if ch.is_dm and ch.recipient is not None and ch.recipient.id in self.closed_dms:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        if ch.archived:
            raise ApiError(400, 50083, "Thread is archived")
        payload = req.json or {}
        key = (self.bot_user.id, str(payload.get("nonce"))) if payload.get("enforce_nonce") else None
        if key is not None:
            # Discord: with enforce_nonce, a message by the same author with the same nonce within the
            # past few minutes is returned instead of creating a new one (kept in the order they were sent:
            # the expired ones are dropped from the front, not by copying the rest at every send)
            now = time.monotonic()
            while self._nonces and next(iter(self._nonces.values()))[0] <= now - 300:
                del self._nonces[next(iter(self._nonces))]
            seen = self._nonces.get(key)
            if seen is not None and seen[1] in self.messages:
                return 200, self._message_payload(self.messages[seen[1]])
        msg = self._create_message(ch, payload, req.files)
        if key is not None:
            self._nonces.pop(key, None)
            self._nonces[key] = (time.monotonic(), msg.id)
        return 200, self._message_payload(msg)

    async def _h_get_message(self, req: _Req, cid: str, mid: str) -> tuple[int, Any]:
        self._channel(cid)
        return 200, self._message_payload(self._channel_message(cid, mid))

    async def _h_edit_message(self, req: _Req, cid: str, mid: str) -> tuple[int, Any]:
        self._channel(cid)
        msg = self._channel_message(cid, mid)
        if msg.author.id != self.bot_user.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        self._edit_message(msg, req.json or {}, req.files)
        return 200, self._message_payload(msg)

    async def _h_delete_message(self, req: _Req, cid: str, mid: str) -> tuple[int, Any]:
        msg = self._channel_message(cid, mid)
        msg.deleted = True
        self._dispatch_if_connected(
            "MESSAGE_DELETE",
            lambda: {
                "id": str(msg.id),
                "channel_id": str(msg.channel_id),
                **({"guild_id": str(msg.guild_id)} if msg.guild_id else {}),
            },
        )
        return 204, None

    async def _h_create_thread(self, req: _Req, cid: str, mid: str | None = None) -> tuple[int, Any]:
        parent = self._channel(cid)
        if parent.guild_id is None:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        body = req.json or {}
        th = self.create_thread(parent, body.get("name") or "thread", owner=self.bot_user,
                                private=body.get("type") == 12, message_id=None if mid is None else int(mid))
        return 201, th.to_payload()

    def _thread(self, cid: str) -> Channel:
        th = self._channel(cid)
        if not th.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        return th

    def _thread_member_payload(self, th: Channel, uid: int) -> dict[str, Any]:
        return {"id": str(th.id), "user_id": str(uid), "join_timestamp": iso_now(), "flags": 0}

    async def _h_thread_member(self, req: _Req, cid: str, uid: str) -> tuple[int, Any]:
        th = self._thread(cid)
        user_id = self.bot_user.id if uid == "@me" else int(uid)
        if user_id not in th.thread_members:
            raise ApiError(404, 10007, "Unknown Member")
        return 200, self._thread_member_payload(th, user_id)

    async def _h_thread_members(self, req: _Req, cid: str) -> tuple[int, Any]:
        th = self._thread(cid)
        return 200, [self._thread_member_payload(th, u) for u in sorted(th.thread_members)]

    async def _h_join_thread(self, req: _Req, cid: str, uid: str) -> tuple[int, Any]:
        self._thread(cid).thread_members.add(self.bot_user.id if uid == "@me" else int(uid))
        return 204, None

    async def _h_leave_thread(self, req: _Req, cid: str, uid: str) -> tuple[int, Any]:
        self._thread(cid).thread_members.discard(self.bot_user.id if uid == "@me" else int(uid))
        return 204, None

    async def _h_get_guild(self, req: _Req, gid: str) -> tuple[int, Any]:
        g = self.guilds.get(int(gid))
        if g is None:
            raise ApiError(404, 10004, "Unknown Guild")
        data = g.to_payload(self.bot_user)
        for key in ("members", "channels", "threads", "voice_states", "presences"):
            data.pop(key)
        return 200, data

    async def _h_guild_channels(self, req: _Req, gid: str) -> tuple[int, Any]:
        g = self.guilds.get(int(gid))
        if g is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return 200, [c.to_payload() for c in g.channels if not c.is_thread]

    async def _h_guild_member(self, req: _Req, gid: str, uid: str) -> tuple[int, Any]:
        g = self.guilds.get(int(gid))
        if g is None:
            raise ApiError(404, 10004, "Unknown Guild")
        user = g.members.get(int(uid)) or (self.bot_user if int(uid) == self.bot_user.id else None)
        if user is None:
            raise ApiError(404, 10007, "Unknown Member")
        return 200, g.member_payload(user)
