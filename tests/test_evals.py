"""What engines say while they think (engine.match.evals): PentaZen's evaluation lines, whole
and in the pieces a raw depth byte splits them into, and the BOARD block."""
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
])
def test_parse_message(line, ev, win, loss, score, tm, nodes):
    e = parse_message(line)
    assert (e.ev, e.win, e.loss, e.score, e.tm, e.nodes) == (ev, win, loss, score, tm, nodes)


@pytest.mark.parametrize("line", ["MESSAGE PentaZen 0.4.17 by Sun Yuliang", "MESSAGE dep ev nd tm",
                                  "MESSAGE dep 3 ev v+ nd 1", "", "MESSAGE book 6,8", "MESSAGE dep "])
def test_parse_message_skips_other_lines(line):
    assert parse_message(line) is None


def test_board_block_is_in_move_order_relative_to_the_side_to_move():
    assert board_block([(7, 7), (7, 8), (9, 9)]) == ["7,7,2", "7,8,1", "9,9,2"]
    assert board_block([(7, 7), (7, 8)]) == ["7,7,1", "7,8,2"]
