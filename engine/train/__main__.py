"""python -m engine.train [--run DIR] [--iterations N] [--games N] ... (every config field is a flag;
an existing run folder resumes with its own config unless flags override it), then the report."""
from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from engine.train.config import RunConfig, add_arguments, apply_overrides


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.train", description=__doc__)
    add_arguments(parser)
    parser.add_argument("--report-only", action="store_true", help="only redraw the run's plots and report")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(message)s")
    run_dir = Path(args.run or RunConfig().run)
    cfg = RunConfig.load(run_dir / "config.json") if (run_dir / "config.json").exists() else RunConfig()
    cfg = apply_overrides(cfg, args)
    from engine.train.measure.report import write_report
    if not args.report_only:
        from engine.train.selfplay.run import Run
        run = Run(cfg)
        (run.dir / "config.json").write_text(cfg.to_json() + "\n")
        run.loop()
    write_report(run_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
