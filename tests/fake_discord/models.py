"""Plain records the fake Discord keeps: users, guilds, channels, messages, interactions, requests.

Ids are Python ``int`` snowflakes (what discord.py exposes); they are serialised as strings in JSON.
Message records are *live*: edits update them in place and push the previous state onto ``history``.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

DISCORD_EPOCH_MS = 1420070400000

_counter = itertools.count()
_counter_lock = threading.Lock()


def new_snowflake() -> int:
    """A real-looking, strictly increasing snowflake (timestamp << 22 | counter)."""
    with _counter_lock:
        seq = next(_counter)
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (seq & 0x3FFFFF)


def iso_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


def snowflake_of(obj: Any) -> int:
    """Accept a record with ``.id``, an int or a numeric string; return the int id."""
    if hasattr(obj, "id"):
        return int(obj.id)
    return int(obj)


# Every permission bit up to 2**50, which includes ADMINISTRATOR. A guild's @everyone role has them
# all unless the test says otherwise (``create_guild(everyone_permissions=...)``): then nothing is
# denied because of permissions, as before permissions were modelled.
ALL_PERMISSIONS = str((1 << 50) - 1)
ALL = (1 << 50) - 1

# Discord's permission bits the fake's resolution cares about (the rest pass through as given).
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

MEMBER_PERMISSIONS = (CREATE_INSTANT_INVITE | ADD_REACTIONS | VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS
                      | ATTACH_FILES | READ_MESSAGE_HISTORY | USE_APPLICATION_COMMANDS | CREATE_PUBLIC_THREADS
                      | CREATE_PRIVATE_THREADS | SEND_MESSAGES_IN_THREADS)
"""What an ordinary member of a real server has: ``create_guild(everyone_permissions=MEMBER_PERMISSIONS)``
makes a server where channel overwrites and private threads matter."""

OVERWRITE_ROLE = 0
OVERWRITE_MEMBER = 1


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int = MEMBER_PERMISSIONS
    position: int = 1

    def to_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "hoist": False,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class Overwrite:
    """A channel permission overwrite: ``type`` 0 a role (the guild's id: @everyone), 1 a member."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def to_payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow), "deny": str(self.deny)}


@dataclass(eq=False)
class User:
    id: int
    name: str
    locale: str = "en-US"
    bot: bool = False
    global_name: str | None = None

    def to_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name if self.global_name is not None else self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class Channel:
    """Text channel (type 0), DM (type 1), public thread (type 11) or private thread (type 12).

    ``overwrites``: permission overwrites (channels; a thread has its parent's). ``thread_members``:
    who joined the thread (a private thread is seen only by them and by members with Manage Threads).
    """

    id: int
    name: str
    type: int = 0
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    recipient: User | None = None  # DMs only
    owner_id: int | None = None  # threads only
    archived: bool = False
    overwrites: list[Overwrite] = field(default_factory=list)
    thread_members: set[int] = field(default_factory=set)

    @property
    def is_private_thread(self) -> bool:
        return self.type == 12

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def to_payload(self) -> dict[str, Any]:
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "flags": 0,
                "recipients": [self.recipient.to_payload()],
            }
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "guild_id": str(self.guild_id),
            "position": self.position,
            "permission_overwrites": [] if self.is_thread else [o.to_payload() for o in self.overwrites],
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id or 0),
                member_count=max(1, len(self.thread_members)),
                message_count=0,
                total_message_sent=0,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso_now(),
                    "locked": False,
                    **({"invitable": False} if self.is_private_thread else {}),
                },
            )
        return data


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    preferred_locale: str = "en-US"
    channels: list[Channel] = field(default_factory=list)
    members: dict[int, User] = field(default_factory=dict)
    everyone_permissions: int = ALL
    roles: list[Role] = field(default_factory=list)  # besides @everyone (whose id is the guild's)
    member_roles: dict[int, list[int]] = field(default_factory=dict)

    def channel(self, channel_id: int | None) -> Channel | None:
        return next((c for c in self.channels if c.id == channel_id), None)

    def base_permissions(self, user_id: int) -> int:
        """The member's guild-wide permissions: @everyone and their roles (the owner and an
        administrator have every permission)."""
        if user_id == self.owner_id:
            return ALL
        base = self.everyone_permissions
        mine = set(self.member_roles.get(user_id, []))
        for role in self.roles:
            if role.id in mine:
                base |= role.permissions
        return ALL if base & ADMINISTRATOR else base

    def permissions(self, user_id: int, channel: Channel) -> int:
        """Discord's resolution in ``channel``: base, then @everyone's overwrite, the member's roles'
        overwrites (denies, then allows), the member's own; a thread takes its parent's, and a private
        thread is seen only by its members and by those with Manage Threads. Without View Channel
        nothing of the channel is allowed."""
        base = self.base_permissions(user_id)
        if base & ADMINISTRATOR:
            return ALL
        target = self.channel(channel.parent_id) if channel.is_thread else channel
        overwrites = target.overwrites if target is not None else []
        mine = set(self.member_roles.get(user_id, []))
        for o in overwrites:
            if o.type == OVERWRITE_ROLE and o.id == self.id:
                base = (base & ~o.deny) | o.allow
        deny = allow = 0
        for o in overwrites:
            if o.type == OVERWRITE_ROLE and o.id in mine:
                deny |= o.deny
                allow |= o.allow
        base = (base & ~deny) | allow
        for o in overwrites:
            if o.type == OVERWRITE_MEMBER and o.id == user_id:
                base = (base & ~o.deny) | o.allow
        if channel.is_private_thread and user_id not in channel.thread_members and not base & MANAGE_THREADS:
            base &= ~VIEW_CHANNEL
        return base if base & VIEW_CHANNEL else 0

    def can_view(self, user_id: int, channel: Channel) -> bool:
        return bool(self.permissions(user_id, channel) & VIEW_CHANNEL)

    def member_payload(self, user: User, *, with_permissions: bool = False,
                       channel: Channel | None = None) -> dict[str, Any]:
        """``with_permissions``: add ``permissions`` as an interaction's member carries them (the
        member's permissions in ``channel``, else guild-wide)."""
        data: dict[str, Any] = {
            "user": user.to_payload(),
            "nick": None,
            "avatar": None,
            "roles": [str(r) for r in self.member_roles.get(user.id, [])],
            "joined_at": iso_now(),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_permissions:
            perms = self.permissions(user.id, channel) if channel is not None else self.base_permissions(user.id)
            data["permissions"] = str(perms)
        return data

    def to_payload(self, bot_user: User) -> dict[str, Any]:
        members = dict(self.members)
        members.setdefault(bot_user.id, bot_user)
        text = [c for c in self.channels if not c.is_thread]
        threads = [c for c in self.channels if c.is_thread and not c.archived]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "preferred_locale": self.preferred_locale,
            "features": [],
            "roles": [Role(self.id, "@everyone", self.everyone_permissions, 0).to_payload()]
            + [r.to_payload() for r in self.roles],
            "emojis": [],
            "stickers": [],
            "joined_at": iso_now(),
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            "voice_states": [],
            "presences": [],
            "members": [self.member_payload(u) for u in members.values()],
            "channels": [c.to_payload() for c in text],
            "threads": [c.to_payload() for c in threads],
            "stage_instances": [],
            "guild_scheduled_events": [],
        }


UPLOAD_LIMIT = 10 * 1024 * 1024
"""Discord's upload limit per message on a server without boosts (10 MiB); over it: 413, code 40005."""


def _png_chunks(data: bytes) -> Iterator[bytes]:
    """The chunk types of a PNG, in order (stops at a truncated chunk)."""
    pos = 8
    while pos + 8 <= len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        yield data[pos + 4:pos + 8]
        pos += 12 + length


def _gif_frames(data: bytes) -> int:
    """Images in a GIF (image descriptors), walking its blocks without decoding them."""
    if len(data) < 13:
        return 0
    pos = 13
    if data[10] & 0x80:  # global colour table
        pos += 3 * (2 << (data[10] & 7))
    frames = 0

    def skip_sub_blocks(at: int) -> int:
        while at < len(data) and data[at]:
            at += data[at] + 1
        return at + 1

    while pos < len(data):
        block = data[pos]
        if block == 0x3B:  # trailer
            break
        if block == 0x21:  # extension: label, then sub-blocks
            pos = skip_sub_blocks(pos + 2)
        elif block == 0x2C:  # image descriptor, optional local colour table, LZW size, sub-blocks
            frames += 1
            if pos + 10 > len(data):
                break
            flags = data[pos + 9]
            pos += 10 + (3 * (2 << (flags & 7)) if flags & 0x80 else 0)
            pos = skip_sub_blocks(pos + 1)
        else:
            break
    return frames


class Attachment(NamedTuple):
    """An uploaded file, decoded. Unpacks as ``(filename, data)``."""

    filename: str
    data: bytes

    @property
    def is_png(self) -> bool:
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")

    @property
    def is_gif(self) -> bool:
        return self.data[:6] in (b"GIF87a", b"GIF89a")

    @property
    def is_apng(self) -> bool:
        """An animated PNG: its animation control chunk (``acTL``) comes before the image data."""
        if not self.is_png:
            return False
        for chunk in _png_chunks(self.data):
            if chunk == b"acTL":
                return True
            if chunk == b"IDAT":
                return False
        return False

    @property
    def frames(self) -> int:
        """Frames of an image (a GIF's images, an APNG's declared frames, 1 for a still), 0 otherwise."""
        if self.is_gif:
            return _gif_frames(self.data)
        if self.is_apng:
            at = self.data.find(b"acTL")
            return int.from_bytes(self.data[at + 4:at + 8], "big")
        return 1 if self.is_png else 0

    @property
    def animated(self) -> bool:
        """Whether Discord plays it inline: a GIF of several frames does; an APNG does not (Discord
        shows its first frame as a still), nor does a still image."""
        return self.is_gif and self.frames > 1

    @property
    def content_type(self) -> str:
        if self.is_png:
            return "image/png"
        if self.is_gif:
            return "image/gif"
        return "application/octet-stream"

    @property
    def dimensions(self) -> tuple[int, int] | None:
        """(width, height) of a PNG or GIF, from its header."""
        if self.is_png and len(self.data) >= 24:
            return int.from_bytes(self.data[16:20], "big"), int.from_bytes(self.data[20:24], "big")
        if self.is_gif and len(self.data) >= 10:
            return int.from_bytes(self.data[6:8], "little"), int.from_bytes(self.data[8:10], "little")
        return None

    @property
    def size(self) -> int:
        return len(self.data)


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Depth-first over action rows, V2 containers/sections (incl. ``accessory``) and leaves."""
    for comp in components or []:
        yield comp
        yield from walk_components(comp.get("components") or [])
        accessory = comp.get("accessory")
        if isinstance(accessory, dict):
            yield from walk_components([accessory])


def _embed_text(embed: dict[str, Any]) -> list[str]:
    parts = [embed.get("title") or "", embed.get("description") or ""]
    for f in embed.get("fields") or []:
        parts += [f.get("name") or "", f.get("value") or ""]
    parts.append((embed.get("footer") or {}).get("text") or "")
    parts.append((embed.get("author") or {}).get("name") or "")
    return [p for p in parts if p]


def _component_text(components: list[dict[str, Any]]) -> list[str]:
    parts: list[str] = []
    for c in walk_components(components):
        for key in ("label", "placeholder", "content"):
            if c.get(key):
                parts.append(str(c[key]))
        for opt in c.get("options") or []:
            parts += [str(opt.get("label") or ""), str(opt.get("description") or "")]
    return [p for p in parts if p]


@dataclass
class MessageVersion:
    """One state of a message (the original post or one edit)."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[Attachment]
    flags: int
    timestamp: str

    @property
    def text(self) -> str:
        """Everything a human could read: content, embed texts, component labels, file names."""
        parts = [self.content] + [t for e in self.embeds for t in _embed_text(e)]
        parts += _component_text(self.components)
        parts += [a.filename for a in self.attachments]
        return "\n".join(p for p in parts if p)


@dataclass(eq=False)
class Message:
    """A message the bot created (channel post, DM, interaction response or follow-up)."""

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    attachment_ids: list[int] = field(default_factory=list)
    flags: int = 0
    allowed_mentions: dict[str, Any] | None = None
    mentions: list[int] = field(default_factory=list)
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    history: list[MessageVersion] = field(default_factory=list)
    deleted: bool = False
    interaction_id: int | None = None  # set for interaction responses / follow-ups
    interaction_user: User | None = None
    webhook_id: int | None = None
    message_type: int = 0
    raw: dict[str, Any] = field(default_factory=dict)  # last JSON payload the bot sent for it

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & 64)

    @property
    def loading(self) -> bool:
        """A deferred ("thinking…") response not yet filled in by a follow-up or edit."""
        return bool(self.flags & 128)

    @property
    def edited(self) -> bool:
        return bool(self.history)

    @property
    def version(self) -> MessageVersion:
        return MessageVersion(
            self.content,
            list(self.embeds),
            list(self.components),
            list(self.attachments),
            self.flags,
            self.edited_timestamp or self.timestamp,
        )

    @property
    def versions(self) -> list[MessageVersion]:
        """All states, oldest first, the current one last."""
        return [*self.history, self.version]

    @property
    def text(self) -> str:
        return self.version.text

    def all_components(self) -> list[dict[str, Any]]:
        return list(walk_components(self.components))

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.all_components() if c.get("type") == 2]

    @property
    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.all_components() if c.get("type") in (3, 5, 6, 7, 8)]

    def __repr__(self) -> str:
        return f"<Message id={self.id} channel={self.channel_id} flags={self.flags} content={self.content[:60]!r}>"


@dataclass
class RecordedRequest:
    """One REST request the bot made (rate-limited attempts included)."""

    method: str
    path: str  # without the /api/v10 prefix, e.g. "/channels/1/messages"
    query: dict[str, str]
    json: Any
    files: list[Attachment]
    status: int = 0
    at: float = field(default_factory=time.monotonic)

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status}>"


@dataclass(eq=False)
class InteractionResult:
    """What the bot answered to one interaction. Live: it keeps updating after being returned.

    ``message`` is the final visible message: the response message (types 4/5), or the component's
    message for updates (types 6/7). ``content``/``embeds``/... read from it.
    """

    id: int
    token: str
    type: int  # interaction type: 2 command, 3 component, 4 autocomplete, 5 modal submit
    payload: dict[str, Any]
    user: User
    channel: Channel
    source_message: Message | None = None  # the message whose component was used
    callback_type: int | None = None
    callback_data: dict[str, Any] | None = None
    callback_latency: float | None = None
    message: Message | None = None
    followups: list[Message] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None  # autocomplete
    modal: dict[str, Any] | None = None
    sent_at: float = field(default_factory=time.monotonic)
    delivery: list[tuple[str, int, bool]] = field(default_factory=list)  # (session, seq, socket open) it went to
    responded: asyncio.Event = field(default_factory=asyncio.Event)
    completed: asyncio.Event = field(default_factory=asyncio.Event)
    answer: MessageVersion | None = None
    """The message as the bot's answer first left it (the callback's message, a filled "thinking…"
    message or the first edit of the original): ``message`` is live, and a later edit (say the
    publisher bringing a DM panel up to date) may already have replaced what the click answered."""

    @property
    def deferred(self) -> bool:
        return self.callback_type in (5, 6)

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def answered(self) -> str:
        """The content the bot answered with (``content`` may show a later edit already)."""
        return self.answer.content if self.answer is not None else self.content

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message.ephemeral)

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.message.components if self.message else []

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.message.embeds if self.message else []

    @property
    def attachments(self) -> list[Attachment]:
        return self.message.attachments if self.message else []

    @property
    def text(self) -> str:
        return self.message.text if self.message else ""

    @property
    def messages(self) -> list[Message]:
        """The response message (if any) followed by every follow-up."""
        return ([self.message] if self.message else []) + [m for m in self.followups if m is not self.message]

    def __repr__(self) -> str:
        return f"<InteractionResult type={self.type} callback={self.callback_type} message={self.message!r}>"
