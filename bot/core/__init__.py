"""The platform core: sessions, storage, replays, strings, deadlines, bots, ratings. No discord import."""
