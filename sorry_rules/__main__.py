"""`python -m sorry_rules`: the same as `sorry-play`."""

from sorry_rules.cli.app import main

main()
