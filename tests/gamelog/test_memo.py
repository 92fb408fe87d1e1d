"""The memo that keeps a game's scores between requests: a value is worked out once per key, and
the least recently used key is the one forgotten when it is full."""

from __future__ import annotations

from scorekeeper.gamelog.memo import Memo


def test_a_value_is_made_once_and_then_found():
    made: list[str] = []

    def make(value: str) -> str:
        made.append(value)
        return value

    memo: Memo[str] = Memo(2)
    assert memo.get("a", lambda: make("A")) == "A"
    assert memo.get("a", lambda: make("other")) == "A"
    assert made == ["A"]
    assert memo.lookup("a") == "A"


def test_a_key_never_put_is_not_found():
    memo: Memo[str] = Memo(2)
    assert memo.lookup("a") is None
    memo.put("b", "B")
    assert memo.lookup("a") is None and memo.lookup("b") == "B"


def test_it_holds_exactly_its_size_and_forgets_the_least_recently_used():
    memo: Memo[str] = Memo(2)
    memo.put("a", "A")
    memo.put("b", "B")
    assert (memo.lookup("a"), memo.lookup("b")) == ("A", "B")  # two fit in a memo of two
    assert memo.lookup("a") == "A"  # a is now used after b
    memo.put("c", "C")  # b, the least recently used, goes
    assert (memo.lookup("a"), memo.lookup("b"), memo.lookup("c")) == ("A", None, "C")


def test_putting_a_key_again_replaces_its_value_and_makes_it_the_most_recent():
    memo: Memo[str] = Memo(2)
    memo.put("a", "A")
    memo.put("b", "B")
    memo.put("a", "A2")
    memo.put("c", "C")  # b goes: a was put after it
    assert (memo.lookup("a"), memo.lookup("b"), memo.lookup("c")) == ("A2", None, "C")


def test_a_value_made_by_get_is_kept_as_a_put_one_is():
    memo: Memo[int] = Memo(1)
    assert memo.get("a", lambda: 1) == 1
    assert memo.lookup("a") == 1
    assert memo.get("b", lambda: 2) == 2
    assert (memo.lookup("a"), memo.lookup("b")) == (None, 2)
