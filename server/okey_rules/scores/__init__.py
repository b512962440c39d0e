"""Scoring a round and a whole game, classic and Okey 101."""
