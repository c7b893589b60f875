"""The applications: the command line (cli), the designers' editor and the game service."""
