"""The pattern player: wins, blocks, defends, never plays an illegal or forbidden move."""
from __future__ import annotations

import random
import threading
import time

import pytest

from engine.board import Board, Color, Foul, Rule
from engine.players import Limits, PatternPlayer
from engine.players.registry import make_player
from engine.protocol.session import Session, side_balance


def limits() -> Limits:
    return Limits(deadline=time.monotonic() + 5)


def test_empty_board_centre():
    assert PatternPlayer().choose(Board(15), limits()) == (7, 7)
    assert PatternPlayer().choose(Board(20), limits()) == (10, 10)


@pytest.mark.parametrize("rule", list(Rule))
def test_wins_now_rather_than_blocking(rule):
    # Black: four on row 3 (0..3); white: four on row 9. Black to move must win at (4, 3).
    b = Board.from_stones([(i, 3) for i in range(1, 5)], [(i, 9) for i in range(1, 5)], to_move=Color.BLACK, rule=rule)
    assert PatternPlayer().choose(b, limits()) in {(0, 3), (5, 3)}


def test_blocks_a_five():
    b = Board.from_stones([(i, 3) for i in range(1, 5)] + [(10, 10)], [(7, 7), (8, 8), (12, 12)],
                          to_move=Color.WHITE, rule=Rule.FREESTYLE)
    assert PatternPlayer().choose(b, limits()) in {(0, 3), (5, 3)}


def test_blocks_an_open_three():
    b = Board.from_moves([(7, 7), (0, 0), (8, 7), (0, 14), (9, 7)], rule=Rule.FREESTYLE)
    assert PatternPlayer().choose(b, limits()) in {(6, 7), (10, 7)}


def test_never_plays_a_forbidden_point_even_when_it_looks_best():
    # g9 (6, 8) is black's double three and the attractive point of the ZIP-check position.
    b = Board.from_moves([(7, 7), (7, 8), (8, 6), (8, 8), (7, 9), (8, 5), (8, 10), (8, 11)])
    assert b.foul(6, 8) == Foul.DOUBLE_THREE
    ranked = PatternPlayer().ranked(b, limits())
    assert (6, 8) not in [m for m, _ in ranked]
    assert all(b.is_legal(*m) for m, _ in ranked)


def test_random_games_only_legal_moves():
    rng = random.Random(3)
    for rule in Rule:
        b = Board(15, rule)
        p = PatternPlayer(seed=rng.randrange(1000))
        while not b.game_over and b.stone_count < 120:
            m = p.choose(b, limits()) if b.to_move == Color.BLACK else rng.choice(b.legal_moves())
            assert b.is_legal(*m)
            b.play(*m)


def test_make_player():
    assert make_player("pattern").name == "pattern"
    with pytest.raises(ValueError):
        make_player("nobody")


def test_swap_decision():
    """SWAP2: facing black's three in a row with one white stone far away, white takes black."""
    b = Board.from_moves([(6, 7), (0, 0), (7, 7), (1, 0), (8, 7)], rule=Rule.FREESTYLE)
    assert side_balance(b, PatternPlayer(), limits()) < 0
    s = Session(PatternPlayer())
    s.handle("START 15")
    assert s.handle("SWAP2BOARD") == []
    replies = [r for line in ["6,7", "0,0", "7,7", "1,0", "8,7", "DONE"] for r in s.handle(line)]
    assert replies == ["SWAP"]


class WaitingPlayer(PatternPlayer):
    """Thinks until the deadline or a stop, then answers like the pattern player."""

    name = "waiting"

    def __init__(self) -> None:
        super().__init__()
        self.waited = 0.0

    def choose(self, board, limits):
        t0 = time.monotonic()
        while not limits.expired():
            time.sleep(0.005)
        self.waited = time.monotonic() - t0
        return super().choose(board, limits)


def test_think_respects_the_turn_budget():
    player = WaitingPlayer()
    s = Session(player)
    s.handle("START 15")
    s.handle("INFO timeout_turn 1000")
    t0 = time.monotonic()
    reply = s.handle("BEGIN", received=t0)
    assert reply == ["7,7"]
    assert 0.5 < time.monotonic() - t0 < 1.0  # the manager's ~0.89 s, inside the 1 s turn even when loaded


def test_yxstop_stops_a_thinking_engine():
    import io
    import os

    from engine.protocol.loop import serve

    player = WaitingPlayer()
    session = Session(player)
    r, w = os.pipe()
    inp, wr = os.fdopen(r, "r"), os.fdopen(w, "w")
    out = io.StringIO()
    done = threading.Event()

    def run():
        serve(session, inp, out)
        done.set()

    threading.Thread(target=run, daemon=True).start()
    wr.write("START 15\nINFO timeout_turn 20000\nBEGIN\n")
    wr.flush()
    time.sleep(0.3)
    t0 = time.monotonic()
    wr.write("YXSTOP\n")
    wr.flush()
    deadline = time.monotonic() + 5
    while "7,7" not in out.getvalue() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert out.getvalue().splitlines() == ["OK", "7,7"]
    assert time.monotonic() - t0 < 1.0  # answered at once, not after 17 s
    wr.write("END\n")
    wr.flush()
    assert done.wait(5)


def test_first_move_pays_for_startup():
    player = WaitingPlayer()
    s = Session(player, startup=0.4)
    s.handle("START 15")
    s.handle("INFO timeout_turn 1000")
    s.handle("BEGIN")
    first = player.waited
    s.handle("TURN 0,0")
    second = player.waited
    assert second - first == pytest.approx(0.4, abs=0.08)


def test_make_player_model_choices(tmp_path):
    from engine.players.registry import make_player

    assert make_player("mcts", model="heuristic").mcts.ev.name == "heuristic"
    missing = make_player("mcts", model=str(tmp_path / "nope.onnx"))
    assert missing.mcts.ev.name == "heuristic" and "not found" in missing.load_message
    assert make_player("alphabeta", model="heuristic").name == "alphabeta"  # other players ignore it


def test_the_shipped_model_is_the_newest_net_and_its_int8_twin_on_a_cpu(tmp_path):
    from engine.search.player import shipped_model

    assert shipped_model(folder=tmp_path) is None
    for name in ("pbrain-renju-v1.onnx", "pbrain-renju-v1-int8.onnx", "pbrain-renju-v2.onnx"):
        (tmp_path / name).write_bytes(b"x")
    assert shipped_model(gpu=False, folder=tmp_path).endswith("pbrain-renju-v2.onnx")  # v2 has no twin yet
    (tmp_path / "pbrain-renju-v2-int8.onnx").write_bytes(b"x")
    assert shipped_model(gpu=False, folder=tmp_path).endswith("pbrain-renju-v2-int8.onnx")
    assert shipped_model(gpu=True, folder=tmp_path).endswith("pbrain-renju-v2.onnx")
    for version in ("v9", "v10"):
        for suffix in (".onnx", "-int8.onnx"):
            (tmp_path / f"pbrain-renju-{version}{suffix}").write_bytes(b"x")
    # v10 comes after v9 (and v2), not before v2 as in plain name order
    assert shipped_model(gpu=False, folder=tmp_path).endswith("pbrain-renju-v10-int8.onnx")
    assert shipped_model(gpu=True, folder=tmp_path).endswith("pbrain-renju-v10.onnx")


def test_search_settings_from_the_command_line():
    from engine.players.registry import make_player, search_config

    cfg = search_config("verify_ms=400, verify_share=0.4,utss=false,batch=4")
    assert cfg.verify_ms == 400.0 and cfg.verify_share == 0.4 and cfg.utss is False and cfg.batch == 4
    assert search_config("").c_puct == search_config("c_puct=1.6").c_puct
    for bad in ("nonsense=1", "verify_ms", "batch=x"):
        with pytest.raises(ValueError):
            search_config(bad)
    player = make_player("mcts", model="heuristic", search="verify_ms=7")
    assert player.mcts.cfg.verify_ms == 7.0 and player.mcts.ev.name == "heuristic"
    assert make_player("mcts", search="c_puct=2").mcts.cfg.c_puct == 2.0  # the shipped model, tuned search
