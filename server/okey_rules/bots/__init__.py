"""Bots: a legal move for one seat, from that seat's view alone, at levels 1 (random) to 3."""
