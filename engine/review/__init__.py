"""Reviewing a played game: the engine's evaluation at each move, the proven wins at each position
and the moves where the game turned (`analysis`), read from any record the readers know (`source`),
drawn as a picture (`picture`) and reported by `python -m engine review` (`cli`)."""
