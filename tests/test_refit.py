"""Refitting a net to a run's replay buffer (held-out games, settled-sample weighting, export with
its sidecar) and the value check of nets against real games' results."""
from __future__ import annotations

import json
import random

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from engine.board import FEATURE_PLANES, FEATURE_VERSION, Board, Color, Rule  # noqa: E402
from engine.net.onnx_eval import ONNXEvaluator  # noqa: E402
from engine.train import refit, valuecheck  # noqa: E402
from engine.train.buffer import ReplayBuffer  # noqa: E402
from engine.train.config import NetConfig, RunConfig  # noqa: E402
from engine.train.learner import losses  # noqa: E402
from engine.train.model import PolicyValueNet, export_onnx  # noqa: E402
from tests.randomgames import random_game  # noqa: E402

N = 9


def game(index: int, samples: int = 5, seed: int = 0) -> dict:
    """A fake game whose samples all carry `index` as value, so games can be told apart."""
    rng = np.random.default_rng(seed + index)
    policy = rng.random((samples, N * N)).astype(np.float16)
    policy /= policy.sum(1, keepdims=True)
    return {"planes": (rng.random((samples, FEATURE_PLANES, N, N)) < 0.2).astype(np.uint8), "policy": policy,
            "value": np.full(samples, index, np.float32), "has_policy": np.ones(samples, bool)}


def test_held_out_games_are_whole_and_never_trained_on():
    buf = ReplayBuffer(100)
    for i in range(35):
        buf.add(i // 10, game(i))
    train, val = refit.split_games(buf)
    assert sorted(set(val["value"].tolist())) == [0, 10, 20, 30]
    assert set(train["value"].tolist()) == set(range(35)) - {0, 10, 20, 30}
    assert len(train["value"]) + len(val["value"]) == len(buf) == 175
    assert (val["value"] == 10).sum() == 5  # the whole game


def test_settled_weight_scales_only_the_value_only_samples():
    net = PolicyValueNet(NetConfig(channels=8, blocks=1))
    data = game(0, samples=8)
    data["has_policy"][4:] = False
    x, p, z, has_p = refit._tensors(data, np.arange(8), None)
    z = torch.where(has_p, torch.full_like(z, 0.5), torch.full_like(z, -1.0))
    moved = torch.where(has_p, z, torch.ones_like(z))  # only the value-only targets change
    assert float(losses(net, x, p, z, has_p, 0.0)[1]) == pytest.approx(
        float(losses(net, x, p, moved, has_p, 0.0)[1]))
    assert float(losses(net, x, p, z, has_p, 1.0)[1]) != pytest.approx(
        float(losses(net, x, p, moved, has_p, 1.0)[1]))
    # The policy loss ignores value-only samples whatever their (empty) policy says.
    p2 = p.clone()
    p2[4:] = 1.0 / (N * N)
    assert float(losses(net, x, p, z, has_p, 1.0)[0]) == pytest.approx(
        float(losses(net, x, p2, z, has_p, 1.0)[0]))


def test_refit_fits_the_buffer_and_exports_a_playable_net(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    cfg = RunConfig(run=str(run))
    cfg.net, cfg.play.size = NetConfig(channels=8, blocks=1), N
    (run / "config.json").write_text(cfg.to_json())
    (run / "state.json").write_text(json.dumps({"iteration": 3, "games": 40}))
    buf = ReplayBuffer(100)
    for i in range(40):
        g = game(i, samples=16)
        g["value"] = np.sign(g["value"] % 3 - 1).astype(np.float32)
        buf.add(i // 10, g)
    buf.save(run / "buffer.npz")
    out = tmp_path / "out" / "net.onnx"
    other = tmp_path / "teacher"
    other.mkdir()
    extra = ReplayBuffer(10)
    for i in range(5):
        extra.add(-1, game(100 + i, samples=16))
    extra.save(other / "buffer.npz")
    assert refit.main(["--run", str(run), "--also", str(other), "--out", str(out), "--epochs", "2",
                       "--batch", "32", "--lr", "0.01"]) == 0
    side = json.loads(out.with_suffix(".json").read_text())
    assert side["feature_version"] == FEATURE_VERSION and side["buffer_games"] == 45
    assert side["buffer_positions"] == 45 * 16 and side["also"] == [str(other)]
    assert side["source_iterations"] == 3 and side["net"]["channels"] == 8
    assert [e["epoch"] for e in side["validation"]] == [1, 2]
    assert all(0 <= e["agreement"] <= 1 and np.isfinite(e["policy_loss"]) for e in side["validation"])
    ev = ONNXEvaluator(out)
    policy, value = ev.evaluate([Board(N, Rule.RENJU)])
    assert policy.shape == (1, N * N) and -1 <= value[0] <= 1
    # A new self-play run starts from it: the same weights, the old games as older generations.
    from engine.train.run import Run

    new = RunConfig(run=str(tmp_path / "next"), init=str(out.with_suffix(".pt")))
    new.net, new.play.size = NetConfig(channels=8, blocks=1), N
    started = Run(new)
    assert started.state["trained"] and len(started.buffer.games) == 40
    assert max(g for g, _ in started.buffer.games) == -1 and min(g for g, _ in started.buffer.games) == -4
    saved = torch.load(out.with_suffix(".pt"), weights_only=False)["net"]
    assert all(torch.equal(v, saved[k]) for k, v in started.net.state_dict().items())
    assert (tmp_path / "next" / "models" / "iter0000.onnx").exists()
    assert Run(new).state["init"] == str(out.with_suffix(".pt"))  # resumed, not re-initialised
    wrong = RunConfig(run=str(tmp_path / "wrong"), init=str(out.with_suffix(".pt")))
    with pytest.raises(ValueError, match="net"):
        Run(wrong)  # a 32x3 run cannot start from an 8x1 net


def test_value_check_scores_positions_for_the_side_to_move(tmp_path):
    moves = list(random_game(random.Random(4), Rule.RENJU, 40).moves)
    results = [{"opening": [list(m) for m in moves[:3]], "moves": [[x, y, 0] for x, y in moves[3:]],
                "winner": "black"},
               {"opening": [], "moves": [[7, 7, 0]], "winner": None}]  # a draw: skipped
    planes, z = valuecheck.match_positions(results, every=2)
    assert len(z) == (len(moves) - 1) // 2
    # After an even number of stones black is to move, and black won.
    board = Board(15, Rule.RENJU)
    expected = []
    for i, (x, y) in enumerate(moves[:-1]):
        board.play(x, y)
        if (i + 1) % 2 == 0:
            expected.append(1.0 if board.to_move == Color.BLACK else -1.0)
    assert z.tolist() == expected and set(z.tolist()) == {1.0}
    # Filters: positions by stone count, games by the size of their opening.
    _, z_mid = valuecheck.match_positions(results, every=2, stones=(10, 20))
    assert len(z_mid) == sum(1 for n in range(2, len(moves), 2) if 10 <= n <= 20)
    _, z_none = valuecheck.match_positions(results, every=2, opening_stones=5)
    assert len(z_none) == 0
    # check() = the ONNX evaluator's values, summarised.
    net = PolicyValueNet(NetConfig(channels=8, blocks=1))
    path = tmp_path / "v.onnx"
    export_onnx(net, path, 15)
    got = valuecheck.check(path, planes, z)
    board = Board(15, Rule.RENJU)
    boards = []
    for i, (x, y) in enumerate(moves[:-1]):
        board.play(x, y)
        if (i + 1) % 2 == 0:
            boards.append(board.copy())
    values = ONNXEvaluator(path).evaluate(boards)[1]
    assert got.positions == len(boards)
    assert got.mean == pytest.approx(float(values.mean()), abs=1e-5)
    assert got.agreement == pytest.approx(float(np.mean(np.sign(values) == z)))
    assert got.decisive == pytest.approx(float(np.abs(values).mean()), abs=1e-5)


def test_value_check_on_a_buffer_scores_held_out_decided_games_with_their_policy(tmp_path):
    buf = ReplayBuffer(100)
    for i in range(30):
        g = game(i, samples=6)
        g["value"] = np.array([1, -1, 0, 1, -1, 1], np.float32)
        g["has_policy"][5] = False  # a value-only sample: no policy target to score
        buf.add(i, g)
    buf.save(tmp_path / "buffer.npz")
    planes, z, policy = valuecheck.buffer_positions(tmp_path / "buffer.npz", min_generation=5)
    assert len(z) == 2 * 4  # games 10 and 20 held out; the draw and the value-only sample dropped
    assert sorted(z.tolist()) == [-1.0] * 4 + [1.0] * 4
    with pytest.raises(ValueError):
        valuecheck.buffer_positions(tmp_path / "buffer.npz", min_generation=25)
    net = PolicyValueNet(NetConfig(channels=8, blocks=1))
    export_onnx(net, tmp_path / "v.onnx", N)
    got = valuecheck.check(tmp_path / "v.onnx", planes, z, policy)
    with torch.no_grad():
        logits, v = net.eval()(torch.from_numpy(planes))
    expected = -(torch.from_numpy(policy) * torch.log_softmax(logits, 1)).sum(1).mean()
    assert got.policy_loss == pytest.approx(float(expected), abs=1e-4)
    assert got.top1 == pytest.approx(float((logits.argmax(1) == torch.from_numpy(policy).argmax(1)).float().mean()))
    assert got.mse == pytest.approx(float(((v - torch.from_numpy(z)) ** 2).mean()), abs=1e-5)
