"""Search targets: the engine's own search, run for a fixed time at positions of match games, as
policy and value targets for `engine.train.learn.distill --search-targets`. The policy is the root's
visit shares over the moves not proven lost (the proving move alone where the search proved a
win), the value their mean searched value (+1 or -1 where the search proved the result). At the
positions where games are decided, a few hundred milliseconds of the full search, df-pn checks
included, is a stronger teacher than the net itself or self-play's few hundred playouts a move.

v3's targets (made with v2's int8 twin, `git show 9923559:models/pbrain-renju-v2-int8.onnx`):

    python -m engine.train.data.searchtargets --matches 'matches/*/results.json' --out runs/st1/targets.npz \
        --ms 300 --stones 6-20 --openings varied --model v2-int8.onnx [--workers 2]
    python -m engine.train.data.searchtargets --matches 'matches/*/results.json' --out runs/st3/standard.npz \
        --ms 300 --stones 4-20 --openings standard --model v2-int8.onnx

`--records PATH` adds games of strong engines (Piskvork .psq, SGF, RenjuNet; files, folders or
archives): only Renju games outside the supervised validation split (`engine.train.learn.supervised`'s
hash of each game's moves), and of their positions a seeded random `--sample`, so that the targets
cover the positions strong players reach and not only those of one opponent's matches:

    python -m engine.train.data.searchtargets --matches 'matches/pz*/results.json' \
        --records renju-2019.tar.gz --records renju-2020.tar.gz --sample 2000 --out runs/st10/targets.npz

A position is taken once (the distinct games' positions after the opening, by stone count).
"""
from __future__ import annotations

import argparse
import logging
import multiprocessing as mp
import sys
import time
from pathlib import Path

import numpy as np

from engine.board import FEATURE_PLANES, Board, Color, Move, Rule
from engine.records.results import game_moves
from engine.train.data.matchdata import distinct_games, load_results, match_files, replay

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
        for i, board in replay(game, 15, Rule.RENJU):
            if i >= len(game["opening"]) and stones[0] <= board.stone_count <= stones[1]:
                key = tuple(moves[:i])
                if key not in seen:
                    seen.add(key)
                    z = 0.0 if winner is None else 1.0 if board.to_move == winner else -1.0
                    out.append((g, key, z))
    return out


def record_games(paths: list[str], val_share: float | None = None) -> list[dict]:
    """The Renju games of game records in the match runner's game form (`records.results.from_game`),
    leaving out the games `engine.train.learn.supervised` validates on (its default share unless given)
    and the records it cannot read (reported)."""
    from engine.records import RecordError, load
    from engine.records.results import from_game
    from engine.train.data.split import VAL_SHARE, game_key, held_out

    share = VAL_SHARE if val_share is None else val_share
    out, skipped = [], 0
    for game in load(paths, Rule.RENJU):
        if isinstance(game, RecordError):
            skipped += 1
        elif game.size == 15 and game.rule == Rule.RENJU and not held_out(game_key(game), share):
            out.append(from_game(game))
    if skipped:
        log.warning("%d unreadable records skipped", skipped)
    return out


def sample(picked: list, count: int, seed: int) -> list:
    """`count` of the picked positions at random (all of them if there are fewer), in their order."""
    if count <= 0 or count >= len(picked):
        return picked
    keep = np.sort(np.random.default_rng(seed).choice(len(picked), count, replace=False))
    return [picked[i] for i in keep]


def pick(games: list[dict], stones: tuple[int, int], openings: str = "all", records: list[dict] | None = None,
         count: int = 0, seed: int = 0) -> list[tuple[int, tuple[Move, ...], float]]:
    """The positions `positions_of` picks in the match games, then `count` of those it picks in
    the records' games that the matches lack (`sample`; 0: all), the records' game indices after
    the matches'."""
    picked = positions_of(games, stones, openings)
    if records:
        seen = {moves for _, moves, _ in picked}
        offset = 1 + max((g for g, _, _ in picked), default=-1)
        more = [(g + offset, m, z) for g, m, z in positions_of(records, stones, openings) if m not in seen]
        picked += sample(more, count, seed)
    if not picked:
        raise RuntimeError("no position picked")
    return picked


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


def _work(job: tuple[tuple[Move, ...], float]) -> tuple[np.ndarray, np.ndarray, float]:
    moves, seconds = job
    board = Board.from_moves(list(moves), rule=Rule.RENJU)
    planes = np.zeros((FEATURE_PLANES, board.size, board.size), np.float32)
    board.planes(planes)
    policy, value = search_target(_player, board, seconds)
    return planes.astype(np.uint8), policy, value


def build(games: list[dict], model: str | None, ms: float, stones: tuple[int, int], openings: str,
          workers: int, records: list[dict] | None = None, count: int = 0,
          seed: int = 0) -> dict[str, np.ndarray]:
    """The targets of every position `positions_of` picks in the match games, and of `count` of
    those it picks in the records' games (`sample`; 0: all), searched on `workers` processes."""
    picked = pick(games, stones, openings, records, count, seed)
    log.info("%d positions from %d games, %.0f ms each on %d workers", len(picked),
             len({g for g, _, _ in picked}), ms, workers)
    jobs = [(moves, ms / 1000) for _, moves, _ in picked]
    done: list[tuple] = []
    with mp.get_context("spawn").Pool(workers, initializer=_init, initargs=(model,)) as pool:
        for r in pool.imap(_work, jobs, chunksize=1):
            done.append(r)
            if len(done) % 500 == 0:
                log.info("%d / %d", len(done), len(jobs))
    return {"planes": np.stack([r[0] for r in done]), "policy": np.stack([r[1] for r in done]),
            "value": np.array([r[2] for r in done], np.float32),
            "z": np.array([z for _, _, z in picked], np.float32),
            "game": np.array([g for g, _, _ in picked], np.int64)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.train.data.searchtargets", description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", action="append", default=[], help="results.json files or a glob (repeatable)")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--model", default=None, help="the net the search runs (default: the shipped one, int8 twin)")
    ap.add_argument("--ms", type=float, default=250.0, help="search time per position")
    ap.add_argument("--stones", default="6-20", help="stone counts, inclusive (default %(default)s)")
    ap.add_argument("--openings", choices=["all", "varied", "standard"], default="all",
                    help="the games: from varied (longer) openings, standard ones, or all (default)")
    ap.add_argument("--records", action="append", default=[],
                    help="game records of strong engines (files, folders, archives; repeatable)")
    ap.add_argument("--sample", type=int, default=0, help="positions taken from the records (0: all)")
    ap.add_argument("--seed", type=int, default=0, help="the records' sample")
    ap.add_argument("--workers", type=int, default=0, help="processes (0: every core)")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    lo, hi = (int(s) for s in args.stones.split("-"))
    matches = match_files(args.matches or [])
    t0 = time.time()
    from engine.search.player import shipped_model

    model = args.model or shipped_model(gpu=False)
    if model is None:
        ap.error("no model: pass --model")
    if not matches and not args.records:
        ap.error("no positions: pass --matches or --records")
    data = build(load_results(matches), model, args.ms, (lo, hi), args.openings, args.workers or mp.cpu_count(),
                 record_games(args.records), args.sample, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    made_by = "python -m engine.train.data.searchtargets " + " ".join(argv if argv is not None else sys.argv[1:])
    np.savez_compressed(args.out, made_by=np.array(made_by), **data)
    log.info("wrote %s: %d positions in %.0f s", args.out, len(data["value"]), time.time() - t0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
