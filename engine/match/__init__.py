"""The match runner (`python -m engine.match`): games between Gomocup engines, refereed the way
GomocupJudge does it, with openings, statistics and records."""
