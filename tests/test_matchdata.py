"""Training samples from match games: targets per position, duplicates dropped, and a fine-tune
that starts from a checkpoint, mixes in older games and exports a net the engine loads."""
from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from engine.board import FEATURE_PLANES, Board, Color  # noqa: E402
from engine.train.buffer import ReplayBuffer  # noqa: E402
from engine.train.config import NetConfig  # noqa: E402
from engine.train.matchdata import distinct_games, game_arrays, main  # noqa: E402
from engine.train.model import PolicyValueNet  # noqa: E402

OPENING = [[7, 7], [7, 8], [9, 9]]
# after the opening white moves first; black makes five on row 0 while white wastes its moves
BLACK_WINS = [[0, 5, 900], [0, 0, 900], [1, 5, 900], [1, 0, 900], [2, 5, 900], [2, 0, 900], [3, 5, 900],
              [3, 0, 900], [14, 14, 900], [4, 0, 900]]


def game(moves=BLACK_WINS, winner="black", opening=OPENING) -> dict:
    return {"black": "a", "white": "b", "opening": opening, "moves": moves, "winner": winner, "reason": "five"}


def test_each_position_gets_the_result_and_only_the_winner_gets_policy_targets():
    arrays = game_arrays(game())
    assert len(arrays["value"]) == len(BLACK_WINS)
    board = Board(15, "renju")
    for x, y in OPENING:
        board.play(x, y)
    buf = np.zeros((FEATURE_PLANES, 15, 15), np.float32)
    for i, (x, y, _) in enumerate(BLACK_WINS):
        mover = board.to_move
        np.testing.assert_array_equal(arrays["planes"][i], board.planes(buf).astype(np.uint8))
        assert arrays["value"][i] == (1.0 if mover == Color.BLACK else -1.0)
        if mover == Color.BLACK:
            assert arrays["policy"][i].sum() == 1.0 and arrays["policy"][i][y * 15 + x] == 1.0
        else:
            assert not arrays["policy"][i].any()
        board.play(x, y)
    assert board.game_over
    assert arrays["has_policy"].all()  # full value weight, unlike value-only settled samples


def test_a_draw_gives_zero_values_and_no_policy():
    arrays = game_arrays(game(BLACK_WINS[:6], winner=None))
    assert len(arrays["value"]) == 6
    assert not arrays["value"].any() and not arrays["policy"].any()


def test_white_wins_are_targets_for_white():
    moves = [[0, 0, 1], [5, 0, 1], [0, 1, 1], [5, 1, 1], [0, 2, 1], [6, 3, 1], [0, 3, 1], [14, 0, 1], [0, 4, 1]]
    arrays = game_arrays(game(moves, winner="white"))
    assert list(arrays["value"]) == [1.0, -1.0] * 4 + [1.0]  # white to move at the first position
    assert [bool(p.any()) for p in arrays["policy"]] == [True, False] * 4 + [True]


def test_games_that_recur_move_for_move_are_kept_once():
    a, b = game(), game(BLACK_WINS[:6], winner=None)
    again = json.loads(json.dumps(a))
    again["moves"] = [[x, y, 5] for x, y, _ in BLACK_WINS]  # other times, same stones
    assert distinct_games([a, b, again, b]) == [a, b]


def _init_and_results(tmp_path, games):
    """A fresh full-size net saved as a torch checkpoint, and a results.json holding `games`."""
    torch.manual_seed(1)
    net = PolicyValueNet(NetConfig())
    init = tmp_path / "init.pt"
    torch.save({"net": net.state_dict(), "net_cfg": {"channels": 32, "blocks": 3, "threat_planes": True},
                "source_run": str(tmp_path / "none")}, init)
    results = tmp_path / "results.json"
    results.write_text(json.dumps(games))
    return net, init, results


def test_fine_tune_starts_from_the_checkpoint_mixes_older_games_and_exports(tmp_path):
    from engine.search.player import MCTSPlayer

    net, init, results = _init_and_results(tmp_path, [game(), game(), game(BLACK_WINS[:6], winner=None)])
    older = ReplayBuffer(10)
    older.add(7, game_arrays(game(BLACK_WINS[:4], winner="white")))
    (tmp_path / "old").mkdir()
    older.save(tmp_path / "old" / "buffer.npz")
    out = tmp_path / "run"
    assert main(["--init", str(init), "--out", str(out), "--matches", str(results), "--also", str(tmp_path / "old"),
                 "--steps", "2", "--seed", "3"]) == 0
    state = json.loads((out / "state.json").read_text())
    assert state["match_finetune"]["games"] == 2 and state["match_finetune"]["positions"] == 16
    assert state["steps"] == 2
    buf = ReplayBuffer.load(out / "buffer.npz", 100)
    gens = [g for g, _ in buf.games]
    assert gens == [min(gens), 1, 1] and min(gens) < 1  # the older game, then the match games as the newest
    after = torch.load(out / "checkpoint.pt", weights_only=False)["net"]
    assert any(not torch.equal(after[k], v) for k, v in net.state_dict().items())
    player = MCTSPlayer(model=str(out / "model.onnx"))
    assert player.load_message is None and player.mcts.ev.name == "onnx"
    with pytest.raises(SystemExit):  # never over an existing run
        main(["--init", str(init), "--out", str(out), "--matches", str(results)])


def test_training_only_the_value_head_leaves_the_rest_of_the_net_as_it_was(tmp_path):
    net, init, results = _init_and_results(tmp_path, [game(), game(BLACK_WINS[:6], winner=None)])
    out = tmp_path / "run"
    main(["--init", str(init), "--out", str(out), "--matches", str(results), "--steps", "3",
          "--train-only", "value_fc"])
    after = torch.load(out / "checkpoint.pt", weights_only=False)["net"]
    for k, v in net.state_dict().items():  # weights and BatchNorm statistics alike
        if k.endswith("num_batches_tracked"):  # a counter, unused with a fixed momentum
            continue
        assert torch.equal(after[k], v) != k.startswith("value_fc"), k
    with pytest.raises(ValueError):
        main(["--init", str(init), "--out", str(tmp_path / "r2"), "--matches", str(results), "--train-only", "nothing"])
    assert not (tmp_path / "r2").exists()  # refused before the run folder was made


def test_policy_targets_can_come_from_a_net(tmp_path):
    from engine.net.onnx_eval import ONNXEvaluator
    from engine.train.model import export_onnx

    net, init, results = _init_and_results(tmp_path, [game(), game(BLACK_WINS[:6], winner=None)])
    model = tmp_path / "teacher.onnx"
    export_onnx(net.eval(), model, 15, {"channels": 32, "blocks": 3})
    out = tmp_path / "run"
    main(["--init", str(init), "--out", str(out), "--matches", str(results), "--steps", "1",
          "--policy-from", str(model)])
    (_, arrays), = ReplayBuffer.load(out / "buffer.npz", 100).games[:1]
    assert len(arrays["value"]) == len(BLACK_WINS)
    np.testing.assert_allclose(arrays["policy"].sum(1), 1.0, atol=1e-5)
    logits, _ = ONNXEvaluator(model).evaluate_planes(arrays["planes"].astype(np.float32))
    np.testing.assert_array_equal(arrays["policy"].argmax(1), logits.argmax(1))
    assert arrays["policy"][1].any()  # the loser's positions too
    assert json.loads((out / "state.json").read_text())["match_finetune"]["policy_from"] == str(model)
