"""`make bench-prover`: the threat-space prover's speed and solve rates, recorded in
docs/benchmarks.md; `collect` gathers the VCF test set from self-play.

    python -m engine.bench.prover collect [--count 240] [--out tests/data/vcf_positions.jsonl]
    python -m engine.bench.prover collect-utss [--games 12] [--out tests/data/utss_calls.jsonl]
    python -m engine.bench.prover [--write docs/benchmarks.md]

Nodes are positions visited: every probe move of either side."""
from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import Counter
from pathlib import Path

from engine.bench.core import section, write
from engine.bench.oracles import ORACLES
from engine.board import Board, Color, Rule
from engine.board.coords import format_point, parse_points
from engine.players import Limits, PatternPlayer
from engine.prover import Prover

ROOT = Path(__file__).resolve().parents[2]
DATASET = ROOT / "tests" / "data" / "vcf_positions.jsonl"
UTSS_CALLS = ROOT / "tests" / "data" / "utss_calls.jsonl"
REFUTATIONS = ROOT / "tests" / "data" / "refutations.jsonl"
VCT_SET = ROOT / "tests" / "data" / "vct_positions.jsonl"
MISSED = ROOT / "tests" / "data" / "missed_wins.jsonl"
START, END = "<!-- bench:prover:start -->", "<!-- bench:prover:end -->"


def attacking_moves(line: list) -> int:
    return (len(line) + 1) // 2


def collect(count: int, out: Path, seed: int = 2026) -> None:
    """Self-play games of the pattern player with random detours; before each move, a VCF for
    the side to move (found with a generous budget) of at least two fours is recorded, at most
    three per game so the set spans many games."""
    rng = random.Random(seed)
    prover = Prover()
    records: list[dict] = []
    games = 0
    while len(records) < count:
        games += 1
        board = Board(15, Rule.RENJU)
        players = {color: PatternPlayer(seed=rng.randrange(10**6)) for color in (Color.BLACK, Color.WHITE)}
        taken = 0
        while not board.game_over and board.stone_count < 150 and taken < 3:
            if board.stone_count >= 6:
                proof = prover.solve(board, "vcf", max_depth=40, budget_ms=2000)
                if proof.result == "win" and attacking_moves(proof.line) >= 2 and rng.random() < 0.5:
                    records.append({"moves": ",".join(format_point(m) for m in board.moves), "rule": "renju",
                                    "to_move": board.to_move.name.lower(), "vcf_moves": attacking_moves(proof.line)})
                    taken += 1
            limits = Limits(deadline=float("inf"))
            if rng.random() < 0.25:  # a detour keeps the games apart
                move = rng.choice(board.candidate_moves(2))
            else:
                move = players[board.to_move].choose(board, limits)
            board.play(*move)
    out.parent.mkdir(parents=True, exist_ok=True)
    header = {"about": "Positions with a VCF for the side to move, from self-play of the pattern player with "
                       "random detours (engine.bench.prover collect); vcf_moves = attacking moves of the VCF our "
                       "prover found with a 2 s budget.", "games": games, "seed": seed}
    out.write_text(json.dumps(header) + "\n" + "".join(json.dumps(r) + "\n" for r in records[:count]))
    print(f"{min(count, len(records))} positions from {games} games written to {out}")


class RecordingProver(Prover):
    """A prover that notes every UTSS call the search makes (position and budgets)."""

    def __init__(self, calls: list[dict], tt_bits: int) -> None:
        super().__init__(tt_bits)
        self.calls = calls

    def solve(self, board, kind="vcf", max_depth=None, budget_nodes=0, budget_ms=0.0, threat_depth=None):
        if kind == "utss":
            self.calls.append({"moves": ",".join(format_point(m) for m in board.moves), "max_depth": max_depth,
                               "budget_nodes": budget_nodes, "budget_ms": round(budget_ms, 1)})
        return super().solve(board, kind, max_depth, budget_nodes, budget_ms, threat_depth)


def call_class(call: dict) -> str:
    """Which of the search's kinds of UTSS call this is: a tree node's (by depth) or a check."""
    return "check of the leading move" if call["budget_ms"] else f"tree node, {call['max_depth']} plies"


def collect_utss(games: int, out: Path, seed: int = 7, per_class: dict | None = None) -> None:
    """The UTSS calls of the search (shipped model, 0.5 s a move) in games against alphabeta
    (0.2 s) from the renju26 openings, and a seeded sample of them per call class."""
    from engine.match.openings import renju26
    from engine.players.baselines import AlphaBetaPlayer
    from engine.search.player import MCTSPlayer

    rng = random.Random(seed)
    openings, calls = renju26(), []
    for g in range(games):
        board = Board.from_moves(openings[rng.randrange(len(openings))])
        mcts, ab = MCTSPlayer(), AlphaBetaPlayer()
        mcts.mcts.prover = RecordingProver(calls, tt_bits=16)
        ours = board.to_move if g % 2 == 0 else board.to_move.opponent
        while not board.game_over and board.stone_count < 120:
            now = time.monotonic()
            player, seconds = (mcts, 0.5) if board.to_move == ours else (ab, 0.2)
            board.play(*player.choose(board, Limits(deadline=now + seconds, optimum=seconds)))
    per_class = per_class or {"tree node, 5 plies": 800, "tree node, 9 plies": 200, "check of the leading move": 60}
    sample = []
    for name, n in per_class.items():
        group = [c for c in calls if call_class(c) == name]
        sample += rng.sample(group, min(n, len(group)))
    header = {"about": "UTSS calls of the search (shipped model, 0.5 s a move) in games against alphabeta "
                       "(0.2 s) from renju26 openings, sampled per kind of call (engine.bench.prover collect-utss)",
              "games": games, "calls": len(calls), "seed": seed}
    out.write_text(json.dumps(header) + "\n" + "".join(json.dumps(c) + "\n" for c in sample))
    print(f"{len(sample)} of {len(calls)} calls from {games} games written to {out}")


def utss_rows() -> list[tuple[str, str, str]]:
    """Replays the search's UTSS calls with their budgets: the fast kind the search uses beside
    the exact kind (no stop at a node's first holding move, no unprobed last-ply moves)."""
    calls = load(UTSS_CALLS)
    rows = []
    for name in dict.fromkeys(call_class(c) for c in calls):
        group = [c for c in calls if call_class(c) == name]
        cells = []
        for kind in ("utss", "utss-exact"):
            prover, proven, ms, nodes = Prover(tt_bits=16), 0, 0.0, 0
            for c in group:
                prover.clear()
                p = prover.solve(Board.from_moves(parse_points(c["moves"])), kind, c["max_depth"],
                                 c["budget_nodes"], c["budget_ms"])
                proven += p.result in ("win", "loss")
                ms += p.ms
                nodes += p.nodes
            cells.append((proven, ms, nodes))
        (fp, fms, fn), (ep, ems, en) = cells
        rows.append((f"UTSS, {name} ({len(group)} calls): proven / ms in all / nodes, utss vs utss-exact",
                     f"{fp} / {fms:.0f} / {fn} vs {ep} / {ems:.0f} / {en}", ""))
    return rows


def dfpn_rows() -> list[tuple[str, str, str]]:
    """The opponent's wins the check of the leading move is there to find: on the positions after
    the engine's decisive moves in lost games, and on the search's own checks, how many UTSS (13
    plies, as the check) and df-pn (40 plies) prove at the check's budgets, and in how long."""
    sets = [("positions after the decisive move of 20 lost games", load(REFUTATIONS)),
            ("the search's checks of its leading move (60 calls)",
             [c for c in load(UTSS_CALLS) if call_class(c) == "check of the leading move"])]
    rows = []
    for name, recs in sets:
        boards = [Board.from_moves(parse_points(r["moves"])) for r in recs]
        for ms in (200, 700):
            cells = []
            for kind, depth in (("utss", 13), ("dfpn", 40)):
                prover, won, spent = Prover(tt_bits=20), 0, 0.0
                for b in boards:
                    prover.clear()
                    p = prover.solve(b, kind, depth, budget_ms=ms)
                    won += p.result == "win"
                    spent += p.ms
                cells.append(f"{won} / {spent:.0f}")
            rows.append((f"opponent's wins proven / ms in all at {ms} ms, utss vs dfpn: {name}",
                         " vs ".join(cells), ""))
    return rows


def vct_groups(recs: list[dict]) -> list[tuple[str, list[dict]]]:
    """The real-game sets of tests/data/vct_positions.jsonl: Gomocup positions the winner went on
    to win from, and positions of games PentaZen won against the engine."""
    return [("Gomocup 2019-2020", [r for r in recs if not r["source"].startswith("pentazen")]),
            ("games PentaZen won", [r for r in recs if r["source"].startswith("pentazen")])]


def announced(rec: dict, oracle: str) -> bool:
    """Whether the oracle, given 1 s on the position alone, announced a forced win."""
    return (rec.get(oracle) or "").startswith("+")


def solve_set(recs: list[dict], verify_ms: float = 20_000, ms: float = 1000) -> list[dict]:
    """Our provers on each position, each with `ms`, a fresh table of 2^20 entries and one core:
    for the VCT and VCT3 their result, time and nodes (a proof checked by the verifier), and
    df-pn's result."""
    prover, out = Prover(tt_bits=20), []
    for r in recs:
        b = board_of(r)
        row = {}
        for kind in ("vct", "vct3"):
            prover.clear()
            p = prover.solve(b, kind, budget_ms=ms)
            won = p.result == "win"
            row[kind] = {"won": won, "ms": p.ms, "nodes": p.nodes,
                         "verdict": prover.verify(b, budget_ms=verify_ms, kind=kind).result if won else None}
        prover.clear()
        row["dfpn"] = prover.solve(b, "dfpn", budget_ms=ms).result == "win"
        out.append(row)
    return out


PROVERS = (("vct", "VCT"), ("vct3", "VCT3"))


def oracle_rows(name: str, oracle: str, recs: list[dict], solved: list[dict]) -> list[tuple[str, str, str]]:
    """The rows of one set for one oracle: of the positions where it announced a win at 1 s, the
    share our VCT and VCT3 prove within 10 / 100 / 1000 ms, the split by the class of the
    oracle's first move, df-pn and any of the three, the median nodes where both prove, and the
    proofs' verdicts."""
    pairs = [(r, s) for r, s in zip(recs, solved) if announced(r, oracle)]
    n = len(pairs)
    if not n:
        return []
    label = f"{oracle} 1 s wins, {name} ({n})"
    rows = []
    for kind, title in PROVERS:
        won = [(r, s[kind]) for r, s in pairs]
        shares = ", ".join(f"{sum(p['won'] and p['ms'] <= ms for _, p in won) / n:.1%}" for ms in (10, 100, 1000))
        rows.append((f"{label}: our {title} proves within 10 / 100 / 1000 ms", shares, ">= 95% at 1000 ms"))
        split = []
        for cls in ("four", "three", "quiet"):
            of = [p for r, p in won if r.get(f"{oracle}_first") == cls]
            split.append(f"{sum(p['won'] for p in of)} of {len(of)}")
        rows.append((f"{label}: by the {oracle}'s first move, four / three / quiet: {title} proved",
                     ", ".join(split), ""))
        both = [(p["nodes"], r[f"{oracle}_nodes"]) for r, p in won if p["won"] and r.get(f"{oracle}_nodes")]
        if both:
            ours, theirs = statistics.median(a for a, _ in both), statistics.median(b for _, b in both)
            ratio = statistics.median(a / max(b, 1) for a, b in both)
            rows.append((f"{label}: median nodes where both prove ({len(both)}), {title} / the {oracle}'s; "
                         "median ratio", f"{ours / 1e3:.1f} k / {theirs / 1e3:.1f} k; {ratio:.1f}x", "ratio <= 2x"))
        verdicts = Counter(p["verdict"] for _, p in won if p["won"])
        rows.append((f"{label}: {title} proofs verified / refuted / incomplete",
                     f"{verdicts['verified']} / {verdicts['refuted']} / {verdicts['incomplete']}", "refuted 0"))
    dfpn = sum(s["dfpn"] for _, s in pairs)
    either = sum(s["vct"]["won"] or s["vct3"]["won"] or s["dfpn"] for _, s in pairs)
    rows.append((f"{label}: df-pn proves; VCT, VCT3 or df-pn", f"{dfpn / n:.1%}; {either / n:.1%}", ""))
    return rows


def vct_rows(verify_ms: float = 20_000, path: Path = VCT_SET) -> list[tuple[str, str, str]]:
    """Our provers on the wins independent engines announce in real games (PentaZen and Rapfi,
    1 s each on the position alone; tests/data/vct_positions.jsonl): no position leaves a set
    because our own search finds nothing there, and the figures split by the class of the
    oracle's first move, so the wins that open quietly show on their own."""
    rows = []
    for name, recs in vct_groups(load(path)):
        solved = solve_set(recs, verify_ms)
        for oracle in ORACLES:
            rows += oracle_rows(name, oracle, recs, solved)
    return rows


def search_rows(seconds: float = 1.0, path: Path = VCT_SET) -> list[tuple[str, str, str]]:
    """Where an oracle announced a win that the VCT prover does not prove in 1 s (most need quiet
    moves): how often the engine's whole search, given `seconds`, plays an oracle's move."""
    from engine.players import Limits
    from engine.search.player import MCTSPlayer

    rows = []
    for name, recs in vct_groups(load(path)):
        player, prover, hard = MCTSPlayer(), Prover(tt_bits=20), []
        for r in recs:
            if not any(announced(r, o) for o in ORACLES):
                continue
            b = board_of(r)
            prover.clear()
            if prover.solve(b, "vct", budget_ms=1000).result != "win":
                hard.append((r, b))
        same = 0
        for r, b in hard:
            player.new_game()
            now = time.monotonic()
            move = player.choose(b, Limits(deadline=now + seconds, optimum=seconds))
            same += any(announced(r, o) and parse_points(r[f"{o}_move"])[0] == move for o in ORACLES)
        rows.append((f"search at {seconds:g} s, {name}: an oracle's move, where the VCT gives up",
                     f"{same} of {len(hard)}", ""))
    return rows


def missed_rows(seconds: float = 1.0, path: Path = MISSED) -> list[tuple[str, str, str]]:
    """The wins our own games let go (engine.bench.missedwins; an oracle engine announced each,
    most need quiet moves): how many the VCT and df-pn prove within a second (a fresh table of
    2^20, one core; each VCT proof checked by the verifier), and how often the engine's whole
    search, given `seconds`, plays the oracle's move."""
    from engine.players import Limits
    from engine.search.player import MCTSPlayer

    recs = load(path)
    prover, player = Prover(tt_bits=20), MCTSPlayer()
    vct = dfpn = refuted = same = 0
    for r in recs:
        b = board_of(r)
        prover.clear()
        if prover.solve(b, "vct", budget_ms=1000).result == "win":
            vct += 1
            refuted += prover.verify(b, budget_ms=20_000).result == "refuted"
        prover.clear()
        dfpn += prover.solve(b, "dfpn", budget_ms=1000).result == "win"
        player.new_game()
        now = time.monotonic()
        same += player.choose(b, Limits(deadline=now + seconds, optimum=seconds)) == parse_points(r["oracle_move"])[0]
    n = len(recs)
    return [(f"wins our games let go ({n}): VCT / df-pn proved within 1000 ms; VCT proofs refuted",
             f"{vct} / {dfpn}; {refuted}", "refuted 0"),
            (f"wins our games let go ({n}): the search at {seconds:g} s plays the oracle's move", f"{same} of {n}", "")]


def load(path: Path = DATASET) -> list[dict]:
    lines = path.read_text().splitlines()
    return [json.loads(line) for line in lines[1:] if line.strip()]


def board_of(rec: dict) -> Board:
    return Board.from_moves(parse_points(rec["moves"]), rule=rec["rule"])


def run() -> list[tuple[str, str, str]]:
    rows: list[tuple[str, str, str]] = []
    positions = [board_of(r) for r in load()]
    lengths = [r["vcf_moves"] for r in load()]
    # Speed: nodes per second over every position, generous budget, fresh tables.
    nodes = ms = 0.0
    for b in positions:
        p = Prover().solve(b, "vcf", max_depth=40, budget_ms=1000)
        nodes += p.nodes
        ms += p.ms
    rows.append(("VCF nodes per second (all positions, one core)", f"{nodes / ms / 1e3:.2f} M", ">= 2 M"))
    for budget in (10, 100, 1000):
        times, solved, short_missed = [], 0, 0
        for b, n in zip(positions, lengths):
            p = Prover().solve(b, "vcf", max_depth=40, budget_ms=budget)
            times.append(p.ms)
            solved += p.result == "win"
            short_missed += n <= 10 and p.result != "win"
        rows.append((f"VCF solve rate at {budget} ms ({len(positions)} self-play positions)",
                     f"{solved / len(positions):.1%}, median {statistics.median(times):.2f} ms", ""))
        if budget == 100:
            rows.append(("  VCFs of <= 10 attacking moves missed at 100 ms", f"{short_missed} of "
                         f"{sum(n <= 10 for n in lengths)}", "0"))
    # The quintet puzzles.
    vec = ROOT / "tests" / "data" / "vectors" / "quintet_mate.jsonl"
    for line in vec.read_text().splitlines():
        rec = json.loads(line)
        check = rec["checks"][0]
        to = Color.BLACK if check["attacker"] == "black" else Color.WHITE
        pt = lambda n: (ord(n[0].upper()) - 65, int(n[1:]) - 1)  # noqa: E731
        b = Board.from_stones([pt(p) for p in rec["black"]], [pt(p) for p in rec["white"]], to_move=to)
        if check["kind"] == "vcf":
            p = Prover().solve(b, "vcf", max_depth=check["max_depth"])
        else:
            p = Prover().solve(b, "utss", max_depth=2 * check["max_depth"] - 1, threat_depth=check["vct_threat_limit"])
        rows.append((f"puzzle {rec['id'].split(':')[1]} ({check['kind'].upper()}, depth {check['max_depth']})",
                     f"{p.result}, {p.ms:.1f} ms, {p.nodes} nodes", ""))
    return rows + vct_rows() + search_rows() + missed_rows() + utss_rows() + dfpn_rows()


def render(rows, command: str) -> str:
    return section(START, END, "Threat-space prover", command, rows,
                   "Nodes are positions visited (each probe move of either side). Self-play positions: "
                   "tests/data/vcf_positions.jsonl (`python -m engine.bench.prover collect`). The UTSS rows "
                   "replay the search's own calls with their budgets (tests/data/utss_calls.jsonl, "
                   "`collect-utss`: 1,060 sampled from 18,985 calls in 12 games against alphabeta); "
                   "`utss-exact` is the same search without the stop at a node's first holding move and "
                   "without the unprobed last-ply moves (docs/history.md has what those savings gave). "
                   "The df-pn rows: tests/data/refutations.jsonl holds the positions after the engine's "
                   "decisive move in each game it lost in a 100-game match against alphabeta "
                   "(2026-11-25); a win proven there is the refutation the check of the leading move missed. "
                   "The VCT rows: tests/data/vct_positions.jsonl (`python -m engine.bench.vctset`), Gomocup "
                   "2019-2020 Renju positions from which the winner went on to win by continuous fours and "
                   "threes, and positions of games PentaZen won against the engine; each row counts the "
                   "positions where one independent engine (PentaZen fa37343 or Rapfi 3aedf3a classical, "
                   "1 s on the position alone) announced a forced win, none left out for what our own "
                   "search finds, and splits them by the class of that engine's first move (a four, a "
                   "live three, or quiet: a move no VCT plays). Our provers get 1 s each, a fresh table of "
                   "2^20 and one core; VCT3 is the VCT with the attacker's quiet threats (`--kind vct3`: "
                   "half its budget to the plain VCT first), each of its proofs checked by the verifier "
                   "with VCT3's moves. The oracle's nodes are those of its first message announcing the "
                   "win. The search rows: at the positions the VCT does not prove within 1 s, how "
                   "often the engine's whole search (the shipped net, 1 s) plays an oracle's move. "
                   "The missed-wins rows: "
                   "tests/data/missed_wins.jsonl (`python -m engine.bench.missedwins collect`), positions of "
                   "the engine's own games where an oracle engine (Rapfi, classical evaluator) announced a "
                   "forced win for it and its move let the win go; most need quiet moves.")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", nargs="?", choices=["run", "collect", "collect-utss"], default="run")
    ap.add_argument("--count", type=int, default=240)
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--write", type=Path)
    args = ap.parse_args(argv)
    if args.command == "collect":
        collect(args.count, args.out or DATASET)
        return 0
    if args.command == "collect-utss":
        collect_utss(args.games, args.out or UTSS_CALLS)
        return 0
    rows = run()
    width = max(len(r[0]) for r in rows)
    for a, b, c in rows:
        print(f"{a:<{width}}  {b:>34}  {c}")
    if args.write:
        write(args.write, render(rows, "make bench-prover"), START, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
