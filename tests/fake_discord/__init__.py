"""A local fake Discord (REST + gateway) for end-to-end tests of the real bot process.

See README.md in this directory for the API.
"""

from .models import (
    MEMBER_PERMISSIONS,
    UPLOAD_LIMIT,
    Attachment,
    Channel,
    Guild,
    InteractionResult,
    Message,
    MessageVersion,
    Overwrite,
    RecordedRequest,
    Role,
    User,
)
from .process import BotProcess
from .server import ApiError, FakeDiscord

__all__ = [
    "MEMBER_PERMISSIONS",
    "UPLOAD_LIMIT",
    "ApiError",
    "Attachment",
    "BotProcess",
    "Channel",
    "FakeDiscord",
    "Guild",
    "InteractionResult",
    "Message",
    "MessageVersion",
    "Overwrite",
    "RecordedRequest",
    "Role",
    "User",
]
