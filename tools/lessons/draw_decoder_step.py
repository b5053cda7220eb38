#!/usr/bin/env python3
"""Draw chapter 02's diagram of one attention decoder step, equations (2.5)-(2.7), as SVG.

For maintainers (Python 3, standard library only); the SVG it writes is committed:
    tools/lessons/draw_decoder_step.py > chapters/02_bahdanau_attention/figures/decoder_step.svg
The weights drawn are illustrative, chosen to look like a trained model writing "european".
"""

WIDTH, HEIGHT = 960, 660
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
INK, SOFT, QUERY, KEY, WEIGHT, CONTEXT = "#222222", "#777777", "#c0392b", "#2c6fbb", "#e08e0b", "#2e8b57"

words = ["la", "zone", "économique", "européenne"]
weights = [0.03, 0.04, 0.08, 0.85]
xs = [240, 370, 500, 630]               # centres of the source positions
Y_OUT, Y_DEC, Y_SUM, Y_BARS, Y_SOFT, Y_SCORE, Y_BUS, Y_ENC = 40, 140, 236, 350, 385, 470, 525, 570

parts = []


def add(text):
    parts.append(text)


def symbol(base, sub="", extra="", size=17, weight="normal"):
    """Italic math symbol with an optional subscript, e.g. symbol('h', '1')."""
    text = f'<tspan font-style="italic">{base}</tspan>'
    if sub:
        text += f'<tspan dy="5" font-size="{size * 0.72:.0f}" font-style="italic">{sub}</tspan>'
        return text + (f'<tspan dy="-5">{extra}</tspan>' if extra else "")
    return text + extra


def label(x, y, content, size=17, anchor="middle", colour=INK, weight="normal"):
    add(f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" fill="{colour}" '
        f'font-weight="{weight}">{content}</text>')


def box(x, y, w, h, fill, stroke, radius=8):
    add(f'<rect x="{x - w / 2}" y="{y - h / 2}" width="{w}" height="{h}" rx="{radius}" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="1.6"/>')


def arrow(points, colour=INK, width=1.6, dashed=False, halo=False):
    path = " ".join(("M" if i == 0 else "L") + f"{x},{y}" for i, (x, y) in enumerate(points))
    if halo:   # a white band under the line, so a line it crosses shows a gap
        add(f'<path d="{path}" fill="none" stroke="white" stroke-width="{width + 8}"/>')
    dash = ' stroke-dasharray="6 4"' if dashed else ""
    add(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="{width}"{dash} marker-end="url(#head-{colour[1:]})"/>')


add(f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
    f'font-family="{FONT}" xml:space="preserve">')
add("<defs>")
for colour in (INK, SOFT, QUERY, KEY, WEIGHT, CONTEXT):
    add(f'<marker id="head-{colour[1:]}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="10" markerHeight="10" markerUnits="userSpaceOnUse" '
        f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>')
add("</defs>")
add(f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>')

# ---- Encoder states h_1..h_S: the keys (after W_k) and the values.
for j, (x, word) in enumerate(zip(xs, words), 1):
    box(x, Y_ENC, 84, 40, "#e8f0fb", KEY)
    label(x, Y_ENC + 6, symbol("h", str(j) if j < 4 else "S"))
    label(x, Y_ENC + 44, word, size=15, colour=SOFT)
    if j > 1:
        arrow([(xs[j - 2] + 44, Y_ENC), (x - 44, Y_ENC)], colour=SOFT, width=1.2, dashed=j == 4)
label((xs[2] + xs[3]) / 2, Y_ENC - 8, "…", size=15, colour=SOFT)
label(xs[0] - 54, Y_ENC + 2, "encoder states", size=14, anchor="end", colour=KEY)
label(xs[0] - 54, Y_ENC + 20, "(keys and values)", size=14, anchor="end", colour=KEY)

# ---- The query s_{t-1}: from the decoder, along a bus under the score nodes.
box(90, Y_DEC, 110, 44, "#fdecea", QUERY)
label(90, Y_DEC + 6, symbol("s", "t−1"))
arrow([(90, Y_DEC + 22), (90, Y_BUS), (xs[-1] - 34, Y_BUS)], colour=QUERY, width=1.8)
label(100, Y_BUS - 8, "query", size=14, anchor="start", colour=QUERY)
for x in xs:
    arrow([(x - 34, Y_BUS), (x - 14, Y_SCORE + 20)], colour=QUERY, width=1.4)

# ---- Scores e_tj (2.2), one small network per position, keys projected once (2.1).
for j, x in enumerate(xs, 1):
    arrow([(x, Y_ENC - 20), (x, Y_SCORE + 25)], colour=KEY, width=1.6, halo=True)
    add(f'<circle cx="{x}" cy="{Y_SCORE}" r="25" fill="white" stroke="{INK}" stroke-width="1.6"/>')
    label(x, Y_SCORE + 6, symbol("e", "t" + (str(j) if j < 4 else "S")), size=16)
    arrow([(x, Y_SCORE - 25), (x, Y_SOFT + 18)])
label(xs[-1] + 60, Y_SCORE - 2, symbol("e", "tj", " = ") + symbol("w", "v", "ᵀ tanh(") + symbol("W", "q", " ")
      + symbol("s", "t−1", " + ") + symbol("W", "k", " ") + symbol("h", "j", ")"), size=15, anchor="start")
label(xs[-1] + 60, Y_SCORE + 20, "additive score (2.2)", size=14, anchor="start", colour=SOFT)

# ---- Softmax over the valid positions (2.3), then the weights alpha_tj as bars.
box((xs[0] + xs[-1]) / 2, Y_SOFT, xs[-1] - xs[0] + 120, 36, "#fff4e0", WEIGHT)
label((xs[0] + xs[-1]) / 2, Y_SOFT + 6, "softmax over the valid positions (2.3)", size=15)
for j, (x, a) in enumerate(zip(xs, weights), 1):
    top = Y_BARS - 70 * a
    add(f'<rect x="{x - 16}" y="{top}" width="32" height="{70 * a}" fill="{WEIGHT}"/>')
    label(x + 22, Y_BARS - 2, symbol("α", "t" + (str(j) if j < 4 else "S")), size=14, anchor="start", colour=WEIGHT)
    label(x, top - 6, f"{a:.2f}", size=13, colour=SOFT)
    # weight times value, summed: the line's width follows the weight
    arrow([(x, top - 22), (500 + (x - 500) * 0.1, Y_SUM + 27)], colour=CONTEXT, width=0.8 + 3 * a)
add(f'<line x1="{xs[0] - 30}" y1="{Y_BARS}" x2="{xs[-1] + 30}" y2="{Y_BARS}" stroke="{SOFT}" stroke-width="1"/>')
label(xs[-1] + 60, Y_BARS - 10, "weights: positive, sum to 1,", size=14, anchor="start", colour=SOFT)
label(xs[-1] + 60, Y_BARS + 8, "0 on padding", size=14, anchor="start", colour=SOFT)

# ---- The context c_t (2.4): the weights average the values h_j.
add(f'<circle cx="500" cy="{Y_SUM}" r="26" fill="#e6f4ec" stroke="{CONTEXT}" stroke-width="1.8"/>')
label(500, Y_SUM + 8, "Σ", size=22)
arrow([(xs[-1] + 44, Y_ENC), (935, Y_ENC), (935, Y_SUM), (527, Y_SUM)], colour=KEY, dashed=True)
label(760, Y_SUM - 8, "values " + symbol("h", "j"), size=14, colour=KEY)
label(440, Y_SUM - 8, symbol("c", "t", " = Σ") + symbol("", "j", " ") + symbol("α", "tj", " ") + symbol("h", "j"),
      size=15, anchor="end")
label(440, Y_SUM + 12, "context vector (2.4)", size=14, anchor="end", colour=SOFT)

# ---- The decoder GRU (2.6) and the output layer (2.7).
box(500, Y_DEC, 150, 56, "#f2f2f2", INK)
label(500, Y_DEC - 2, "GRU", size=17, weight="bold")
label(500, Y_DEC + 18, "(2.6)", size=13, colour=SOFT)
arrow([(500, Y_SUM - 26), (500, Y_DEC + 28)], colour=CONTEXT, width=2)
label(508, Y_DEC + 60, symbol("c", "t"), size=15, anchor="start", colour=CONTEXT)
arrow([(145, Y_DEC), (425, Y_DEC)], colour=QUERY, width=1.8)
label(285, Y_DEC - 8, "previous state", size=14, colour=QUERY)
box(240, Y_OUT + 10, 250, 40, "white", SOFT)
label(250, Y_OUT + 16, symbol("e", "", "(") + symbol("y", "t−1", ")") + ", the word just written", size=14)
arrow([(365, Y_OUT + 10), (470, Y_OUT + 10), (470, Y_DEC - 28)], colour=SOFT)
box(700, Y_DEC, 80, 44, "#fdecea", QUERY)
label(700, Y_DEC + 6, symbol("s", "t"))
arrow([(575, Y_DEC), (660, Y_DEC)])
arrow([(740, Y_DEC), (820, Y_DEC)], colour=SOFT)
label(826, Y_DEC - 2, "query of", size=13, anchor="start", colour=SOFT)
label(826, Y_DEC + 14, "step t + 1", size=13, anchor="start", colour=SOFT)
box(700, Y_OUT + 10, 150, 40, "white", INK)
label(700, Y_OUT + 16, symbol("y", "t", " = european"), size=15)
arrow([(700, Y_DEC - 22), (700, Y_OUT + 30)])
label(708, Y_DEC - 44, symbol("W", "o", " ") + symbol("s", "t", " + ") + symbol("b", "o", "  (2.7)"), size=13,
      anchor="start", colour=SOFT)
add("</svg>")
print("\n".join(parts))
