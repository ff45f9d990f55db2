"""The small SVG vocabulary every picture shares: elements, numbers, colours.

Contract: `element` writes one element with its attributes in the order given, every value
escaped (`escape`: no text can make the document ill-formed); numbers go through `num` (at
most two decimals, no `-0`), so the same drawing gives the same bytes on every machine.
`fill_of(names)` gives each colour name a fill: the name itself when it is an SVG colour
keyword, else a colour of `PALETTE` by its index.
"""

from __future__ import annotations

import re
from html import escape as _html_escape

#: Fills for colour names SVG does not know, by colour index.
PALETTE = ("#d62728", "#1f77b4", "#e6b800", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
           "#e377c2", "#7f7f7f", "#bcbd22", "#393b79")

#: The SVG 1.1 / CSS colour keywords (https://www.w3.org/TR/SVG11/types.html#ColorKeywords).
KEYWORDS = frozenset("""
aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown
burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan
darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred
darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink
deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold
goldenrod gray grey green greenyellow honeydew hotpink indianred indigo ivory khaki lavender lavenderblush
lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey
lightpink lightsalmon lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow
lime limegreen linen magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen
mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin
navajowhite navy oldlace olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise
palevioletred papayawhip peachpuff peru pink plum powderblue purple red rosybrown royalblue saddlebrown
salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen
steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow yellowgreen
""".split())

FONT = "font-family:sans-serif"

#: Characters XML 1.0 does not allow in a document (C0 controls but tab and line breaks, lone
#: surrogates, U+FFFE/U+FFFF): an SVG or HTML page holding one is not well-formed.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def escape(text: str, quote: bool = True) -> str:
    """`html.escape`, with every character XML does not allow written as U+FFFD, so that any
    text (a rule file's, a record's) gives a well-formed SVG or HTML document."""
    return _html_escape(_NOT_XML.sub("\ufffd", text), quote=quote)


def num(x: float) -> str:
    """A coordinate as text: at most two decimals, trailing zeros dropped, never `-0`."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def element(tag: str, attrs: dict, text: str | None = None) -> str:
    """`<tag a="v" ...>text</tag>`, or `<tag ... />` without text; None values are left out."""
    parts = [tag]
    for key, value in attrs.items():
        if value is None:
            continue
        if isinstance(value, float):
            value = num(value)
        parts.append(f'{key}="{escape(str(value), quote=True)}"')
    head = " ".join(parts)
    return f"<{head}/>" if text is None else f"<{head}>{escape(text, quote=False)}</{tag}>"


#: the attribute that marks an SVG document as one sorry-rules wrote (its files may be replaced by the next picture)
GENERATOR = ("data-generator", "sorry-rules")


def document(width: float, height: float, body: list, title: str, css_class: str, inline: bool = False) -> str:
    """A whole SVG document (no XML declaration), marked as ours (`GENERATOR`). `inline=True`
    leaves out the namespace declaration and the mark, which an `<svg>` inside an HTML page
    does not need."""
    namespace = None if inline else "http://www.w3.org/2000/svg"
    head = element("svg", {"xmlns": namespace, GENERATOR[0]: None if inline else GENERATOR[1], "class": css_class,
                           "width": num(width),
                           "height": num(height), "viewBox": f"0 0 {num(width)} {num(height)}",
                           "role": "img", "aria-label": title})
    return "\n".join([head[:-2] + ">", element("title", {}, title), *body, "</svg>"]) + "\n"


def fill_of(names) -> tuple:
    """A fill per colour name (see the module contract)."""
    keys = [str(name).lower() for name in names]
    return tuple(key if key in KEYWORDS else PALETTE[i % len(PALETTE)] for i, key in enumerate(keys))


def ink_on(fill: str) -> str:
    """Black or white, whichever reads better on `fill` (a keyword or #rrggbb)."""
    light = {"yellow", "gold", "white", "ivory", "khaki", "lightyellow", "orange", "lime", "cyan", "aqua", "pink",
             "wheat", "beige", "tan", "plum", "silver", "thistle", "#e6b800", "#ff7f0e", "#17becf", "#bcbd22"}
    return "#000" if fill in light or fill.startswith("light") or fill.startswith("pale") else "#fff"
