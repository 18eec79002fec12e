"""Training scripts for learning agents."""
