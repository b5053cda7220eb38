#!/usr/bin/env python3
"""Draw chapter 07's diagram of the encoder-decoder Transformer, (6.3) and (7.2)-(7.4), as SVG.

For maintainers (Python 3, standard library only); the SVGs it writes are committed:
    tools/lessons/draw_transformer.py > chapters/07_transformer/figures/transformer.svg
    tools/lessons/draw_transformer.py --zh > chapters/07_transformer/figures/transformer.zh.svg
It draws the chapter's default model: post-norm blocks, L = 2 per side, d = 64, H = 4 heads,
d_ff = 256, and the vocabularies part 3 of the run prints (461 source, 346 target tokens).
Queries, keys and values have the colours of tools/lessons/draw_attention_layer.py.
"""
import math
import re
import sys

ZH = "--zh" in sys.argv[1:]
WIDTH, HEIGHT = 1000, 1150
FONT = "DejaVu Sans, Noto Sans CJK SC, sans-serif"
INK, SOFT, QUERY, KEY, VALUE, WEIGHT = "#222222", "#777777", "#c0392b", "#2c6fbb", "#2e8b57", "#e08e0b"
ENC_SA, DEC_SA, CROSS = "#0e7c86", "#a0522d", "#7b4fa3"      # the three kinds of attention
TINT = {ENC_SA: "#e3f3f4", DEC_SA: "#f8ebe3", CROSS: "#f0e9f7"}
NORM_FILL, NORM_LINE = "#fbf3c8", "#a08a00"
FFN_FILL, EMB_FILL, EMB_LINE = "#eeeeee", "#fdf0e6", "#c98a4b"
L, D, H, D_FF, V_S, V_T, B = 2, 64, 4, 256, 461, 346, 64     # the defaults (transformer_flags.cpp, part 3, part 4)

# Markup in the texts: *x* italic, _{x} italic subscript, _[x] upright subscript.
TEXT = {
    "title": ("The Transformer of this chapter: the encoder (left) and the decoder (right)",
              "本章的 Transformer：编码器（左）与解码器（右）"),
    "defaults": ("The default model", "默认模型"),
    "def_1": (f"*L* = {L} encoder blocks and {L} decoder blocks", f"编码器 {L} 块、解码器 {L} 块（*L* = {L}）"),
    "def_2": (f"*d* = {D} features, *H* = {H} heads of *d*_{{h}} = {D // H}", f"*d* = {D} 个特征，*H* = {H} 个头，每头 *d*_{{h}} = {D // H}"),
    "def_3": (f"feed-forward width *d*_[ff] = {D_FF}", f"前馈层宽度 *d*_[ff] = {D_FF}"),
    "def_4": (f"vocabularies *V*_{{s}} = {V_S}, *V*_{{t}} = {V_T} tokens", f"词表 *V*_{{s}} = {V_S}、*V*_{{t}} = {V_T} 个词元"),
    "def_5": (f"*B* = {B} sentences a batch, *n* source and", f"每批 *B* = {B} 个句子，源句 *n* 个位置，"),
    "def_6": ("*m* target positions (the longest in the batch)", "目标句 *m* 个位置（取批内最长者）"),
    "post_1": ("Post-norm, the default (--norm post)", "后置规范化，默认设置（--norm post）"),
    "post_2": ("every sub-layer *f* is followed by add &amp; norm,", "每个子层 *f* 之后接相加与规范化，"),
    "post_3": ("LN(*x* + *f*(*x*)); each stack ends with one more norm", "LN(*x* + *f*(*x*))；每个堆叠最后再接一个规范化"),
    "kinds": ("Three kinds of attention", "三种注意力"),
    "k_enc": ("encoder self-attention: *Q*, *K*, *V* from the source", "编码器自注意力：*Q*、*K*、*V* 都来自源句"),
    "k_dec": ("masked self-attention: a target position sees", "掩码自注意力：目标位置只看自己"),
    "k_dec2": ("itself and the positions before it (3.9)", "和它之前的位置 (3.9)"),
    "k_cross": ("cross-attention: *Q* from the decoder,", "交叉注意力：*Q* 来自解码器，"),
    "k_cross2": ("*K* and *V* from the memory *M*", "*K* 和 *V* 来自记忆 *M*"),
    "arrows": ("arrows: queries, keys, values, residual", "箭头：查询、键、值、残差"),
    "q": ("queries", "查询"), "k": ("keys", "键"), "v": ("values", "值"), "res": ("residual", "残差"),
    "src_tokens": ("source tokens *x*_{1} … *x*_{n}", "源句词元 *x*_{1} … *x*_{n}"),
    "tgt_tokens": ("target shifted right: &lt;bos&gt; *y*_{1} … *y*_{m}", "右移一位的目标句：&lt;bos&gt; *y*_{1} … *y*_{m}"),
    "src_emb": ("source embedding × √*d*", "源语言嵌入 × √*d*"),
    "tgt_emb": ("target embedding × √*d*", "目标语言嵌入 × √*d*"),
    "positions": ("positions *P* (6.3)", "位置编码 *P* (6.3)"),
    "enc_sa": ("multi-head self-attention", "多头自注意力"),
    "heads": (f"*H* = {H} heads, *d*_{{h}} = {D // H}", f"*H* = {H} 个头，*d*_{{h}} = {D // H}"),
    "dec_sa": ("masked multi-head self-attention", "掩码多头自注意力"),
    "causal": ("causal mask (3.9)", "因果掩码 (3.9)"),
    "cross": ("multi-head cross-attention", "多头交叉注意力"),
    "cross_2": ("*Q*: decoder, *K*, *V*: memory", "*Q* 来自解码器，*K*、*V* 来自记忆"),
    "ffn": ("feed-forward network", "前馈网络"),
    "ffn_2": (f"*d* → *d*_[ff] → *d*: {D} → {D_FF} → {D}", f"*d* → *d*_[ff] → *d*：{D} → {D_FF} → {D}"),
    "add_norm": ("add &amp; norm", "相加与规范化"),
    "enc_norm": ("layer norm (encoder.norm)", "层规范化 (encoder.norm)"),
    "dec_norm": ("layer norm (decoder.norm)", "层规范化 (decoder.norm)"),
    "blocks": (f"× {L}", f"× {L}"),
    "blocks_2": ("blocks", "块"),
    "memory": ("memory *M*", "记忆 *M*"),
    "memory_2": ("to every decoder block", "送往每个解码器块"),
    "linear": ("linear output layer", "线性输出层"),
    "softmax": ("softmax over the target vocabulary", "在目标词表上做 softmax"),
    "output": ("probabilities of the next word", "下一个词的概率"),
    "output_2": ("for every target position, ", "每个目标位置一行，"),
    "logits": ("logits", "logits"),
}


def t(key):
    return TEXT[key][1 if ZH else 0]


parts = []


def add(text):
    parts.append(text)


MARKUP = re.compile(r"\*([^*]+)\*|_\{([^}]+)\}|_\[([^\]]+)\]")


def rich(text, size):
    """The markup as tspans; a subscript lowers the baseline until the next piece raises it."""
    out, pos, lowered = "", 0, False

    def piece(content, italic=False, sub=False):
        nonlocal lowered
        attrs = ' font-style="italic"' if italic else ""
        if sub:
            attrs += f' dy="4" font-size="{size * 0.72:.0f}"'
            lowered = True
        elif lowered:
            attrs += ' dy="-4"'
            lowered = False
        return f"<tspan{attrs}>{content}</tspan>" if attrs else content

    for m in MARKUP.finditer(text):
        if m.start() > pos:
            out += piece(text[pos:m.start()])
        if m.group(1):
            out += piece(m.group(1), italic=True)
        else:
            out += piece(m.group(2) or m.group(3), italic=bool(m.group(2)), sub=True)
        pos = m.end()
    if pos < len(text):
        out += piece(text[pos:])
    return out


def label(x, y, content, size=15, anchor="middle", colour=INK, weight="normal", rotate=None):
    turn = f' transform="rotate({rotate} {x} {y})"' if rotate else ""
    add(f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" fill="{colour}" '
        f'font-weight="{weight}"{turn}>{rich(content, size)}</text>')


def box(cx, top, w, h, fill, stroke, radius=7, width=1.6):
    add(f'<rect x="{cx - w / 2}" y="{top}" width="{w}" height="{h}" rx="{radius}" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="{width}"/>')


def line(points, colour=INK, width=1.6, head=True, dashed=False):
    path = " ".join(("M" if i == 0 else "L") + f"{x},{y}" for i, (x, y) in enumerate(points))
    end = f' marker-end="url(#head-{colour[1:]})"' if head else ""
    dash = ' stroke-dasharray="6 4"' if dashed else ""
    add(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="{width}"{dash}{end}/>')


def dot(x, y, colour=INK):
    add(f'<circle cx="{x}" cy="{y}" r="3.2" fill="{colour}"/>')


def shape(x, y, text, anchor="start"):
    label(x, y, text, size=13, anchor=anchor, colour=SOFT)


def sine(x, y):
    """A small sine wave, the sign of the positional codes."""
    pts = " ".join(f"{x + i * 2},{y - 6 * math.sin(i * 0.5):.1f}" for i in range(14))
    add(f'<polyline points="{pts}" fill="none" stroke="{EMB_LINE}" stroke-width="1.4"/>')


add(f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
    f'font-family="{FONT}" xml:space="preserve">')
add("<defs>")
for colour in (INK, SOFT, QUERY, KEY, VALUE, WEIGHT):
    add(f'<marker id="head-{colour[1:]}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="10" markerHeight="10" markerUnits="userSpaceOnUse" '
        f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>')
add("</defs>")
add(f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>')
label(24, 34, t("title"), size=18, anchor="start", weight="bold")

CX_E, CX_D = 290, 700          # the two columns
BOX_W, NORM_W = 260, 170
RES_E, RES_D = CX_E - 150, CX_D + 150    # residual lines: left of the encoder, right of the decoder
Y_TOKENS, Y_EMB, Y_POS, Y_FRAME = 1120, 1040, 988, 915


def inputs(cx, side, tokens, embedding, shape_text):
    """Tokens -> embedding x sqrt(d) -> + positions, up to the bottom of the stack."""
    label(cx, Y_TOKENS, t(tokens), size=14)
    line([(cx, Y_TOKENS - 18), (cx, Y_EMB + 40 + 2)])
    box(cx, Y_EMB, BOX_W, 40, EMB_FILL, EMB_LINE)
    label(cx, Y_EMB + 26, t(embedding), size=15)
    line([(cx, Y_EMB), (cx, Y_POS + 13)])
    add(f'<circle cx="{cx}" cy="{Y_POS}" r="12" fill="white" stroke="{INK}" stroke-width="1.6"/>')
    label(cx, Y_POS + 6, "+", size=18)
    x_sine = cx - 56 if side < 0 else cx + 22
    line([(x_sine + 28 if side < 0 else x_sine - 4, Y_POS), (cx - 13 if side < 0 else cx + 13, Y_POS)], head=False)
    sine(x_sine, Y_POS)
    label(cx - 62 if side < 0 else cx + 56, Y_POS + 5, t("positions"), size=14,
          anchor="end" if side < 0 else "start")
    shape(cx - 10 * side, Y_FRAME + 40, shape_text, anchor="start" if side < 0 else "end")


def attention_box(cx, bottom, kind, title, second, qkv_from=None):
    """An attention sub-layer box 52 high, its inputs drawn by the caller."""
    box(cx, bottom - 52, BOX_W, 52, TINT[kind], kind, width=2)
    label(cx, bottom - 31, t(title), size=13.5, colour=kind, weight="bold")
    label(cx, bottom - 12, t(second), size=12, colour=INK)


def add_norm(cx, bottom):
    box(cx, bottom - 32, NORM_W, 32, NORM_FILL, NORM_LINE)
    label(cx, bottom - 11, t("add_norm"), size=14)
    return bottom - 32


def residual(cx, x_res, y_from, y_norm, side):
    """The skip connection from the branch point at y_from around the sub-layer into add & norm."""
    dot(cx, y_from)
    line([(cx, y_from), (x_res, y_from), (x_res, y_norm), (cx + side * NORM_W / 2 + side * 2, y_norm)],
         colour=SOFT, width=1.6)


def self_attention(cx, y, kind, title, second, x_res, side):
    """Branch, Q/K/V split, the attention box, add & norm; returns the top of add & norm."""
    branch = y - 18
    residual_start = branch
    split = branch - 14
    bottom = branch - 40
    line([(cx, y), (cx, split)], head=False)
    line([(cx - 50, split), (cx + 50, split)], head=False)
    for dx, colour, letter in ((-50, QUERY, "Q"), (0, KEY, "K"), (50, VALUE, "V")):
        line([(cx + dx, split), (cx + dx, bottom + 1)], colour=colour, width=1.8)
        label(cx + dx + 6, split - 6, f"*{letter}*", size=11, anchor="start", colour=colour, weight="bold")
    attention_box(cx, bottom, kind, title, second)
    top = bottom - 52
    line([(cx, top), (cx, top - 22)])
    norm_top = add_norm(cx, top - 22 + 1)
    residual(cx, x_res, residual_start, norm_top + 16, side)
    return norm_top


def feed_forward(cx, y, x_res, side):
    branch = y - 18
    bottom = branch - 26
    line([(cx, y), (cx, bottom + 1)])
    box(cx, bottom - 48, BOX_W, 48, FFN_FILL, INK)
    label(cx, bottom - 28, t("ffn"), size=14, weight="bold")
    label(cx, bottom - 10, t("ffn_2"), size=12)
    top = bottom - 48
    line([(cx, top), (cx, top - 22)])
    norm_top = add_norm(cx, top - 22 + 1)
    residual(cx, x_res, branch, norm_top + 16, side)
    return norm_top


def frame(left, right, top, bottom, side):
    add(f'<rect x="{left}" y="{top}" width="{right - left}" height="{bottom - top}" rx="12" fill="none" '
        f'stroke="{SOFT}" stroke-width="1.4" stroke-dasharray="7 5"/>')
    x = left - 12 if side < 0 else right + 12
    anchor = "end" if side < 0 else "start"
    label(x, (top + bottom) / 2 - 4, t("blocks"), size=22, anchor=anchor, weight="bold")
    label(x, (top + bottom) / 2 + 16, t("blocks_2"), size=13, anchor=anchor, colour=SOFT)


# ---- Inputs of both sides.
inputs(CX_E, -1, "src_tokens", "src_emb", "(*B*, *n*, *d*)")
shape(CX_E + 10, Y_TOKENS - 26, "(*B*, *n*)")
inputs(CX_D, +1, "tgt_tokens", "tgt_emb", "(*B*, *m*, *d*)")
shape(CX_D - 10, Y_TOKENS - 26, "(*B*, *m*)", anchor="end")

# ---- The encoder stack (7.2): self-attention, add & norm, feed-forward, add & norm; L times.
y = Y_FRAME
line([(CX_E, Y_POS - 12), (CX_E, Y_FRAME)], head=False)
y = self_attention(CX_E, y, ENC_SA, "enc_sa", "heads", RES_E, -1)
y = feed_forward(CX_E, y, RES_E, -1)
enc_top = y - 16
frame(RES_E - 16, CX_E + BOX_W / 2 + 16, enc_top, Y_FRAME, -1)
line([(CX_E, y), (CX_E, enc_top - 26 + 1)])
box(CX_E, enc_top - 26 - 32, NORM_W + 50, 32, NORM_FILL, NORM_LINE)
label(CX_E, enc_top - 26 - 11, t("enc_norm"), size=14)
enc_out = enc_top - 26 - 32

# ---- The decoder stack (7.4): masked self-attention, cross-attention, feed-forward; L times.
y = Y_FRAME
line([(CX_D, Y_POS - 12), (CX_D, Y_FRAME)], head=False)
y = self_attention(CX_D, y, DEC_SA, "dec_sa", "causal", RES_D, +1)
# cross-attention: the query from below, keys and values from the memory on the left
branch = y - 18
bottom = branch - 30
line([(CX_D, y), (CX_D, bottom + 1)], colour=QUERY, width=1.8)
label(CX_D + 6, bottom + 16, "*Q*", size=11, anchor="start", colour=QUERY, weight="bold")
attention_box(CX_D, bottom, CROSS, "cross", "cross_2")
cross_mid = bottom - 26
top = bottom - 52
line([(CX_D, top), (CX_D, top - 22)])
norm_top = add_norm(CX_D, top - 22 + 1)
residual(CX_D, RES_D, branch, norm_top + 16, +1)
y = feed_forward(CX_D, norm_top, RES_D, +1)
dec_top = y - 16
frame(CX_D - BOX_W / 2 - 16, RES_D + 16, dec_top, Y_FRAME, +1)

# ---- The memory M: out of the encoder, into the cross-attention of every decoder block.
X_BUS, X_FORK = 490, CX_D - BOX_W / 2 - 44
line([(CX_E, enc_out), (CX_E, enc_out - 24), (X_BUS, enc_out - 24), (X_BUS, cross_mid), (X_FORK, cross_mid)],
     width=2.2, head=False)
dot(X_FORK, cross_mid)
for dy, colour, letter in ((-12, KEY, "K"), (12, VALUE, "V")):
    line([(X_FORK, cross_mid), (X_FORK + 14, cross_mid + dy), (CX_D - BOX_W / 2 - 1, cross_mid + dy)],
         colour=colour, width=1.8)
    label(X_FORK + 13, cross_mid + dy + (-6 if dy < 0 else 17), f"*{letter}*", size=11, colour=colour, weight="bold")
label(X_BUS + 10, enc_out - 50, t("memory"), size=15, weight="bold", anchor="middle")
shape(X_BUS + 10, enc_out - 33, "(*B*, *n*, *d*)", anchor="middle")
label(X_BUS - 8, (enc_out + cross_mid) / 2 + 40, t("memory_2"), size=12, colour=SOFT, anchor="middle", rotate=-90)

# ---- The final norm, the output layer and the softmax.
line([(CX_D, y), (CX_D, dec_top - 26 + 1)])
box(CX_D, dec_top - 26 - 32, NORM_W + 50, 32, NORM_FILL, NORM_LINE)
label(CX_D, dec_top - 26 - 11, t("dec_norm"), size=14)
y = dec_top - 26 - 32
line([(CX_D, y), (CX_D, y - 34 + 1)])
shape(CX_D - 10, y - 12, "(*B*, *m*, *d*)", anchor="end")
y -= 34
box(CX_D, y - 40, BOX_W, 40, FFN_FILL, INK)
label(CX_D, y - 14, t("linear") + f"  *d* → *V*_{{t}}", size=14)
y -= 40
line([(CX_D, y), (CX_D, y - 34 + 1)])
shape(CX_D - 10, y - 12, t("logits") + " (*B*, *m*, *V*_{t})", anchor="end")
y -= 34
box(CX_D, y - 36, BOX_W + 60, 36, "#fff4e0", WEIGHT)
label(CX_D, y - 12, t("softmax"), size=14)
y -= 36
line([(CX_D, y), (CX_D, y - 30)])
label(CX_D, y - 60, t("output"), size=15, weight="bold")
shape(CX_D, y - 40, t("output_2") + f"(*B*, *m*, *V*_{{t}}), *V*_{{t}} = {V_T}", anchor="middle")

# ---- The legend: sizes, norm placement, the three attentions, the arrows.
x0, y0 = 30, 80
label(x0, y0, t("defaults"), size=15, anchor="start", weight="bold")
for i, key in enumerate(("def_1", "def_2", "def_3", "def_4", "def_5", "def_6")):
    label(x0, y0 + 22 + 19 * i, t(key), size=13, anchor="start")
y0 += 22 + 19 * 6 + 14
for i, key in enumerate(("post_1", "post_2", "post_3")):
    label(x0, y0 + 2 * (i > 0) + 19 * i, t(key), size=15 if i == 0 else 13, anchor="start",
          colour=INK if i else NORM_LINE, weight="bold" if i == 0 else "normal")
y0 += 19 * 3 + 16
label(x0, y0, t("kinds"), size=15, anchor="start", weight="bold")
rows = (("k_enc", None, ENC_SA), ("k_dec", "k_dec2", DEC_SA), ("k_cross", "k_cross2", CROSS))
y0 += 20
for first, second, colour in rows:
    box(x0 + 14, y0 - 12, 28, 16, TINT[colour], colour, radius=3, width=2)
    label(x0 + 38, y0, t(first), size=13, anchor="start")
    if second:
        label(x0 + 38, y0 + 18, t(second), size=13, anchor="start")
    y0 += 42 if second else 26
y0 += 2
for i, (key, colour) in enumerate((("q", QUERY), ("k", KEY), ("v", VALUE), ("res", SOFT))):
    x = x0 + i * 100
    line([(x, y0 - 4), (x + 26, y0 - 4)], colour=colour, width=1.8)
    label(x + 32, y0, t(key), size=13, anchor="start", colour=colour)
add("</svg>")
print("\n".join(parts))
