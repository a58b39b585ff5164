"""The training pipeline: symmetries, the replay buffer, the learner's KL control and loss, the
config flags, the ablation switches, export checked against torch and unfolded back, a run started
from unfolded weights, the value check, and a tiny end-to-end run whose model the engine then
loads and plays."""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from engine.board import FEATURE_PLANES, FEATURE_VERSION, PLANES_OF_VERSION, Board, Rule  # noqa: E402
from engine.native import lib  # noqa: E402
from engine.net.evaluator import HeuristicEvaluator  # noqa: E402
from engine.net.onnx_eval import ONNXEvaluator  # noqa: E402
from engine.search.mcts import MCTS, MCTSConfig  # noqa: E402
from engine.search.player import MCTSPlayer  # noqa: E402
from engine.train.config import (  # noqa: E402
    LearnConfig,
    NetConfig,
    RunConfig,
    SelfPlayConfig,  # noqa: E402
    add_arguments,
    apply_overrides,
)
from engine.train.data.augment import augment, augment_batch, transform  # noqa: E402
from engine.train.learn.learner import Learner  # noqa: E402
from engine.train.model.network import PolicyValueNet, export_onnx, verify_onnx  # noqa: E402
from engine.train.selfplay.buffer import ReplayBuffer  # noqa: E402
from engine.train.selfplay.play import play_game  # noqa: E402
from tests.randomgames import random_game  # noqa: E402


def point_map(k: int, n: int):
    """Where symmetry k sends each point, read off `transform` applied to one-hot boards."""
    out = {}
    for y in range(n):
        for x in range(n):
            a = np.zeros((n, n))
            a[y, x] = 1
            ty, tx = np.argwhere(transform(a, k))[0]
            out[(x, y)] = (int(tx), int(ty))
    return out


@pytest.mark.parametrize("k", range(8))
def test_symmetry_maps_planes_and_policy_like_the_board(k):
    """The planes of the transformed game equal the transformed planes (so the C features are
    equivariant), and a policy's mass follows its move."""
    n = 15
    rng = random.Random(k)
    board = random_game(rng, Rule.RENJU, 24)
    moves = board.moves
    pm = point_map(k, n)
    image = Board.from_moves([pm[m] for m in moves], n, Rule.RENJU)
    policy = np.zeros(n * n, dtype=np.float32)
    target = board.candidate_moves()[0]
    policy[target[1] * n + target[0]] = 1.0
    planes, p = augment(board.planes(), policy, k)
    np.testing.assert_array_equal(planes, image.planes())
    tx, ty = pm[target]
    assert p[ty * n + tx] == 1.0 and p.sum() == 1.0
    xb, pb = augment_batch(board.planes()[None], policy[None], np.array([k]))
    np.testing.assert_array_equal(xb[0], planes)
    np.testing.assert_array_equal(pb[0], p)


def test_the_eight_symmetries_are_distinct():
    a = np.arange(9).reshape(3, 3)
    assert len({transform(a, k).tobytes() for k in range(8)}) == 8


def fake_game(n_samples: int, value: float) -> dict:
    return {"planes": np.zeros((n_samples, FEATURE_PLANES, 9, 9), np.uint8),
            "policy": np.zeros((n_samples, 81), np.float16),
            "value": np.full(n_samples, value, np.float32), "has_policy": np.ones(n_samples, bool)}


def test_buffer_takes_half_from_the_newest_generation(tmp_path):
    buf = ReplayBuffer(capacity_games=100)
    for _ in range(10):
        buf.add(0, fake_game(100, 0.0))  # 1000 old samples
    buf.add(1, fake_game(50, 1.0))  # 50 new ones
    batch = buf.sample(4000, np.random.default_rng(0))
    assert (batch["value"] == 1.0).mean() == pytest.approx(0.5, abs=1e-9)
    only_new = ReplayBuffer(10)
    only_new.add(3, fake_game(5, 1.0))
    assert (only_new.sample(64, np.random.default_rng(1))["value"] == 1.0).all()
    buf.save(tmp_path / "b.npz")
    again = ReplayBuffer.load(tmp_path / "b.npz", 100)
    assert len(again) == len(buf) == 1050 and again.newest == 1


def test_buffer_drops_the_oldest_games():
    buf = ReplayBuffer(capacity_games=3)
    for g in range(5):
        buf.add(g, fake_game(2, float(g)))
    assert [g for g, _ in buf.games] == [2, 3, 4]


def batch_of(n=32, size=9, seed=0):
    rng = np.random.default_rng(seed)
    policy = rng.random((n, size * size)).astype(np.float32)
    return {"planes": (rng.random((n, FEATURE_PLANES, size, size)) < 0.3).astype(np.uint8),
            "policy": (policy / policy.sum(1, keepdims=True)).astype(np.float16),
            "value": rng.choice([-1.0, 1.0], n).astype(np.float32), "has_policy": np.ones(n, bool)}


def test_learner_shrinks_the_rate_when_the_policy_moves_too_far_and_grows_it_when_not():
    torch.manual_seed(0)
    strict = Learner(PolicyValueNet(NetConfig(channels=8, blocks=1)), LearnConfig(lr=0.05, kl_target=1e-7))
    s = strict.step(batch_of(), np.random.default_rng(0))
    assert strict.lr_mult < 1.0 and s.epochs == 1  # stopped after the first pass
    loose = Learner(PolicyValueNet(NetConfig(channels=8, blocks=1)), LearnConfig(lr=1e-6, kl_target=10.0))
    s = loose.step(batch_of(), np.random.default_rng(0))
    assert loose.lr_mult > 1.0 and s.epochs == LearnConfig().epochs_per_batch


def test_learner_rate_multiplier_stops_at_its_cap():
    learner = Learner(PolicyValueNet(NetConfig(channels=8, blocks=1)),
                      LearnConfig(lr=1e-6, kl_target=10.0, lr_mult_max=2.0, epochs_per_batch=1))
    for i in range(5):  # KL far below target every step: 1.5, 2.0 (capped), 2.0, ...
        s = learner.step(batch_of(), np.random.default_rng(i))
    assert learner.lr_mult == 2.0 and s.lr == pytest.approx(2e-6)


def test_learner_fits_a_batch():
    torch.manual_seed(0)
    learner = Learner(PolicyValueNet(NetConfig(channels=8, blocks=1)), LearnConfig(lr=3e-3, kl_target=10.0))
    batch = batch_of(n=16)
    first = learner.step(batch, np.random.default_rng(0)).loss
    for i in range(30):
        last = learner.step(batch, np.random.default_rng(i)).loss
    assert last < first


def test_settled_weight_scales_only_the_value_only_samples():
    from engine.train.learn.learner import losses

    torch.manual_seed(0)
    net = PolicyValueNet(NetConfig(channels=8, blocks=1))
    data = batch_of(n=8, size=9)
    data["has_policy"][4:] = False
    x, p = torch.from_numpy(data["planes"].astype(np.float32)), torch.from_numpy(data["policy"].astype(np.float32))
    has_p = torch.from_numpy(data["has_policy"])
    z = torch.where(has_p, torch.full((8,), 0.5), torch.full((8,), -1.0))
    moved = torch.where(has_p, z, torch.ones_like(z))  # only the value-only targets change
    p2 = p.clone()
    p2[4:] = 1.0 / 81
    with torch.no_grad():
        def loss(part, policy, values, weight):
            return float(losses(net, x, policy, values, has_p, weight)[part])

        assert loss(1, p, z, 0.0) == pytest.approx(loss(1, p, moved, 0.0))
        assert loss(1, p, z, 1.0) != pytest.approx(loss(1, p, moved, 1.0))
        # The policy loss ignores value-only samples whatever their (empty) policy says.
        assert loss(0, p, z, 1.0) == pytest.approx(loss(0, p2, z, 1.0))


def test_config_flags_override_nested_fields():
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    cfg = apply_overrides(RunConfig(), parser.parse_args(["--no-utss", "--channels", "8", "--games", "3"]))
    assert cfg.play.utss is False and cfg.net.channels == 8 and cfg.games == 3
    assert cfg.play.move_filter is True  # untouched
    assert RunConfig.from_dict(json.loads(cfg.to_json())) == cfg


def test_without_threat_planes_the_net_ignores_them():
    torch.manual_seed(0)
    net = PolicyValueNet(NetConfig(channels=8, blocks=1, threat_planes=False)).eval()
    x = (torch.rand(2, FEATURE_PLANES, 9, 9) < 0.3).float()
    y = x.clone()
    y[:, 4:] = 1 - y[:, 4:]
    with torch.no_grad():
        assert torch.allclose(net(x)[0], net(y)[0]) and torch.allclose(net(x)[1], net(y)[1])
        y[:, 0] = 1 - y[:, 0]
        assert not torch.allclose(net(x)[0], net(y)[0])


def test_without_the_move_filter_the_root_has_every_legal_move():
    board = Board.from_moves([(7, 7), (8, 8), (7, 8)])
    m = MCTS(HeuristicEvaluator(), MCTSConfig(move_filter=False))
    m.search(board, float("inf"), float("inf"), max_playouts=8)
    assert sorted(m.root.moves) == sorted(board.legal_moves())
    f = MCTS(HeuristicEvaluator(), MCTSConfig())
    f.search(board, float("inf"), float("inf"), max_playouts=8)
    assert len(f.root.moves) < len(m.root.moves)


def test_without_utss_the_prover_is_never_asked(monkeypatch):
    """Neither the tree's leaf proofs (counted in C) nor the root's VCF and checks (Python)."""
    board = Board.from_moves([(7, 7), (8, 8), (7, 8), (9, 9), (6, 6), (10, 10)])

    def leaf_proofs(m):
        return sum(lib.rj_tree_utss_calls(m._tree, p) for p in range(lib.RJ_TREE_PLY_STATS))

    m = MCTS(HeuristicEvaluator(), MCTSConfig(utss=False))
    calls = []
    monkeypatch.setattr(m.prover, "solve", lambda *a, **k: calls.append(1))
    m.search(board, float("inf"), float("inf"), max_playouts=64)
    assert not calls and leaf_proofs(m) == 0
    with_utss = MCTS(HeuristicEvaluator(), MCTSConfig())
    unknown = type("P", (), {"result": "unknown"})
    monkeypatch.setattr(with_utss.prover, "solve", lambda *a, **k: calls.append(1) or unknown)
    with_utss.search(board, float("inf"), float("inf"), max_playouts=64)
    assert calls and leaf_proofs(with_utss) > 0


def test_root_noise_changes_the_priors_once():
    board = Board.from_moves([(7, 7), (8, 8)])
    m = MCTS(HeuristicEvaluator(), MCTSConfig(dirichlet_alpha=0.3), seed=1)
    plain = MCTS(HeuristicEvaluator(), MCTSConfig())
    m.search(board, float("inf"), float("inf"), max_playouts=1)
    plain.search(board, float("inf"), float("inf"), max_playouts=1)
    assert not np.allclose(m.root.priors, plain.root.priors)
    assert m.root.priors.sum() == pytest.approx(1.0, abs=1e-5)


def test_selfplay_game_records_targets():
    cfg = SelfPlayConfig(size=9, playouts=24, max_moves=40)
    rec = play_game(HeuristicEvaluator(), cfg, seed=3)
    a = rec.arrays()
    n = len(a["value"])
    assert n > 0 and a["planes"].shape == (n, FEATURE_PLANES, 9, 9)
    pol = a["policy"][a["has_policy"]].astype(np.float32)
    np.testing.assert_allclose(pol.sum(1), 1.0, atol=1e-2)
    # targets only on empty points: planes 0 and 1 hold the stones
    stones = a["planes"][a["has_policy"]][:, :2].sum(1).reshape(len(pol), -1)
    assert (pol[stones > 0] == 0).all()
    assert set(np.unique(a["value"])) <= {-1.0, 0.0, 1.0}
    if rec.winner:  # the winner's samples carry +1 (unless proven otherwise, which agrees)
        movers = np.array(rec.movers)
        assert (a["value"][(movers == rec.winner) & np.isnan(rec.exact)] == 1.0).all()

def test_selfplay_can_start_from_a_set_of_openings(tmp_path):
    from engine.match.openings import renju26

    book = renju26()
    starts, varied = set(), 0
    for seed in range(8):
        cfg = SelfPlayConfig(playouts=8, max_moves=8, openings="renju26", opening_vary=0.5)
        rec = play_game(HeuristicEvaluator(), cfg, seed=seed)
        # a standard opening, alone or with two more stones, then the search's moves
        assert any(rec.moves[:len(o)] == list(o) for o in book)
        assert rec.opening in (3, 5)
        varied += rec.opening == 5
        starts.add(tuple(rec.moves[:rec.opening]))
    assert len(starts) >= 3
    assert 0 < varied < 8
    # a file of openings, with a line that does not fit a 9x9 board: that one is skipped
    f = tmp_path / "book.txt"
    f.write_text("m12 m13 n11\n# the centre of 9x9 and two stones near it\ne5 e6 f4\n")
    for seed in range(3):
        rec = play_game(HeuristicEvaluator(), SelfPlayConfig(size=9, playouts=8, max_moves=6,
                                                             openings=str(f), opening_vary=0.0), seed=seed)
        assert rec.moves[:3] == [(4, 4), (4, 5), (5, 3)]


def test_export_matches_torch_and_carries_the_feature_version(tmp_path):
    torch.manual_seed(0)
    net = PolicyValueNet(NetConfig(channels=8, blocks=1))
    path = tmp_path / "m.onnx"
    export_onnx(net, path, 9, {"channels": 8})
    assert verify_onnx(net, path, 9) < 1e-4
    assert verify_onnx(net, path, 15) < 1e-4  # board size is a dynamic axis
    ev = ONNXEvaluator(path)
    assert ev.metadata["feature_version"] == str(FEATURE_VERSION) and ev.metadata["channels"] == "8"
    board = Board.from_moves([(4, 4), (5, 5)], 9)
    logits, values = ev.evaluate([board])
    with torch.no_grad():
        p, v = net.eval()(torch.from_numpy(board.planes()[None]))
    np.testing.assert_allclose(logits[0], p[0].numpy(), atol=1e-4)
    assert values[0] == pytest.approx(float(v[0]), abs=1e-4)


def test_a_widened_net_gives_the_old_nets_outputs_and_exports_its_version(tmp_path):
    """A net of feature version 1 (7 planes) reads the first planes of today's; widened to
    today's planes with zero weights it answers exactly as before, and each exports its own
    version."""
    from engine.train.model.network import widen_input

    torch.manual_seed(4)
    old = PolicyValueNet(NetConfig(channels=8, blocks=1, planes=PLANES_OF_VERSION[1])).eval()
    wide = widen_input(old, FEATURE_PLANES)
    assert wide.cfg.planes == FEATURE_PLANES and wide.stem[0].weight.shape[1] == FEATURE_PLANES
    rng = random.Random(1)
    x = torch.from_numpy(np.stack([random_game(rng, Rule.RENJU, 8 + i, size=9).planes() for i in range(6)]))
    assert x[:, PLANES_OF_VERSION[1]:].any()
    with torch.no_grad():
        for a, b in zip(old(x), wide(x)):
            assert torch.equal(a, b)
    for net, version in ((old, 1), (wide, FEATURE_VERSION)):
        path = tmp_path / f"v{version}.onnx"
        export_onnx(net, path, 9)
        ev = ONNXEvaluator(path)
        assert ev.metadata["feature_version"] == str(version) and ev.planes == PLANES_OF_VERSION[version]
        np.testing.assert_allclose(ev.evaluate_planes(x.numpy())[1], wide(x)[1].detach().numpy(), atol=1e-4)
    with pytest.raises(ValueError):
        widen_input(wide, PLANES_OF_VERSION[1])


def test_an_exported_net_unfolds_into_the_same_trainable_net(tmp_path):
    """BatchNorms folded into the convolutions by the export come back as BatchNorms that leave
    the eval-mode outputs unchanged and keep train mode (batch statistics) close to them."""
    from engine.train.model.unfold import onnx_weights, unfold

    torch.manual_seed(3)
    net = PolicyValueNet(NetConfig(channels=8, blocks=2))
    with torch.no_grad():  # BatchNorms that are far from the identity
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-1, 1), m.running_var.uniform_(0.5, 2)
                m.weight.uniform_(0.5, 1.5), m.bias.uniform_(-0.5, 0.5)
    path = tmp_path / "m.onnx"
    export_onnx(net.eval(), path, 9, {"channels": 8, "blocks": 2})
    assert onnx_weights(path)[2] == NetConfig(channels=8, blocks=2)
    rng = random.Random(0)
    planes = np.stack([random_game(rng, Rule.RENJU, 6 + i % 20, size=9).planes() for i in range(64)])
    back = unfold(path, planes)
    x = torch.from_numpy(planes.astype(np.float32))
    with torch.no_grad():
        p0, v0 = net.eval()(x)
        p1, v1 = back.eval()(x)
        p2, v2 = back.train()(x)
    np.testing.assert_allclose(p1.numpy(), p0.numpy(), atol=1e-4)
    np.testing.assert_allclose(v1.numpy(), v0.numpy(), atol=1e-4)
    assert float((p2 - p1).abs().mean()) < 0.1 * float(p1.abs().mean())  # the calibration positions' own statistics
    assert verify_onnx(back, path, 9) < 1e-4


def test_a_run_starts_from_an_unfolded_net_with_its_source_runs_games(tmp_path):
    """unfold writes torch weights naming the run whose positions calibrated them; a new run with
    `init` starts from those weights, that run's games as older generations."""
    from engine.train.model import unfold
    from engine.train.selfplay.run import Run

    source = tmp_path / "source"
    source.mkdir()
    cfg = RunConfig(run=str(source))
    cfg.net, cfg.play.size = NetConfig(channels=8, blocks=1), 9
    (source / "config.json").write_text(cfg.to_json())
    buf = ReplayBuffer(100)
    rng = random.Random(1)
    for g in range(4):
        planes = np.stack([random_game(rng, Rule.RENJU, 4 + i, size=9).planes() for i in range(8)]).astype(np.uint8)
        buf.add(g, {"planes": planes, "policy": np.full((8, 81), 1 / 81, np.float16),
                    "value": np.zeros(8, np.float32), "has_policy": np.ones(8, bool)})
    buf.save(source / "buffer.npz")
    torch.manual_seed(0)
    net = PolicyValueNet(cfg.net)
    with torch.no_grad():  # a trained net's BatchNorms (a fresh net's equal biases are exported as one)
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-1, 1), m.running_var.uniform_(0.5, 2), m.bias.uniform_(-0.5, 0.5)
    export_onnx(net, tmp_path / "net.onnx", 9)
    pt = tmp_path / "net.pt"
    assert unfold.main([str(tmp_path / "net.onnx"), "--run", str(source), "--out", str(pt), "--positions", "32"]) == 0
    new = RunConfig(run=str(tmp_path / "next"), init=str(pt))
    new.net, new.play.size = NetConfig(channels=8, blocks=1), 9
    started = Run(new)
    assert started.state["trained"] and len(started.buffer.games) == 4
    assert [g for g, _ in started.buffer.games] == [-4, -3, -2, -1]  # below this run's own generations
    saved = torch.load(pt, weights_only=False)["net"]
    assert all(torch.equal(v, saved[k]) for k, v in started.net.state_dict().items())
    assert verify_onnx(started.net, tmp_path / "next" / "models" / "iter0000.onnx", 9) < 1e-4
    assert Run(new).state["init"] == str(pt)  # resumed, not started again
    wrong = RunConfig(run=str(tmp_path / "wrong"), init=str(pt))
    with pytest.raises(ValueError, match="net"):
        Run(wrong)  # a 32x3 run cannot start from an 8x1 net


def test_value_check_scores_positions_for_the_side_to_move(tmp_path):
    from engine.board import Color
    from engine.train.measure import valuecheck

    moves = list(random_game(random.Random(4), Rule.RENJU, 40).moves)
    results = [{"opening": [list(m) for m in moves[:3]], "moves": [[x, y, 0] for x, y in moves[3:]],
                "winner": "black"},
               {"opening": [], "moves": [[7, 7, 0]], "winner": None}]  # a draw: skipped
    planes, z = valuecheck.match_positions(results, every=2)
    assert len(z) == (len(moves) - 1) // 2
    # After an even number of stones black is to move, and black won.
    board = Board(15, Rule.RENJU)
    expected, boards = [], []
    for i, (x, y) in enumerate(moves[:-1]):
        board.play(x, y)
        if (i + 1) % 2 == 0:
            expected.append(1.0 if board.to_move == Color.BLACK else -1.0)
            boards.append(board.copy())
    assert z.tolist() == expected and set(z.tolist()) == {1.0}
    # Filters: positions by stone count, games by the size of their opening.
    _, z_mid = valuecheck.match_positions(results, every=2, stones=(10, 20))
    assert len(z_mid) == sum(1 for n in range(2, len(moves), 2) if 10 <= n <= 20)
    _, z_none = valuecheck.match_positions(results, every=2, opening_stones=5)
    assert len(z_none) == 0
    # check() = the ONNX evaluator's values, summarised.
    torch.manual_seed(0)
    path = tmp_path / "v.onnx"
    export_onnx(PolicyValueNet(NetConfig(channels=8, blocks=1)), path, 15)
    got = valuecheck.check(path, planes, z)
    values = ONNXEvaluator(path).evaluate(boards)[1]
    assert got.positions == len(boards)
    assert got.mean == pytest.approx(float(values.mean()), abs=1e-5)
    assert got.agreement == pytest.approx(float(np.mean(np.sign(values) == z)))
    assert got.decisive == pytest.approx(float(np.abs(values).mean()), abs=1e-5)


def test_value_check_on_a_buffer_scores_held_out_decided_games_with_their_policy(tmp_path):
    from engine.train.measure import valuecheck

    rng = np.random.default_rng(0)
    buf = ReplayBuffer(100)
    for i in range(30):
        policy = rng.random((6, 81)).astype(np.float16)
        buf.add(i, {"planes": (rng.random((6, FEATURE_PLANES, 9, 9)) < 0.2).astype(np.uint8),
                    "policy": policy / policy.sum(1, keepdims=True),
                    "value": np.array([1, -1, 0, 1, -1, 1], np.float32),
                    "has_policy": np.array([True] * 5 + [False])})  # the last: a value-only sample
    buf.save(tmp_path / "buffer.npz")
    planes, z, policy = valuecheck.buffer_positions(tmp_path / "buffer.npz", min_generation=5)
    assert len(z) == 2 * 4  # games 10 and 20 held out; the draw and the value-only sample dropped
    assert sorted(z.tolist()) == [-1.0] * 4 + [1.0] * 4
    with pytest.raises(ValueError):
        valuecheck.buffer_positions(tmp_path / "buffer.npz", min_generation=25)
    torch.manual_seed(0)
    net = PolicyValueNet(NetConfig(channels=8, blocks=1))
    export_onnx(net, tmp_path / "v.onnx", 9)
    got = valuecheck.check(tmp_path / "v.onnx", planes, z, policy)
    with torch.no_grad():
        logits, v = net.eval()(torch.from_numpy(planes))
    expected = -(torch.from_numpy(policy) * torch.log_softmax(logits, 1)).sum(1).mean()
    assert got.policy_loss == pytest.approx(float(expected), abs=1e-4)
    assert got.top1 == pytest.approx(float((logits.argmax(1) == torch.from_numpy(policy).argmax(1)).float().mean()))
    assert got.mse == pytest.approx(float(((v - torch.from_numpy(z)) ** 2).mean()), abs=1e-5)


def test_a_time_budget_cuts_self_play_and_stops_the_run(tmp_path):
    from engine.train.selfplay.run import Run

    def run(name: str, budget_s: float) -> Run:
        cfg = RunConfig(run=str(tmp_path / name), iterations=2, games=3, workers=1, inference="local",
                        budget_s=budget_s)
        cfg.net = NetConfig(channels=8, blocks=1)
        cfg.play = SelfPlayConfig(size=9, playouts=8, max_moves=12)
        cfg.learn = LearnConfig(batch=8, steps=6)
        r = Run(cfg)
        r.loop()
        return r

    # Over before the first game ends: that game is kept, the other two abandoned, the generation
    # gets a third of the updates, and no second iteration starts.
    short = run("short", 1e-3)
    assert (short.state["iteration"], short.state["games"], short.state["steps"]) == (1, 1, 2)
    entry = json.loads((tmp_path / "short" / "log.jsonl").read_text())
    assert entry["selfplay"]["games"] == 1 and entry["selfplay"]["planned"] == 3
    assert json.loads((tmp_path / "short" / "state.json").read_text())["games"] == 1
    # A budget with room: every game of both iterations, every update.
    roomy = run("roomy", 3600)
    assert (roomy.state["iteration"], roomy.state["games"], roomy.state["steps"]) == (2, 6, 12)


def test_tiny_end_to_end_run_resumes_and_the_engine_plays_its_model(tmp_path):
    run_dir = tmp_path / "run"
    base = [sys.executable, "-m", "engine.train", "--run", str(run_dir), "--games", "2", "--playouts", "12",
            "--steps", "1", "--batch", "16", "--workers", "1", "--size", "9", "--channels", "8", "--blocks", "1",
            "--max-moves", "30"]
    subprocess.run(base + ["--iterations", "1"], check=True, timeout=300, capture_output=True)
    state = json.loads((run_dir / "state.json").read_text())
    assert state["iteration"] == 1 and state["games"] == 2 and state["steps"] == 1
    subprocess.run(base + ["--iterations", "2"], check=True, timeout=300, capture_output=True)
    state = json.loads((run_dir / "state.json").read_text())
    assert state["iteration"] == 2 and state["games"] == 4 and state["steps"] == 2
    log = [json.loads(line) for line in (run_dir / "log.jsonl").read_text().splitlines()]
    assert [e["iteration"] for e in log] == [0, 1]
    assert log[0]["selfplay"]["evaluator"] == "heuristic" and log[1]["selfplay"]["evaluator"] == "net"
    assert (run_dir / "report.md").exists() and (run_dir / "report.png").stat().st_size > 1000
    assert sorted(p.name for p in (run_dir / "models").iterdir()) == ["iter0001.onnx", "iter0002.onnx"]
    sidecar = json.loads((run_dir / "model.json").read_text())
    assert sidecar["feature_version"] == FEATURE_VERSION and sidecar["selfplay_games"] == 4
    # the engine loads the model (no fallback message) and plays a legal move through the protocol
    player = MCTSPlayer(model=str(run_dir / "model.onnx"))
    assert player.load_message is None and player.mcts.ev.name == "onnx"
    script = "START 9\nINFO timeout_turn 300\nINFO rule 4\nBEGIN\nTURN 5,5\nEND\n"
    out = subprocess.run([sys.executable, "-m", "engine", "--player", "mcts", "--model", str(run_dir / "model.onnx")],
                         input=script, capture_output=True, text=True, timeout=60)
    lines = [ln for ln in out.stdout.splitlines() if not ln.startswith("MESSAGE")]
    assert lines[0] == "OK"
    moves = [tuple(map(int, ln.split(","))) for ln in lines[1:]]
    assert len(moves) == 2 and moves[0] != (5, 5) and len(set(moves)) == 2
    assert "heuristic" not in out.stdout


def test_teacher_games_give_one_hot_policies_on_legal_points():
    from engine.train.selfplay.bootstrap import teacher_game

    rec = teacher_game((SelfPlayConfig(size=9, max_moves=40), 5, 5))
    a = rec.arrays()
    assert len(a["value"]) > 0 and a["has_policy"].all()
    pol = a["policy"].astype(np.float32)
    assert (pol.max(1) == 1.0).all() and (pol.sum(1) == 1.0).all()
    stones = a["planes"][:, :2].sum(1).reshape(len(pol), -1)
    assert (pol[stones > 0] == 0).all()  # never a target on an occupied point
    board = Board(9, Rule.RENJU)
    for m in rec.moves:  # the game itself is legal throughout
        assert board.is_legal(*m)
        board.play(*m)


def test_rating_over_training_scores_saved_nets(tmp_path):
    from engine.train.measure.rate import rate

    torch.manual_seed(0)
    (tmp_path / "models").mkdir()
    for it in (1, 2):
        export_onnx(PolicyValueNet(NetConfig(channels=8, blocks=1)), tmp_path / "models" / f"iter{it:04d}.onnx", 15)
    ratings = rate(tmp_path, every=2, games=2, ms=20, opponents=["random"], workers=1)
    assert set(ratings) == {"2"}  # every 2nd iteration, the last included
    r = ratings["2"]["random@20ms"]
    assert r["games"] == 2 and 0.0 <= r["score"] <= 1.0
    assert json.loads((tmp_path / "ratings.json").read_text()) == ratings


def test_selfplay_through_the_inference_server_matches_the_local_net(tmp_path):
    """The server (torch, batching all workers) answers like the exported net would."""
    import multiprocessing as mp
    import threading

    from engine.train.selfplay.inference import RemoteEvaluator, serve

    torch.manual_seed(0)
    cfg = NetConfig(channels=8, blocks=1)
    net = PolicyValueNet(cfg).eval()
    export_onnx(net, tmp_path / "m.onnx", 9)
    requests, responses, stop = mp.Queue(), [mp.Queue(), mp.Queue()], threading.Event()
    server = threading.Thread(target=serve, args=(net.state_dict(), cfg, "cpu", requests, responses, stop))
    server.start()
    try:
        boards = [Board.from_moves([(4, 4), (5, 5)], 9), Board.from_moves([(4, 4)], 9)]
        remote = [RemoteEvaluator(w, requests, responses[w]) for w in (0, 1)]
        local = ONNXEvaluator(tmp_path / "m.onnx")
        for w, board in enumerate(boards):
            lr, vr = remote[w].evaluate([board, board])
            ll, vl = local.evaluate([board, board])
            np.testing.assert_allclose(lr, ll, atol=1e-4)
            np.testing.assert_allclose(vr, vl, atol=1e-4)
    finally:
        stop.set()
        server.join(5)


def test_tiny_run_with_the_inference_server(tmp_path):
    run_dir = tmp_path / "run"
    subprocess.run([sys.executable, "-m", "engine.train", "--run", str(run_dir), "--games", "2", "--playouts", "8",
                    "--steps", "1", "--batch", "16", "--workers", "2", "--size", "9", "--channels", "8",
                    "--blocks", "1", "--max-moves", "20", "--iterations", "2", "--inference", "server"],
                   check=True, timeout=300, capture_output=True)
    log = [json.loads(line) for line in (run_dir / "log.jsonl").read_text().splitlines()]
    assert log[1]["selfplay"]["evaluator"] == "net-server" and log[1]["selfplay"]["games"] == 2
    # Cut by a budget: the workers and their server are stopped mid-game, and the run ends cleanly.
    subprocess.run([sys.executable, "-m", "engine.train", "--run", str(run_dir), "--games", "4", "--playouts", "8",
                    "--steps", "2", "--batch", "16", "--workers", "2", "--size", "9", "--max-moves", "20",
                    "--iterations", "4", "--inference", "server", "--budget-s", "0.001"],
                   check=True, timeout=300, capture_output=True)
    log = [json.loads(line) for line in (run_dir / "log.jsonl").read_text().splitlines()]
    assert len(log) == 3 and log[2]["selfplay"]["evaluator"] == "net-server"
    assert (log[2]["selfplay"]["games"], log[2]["selfplay"]["planned"]) == (1, 4)


def test_ablation_summary_and_table_compare_variants_with_the_full_method():
    from engine.train.measure.ablate import summary_from_log, table, variant_config

    def entry(loss, lengths, branching):
        return {"train": {"loss": loss, "policy_loss": loss - 0.5, "value_loss": 0.5},
                "selfplay": {"lengths": lengths, "branching": branching}}

    full = summary_from_log([entry(3.0, [10, 10], 20.0), entry(2.0, [20, 30], 10.0), entry(1.0, [30, 50], 6.0)])
    assert full["mean_loss"] == pytest.approx(2.0)
    assert full["policy_loss"] == pytest.approx(0.5)
    assert full["length"] == pytest.approx(40.0) and full["length_sd"] == pytest.approx(10.0)  # the last third
    assert full["branching"] == pytest.approx(6.0)
    worse = summary_from_log([entry(3.0, [60], 9.0)])
    full["score"], worse["score"] = {"alphabeta": 0.25}, {"alphabeta": 0.0}
    text = table({"full method": full, "no UTSS": worse}, ["alphabeta"], 4)
    rows = text.splitlines()
    assert len(rows) == 4 and "score vs alphabeta (4 games)" in rows[0]
    assert "2.000 (+0%)" in rows[2] and "3.000 (+50%)" in rows[3] and rows[3].endswith("| 0.00 |")
    cfg = variant_config(RunConfig(), "no threat planes", Path("out"))
    assert cfg.net.threat_planes is False and cfg.play.utss and cfg.run.endswith("no-threat-planes")


def test_ablation_plot_draws_every_variant(tmp_path):
    from engine.train.measure.ablate import plot

    for name in ("full-method", "no-UTSS"):
        (tmp_path / name).mkdir()
        lines = [json.dumps({"iteration": i, "train": {"loss": 3.0 - i}, "selfplay": {"games": 4, "mean_length": 30 + i,
                                                                                       "branching": 50}})
                 for i in range(3)]
        (tmp_path / name / "log.jsonl").write_text("\n".join(lines) + "\n")
    path = plot(tmp_path, ["full method", "no UTSS"])
    assert path.exists() and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000


def test_int8_quantisation_keeps_the_metadata_and_the_answers(tmp_path):
    import onnx

    from engine.train.model.quantize import compare, main, sample_positions

    torch.manual_seed(0)
    net = PolicyValueNet(NetConfig(channels=8, blocks=1))
    src, out = tmp_path / "m.onnx", tmp_path / "m-int8.onnx"
    export_onnx(net, src, 15, {"channels": 8})
    positions = sample_positions(48, seed=3)
    assert positions.shape == (48, FEATURE_PLANES, 15, 15) and positions[:, :2].sum() > 0
    assert main([str(src), "--out", str(out), "--calibration", "32", "--test", "16"]) == 0
    sidecar = json.loads(out.with_suffix(".json").read_text())
    assert sidecar["source"] == "m.onnx" and sidecar["feature_version"] == FEATURE_VERSION
    assert any(n.op_type == "QuantizeLinear" for n in onnx.load(str(out)).graph.node)
    ev = ONNXEvaluator(out)  # the engine loads it: the feature version came along
    assert ev.metadata["channels"] == "8" and "int8" in ev.metadata["quantized"]
    report = compare(src, out, positions[32:], batch=4)
    assert report["value_mae"] < 0.05 and report["top1_agreement"] >= 0.5


def test_a_shipped_net_unfolds_on_match_games_where_no_run_is_at_hand(tmp_path):
    """`unfold --matches` calibrates on the positions of match games: the weights equal the ONNX
    net in eval mode, name no source run, and start a run (which then imports no older games)."""
    from engine.train.model import unfold
    from engine.train.model.network import load_weights
    from engine.train.selfplay.run import Run

    torch.manual_seed(4)
    net = PolicyValueNet(NetConfig(channels=8, blocks=1))
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-1, 1), m.running_var.uniform_(0.5, 2), m.bias.uniform_(-0.5, 0.5)
    export_onnx(net.eval(), tmp_path / "net.onnx", 15)
    rng = random.Random(2)
    games = []
    for g in range(3):
        moves = [[x, y] for x, y in random_game(rng, Rule.RENJU, 20 + g).moves]
        games.append({"black": "a", "white": "b", "opening": moves[:3], "moves": moves[3:], "winner": None})
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "results.json").write_text(json.dumps(games))
    pt = tmp_path / "net.pt"
    assert unfold.main([str(tmp_path / "net.onnx"), "--matches", str(tmp_path / "*" / "results.json"),
                        "--out", str(pt)]) == 0
    back = load_weights(pt)
    assert verify_onnx(back, tmp_path / "net.onnx", 15) < 1e-4
    assert torch.load(pt, weights_only=False)["source_run"] is None
    cfg = RunConfig(run=str(tmp_path / "next"), init=str(pt))
    cfg.net = NetConfig(channels=8, blocks=1)
    started = Run(cfg)
    assert started.state["trained"] and not started.buffer.games
    assert unfold.main([str(tmp_path / "net.onnx"), "--matches", str(tmp_path / "none*.json"),
                        "--out", str(tmp_path / "no.pt")]) == 2
    assert not (tmp_path / "no.pt").exists()
