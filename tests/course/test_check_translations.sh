#!/usr/bin/env bash
# Tests of tools/lessons/check_translations on a tiny course of its own: one lesson and one
# hint file in English, their Chinese translations, committed in a temporary repository. The
# check must pass on the pair as written, fail (exit 1, one line naming the difference) for
# each way the two languages can drift apart, and pass again when only what the generator
# rewrites in both files has changed. Run by CI (.ci/run); a few seconds.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CHECK=$ROOT/tools/lessons/check_translations
scratch=$(mktemp -d "${TMPDIR:-/tmp}/check-translations-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
failures=0 passes=0

# expect NAME STATUS PATTERN... -- COMMAND... (tests/course/expect.sh)
source "$ROOT/tests/course/expect.sh"

# ---- the tiny course ---------------------------------------------------------------------
cd "$scratch" || exit 1
git init -q && git config user.name test && git config user.email test@localhost
mkdir -p chapters/00_tiny exercises/00_tiny
printf '# id\tfunction\tfile\ttitle\n00.1\tsoftmax\tsoftmax.cpp\tsoftmax of each row, equation (0.1)\n' \
    > chapters/00_tiny/exercises.tsv
LESSON=chapters/00_tiny/README.md
TWIN=chapters/00_tiny/README.zh.md
cat > $LESSON <<'EOF'
English | [中文](README.zh.md)

# Chapter 00 — a tiny lesson

The softmax of a row:

$$ \mathrm{softmax}(x)_i = \frac{e^{x_i}}{\sum_j e^{x_j}} \tag{0.1} $$

![The weights of one row](figures/weights.png)

Exercise 00.1 asks for it. The run below reaches an accuracy of
<!-- value: ch00-quick accuracy .3f -->0.985<!-- /value --> on the test set.

<!-- values:
     ch00-quick accuracy .3f = 0.985
-->
Said once more, in a plain sentence: 0.985 of the test rows.

```sh
./course run 00 --quick   # a quick run
```

<!-- generated: ch00-quick
     quick
     command: build/bin/ch00 --quick
     summary: out/summary.json
-->
```text
accuracy 0.985
```
<!-- end generated -->
EOF
cat > exercises/00_tiny/HINTS.md <<'EOF'
# Hints for chapter 00

## 00.1

1. Subtract the row's maximum first.
2. Divide by the sum.
EOF
git add -A && git commit -qm "the English lesson"
base=$(git rev-parse HEAD)

cat > $TWIN <<EOF
[English](README.md) | 中文
<!-- translated from: README.md @ $base -->

# 第 00 章——一个很小的课程

一行的 softmax：

\$\$ \mathrm{softmax}(x)_i = \frac{e^{x_i}}{\sum_j e^{x_j}} \tag{0.1} \$\$

![一行的权重](figures/weights.png)

练习 00.1 要求实现它。下面的运行在测试集上的准确率达到
<!-- value: ch00-quick accuracy .3f -->0.985<!-- /value -->。

<!-- values:
     ch00-quick accuracy .3f = 0.985
-->
用一个普通的句子再说一遍：测试集中 0.985 的行。

\`\`\`sh
./course run 00 --quick   # 快速运行
\`\`\`

<!-- generated: ch00-quick
     quick
     command: build/bin/ch00 --quick
     summary: out/summary.json
-->
\`\`\`text
accuracy 0.985
\`\`\`
<!-- end generated -->
EOF
cat > exercises/00_tiny/HINTS.zh.md <<EOF
<!-- translated from: HINTS.md @ $base -->
# 第 00 章的提示

## 00.1

1. 先减去这一行的最大值。
2. 再除以总和。
EOF
git add -A && git commit -qm "the Chinese lesson and hints"
translated=$(git rev-parse HEAD)

# restore: back to the committed pair before the next case
restore() { git reset -q --hard "$translated"; }
# edit FILE SED_SCRIPT: change one file in place, and make sure the edit took
edit() {
    local before
    before=$(cat "$1")
    sed -i "$2" "$1"
    [ "$(cat "$1")" != "$before" ] || { echo "FAIL the test's own edit '$2' changed nothing in $1"; failures=$((failures + 1)); }
}
run() { "$CHECK" --root "$scratch" "$@"; }

# ---- the cases ---------------------------------------------------------------------------
expect "the pair as written agrees" 0 '^2 translations agree$' -- run

edit $TWIN 's|-->0.985<!-- /value -->。|-->0.986<!-- /value -->。|'
expect "a number changed in one file's value span fails" 1 \
    "^chapters/00_tiny/README.zh.md: generated numbers differ at #1: .*0\.985.*0\.986" 'run tools/lessons/generate' -- run
restore

edit $TWIN 's|= 0.985$|= 0.986|; s|中 0.985 的行|中 0.986 的行|'
expect "a number changed in one file's values marker fails" 1 \
    "^chapters/00_tiny/README.zh.md: generated numbers differ at #2: .*accuracy .3f = 0\.985.*accuracy .3f = 0\.986" -- run
restore

edit $TWIN 's|= 0.985$|= 0.986|'
expect "a values marker its sentence contradicts fails, naming the line" 1 \
    "^chapters/00_tiny/README.zh.md: chapters/00_tiny/README.zh.md:[0-9]+: the paragraph after this values marker does not say '0\.986'" -- run
restore

edit $TWIN 's| \\tag{0.1}||'
expect "a missing equation tag fails" 1 "^chapters/00_tiny/README.zh.md: equation tags differ at #1: .* has '0\.1', the translation nothing" -- run
restore

edit $TWIN 's|(figures/weights.png)|(figures/weights_zh.png)|'
expect "a changed figure link fails" 1 "figure targets differ at #1: .*'figures/weights\.png'.*'figures/weights_zh\.png'" -- run
restore

edit $TWIN 's|./course run 00 --quick   #|./course run 0 --quick   #|'
expect "a changed command in a code block fails" 1 "code-block lines differ at #1: .*'\./course run 00 --quick'.*'\./course run 0 --quick'" -- run
restore

edit $TWIN 's|# 快速运行|# 快速运行（几秒钟）|'
expect "a translated comment in a code block is fine" 0 '^2 translations agree$' -- run
restore

edit $TWIN 's|^accuracy 0.985$|accuracy 0.986|'
expect "a generated body changed in one file fails" 1 "generated region #1 \(ch00-quick\) differs at its line 7: .*'accuracy 0\.985'.*'accuracy 0\.986'" -- run
restore

edit $TWIN 's|练习 00.1 要求|练习要求|'
expect "a dropped exercise id fails" 1 "exercise ids differ at #1: .*'00\.1', the translation nothing" -- run
restore

edit exercises/00_tiny/HINTS.zh.md '/^2\. /d'
expect "a hint missing from a section fails" 1 "exercises/00_tiny/HINTS.zh.md: hint sections differ at #1: .*'00\.1 2'.*'00\.1 1'" -- run
restore

edit $TWIN "2s|$base|$(printf '%040d' 7)|"
expect "an unknown 'translated from' commit fails" 1 "the 'translated from' commit 0{39}7 is not in this repository" -- run
restore

edit $TWIN '2d'
expect "a missing 'translated from' line fails" 1 "README.zh.md: line 2 is .*not '<!-- translated from: README.md @ COMMIT -->'" -- run
restore

edit $LESSON '1d'
expect "an English lesson without its switch line fails" 1 "chapters/00_tiny/README.md: line 1 is .*not the language switch" -- run
restore

edit $LESSON 's|The softmax of a row:|The softmax of one row:|'
git commit -qam "English prose edited after the translation"
expect "English prose changed after the recorded commit fails, saying what to do" 1 \
    "^chapters/00_tiny/README.md: changed since the translation \(${base:0:12}\).*was 'The softmax of a row:', now 'The softmax of one row:'.*git diff ${base:0:12} -- chapters/00_tiny/README.md.*set its 'translated from' commit to $(git rev-parse HEAD)" \
    -- run
restore

edit $LESSON 's|accuracy 0.985|accuracy 0.991|; s|-->0.985<!-- /value -->|-->0.991<!-- /value -->|'
edit $TWIN 's|accuracy 0.985|accuracy 0.991|; s|-->0.985<!-- /value -->|-->0.991<!-- /value -->|'
git commit -qam "the numbers regenerated"
expect "regenerated numbers in both files need no new translation" 0 '^2 translations agree$' -- run
restore

git rm -q exercises/00_tiny/HINTS.zh.md
expect "a missing translation is fine without --require-all" 0 '^1 translations agree$' -- run
expect "a missing translation fails with --require-all" 1 \
    "^exercises/00_tiny/HINTS.md: has no Chinese translation: write exercises/00_tiny/HINTS.zh.md" -- run --require-all
restore

# The generator rewrites the generated regions and values of both languages from one run.
mkdir -p tools/lessons build/bin && cp "$ROOT/tools/lessons/generate" "$ROOT/tools/lessons/value_markers.py" tools/lessons/
printf 'out/\nbuild/\n' > .gitignore
cat > build/bin/ch00 <<CHAPTER
#!/usr/bin/env bash
echo run >> "$scratch/build/runs.log"
mkdir -p out && echo '{"accuracy": 0.991}' > out/summary.json
echo "accuracy 0.991"
CHAPTER
chmod +x build/bin/ch00
expect "generate rewrites the English lesson and its translation" 0 'rewrote chapters/00_tiny/README\.md' \
    'rewrote chapters/00_tiny/README\.zh\.md' -- python3 tools/lessons/generate
expect "the chapter ran once for both languages" 0 '^1$' -- grep -c run build/runs.log
expect "both languages say the new numbers (a value span, a values marker and its sentence, the block)" 0 \
    '^README\.md:4$' '^README\.zh\.md:4$' \
    -- bash -c 'cd chapters/00_tiny && grep -c "0\.991" README.md README.zh.md'
expect "and still agree, without a new translation" 0 '^2 translations agree$' -- run
expect "--check-quick passes when both files say what the code prints" 0 '!no longer say' 'quick blocks match' -- python3 tools/lessons/generate --check-quick
edit $TWIN 's|-->0.991<!-- /value -->。|-->0.985<!-- /value -->。|'
expect "--check-quick fails when only the translation says an old number" 1 \
    '^-.*-->0\.985<!-- /value -->' 'no longer say what the code prints: chapters/00_tiny/README\.zh\.md\.' \
    -- python3 tools/lessons/generate --check-quick
restore
edit $LESSON 's|in a plain sentence: 0.985 of|in a plain sentence: most of|'
expect "generate stops when a sentence no longer says its marker's number" 2 \
    "chapters/00_tiny/README.md:[0-9]+: the paragraph after this values marker does not say '0\.985'" \
    -- python3 tools/lessons/generate
restore
rm -rf "$scratch/build" "$scratch/out" "$scratch/tools" "$scratch/.gitignore"

# The link check accepts the Chinese files: a link to a Chinese heading uses GitHub's anchor,
# which keeps the CJK characters and drops the full-width punctuation.
mkdir -p chapters/00_tiny/figures && printf 'png' > chapters/00_tiny/figures/weights.png
printf '\n## 练习：softmax（一行）\n\n见[上文](#练习softmax一行)。\n' >> $TWIN
git add -A && git commit -qm "a heading in Chinese and a link to it"
expect "check_links accepts a link to a Chinese heading" 0 'every link and cited path exists' -- bash "$ROOT/.ci/check_links" "$scratch"
edit $TWIN 's|(#练习softmax一行)|(#练习-softmax-一行)|'
expect "check_links rejects a wrong anchor of a Chinese heading" 1 "README.zh.md:[0-9]+: the link to '#练习-softmax-一行'.*no heading with the anchor" \
    -- bash "$ROOT/.ci/check_links" "$scratch"
restore

echo "$passes passed, $failures failed"
[ $failures -eq 0 ]
