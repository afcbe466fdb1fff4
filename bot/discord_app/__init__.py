"""The Discord side: the client, the publisher of posts and DMs, panels, the lobby and lifecycle posts."""
