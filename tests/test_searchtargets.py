"""Search targets (engine.train.data.searchtargets): which match positions are searched, and what the
search's policy and value targets are."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from engine.board import Board, Color, Rule
from engine.search.player import MCTSPlayer
from engine.train.data import searchtargets
from engine.train.data.searchtargets import positions_of, root_targets, search_target


def _game(opening, moves, winner):
    return {"black": "a", "white": "b", "opening": [list(m) for m in opening],
            "moves": [list(m) for m in moves], "winner": winner}


STANDARD = [(7, 7), (7, 6), (8, 6)]
VARIED = STANDARD + [(5, 5), (9, 9)]
MOVES = [(6, 6), (9, 7), (6, 8), (10, 8), (4, 4)]


def test_positions_are_taken_once_by_stone_count_and_opening_kind():
    games = [_game(VARIED, MOVES, "white"), _game(VARIED, MOVES, "white"), _game(STANDARD, MOVES, "black")]
    picked = positions_of(games, (6, 8))
    # the repeated game counts once; the standard game (3 stones and 5 moves) reaches 6 and 7
    assert [len(m) for _, m, _ in picked] == [6, 7, 8, 6, 7]
    assert len({m for _, m, _ in picked}) == 5
    # the result for the side to move: black is to move at 6 and 8 stones, white at 7
    assert [z for _, _, z in picked[:3]] == [-1.0, 1.0, -1.0]  # white won
    assert [z for _, _, z in picked[3:]] == [1.0, -1.0]  # black won
    varied = positions_of(games, (5, 20), openings="varied")
    assert {g for g, _, _ in varied} == {0} and [len(m) for _, m, _ in varied] == [5, 6, 7, 8, 9]
    standard = positions_of(games, (5, 20), openings="standard")
    # (game indices count the distinct games: the repeated one is dropped)
    assert {g for g, _, _ in standard} == {1} and [len(m) for _, m, _ in standard] == [5, 6, 7]


def test_a_game_lost_on_a_foul_gives_its_positions_up_to_the_foul():
    # black's 3x3 at (7, 9): open threes on column 7 (7,7 7,8) and row 9 (5,9 6,9); a referee ends the game there
    opening = [(7, 7), (0, 0), (7, 8)]
    moves = [(14, 0), (5, 9), (0, 14), (6, 9), (14, 14), (7, 9)]
    board = Board.from_moves(opening + moves[:-1])
    assert not board.is_legal(7, 9)  # the last move is black's foul
    picked = positions_of([_game(opening, moves, "white")], (3, 20))
    assert [len(m) for _, m, _ in picked] == [3, 4, 5, 6, 7, 8]  # the position of the foul included, none after
    assert picked[-1][2] == -1.0  # black, to move there, lost


def test_a_proved_win_is_a_one_hot_policy_and_a_value_of_one():
    # black to move with four in a row on row 7 (open at both ends): a five at once
    board = Board.from_moves([(3, 7), (3, 3), (4, 7), (4, 3), (5, 7), (5, 4), (6, 7), (5, 5)], rule=Rule.RENJU)
    player = MCTSPlayer(model=None)
    policy, value = search_target(player, board, 0.2)
    assert value == 1.0 and policy.sum() == 1.0
    assert int(np.argmax(policy)) in (7 * 15 + 2, 7 * 15 + 7)


def test_a_searched_policy_is_the_visit_shares_over_legal_moves():
    board = Board.from_moves(VARIED + MOVES[:2], rule=Rule.RENJU)
    player = MCTSPlayer(model=None)
    policy, value = search_target(player, board, 0.15)
    assert abs(policy.sum() - 1.0) < 1e-5 and -1.0 <= value <= 1.0
    on = np.nonzero(policy)[0]
    assert len(on) > 1 and all(board.is_legal(int(i) % 15, int(i) // 15) for i in on)
    root = player.mcts.root
    visits = root.N[root.cp <= 0]  # the moves not proven lost
    assert np.isclose(policy.max(), visits.max() / visits.sum())


def test_moves_proven_lost_lose_their_visits_and_values():
    moves = [(1, 0), (2, 0), (0, 1)]
    visits, sums = np.array([60.0, 30.0, 10.0]), np.array([30.0, -6.0, 2.0])
    policy, value = root_targets(moves, visits, sums, np.array([1, 0, 0]), 0, (2, 0), 3)
    # the refuted leader (proven won for the opponent) keeps nothing; the rest share by visits
    assert np.allclose(policy, [0, 0, 0.75, 0.25, 0, 0, 0, 0, 0]) and np.isclose(value, -0.1)
    policy, value = root_targets(moves, visits, sums, np.array([0, 0, 0]), 0, (1, 0), 3)
    assert np.allclose(policy[[1, 2, 3]], [0.6, 0.3, 0.1]) and np.isclose(value, 0.26)
    policy, value = root_targets(moves, visits, sums, np.array([1, 1, 1]), -1, (0, 1), 3)
    assert value == -1.0 and policy[3] == 1.0 and policy.sum() == 1.0


def test_build_searches_every_picked_position_with_its_game_and_result():
    games = [_game(VARIED, MOVES, "white"), _game(STANDARD, MOVES, "black")]
    picked = positions_of(games, (5, 9), "all")
    data = searchtargets.build(games, None, 30.0, (5, 9), "all", workers=1)  # the heuristic evaluator
    assert len(data["z"]) == len(picked) == 8
    assert list(data["game"]) == [g for g, _, _ in picked] and list(data["z"]) == [z for _, _, z in picked]
    for planes, (_, moves, _) in zip(data["planes"], picked):
        assert np.array_equal(planes, Board.from_moves(list(moves), rule=Rule.RENJU).planes().astype(np.uint8))
    assert np.allclose(data["policy"].sum(1), 1.0, atol=1e-5) and (np.abs(data["value"]) <= 1.0).all()


def test_record_games_keep_the_training_split_as_match_games(tmp_path):
    from engine.records import load
    from engine.train.data.split import game_key

    data = Path(__file__).parent / "data" / "records"
    broken = tmp_path / "broken.psq"
    broken.write_text("Piskvork\n15x15, 11, 1\n8,8,100\n8,8,100\n9,9,100\n")  # an occupied point mid-game
    files = [data / "gomocup2020-renju-five.psq", data / "gomocup2020-renju-draw200.psq",
             data / "gomocup2020-renju-occupied.psq", broken]  # the third lost on an occupied last move
    judged = [g for g in load(files) if not isinstance(g, Exception)]
    assert len(judged) == 3
    games = searchtargets.record_games([str(f) for f in files], val_share=0.0)
    assert len(games) == 3  # the broken record is skipped
    for game, rec in zip(games, judged):
        assert [tuple(m) for m in game["opening"] + game["moves"]] == rec.moves
        assert len(game["opening"]) == rec.opening
        assert game["winner"] == {Color.BLACK: "black", Color.WHITE: "white"}.get(rec.winner)
    # a validation share above a game's hash leaves it out: it stays for supervised validation
    top = max(game_key(g) for g in judged) / 2**32
    assert searchtargets.record_games([str(f) for f in files], val_share=min(1.0, top + 1e-6)) == []
    picked = positions_of(games, (6, 20))
    assert picked and all(6 <= len(m) <= 20 for _, m, _ in picked)
    last = max(len(m) for g, m, _ in picked if g == 2)
    assert last < len(judged[2].moves)  # never the position after the illegal last move


def test_a_sample_is_seeded_in_order_and_never_larger_than_the_picks():
    picked = [(i, (i,), 0.0) for i in range(50)]
    a, b = searchtargets.sample(picked, 10, 3), searchtargets.sample(picked, 10, 3)
    assert a == b and len(a) == 10 and len(set(a)) == 10
    assert [g for g, _, _ in a] == sorted(g for g, _, _ in a)
    assert searchtargets.sample(picked, 10, 4) != a
    assert searchtargets.sample(picked, 80, 3) == picked and searchtargets.sample(picked, 0, 3) == picked
