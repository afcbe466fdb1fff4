"""Pillow renderers: a game's *view* (never its full state) in, PNG bytes out. No rules here."""
