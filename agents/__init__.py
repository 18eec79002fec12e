"""Bots that play Vigtavl."""
