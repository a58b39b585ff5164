"""`make net`'s recipe: engine target files pooled with game records (their targets kept, never held
out), the manifest that lists models/data, and a tiny recipe run end to end (train, int8, report)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from engine.board import Board, Rule  # noqa: E402
from engine.train import recipe  # noqa: E402
from engine.train.learn import supervised  # noqa: E402

RECORDS = Path(__file__).parent / "data" / "records"
MODELS_DATA = Path(__file__).parent.parent / "models" / "data"


def targets_file(path: Path, count: int = 40, seed: int = 0) -> Path:
    """A target file as enginetargets writes one: positions of random openings, a policy (one point,
    or two shared), a value (NaN where the engine gave none) and the game's result."""
    rng = np.random.default_rng(seed)
    planes, policy, value, z, game = [], [], [], [], []
    for i in range(count):
        b = Board.from_moves([(7, 7), (8, 8), (int(rng.integers(3, 12)), int(rng.integers(0, 3)))])
        planes.append(b.planes().astype(np.uint8))
        p = np.zeros(225, np.float32)
        p[rng.choice(225, 2, replace=False)] = 0.5
        policy.append(p)
        value.append(np.nan if i % 5 == 0 else float(rng.uniform(-1, 1)))
        z.append(float(rng.choice([-1, 0, 1])))
        game.append(i // 4)
    np.savez(path, planes=np.array(planes), policy=np.array(policy), value=np.array(value, np.float32),
             z=np.array(z, np.float32), game=np.array(game), made_by="test")
    return path


def test_pooled_targets_keep_the_engines_policy_and_mix_the_value(tmp_path):
    data = supervised.build([(Rule.RENJU, str(RECORDS / "gomocup2020-renju-five.psq"))])
    path = targets_file(tmp_path / "t.npz")
    pooled, teacher = supervised.pool_targets(data, [str(path)], 0.25)
    n = len(data.move)
    with np.load(path) as f:
        v, z, p = f["value"], f["z"], f["policy"]
    assert len(pooled.move) == n + len(v) and len(teacher.value_out) == len(pooled.move)
    # the records keep the move played and the result
    assert (teacher.policy_out[:n].argmax(1) == data.move).all() and np.allclose(teacher.value_out[:n], data.z)
    # the targets: the engine's policy, (1 - w) value + w result where decided, no value where it gave none
    assert np.allclose(teacher.policy_out[n:].astype(np.float32), p, atol=1e-3)
    decided = np.isfinite(v) & (z != 0)
    assert np.allclose(teacher.value_out[n:][decided], 0.75 * v[decided] + 0.25 * z[decided])
    assert (teacher.value_known[n:] == np.isfinite(v)).all()
    # the target games are never validation games, whatever the share
    held = pooled.held_out(0.99)[pooled.game]
    assert not held[n:].any()
    x, target, zt, known = supervised.tensors(pooled, np.arange(n, n + 10), "cpu", None, teacher)
    assert known.numpy().tolist() == np.isfinite(v[:10]).tolist()
    assert np.allclose(target.numpy(), p[:10], atol=1e-3)


def test_the_manifest_lists_every_data_file_once():
    manifest = json.loads((MODELS_DATA / "manifest.json").read_text())
    listed = [e["file"] for key in ("records", "targets", "matches") for e in manifest[key]]
    assert len(listed) == len(set(listed))
    assert sorted(listed) == sorted(p.name for p in MODELS_DATA.iterdir() if p.name != "manifest.json")
    assert all("2021" not in e["file"] or e["rule"] != "renju" for e in manifest["records"])  # the test set
    assert recipe.read_manifest(MODELS_DATA / "manifest.json")["targets"][0]["path"].is_file()


def test_the_recipe_names_its_data_from_the_working_directory(monkeypatch):
    monkeypatch.chdir(MODELS_DATA.parent.parent)
    args = recipe.training_args(recipe.read_manifest(MODELS_DATA / "manifest.json"), Path("runs/net"), 5, 32, 3, 2)
    files = [a.split(":")[-1] for a in args if a.endswith((".tar.gz", ".npz"))]
    assert files and all(f.startswith("models/data/") and Path(f).is_file() for f in files)
    monkeypatch.chdir(MODELS_DATA)
    assert recipe.shown(MODELS_DATA.parent / "README.md") == MODELS_DATA.parent / "README.md"  # outside: as given


@pytest.mark.slow
def test_a_tiny_recipe_runs_to_its_report(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    for name in ("gomocup2019-renju-short.psq", "gomocup2019-renju-missed-vcf.psq", "gomocup2020-renju-five.psq"):
        shutil.copy(RECORDS / name, data / name)
    targets_file(data / "t.npz")
    (data / "manifest.json").write_text(json.dumps({
        "targets_z_weight": 0.5, "matches": [],
        "records": [{"file": n, "rule": "renju"} for n in ("gomocup2019-renju-short.psq",
                                                          "gomocup2019-renju-missed-vcf.psq",
                                                          "gomocup2020-renju-five.psq")],
        "targets": [{"file": "t.npz"}]}))
    out = tmp_path / "run"
    args = ["--manifest", str(data / "manifest.json"), "--out", str(out), "--epochs", "1", "--channels", "8",
            "--blocks", "1", "--threads", "1"]
    assert recipe.main(args) == 0
    rows = json.loads((out / "validation.json").read_text())
    names = [Path(r["model"]).name for r in rows]
    assert names[:2] == ["model.onnx", "model-int8.onnx"] and len(names) >= 3  # and the shipped net
    text = (out / "report.md").read_text()
    assert text.count("| model | top-1") == 1 and "manifest.json" in text
    assert (out / "model-int8.onnx").exists() and (out / "report.png").exists()
