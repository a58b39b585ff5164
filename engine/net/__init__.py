"""Position evaluators for the search: a policy (one logit per point) and a value (-1..1 for the
side to move). The search sees only the `Evaluator` interface, so it never imports onnxruntime."""
