"""One inference server for all self-play workers: the server process holds the torch net (on
the GPU when there is one) and evaluates the positions every worker sends, batched together;
each worker's search sees it as an ordinary `Evaluator`."""
from __future__ import annotations

import queue
import time
from collections.abc import Sequence

import numpy as np

from engine.board import FEATURE_PLANES, Board
from engine.net.evaluator import Evaluator


class RemoteEvaluator(Evaluator):
    """A worker's side: planes computed here (in C), the net run by the server."""

    name = "remote"
    takes_planes = True

    def __init__(self, worker: int, requests, responses) -> None:
        self.worker, self.requests, self.responses = worker, requests, responses

    def evaluate(self, boards: Sequence[Board]) -> tuple[np.ndarray, np.ndarray]:
        n = boards[0].size
        x = np.zeros((len(boards), FEATURE_PLANES, n, n), dtype=np.float32)
        for i, board in enumerate(boards):
            board.planes(x[i])
        return self.evaluate_planes(x)

    def evaluate_planes(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.requests.put((self.worker, np.array(planes)))  # a copy: the search reuses its buffer
        return self.responses.get()


def serve(state_dict: dict, net_cfg, device: str, requests, responses: list, stop, max_batch: int = 512,
          wait_ms: float = 1.0) -> None:
    """The server loop: gather requests for up to wait_ms (or max_batch positions), run the net
    once, answer each worker with its rows. Runs until `stop` is set."""
    import torch

    from engine.train.model.network import PolicyValueNet

    torch.set_num_threads(1)
    net = PolicyValueNet(net_cfg)
    net.load_state_dict(state_dict)
    net = net.to(device).eval()
    while not stop.is_set():
        try:
            items = [requests.get(timeout=0.05)]
        except queue.Empty:
            continue
        size = len(items[0][1])
        deadline = time.monotonic() + wait_ms / 1000
        while size < max_batch:
            try:
                items.append(requests.get(timeout=max(0.0, deadline - time.monotonic())))
                size += len(items[-1][1])
            except queue.Empty:
                break
        by_shape: dict[tuple, list] = {}
        for worker, x in items:  # boards of different sizes cannot share a batch
            by_shape.setdefault(x.shape[1:], []).append((worker, x))
        for group in by_shape.values():
            x = torch.from_numpy(np.concatenate([g[1] for g in group])).to(device)
            with torch.no_grad():
                logits, values = net(x)
            logits, values = logits.float().cpu().numpy(), values.float().cpu().numpy()
            start = 0
            for worker, arr in group:
                k = len(arr)
                responses[worker].put((logits[start:start + k], values[start:start + k]))
                start += k
