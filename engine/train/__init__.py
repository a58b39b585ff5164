"""Training (the only package that imports torch): configs, the network, self-play,
augmentation, the replay buffer, the learner, ONNX export and the run loop; the bootstrap from
alphabeta games, distillation with the engine's own search as targets, int8 quantisation, and the
tools that measure nets (valuecheck, rate, ablate)."""
