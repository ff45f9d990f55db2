"""`python -m sorry_rules`: the same as `sorry-play`."""

from sorry_rules.cli.launch import main

main()
