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


def test_the_vct_rows_count_every_announced_win_by_the_oracles_first_move():
    """The rows of a set for one oracle count the positions it announced a win at, whatever our
    provers found, split by the class of its first move, with nodes compared where both prove."""
    from engine.bench import prover as bench_prover

    def rec(first, nodes, word="+v9"):
        return {"pentazen": word, "pentazen_first": first, "pentazen_nodes": nodes}

    def run(won, ms, nodes, verdict):
        return {"won": won, "ms": ms, "nodes": nodes, "verdict": verdict}

    recs = [rec("four", 100), rec("three", 1000), rec("quiet", 50), rec("four", 10, word="-v8")]
    solved = [{"vct": run(True, 5.0, 300, "verified"), "vct3": run(True, 9.0, 400, "verified"), "dfpn": True},
              {"vct": run(True, 500.0, 1000, "refuted"), "vct3": run(False, 1000.0, 5000, None), "dfpn": False},
              {"vct": run(False, 1000.0, 9000, None), "vct3": run(True, 200.0, 5000, "verified"), "dfpn": False},
              {"vct": run(True, 1.0, 1, "verified"), "vct3": run(True, 1.0, 1, "verified"), "dfpn": True}]
    out = bench_prover.oracle_rows("set", "pentazen", recs, solved)
    assert all(name.startswith("pentazen 1 s wins, set (3): ") for name, _, _ in out)  # the fourth: not announced
    rows = {name.split(": ", 1)[1]: value for name, value, _ in out}
    assert rows["our VCT proves within 10 / 100 / 1000 ms"] == "33.3%, 33.3%, 66.7%"
    assert rows["our VCT3 proves within 10 / 100 / 1000 ms"] == "33.3%, 33.3%, 66.7%"
    assert rows["by the pentazen's first move, four / three / quiet: VCT proved"] == "1 of 1, 1 of 1, 0 of 1"
    assert rows["by the pentazen's first move, four / three / quiet: VCT3 proved"] == "1 of 1, 0 of 1, 1 of 1"
    assert rows["median nodes where both prove (2), VCT / the pentazen's; median ratio"] == "0.7 k / 0.6 k; 2.0x"
    assert rows["median nodes where both prove (2), VCT3 / the pentazen's; median ratio"] == "2.7 k / 0.1 k; 52.0x"
    assert rows["VCT proofs verified / refuted / incomplete"] == "1 / 1 / 0"
    assert rows["df-pn proves; VCT, VCT3 or df-pn"] == "33.3%; 100.0%"
    assert bench_prover.oracle_rows("set", "rapfi", recs, solved) == []  # rapfi was not asked


def test_the_vct_rows_measure_the_real_game_sets(tmp_path):
    """On a few positions of tests/data/vct_positions.jsonl: both sets get rows for both oracles,
    a VCF is proved by both provers, and every proof goes through the verifier (none refuted)."""
    import json

    from engine.bench import prover as bench_prover

    lines = bench_prover.VCT_SET.read_text().splitlines()
    recs = [json.loads(line) for line in lines[1:]]
    both = [r for r in recs if bench_prover.announced(r, "pentazen") and bench_prover.announced(r, "rapfi")]
    pick = [r for r in both if r["fours_only"]][:2] + [r for r in both if r["source"].startswith("pentazen")][:1]
    [solved] = bench_prover.solve_set(pick[:1], verify_ms=5000)
    assert solved["dfpn"] and all(solved[k]["won"] and solved[k]["verdict"] == "verified" for k in ("vct", "vct3"))
    small = tmp_path / "vct.jsonl"
    small.write_text(lines[0] + "\n" + "".join(json.dumps(r) + "\n" for r in pick))
    rows = bench_prover.vct_rows(verify_ms=5000, path=small)
    labels = {name.split(":")[0] for name, _, _ in rows}
    assert labels == {f"{o} 1 s wins, {s} ({n})" for o in ("pentazen", "rapfi")
                      for s, n in (("Gomocup 2019-2020", 2), ("games PentaZen won", 1))}
    for name, value, _ in rows:
        if "within 10 / 100 / 1000 ms" in name:
            shares = [float(v.rstrip("%")) for v in value.split(", ")]
            assert all(0 <= v <= 100 for v in shares) and shares == sorted(shares)
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


def test_the_in_play_rows_split_a_move_into_its_parts(tmp_path):
    """bench-search's in-play rows: a move of the shipped player at a position of its games, its
    playouts per second and a share for every part, the shares within 100%."""
    from engine.bench import search as bench_search
    from engine.search.mcts import TIME_PARTS

    lines = bench_search.MISSED.read_text().splitlines()
    small = tmp_path / "missed.jsonl"
    small.write_text("\n".join(lines[:2]) + "\n")
    (rate, speed, _), (parts, shares, _) = [(*r, "") for r in bench_search.play_rows(seconds=0.4, path=small)]
    assert "1 positions" in rate
    whole, loop = (int(v) for v in speed.split("; "))
    assert 0 < whole <= loop  # the playouts over the whole move, then over the time in playouts alone
    values = [int(v.rstrip("%")) for v in shares.split(" / ")]
    assert len(values) == len(TIME_PARTS) + 1 and all(0 <= v <= 100 for v in values)
    assert 95 <= sum(values) <= 105  # every part of the move, Python's the rest (rounding aside)
    assert values[TIME_PARTS.index("evaluator")] > 0
