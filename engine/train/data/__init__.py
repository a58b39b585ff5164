"""Positions and their targets: match games, the engine's and other engines' searches at them, the
validation split, and the 8 symmetries."""
