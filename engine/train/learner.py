"""Updates with a KL-targeted adaptive learning rate: each sampled batch is fitted for up to
`epochs_per_batch` passes, stopped early once the policy has moved more than 4x the KL target;
the learning-rate multiplier then shrinks (KL > 2x target) or grows (KL < target / 2)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from engine.train.augment import augment_batch
from engine.train.config import LearnConfig
from engine.train.model import PolicyValueNet


@dataclass
class StepStats:
    loss: float
    policy_loss: float
    value_loss: float
    entropy: float
    kl: float
    lr: float
    epochs: int


class Learner:
    def __init__(self, net: PolicyValueNet, cfg: LearnConfig, device: str = "cpu") -> None:
        self.net, self.cfg, self.device = net.to(device), cfg, device
        self.opt = torch.optim.AdamW(net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
        self.lr_mult = 1.0

    def _losses(self, x, p, z, has_p):
        logits, v = self.net(x)
        logp = F.log_softmax(logits, 1)
        weight = has_p.float()
        policy_loss = -(p * logp).sum(1).mul(weight).sum() / weight.sum().clamp(min=1)
        value_loss = F.mse_loss(v, z)
        return policy_loss, value_loss

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
        elif kl < self.cfg.kl_target / 2 and self.lr_mult < 10:
            self.lr_mult *= 1.5
        entropy = float(-(new.exp() * new).sum(1).mean())
        return StepStats(loss.item(), policy_loss.item(), value_loss.item(), entropy, kl,
                         self.cfg.lr * self.lr_mult, epoch)
