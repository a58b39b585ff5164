"""Supervised training on records (engine.train.learn.supervised): record positions and their targets
turn together under the 8 symmetries, the value targets follow the game's end from the side to
move's view, the split keeps games whole, and a tiny run exports a net that the engine loads and
plays, and resumes from its checkpoint."""
from __future__ import annotations

import dataclasses
import json
import random
import shutil
import time
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from engine.board import Board, Color, Rule  # noqa: E402
from engine.players import Limits  # noqa: E402
from engine.records import load, psq  # noqa: E402
from engine.search.player import MCTSPlayer  # noqa: E402
from engine.train.learn import supervised  # noqa: E402
from tests.randomgames import random_game  # noqa: E402

RECORDS = Path(__file__).parent / "data" / "records"
N = 15
# Black's overline at the end: 5,6,7 and 9,10 on row 7, then 8 makes six; white's stones lie far away.
FOUL = [(5, 7), (0, 0), (6, 7), (14, 14), (7, 7), (0, 14), (9, 7), (14, 0), (10, 7), (1, 12), (8, 7)]


def _turn(x: int, y: int, k: int) -> tuple[int, int]:
    """Symmetry k on a point, written out independently of engine.board.symmetry: a quarter turn of
    the [y, x] array (np.rot90) takes (x, y) to (y, n-1-x); the mirror takes x to n-1-x."""
    for _ in range(k % 4):
        x, y = y, N - 1 - x
    return (N - 1 - x, y) if k >= 4 else (x, y)


def _write(folder: Path, name: str, moves: list[tuple[int, int]], opening: int = 0) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.psq"
    timed = [(x, y, 100 + i) for i, (x, y) in enumerate(moves[opening:])]
    path.write_text(psq.dumps(N, moves[:opening], timed, ["BLACK.zip", "WHITE.zip"]))
    return path


def _random_games(folder: Path, count: int, seed: int = 0) -> list[Path]:
    rng = random.Random(seed)
    return [_write(folder, f"random{i}", random_game(rng, Rule.RENJU, 50).moves, opening=3) for i in range(count)]


def _one(path: Path):
    (game,) = list(load([path]))
    data = supervised.build([(Rule.RENJU, str(path))])
    return game, data


def test_record_positions_and_their_targets_turn_together_under_the_8_symmetries():
    game, data = _one(RECORDS / "gomocup2020-renju-five.psq")
    assert game.end == "five" and game.opening == 5 and len(data.move) == len(game.moves) - 5
    for j in range(0, len(data.move), 6):
        before = game.moves[:game.opening + j]
        assert np.array_equal(data.planes[j], Board.from_moves(before).planes().astype(np.uint8))
        x, y = game.moves[game.opening + j]
        assert data.move[j] == y * N + x
        ks = np.arange(8)
        planes, target, _, _ = supervised.tensors(data, np.full(8, j), "cpu", ks)  # the training batch's own path
        for k in ks:
            turned = Board.from_moves([_turn(*m, k) for m in before])  # the same game played on a turned board
            assert np.array_equal(planes[k].numpy(), turned.planes()), k
            tx, ty = _turn(x, y, k)
            assert int(target[k]) == ty * N + tx and turned.is_legal(tx, ty), k
        assert len({int(t) for t in target}) > 1  # the point really moves


def test_value_targets_follow_the_end_from_the_side_to_move(tmp_path):
    def side(game, j: int) -> Color:
        return Color.BLACK if (game.opening + j) % 2 == 0 else Color.WHITE

    game, data = _one(_write(tmp_path, "foul", FOUL, opening=2))
    assert game.end == "foul" and game.winner == Color.WHITE
    assert len(data.move) == len(FOUL) - 2 - 1  # the two opening stones and the foul are not targets
    assert data.move[-1] == FOUL[-2][1] * N + FOUL[-2][0]
    assert all(data.z[j] == (-1 if side(game, j) == Color.BLACK else 1) for j in range(len(data.z)))
    assert data.has_value.all()
    for j, (x, y) in enumerate(FOUL[2:-1]):  # a target is an empty point of its position, never an opening stone
        assert data.move[j] == y * N + x and data.planes[j, :2, y, x].sum() == 0
    assert not ({int(m) for m in data.move} & {y * N + x for x, y in FOUL[:2]})

    game, data = _one(_write(tmp_path, "stopped", FOUL[:6], opening=3))
    assert game.end == "stopped" and len(data.move) == 3 and not data.has_value.any() and not data.z.any()

    game, data = _one(RECORDS / "gomocup2020-renju-draw200.psq")
    assert game.end == "draw200" and data.has_value.all() and not data.z.any()
    assert len(data.move) == len(game.moves) - game.opening

    game, data = _one(RECORDS / "gomocup2020-renju-five.psq")
    assert data.move[-1] == game.moves[-1][1] * N + game.moves[-1][0]  # the winning five is a target
    assert all(data.z[j] == (1 if side(game, j) == game.winner else -1) for j in range(len(data.z)))

    game, data = _one(RECORDS / "gomocup2020-renju-occupied.psq")
    assert game.end == "illegal" and len(data.move) == len(game.moves) - game.opening - 1
    loser = side(game, len(game.moves) - 1 - game.opening)  # who played the occupied point
    assert game.winner == loser.opponent
    assert all(data.z[j] == (1 if side(game, j) == game.winner else -1) for j in range(len(data.z)))


def test_the_split_keeps_games_whole_and_follows_the_moves_not_the_file_names(tmp_path):
    paths = _random_games(tmp_path / "a", 12)
    for p in paths:  # the same games under other names
        shutil.copy(p, tmp_path / f"copy-{p.name}")
    sources = [(Rule.RENJU, str(tmp_path / "a"))] + [(Rule.RENJU, str(p)) for p in sorted(tmp_path.glob("copy-*"))]
    data = supervised.build(sources)
    assert data.info["games"] == 24
    held = data.held_out(0.5)
    assert held.any() and not held.all()
    assert np.array_equal(held[:12], held[12:])  # a game read twice is on one side
    train, val = supervised.split(data, 0.5, [Rule.RENJU])
    assert len(train) + len(val) == len(data.move)
    assert not set(data.game[train]) & set(data.game[val])
    assert set(data.game[val]) == set(np.nonzero(held)[0])
    assert held.tolist() == supervised.build(sources).held_out(0.5).tolist()  # deterministic

    # Rule filtering: standard games are read but trained on only when their rule is asked for.
    both = supervised.build([(Rule.RENJU, str(tmp_path / "a")), (Rule.STANDARD, str(tmp_path / "a"))])
    standard = np.nonzero(both.rule[both.game] == Rule.STANDARD)[0]
    train, val = supervised.split(both, 0.5, [Rule.RENJU])
    assert len(standard) and not set(standard) & (set(train) | set(val))
    train, val = supervised.split(both, 0.5, [Rule.RENJU, Rule.STANDARD])
    kept = standard[~both.held_out(0.5)[both.game[standard]]]
    assert len(kept) and set(kept) <= set(train)  # in training ...
    assert not set(standard) & set(val) and len(val)  # ... while validation stays Renju's


def _args(records: Path, out: Path, epochs: int, *more: str) -> list[str]:
    psqs = [str(p) for p in sorted(RECORDS.glob("*.psq"))]
    return ["--records", str(records), *psqs, "--out", str(out), "--epochs", str(epochs), "--channels", "8",
            "--blocks", "1", "--batch", "64", "--val-share", "0.5", "--threads", "1", *more]


@pytest.fixture(scope="module")
def one_epoch(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("sup")
    _random_games(root / "games", 6, seed=3)
    assert supervised.main(_args(root / "games", root / "run", 1)) == 0
    return root / "games", root / "run"


def test_a_tiny_run_exports_a_net_the_engine_loads_and_plays(one_epoch):
    _, run = one_epoch
    log = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    assert [e["epoch"] for e in log] == [0, 1]
    val = log[-1]["val"]
    assert val["positions"] > 0 and all(0 <= val[k] <= 1 for k in ("top1", "top5", "value_sign"))
    assert val["top1"] <= val["top5"] and np.isfinite(log[-1]["train"]["policy_loss"])
    assert (run / "report.png").stat().st_size > 1000
    side = json.loads((run / "model.json").read_text())
    assert side["games"] == 6 + len(list(RECORDS.glob("*.psq")))
    assert side["skipped_records"] == 0 and side["epochs"] == 1
    assert side["validation_games"] > 0
    assert side["training_positions"] + side["validation_positions"] == side["positions"]
    assert side["val_top1"] == val["top1"] and side["net"]["channels"] == 8
    player = MCTSPlayer(model=str(run / "model.onnx"))
    assert player.load_message is None and player.mcts.ev.name == "onnx"  # no fallback to the heuristic
    board = Board.from_moves([(7, 7), (8, 8), (8, 7)])
    move = player.choose(board, Limits(deadline=time.monotonic() + 2, max_nodes=64))
    assert board.is_legal(*move)


def test_evaluate_scores_an_onnx_net_as_training_scored_it(one_epoch, capsys):
    """--evaluate runs an exported net through onnxruntime on the same validation split: the
    exported net scores what its last epoch scored in torch."""
    games, run = one_epoch
    val = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()][-1]["val"]
    capsys.readouterr()
    assert supervised.main(_args(games, run, 1, "--evaluate", str(run / "model.onnx"))) == 0
    got = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert got["positions"] == val["positions"]
    assert got["top1"] == pytest.approx(val["top1"], abs=2 / val["positions"])
    assert got["top5"] == pytest.approx(val["top5"], abs=2 / val["positions"])
    assert got["value_sign"] == pytest.approx(val["value_sign"], abs=0.05)


def test_a_rerun_resumes_from_the_checkpoint_and_matches_an_uninterrupted_run(one_epoch, tmp_path, monkeypatch):
    games, first = one_epoch
    run = tmp_path / "run"
    shutil.copytree(first, run)
    cache = (run / "positions.npz").stat().st_mtime_ns
    before = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    assert supervised.main(_args(games, run, 2)) == 0
    log = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    assert [e["epoch"] for e in log] == [0, 1, 2] and log[:2] == before  # epoch 1 kept, not trained again
    assert (run / "positions.npz").stat().st_mtime_ns == cache  # the positions were not rebuilt
    assert json.loads((run / "model.json").read_text())["epochs"] == 2
    with pytest.raises(SystemExit):  # another net in the same folder is refused, not mixed in
        supervised.main(_args(games, run, 3, "--channels", "16"))

    # Interrupted after its first epoch and rerun, a run ends where an uninterrupted one does.
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    assert supervised.main(_args(games, whole, 2)) == 0
    save = supervised._save

    def save_then_stop(path, state):
        save(path, state)
        raise KeyboardInterrupt

    monkeypatch.setattr(supervised, "_save", save_then_stop)
    with pytest.raises(KeyboardInterrupt):
        supervised.main(_args(games, cut, 2))
    monkeypatch.setattr(supervised, "_save", save)
    assert not (cut / "model.onnx").exists()
    assert supervised.main(_args(games, cut, 2)) == 0
    a, b = (torch.load(d / "model.pt", weights_only=False)["net"] for d in (whole, cut))
    assert all(torch.equal(a[k], b[k]) for k in a)
    c = torch.load(run / "model.pt", weights_only=False)["net"]  # the 1-then-2 run had another schedule
    assert not all(torch.equal(a[k], c[k]) for k in a)


def test_a_run_can_start_from_an_exported_net(one_epoch, tmp_path):
    """--init MODEL.onnx unfolds that net: before any training (epoch 0) it scores on the
    validation split exactly what the net it came from scored at its last epoch, and its shape
    replaces --channels/--blocks."""
    games, first = one_epoch
    last = [json.loads(line) for line in (first / "log.jsonl").read_text().splitlines()][-1]["val"]
    run = tmp_path / "init"
    shutil.copy(first / "positions.npz", run.mkdir() or run / "positions.npz")
    args = _args(games, run, 1, "--init", str(first / "model.onnx"))
    args[args.index("--channels") + 1] = "16"  # overridden by the net's own width
    assert supervised.main(args) == 0
    log = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    assert log[0]["val"]["top1"] == pytest.approx(last["top1"], abs=1 / last["positions"])
    assert log[0]["val"]["value_sign"] == pytest.approx(last["value_sign"], abs=0.02)
    side = json.loads((run / "model.json").read_text())
    assert side["net"]["channels"] == 8 and side["init"].endswith("model.onnx")


def test_excluded_movers_leave_the_other_sides_positions_only():
    """--exclude-movers drops the positions where that player is to move from training (one side
    of a game learnt), while validation keeps every position."""
    game, data = _one(RECORDS / "gomocup2020-renju-five.psq")  # YIXIN18 black, EMBRYO20 white, 5 opening stones
    assert data.players == ["yixin18.zip", "embryo20.r.zip"]
    white_to_move = np.array([(game.opening + j) % 2 == 1 for j in range(len(data.move))])
    train, _ = supervised.split(data, 0.0, [Rule.RENJU])
    assert len(train) == len(data.move)
    train, _ = supervised.split(data, 0.0, [Rule.RENJU], ("YIXIN18.zip",))
    assert train.tolist() == np.nonzero(white_to_move)[0].tolist()
    _, val = supervised.split(data, 1.0, [Rule.RENJU], ("YIXIN18.zip", "EMBRYO20.R.zip"))
    assert len(val) == len(data.move)


def test_teacher_targets_blend_into_the_records_and_turn_with_the_stones():
    """With a teacher, the policy target is (1 - share) at the move played plus share x the
    teacher's distribution, both turned with the stones; the value target blends the teacher's value
    with the result, and is the teacher's alone in a game that gives no result."""
    game, data = _one(RECORDS / "gomocup2020-renju-five.psq")
    rng = np.random.default_rng(5)
    p = rng.random((len(data.move), N * N)).astype(np.float32)
    teacher = supervised.Teacher((p / p.sum(1, keepdims=True)).astype(np.float16),
                                 rng.uniform(-1, 1, len(data.move)).astype(np.float32), 0.25, 0.5)
    j = 7
    x, y = game.moves[game.opening + j]
    ks = np.arange(8)
    _, target, z, has_value = supervised.tensors(data, np.full(8, j), "cpu", ks, teacher)
    assert target.shape == (8, N * N) and torch.allclose(target.sum(1), torch.ones(8), atol=1e-3)
    want = 0.25 * teacher.policy_out[j].astype(np.float32)
    want[y * N + x] += 0.75
    for k in ks:
        turned = np.zeros(N * N, np.float32)
        for q in range(N * N):
            tx, ty = _turn(q % N, q // N, k)
            turned[ty * N + tx] = want[q]
        assert np.allclose(target[k].numpy(), turned, atol=1e-6), k
    assert data.has_value[j] and has_value.all()
    assert np.allclose(z.numpy(), 0.5 * teacher.value_out[j] + 0.5 * data.z[j])
    data.has_value[:] = False  # a game that stopped: the teacher's value is the only target
    _, target, z, has_value = supervised.tensors(data, np.arange(4), "cpu", None,
                                                 dataclasses.replace(teacher, policy=0.0))
    assert target.dtype == torch.int64 and target.tolist() == data.move[:4].tolist()
    assert has_value.all() and np.allclose(z.numpy(), teacher.value_out[:4])


def test_a_run_with_a_teacher_caches_its_outputs_and_learns_its_values(one_epoch, tmp_path):
    """--teacher NET --teacher-value 1: the net's outputs are computed once (a rerun reuses them),
    and a net trained on them agrees with the teacher's values better than a net trained on the
    results alone."""
    games, first = one_epoch
    run, plain = tmp_path / "teach", tmp_path / "plain"
    more = ("--lr", "1e-2", "--seed", "4")
    assert supervised.main(_args(games, plain, 3, *more)) == 0
    assert supervised.main(_args(games, run, 3, *more, "--teacher", str(first / "model.onnx"))) == 0
    cached = run / "teacher.npz"
    stamp = cached.stat().st_mtime_ns
    assert supervised.main(_args(games, run, 4, *more, "--teacher", str(first / "model.onnx"))) == 0
    assert cached.stat().st_mtime_ns == stamp
    side = json.loads((run / "model.json").read_text())
    assert side["teacher"].endswith("model.onnx") and side["teacher_value"] == 1.0 and side["teacher_policy"] == 0.0
    key = json.loads(str(np.load(run / "positions.npz")["meta"]))["key"]
    data = supervised.load_records(run / "positions.npz", key)
    with np.load(cached) as c:
        tv = c["value"]
    from engine.net.onnx_eval import ONNXEvaluator

    def gap(model: Path) -> float:
        _, v = ONNXEvaluator(model, gpu=False).evaluate_planes(data.planes.astype(np.float32))
        return float(np.abs(np.asarray(v).reshape(-1) - tv).mean())

    assert gap(run / "model.onnx") < gap(plain / "model.onnx")
