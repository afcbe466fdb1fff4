"""Tabletop game host for Discord: process, storage, sessions and game rules."""
