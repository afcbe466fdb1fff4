"""Bundled data files (translations, cards, maps, fonts), installed as the ``tabletop_data`` package."""
