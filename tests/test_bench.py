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


def test_the_vct_rows_measure_the_real_game_sets(tmp_path):
    """On a few positions of tests/data/vct_positions.jsonl: each set gets its rows, the shares are
    percentages, and every proof goes through the verifier (none refuted)."""
    import json

    from engine.bench import prover as bench_prover

    lines = bench_prover.VCT_SET.read_text().splitlines()
    recs = [json.loads(line) for line in lines[1:]]
    won = [r for r in recs if (r.get("pentazen") or "").startswith("+")]
    pick = [r for r in won if r["fours_only"]][:2] + [r for r in won if not r["fours_only"]][:2] + \
        [r for r in won if r["source"].startswith("pentazen")][:1]
    small = tmp_path / "vct.jsonl"
    small.write_text(lines[0] + "\n" + "".join(json.dumps(r) + "\n" for r in pick))
    groups = dict(bench_prover.vct_groups(bench_prover.load(small)))
    assert len(groups["Gomocup 2019-2020, PentaZen +v"]) == 4 and len(groups["games PentaZen won after +v"]) == 1
    rows = bench_prover.vct_rows(verify_ms=5000, path=small)
    assert len(rows) == 4 * 6 + 1
    pure = {name.split(":")[0][5:]: int(name.split("of the ")[1].split()[0]) for name, _, _ in rows
            if "pure threat-sequence" in name}
    both = pure.pop("all real-game positions")  # the two sets together, not their parts counted again
    assert both == pure["Gomocup 2019-2020, PentaZen +v"] + pure["games PentaZen won after +v"]
    for name, value, _ in rows:
        if name.startswith("VCT-direct") and "won by" in name:
            shares = [float(v.rstrip("%")) for v in value.split(";")[0].split(", ")]
            assert all(0 <= v <= 100 for v in shares) and shares == sorted(shares)
        if name.startswith("VCT-direct") and "of its wins" in name:  # each direct win counted once
            group = groups[name.split(", ", 1)[1].split(":")[0]]
            assert sum(int(v) for v in value.split(" / ")) <= len(group)
        if "pure threat-sequence" in name:  # proved of those not disproved: at most all of them
            pure = int(name.split("of the ")[1].split()[0])
            assert 0 <= int(value.split()[0]) <= pure <= len(groups.get(name[5:].split(":")[0], pick))
        if "within 10 / 100 / 1000 ms" in name:
            assert all(0 <= float(v.rstrip("%")) <= 100 for v in value.split(", "))
        if "verified" in name:
            assert value.split(" / ")[1] == "0"  # no proof refuted


def test_the_missed_wins_rows_count_proofs_and_the_searchs_moves(tmp_path):
    """A VCF win counts as proved by both provers, a quiet opening by neither, and the search's
    moves are counted against the oracle's."""
    import json

    from engine.bench import prover as bench_prover

    vcf = next(r for r in bench_prover.load(bench_prover.VCT_SET) if r["fours_only"] and r.get("pentazen_move"))
    recs = [{"moves": vcf["moves"], "rule": "renju", "to_move": vcf["to_move"], "oracle_move": vcf["pentazen_move"]},
            {"moves": "h8,h9,i9", "rule": "renju", "to_move": "white", "oracle_move": "g8"}]
    small = tmp_path / "missed.jsonl"
    small.write_text("{}\n" + "".join(json.dumps(r) + "\n" for r in recs))
    (proofs, name1, _), (search, value, _) = bench_prover.missed_rows(seconds=0.3, path=small)
    assert "(2)" in proofs and name1 == "1 / 1; 0"
    assert value.endswith(" of 2") and 0 <= int(value.split()[0]) <= 2


def test_the_protocol_bench_times_each_move_and_reads_the_engines_memory():
    """`make bench-protocol` drives the engine as a referee does: each move timed against what the
    manager allowed, the engine's resident memory read after each (Linux /proc)."""
    import sys

    from engine.bench import protocol as bench_protocol
    from engine.match.enginepipe import PYTHON_ENGINE

    timed, peak = bench_protocol.play_moves(PYTHON_ENGINE + ["--player", "deliberate"], 3,
                                            ["INFO timeout_turn 300"], None)
    assert len(timed) == 3
    assert all(used > 0 and allowed == 0.3 for used, allowed in timed)
    if sys.platform.startswith("linux"):
        assert peak > 2**20
