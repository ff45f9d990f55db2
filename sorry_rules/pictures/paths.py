"""The way a move's pawns went, square by square, for drawing it (the replay page, `render
--game --move`).

Contract: `move_paths(game, move)` returns, for each pawn a move moved by its own step,
slide, switch or a send, `(colour, squares)`: the squares it stood on, in order, from where
it started to where it stopped. A forward or backward step goes square by square along the
colour's way (`layout.step_forward` / `step_backward`); a slide goes over the squares it
sweeps; anything else (leaving Start, a switch, Sorry!, a pawn sent) is one jump. A bumped
pawn is not a path (it is sent back to Start). A step whose squares cannot be followed (a
route of the rule file's own `geometry:`) is drawn as one jump. Pure; grid games have none.
"""

from __future__ import annotations

from sorry_rules.engine.events import SLIDE, STEP_KINDS, SWITCH

#: The directions each kind of step is walked in, tried in order (the others jump).
WALKED = {"forward": ("step_forward",), "backward": ("step_backward",), "split": ("step_forward", "step_backward")}


def _walk(layout, c: int, frm: int, to: int, how: str) -> list | None:
    """The squares from `frm` to `to` one `how` step at a time, or None when they do not lead there."""
    step = getattr(layout, how)
    squares = [frm]
    at = frm
    for _ in range(layout.size):
        if at == to:
            return squares
        at = step(c, at)
        if at < 0:
            return None
        squares.append(at)
    return None


def _way(layout, kind: str, c: int, frm: int, to: int) -> list:
    for how in WALKED.get(kind, ()):
        walked = _walk(layout, c, frm, to, how)
        if walked is not None:
            return walked
    return [frm, to]


def move_paths(game, move) -> list:
    """`[(colour, [square, ...]), ...]` of `move` (see the module contract)."""
    layout = getattr(game, "layout", None)
    if layout is None:
        return []
    paths: list = []
    for event in move.events or ():
        kind = event[0]
        if kind in STEP_KINDS or kind == "send":  # a send is one jump (`WALKED` has no way for it)
            _, c, frm, to = event
            paths.append((c, _way(layout, kind, c, frm, to)))
        elif kind == SLIDE:
            _, c, frm, to = event
            info = layout.slide_at[frm] if frm < layout.T else None
            swept = list(info.swept) if info is not None and info.end == to else [to]
            for k in range(len(paths) - 1, -1, -1):    # the slide goes on from the pawn's step
                if paths[k][0] == c and paths[k][1][-1] == frm:
                    paths[k][1].extend(swept)
                    break
            else:
                paths.append((c, [frm, *swept]))
        elif kind == SWITCH:
            _, c, a, o, b = event
            paths.append((c, [a, b]))
            paths.append((o, [b, a]))
    return paths
