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
from pathlib import Path

from engine.bench.core import section, write
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
    """The real-game sets of tests/data/vct_positions.jsonl: the Gomocup positions where PentaZen
    announced a forced win, with threes and fours only, and the positions of games PentaZen won."""
    won = [r for r in recs if (r.get("pentazen") or "").startswith("+")]
    gomocup = [r for r in won if not r["source"].startswith("pentazen")]
    return [("Gomocup 2019-2020, PentaZen +v", gomocup),
            ("  of them with threes", [r for r in gomocup if not r["fours_only"]]),
            ("  of them fours only", [r for r in gomocup if r["fours_only"]]),
            ("games PentaZen won after +v", [r for r in won if r["source"].startswith("pentazen")])]


def vct_rows(verify_ms: float = 20_000, path: Path = VCT_SET) -> list[tuple[str, str, str]]:
    """The VCT prover on real-game threat-sequence wins: the share proved within 10 / 100 /
    1000 ms (each with 1 s, a fresh table of 2^20 entries, one core), the median time (a miss
    counts as over 1 s), nodes/s, how many it or the direct search rules out (a threat space
    searched out: such wins need quiet moves, so the share proved of the others is the share of
    the pure threat-sequence wins), df-pn beside it, and every proof checked by the verifier.
    A record's `vct` field (`python -m engine.bench.vctset classify`: searches of tens of millions
    of nodes) rules out the positions a second cannot search out. Last, the pure wins of both
    real-game sets together, the issue's yardstick."""
    rows = []
    all_pure, all_times = 0, []
    for name, recs in vct_groups(load(path)):
        if not recs:
            continue
        prover = Prover(tt_bits=20)
        times, nodes, spent, ruled_out_n, verdicts, dfpn_won, pure_times = [], 0, 0.0, 0, {}, 0, []
        direct_times, direct_nodes, direct_spent, exact_of_direct = [], 0, 0.0, {"win": 0, "out": 0, "open": 0}
        for r in recs:
            b = board_of(r)
            prover.clear()
            d = prover.solve(b, "vct-direct", budget_ms=1000)
            direct_nodes += d.nodes
            direct_spent += d.ms
            direct_times.append(d.ms if d.result == "win" else float("inf"))
            prover.clear()
            p = prover.solve(b, "vct", budget_ms=1000)
            if d.result == "win":
                exact_of_direct["win" if p.result == "win" else "open" if p.aborted else "out"] += 1
            nodes += p.nodes
            spent += p.ms
            times.append(p.ms if p.result == "win" else float("inf"))
            # searched out by either search: no VCT exists (the direct one's space holds the exact one's)
            ruled_out = (p.result != "win" and not p.aborted) or (d.result != "win" and not d.aborted) or \
                (r.get("vct") or {}).get("result") == "none"
            ruled_out_n += ruled_out
            if not ruled_out:
                pure_times.append(times[-1])
            if p.result == "win":
                v = prover.verify(b, budget_ms=verify_ms).result
                verdicts[v] = verdicts.get(v, 0) + 1
            prover.clear()
            dfpn_won += prover.solve(b, "dfpn", budget_ms=1000).result == "win"
        n = len(recs)
        shares = ", ".join(f"{sum(t <= ms for t in times) / n:.1%}" for ms in (10, 100, 1000))
        median = statistics.median(times)
        rows.append((f"VCT, {name} ({n}): proved within 10 / 100 / 1000 ms", shares,
                     ">= 95% at 1000 ms" if name.startswith("Gomocup") else ""))
        rows.append((f"VCT, {name}: median, nodes/s, ruled out (quiet moves needed)",
                     f"{median:.2f} ms, {nodes / max(spent, 1e-9) / 1e3:.2f} M, {ruled_out_n}",
                     "median <= 50 ms" if name.startswith("Gomocup") else ""))
        pure, won = n - ruled_out_n, sum(t <= 1000 for t in pure_times)
        if not name.startswith(" "):  # the two sets, not their parts
            all_pure += pure
            all_times += pure_times
        pure_median = f"{statistics.median(pure_times):.2f} ms" if pure_times else "-"
        rows.append((f"VCT, {name}: proved within 1000 ms of the {pure} pure threat-sequence wins (not ruled "
                     f"out); their median", f"{won} ({won / max(pure, 1):.1%}); {pure_median}",
                     ">= 95%, median <= 50 ms" if name.startswith("Gomocup") else ""))
        rows.append((f"VCT, {name}: proofs verified / refuted / incomplete; df-pn proved at 1000 ms",
                     f"{verdicts.get('verified', 0)} / {verdicts.get('refuted', 0)} / "
                     f"{verdicts.get('incomplete', 0)}; {dfpn_won}", "refuted 0"))
        shares = ", ".join(f"{sum(t <= ms for t in direct_times) / n:.1%}" for ms in (10, 100, 1000))
        rows.append((f"VCT-direct, {name}: won by 10 / 100 / 1000 ms; median, nodes/s", f"{shares}; "
                     f"{statistics.median(direct_times):.2f} ms, {direct_nodes / max(direct_spent, 1e-9) / 1e3:.2f} M",
                     ""))
        rows.append((f"VCT-direct, {name}: of its wins, the VCT at 1000 ms proves / searches out / leaves open",
                     f"{exact_of_direct['win']} / {exact_of_direct['out']} / {exact_of_direct['open']}", ""))
    if all_pure:
        won = sum(t <= 1000 for t in all_times)
        rows.append((f"VCT, all real-game positions: proved within 1000 ms of the {all_pure} pure threat-sequence "
                     "wins; their median", f"{won} ({won / all_pure:.1%}); {statistics.median(all_times):.2f} ms",
                     ">= 95%, median <= 50 ms"))
    return rows


def search_rows(seconds: float = 1.0, path: Path = VCT_SET) -> list[tuple[str, str, str]]:
    """Where PentaZen announced a win that the VCT prover does not prove in 1 s (most need quiet
    moves): how often the engine's whole search, given `seconds`, plays PentaZen's move."""
    from engine.players import Limits
    from engine.search.player import MCTSPlayer

    rows = []
    for name, recs in vct_groups(load(path)):
        if name.startswith("  "):
            continue
        player, prover, hard = MCTSPlayer(), Prover(tt_bits=20), []
        for r in recs:
            b = board_of(r)
            if prover.solve(b, "vct", budget_ms=1000).result != "win":
                hard.append((r, b))
        same = 0
        for r, b in hard:
            player.new_game()
            now = time.monotonic()
            move = player.choose(b, Limits(deadline=now + seconds, optimum=seconds))
            same += bool(r.get("pentazen_move")) and move == parse_points(r["pentazen_move"])[0]
        rows.append((f"search at {seconds:g} s, {name}: PentaZen's move, where VCT gives up",
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
                   "2019-2020 Renju positions from which the winner won by continuous fours and threes and "
                   "where PentaZen (fa37343, 1 s) announced a forced win, and the positions of games "
                   "PentaZen won against the engine after announcing one. A position the VCT or "
                   "VCT-direct searches out within its second, or within the long searches of "
                   "`python -m engine.bench.vctset classify` (60 M and 10 M nodes, a table of 2^23; the "
                   "record's `vct` field), is \"ruled out\": it has no VCT, so its win needs quiet moves; "
                   "the \"pure threat-sequence wins\" rows count the others, each set alone and both "
                   "together. VCT-direct is the same search without the defender's delaying fours "
                   "(`--kind vct-direct`): its wins are not proofs, and the row after it says how many the "
                   "VCT confirms. The search rows: at the positions the VCT does not prove within 1 s, how "
                   "often the engine's whole search "
                   "(the shipped net, 1 s) plays PentaZen's move. The missed-wins rows: "
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
