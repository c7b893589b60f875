"""The `kcd` command line (main.py holds the Typer app)."""
