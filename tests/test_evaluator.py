"""Evaluators: the heuristic one, and the ONNX one against a numpy computation of a tiny net
built here (onnx.helper), with missing, corrupt and wrong-version models falling back."""
from __future__ import annotations

import numpy as np
import pytest

from engine.board import FEATURE_PLANES, FEATURE_VERSION, PLANES_OF_VERSION, Board
from engine.net.evaluator import HeuristicEvaluator, ModelError
from engine.net.onnx_eval import ONNXEvaluator, load_evaluator

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402


def tiny_net(path, version=FEATURE_VERSION, seed=0, planes=FEATURE_PLANES):
    """policy = conv1x1(planes) flattened; value = tanh(mean over points of conv1x1 . w + b)."""
    rng = np.random.default_rng(seed)
    wp = rng.normal(size=(1, planes, 1, 1)).astype(np.float32)
    wv = rng.normal(size=(1, planes, 1, 1)).astype(np.float32)
    bv = np.array([0.1], dtype=np.float32)
    nodes = [
        helper.make_node("Conv", ["planes", "wp"], ["p4"]),
        helper.make_node("Flatten", ["p4"], ["policy"], axis=1),
        helper.make_node("Conv", ["planes", "wv", "bv"], ["v4"]),
        helper.make_node("GlobalAveragePool", ["v4"], ["vp"]),
        helper.make_node("Flatten", ["vp"], ["vf"], axis=1),
        helper.make_node("Tanh", ["vf"], ["value"]),
    ]
    graph = helper.make_graph(
        nodes, "tiny",
        [helper.make_tensor_value_info("planes", TensorProto.FLOAT, ["batch", planes, "size", "size"])],
        [helper.make_tensor_value_info("policy", TensorProto.FLOAT, ["batch", None]),
         helper.make_tensor_value_info("value", TensorProto.FLOAT, ["batch", 1])],
        [numpy_helper.from_array(wp, "wp"), numpy_helper.from_array(wv, "wv"), numpy_helper.from_array(bv, "bv")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    helper.set_model_props(model, {"feature_version": str(version)})
    onnx.save(model, str(path))
    return wp, wv, bv


def reference(planes, wp, wv, bv):
    p = np.einsum("bcyx,c->byx", planes, wp[0, :, 0, 0]).reshape(len(planes), -1)
    v = np.tanh(np.einsum("bcyx,c->byx", planes, wv[0, :, 0, 0]).mean(axis=(1, 2)) + bv[0])
    return p, v


def boards():
    out = [Board(), Board.from_moves([(7, 7), (8, 8), (6, 6)]), Board.from_moves([(7, 7), (7, 8), (8, 7), (8, 8)])]
    return out


def test_onnx_agrees_with_reference(tmp_path):
    path = tmp_path / "tiny.onnx"
    wp, wv, bv = tiny_net(path)
    ev = ONNXEvaluator(path)
    assert ev.device in ("cpu", "cuda")
    bs = boards()
    logits, values = ev.evaluate(bs)
    planes = np.stack([b.planes() for b in bs])
    ref_p, ref_v = reference(planes, wp, wv, bv)
    assert logits.shape == (3, 225) and values.shape == (3,)
    np.testing.assert_allclose(logits, ref_p, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(values, ref_v, rtol=1e-5, atol=1e-5)


def test_a_model_of_an_older_feature_version_reads_the_first_planes(tmp_path):
    path = tmp_path / "v1.onnx"
    wp, wv, bv = tiny_net(path, version=1, planes=PLANES_OF_VERSION[1])
    ev = ONNXEvaluator(path)
    assert ev.planes == PLANES_OF_VERSION[1] < FEATURE_PLANES
    bs = boards()
    planes = np.stack([b.planes() for b in bs])
    assert planes[:, PLANES_OF_VERSION[1]:].any()  # today's extra planes are there, and not read
    ref_p, ref_v = reference(planes[:, :PLANES_OF_VERSION[1]], wp, wv, bv)
    for logits, values in (ev.evaluate(bs), ev.evaluate_planes(planes)):
        np.testing.assert_allclose(logits, ref_p, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(values, ref_v, rtol=1e-5, atol=1e-5)
    wrong = tmp_path / "wrong.onnx"
    tiny_net(wrong, version=1, planes=FEATURE_PLANES)  # says version 1, takes today's planes
    with pytest.raises(ModelError, match="does not take"):
        ONNXEvaluator(wrong)


def test_missing_corrupt_and_wrong_version_fall_back(tmp_path):
    missing = tmp_path / "nope.onnx"
    corrupt = tmp_path / "corrupt.onnx"
    corrupt.write_bytes(b"\x08\x01this is not a model")
    old = tmp_path / "old.onnx"
    tiny_net(old, version=FEATURE_VERSION + 1)
    for path, words in ((missing, "not found"), (corrupt, "cannot load"), (old, "version")):
        with pytest.raises(ModelError, match=words):
            ONNXEvaluator(path)
        ev, message = load_evaluator(path)
        assert isinstance(ev, HeuristicEvaluator) and words in message
    ev, message = load_evaluator(None)
    assert isinstance(ev, HeuristicEvaluator) and message


def test_heuristic_evaluator_prefers_strong_points():
    b = Board.from_moves([(7, 7), (0, 0), (8, 7), (0, 2), (9, 7)])  # white must stop the open three
    logits, values = HeuristicEvaluator().evaluate([b])
    best = int(np.argmax(logits[0]))
    assert (best % 15, best // 15) in {(6, 7), (10, 7)}
    assert -1 <= values[0] <= 1 and values[0] < 0  # black's three: white to move is worse off
    assert logits[0][7 * 15 + 7] < -10  # occupied points are masked
