"""`python -m kcd.apps.cli`: the `kcd` command line."""
from kcd.apps.cli.main import main

main()
