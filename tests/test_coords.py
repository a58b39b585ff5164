import pytest

from engine.board.coords import format_point, parse_point, parse_points
from engine.native import BoardError


def test_parse_point_forms():
    assert parse_point("h8") == (7, 7)
    assert parse_point("H8") == (7, 7)
    assert parse_point("a1") == (0, 0)
    assert parse_point("o15") == (14, 14)
    assert parse_point("7,7") == (7, 7)
    assert parse_point(" 3 , 12 ") == (3, 12)


@pytest.mark.parametrize("bad", ["", "h", "8", "h0", "hh8", "7;7", "7,", "h8x"])
def test_parse_point_rejects(bad):
    with pytest.raises(BoardError):
        parse_point(bad)


def test_parse_points_forms():
    assert parse_points("h8h9i7i9h10i6i11i12")[4] == (7, 9)
    assert parse_points("h8,h9,i7") == [(7, 7), (7, 8), (8, 6)]
    assert parse_points("h8 h9") == [(7, 7), (7, 8)]
    assert parse_points("7,7;7,8") == [(7, 7), (7, 8)]
    assert parse_points("7,7") == [(7, 7)]
    assert parse_points("7,7 8,9") == [(7, 7), (8, 9)]
    assert parse_points("H8, h9") == [(7, 7), (7, 8)]
    assert parse_points("") == []
    with pytest.raises(BoardError):
        parse_points("h8,zz")


def test_format_roundtrip():
    for p in [(0, 0), (7, 7), (14, 14), (21, 21)]:
        assert parse_point(format_point(p)) == p
