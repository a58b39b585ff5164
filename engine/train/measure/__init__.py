"""Measuring nets: evaluation games, ratings over a run, value checks on real games, the ablations,
and a run's report."""
