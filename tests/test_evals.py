"""What engines say while they think (engine.match.evals): PentaZen's evaluation lines, whole
and in the pieces a raw depth byte splits them into, Rapfi's, and the BOARD block."""
from __future__ import annotations

import pytest

from engine.match.evals import board_block, parse_message


@pytest.mark.parametrize("line, ev, win, loss, score, tm, nodes", [
    ("MESSAGE dep 11-23 ev +v17 nd 148k tm 81 sp 1827", "+v17", 17, None, None, 81, 148_000),
    ("MESSAGE dep -! ev -v5 nd 2k tm 3 sp 700", "-v5", None, 5, None, 3, 2_000),
    ("dep 9-14 ev 123 nd 1957k tm 952 sp 2056", "123", None, None, 123, 952, 1_957_000),
    ("MESSAGE dep -! ev -241 nd 2m tm 952 sp 2198", "-241", None, None, -241, 952, 2_000_000),
    ("-$ ev 0 nd 1 tm 1 sp 1", "0", None, None, 0, 1, 1),  # the tail of a line split at its depth byte
    ("MESSAGE dep 3 ev 40", "40", None, None, 40, None, None),
    # Rapfi's lines (0.43.02, source 3aedf3a, classical evaluator), as it writes them at 400 ms a move
    ("MESSAGE Speed 826K | Depth 14-24 | Eval -58 | Node 305K | Time 370ms", "-58", None, None, -58, 370, 305_000),
    ("MESSAGE Depth 14-24 | Eval -58 | Time 370ms | G8 H7", "-58", None, None, -58, 370, None),
    ("MESSAGE Depth 17-37 | Eval +M37 | Time 89ms | G11 F12 G10", "+M37", 37, None, None, 89, None),
    ("MESSAGE Speed 50000 | Depth 26-2 | Eval +M3 | Node 50 | Time 0ms", "+M3", 3, None, None, 0, 50),
    ("MESSAGE Depth 26-2 | Eval -M2 | Time 0ms | L8", "-M2", None, 2, None, 0, None),
    ("MESSAGE Speed 3M | Depth 19-30 | Eval 12 | Node 12M | Time 4s", "12", None, None, 12, None, 12_000_000),
    # and with message_mode = "ucilike": the nodes at every depth
    ("MESSAGE depth 13-19 ev +M21 n 37K n/ms 548 tm 69 pv K8 F7 G7", "+M21", 21, None, None, 69, 37_000),
    ("MESSAGE depth 2-7 ev 404 n 178 n/ms 178 tm 0 pv J4 F7 G7", "404", None, None, 404, 0, 178),
])
def test_parse_message(line, ev, win, loss, score, tm, nodes):
    e = parse_message(line)
    assert (e.ev, e.win, e.loss, e.score, e.tm, e.nodes) == (ev, win, loss, score, tm, nodes)


@pytest.mark.parametrize("line", ["MESSAGE PentaZen 0.4.17 by Sun Yuliang", "MESSAGE dep ev nd tm",
                                  "MESSAGE dep 3 ev v+ nd 1", "", "MESSAGE book 6,8", "MESSAGE dep ",
                                  "MESSAGE OptiTime 333ms | MaxTime 370ms",
                                  "MESSAGE Load config from /root/sparring/rapfi/config.toml",
                                  "MESSAGE Depth 9-12 | Eval +M* | Time 3ms"])
def test_parse_message_skips_other_lines(line):
    assert parse_message(line) is None


def test_board_block_is_in_move_order_relative_to_the_side_to_move():
    assert board_block([(7, 7), (7, 8), (9, 9)]) == ["7,7,2", "7,8,1", "9,9,2"]
    assert board_block([(7, 7), (7, 8)]) == ["7,7,1", "7,8,2"]
