"""engine.train.grow: a deeper net that starts as the trained one, exactly."""
from __future__ import annotations

import pytest
import torch

from engine.train.config import NetConfig
from engine.train.grow import grow, main
from engine.train.model import PolicyValueNet, load_weights


def _trained_like(blocks: int = 2) -> PolicyValueNet:
    torch.manual_seed(1)
    net = PolicyValueNet(NetConfig(channels=8, blocks=blocks))
    with torch.no_grad():  # BatchNorms away from their defaults, as a trained net's are
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 2.0)
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.2, 0.2)
    return net


@pytest.mark.parametrize("blocks", [2, 3, 5])
def test_the_grown_net_gives_the_old_outputs_in_eval_and_train_mode(blocks):
    net = _trained_like(2)
    grown = grow(net, blocks)
    assert len(grown.blocks) == blocks and grown.cfg.blocks == blocks
    x = (torch.rand(6, 7, 15, 15) < 0.2).float()
    for train in (False, True):
        net.train(train)
        grown.train(train)
        with torch.no_grad():
            (p0, v0), (p1, v1) = net(x), grown(x)
        assert torch.allclose(p0, p1, atol=1e-6) and torch.allclose(v0, v1, atol=1e-6)


def test_the_new_blocks_learn():
    grown = grow(_trained_like(2), 4)
    x = (torch.rand(6, 7, 15, 15) < 0.2).float()
    policy, value = grown(x)
    (policy.logsumexp(1).mean() + value.mean()).backward()
    new = grown.blocks[1]  # the first new block, after the first old one
    assert new.bn2.weight.grad is not None and new.bn2.weight.grad.abs().sum() > 0


def test_the_command_writes_weights_the_trainers_load(tmp_path):
    net = _trained_like(2)
    src = tmp_path / "a.pt"
    torch.save({"net": net.state_dict(), "net_cfg": {"channels": 8, "blocks": 2, "threat_planes": True}}, src)
    assert main([str(src), "--blocks", "4", "--out", str(tmp_path / "b.pt")]) == 0
    loaded = load_weights(tmp_path / "b.pt").eval()
    x = (torch.rand(3, 7, 15, 15) < 0.2).float()
    with torch.no_grad():
        assert torch.allclose(net.eval()(x)[0], loaded(x)[0], atol=1e-6)
    with pytest.raises(SystemExit):
        main([str(src), "--blocks", "1", "--out", str(tmp_path / "c.pt")])  # fewer blocks than it has
