"""Vigtavl RL: a rules engine, a PettingZoo environment, bots and training for Vigtavl."""
