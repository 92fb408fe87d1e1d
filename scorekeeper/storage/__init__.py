"""Everything stored: SQLite, every SQL statement and migration, rows made domain objects at this
edge. What a log means is the game log's (``gamelog``): storage loads entries, hands them to it to
fold, keeps the states it folded, and inserts what it was handed. No Flask."""
