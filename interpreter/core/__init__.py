"""Pure values every layer shares: the game state, actions, decisions, events, diagnostics, paths and memo tables."""
