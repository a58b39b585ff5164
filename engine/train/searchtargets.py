"""Search targets: the engine's own search, run for a fixed time at positions of match games, as
policy and value targets for `engine.train.distill --search-targets`. The policy is the root's
visit shares over the moves not proven lost (the proving move alone where the search proved a
win), the value their mean searched value (+1 or -1 where the search proved the result).
Self-play's 160-800 playouts a move teach the net little that it does not already say
(docs/training.md); a few hundred milliseconds of the full search, with its df-pn checks, at the
positions where the match games are decided is a stronger teacher at a cost this machine can pay.

    python -m engine.train.searchtargets --matches 'matches/s21-*/results.json' --out runs/st1/targets.npz \
        [--model NET.onnx --ms 250 --stones 6-20 --openings varied --workers 2]
        [--from-targets docs/data/searchtargets-v3-varied.npz]

A position is taken once (the distinct games' positions after the opening, by stone count).
`--from-targets FILE` searches again the positions of an earlier targets file (rebuilt from their
input planes, with their results and games) ahead of the matches' new ones: a newer net's search
relabels the old positions without the match files that gave them. `--budget-s` stops the search
when the time is up and keeps the positions done (on a lent machine whose call has a time limit);
`--shuffle SEED` searches the positions in a random order, so that those done are a fair sample.
"""
from __future__ import annotations

import argparse
import glob
import logging
import multiprocessing as mp
import sys
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np

from engine.board import FEATURE_PLANES, Board, Color, Move, Rule
from engine.records.results import game_moves
from engine.train.matchdata import distinct_games, load_results

log = logging.getLogger("pbrain.train")


def positions_of(games: list[dict], stones: tuple[int, int], openings: str = "all",
                 opening_standard: int = 3) -> list[tuple[int, tuple[Move, ...], float]]:
    """(game index, the moves so far, the game's result for the side to move) for each distinct
    position after a game's opening with a stone count in `stones` (inclusive) and the game not
    over. openings: "varied" only games whose opening is longer than a standard one, "standard"
    only the others, "all" both."""
    if openings not in ("all", "varied", "standard"):
        raise ValueError(f"openings must be all, varied or standard, not {openings!r}")
    out, seen = [], set()
    for g, game in enumerate(distinct_games(games)):
        varied = len(game["opening"]) > opening_standard
        if (openings == "varied" and not varied) or (openings == "standard" and varied):
            continue
        winner = {"black": Color.BLACK, "white": Color.WHITE}.get(game.get("winner"))
        moves = game_moves(game)
        board = Board(15, Rule.RENJU)
        for i, move in enumerate(moves):
            if board.game_over:
                break
            if i >= len(game["opening"]) and stones[0] <= board.stone_count <= stones[1]:
                key = tuple(moves[:i])
                if key not in seen:
                    seen.add(key)
                    z = 0.0 if winner is None else 1.0 if board.to_move == winner else -1.0
                    out.append((g, key, z))
            board.play(*move)
    return out


class Stones(NamedTuple):
    """A position without its history (picklable for the workers, unlike a Board)."""
    black: tuple[Move, ...]
    white: tuple[Move, ...]
    to_move: int

    def board(self, size: int = 15) -> Board:
        return Board.from_stones(self.black, self.white, Color(self.to_move), size=size, rule=Rule.RENJU)


Job = tuple[int, "tuple[Move, ...] | Stones", float]  # (game, the moves so far or the stones, result)


def stones_of_planes(planes: np.ndarray) -> list[Stones]:
    """The positions of input planes [N, C, n, n] (native/include/renju.h: plane 0 the side to
    move's stones, 1 the opponent's, 2 ones when black is to move)."""
    out = []
    for p in planes:
        black_to_move = bool(p[2].any())
        own = tuple((int(x), int(y)) for y, x in zip(*np.nonzero(p[0])))
        opp = tuple((int(x), int(y)) for y, x in zip(*np.nonzero(p[1])))
        black, white = (own, opp) if black_to_move else (opp, own)
        out.append(Stones(black, white, int(Color.BLACK if black_to_move else Color.WHITE)))
    return out


def positions_of_targets(data: dict[str, np.ndarray], first_game: int = 0) -> list[Job]:
    """The positions of an earlier targets file as jobs, its games renumbered from `first_game`."""
    games = np.unique(data["game"], return_inverse=True)[1] + first_game
    return [(int(g), st, float(z)) for g, st, z in zip(games, stones_of_planes(data["planes"]), data["z"])]


def _board(position: "tuple[Move, ...] | Stones") -> Board:
    return position.board() if isinstance(position, Stones) else Board.from_moves(list(position), rule=Rule.RENJU)


def root_targets(moves: list[Move], visits: np.ndarray, sums: np.ndarray, child_proven: np.ndarray,
                 root_proven: int, chosen: Move, size: int) -> tuple[np.ndarray, float]:
    """A searched root as targets: the visit shares of the moves not proven lost (a leader that a
    df-pn check refuted keeps the visits it had before, which must not teach the net to play it)
    and their mean value for the side to move; a proven root is the chosen move with +1 or -1."""
    policy = np.zeros(size * size, np.float32)
    open_ = child_proven <= 0  # a child proven won for its mover is a move proven lost for us
    total = float(visits[open_].sum())
    if root_proven or total <= 0:
        policy[chosen[1] * size + chosen[0]] = 1.0
        return policy, 1.0 if root_proven > 0 else -1.0
    for (x, y), v, ok in zip(moves, visits, open_):
        if ok:
            policy[y * size + x] = v / total
    return policy, float(np.clip(sums[open_].sum() / total, -1.0, 1.0))


def searched_root(player, board: Board, seconds: float) -> tuple[Move, np.ndarray, float, int]:
    """The move chosen after `seconds` of search from a fresh tree, the search's policy over the
    board's points and its value for the side to move (`root_targets`), and its root's visits."""
    from engine.players import Limits

    player.new_game()
    t = time.monotonic()
    move = player.ranked(board, Limits(deadline=t + seconds, optimum=seconds, bankable=False))[0][0]
    root = player.mcts.root
    policy, value = root_targets(root.moves, root.N.astype(np.float64), root.W.astype(np.float64), root.cp,
                                 root.proven, move, board.size)
    return move, policy, value, int(root.N.sum())


def search_target(player, board: Board, seconds: float) -> tuple[np.ndarray, float]:
    """The search's policy over the board's points and its value for the side to move, after
    `seconds` of search from a fresh tree (`root_targets`)."""
    _, policy, value, _ = searched_root(player, board, seconds)
    return policy, value


_player = None


def _init(model: str) -> None:
    global _player
    from engine.search.player import MCTSPlayer

    _player = MCTSPlayer(model=model, threads=1)


def _work(job: tuple[int, "tuple[Move, ...] | Stones", float]) -> tuple[int, np.ndarray, np.ndarray, float]:
    i, position, seconds = job
    board = _board(position)
    planes = np.zeros((FEATURE_PLANES, board.size, board.size), np.float32)
    board.planes(planes)
    policy, value = search_target(_player, board, seconds)
    return i, planes.astype(np.uint8), policy, value


def _stones_key(position: "tuple[Move, ...] | Stones") -> tuple[frozenset, frozenset]:
    """Black's and white's stones (moves alternate from black's), with no board built."""
    if isinstance(position, Stones):
        return frozenset(position.black), frozenset(position.white)
    return frozenset(position[0::2]), frozenset(position[1::2])


def build(games: list[dict], model: str, ms: float, stones: tuple[int, int], openings: str,
          workers: int, earlier: list[Job] = (), budget_s: float | None = None,
          shuffle: int | None = None) -> dict[str, np.ndarray]:
    """The targets of the `earlier` positions and of every new one `positions_of` picks (after
    the earlier ones' games), searched on `workers` processes; in a random order (seeded by
    `shuffle`) when asked, and only those done within `budget_s` seconds when given."""
    t0 = time.monotonic()
    earlier = list(earlier)
    first = max((g for g, _, _ in earlier), default=-1) + 1
    known = {_stones_key(position) for _, position, _ in earlier}
    picked = earlier + [(g + first, m, z) for g, m, z in positions_of(games, stones, openings)
                        if _stones_key(m) not in known]
    if shuffle is not None:
        picked = [picked[i] for i in np.random.default_rng(shuffle).permutation(len(picked))]
    log.info("%d positions from %d games, %.0f ms each on %d workers", len(picked),
             len({g for g, _, _ in picked}), ms, workers)
    jobs = [(i, moves, ms / 1000) for i, (_, moves, _) in enumerate(picked)]
    done: dict[int, tuple] = {}
    with mp.get_context("spawn").Pool(workers, initializer=_init, initargs=(model,)) as pool:
        # unordered, so that a budget's end keeps every finished position, not a prefix
        for i, *r in pool.imap_unordered(_work, jobs, chunksize=1):
            done[i] = r
            if len(done) % 500 == 0:
                log.info("%d / %d", len(done), len(jobs))
            if budget_s is not None and time.monotonic() - t0 > budget_s:
                log.info("budget of %.0f s spent: %d of %d positions searched", budget_s, len(done), len(jobs))
                break  # leaving the pool's block terminates the workers and their unfinished searches
    if not done:
        raise RuntimeError("no position searched: none picked, or the budget ran out first")
    order = sorted(done)
    kept = [picked[i] for i in order]
    return {"planes": np.stack([done[i][0] for i in order]), "policy": np.stack([done[i][1] for i in order]),
            "value": np.array([done[i][2] for i in order], np.float32),
            "z": np.array([z for _, _, z in kept], np.float32),
            "game": np.array([g for g, _, _ in kept], np.int64)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.train.searchtargets", description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", action="append", default=[], help="results.json files or a glob (repeatable)")
    ap.add_argument("--from-targets", action="append", default=[], type=Path,
                    help="an earlier targets file whose positions are searched again (repeatable)")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--model", default=None, help="the net the search runs (default: the shipped one, int8 twin)")
    ap.add_argument("--ms", type=float, default=250.0, help="search time per position")
    ap.add_argument("--stones", default="6-20", help="stone counts, inclusive (default %(default)s)")
    ap.add_argument("--openings", choices=["all", "varied", "standard"], default="all",
                    help="the games: from varied (longer) openings, standard ones, or all (default)")
    ap.add_argument("--workers", type=int, default=0, help="processes (0: every core)")
    ap.add_argument("--budget-s", type=float, default=None,
                    help="stop after this many seconds, keeping the positions searched so far")
    ap.add_argument("--shuffle", type=int, default=None, metavar="SEED",
                    help="search the positions in a random order (seeded)")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    lo, hi = (int(s) for s in args.stones.split("-"))
    matches = sorted({p for pattern in args.matches for p in glob.glob(pattern)})
    t0 = time.time()
    from engine.search.player import shipped_model

    model = args.model or shipped_model(gpu=False)
    if model is None:
        ap.error("no model: pass --model")
    if not matches and not args.from_targets:
        ap.error("no positions: pass --matches or --from-targets")
    earlier: list[Job] = []
    for path in args.from_targets:
        with np.load(path) as f:
            earlier += positions_of_targets({k: f[k] for k in ("planes", "z", "game")},
                                            max((g for g, _, _ in earlier), default=-1) + 1)
    data = build(load_results(matches) if matches else [], model, args.ms, (lo, hi), args.openings,
                 args.workers or mp.cpu_count(), earlier, args.budget_s, args.shuffle)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    made_by = "python -m engine.train.searchtargets " + " ".join(argv if argv is not None else sys.argv[1:])
    np.savez_compressed(args.out, made_by=np.array(made_by), **data)
    log.info("wrote %s: %d positions in %.0f s", args.out, len(data["value"]), time.time() - t0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
