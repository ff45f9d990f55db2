"""The engine: the compiled game (plain data and closures), immutable states, legal moves,
applying moves, drawing, the outcome. No I/O, no printing, no pydantic.

Modules, and the seams later work adds to:
  game        Game (a compiled variant), State, Move: turn flow, legal moves, apply, outcome
  settings    MovementRules, TurnRules: the frozen settings the compiler copies from a rule file
  board       BoardKind / TrackBoard: what the engine needs from a board kind
  layout      Layout: the race-track board kind (squares, movement tables, notation)
  mechanics   Board (working copy) and Mechanics: landing, bumps, slides, the action primitives
  events      the event records of a move (kinds and fields)
  placement   PlacementView: what compiled win and score expressions read
  queries     public queries for authoring tools: move origins, obstacles, chance
  describe    moves and positions in words
  rng         the deterministic RNG kept inside the state
"""
