"""At decisive positions: the opponent's null-move threat (df-pn, 500 ms), and where the moves
that survive a 200 ms df-pn lie against it (within 5 points along the lines through the threat's
points). A one-off analysis of the thirty-fourth session (docs/strength.md); its output is
docs/data/s34/nullprobe.txt:

    .venv/bin/python docs/data/s34/nullprobe.py \
        matches/s31-book2-15/results.json:docs/data/s33/losses-s31-book2-15.txt ...  # the four of s33
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
from decisive_ab import decisive_positions  # noqa: E402

from engine.board import Board  # noqa: E402
from engine.prover import Prover  # noqa: E402

DIRS = [(1, 0), (0, 1), (1, 1), (1, -1)]
P = Prover()


def near(line, size=15):
    out = set()
    for x, y in line:
        for dx, dy in DIRS:
            for k in range(-5, 6):
                out.add((x + k * dx, y + k * dy))
    return out


def solve(b, ms):
    P.clear()
    return P.solve(b, "dfpn", max_depth=40, budget_ms=ms)


pairs = sys.argv[1:]
tot = dict(pos=0, threat=0, safe=0, safe_near=0, cand=0, cand_near=0, played_near=0, played_att=0, safe_att=0)
for pair in pairs:
    for name, seq, played in decisive_positions(*pair.split(":")):
        b = Board.from_moves(seq)
        me = b.to_move
        nb = b.copy()
        nb.to_move = me.opponent
        t = solve(nb, 500)
        cands = [m for m in b.candidate_moves(3) if b.is_legal(*m)]
        if len(cands) <= 1:
            continue
        zone = near(t.line) if t.result == "win" else set()
        safe = []
        cost = {}
        for m in cands:
            a = b.copy()
            a.play(*m)
            if a.game_over:
                safe.append(m)
                continue
            r = solve(a, 200)
            cost[m] = (r.result, r.nodes, round(r.ms, 1))
            if r.result != "win":
                safe.append(m)
        a = b.copy()
        a.play(*played)
        patt = a.threat(me)
        tot["pos"] += 1
        tot["threat"] += t.result == "win"
        tot["safe"] += len(safe)
        tot["safe_near"] += sum(m in zone for m in safe)
        tot["cand"] += len(cands)
        tot["cand_near"] += sum(m in zone for m in cands)
        tot["played_near"] += played in zone
        tot["played_att"] += patt > 0
        sa = 0
        for m in safe:
            a2 = b.copy()
            a2.play(*m)
            sa += a2.threat(me) > 0
        tot["safe_att"] += sa
        near_c, near_s = sum(m in zone for m in cands), sum(m in zone for m in safe)
        print(
            f"{name}: null {t.result} {t.nodes} nodes len {len(t.line)}; cands {len(cands)} near {near_c};"
            f" safe {len(safe)} near {near_s} attacking {sa}; played {played} near {played in zone} threat {patt}"
            f" safe={safe[:8]}",
            flush=True,
        )
print(tot)
