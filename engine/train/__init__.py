"""Training (the only package that imports torch), by stage: `data` (positions and targets: match
games, game records, the engine's and other engines' searches, the symmetries), `model` (the
network, its ONNX export, int8 quantisation, unfolding a shipped net), `learn` (the learners:
the update rule, supervised training on records, distillation), `selfplay` (self-play games, the
replay buffer, the inference server, the bootstrap and the run loop) and `measure` (evaluation
games, ratings, value checks, ablations, reports); `config` holds every stage's settings."""
