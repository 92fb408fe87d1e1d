"""Everything stored: SQLite (every SQL statement and migration), and a game's log folded into its state. No Flask."""
