"""Self-play training (the only package that imports torch): configs, the network, self-play,
augmentation, the replay buffer, the learner, ONNX export and the run loop."""
