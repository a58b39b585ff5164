import pytest

from engine.protocol import memory
from engine.protocol.session import DEFAULT_MAX_MEMORY, Session
from tests.protocol_helpers import CentrePlayer


@pytest.mark.real_rss
def test_rss_is_measured():
    used = memory.rss_bytes()
    assert 5 * 2**20 < used < 2**31  # a Python process with numpy: megabytes, not nothing


def test_search_allowance():
    assert memory.search_allowance(350 * 2**20, used=50 * 2**20) == int(350 * 2**20 * memory.SAFETY) - 50 * 2**20
    assert memory.search_allowance(10 * 2**20, used=50 * 2**20) == 0


def test_too_small_max_memory_is_reported_with_the_next_reply():
    s = Session(CentrePlayer())
    assert s.handle("START 15") == ["OK"]
    assert s.handle("INFO max_memory 1048576") == []  # INFO is never answered
    replies = s.handle("BEGIN")
    assert replies[0].startswith("MESSAGE max_memory 1 MB is below") and replies[1] == "7,7"
    assert s.handle("INFO max_memory 0") == [] and s.max_memory == DEFAULT_MAX_MEMORY
    assert s.handle("TURN 0,0") == ["6,6"]  # no warning for the default 350 MB
