"""`python -m sorry_rules.cli`: the same as `sorry-play`."""

from sorry_rules.cli.app import main

main()
