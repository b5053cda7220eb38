"""The generated numbers in a lesson's sentences: where they are and how to rewrite them.

A paragraph (or list, or table: the lines up to the next blank line) whose sentences quote
numbers a run printed is preceded by one marker that names them, in the order the paragraph
says them:

    <!-- values:
         ch07-summary test_bleu .3f = 0.967
         ch07-summary test_exact_match .1% = 78.1%
    -->
    Test BLEU 0.967 overall, and 78.1% of the sentences exact.

Each line is BLOCK KEY FORMAT = TEXT: the block whose summary.json holds KEY, how to format
it (.3f, .1%, .0f, s for a string, tex.2e for LaTeX scientific notation) and the text the
paragraph says now. The paragraph itself stays plain Markdown; tools/lessons/generate finds
each TEXT in it, in order, and rewrites the paragraph and the marker together.

A number that stands where no paragraph marker fits may still be marked inline:
<!-- value: BLOCK KEY FORMAT -->0.985<!-- /value -->.

Used by tools/lessons/generate (to rewrite) and tools/lessons/check_translations (to set the
numbers aside when it compares a translation with its English lesson).
"""
import re

OPEN = re.compile(r"^(?P<indent>\s*)<!-- values:\s*$")
ENTRY = re.compile(r"^\s*(?P<block>\S+) (?P<key>\S+) (?P<fmt>\S+) = (?P<text>.*?)\s*$")
CLOSE = re.compile(r"^\s*-->\s*$")
INLINE = re.compile(r"<!-- value: (?P<block>\S+) (?P<key>\S+) (?P<fmt>\S+) -->(?P<text>.*?)<!-- /value -->")


class MarkerError(Exception):
    """A marker that does not parse, or a paragraph that no longer says its numbers."""


class Marker:
    """One values marker: its lines, its entries and where the paragraph's numbers are."""

    def __init__(self, start, end, indent, entries, places):
        self.start, self.end = start, end   # the marker's first and last line (indices)
        self.indent = indent
        self.entries = entries              # [(block, key, fmt, text)]
        self.places = places                # [(line index, column, column end)], one per entry


def occurrence(line, text, column):
    """Where TEXT stands in LINE at or after COLUMN as a number of its own (not part of a longer
    number or word), or None."""
    pattern = r"(?<![\w.])" + re.escape(text) + r"(?!\w|\.\d)"
    found = re.compile(pattern).search(line, column)
    return (found.start(), found.end()) if found else None


def find(lines, where="lesson"):
    """Every values marker of LINES, each with its paragraph's numbers located.
    Raises MarkerError naming the line when a marker is malformed or its paragraph does not
    say one of its numbers (in order)."""
    markers, i = [], 0
    while i < len(lines):
        opened = OPEN.match(lines[i])
        if not opened:
            i += 1
            continue
        start, entries = i, []
        i += 1
        while i < len(lines) and not CLOSE.match(lines[i]):
            entry = ENTRY.match(lines[i])
            if not entry:
                raise MarkerError(f"{where}:{i + 1}: a values marker's line must be 'BLOCK KEY FORMAT = TEXT', "
                                  f"not '{lines[i].strip()}'")
            entries.append(entry.group("block", "key", "fmt", "text"))
            i += 1
        if i == len(lines):
            raise MarkerError(f"{where}:{start + 1}: the values marker has no closing '-->' line")
        end = i
        places, row, column = [], end + 1, 0
        for block, key, fmt, text in entries:
            while row < len(lines) and lines[row].strip():
                spot = occurrence(lines[row], text, column)
                if spot:
                    places.append((row, *spot))
                    column = spot[1]
                    break
                row, column = row + 1, 0
            else:
                raise MarkerError(f"{where}:{start + 1}: the paragraph after this values marker does not say "
                                  f"'{text}' ({block} {key}) after its earlier numbers: put the number back in "
                                  f"the text, or change the marker to match the paragraph")
        markers.append(Marker(start, end, opened.group("indent"), entries, places))
        i = end + 1
    return markers


def rewrite(lines, markers, new_text):
    """LINES with each marker's numbers replaced by new_text(block, key, fmt), or kept when it
    returns None; the marker's own lines say the new texts too."""
    lines = list(lines)
    for marker in markers:
        # Replace from the last place back, so that earlier columns stay valid.
        texts = [new_text(block, key, fmt) for block, key, fmt, _ in marker.entries]
        for (block, key, fmt, text), (row, begin, end), new in sorted(
                zip(marker.entries, marker.places, texts), key=lambda item: item[1], reverse=True):
            if new is not None:
                lines[row] = lines[row][:begin] + new + lines[row][end:]
        for offset, ((block, key, fmt, text), new) in enumerate(zip(marker.entries, texts)):
            lines[marker.start + 1 + offset] = f"{marker.indent}     {block} {key} {fmt} = {new if new is not None else text}"
    return lines


def set_aside(lines, where="lesson"):
    """LINES with every generated number (marked either way) and every marker entry's text
    replaced by a placeholder: what stays is the prose a translation must follow."""
    lines = [INLINE.sub("<!-- value -->", line) for line in lines]
    return rewrite(lines, find(lines, where), lambda block, key, fmt: "<value>")


def entries(lines, where="lesson"):
    """Every generated number of LINES in order, each as 'BLOCK KEY FORMAT = TEXT' (inline
    ones included): what a translation must say the same way."""
    found = []
    markers = iter(find(lines, where))
    marker = next(markers, None)
    for index, line in enumerate(lines):
        if marker is not None and index == marker.start:
            found += [f"{block} {key} {fmt} = {text}" for block, key, fmt, text in marker.entries]
            marker = next(markers, None)
        found += [f"{m.group('block')} {m.group('key')} {m.group('fmt')} = {m.group('text')}"
                  for m in INLINE.finditer(line)]
    return found
