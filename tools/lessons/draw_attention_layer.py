#!/usr/bin/env python3
"""Draw chapter 03's diagram of scaled dot-product attention, equations (3.5)-(3.9), as SVG.

For maintainers (Python 3, standard library only); the SVGs it writes are committed:
    tools/lessons/draw_attention_layer.py > chapters/03_queries_keys_values/figures/attention_layer.svg
    tools/lessons/draw_attention_layer.py --zh > chapters/03_queries_keys_values/figures/attention_layer.zh.svg
One batch entry, rows are positions (the chapter's convention): n_q = 4 queries, n_k = 6 keys, the
last key padding. The scores are illustrative; the weights are their masked softmax, computed here.
Queries, keys and values have the colours of tools/lessons/draw_transformer.py.
"""
import math
import re
import sys

ZH = "--zh" in sys.argv[1:]
WIDTH, HEIGHT = 1000, 640
FONT = "DejaVu Sans, Noto Sans CJK SC, sans-serif"
INK, SOFT, QUERY, KEY, VALUE, WEIGHT, BLOCKED = "#222222", "#777777", "#c0392b", "#2c6fbb", "#2e8b57", "#e08e0b", "#5a5a5a"
TINT = {QUERY: "#fdecea", KEY: "#e8f0fb", VALUE: "#e6f4ec"}

TEXT = {
    "title": ("Scaled dot-product attention (3.5)–(3.7), one batch entry, rows are positions",
              "缩放点积注意力 (3.5)–(3.7)：一个批量条目，每行是一个位置"),
    "queries": ("queries *Q*", "查询 *Q*"),
    "keys": ("keys *K*", "键 *K*"),
    "keys_t": ("drawn transposed, *K*ᵀ", "画成转置 *K*ᵀ"),
    "values": ("values *V*", "值 *V*"),
    "scores": ("scores *S* = *Q K*ᵀ / √*d*", "分数 *S* = *Q K*ᵀ / √*d*"),
    "entry": ("entry (*i*, *j*): *q*", "第 (*i*, *j*) 项：*q*"),
    "masked": ("masked scores *S* + *M*", "加掩码的分数 *S* + *M*"),
    "masked_2": ("*M* = −10⁹ where blocked", "被屏蔽处 *M* = −10⁹"),
    "weights": ("weights *A*", "权重 *A*"),
    "weights_2": ("each row sums to 1", "每行之和为 1"),
    "output": ("output *O* = *A V*", "输出 *O* = *A V*"),
    "output_2": ("row *i* of *O*: the rows of *V* averaged", "*O* 的第 *i* 行：*V* 的各行按 *A* 的"),
    "output_3": ("with the weights in row *i* of *A*", "第 *i* 行权重求加权平均"),
    "add_mask": ("+ *M*", "+ *M*"),
    "softmax": ("softmax", "softmax"),
    "per_row": ("per row", "沿每一行"),
        "mask_head": ("The mask (3.6): which keys a query may not see", "掩码 (3.6)：查询不能看的键"),
    "mask_1": ("blocked[*i*, *j*] = true hides key *j* from query *i*; *M* adds −10⁹ there (finite, in effect −∞),",
               "blocked[*i*, *j*] 为真时，键 *j* 对查询 *i* 隐藏；*M* 在那里加上 −10⁹（有限值，效果等同 −∞），"),
    "mask_2": ("so after the softmax a blocked key has weight exactly 0 and passes no gradient.",
               "于是 softmax 之后被屏蔽的键权重恰为 0，也不传回梯度。"),
    "padding": ("padding (3.8): keys past the", "填充 (3.8)：句子结束之后"),
    "padding_2": ("sentence's end (here, length 5)", "的键（此处长度为 5）"),
    "causal": ("causal (3.9): key *j* > *i* is a word", "因果 (3.9)：键 *j* > *i* 是解码器"),
    "causal_2": ("the decoder has not written yet", "还没有写出的词"),
    "allowed": ("allowed", "允许"),
    "hidden": ("blocked", "屏蔽"),
}


def t(key):
    return TEXT[key][1 if ZH else 0]


parts = []


def add(text):
    parts.append(text)


def label(x, y, content, size=15, anchor="middle", colour=INK, weight="normal"):
    content = re.sub(r"\*([^*]+)\*", r'<tspan font-style="italic">\1</tspan>', content)
    add(f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" fill="{colour}" '
        f'font-weight="{weight}">{content}</text>')


def shape(rows, cols, size=14, colour=SOFT, x=0, y=0, anchor="middle"):
    """A shape like (n_q, d) with italic symbols and subscripts."""
    def sym(s):
        if "_" in s:
            b, i = s.split("_")
            return f'<tspan font-style="italic">{b}</tspan><tspan dy="4" font-size="{size * 0.72:.0f}" font-style="italic">{i}</tspan><tspan dy="-4"></tspan>'
        return f'<tspan font-style="italic">{s}</tspan>'
    label(x, y, f"({sym(rows)}, {sym(cols)})", size, anchor, colour)


def rect(x, y, w, h, fill, stroke="none", width=1.0, radius=0, extra=""):
    add(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{radius}" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="{width}"{extra}/>')


def arrow(points, colour=INK, width=1.6):
    path = " ".join(("M" if i == 0 else "L") + f"{x},{y}" for i, (x, y) in enumerate(points))
    add(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="{width}" marker-end="url(#head-{colour[1:]})"/>')


def mix(colour, amount):
    """colour mixed with white: amount 0 is white, 1 is the colour."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(255 + (c - 255) * amount):02x}" for c in (r, g, b))


CW, CH = 30, 26   # one cell


def grid(x, y, rows, cols, fill, stroke, texture=None):
    """A matrix drawn as cells; texture(i, j) gives each cell's fill, default all alike."""
    for i in range(rows):
        for j in range(cols):
            rect(x + j * CW, y + i * CH, CW, CH, texture(i, j) if texture else fill, "white", 1)
    rect(x, y, cols * CW, rows * CH, "none", stroke, 1.6)


# ---- The numbers: illustrative scores, key 6 padding, weights by the masked softmax (3.6).
N_Q, N_K, D, D_V, LENGTH = 4, 6, 3, 2, 5
SCORES = [[0.4, 2.1, -0.3, 0.8, -1.2, 0.6],
          [1.7, -0.5, 0.2, -0.9, 0.5, 1.1],
          [-0.6, 0.3, 1.9, 1.2, -0.1, -0.8],
          [0.1, -1.1, 0.6, 0.4, 2.2, 0.9]]
WEIGHTS = []
for row in SCORES:
    allowed = [math.exp(s) if j < LENGTH else 0.0 for j, s in enumerate(row)]
    WEIGHTS.append([a / sum(allowed) for a in allowed])

add(f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
    f'font-family="{FONT}" xml:space="preserve">')
add("<defs>")
for colour in (INK, SOFT, QUERY, KEY, VALUE, WEIGHT):
    add(f'<marker id="head-{colour[1:]}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="10" markerHeight="10" markerUnits="userSpaceOnUse" '
        f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>')
add('<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
    f'<rect width="6" height="6" fill="#8a8a8a"/><line x1="0" y1="0" x2="0" y2="6" stroke="{BLOCKED}" stroke-width="3"/></pattern>')
add("</defs>")
add(f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>')
label(24, 30, t("title"), size=17, anchor="start", weight="bold")

X_Q, X_S, X_M, X_A, X_O = 16, 170, 420, 680, 924
Y_MAIN, Y_TOP = 250, 200          # top of the n_q rows; bottom of K-transposed and V
W_S = N_K * CW
grid_bottom = Y_MAIN + N_Q * CH

# ---- Q (n_q, d) to the left of S, K drawn as K^T (d, n_k) above it: S = Q K^T / sqrt(d), (3.5).
I_HI, J_HI = 1, 2                 # the highlighted query and key
grid(X_Q, Y_MAIN, N_Q, D, TINT[QUERY], QUERY,
     lambda i, j: mix(QUERY, 0.45 if i == I_HI else 0.12 + 0.05 * ((i + 2 * j) % 3)))
y_kt = Y_TOP - D * CH
grid(X_S, y_kt, D, N_K, TINT[KEY], KEY,
     lambda i, j: mix(KEY, 0.45 if j == J_HI else 0.12 + 0.05 * ((2 * i + j) % 3)))
rect(X_Q - 2, Y_MAIN + I_HI * CH - 2, D * CW + 4, CH + 4, "none", QUERY, 2.2, 3)
rect(X_S + J_HI * CW - 2, y_kt - 2, CW + 4, D * CH + 4, "none", KEY, 2.2, 3)
label(X_Q + D * CW / 2, Y_MAIN - 30, t("queries"), size=16, colour=QUERY, weight="bold")
shape("n_q", "d", x=X_Q + D * CW / 2, y=Y_MAIN - 12)
label(X_S - 14, Y_TOP - 95, t("keys"), size=16, anchor="end", colour=KEY, weight="bold")
shape("n_k", "d", x=X_S - 14, y=Y_TOP - 75, anchor="end")
label(X_S - 14, Y_TOP - 53, t("keys_t"), size=13, anchor="end", colour=SOFT)
shape("d", "n_k", size=13, x=X_S - 14, y=Y_TOP - 35, anchor="end")
arrow([(X_Q + D * CW + 6, Y_MAIN + N_Q * CH / 2), (X_S - 8, Y_MAIN + N_Q * CH / 2)], colour=QUERY, width=2)
arrow([(X_S + W_S / 2, Y_TOP + 6), (X_S + W_S / 2, Y_MAIN - 8)], colour=KEY, width=2)


def score_fill(s):
    return mix("#6b6b6b", 0.08 + 0.5 * (s + 1.5) / 3.8)


def numbers(x, y, values, fmt, colour=INK, blocked=None):
    for i, row in enumerate(values):
        for j, v in enumerate(row):
            text = "−10⁹" if blocked and blocked(i, j) else fmt(v)
            label(x + j * CW + CW / 2, y + i * CH + CH / 2 + 4, text, size=9 if text == "−10⁹" else 10,
                  colour="white" if blocked and blocked(i, j) else colour)


def signed(v):
    return f"{v:.1f}".replace("-", "−")


grid(X_S, Y_MAIN, N_Q, N_K, "white", INK, lambda i, j: score_fill(SCORES[i][j]))
numbers(X_S, Y_MAIN, SCORES, signed)
rect(X_S + J_HI * CW - 1, Y_MAIN + I_HI * CH - 1, CW + 2, CH + 2, "none", INK, 2.4, 2)
label(X_S + W_S / 2, grid_bottom + 26, t("scores"), size=15, weight="bold")
shape("n_q", "n_k", x=X_S + W_S / 2, y=grid_bottom + 45)
label(X_S + W_S / 2, grid_bottom + 67,
      t("entry") + '<tspan dy="4" font-size="10" font-style="italic">i</tspan><tspan dy="-4">ᵀ</tspan>'
      + '<tspan font-style="italic"> k</tspan><tspan dy="4" font-size="10" font-style="italic">j</tspan>'
      + '<tspan dy="-4"> / √</tspan><tspan font-style="italic">d</tspan>', size=13, colour=SOFT)

# ---- S + M (3.6): the padded key gets -10^9.
arrow([(X_S + W_S + 8, Y_MAIN + N_Q * CH / 2), (X_M - 8, Y_MAIN + N_Q * CH / 2)], width=2)
label((X_S + W_S + X_M) / 2, Y_MAIN + N_Q * CH / 2 - 10, t("add_mask"), size=15, weight="bold")
grid(X_M, Y_MAIN, N_Q, N_K, "white", INK,
     lambda i, j: "url(#hatch)" if j >= LENGTH else score_fill(SCORES[i][j]))
numbers(X_M, Y_MAIN, SCORES, signed, blocked=lambda i, j: j >= LENGTH)
label(X_M + W_S / 2, grid_bottom + 26, t("masked"), size=15, weight="bold")
shape("n_q", "n_k", x=X_M + W_S / 2, y=grid_bottom + 45)
label(X_M + W_S / 2, grid_bottom + 67, t("masked_2"), size=13, colour=SOFT)

# ---- A = softmax along each row (3.6).
arrow([(X_M + W_S + 8, Y_MAIN + N_Q * CH / 2), (X_A - 8, Y_MAIN + N_Q * CH / 2)], colour=WEIGHT, width=2)
label((X_M + W_S + X_A) / 2, Y_MAIN + N_Q * CH / 2 - 10, t("softmax"), size=14, weight="bold")
label((X_M + W_S + X_A) / 2, Y_MAIN + N_Q * CH / 2 + 22, t("per_row"), size=12, colour=SOFT)
grid(X_A, Y_MAIN, N_Q, N_K, "white", WEIGHT, lambda i, j: mix(WEIGHT, 0.06 + 0.94 * WEIGHTS[i][j] ** 0.8))
numbers(X_A, Y_MAIN, WEIGHTS, lambda v: "0" if v == 0 else f"{v:.2f}"[1:])
label(X_A + W_S / 2, grid_bottom + 26, t("weights"), size=15, colour=WEIGHT, weight="bold")
shape("n_q", "n_k", x=X_A + W_S / 2, y=grid_bottom + 45)
label(X_A + W_S / 2, grid_bottom + 67, t("weights_2"), size=13, colour=SOFT)

# ---- O = A V (3.7): V (n_k, d_v) above O, as in a matrix product.
y_v = Y_TOP - N_K * CH
grid(X_O, y_v, N_K, D_V, TINT[VALUE], VALUE, lambda i, j: mix(VALUE, 0.12 + 0.06 * ((i + j) % 3)))
label(X_O - 14, y_v + 24, t("values"), size=16, anchor="end", colour=VALUE, weight="bold")
shape("n_k", "d_v", x=X_O - 14, y=y_v + 44, anchor="end")
arrow([(X_O + D_V * CW / 2, Y_TOP + 6), (X_O + D_V * CW / 2, Y_MAIN - 8)], colour=VALUE, width=2)
arrow([(X_A + W_S + 8, Y_MAIN + N_Q * CH / 2), (X_O - 8, Y_MAIN + N_Q * CH / 2)], width=2)
grid(X_O, Y_MAIN, N_Q, D_V, TINT[VALUE], VALUE,
     lambda i, j: mix(VALUE, 0.2 + 0.1 * ((2 * i + j) % 3)))
label(X_O + D_V * CW + 6, grid_bottom + 26, t("output"), size=15, weight="bold", anchor="end")
shape("n_q", "d_v", x=X_O + D_V * CW / 2, y=grid_bottom + 45)
label(X_O - 14, Y_TOP - 62, t("output_2"), size=13, anchor="end", colour=SOFT)
label(X_O - 14, Y_TOP - 44, t("output_3"), size=13, anchor="end", colour=SOFT)

# ---- The two masks (3.8), (3.9), as blocked patterns.
Y_BOX = 470
rect(24, Y_BOX - 10, WIDTH - 48, 160, "#fafafa", "#dddddd", 1, 8)
label(40, Y_BOX + 16, t("mask_head"), size=15, anchor="start", weight="bold")
label(40, Y_BOX + 42, t("mask_1"), size=13, anchor="start")
label(40, Y_BOX + 62, t("mask_2"), size=13, anchor="start")
MC = 14   # mini cell


def mini(x, y, rows, cols, blocked):
    for i in range(rows):
        for j in range(cols):
            rect(x + j * MC, y + i * MC, MC, MC, "url(#hatch)" if blocked(i, j) else "white", "#bbbbbb", 0.8)
    rect(x, y, cols * MC, rows * MC, "none", INK, 1.2)


mini(40, Y_BOX + 80, 4, 6, lambda i, j: j >= LENGTH)
label(40 + 6 * MC + 12, Y_BOX + 94, t("padding"), size=13, anchor="start")
label(40 + 6 * MC + 12, Y_BOX + 112, t("padding_2"), size=13, anchor="start")
mini(400, Y_BOX + 80, 4, 4, lambda i, j: j > i)
label(400 + 4 * MC + 12, Y_BOX + 94, t("causal"), size=13, anchor="start")
label(400 + 4 * MC + 12, Y_BOX + 112, t("causal_2"), size=13, anchor="start")
rect(760, Y_BOX + 82, MC, MC, "white", "#bbbbbb", 0.8)
label(760 + MC + 8, Y_BOX + 94, t("allowed"), size=13, anchor="start")
rect(760, Y_BOX + 104, MC, MC, "url(#hatch)", "#bbbbbb", 0.8)
label(760 + MC + 8, Y_BOX + 116, t("hidden"), size=13, anchor="start")
add("</svg>")
print("\n".join(parts))
