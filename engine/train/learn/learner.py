"""Updates with a KL-targeted adaptive learning rate: each sampled batch is fitted for up to
`epochs_per_batch` passes, stopped early once the policy has moved more than 4x the KL target;
the learning-rate multiplier then shrinks (KL > 2x target) or grows (KL < target / 2, up to
`lr_mult_max`). Value-only samples weigh `settled_weight` in the value loss."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from engine.train.config import LearnConfig
from engine.train.data.augment import augment_batch
from engine.train.model.network import PolicyValueNet


@dataclass
class StepStats:
    loss: float
    policy_loss: float
    value_loss: float
    entropy: float
    kl: float
    lr: float
    epochs: int


def losses(net: PolicyValueNet, x: torch.Tensor, p: torch.Tensor, z: torch.Tensor, has_p: torch.Tensor,
           settled_weight: float) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Policy cross-entropy over the samples that have a policy; value MSE with the value-only
    samples weighted by `settled_weight`; and the values themselves."""
    logits, v = net(x)
    w = has_p.float()
    policy_loss = -(p * F.log_softmax(logits, 1)).sum(1).mul(w).sum() / w.sum().clamp(min=1)
    vw = torch.where(has_p, torch.ones_like(v), torch.full_like(v, settled_weight))
    value_loss = ((v - z) ** 2).mul(vw).sum() / vw.sum().clamp(min=1e-6)
    return policy_loss, value_loss, v


class Learner:
    def __init__(self, net: PolicyValueNet, cfg: LearnConfig, device: str = "cpu") -> None:
        self.net, self.cfg, self.device = net.to(device), cfg, device
        self.opt = torch.optim.AdamW(net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
        self.lr_mult = 1.0

    def _losses(self, x, p, z, has_p):
        return losses(self.net, x, p, z, has_p, self.cfg.settled_weight)[:2]

    def step(self, batch: dict[str, np.ndarray], rng: np.random.Generator) -> StepStats:
        ks = rng.integers(0, 8, len(batch["value"]))
        planes, policy = augment_batch(batch["planes"].astype(np.float32), batch["policy"].astype(np.float32), ks)
        dev = self.device
        x, p = torch.from_numpy(planes).to(dev), torch.from_numpy(policy).to(dev)
        z, has_p = torch.from_numpy(batch["value"]).to(dev), torch.from_numpy(batch["has_policy"]).to(dev)
        self.net.train()
        with torch.no_grad():
            old = F.log_softmax(self.net(x)[0], 1)
        for g in self.opt.param_groups:
            g["lr"] = self.cfg.lr * self.lr_mult
        kl = 0.0
        for epoch in range(1, self.cfg.epochs_per_batch + 1):
            policy_loss, value_loss = self._losses(x, p, z, has_p)
            loss = policy_loss + self.cfg.value_weight * value_loss
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            with torch.no_grad():
                new = F.log_softmax(self.net(x)[0], 1)
                kl = float((old.exp() * (old - new)).sum(1).mean())
            if kl > 4 * self.cfg.kl_target:
                break
        if kl > 2 * self.cfg.kl_target and self.lr_mult > 0.05:
            self.lr_mult /= 1.5
        elif kl < self.cfg.kl_target / 2:
            self.lr_mult = min(self.lr_mult * 1.5, self.cfg.lr_mult_max)
        entropy = float(-(new.exp() * new).sum(1).mean())
        return StepStats(loss.item(), policy_loss.item(), value_loss.item(), entropy, kl,
                         self.cfg.lr * self.lr_mult, epoch)
