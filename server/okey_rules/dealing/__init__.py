"""Dealing: the seeded shuffle, informal and formal deals, commitments, stacked positions."""
