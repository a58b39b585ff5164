"""The benchmark pipeline (not the speed: figures are recorded by `make bench`, never asserted)."""
from __future__ import annotations

from engine.bench import core as bench


def test_bench_writes_its_section_once(tmp_path):
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n\nkept text\n")
    rows = [("play + undo", "150 ns", "<= 300 ns")]
    bench.write(doc, bench.render(rows, "make bench"))
    bench.write(doc, bench.render([("play + undo", "160 ns", "<= 300 ns")], "make bench"))
    text = doc.read_text()
    assert "kept text" in text
    assert text.count(bench.START) == 1 and text.count(bench.END) == 1
    assert "160 ns" in text and "150 ns" not in text
    assert "Command: `make bench`" in text
    assert f"commit {bench.commit()}" in text  # each figure says what code it measured


def test_bench_measures_every_target():
    rows = bench.run(quick=True)
    names = " | ".join(r[0] for r in rows)
    for needle in ("play + undo", "probe + take back", "forbidden points", "table build", "memory", "alpha-beta",
                   "ratio"):
        assert needle in names
    for _, value, target in rows:
        if target:  # every targeted figure is a positive number with a unit
            assert float(value.split()[0]) > 0
