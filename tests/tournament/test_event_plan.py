"""Planning a whole event's seating: stored schedules checked, the plan never worse than
round-by-round seating, never better than its lower bound (exhaustive search on small
fields), fair sit-outs, late arrivals and withdrawals, seats turned."""

from __future__ import annotations

import itertools
import json
import math
import resource
import subprocess
import time
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.scoring.game import partners_opposite
from scorekeeper.tournament.names_list import NAMES_MAX_BYTES, numbered_players, read_names
from scorekeeper.tournament.plan import MAX_ROUNDS, Plan, plan_event
from scorekeeper.tournament.plan_quality import quality
from scorekeeper.tournament.schedules import TABLES, WHIST, round_robin, stored
from scorekeeper.tournament.seating import SeatingError, seat_round, table_sizes

QUICK = 0.5  # seconds a search may take in these tests


def pair_counts(rounds, pick=lambda table: [table]):
    counts: Counter[frozenset] = Counter()
    for tables in rounds:
        for table in tables:
            for group in pick(table):
                for a, b in itertools.combinations(group, 2):
                    counts[frozenset((a, b))] += 1
    return counts


def opponents(table):
    first, second = partners_opposite(table)
    return [[a, b] for a in first for b in second]


# -- The stored schedules: checked here, not trusted -------------------------------------------


@pytest.mark.parametrize("schedule", stored(), ids=lambda s: f"{s.kind}-{s.players}")
def test_every_stored_schedule_is_what_it_says(schedule):
    players = list(range(schedule.players))
    assert schedule.source and schedule.name
    for tables in schedule.rounds:
        assert sorted(p for table in tables for p in table) == players, "each round seats everyone once"
        assert all(len(table) == 4 for table in tables)
    if schedule.kind == TABLES:
        assert max(pair_counts(schedule.rounds).values()) == 1, "no two players at a table twice"
    else:
        assert schedule.kind == WHIST
        assert len(schedule.rounds) == schedule.players - 1
        partners = pair_counts(schedule.rounds, lambda table: [list(pair) for pair in partners_opposite(table)])
        against = pair_counts(schedule.rounds, opponents)
        every_pair = {frozenset(pair) for pair in itertools.combinations(players, 2)}
        assert set(partners) == every_pair and set(partners.values()) == {1}, "every pair partners exactly once"
        assert set(against) == every_pair and set(against.values()) == {2}, "every pair opposes exactly twice"


@pytest.mark.parametrize("count", [2, 4, 8, 16, 30])
def test_the_round_robin_pairs_everyone_once(count):
    rounds = round_robin(count)
    assert len(rounds) == count - 1
    assert all(sorted(p for pair in matches for p in pair) == list(range(count)) for matches in rounds)
    assert set(pair_counts([[list(pair) for pair in matches] for matches in rounds]).values()) == {1}


# -- The aim: no repeats wherever a schedule is known ---------------------------------------------

KNOWN = [(16, 5), (20, 5), (24, 7), (28, 9), (32, 10), (40, 13)]


@pytest.mark.parametrize("players, most_rounds", KNOWN)
def test_no_repeated_table_mates_for_any_number_of_a_known_schedules_rounds(players, most_rounds):
    for rounds in range(1, most_rounds + 1):
        plan = plan_event(numbered_players(players), rounds, seconds=QUICK)
        assert plan.quality.repeats == 0, (players, rounds, plan.source)
        assert_seated_as_asked(plan, numbered_players(players), rounds)


@pytest.mark.parametrize("players, rounds", [(15, 5), (23, 7), (31, 10)])
def test_a_known_schedule_without_a_player_seats_a_three_and_still_no_repeats(players, rounds):
    plan = plan_event(numbered_players(players), rounds, seconds=QUICK)
    assert plan.quality.repeats == 0
    assert all(sorted(map(len, tables)) == sorted(table_sizes(players)) for tables in plan.rounds)


@pytest.mark.parametrize("players, rounds", [(30, 10), (22, 5), (39, 13), (19, 5)])
def test_a_known_schedule_without_players_who_never_met_keeps_no_repeats_and_shares_the_threes_fairly(players, rounds):
    """Two players left out of a schedule always met once (2 repeats at 14 x 5 and 38 x 13): now the
    ones left out are ones who never met where there are such, and the rounds are ordered so the
    tables of three go round fairly."""
    plan = plan_event(numbered_players(players), rounds, seconds=QUICK)
    assert plan.quality.repeats == 0 and plan.quality.most == 1
    assert odd_tables_fair(plan.rounds)


@pytest.mark.parametrize("players", [8, 12, 16])
def test_rotating_partners_follow_a_whist_design_every_pair_partners_once_and_opposes_twice(players):
    plan = plan_event(numbered_players(players), players - 1, "rotate", seconds=QUICK)
    partners = pair_counts(plan.rounds, lambda table: [list(pair) for pair in partners_opposite(table)])
    against = pair_counts(plan.rounds, opponents)
    assert set(partners.values()) == {1} and len(partners) == players * (players - 1) // 2
    assert set(against.values()) == {2}
    assert plan.quality.partner_repeats == 0


def test_fixed_partnerships_meet_every_other_partnership_once_as_a_round_robin():
    players = numbered_players(16)
    plan = plan_event(players, 7, "fixed", seconds=QUICK)
    pairs = {frozenset(pair) for tables in plan.rounds for table in tables for pair in partners_opposite(table)}
    assert pairs == {frozenset(players[i : i + 2]) for i in range(0, 16, 2)}, "partners as listed, opposite"
    assert plan.quality.repeats == 0 and plan.quality.most == 1


# -- Never worse than round by round; never better than the bound ---------------------------------


def round_by_round(players, rounds, seed):
    """Each round seated on its own after those before, as events were seated before plans
    (with ``seed`` 0, exactly as they were: round N's seed was N)."""
    seated: list = []
    for number in range(rounds):
        seated.append(seat_round(players, seated, seed=seed + number + 1))
    return seated


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(8, 40), rounds=st.integers(3, 12), seed=st.integers(0, 3))
def test_a_plan_is_never_worse_than_seating_round_by_round_most_meetings_first(players, rounds, seed):
    names = numbered_players(players)
    plan = plan_event(names, rounds, seed=seed, seconds=QUICK)
    seated = round_by_round(names, rounds, seed)
    before = quality(seated, "none", players)
    assert_seated_as_asked(plan, names, rounds)
    assert plan.quality.bound <= plan.quality.repeats and plan.quality.most_bound <= plan.quality.most
    assert odd_tables_fair(plan.rounds)
    if odd_tables_fair(seated):  # else the plan may not seat as round by round did
        assert (plan.quality.most, plan.quality.repeats) <= (before.most, before.repeats)


def all_partitions(players, sizes):
    """Every way to seat ``players`` at tables of ``sizes`` (tables unordered, seats unordered):
    the first player's table is each size in turn, with each choice of table-mates."""
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in set(sizes):
        left_sizes = list(sizes)
        left_sizes.remove(size)
        for others in itertools.combinations(rest, size - 1):
            left = [p for p in rest if p not in others]
            for tail in all_partitions(left, left_sizes):
                yield [[first, *others], *tail]


def test_every_partition_is_listed_once():
    partitions = list(all_partitions(list("abcdefg"), [4, 3]))
    assert len(partitions) == math.comb(7, 3)
    assert len({frozenset(frozenset(t) for t in p) for p in partitions}) == len(partitions)


def odd_tables_fair(rounds) -> bool:
    """Nobody at a table of three or five twice before everyone has been at one once (and so
    on): after every round, the counts of such tables differ by at most one between players.
    A round whose tables are all of one size gives nobody a choice."""
    counts: Counter[str] = Counter()
    for tables in rounds:
        if all(len(t) == 4 for t in tables) or all(len(t) != 4 for t in tables):
            continue
        for table in tables:
            for name in table:
                counts[name] += len(table) != 4
        if max(counts.values()) - min(counts.values()) > 1:
            return False
    return True


def ranked(rounds, players):
    """How a plan is ranked: the most times two players meet, then the total of repeats."""
    meetings = pair_counts(rounds)
    return max(meetings.values()), sum(m - 1 for m in meetings.values())


SMALL = [
    (6, 2, "usual"),
    (6, 3, "usual"),
    (7, 3, "usual"),
    (8, 2, "usual"),
    (8, 3, "usual"),
    (9, 2, "usual"),
    (9, 3, "usual"),
    (9, 3, "threes"),
    (10, 2, "usual"),
    (10, 2, "fives"),
    (5, 4, "usual"),
    (7, 4, "usual"),
    (8, 4, "usual"),
]


@pytest.mark.parametrize("players, rounds, odd", SMALL)
def test_on_small_fields_the_plan_ranks_first_of_every_fair_plan_and_its_bounds_hold(players, rounds, odd):
    """Every plan of a tiny field, enumerated: the search's plan has the fewest "most times two
    players meet" of any plan that shares tables of three or five fairly, then the fewest repeats;
    no plan at all goes below either stated lower bound."""
    names = numbered_players(players)
    sizes = table_sizes(players, odd=odd)
    choices = list(all_partitions(names, sizes))
    every = [[first, *rest] for first in choices[:1] for rest in itertools.product(choices, repeat=rounds - 1)]
    # relabelling: any first round is as good as another, for fairness too (every count is 0 before it)
    best = min(ranked(plan, players) for plan in every if odd_tables_fair(plan))
    least_most = min(ranked(plan, players)[0] for plan in every)
    least_repeats = min(ranked(plan, players)[1] for plan in every)
    plan = plan_event(names, rounds, odd=odd, seconds=2)
    assert odd_tables_fair(plan.rounds)
    assert (plan.quality.most, plan.quality.repeats) == best == ranked(plan.rounds, players)
    assert plan.quality.most_bound <= least_most, "no plan meets fewer times than the bound says"
    assert plan.quality.bound <= least_repeats, "no plan repeats less than the bound says"


# -- Who plays: sit-outs, late arrivals, withdrawals --------------------------------------------


@pytest.mark.parametrize("players, partnerships", [(18, "rotate"), (19, "rotate"), (10, "fixed"), (7, "rotate")])
def test_nobody_sits_out_twice_before_everyone_has_once(players, partnerships):
    names = numbered_players(players)
    rounds = 12
    plan = plan_event(names, rounds, partnerships, seconds=QUICK)
    counts: Counter[str] = Counter()
    for out in plan.sitting_out:
        assert out, "these numbers do not divide into tables: someone sits out each round"
        playing = [n for n in names if n not in out]
        for name in out:
            assert counts[name] <= min(counts[n] for n in playing), f"{name} sits out again before everyone has"
        counts.update(out)
    assert_seated_as_asked(plan, names, rounds)


def test_a_withdrawal_and_a_late_arrival_keep_what_was_played_and_plan_the_rest():
    names = numbered_players(16)
    first = plan_event(names, 5, seconds=QUICK)
    played = first.rounds[:2]
    late = [*names, "Late"]
    plan = plan_event(
        late, 5, played=played, arrives={"Late": 3}, leaves={"P5": 3}, previous=first.rounds, seconds=QUICK
    )
    assert plan.rounds[:2] == played, "nothing played changes"
    for number, tables in enumerate(plan.rounds[2:], start=3):
        seated = [p for table in tables for p in table]
        assert "P5" not in seated and "Late" in seated, number
        assert sorted(seated) == sorted(set(late) - {"P5"})
    assert "Late" not in {p for tables in played for table in tables for p in table}
    assert plan.quality.repeats <= first.quality.repeats + plan.quality.bound + 4


def test_a_player_withdrawn_from_round_one_never_plays_and_a_late_one_plays_from_their_round():
    names = numbered_players(13)
    plan = plan_event(names, 4, arrives={"P13": 3}, leaves={"P1": 1}, seconds=QUICK)
    for number, tables in enumerate(plan.rounds, start=1):
        seated = {p for table in tables for p in table}
        assert "P1" not in seated
        assert ("P13" in seated) == (number >= 3)


@pytest.mark.parametrize("partnerships", ["none", "rotate"])
def test_a_round_played_otherwise_than_the_roster_says_is_kept_and_the_rest_still_planned(partnerships):
    """A round seated with a player who was withdrawn from it, and one that left players out
    (tables written by hand): what was played stands, and the rounds to come are planned."""
    names = numbered_players(16)
    first = plan_event(names, 4, partnerships, seconds=QUICK)
    with_the_withdrawn = first.rounds[:2]  # P1 played round 2, though withdrawn from it
    plan = plan_event(names, 4, partnerships, played=with_the_withdrawn, leaves={"P1": 2}, seconds=QUICK)
    assert plan.rounds[:2] == with_the_withdrawn
    for tables in plan.rounds[2:]:
        seated = [p for table in tables for p in table]
        # 15 present: alone, fours and a three; with partners, fours only and three sit out
        assert "P1" not in seated and len(seated) == (12 if partnerships == "rotate" else 15)
    few = [first.rounds[0][:2]]  # only two tables seated in round 1: eight players left out
    plan = plan_event(names, 4, partnerships, played=few, leaves={"P16": 1}, seconds=QUICK)
    assert plan.rounds[:1] == few and len(plan.rounds) == 4


@pytest.mark.parametrize("partnerships", ["fixed", "rotate", "none"])
def test_a_round_seated_by_hand_that_re_pairs_partners_is_planned_around_with_everyone_seated_once(partnerships):
    """Seen at a fresh event: with fixed partners, round 1 seated by hand with one player swapped
    between two tables made new pairs, and the new plan, started from the old one, seated a pair
    at two tables of a round and left another out."""
    names = numbered_players(16)
    first = plan_event(names, 5, partnerships, seconds=QUICK)
    for mine, theirs in itertools.product(range(4), repeat=2):  # every swap between the first and last tables
        by_hand = [table[:] for table in first.rounds[0]]
        by_hand[0][mine], by_hand[3][theirs] = by_hand[3][theirs], by_hand[0][mine]
        plan = plan_event(names, 5, partnerships, played=[by_hand], previous=first.rounds, seconds=QUICK)
        assert plan.rounds[0] == by_hand
        assert_seated_as_asked(plan, names, 5)
        if partnerships == "fixed":
            pairs = {frozenset(pair) for table in by_hand for pair in partners_opposite(table)}
            for tables in plan.rounds[1:]:
                assert {frozenset(pair) for table in tables for pair in partners_opposite(table)} == pairs


def test_with_a_previous_plan_and_nothing_changed_the_plan_stays():
    names = numbered_players(20)
    first = plan_event(names, 5, seconds=QUICK)
    again = plan_event(names, 5, played=first.rounds[:1], previous=first.rounds, seconds=QUICK)
    same = [sorted(sorted(t) for t in r) for r in again.rounds]
    assert same == [sorted(sorted(t) for t in r) for r in first.rounds]


# -- Seats ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players, rounds, partnerships", [(16, 8, "none"), (16, 8, "rotate"), (20, 5, "none")])
def test_seats_turn_nobody_always_deals_first(players, rounds, partnerships):
    plan = plan_event(numbered_players(players), rounds, partnerships, seconds=QUICK)
    firsts = Counter(table[0] for tables in plan.rounds for table in tables)
    assert max(firsts.values()) <= math.ceil(rounds / 4) + 1
    assert plan.quality.deals_first == max(firsts.values())
    assert plan.quality.seat_spread <= 2


# -- Refusals -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: plan_event(numbered_players(8), 0), "1 to"),
        (lambda: plan_event(numbered_players(8), MAX_ROUNDS + 1), "1 to"),
        (lambda: plan_event(["Ann", "Ann", "Bob"], 2), "same name"),
        (lambda: plan_event(numbered_players(9), 2, "fixed"), "even number"),
        (lambda: plan_event(numbered_players(8), 2, "sideways"), "partnerships must be"),
        (lambda: numbered_players(1), "2 to"),
        (lambda: read_names("Ann\nann\n"), "listed twice"),
        (lambda: read_names("Ann\n" + "x" * 31), "at most 30"),
        (lambda: read_names("Ann\nB\tob\n"), r"^line 2: a name cannot hold a control character \(a tab\)\.$"),
        (lambda: read_names("Ann\nBob\nC\0y\n"), r"^line 3: a name cannot hold a control character \(a NUL\)\.$"),
        (lambda: read_names("Ann\nBob\x1bCy\n"), r"^line 2: a name cannot hold a control character \(U\+001B\)\.$"),
        (lambda: read_names("Ann\r\nBob\fCy\r\nDi"), r"^line 2: .*control character \(U\+000C\)\.$"),
        (lambda: read_names("Ann\nBob\u2028Cy\n"), r"^line 2: .*control character \(a line break\)\.$"),
        (lambda: read_names("Ann\nSmith, Bob\n"), r"^line 2: a name cannot hold a comma: the tables are written"),
    ],
)
def test_a_plan_that_cannot_be_made_is_refused_in_words(call, words):
    with pytest.raises(SeatingError, match=words):
        call()


def test_a_names_list_is_read_in_lines_as_an_editor_counts_them_spaces_and_blank_lines_aside():
    assert read_names("  Ann \r\n\r\nBob\t\rCy\n\nDi\n") == ["Ann", "Bob", "Cy", "Di"]
    with pytest.raises(SeatingError, match=r"^line 5: ann is listed twice\.$"):
        read_names("Ann\r\nBob\rCy\n\nann\n")


def assert_seated_as_asked(plan: Plan, names, rounds):
    """Every round seats each player once (or sits them out), at tables the numbers allow."""
    assert len(plan.rounds) == rounds
    for tables, out in zip(plan.rounds, plan.sitting_out, strict=True):
        seated = [p for table in tables for p in table]
        assert len(seated) == len(set(seated))
        assert sorted(seated + out) == sorted(names)
        assert all(len(table) in (3, 4, 5) for table in tables)


# -- The command line -----------------------------------------------------------------------------


def test_seat_json_is_exactly_the_rounds_each_a_list_of_tables_in_seat_order():
    from tests.cli.test_cli import run

    result = run("seat", "--players", "20", "--rounds", "5", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert list(data) == ["rounds"] and len(data["rounds"]) == 5
    for tables in data["rounds"]:
        assert sorted(p for table in tables for p in table) == sorted(numbered_players(20))
        assert all(len(table) == 4 for table in tables)
    assert quality(data["rounds"]).repeats == 0


def test_seat_reads_names_from_a_file_and_sits_out_who_the_tables_cannot_hold(tmp_path):
    from tests.cli.test_cli import run

    names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Wolfeschlegelsteinhausenberge"]
    path = tmp_path / "names.txt"
    path.write_text("\n".join(names) + "\n\n")
    result = run(
        "seat", "--players-file", str(path), "--rounds", "4", "--partnerships", "rotating", "--json", "--seconds", "1"
    )
    assert result.returncode == 0, result.stderr
    rounds = json.loads(result.stdout)["rounds"]
    out: Counter[str] = Counter()
    for tables in rounds:
        seated = [p for table in tables for p in table]
        assert len(seated) == 8 and set(seated) <= set(names)
        out.update(set(names) - set(seated))
    assert sum(out.values()) == 8 and max(out.values()) == 1, "two sit out a round, nobody twice"
    text = run("seat", "--players-file", str(path), "--rounds", "4", "--partnerships", "rotating", "--seconds", "1")
    assert "Sitting out:" in text.stdout and "Partners again: 0" in text.stdout


@pytest.mark.parametrize(
    "args, words",
    [
        (["--players", "1", "--rounds", "3"], "2 to 300"),
        (["--players", "301", "--rounds", "3"], "2 to 300"),
        (["--players", "8", "--rounds", "0"], "1 to 30"),
        (["--players", "8", "--rounds", "31"], "1 to 30"),
        (["--players", "9", "--rounds", "2", "--partnerships", "fixed"], "even number"),
        (["--rounds", "2"], "--players"),
        (["--players", "8", "--rounds", "2", "--partnerships", "sideways"], "sideways"),
        (["--players-file", "/no/such/file", "--rounds", "2"], "no such file"),
        (["--players", "x", "--rounds", "2"], "x"),
        (["--players", "8", "--rounds", "2", "--seconds", "nan"], "nan is not a number of seconds (0.1 to 60)"),
        (["--players", "8", "--rounds", "2", "--seconds", "inf"], "inf is not a number of seconds (0.1 to 60)"),
        (["--players", "8", "--rounds", "2", "--seconds", "0"], "0 is not a number of seconds (0.1 to 60)"),
        (["--players", "8", "--rounds", "2", "--seconds", "-1"], "-1 is not a number of seconds (0.1 to 60)"),
        (["--players", "8", "--rounds", "2", "--seconds", "0.05"], "0.05 is not a number of seconds (0.1 to 60)"),
        (["--players", "8", "--rounds", "2", "--seconds", "61"], "61 is not a number of seconds (0.1 to 60)"),
        (["--players", "8", "--rounds", "2", "--seconds", "soon"], "soon is not a number of seconds (0.1 to 60)"),
    ],
)
def test_seat_refuses_bad_arguments_in_one_line(args, words):
    from tests.cli.test_cli import run

    result = run("seat", *args)
    assert result.returncode != 0
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in result.stderr


def names_file(tmp_path, data: bytes):
    path = tmp_path / "names.txt"
    path.write_bytes(data)
    return str(path)


def refused_in_one_line(result, words):
    assert result.returncode != 0 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert words in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize(
    "data, words",
    [
        ("Ann\nBob\nJosé\nDi\n".encode("latin-1"), "names.txt: line 3: not UTF-8 text (a file of names, one a line)"),
        ("Ann\r\nBob\r\nCy\r\nDi\xe9\n".encode("latin-1"), "names.txt: line 4: not UTF-8 text"),
        (b"Ann\nB\tob\nCy\nDi\n", "line 2: a name cannot hold a control character (a tab)"),
        (b"Ann\nBob\nC\0y\nDi\n", "line 3: a name cannot hold a control character (a NUL)"),
        (b"Ann\nBob\nSmith, Cy\nDi\n", "line 3: a name cannot hold a comma"),
        (b"\0" * (NAMES_MAX_BYTES + 1), "names.txt is larger than a list of 300 names can be: line 1 passes"),
        (
            b"Ann\n" + b" " * NAMES_MAX_BYTES + b"\nBob\n",
            "names.txt is larger than a list of 300 names can be: line 2 passes",
        ),
        (b"\n\nAnn\n\n", "line 3: the list ends with 1 name; an event has 2 to 300 players"),
        (b"\n".join(b"N%d" % i for i in range(301)), "line 301: name 301 of the list; an event has 2 to 300 players"),
    ],
)
def test_seat_refuses_a_names_file_that_is_no_list_of_names_in_one_line_naming_its_line(tmp_path, data, words):
    from tests.cli.test_cli import run

    line = refused_in_one_line(run("seat", "--players-file", names_file(tmp_path, data), "--rounds", "2"), words)
    assert "JSON" not in line and "game record" not in line


def test_seat_reads_at_most_what_a_list_of_names_can_take_from_an_endless_file():
    """/dev/zero is refused after reading a list's worth, in a process allowed 400 MB (it took 23 GB)."""
    from tests.cli.test_cli import SCRIPT

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (400 * 2**20, 400 * 2**20))

    for args, stdin in [(["--players-file", "/dev/zero"], None), (["--players-file", "-"], "/dev/zero")]:
        with open(stdin or "/dev/null", "rb") as source:
            result = subprocess.run(
                [SCRIPT, "seat", *args, "--rounds", "2"],
                stdin=source,
                capture_output=True,
                text=True,
                timeout=30,
                preexec_fn=limited,
            )
        where = "standard input" if stdin else "/dev/zero"
        refused_in_one_line(result, f"{where} is larger than a list of 300 names can be")


def test_seat_reads_the_largest_list_an_event_takes_every_name_at_its_longest(tmp_path):
    """300 names of 30 four-byte characters, CRLF, indented, blank lines between: within the bound."""
    from tests.cli.test_cli import run

    names = ["\U0001d504" * 28 + chr(0x1F600 + i // 20) + chr(0x1F600 + i % 20) for i in range(300)]
    data = "\r\n".join(f"  {name}  \r\n" for name in names).encode()
    assert len(data) <= NAMES_MAX_BYTES
    result = run("seat", "--players-file", names_file(tmp_path, data), "--rounds", "1", "--json", "--seconds", "0.1")
    assert result.returncode == 0, result.stderr
    (tables,) = json.loads(result.stdout)["rounds"]
    assert sorted(p for table in tables for p in table) == sorted(names)


@pytest.mark.parametrize("source", ["file", "standard input"])
def test_seat_leaves_a_byte_order_mark_out_of_the_first_name(tmp_path, source):
    from tests.cli.test_cli import run

    text = "\ufeffAnn\nBob\nCy\nDi\n"
    if source == "file":
        result = run("seat", "--players-file", names_file(tmp_path, text.encode()), "--rounds", "1", "--json")
    else:
        result = run("seat", "--players-file", "-", "--rounds", "1", "--json", stdin=text)
    assert result.returncode == 0, result.stderr
    (tables,) = json.loads(result.stdout)["rounds"]
    assert sorted(p for table in tables for p in table) == ["Ann", "Bob", "Cy", "Di"]


def test_with_fixed_partners_a_late_player_without_a_partner_sits_out_until_one_arrives():
    """Seen at a fresh event: one late player in a fixed-partners event made 'No plan could be
    made: fixed partnerships need an even number of players', for every round still to play."""
    names = numbered_players(16)
    played = plan_event(names, 5, "fixed", seconds=QUICK).rounds[:2]
    alone = plan_event([*names, "Late"], 5, "fixed", played=played, arrives={"Late": 4}, seconds=QUICK)
    assert alone.rounds[:2] == played
    for number, (tables, out) in enumerate(zip(alone.rounds, alone.sitting_out, strict=True), start=1):
        assert "Late" not in {p for table in tables for p in table}
        assert ("Late" in out) == (number >= 4), "sits out the rounds they are here for, without a partner"
    paired = plan_event(
        [*names, "Late", "Later"], 5, "fixed", played=played, arrives={"Late": 4, "Later": 5}, seconds=QUICK
    )
    assert {"Late", "Later"} <= {p for table in paired.rounds[4] for p in table}, "partners once both are here"
    with pytest.raises(SeatingError, match="even number"):
        plan_event(numbered_players(15), 3, "fixed", seconds=QUICK)


@pytest.mark.parametrize("count", ["4", "5"])
def test_seat_refuses_a_count_beside_a_names_file_even_one_that_agrees(tmp_path, count):
    """``--players 4 --players-file f`` said two things; the file was used without a word."""
    from tests.cli.test_cli import run

    path = names_file(tmp_path, b"Ann\nBob\nCy\nDi\n")
    line = refused_in_one_line(run("seat", "--players", count, "--players-file", path, "--rounds", "2"), "not both")
    assert "--players N or --players-file FILE" in line and line.endswith("how many play.")


# -- Most meetings first; tables of three or five shared fairly ------------------------------------


@pytest.mark.parametrize("players, rounds", [(13, 4), (12, 5), (17, 5)])
def test_seat_keeps_any_two_players_to_two_meetings_where_the_fewest_repeats_had_one_pair_meet_every_round(
    players, rounds
):
    """The plan minimised repeats: 3 pairs met in all 4 rounds at 13 x 4, one pair in all 5 at
    12 x 5. As a director runs it, with its own time limit, and within what a director waits."""
    from tests.cli.test_cli import run

    began = time.monotonic()
    result = run("seat", "--players", str(players), "--rounds", str(rounds), "--json")
    took = time.monotonic() - began
    assert result.returncode == 0, result.stderr
    rounds_seated = json.loads(result.stdout)["rounds"]
    assert len(rounds_seated) == rounds
    assert max(pair_counts(rounds_seated).values()) <= 2
    assert odd_tables_fair(rounds_seated)
    assert took < 20, f"{took:.1f} s"
    text = run("seat", "--players", str(players), "--rounds", str(rounds), "--seconds", "5").stdout
    assert "Most times two players meet: 2 (no plan can have fewer than 2)" in text


@pytest.mark.parametrize(
    "players, rounds, odd",
    [(13, 4, "usual"), (17, 5, "usual"), (9, 5, "usual"), (13, 6, "threes"), (14, 5, "fives"), (18, 4, "fives")],
)
def test_nobody_sits_at_a_table_of_three_or_five_twice_before_everyone_has_once(players, rounds, odd):
    """One player sat at the five in all 5 rounds of a plan while four never did."""
    plan = plan_event(numbered_players(players), rounds, odd=odd, seconds=QUICK)
    assert all(sorted(map(len, tables)) == sorted(table_sizes(players, odd=odd)) for tables in plan.rounds)
    assert odd_tables_fair(plan.rounds)
    at_odd = Counter(name for tables in plan.rounds for table in tables if len(table) != 4 for name in table)
    everyone = {name for tables in plan.rounds for table in tables for name in table}
    assert plan.quality.odd_most == max(at_odd.values())
    assert plan.quality.odd_least == min(at_odd[name] for name in everyone)
    assert plan.quality.odd_most - plan.quality.odd_least <= 1


def test_a_round_played_unfairly_by_hand_is_made_up_for_in_the_rounds_planned():
    """Round 1 seated by hand put P1-P5 at the five; nobody sits there again before the rest have."""
    names = numbered_players(13)
    played = [[["P1", "P2", "P3", "P4", "P5"], ["P6", "P7", "P8", "P9"], ["P10", "P11", "P12", "P13"]]]
    plan = plan_event(names, 3, played=played, seconds=QUICK)
    assert plan.rounds[0] == played[0]
    second = {n for t in plan.rounds[1] if len(t) == 5 for n in t}
    assert not second & {"P1", "P2", "P3", "P4", "P5"}
    assert odd_tables_fair(plan.rounds)
    assert max(pair_counts(plan.rounds).values()) <= 2


@pytest.mark.parametrize(
    "players, odd, sizes",
    [
        (9, "threes", [3, 3, 3]),
        (9, "fives", [4, 5]),
        (13, "threes", [3, 3, 3, 4]),
        (10, "fives", [5, 5]),
        (14, "fives", [4, 5, 5]),
        (15, "fives", [5, 5, 5]),
        (15, "threes", [3, 4, 4, 4]),
        (7, "fives", [3, 4]),
        (11, "fives", [3, 4, 4]),
        (5, "threes", [5]),
    ],
)
def test_the_director_chooses_threes_or_fives_where_the_count_allows(players, odd, sizes):
    assert sorted(table_sizes(players, odd=odd)) == sizes
    plan = plan_event(numbered_players(players), 2, odd=odd, seconds=QUICK)
    assert all(sorted(map(len, tables)) == sizes for tables in plan.rounds)


def test_seat_odd_threes_seats_threes_and_says_how_fives_would_do():
    """9 players were seated 4 + 5 with 28 repeats where three tables of three have none."""
    from tests.cli.test_cli import run

    threes = run("seat", "--players", "9", "--rounds", "4", "--odd", "threes", "--seconds", "2")
    assert threes.returncode == 0, threes.stderr
    assert "Repeated meetings: 0 (no plan can have fewer than 0)" in threes.stdout
    assert "Most times two players meet: 1 (no plan can have fewer than 1)" in threes.stdout
    fives = run("seat", "--players", "9", "--rounds", "4", "--odd", "fives", "--seconds", "2", "--json")
    seated = json.loads(fives.stdout)["rounds"]
    assert all(sorted(map(len, tables)) == [4, 5] for tables in seated)
    instead = [line for line in threes.stdout.splitlines() if line.startswith("With tables of five instead")]
    q = quality(seated, "none", 9)
    assert instead == [
        f"With tables of five instead: most times two players meet {q.most} (no plan can have fewer than {q.most_bound}); "
        f"repeated meetings {q.repeats} (no plan can have fewer than {q.bound})."
    ]
    assert "With tables of" not in run("seat", "--players", "12", "--rounds", "2").stdout, "no other choice at 12"


def test_the_odd_tables_line_says_it_counts_only_rounds_that_mix_them_with_fours():
    """Seen at an evening: rounds of 5 + 5 + 5 after a round of 4 + 4 + 3 + 4, and the plan said
    "a player sits at one in 0 to 1 rounds", though some sat at a five in every round."""
    players = [f"P{n}" for n in range(1, 16)]
    mixed = [players[0:4], players[4:8], players[8:11], players[11:15]]
    fives = [players[0:5], players[5:10], players[10:15]]
    found = quality([mixed, fives, fives])
    assert (found.odd_least, found.odd_most) == (0, 1)
    assert (
        "Tables of three or five: a player sits at one in 0 to 1 rounds of those that mix them with tables of four"
        in (found.lines())
    )
