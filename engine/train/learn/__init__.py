"""The learners: the KL-targeted update rule, supervised training on game records, and
distillation."""
