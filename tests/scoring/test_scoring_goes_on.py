"""A game scored on from the score of its first hands is the game scored from its first hand:
the same hands, totals, pressures, columns, winner and bonuses, or the same refusal, in every
family of rules, whichever hand it goes on from (a table's save scores only the hand it completes)."""

from __future__ import annotations

from hypothesis import event, given, settings
from hypothesis import strategies as st

from scorekeeper.scoring import Game, Hand, ScoringError, configure, parse_cards, score_game
from tests.gamelog.test_accepted_changes_keep_games_whole import GAMES


def _game(setup: tuple) -> Game:
    rules, options, players, partnerships = setup
    return Game(configure(rules, options), tuple(players), tuple(tuple(team) for team in partnerships))


def _outcome(work):
    try:
        return work()
    except ScoringError as error:
        return (type(error), str(error))


#: One deck's ranks without suits: a deal from it never holds a card twice too often.
DECK = [rank for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K") for _ in range(4)]

hand_drawn = st.tuples(st.lists(st.integers(0, 3), min_size=5, max_size=5), st.lists(st.integers(0, 4), max_size=3))


@settings(max_examples=500, deadline=None)
@given(
    st.sampled_from(GAMES),
    st.lists(hand_drawn, max_size=16),
    st.booleans(),
    st.randoms(use_true_random=False),
    st.data(),
)
def test_scoring_on_from_the_first_hands_scores_as_scoring_from_the_first_hand(setup, drawn, until_decided, rng, data):
    game = _game(setup)
    players = game.players
    hands = []
    for counts, pressures in drawn:
        deck = list(DECK)
        rng.shuffle(deck)
        leftovers = {
            player: parse_cards(deck[5 * seat : 5 * seat + count])
            for seat, (player, count) in enumerate(zip(players, counts, strict=False))
        }
        taken = tuple(players[i % len(players)] for i in pressures) if game.rules.has_pressures else ()
        hands.append(Hand(leftovers, taken))
    whole = _outcome(lambda: score_game(game, hands, until_decided))
    first = data.draw(st.integers(min(1, len(hands)), len(hands)), label="hands scored before")
    before = _outcome(lambda: score_game(game, hands[:first], until_decided))
    if not isinstance(before, tuple):
        event(f"went on from {'a game scored' if not isinstance(whole, tuple) else 'a refusal'}, hand {min(first, 3)}+")
        assert _outcome(lambda: score_game(game, hands, until_decided, scored_before=before)) == whole
