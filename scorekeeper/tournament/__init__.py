"""Seating rounds and ranking players: pure, no Flask, no SQL."""
