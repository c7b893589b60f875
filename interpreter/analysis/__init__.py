"""Analysis on top of the engine and the modes: bots, search, determinization, simulation, balance and A/B tests, positions."""
