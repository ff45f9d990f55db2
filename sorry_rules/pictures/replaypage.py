"""A replay page: one self-contained HTML file that steps through a recorded game.

The page holds one board drawing (the static SVG of `trackboard` or `gridboard`, square
numbers included), the board's spots as JSON (where a piece on each square is drawn), and
one JSON entry per step: the pieces that moved (per colour, the squares of the colours
whose squares changed; a track colour's squares in the order of its pawns' names, so pawn
i is named label + i: R1 ... R4), the move in words (pawns by name), who moved, the card,
the path of each pawn the move moved (`pictures.paths`), the side panel's lines and (grid
boards) the lines drawn through sequences when they changed, and, on the last step only,
how the game ended. A small inline script rebuilds each step's placement from the changes
and draws its pieces, the moved pawns ringed with their path, so the page of a long game
stays small (one board, not one board per step). It works opened from the file system (no
network, no external script, stylesheet or font; the buttons' icons are drawn SVG).

Controls: the buttons First, Back, Play/Pause, Next and Last (each an icon and a word); a
speed for playing; a box to go to move N; the slider; the keys Left and Right (one move),
Home and End, Space (play or pause) and G (the box). The address `#move=N` opens the page at
move N, and the page keeps it up to date, so a move can be linked to. The result is said
only at the last move.

Frames come from a track game (`track_frames`, as `records.restore` replays it) or from a
grid game (`grid_frames`, given its states and a describer of moves); `record_page` takes
a game record of either kind.

Contract: `page(...)` is a pure function of its arguments: the same game gives the same
bytes. Every string from the rule file or the record is escaped (HTML text, attributes, and
JSON inside `<script>` with `<`, `>` and `&` written as `\\u003c` ...).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from sorry_rules.base.errors import SaveFileError
from sorry_rules.base.words import plural
from sorry_rules.engine.describe import colour_name
from sorry_rules.pictures import geometry, gridboard, trackboard
from sorry_rules.pictures.boards import outcome_words
from sorry_rules.pictures.paths import move_paths
from sorry_rules.pictures.svg import document, escape, fill_of, ink_on, num
from sorry_rules.records.pawnnames import PawnNames
from sorry_rules.records.restore import restore, start_state


@dataclass(frozen=True)
class Frame:
    """One step of the replay: the placement after the move and what the page says of it."""

    placement: tuple
    text: str = ""                 # the move in words ("" for the start)
    who: str = ""                  # the colour that moved
    card: str | None = None        # the card played (or exchanged, discarded)
    facts: tuple = field(default_factory=tuple)   # side panel: (colour index or None, text)
    paths: tuple = ()              # (colour, [square, ...]) of each pawn the move moved (`pictures.paths`)


def _facts_of_track(game, state) -> tuple:
    return tuple((c, text) for c, kind, text, _ in trackboard.legend_lines(game, state) if kind not in ("title", "card"))


def track_frames(game, start, moves) -> list:
    """Frames of a track game: `start` (the first state) and `moves`, a list of (Turn, state
    after) as `records.restore.restore(on_turn=...)` reports them. A frame's placement lists
    each colour's squares in its pawns' name order (`records.pawnnames`), and its text names
    the pawns."""
    names = PawnNames.start(game, start.placement, trackboard.labels_of(game.colours), start.marks)
    frames = [Frame(names.where, facts=_facts_of_track(game, start))]
    for turn, after in moves:
        card = None if turn.card is None else game.card_names[turn.card]
        text = names.describe(turn.move)
        names = names.after(turn.move, after.placement, after.marks)
        frames.append(Frame(names.where, text, colour_name(game, after.seats[turn.seat]), card,
                            _facts_of_track(game, after), tuple(move_paths(game, turn.move))))
    return frames


def _facts_of_grid(game, state) -> tuple:
    return tuple((c, gridboard.side_text(game, state.placement, c)) for c in dict.fromkeys(state.seats))


def grid_frames(game, start, moves, describe) -> list:
    """Frames of a grid game: `start` and `moves`, a list of (colour that moved, move, state
    after); `describe(game, colour, move)` words a move (`authoring.gridoracle.describe_grid_move`)."""
    frames = [Frame(start.placement, facts=_facts_of_grid(game, start))]
    for colour, move, after in moves:
        card = None if move.card is None else game.card_names[move.card]
        text = describe(game, colour, move).removeprefix(game.colours[colour] + " ")  # the page says who before it
        frames.append(Frame(after.placement, text, colour_name(game, colour), card, _facts_of_grid(game, after)))
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
        piles[sq] = [num(x), num(y), num(trackboard.pile_ring(geo, sq)), num(trackboard.pawn_radius(geo, sq, layout))]
    svg = document(geo.width, geo.height, trackboard.static_parts(game, geo) + ['<g id="pieces"></g>'],
                   f"{game.name}: the board", "sorry-board track-board", inline=True)
    # several pawns on a track or safety square: round a ring of `crowd[0]` cells (`crowd[1]` in a safety zone), each
    # `crowd[2]` of a lone pawn's size (`trackboard.pawn_spot`)
    crowd = [num(geo.cell * trackboard.CROWD_RING), num(geo.step * trackboard.CROWD_RING), trackboard.CROWD_SIZE, layout.T]
    return svg, {"kind": "track", "squares": squares, "piles": piles, "labels": list(trackboard.labels_of(game.colours)),
                 "cell": num(geo.cell), "crowd": crowd}


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
    return svg, {"kind": "grid", "squares": squares, "piles": {}, "labels": None, "cell": num(gridboard.CELL),
                 "crowd": None}


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
        if frame.paths:
            step["h"] = [[c, list(squares)] for c, squares in frame.paths]
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


def page(game, frames, title: str, subtitle: str = "", end: str = "") -> str:
    """The whole HTML page of a game of `game` given as `frames` (see the module docstring);
    `end`, how the game ended, is shown at the last step only."""
    if getattr(game, "grid", None) is not None:
        svg, board = grid_board(game)
        lines_of = lambda placement: _grid_lines(game, placement)  # noqa: E731
    else:
        svg, board = track_board(game)
        lines_of = None
    fills = fill_of(game.colours)
    board["icons"] = {"play": ICONS["play"], "pause": ICONS["pause"]}
    board["fills"] = list(fills)
    board["inks"] = [ink_on(f) for f in fills]
    board["colours"] = list(game.colours)
    board["noun"] = "Throw" if getattr(game, "dice", None) is not None else "Card"  # what a step's `c` names
    steps = _steps(frames, lines_of)
    if end:
        steps[-1]["e"] = end
    return "".join([
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="generator" content="sorry-rules">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
        f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        f"<h1>{escape(title)}</h1>\n<p class=\"meta\">{escape(subtitle)}</p>\n",
        '<div class="stage">\n<div class="board">\n', svg, "</div>\n",
        '<div class="side">\n<div aria-live="polite">\n<p id="where"></p>\n<p id="card"></p>\n<p id="move"></p>\n'
        '<p id="end"></p>\n</div>\n'
        '<ul id="facts"></ul>\n</div>\n</div>\n',
        _controls(len(steps) - 1),
        f'<noscript><p>This page needs JavaScript to step through the game ({len(steps) - 1} moves).</p></noscript>\n',
        f'<script type="application/json" id="board-data">{_json_in_script(board)}</script>\n',
        f'<script type="application/json" id="steps-data">{_json_in_script(steps)}</script>\n',
        f"<script>{SCRIPT}</script>\n</body>\n</html>\n",
    ])


#: The buttons' icons: SVG paths in a 16x16 box (drawn, so no font is needed for them).
ICONS = {
    "first": "M2 2h2v12H2z M15 2v12L9 8z M9 2v12L3 8z",
    "prev": "M12 2v12L4 8z",
    "play": "M8 1a7 7 0 1 0 0.01 0z M6 4.5v7l5.5-3.5z",
    "pause": "M8 1a7 7 0 1 0 0.01 0z M5.5 4.5h2v7h-2z M8.5 4.5h2v7h-2z",
    "next": "M4 2v12l8-6z",
    "last": "M12 2h2v12h-2z M1 2v12l6-6z M7 2v12l6-6z",
}
#: Each button: (id, icon, word, title).
BUTTONS = (("first", "first", "First", "The start (Home key)"), ("prev", "prev", "Back", "One move back (Left arrow)"),
           ("play", "play", "Play", "Play the moves one after another, or pause (Space)"),
           ("next", "next", "Next", "The next move (Right arrow)"), ("last", "last", "Last", "The end (End key)"))
#: Play speeds: (milliseconds a move, words); the second is the default.
SPEEDS = ((1000, "1 move a second"), (500, "2 moves a second"), (200, "5 moves a second"), (100, "10 moves a second"))


def icon(name: str) -> str:
    """The inline SVG of icon `name` (`ICONS`), drawn in the button's text colour."""
    return (f'<svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">'
            f'<path fill="currentColor" fill-rule="evenodd" d="{ICONS[name]}"/></svg>')


def _controls(moves: int) -> str:
    """The buttons, the speed, the box to go to a move, the slider and the keys' help."""
    buttons = "".join(f'<button id="{key}" type="button" title="{title}">{icon(name)}<span class="word">{word}</span>'
                      f'</button>' for key, name, word, title in BUTTONS)
    speeds = "".join(f'<option value="{ms}"{" selected" if i == 1 else ""}>{words}</option>'
                     for i, (ms, words) in enumerate(SPEEDS))
    return (f'<div class="controls">\n{buttons}\n'
            f'<label>Speed <select id="speed">{speeds}</select></label>\n'
            f'<label>Go to move <input id="goto" type="number" min="0" max="{moves}" value="0" inputmode="numeric"></label>\n'
            f'<a id="here" href="#move=0">link to this move</a>\n</div>\n'
            f'<input id="slider" type="range" min="0" max="{moves}" value="0" aria-label="move">\n'
            '<p class="keys">Left and right arrows: one move back or on; Home and End: the start and the end; Space: '
            'play or pause; G: go to a move (type its number, then Enter). The address ends in #move=N: a link to that '
            'move.</p>\n')


STYLE = """
body{font-family:sans-serif;margin:1em;color:#222;background:#fafafa}
h1{font-size:1.3em;margin:0 0 .2em}
.meta,.keys{color:#555;font-size:.9em;margin:.2em 0}
.stage{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}
.board svg{max-width:100%;height:auto;background:#fff;border:1px solid #ccc}
.side{min-width:16em;max-width:28em}
#where{font-weight:bold}
#move{min-height:3em}
#end{font-weight:bold;color:#063}
#facts{list-style:none;padding:0}
#facts li{margin:.15em 0}
#facts .swatch{display:inline-block;width:.9em;height:.9em;margin-right:.4em;border:1px solid #111;vertical-align:middle}
.controls{display:flex;flex-wrap:wrap;gap:.4em;align-items:center;margin:.6em 0}
#slider{width:100%;max-width:48em}
button{font-size:1em;display:inline-flex;align-items:center;gap:.3em;padding:.25em .6em}
button .icon{width:1em;height:1em}
#goto{width:5em}
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
var last=S.length-1,pieces=document.getElementById('pieces'),slider=document.getElementById('slider');
var play=document.getElementById('play'),speed=document.getElementById('speed'),go=document.getElementById('goto');
var at=0,timer=null;
function esc(t){return String(t).replace(/&/g,'&amp;').replace(/</g,'&lt;').replace(/>/g,'&gt;').replace(/"/g,'&quot;');}
function spot(sq){var s=B.squares[sq];if(s){return [s[0],s[1]];}var p=B.piles[sq];return p?[p[0],p[1]]:null;}
function circle(x,y,r,c,sq,name){
  return '<circle class="'+(B.kind==='grid'?'chip':'pawn')+'" data-colour="'+esc(B.colours[c])+'" data-square="'+sq+
    (name?'" data-name="'+esc(name):'')+'" cx="'+x+'" cy="'+y+'" r="'+r+'" fill="'+B.fills[c]+
    '" stroke="#111" stroke-width="1.5"/>';
}
function paths(i){
  var out=[];
  (S[i].h||[]).forEach(function(h){
    var pts=h[1].map(spot).filter(function(p){return p;});
    if(!pts.length){return;}
    out.push('<polyline class="path" data-colour="'+esc(B.colours[h[0]])+'" points="'+
      pts.map(function(p){return p.join(',');}).join(' ')+'" fill="none" stroke="'+B.fills[h[0]]+
      '" stroke-width="5" stroke-dasharray="7 4" stroke-linecap="round" stroke-opacity="0.9"/>');
    var e=pts[pts.length-1];
    out.push('<circle class="moved" data-colour="'+esc(B.colours[h[0]])+'" data-square="'+h[1][h[1].length-1]+
      '" cx="'+e[0]+'" cy="'+e[1]+'" r="'+(B.cell*0.55)+'" fill="none" stroke="#000" stroke-width="3"/>');
  });
  return out;
}
function draw(i){
  var out=paths(i),pl=P[i],counts={},on={},order=[];
  pl.forEach(function(squares,c){
    (squares||[]).forEach(function(sq,k){
      var name=B.labels?B.labels[c]+(k+1):'';
      if(B.squares[sq]){if(!on[sq]){on[sq]=[];order.push(sq);}on[sq].push([c,name]);}
      else{(counts[sq]=counts[sq]||[c,0])[1]++;}
    });
  });
  order.forEach(function(sq){
    var s=B.squares[sq],here=on[sq],n=here.length;
    here.forEach(function(p,k){
      var x=+s[0],y=+s[1],r=+s[2],big=n===1;
      if(!big){var ring=+sq<B.crowd[3]?B.crowd[0]:B.crowd[1],a=-Math.PI/2+2*Math.PI*k/n;
        x=(x+ring*Math.cos(a)).toFixed(2);y=(y+ring*Math.sin(a)).toFixed(2);r=(r*B.crowd[2]).toFixed(2);}
      out.push(circle(x,y,r,p[0],sq,p[1]));
      if(B.labels){out.push('<text class="pawn-label" x="'+x+'" y="'+(+y+(big?4:2.5))+
        '" font-size="'+(big?9:7)+'" font-weight="bold" text-anchor="middle" fill="'+B.inks[p[0]]+
        '" style="font-family:sans-serif">'+esc(p[1])+'</text>');}
    });
  });
  Object.keys(B.piles).forEach(function(sq){
    var p=B.piles[sq],n=counts[sq]?counts[sq][1]:0;
    for(var k=0;k<n;k++){
      var a=(-30+(k+0.5)*240/n)*Math.PI/180;
      out.push(circle((+p[0]+p[2]*Math.cos(a)).toFixed(2),(+p[1]+p[2]*Math.sin(a)).toFixed(2),p[3],counts[sq][0],sq,''));
    }
    out.push('<text class="count" data-square="'+sq+'" x="'+p[0]+'" y="'+(+p[1]+8)+
      '" font-size="12" font-weight="bold" text-anchor="middle" style="font-family:sans-serif">'+n+'</text>');
  });
  L[i].forEach(function(l){
    var ends='x1="'+l[1]+'" y1="'+l[2]+'" x2="'+l[3]+'" y2="'+l[4]+'" stroke-linecap="round"';
    out.push('<line class="casing" '+ends+' stroke="#111" stroke-width="8"/>'+
      '<line class="sequence" data-colour="'+esc(B.colours[l[0]])+'" '+ends+' stroke="'+B.fills[l[0]]+'" stroke-width="4"/>');
  });
  pieces.innerHTML=out.join('');
}
function show(i){
  at=Math.max(0,Math.min(last,i|0));
  var s=S[at];
  slider.value=at;go.value=at;
  draw(at);
  document.getElementById('where').textContent=at===0?'Start of the game ('+last+' moves)':'Move '+at+' of '+last;
  document.getElementById('card').textContent=s.c!==undefined?B.noun+': '+s.c:'';
  document.getElementById('move').textContent=s.t?s.w+': '+s.t:'';
  document.getElementById('end').textContent=at===last&&S[last].e?S[last].e:'';
  document.getElementById('facts').innerHTML=F[at].map(function(f){
    var sw=f[0]===null?'':'<span class="swatch" style="background:'+B.fills[f[0]]+'"></span>';
    return '<li>'+sw+esc(f[1])+'</li>';}).join('');
  var here='#move='+at;
  document.getElementById('here').setAttribute('href',here);
  if(location.hash!==here){try{history.replaceState(null,'',here);}catch(e){}}
}
function setPlaying(on){
  play.querySelector('path').setAttribute('d',on?B.icons.pause:B.icons.play);
  play.querySelector('.word').textContent=on?'Pause':'Play';
  play.setAttribute('aria-pressed',on?'true':'false');
}
function stop(){if(timer){clearInterval(timer);timer=null;}setPlaying(false);}
function start(){
  if(at>=last){show(0);}
  timer=setInterval(function(){if(at>=last){stop();}else{show(at+1);}},+speed.value);
  setPlaying(true);
}
function toggle(){if(timer){stop();}else{start();}}
function fromHash(){var m=/^#move=(\\d+)$/.exec(location.hash);return m?+m[1]:null;}
document.getElementById('first').onclick=function(){stop();show(0);};
document.getElementById('prev').onclick=function(){stop();show(at-1);};
document.getElementById('next').onclick=function(){stop();show(at+1);};
document.getElementById('last').onclick=function(){stop();show(last);};
play.onclick=toggle;
speed.onchange=function(){if(timer){clearInterval(timer);timer=null;start();}};
slider.oninput=function(){stop();show(+slider.value);};
go.onchange=function(){stop();show(+go.value);};
go.onkeydown=function(e){if(e.key==='Enter'){e.preventDefault();stop();show(+go.value);go.blur();}};
window.addEventListener('hashchange',function(){var n=fromHash();if(n!==null&&n!==at){stop();show(n);}});
document.addEventListener('keydown',function(e){
  if(e.target===go||e.target===speed){return;}
  if(e.key===' '&&e.target.tagName!=='BUTTON'){e.preventDefault();toggle();return;}
  if(e.key==='g'||e.key==='G'){e.preventDefault();go.focus();go.select();return;}
  var k={ArrowLeft:at-1,ArrowRight:at+1,Home:0,End:last}[e.key];
  if(k!==undefined&&e.target!==slider){e.preventDefault();stop();show(k);}
  else if(k!==undefined){stop();setTimeout(function(){show(+slider.value);},0);}
});
var first=fromHash();
show(first===null?0:first);
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
    who = {None: "", "human": " (person)"}
    seats = ", ".join(colour_name(game, c) + who.get(kind, f" ({str(kind).removeprefix('bot:')})")
                      for c, kind in zip(final.seats, kinds))
    if final.winner is not None and getattr(game, "grid", None) is None:
        end = f"{outcome_words(game, final)}."  # the winning team's colours all
    elif final.winner is not None:
        end = f"{colour_name(game, final.seats[final.winner])} wins after {plural(final.plies, 'move')}."
    elif getattr(final, "over", False):
        end = f"No winner after {plural(final.plies, 'move')}: every player passed for a whole round."
    else:
        end = f"The record stops after {plural(final.plies, 'move')}; the game was not finished."
    rules = "".join(f" + {rule}" for rule in record.variant.rules)
    subtitle = f"{record.variant.spec}{rules}; seed {record.seed}; {seats}; {plural(final.plies, 'move')}."
    return page(game, frames, f"{game.name}: a replay", subtitle, end)
