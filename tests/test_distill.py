"""Distillation (engine.train.learn.distill): the teacher's targets are the mean over the 8 symmetries
(so they turn with the board), fitting moves a student towards them, and search targets replace
the teacher's at their positions."""
from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from engine.board import FEATURE_PLANES, FEATURE_VERSION, PLANES_OF_VERSION, Board, Rule  # noqa: E402
from engine.board.symmetry import transform  # noqa: E402
from engine.train.config import NetConfig  # noqa: E402
from engine.train.learn import distill  # noqa: E402
from engine.train.model.network import PolicyValueNet, export_onnx  # noqa: E402
from engine.train.selfplay.buffer import ReplayBuffer  # noqa: E402

N = 9


def _teacher(tmp_path, seed: int = 3):
    torch.manual_seed(seed)
    net = PolicyValueNet(NetConfig(channels=8, blocks=1)).eval()
    with torch.no_grad():  # a decided teacher: far from the uniform policy a fresh student starts at
        net.policy.weight.mul_(30.0)
    path = tmp_path / "teacher.onnx"
    export_onnx(net, path, N)
    return path


def _planes(count: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.random((count, FEATURE_PLANES, N, N)) < 0.15).astype(np.uint8)


def test_the_targets_are_the_mean_over_the_symmetries_and_turn_with_the_board(tmp_path):
    teacher = _teacher(tmp_path)
    planes = _planes(6)
    policy, value = distill.ensemble_targets(teacher, planes)
    assert policy.shape == (6, N * N) and np.allclose(policy.sum(1), 1.0, atol=1e-5)
    for k in (1, 4, 6):
        turned_p, turned_v = distill.ensemble_targets(teacher, np.ascontiguousarray(transform(planes, k)))
        assert np.allclose(turned_v, value, atol=1e-5)
        assert np.allclose(turned_p, transform(policy.reshape(6, N, N), k).reshape(6, N * N), atol=1e-5)
    # An untrained net is not symmetric: the mean differs from the identity's own answer.
    import onnxruntime as ort

    sess = ort.InferenceSession(str(teacher), providers=["CPUExecutionProvider"])
    _, v0 = sess.run(None, {sess.get_inputs()[0].name: planes.astype(np.float32)})
    assert not np.allclose(v0.reshape(-1), value, atol=1e-4)


def test_fitting_brings_a_student_closer_to_the_targets(tmp_path):
    teacher = _teacher(tmp_path)
    planes = _planes(96, seed=1)
    policy, value = distill.ensemble_targets(teacher, planes)
    torch.manual_seed(11)
    student = PolicyValueNet(NetConfig(channels=8, blocks=1))
    z = np.sign(np.random.default_rng(2).standard_normal(96)).astype(np.float32)
    held = np.zeros(96, bool)
    held[:16] = True
    history = distill.distill(student, planes, policy, value, z, held, epochs=10, batch=16, lr=5e-3)
    assert [h["epoch"] for h in history] == list(range(11))
    assert history[-1]["kl"] < 0.8 * history[0]["kl"]
    assert history[-1]["value_mse"] < history[0]["value_mse"]


def test_positions_come_grouped_by_game_with_match_games_once(tmp_path):
    buf = ReplayBuffer(10)
    rng = np.random.default_rng(0)
    for g, n in enumerate((3, 4)):
        buf.add(g, {"planes": (rng.random((n, FEATURE_PLANES, 15, 15)) < 0.1).astype(np.uint8),
                    "policy": np.zeros((n, 225), np.float16), "value": np.ones(n, np.float32),
                    "has_policy": np.ones(n, bool)})
    buf.save(tmp_path / "buffer.npz")
    moves = [[7, 7], [7, 8], [8, 8], [6, 6], [9, 9], [5, 5]]
    game = {"black": "a", "white": "b", "opening": [m + [0] for m in moves[:3]],
            "moves": [m + [0] for m in moves[3:]], "winner": "black", "reason": "resign"}
    (tmp_path / "results.json").write_text(json.dumps([game, game]))
    pos = distill.gather([str(tmp_path / "buffer.npz")], [str(tmp_path / "results.json")])
    assert pos.group.tolist() == [0] * 3 + [1] * 4 + [2] * 3  # the repeated game once, 3 positions
    board = Board.from_moves([tuple(m) for m in moves[:3]], rule=Rule.RENJU)
    first = np.zeros((FEATURE_PLANES, 15, 15), np.float32)
    board.planes(first)
    assert np.array_equal(pos.planes[7], first.astype(np.uint8))
    assert pos.z[7:].tolist() == [-1.0, 1.0, -1.0]  # white to move after the opening, black won


def test_search_positions_map_onto_the_gathered_ones_and_the_rest_are_added():
    planes = _planes(5, seed=4)
    pos = distill.Positions(planes, np.array([1, -1, 0, 1, -1], np.float32), np.array([0, 0, 1, 1, 2]),
                            np.zeros(5, bool))
    extra = _planes(2, seed=5)
    given = np.concatenate([planes[[3]], extra, planes[[0]]])
    out, where = distill.add_positions(pos, given, np.array([1, -1, 1, 1], np.float32), np.array([0, 7, 7, 0]))
    assert where.tolist() == [3, 5, 6, 0]
    assert len(out.z) == 7 and np.array_equal(out.planes[5:], extra)
    assert out.group[5:].tolist() == [10, 10]  # the given games' groups come after the gathered ones
    assert out.z[5:].tolist() == [-1, 1]
    assert not out.recorded.any()  # searched positions are not records'

    policy = np.full((7, 4), 0.25, np.float32)
    value = np.zeros(7, np.float32)
    search_policy = np.tile(np.array([1, 0, 0, 0], np.float32), (4, 1))
    distill.blend_targets(policy, value, where, search_policy, np.array([1, -1, 1, 0.5], np.float32), 0.5, 1.0)
    assert np.allclose(policy[3], [0.625, 0.125, 0.125, 0.125]) and np.allclose(policy[1], 0.25)
    assert value.tolist() == [0.5, 0, 0, 1, 0, -1, 1]
    # a search that gave no value at a position (NaN) leaves its value; its policy still blends
    value[:] = 0.25
    distill.blend_targets(policy, value, where, search_policy, np.array([np.nan, -1, 1, np.nan], np.float32), 1.0, 0.5)
    assert np.allclose(value, [0.25, 0.25, 0.25, 0.25, 0.25, -0.375, 0.625]) and policy[3, 0] == 1.0


def test_repeated_positions_are_fitted_closer_than_the_rest(tmp_path):
    teacher = _teacher(tmp_path)
    planes = _planes(64, seed=6)
    policy, value = distill.ensemble_targets(teacher, planes)
    held = np.zeros(64, bool)
    held[56:] = True
    repeat = np.ones(64, np.int64)
    repeat[:32] = 6
    kls = []
    for r in (None, repeat):
        torch.manual_seed(5)
        student = PolicyValueNet(NetConfig(channels=8, blocks=1))
        distill.distill(student, planes, policy, value, np.zeros(64, np.float32), held, epochs=2, batch=16,
                        lr=5e-3, repeat=r)
        kls.append(distill.evaluate(student, planes[:32], policy[:32], value[:32], np.zeros(32, np.float32))["kl"])
    assert kls[1] < 0.9 * kls[0]


def test_distill_runs_end_to_end_with_search_targets(tmp_path):
    from engine.train.data import searchtargets

    torch.manual_seed(2)
    net = PolicyValueNet(NetConfig(channels=8, blocks=1)).eval()
    export_onnx(net, tmp_path / "teacher.onnx", 15)
    torch.save({"net": net.state_dict(), "net_cfg": {"channels": 8, "blocks": 1, "threat_planes": True}},
               tmp_path / "init.pt")
    moves = [[7, 7], [7, 6], [8, 6], [5, 5], [9, 9], [6, 6], [9, 7], [6, 8], [10, 8], [4, 4]]
    game = {"black": "a", "white": "b", "opening": moves[:5], "moves": moves[5:], "winner": "white"}
    other = {"black": "a", "white": "b", "opening": moves[:5], "moves": [[3, 3], [11, 11], [3, 11]], "winner": None}
    (tmp_path / "results.json").write_text(json.dumps([other, game]))  # the first game is held out
    data = searchtargets.build([game], None, 60.0, (6, 8), "varied", workers=1)  # the heuristic evaluator
    assert len(data["value"]) == 3 and np.allclose(data["policy"].sum(1), 1.0, atol=1e-5)
    np.savez(tmp_path / "targets.npz", made_by=np.array("a test"), **data)
    out = tmp_path / "student.onnx"
    assert distill.main(["--teacher", str(tmp_path / "teacher.onnx"), "--init", str(tmp_path / "init.pt"),
                         "--matches", str(tmp_path / "results.json"), "--search-targets", str(tmp_path / "targets.npz"),
                         "--search-repeat", "3", "--out", str(out), "--epochs", "1", "--batch", "2"]) == 0
    side = json.loads(out.with_suffix(".json").read_text())
    assert side["search_targets_made_by"] == ["a test"] and side["search_repeat"] == 3
    assert side["positions"] == 8  # the games' positions after the opening; the searched 3 among them
    assert side["held_out"] == 3 and len(side["validation"]) == 2
    assert out.exists() and out.with_suffix(".pt").exists()


def test_an_older_layout_is_recomputed_and_an_older_net_widened(tmp_path):
    """Search targets written with version 1's 7 planes get today's planes back from their
    stones, and an --init net of version 1 trains on as a net of today's version."""
    from engine.net.onnx_eval import ONNXEvaluator

    boards = [Board.from_moves([(7, 7), (8, 8), (6, 8)], rule=Rule.RENJU),
              Board.from_moves([(7, 7), (8, 8), (6, 8), (8, 6), (9, 9), (8, 7)], rule=Rule.RENJU)]
    today = np.stack([b.planes() for b in boards]).astype(np.uint8)
    assert np.array_equal(distill.current_planes(today[:, :PLANES_OF_VERSION[1]]), today)
    assert distill.current_planes(today) is today
    torch.manual_seed(3)
    old = PolicyValueNet(NetConfig(channels=8, blocks=1, planes=PLANES_OF_VERSION[1])).eval()
    export_onnx(old, tmp_path / "teacher.onnx", 15)
    torch.save({"net": old.state_dict(), "net_cfg": {"channels": 8, "blocks": 1, "threat_planes": True}},
               tmp_path / "init.pt")  # written before net_cfg named its planes
    moves = [[7, 7], [7, 6], [8, 6], [5, 5], [9, 9], [6, 6], [9, 7], [6, 8], [10, 8], [4, 4]]
    games = [{"black": "a", "white": "b", "opening": moves[:3], "moves": moves[3:], "winner": "white"}] * 2
    (tmp_path / "results.json").write_text(json.dumps(games))
    rng = np.random.default_rng(0)
    policy = rng.random((2, 225)).astype(np.float32)
    np.savez(tmp_path / "old.npz", planes=today[:, :PLANES_OF_VERSION[1]], policy=policy / policy.sum(1, keepdims=True),
             value=np.array([0.5, -0.5], np.float32), z=np.array([1.0, -1.0], np.float32), game=np.array([0, 0]))
    out = tmp_path / "student.onnx"
    assert distill.main(["--teacher", str(tmp_path / "teacher.onnx"), "--init", str(tmp_path / "init.pt"),
                         "--matches", str(tmp_path / "results.json"), "--search-targets", str(tmp_path / "old.npz"),
                         "--out", str(out), "--epochs", "1", "--batch", "4"]) == 0
    ev = ONNXEvaluator(out)
    assert ev.planes == FEATURE_PLANES and ev.metadata["feature_version"] == str(FEATURE_VERSION)
    assert json.loads(out.with_suffix(".json").read_text())["feature_version"] == FEATURE_VERSION


def test_record_games_join_marked_and_their_results_weigh_in_the_value_target(tmp_path):
    moves = [[7, 7], [7, 8], [8, 8], [6, 6], [9, 9], [5, 5]]
    played = {"black": "a", "white": "b", "opening": [m + [0] for m in moves[:3]],
              "moves": [m + [0] for m in moves[3:]], "winner": "black", "reason": "resign"}
    (tmp_path / "results.json").write_text(json.dumps([played]))
    won = {"black": "x", "white": "y", "opening": [m + [0] for m in moves[:2]],
           "moves": [m + [0] for m in moves[2:5]], "winner": "white"}
    stopped = dict(won, winner=None)
    pos = distill.gather([], [str(tmp_path / "results.json")], [won, stopped])
    assert pos.group.tolist() == [0] * 3 + [1] * 3 + [2] * 3
    assert pos.recorded.tolist() == [False] * 3 + [True] * 6
    assert pos.z[3:6].tolist() == [-1.0, 1.0, -1.0]  # black to move after two stones, white won
    value = np.full(9, 0.5, np.float32)
    target = distill.value_targets(value, pos, z_weight=0.0, records_z_weight=0.5)
    assert target[:3].tolist() == [0.5] * 3  # the match game keeps the teacher's value
    assert target[3:6].tolist() == [-0.25, 0.75, -0.25]
    assert target[6:].tolist() == [0.5] * 3  # a game without a result gives no value target
    target = distill.value_targets(value, pos, z_weight=1.0, records_z_weight=0.0)
    assert target[:3].tolist() == [-1.0, 1.0, -1.0] and target[3:].tolist() == [0.5] * 6


def test_curves_are_drawn_from_the_history(tmp_path):
    history = [{"epoch": e, "kl": 0.6 - 0.01 * e, "value_mse": 0.09, "agreement": 0.75 + 0.001 * e} for e in range(5)]
    path = distill.write_curves(tmp_path / "model.png", history)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
