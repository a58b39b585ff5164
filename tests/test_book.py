"""The opening book: keys up to symmetry, moves turned back to the board's frame, only legal moves
played, bad files refused with a message, the engine playing its moves, and the bookmaker's trees."""
from __future__ import annotations

import gzip
import math
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from engine import book as bk
from engine.board import Board, Color, Foul, Rule
from engine.board.symmetry import transform
from engine.book.make import Grow, Teacher, build, children
from engine.protocol.session import Session
from engine.search.player import MCTSPlayer, load_book
from tests.randomgames import random_game
from tests.test_evaluator import tiny_net

FAKE = Path(__file__).resolve().parent / "fakes" / "fake_pentazen.py"  # a scripted engine, as the teacher


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> Path:
    """A tiny untrained net for the bookmaker's searches, made once for the module."""
    path = tmp_path_factory.mktemp("net") / "tiny.onnx"
    tiny_net(path)
    return path


def turned(point, k, size=15):
    """A point under symmetry k, through the array form the net's planes use (engine.board.symmetry)."""
    grid = np.zeros((size, size), np.uint8)
    grid[point[1], point[0]] = 1
    y, x = np.unravel_index(int(np.argmax(np.ascontiguousarray(transform(grid, k)))), (size, size))
    return int(x), int(y)


def turned_board(board: Board, k: int) -> Board:
    return Board.from_moves([turned(m, k, board.size) for m in board.moves], board.size, board.rule)


def test_a_position_has_one_key_under_all_eight_symmetries():
    rng = random.Random(5)
    for _ in range(20):
        board = random_game(rng, Rule.RENJU, rng.randrange(1, 25))
        key, _ = bk.position_key(board)
        assert all(bk.position_key(turned_board(board, k))[0] == key for k in range(8))


def test_different_positions_have_different_keys():
    a = Board.from_moves([(7, 7), (7, 8), (8, 9)])
    b = Board.from_moves([(7, 7), (7, 8), (9, 9)])
    c = Board.from_moves([(7, 8), (7, 7), (8, 9)])  # the same points, colours swapped
    keys = {bk.position_key(x)[0] for x in (a, b, c)}
    assert len(keys) == 3


def test_points_go_to_the_key_frame_and_back():
    board = Board.from_moves([(7, 7), (8, 8), (9, 6)])  # no symmetry of its own
    key, k = bk.position_key(board)
    for move in [(0, 0), (14, 3), (6, 9)]:
        assert bk.to_board(bk.to_image(move, k, 15), k, 15) == move


def test_a_book_move_serves_every_turned_copy_of_its_position():
    board = Board.from_moves([(7, 7), (8, 8), (9, 6), (6, 9)])
    key, k = bk.position_key(board)
    book = bk.Book(Rule.RENJU, 15, {key: bk.Entry(bk.to_image((10, 5), k, 15), 0.1, 100)})
    assert book.move(board) == (10, 5)
    for s in range(8):
        assert book.move(turned_board(board, s)) == turned((10, 5), s)


def test_the_book_never_gives_an_occupied_or_forbidden_point_nor_another_rule():
    board = Board.from_moves([(7, 7), (7, 8), (8, 6), (8, 8), (7, 9), (8, 5), (8, 10), (8, 11)])
    assert board.to_move == Color.BLACK and board.foul(6, 8) == Foul.DOUBLE_THREE
    key, k = bk.position_key(board)
    for bad in [(6, 8), (7, 7)]:  # black's double three, a stone
        book = bk.Book(Rule.RENJU, 15, {key: bk.Entry(bk.to_image(bad, k, 15), 0.0, 1)})
        assert book.move(board) is None
    book = bk.Book(Rule.RENJU, 15, {key: bk.Entry(bk.to_image((9, 9), k, 15), 0.0, 1)})
    assert book.move(board) == (9, 9)
    free = Board.from_moves(board.moves, rule=Rule.FREESTYLE)
    assert book.move(free) is None


def test_save_and_load_keep_every_entry(tmp_path):
    book = bk.Book(Rule.RENJU, 15, {"w/112/113": bk.Entry(96, -0.25, 1234, [(96, 0.5), (98, 0.25)])}, {"ms": 10})
    book.save(tmp_path / "b.json.gz")
    again = bk.load(tmp_path / "b.json.gz")
    assert again.entries == book.entries and again.rule == Rule.RENJU and again.about == {"ms": 10}
    lean = bk.load(tmp_path / "b.json.gz", replies=False)  # as the engine loads it
    assert lean.entries == {"w/112/113": bk.Entry(96, -0.25, 1234, [])}


# mtime=0 and named ids: gzip's header carries the time, and xdist's workers must collect the same ids
@pytest.mark.parametrize("content", [
    b"not gzip at all",
    gzip.compress(b"{\"format\": 1", mtime=0),
    gzip.compress(b"{\"format\": \"something else\", \"version\": 1}", mtime=0),
    gzip.compress(b"{\"format\": \"pbrain-renju-book\", \"version\": 1, "
                  b"\"rule\": \"renju\", \"size\": 15, "
                  b"\"entries\": {\"w/1/2\": [900, 0, 1, []]}}", mtime=0),
    gzip.compress(b"[1, 2]", mtime=0)],
    ids=["not-gzip", "truncated-json", "other-format", "point-off-board", "not-an-object"])
def test_a_bad_book_file_is_refused_with_a_message(tmp_path, content):
    path = tmp_path / "bad.json.gz"
    path.write_bytes(content)
    with pytest.raises(ValueError, match="book"):
        bk.load(path)
    book, message = load_book(str(path))
    assert book is None and message.startswith("no opening book")


def test_the_engine_plays_the_book_move_at_once_and_searches_past_the_book(tmp_path):
    opening = [(7, 7), (7, 8), (9, 7)]
    board = Board.from_moves(opening)
    key, k = bk.position_key(board)
    path = tmp_path / "b.json.gz"
    bk.Book(Rule.RENJU, 15, {key: bk.Entry(bk.to_image((3, 3), k, 15), 0.0, 1)}).save(path)
    s = Session(MCTSPlayer(model=None, book=str(path)))
    s.handle("START 15")
    s.handle("INFO rule 4")
    s.handle("INFO timeout_turn 300")
    s.handle("BOARD")
    for x, y in opening:
        s.handle(f"{x},{y},{1 if (x, y) == (7, 8) else 2}")  # the engine is white
    replies = s.handle("DONE")
    assert replies[-1] == "3,3"  # an odd move no search would play: it came from the book
    assert "MESSAGE book 3,3" in replies
    replies = s.handle("TURN 8,8")  # past the book: a search
    assert any(r.startswith("MESSAGE depth") for r in replies)
    assert replies[-1] != "3,3" and replies[-1].count(",") == 1


def test_the_engine_goes_on_without_a_corrupt_book(tmp_path):
    path = tmp_path / "b.json.gz"
    path.write_bytes(b"\x1f\x8b garbage")
    s = Session(MCTSPlayer(model=None, book=str(path)))
    s.handle("START 15")
    s.handle("INFO timeout_turn 300")
    replies = s.handle("TURN 7,7")
    assert any("no opening book" in r for r in replies if r.startswith("MESSAGE"))
    assert replies[-1].count(",") == 1


def test_replies_follow_by_share_and_split_the_reach():
    board = Board.from_moves([(7, 7), (7, 8), (9, 7)])
    _, k = bk.position_key(board)
    entry = bk.Entry(10, 0.0, 100, [(20, 0.6), (30, 0.25), (40, 0.1), (50, 0.04), (60, 0.01)])
    mine = children(board, entry, k, True, 0.5, Grow())
    assert mine == [(0.5, bk.to_board(10, k, 15))]
    theirs = children(board, entry, k, False, 0.5, Grow(min_share=0.05, max_replies=2, spread=1.0))
    assert [m for _, m in theirs] == [bk.to_board(20, k, 15), bk.to_board(30, k, 15)]
    assert sum(r for r, _ in theirs) == pytest.approx(0.5)
    assert theirs[0][0] == pytest.approx(0.5 * 0.6 / 0.85)


def test_bookmaker_searches_the_likeliest_positions_and_resumes(tmp_path, model):
    opening = [(7, 7), (7, 8), (9, 7)]
    out = tmp_path / "book.json.gz"
    book = build(bk.Book(), [opening], 0.05, 4, 1, out, model=str(model))
    assert len(book) == 4 and bk.load(out).entries == book.entries
    root = Board.from_moves(opening)
    assert bk.position_key(root)[0] in book.entries  # reach 1: searched first
    first = bk.Book(entries=dict(book.entries))
    for key, entry in book.entries.items():  # each entry's move is legal in its position
        position = bk.board_of_key(key)
        assert bk.position_key(position)[0] == key
        x, y = entry.move % 15, entry.move // 15
        assert position[x, y] == Color.EMPTY and position.is_legal(x, y)
    more = build(book, [opening], 0.05, 3, 1, out, model=str(model))
    assert len(more) == 7  # three new ones; the first four were not searched again
    assert all(more.entries[key] == entry for key, entry in first.entries.items())


def test_bookmaker_command_line_records_each_run(tmp_path, model):
    from engine.book.make import main
    openings = tmp_path / "openings.txt"
    openings.write_text("h8 h9 j8\n")
    out = tmp_path / "book.json.gz"
    args = ["--out", str(out), "--openings", str(openings), "--model", str(model), "--ms", "50", "--workers", "1"]
    assert main(args + ["--positions", "2"]) == 0
    assert main(args + ["--positions", "3", "--max-replies", "2"]) == 0
    book = bk.load(out)
    assert len(book) == 5
    assert [(r["positions"], r["grow"]["max_replies"]) for r in book.about["runs"]] == [(2, 4), (3, 2)]


def test_mover_weight_spends_the_searches_on_one_tree(model):
    opening = [(7, 7), (7, 8), (9, 7)]

    def first_replies(weight: float) -> int:
        """Entries one stone past the opening: the tree where the engine moves first has one there
        (its chosen move), the tree where it answers one per likely reply."""
        # spread 0: each reply as likely as another, so siblings come before a deeper line
        grow = Grow(min_share=0.0, max_replies=8, spread=0.0, mover_weight=weight)
        book = build(bk.Book(), [opening], 0.05, 6, 1, None, grow, model=str(model))
        assert len(book) == 6
        return sum(bk.board_of_key(key).stone_count == 4 for key in book.entries)

    assert first_replies(1e6) == 1
    assert first_replies(1e-6) >= 3


def test_a_teacher_engine_fills_the_entries_and_our_search_grows_the_trees(model):
    opening = [(7, 7), (7, 8), (9, 7)]
    teacher = Teacher((sys.executable, str(FAKE), "--score-only"), 50, scale=100)
    book = build(bk.Book(), [opening], 0.05, 5, 1, None, model=str(model), teacher=teacher)
    assert len(book) == 5  # the scores decide nothing, so the lines go on past the first entry

    def centre_distance(p):
        return abs(p[0] - 7) + abs(p[1] - 7)

    for key, entry in book.entries.items():
        position = bk.board_of_key(key)
        # the scripted engine plays a free point nearest the centre, whatever the symmetry
        free = [(x, y) for x in range(15) for y in range(15) if position[x, y] == Color.EMPTY]
        assert centre_distance((entry.move % 15, entry.move // 15)) == min(map(centre_distance, free))
        assert entry.value == pytest.approx(math.tanh(35 / 100), abs=1e-4)
        assert entry.replies  # from our own search: they grow the trees
    root_key, k = bk.position_key(Board.from_moves(opening))
    assert bk.to_board(book.entries[root_key].move, k, 15) == (6, 7)  # its first pick, in our frame
    # a reported win settles the position: its line stops at the first entry
    winner = Teacher((sys.executable, str(FAKE)), 50)
    won = build(bk.Book(), [opening], 0.05, 5, 1, None, model=str(model), teacher=winner)
    assert len(won) == 1 and next(iter(won.entries.values())).value == 1.0


def test_a_teachers_foul_is_not_put_in_the_book(model):
    # black to move; the centre, the scripted engine's answer, makes two open threes for black
    line = [(5, 7), (0, 0), (6, 7), (0, 2), (7, 5), (14, 14), (7, 6), (14, 12)]
    board = Board.from_moves(line)
    assert board.foul(7, 7) == Foul.DOUBLE_THREE
    book = build(bk.Book(), [line], 0.05, 1, 1, None, model=str(model),
                 teacher=Teacher((sys.executable, str(FAKE), "--score-only"), 50))
    (key, entry), = book.entries.items()
    _, k = bk.position_key(board)
    move = bk.to_board(entry.move, k, 15)
    assert move != (7, 7) and board.is_legal(*move)  # our own search's move instead
