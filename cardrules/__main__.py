"""`python -m cardrules` runs the command line."""

from cardrules.cli.main import main

main()
