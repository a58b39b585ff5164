"""Search: PUCT MCTS guided by an evaluator, with the threat prover settling tactical nodes."""
