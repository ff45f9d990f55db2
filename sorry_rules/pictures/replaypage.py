"""A replay page: one self-contained HTML file that steps through a recorded game.

The page holds one board drawing (the static SVG of `trackboard` or `gridboard`), the board's
spots as JSON (where a piece on each square is drawn), and one JSON entry per step: the
pieces that moved (per colour, the squares of the colours whose squares changed), the move
in words, who moved, the card, and the side panel's lines and (grid boards) the lines drawn
through sequences when they changed. A small inline
script rebuilds each step's placement from the changes and draws its pieces, so the page of
a long game stays small (one board, not one board per step). Arrow keys (left, right) and
Home/End step through the game, as do the slider and the buttons; it works opened from the
file system (no network, no external script, stylesheet or font).

Frames come from a track game (`track_frames`, as `records.restore` replays it) or from a
grid game (`grid_frames`, given its states and a describer of moves), so a grid record fits
the same page: `record_page` takes either (grid records replay once `records.restore`
replays grid games; on this tree it replays track games only).

Contract: `page(...)` is a pure function of its arguments: the same game gives the same
bytes. Every string from the rule file or the record is escaped (HTML text, attributes, and
JSON inside `<script>` with `<`, `>` and `&` written as `\\u003c` ...).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from sorry_rules.pictures.svg import escape

from sorry_rules.base.errors import SaveFileError
from sorry_rules.engine.describe import colour_name, describe_move
from sorry_rules.records.restore import restore, start_state
from sorry_rules.pictures import geometry, gridboard, trackboard
from sorry_rules.pictures.svg import document, fill_of, ink_on, num


@dataclass(frozen=True)
class Frame:
    """One step of the replay: the placement after the move and what the page says of it."""

    placement: tuple
    text: str = ""                 # the move in words ("" for the start)
    who: str = ""                  # the colour that moved
    card: str | None = None        # the card played (or exchanged, discarded)
    facts: tuple = field(default_factory=tuple)   # side panel: (colour index or None, text)


def _facts_of_track(game, state) -> tuple:
    return tuple((c, text) for c, kind, text, _ in trackboard.legend_lines(game, state) if kind not in ("title", "card"))


def track_frames(game, start, moves) -> list:
    """Frames of a track game: `start` (the first state) and `moves`, a list of (Turn, state
    after) as `records.restore.restore(on_turn=...)` reports them."""
    frames = [Frame(start.placement, facts=_facts_of_track(game, start))]
    for turn, after in moves:
        card = None if turn.card is None else game.card_names[turn.card]
        frames.append(Frame(after.placement, describe_move(game, turn.move), colour_name(game, after.seats[turn.seat]),
                            card, _facts_of_track(game, after)))
    return frames


def _facts_of_grid(game, state) -> tuple:
    grid = game.grid
    return tuple((c, f"{game.colours[c]}: {len(state.placement[c])} chips, {grid.sequences(state.placement[c])} sequences")
                 for c in dict.fromkeys(state.seats))


def grid_frames(game, start, moves, describe) -> list:
    """Frames of a grid game: `start` and `moves`, a list of (colour that moved, move, state
    after); `describe(game, colour, move)` words a move (`authoring.gridoracle.describe_grid_move`)."""
    frames = [Frame(start.placement, facts=_facts_of_grid(game, start))]
    for colour, move, after in moves:
        card = None if move.card is None else game.card_names[move.card]
        frames.append(Frame(after.placement, describe(game, colour, move), game.colours[colour], card,
                            _facts_of_grid(game, after)))
    return frames


# ---- the board: the static drawing and where pieces go ----------------------------------------
def track_board(game) -> tuple[str, dict]:
    """The static SVG of a track board (for inside a page) and its spots."""
    layout = game.layout
    geo = geometry.build(layout)
    squares, piles = {}, {}
    for sq in range(layout.X):
        x, y = geo.at[sq]
        squares[sq] = [num(x), num(y), num(trackboard.pawn_radius(geo, sq, layout))]
    for sq in (*layout.start, *layout.home):
        x, y = geo.at[sq]
        piles[sq] = [num(x), num(y), num(geo.cell * geometry.POOL * 0.62), num(trackboard.pawn_radius(geo, sq, layout))]
    svg = document(geo.width, geo.height, trackboard.static_parts(game, geo) + ['<g id="pieces"></g>'],
                   f"{game.name}: the board", "sorry-board track-board", inline=True)
    return svg, {"kind": "track", "squares": squares, "piles": piles, "labels": list(trackboard.labels_of(game.colours))}


def grid_board(game) -> tuple[str, dict]:
    """The static SVG of a grid board (for inside a page) and its spots."""
    grid = game.grid
    squares = {}
    for cell in range(grid.size):
        x, y = gridboard.cell_centre(grid, cell)
        squares[cell] = [num(x), num(y + gridboard.CELL * 0.1), num(gridboard.CELL * 0.3)]
    width, height = gridboard.size_of(grid)
    svg = document(width, height, gridboard.static_parts(grid) + ['<g id="pieces"></g>'], f"{game.name}: the board",
                   "sorry-board grid-board", inline=True)
    return svg, {"kind": "grid", "squares": squares, "piles": {}, "labels": None}


def _grid_lines(game, placement) -> list:
    out = []
    for c, first, last in gridboard.sequence_lines(game.grid, placement):
        (x1, y1), (x2, y2) = gridboard.cell_centre(game.grid, first), gridboard.cell_centre(game.grid, last)
        dy = gridboard.CELL * 0.1
        out.append([c, num(x1), num(y1 + dy), num(x2), num(y2 + dy)])
    return out


# ---- the page -----------------------------------------------------------------------------------
def _steps(frames, lines_of=None) -> list:
    """One compact JSON entry per frame: only what changed since the previous one."""
    out = []
    before = facts_before = lines_before = None
    for frame in frames:
        step = {}
        changed = {c: list(squares) for c, squares in enumerate(frame.placement)
                   if before is None or before[c] != squares}
        if changed:
            step["p"] = changed
        if frame.text:
            step["t"], step["w"] = frame.text, frame.who
        if frame.card is not None:
            step["c"] = frame.card
        if frame.facts != facts_before:
            step["f"] = [[c, text] for c, text in frame.facts]
        lines = lines_of(frame.placement) if lines_of is not None else None
        if lines != lines_before:
            step["l"] = lines
        out.append(step)
        before, facts_before, lines_before = frame.placement, frame.facts, lines
    return out


def _json_in_script(value) -> str:
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"), sort_keys=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def page(game, frames, title: str, subtitle: str = "") -> str:
    """The whole HTML page of a game of `game` given as `frames` (see the module docstring)."""
    if getattr(game, "grid", None) is not None:
        svg, board = grid_board(game)
        lines_of = lambda placement: _grid_lines(game, placement)  # noqa: E731
    else:
        svg, board = track_board(game)
        lines_of = None
    fills = fill_of(game.colours)
    board["fills"] = list(fills)
    board["inks"] = [ink_on(f) for f in fills]
    board["colours"] = list(game.colours)
    steps = _steps(frames, lines_of)
    return "".join([
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
        f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        f"<h1>{escape(title)}</h1>\n<p class=\"meta\">{escape(subtitle)}</p>\n",
        '<div class="stage">\n<div class="board">\n', svg, "</div>\n",
        '<div class="side">\n<p id="where"></p>\n<p id="card"></p>\n<p id="move"></p>\n<ul id="facts"></ul>\n</div>\n</div>\n',
        '<div class="controls">\n<button id="first" title="Home">&#x23EE;</button>'
        '<button id="prev" title="Left arrow">&#x25C0;</button>'
        '<button id="play" title="Play or pause">&#x25B6;</button>'
        '<button id="next" title="Right arrow">&#x25B6;&#x25B6;</button>'
        '<button id="last" title="End">&#x23ED;</button>\n',
        f'<input id="slider" type="range" min="0" max="{len(steps) - 1}" value="0" aria-label="step">\n</div>\n',
        '<p class="keys">Left and right arrows: one move back or on; Home and End: the start and the end.</p>\n',
        f'<noscript><p>This page needs JavaScript to step through the game ({len(steps) - 1} moves).</p></noscript>\n',
        f'<script type="application/json" id="board-data">{_json_in_script(board)}</script>\n',
        f'<script type="application/json" id="steps-data">{_json_in_script(steps)}</script>\n',
        f"<script>{SCRIPT}</script>\n</body>\n</html>\n",
    ])


STYLE = """
body{font-family:sans-serif;margin:1em;color:#222;background:#fafafa}
h1{font-size:1.3em;margin:0 0 .2em}
.meta,.keys{color:#555;font-size:.9em;margin:.2em 0}
.stage{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}
.board svg{max-width:100%;height:auto;background:#fff;border:1px solid #ccc}
.side{min-width:16em;max-width:28em}
#where{font-weight:bold}
#move{min-height:3em}
#facts{list-style:none;padding:0}
#facts li{margin:.15em 0}
#facts .swatch{display:inline-block;width:.9em;height:.9em;margin-right:.4em;border:1px solid #111;vertical-align:middle}
.controls{display:flex;gap:.4em;align-items:center;margin:.6em 0}
.controls input{flex:1;max-width:40em}
button{font-size:1em;min-width:2.4em}
"""

SCRIPT = """
(function(){
var B=JSON.parse(document.getElementById('board-data').textContent);
var S=JSON.parse(document.getElementById('steps-data').textContent);
var P=[],L=[],F=[],cur=[],facts=[],lines=[];
S.forEach(function(s){
  if(s.p){cur=cur.slice();Object.keys(s.p).forEach(function(c){cur[+c]=s.p[c];});}
  if(s.f){facts=s.f;}
  if(s.l){lines=s.l;}
  P.push(cur);F.push(facts);L.push(lines);
});
var pieces=document.getElementById('pieces'),slider=document.getElementById('slider');
var at=0,timer=null;
function esc(t){return String(t).replace(/&/g,'&amp;').replace(/</g,'&lt;').replace(/>/g,'&gt;').replace(/"/g,'&quot;');}
function circle(x,y,r,c,sq){
  return '<circle class="'+(B.kind==='grid'?'chip':'pawn')+'" data-colour="'+esc(B.colours[c])+'" data-square="'+sq+
    '" cx="'+x+'" cy="'+y+'" r="'+r+'" fill="'+B.fills[c]+'" stroke="#111" stroke-width="1.5"/>';
}
function draw(i){
  var out=[],pl=P[i],counts={};
  pl.forEach(function(squares,c){
    (squares||[]).forEach(function(sq){
      var s=B.squares[sq];
      if(s){
        out.push(circle(s[0],s[1],s[2],c,sq));
        if(B.labels){out.push('<text x="'+s[0]+'" y="'+(+s[1]+4)+
          '" font-size="11" font-weight="bold" text-anchor="middle" fill="'+B.inks[c]+
          '" style="font-family:sans-serif">'+esc(B.labels[c])+'</text>');}
      }else{(counts[sq]=counts[sq]||[c,0])[1]++;}
    });
  });
  Object.keys(B.piles).forEach(function(sq){
    var p=B.piles[sq],n=counts[sq]?counts[sq][1]:0;
    for(var k=0;k<n;k++){
      var a=(-30+(k+0.5)*240/n)*Math.PI/180;
      out.push(circle((+p[0]+p[2]*Math.cos(a)).toFixed(2),(+p[1]+p[2]*Math.sin(a)).toFixed(2),p[3],counts[sq][0],sq));
    }
    out.push('<text class="count" data-square="'+sq+'" x="'+p[0]+'" y="'+(+p[1]+8)+
      '" font-size="12" font-weight="bold" text-anchor="middle" style="font-family:sans-serif">'+n+'</text>');
  });
  L[i].forEach(function(l){
    out.push('<line class="sequence" data-colour="'+esc(B.colours[l[0]])+'" x1="'+l[1]+'" y1="'+l[2]+'" x2="'+l[3]+'" y2="'+l[4]+
      '" stroke="#111" stroke-width="5" stroke-linecap="round" stroke-opacity="0.75"/>');
  });
  pieces.innerHTML=out.join('');
}
function show(i){
  at=Math.max(0,Math.min(S.length-1,i));
  var s=S[at];
  slider.value=at;
  draw(at);
  document.getElementById('where').textContent=at===0?'Start of the game ('+(S.length-1)+' moves)':'Move '+at+' of '+(S.length-1);
  document.getElementById('card').textContent=s.c!==undefined?'Card: '+s.c:'';
  document.getElementById('move').textContent=s.t?s.w+': '+s.t:'';
  document.getElementById('facts').innerHTML=F[at].map(function(f){
    var sw=f[0]===null?'':'<span class="swatch" style="background:'+B.fills[f[0]]+'"></span>';
    return '<li>'+sw+esc(f[1])+'</li>';}).join('');
}
function stop(){if(timer){clearInterval(timer);timer=null;}}
document.getElementById('first').onclick=function(){stop();show(0);};
document.getElementById('prev').onclick=function(){stop();show(at-1);};
document.getElementById('next').onclick=function(){stop();show(at+1);};
document.getElementById('last').onclick=function(){stop();show(S.length-1);};
document.getElementById('play').onclick=function(){
  if(timer){stop();return;}
  timer=setInterval(function(){if(at>=S.length-1){stop();}else{show(at+1);}},400);
};
slider.oninput=function(){stop();show(+slider.value);};
document.addEventListener('keydown',function(e){
  var k={ArrowLeft:at-1,ArrowRight:at+1,Home:0,End:S.length-1}[e.key];
  if(k!==undefined&&e.target!==slider){e.preventDefault();stop();show(k);}
  else if(k!==undefined){stop();setTimeout(function(){show(+slider.value);},0);}
});
show(0);
})();
"""


# ---- from a game record ---------------------------------------------------------------------------
def record_page(record, source: str = "game record", describe_grid=None) -> str:
    """The replay page of a game record (`records.files.read_record`), checked and replayed
    as `sorry-play replay` does. Raises SaveFileError (`records.restore`). A record of a grid
    game (once `records.restore` replays them) takes its move texts from `describe_grid`
    (see `grid_frames`); without one it is a SaveFileError."""
    moves: list = []
    game, final = restore(record, source=source, on_turn=lambda turn, after: moves.append((turn, after)))
    start = start_state(game, record, source)
    if getattr(game, "grid", None) is not None:
        if describe_grid is None:
            raise SaveFileError(f"{source}: a grid game; its replay page needs the words of its moves")
        frames = grid_frames(game, start, [(after.seats[turn.seat], turn.move, after) for turn, after in moves],
                             describe_grid)
    else:
        frames = track_frames(game, start, moves)
    kinds = record.kinds or [None] * len(final.seats)
    seats = ", ".join(colour_name(game, c) + (f" ({kind})" if kind else "") for c, kind in zip(final.seats, kinds))
    if final.winner is not None:
        end = f"{colour_name(game, final.seats[final.winner])} wins after {final.plies} moves"
    elif getattr(final, "over", False):
        end = f"no winner after {final.plies} moves"
    else:
        end = f"not finished after {final.plies} moves"
    rules = "".join(f" + {rule}" for rule in record.variant.rules)
    subtitle = f"{record.variant.spec}{rules}; seed {record.seed}; {seats}; {end}."
    return page(game, frames, f"{game.name}: a replay", subtitle)
