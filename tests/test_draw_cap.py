"""The search and Gomocup's 200-stone draw in renju (protocol.md, "Draw bookkeeping"): positions at
the cap are draws, no proof claims a win that would end past it, and net values fade to 0 before it."""
from __future__ import annotations

import time

from engine.board import Board, Color, Rule
from engine.net.evaluator import HeuristicEvaluator
from engine.prover import Prover
from engine.search.mcts import MCTS, MCTSConfig


def search(board: Board, playouts: int = 400, **cfg) -> MCTS:
    m = MCTS(HeuristicEvaluator(), MCTSConfig(**cfg))
    m.played = m.search(board, time.monotonic() + 30, 30.0, max_playouts=playouts, early_stop=False)
    return m


def test_the_cap_is_gomocups_renju_rule_unless_set():
    m = MCTS(HeuristicEvaluator())
    assert m.draw_stones(Board(15, Rule.RENJU)) == 200
    assert m.draw_stones(Board(20, Rule.RENJU)) == 375
    assert m.draw_stones(Board(15, Rule.FREESTYLE)) == 0
    assert MCTS(HeuristicEvaluator(), MCTSConfig(draw_stones=0)).draw_stones(Board(15, Rule.RENJU)) == 0
    assert MCTS(HeuristicEvaluator(), MCTSConfig(draw_stones=50)).draw_stones(Board(15, Rule.FREESTYLE)) == 50


def long_vcf_positions() -> list[Board]:
    """Positions whose side to move wins by a VCF but by none of two fours or fewer."""
    from engine.bench.prover import board_of, load

    out = []
    for rec in load():
        if rec["vcf_moves"] >= 6:
            board = board_of(rec)
            if Prover().solve(board, "vcf", max_depth=2).result != "win":
                out.append(board)
    return out[:3]


def test_a_win_longer_than_the_plies_left_is_not_claimed():
    boards = long_vcf_positions()
    assert boards
    for board in boards:
        assert search(board, 60, draw_stones=0).root.proven == 1  # no cap: the root's VCF proves it
        capped = search(board, 300, draw_stones=board.stone_count + 3)
        assert capped.root.proven == 0
        # every line reaches the cap within 3 plies: draws, or net values faded to 3/20 at most
        assert abs(capped.info.winrate - 0.5) < 0.08
        far = search(board, 60, draw_stones=board.stone_count + 60)
        assert far.root.proven == 1


OPEN_FOUR = dict(black=[(3, 3), (4, 3), (5, 3), (6, 3)], white=[(3, 9), (4, 9), (5, 9), (6, 9)])


def test_a_five_on_the_capping_stone_still_wins():
    b = Board.from_stones(OPEN_FOUR["black"], OPEN_FOUR["white"], to_move=Color.BLACK, rule=Rule.FREESTYLE)
    m = search(b, 50, draw_stones=b.stone_count + 1)
    assert m.root.proven == 1
    assert m.played in {(2, 3), (7, 3)}


def test_a_five_the_cap_comes_before_is_no_loss():
    # white to move cannot stop black's open four, but its move fills the board to the cap
    b = Board.from_stones(OPEN_FOUR["black"] + [(10, 10)], OPEN_FOUR["white"][:3], to_move=Color.WHITE,
                          rule=Rule.FREESTYLE)
    assert search(b, 200, draw_stones=b.stone_count + 2).root.proven == -1  # black's five is the 2nd ply
    capped = search(b, 200, draw_stones=b.stone_count + 1)
    assert capped.root.proven == 0
    assert capped.info.winrate == 0.5


def test_net_values_fade_towards_the_cap():
    # black's open three and a two against scattered white stones: the heuristic favours black
    b = Board.from_stones([(6, 7), (7, 7), (8, 7), (7, 9)], [(0, 0), (0, 14), (14, 0)], to_move=Color.WHITE,
                          rule=Rule.FREESTYLE)
    settings = dict(utss=False, verify_ms=0, root_vct_ms=0, draw_fade=20)
    edge = {}
    for left in (0, 30, 15, 6):
        cap = b.stone_count + left if left else 0
        edge[left] = abs(search(b, 300, draw_stones=cap, **settings).info.winrate - 0.5)
    assert edge[0] > 0.05
    assert edge[30] == edge[0]  # the fade starts 20 plies before the cap; the tree reaches 10 or less
    assert edge[0] > edge[15] > edge[6]


def test_a_position_past_the_cap_still_gets_a_legal_move():
    # a manager that does not stop at the cap: every line is a draw, but a move is still owed
    b = Board.from_moves([(7, 7), (8, 8), (6, 8), (8, 6), (9, 7), (5, 9)], rule=Rule.RENJU)
    m = search(b, 100, draw_stones=b.stone_count - 1)
    assert b.is_legal(*m.played) and m.root.proven == 0
    assert m.info.winrate == 0.5
