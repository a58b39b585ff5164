"""Match statistics: score, Elo difference with a 95% interval, SPRT, and ratings for gauntlets."""
from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass
class Tally:
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    def add(self, points: float) -> None:
        if points == 1.0:
            self.wins += 1
        elif points == 0.0:
            self.losses += 1
        else:
            self.draws += 1


def elo(score: float) -> float:
    """Elo difference that a score implies (logistic model); ±inf at 0 and 1."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def expected_score(elo_diff: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo_diff / 400.0))


def score_stdev(t: Tally) -> float:
    """Standard deviation of one game's score (wins 1, draws 0.5, losses 0)."""
    if not t.games:
        return 0.0
    s = t.score
    var = (t.wins * (1 - s) ** 2 + t.draws * (0.5 - s) ** 2 + t.losses * s ** 2) / t.games
    return math.sqrt(var)


def elo_interval(t: Tally, z: float = 1.959964) -> tuple[float, float, float]:
    """Elo difference and its 95% interval, from the score's normal approximation. Where every
    game ended alike (all won, all lost or all drawn) that approximation has no spread, so the
    bound on the open side is Wilson's score interval, which stays finite."""
    s = t.score
    if t.games and score_stdev(t) == 0:
        n, z2 = t.games, z * z
        centre = (s + z2 / (2 * n)) / (1 + z2 / n)
        half = z * math.sqrt(s * (1 - s) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        lo, hi = max(0.0, centre - half), min(1.0, centre + half)
        return elo(s), elo(0.0 if s == 0 else lo), elo(1.0 if s == 1 else hi)
    half = z * score_stdev(t) / math.sqrt(t.games) if t.games else 0.0
    return elo(s), elo(max(0.0, s - half)), elo(min(1.0, s + half))


def sprt_llr(t: Tally, elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (elo1) against H0 (elo0), the normal approximation used by
    engine testing frameworks: N/2 * ((s - s0)^2 - (s - s1)^2) / var."""
    if t.games == 0:
        return 0.0
    var = score_stdev(t) ** 2
    if var == 0:
        var = 1e-6
    s, s0, s1 = t.score, expected_score(elo0), expected_score(elo1)
    return 0.5 * t.games * ((s - s0) ** 2 - (s - s1) ** 2) / var


def sprt(t: Tally, elo0: float, elo1: float, alpha: float = 0.05,
         beta: float = 0.05) -> tuple[str, float, float, float]:
    """("H1" accepted, "H0" accepted or "continue"), the LLR and its two bounds."""
    llr = sprt_llr(t, elo0, elo1)
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    verdict = "H1" if llr >= upper else "H0" if llr <= lower else "continue"
    return verdict, llr, lower, upper


def ratings(names: list[str], games: list[tuple[str, str, float]]) -> dict[str, tuple[float, float]]:
    """OpenSkill (Plackett-Luce) ratings for a gauntlet: name -> (mu, sigma), from games
    (first, second, first's score)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    table = {n: model.rating(name=n) for n in names}
    for a, b, score in games:
        ra, rb = table[a], table[b]
        if score == 0.5:
            [[ra], [rb]] = model.rate([[ra], [rb]], ranks=[1, 1])
        else:
            [[ra], [rb]] = model.rate([[ra], [rb]], ranks=[1, 2] if score == 1.0 else [2, 1])
        table[a], table[b] = ra, rb
    return {n: (r.mu, r.sigma) for n, r in table.items()}
