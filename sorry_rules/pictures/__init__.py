"""Pictures of games: board SVGs of any rule file, a self-contained replay page, plots of
simulations. Everything here is drawn from compiled games (`compiler.load_game`), engine
states, game records and simulation reports; nothing here reads a rule file.

Contract: every function returns text (SVG or HTML) and never prints or writes files; the
same input gives the same bytes; the output references nothing outside itself (no network,
no external scripts, stylesheets or fonts).
"""
