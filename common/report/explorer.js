// The report page's script (common/report.cpp embeds it in every report.html). It reads the
// run's data from the page (<script id="report-data">), draws the summary table and the
// attention explorer, and, when the address ends in #selftest, checks the explorer against
// that data and writes a verdict into the page (tests/report/run_browser_test reads it).
// Plain ES2017, no libraries: the page must open from the file system with no network.
"use strict";

const data = JSON.parse(document.getElementById("report-data").textContent);
// The reference run's summary (a --mine run's page only); a damaged file is left out.
const referenceRun = (() => {
  const text = document.getElementById("reference-data").textContent.trim();
  try { return text ? JSON.parse(text) : null; } catch (error) { return null; }
})();
const el = (tag, attributes = {}, text = "") => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== "") node.textContent = text;
  return node;
};
// A number as the table prints it: 4 significant digits, no trailing zeros (0.1003, 1e-15).
const shown = (x) => (x === null || x === undefined ? "—" : String(Number(Number(x).toPrecision(4))));
// A range's end as the terminal prints it: 6 significant digits, so that close ends stay apart.
const shownEnd = (x) => String(Number(Number(x).toPrecision(6)));

// ---- The summary table: each metric beside its range; with a reference run, its value too.
function drawSummary() {
  const table = document.getElementById("metrics");
  const metrics = data.summary.metrics;
  const reference = referenceRun ? referenceRun.metrics : null;
  const head = el("tr");
  for (const name of ["result", "this run", "a correct implementation", ""].concat(reference ? ["reference run"] : []))
    head.appendChild(el("th", {scope: "col"}, name));
  table.appendChild(head);
  for (const [key, m] of Object.entries(metrics)) {
    const row = el("tr", {"data-key": key, class: m.in_range === false ? "out" : ""});
    row.appendChild(el("th", {scope: "row", title: key}, data.labels[key] || key));
    row.appendChild(el("td", {class: "value"}, shown(m.value)));
    const range = m.expected_min !== null ? shownEnd(m.expected_min) + " to " + shownEnd(m.expected_max)
                : m.timing ? "a timing: shown, not judged" : "no range for these settings";
    row.appendChild(el("td", {class: m.expected_min === null ? "" : "range"}, range));
    row.appendChild(el("td", {class: "mark"}, m.in_range === null ? "" : m.in_range ? "ok" : "OUT"));
    if (reference) row.appendChild(el("td", {class: "value"}, reference[key] ? shown(reference[key].value) : "—"));
    table.appendChild(row);
  }
  if (data.summary.reference_stand_ins)   // a --mine run: earlier exercises the learner has not written yet
    table.parentNode.insertBefore(el("p", {class: "note"}, "The reference code stood in for these exercises of " +
      "earlier chapters, still stubs in your code: " + data.summary.reference_stand_ins + "."), table);
  const settings = document.getElementById("settings");
  for (const [key, value] of Object.entries(data.summary))
    if (key !== "metrics" && key !== "chapter") settings.appendChild(el("span", {}, key + " " + value));
}

// ---- The attention explorer.
const records = data.attention;
const state = {example: null, kind: null, layer: null, head: null, query: -1};
const unique = (values) => values.filter((v, i) => values.indexOf(v) === i);
const threshold = () => Number(document.getElementById("threshold").value);
const current = () => records.find((r) => r.example === state.example && r.kind === state.kind &&
                                          r.layer === state.layer && r.head === state.head);

// The key tokens query i attends to strongly enough to be marked: weight >= threshold.
function attended(record, i, limit) {
  return record.weights[i].map((w, j) => (w >= limit ? j : -1)).filter((j) => j >= 0);
}

function fillSelect(id, values, chosen, name) {
  const select = document.getElementById(id);
  select.replaceChildren(...values.map((v) => el("option", {value: String(v)}, name(v))));
  select.value = String(chosen);
  select.parentElement.hidden = values.length < 2;
  return values.includes(chosen) ? chosen : values[0];
}

// Keeps the choice valid after one selector changed: each selector offers what exists for the
// choices before it (example, then kind, then layer, then head).
function syncSelectors() {
  state.example = fillSelect("example", unique(records.map((r) => r.example)), state.example, (v) => v);
  const forExample = records.filter((r) => r.example === state.example);
  state.kind = fillSelect("kind", unique(forExample.map((r) => r.kind)), state.kind, (v) => v);
  const forKind = forExample.filter((r) => r.kind === state.kind);
  state.layer = fillSelect("layer", unique(forKind.map((r) => r.layer)), state.layer, (v) => "layer " + v);
  const forLayer = forKind.filter((r) => r.layer === state.layer);
  state.head = fillSelect("head", unique(forLayer.map((r) => r.head)), state.head, (v) => "head " + v);
  for (const id of ["example", "kind", "layer", "head"]) document.getElementById(id).value = String(state[id]);
}

function token(text, role, index) {
  return el("button", {type: "button", class: "token " + role, "data-index": String(index)}, text);
}

function drawView() {
  syncSelectors();
  const record = current();
  document.getElementById("view-title").textContent = record.title;
  const example = document.getElementById("example-text");
  example.replaceChildren();
  for (const [name, words] of [[record.key_axis, record.keys.join(" ")], ["reference", record.reference],
                               [record.query_axis, record.queries.join(" ")]])
    if (words) example.appendChild(el("div", {}, name + ": " + words));
  const queries = document.getElementById("queries"), keys = document.getElementById("keys");
  document.getElementById("queries-label").textContent = record.query_axis + " (hover or focus a token)";
  document.getElementById("keys-label").textContent = record.key_axis;
  queries.replaceChildren(...record.queries.map((t, i) => token(t, "query", i)));
  keys.replaceChildren(...record.keys.map((t, j) => {
    const key = token(t, "key", j);
    key.tabIndex = -1;
    key.appendChild(el("span", {class: "weight"}));
    return key;
  }));
  queries.querySelectorAll(".query").forEach((node) => {
    const show = () => highlight(Number(node.dataset.index));
    node.addEventListener("pointerenter", show);
    node.addEventListener("focus", show);
  });
  drawThumbnails();
  highlight(state.query >= 0 && state.query < record.queries.length ? state.query : -1);
}

// Shades every key token by query i's weight on it, prints the weight, and marks the ones at
// or above the threshold.
function highlight(i) {
  state.query = i;
  const record = current(), limit = threshold();
  const marked = i >= 0 ? attended(record, i, limit) : [];
  document.querySelectorAll("#queries .query").forEach((node, q) => node.classList.toggle("active", q === i));
  document.querySelectorAll("#keys .key").forEach((node, j) => {
    const w = i >= 0 ? record.weights[i][j] : 0;
    node.style.setProperty("--w", String(w));
    node.classList.toggle("attended", marked.includes(j));
    node.querySelector(".weight").textContent = i >= 0 ? w.toFixed(2) : "";
  });
  document.getElementById("readout").textContent = i < 0 ? "" :
    record.queries[i] + " attends to " + (marked.map((j) => record.keys[j] + " " + record.weights[i][j].toFixed(2)).join(", ") || "nothing above the threshold");
}

// Every head of the current example, kind and layer as a small map; choosing one shows it.
function drawThumbnails() {
  const box = document.getElementById("thumbnails");
  const heads = records.filter((r) => r.example === state.example && r.kind === state.kind && r.layer === state.layer);
  box.hidden = heads.length < 2;
  if (box.hidden) { box.replaceChildren(); return; }
  box.replaceChildren(...heads.map((r) => {
    const peak = Math.max(...r.weights.flat(), 1e-12);
    const map = el("button", {type: "button", class: "thumbnail" + (r.head === state.head ? " current" : ""),
                              "data-head": String(r.head), "aria-label": "show head " + r.head});
    map.style.gridTemplateColumns = "repeat(" + r.keys.length + ", 1fr)";
    for (const row of r.weights)
      for (const w of row) map.appendChild(el("span", {style: "--w:" + (w / peak).toFixed(3)}));
    map.appendChild(el("span", {class: "caption"}, "head " + r.head));
    map.addEventListener("click", () => { state.head = r.head; drawView(); });
    return map;
  }));
}

function drawExplorer() {
  const section = document.getElementById("explorer");
  if (!records.length) { section.hidden = true; return; }
  for (const id of ["example", "kind", "layer", "head"])
    document.getElementById(id).addEventListener("change", (event) => {
      const value = event.target.value;
      state[id] = id === "layer" || id === "head" ? Number(value) : value;
      drawView();
    });
  document.getElementById("threshold").addEventListener("input", () => highlight(state.query));
  const first = records[0];
  // The first output token starts highlighted, so the page shows what it does at once.
  Object.assign(state, {example: first.example, kind: first.kind, layer: first.layer, head: first.head, query: 0});
  drawView();
}

// ---- The self-test (report.html#selftest): drives the explorer as a reader would and
// compares what it shows with the embedded data. Its rule (weight >= threshold, the weights
// of the chosen record's row i) is written out again here, apart from highlight().
function selfTest() {
  const problems = [];
  let checked = 0;
  const choose = (id, value) => {
    const select = document.getElementById(id);
    select.value = String(value);
    select.dispatchEvent(new Event("change"));
  };
  records.forEach((record, r) => {
    for (const id of ["example", "kind", "layer", "head"]) choose(id, record[id]);
    const where = "record " + r + " (" + record.kind + ", layer " + record.layer + ", head " + record.head + ")";
    const keys = [...document.querySelectorAll("#keys .key")];
    if (document.getElementById("view-title").textContent !== record.title ||
        keys.map((k) => k.firstChild.textContent).join("\u0001") !== record.keys.join("\u0001"))
      problems.push(where + ": the selectors did not bring up this record");
    const limit = Number(document.getElementById("threshold").value);
    document.querySelectorAll("#queries .query").forEach((query, i) => {
      if (i % 2) query.dispatchEvent(new PointerEvent("pointerenter"));
      else query.dispatchEvent(new FocusEvent("focus"));
      const expected = [], shownWrong = [];
      record.weights[i].forEach((w, j) => { if (w >= limit) expected.push(j); });
      const marked = keys.map((k, j) => (k.classList.contains("attended") ? j : -1)).filter((j) => j >= 0);
      keys.forEach((k, j) => {
        if (k.querySelector(".weight").textContent !== record.weights[i][j].toFixed(2)) shownWrong.push(j);
      });
      if (marked.join() !== expected.join())
        problems.push(where + ", query " + i + ": highlighted keys [" + marked + "], expected [" + expected + "]");
      if (shownWrong.length) problems.push(where + ", query " + i + ": wrong numbers shown at keys [" + shownWrong + "]");
      checked += 1;
    });
  });
  // The thumbnails choose a head too: the last one of the view brings up its record.
  const thumbnails = document.querySelectorAll("#thumbnails .thumbnail");
  if (thumbnails.length) {
    const last = thumbnails[thumbnails.length - 1];
    const head = Number(last.dataset.head);
    const wanted = records.find((r) => r.example === state.example && r.kind === state.kind &&
                                       r.layer === state.layer && r.head === head);
    last.click();
    if (document.getElementById("view-title").textContent !== wanted.title || document.getElementById("head").value !== String(head))
      problems.push("the thumbnail of head " + head + " did not bring up its record");
  }
  document.querySelectorAll("#metrics tr[data-key]").forEach((row) => {
    const m = data.summary.metrics[row.dataset.key];
    if (row.querySelector(".value").textContent !== shown(m.value)) problems.push("summary: " + row.dataset.key + " shows a different value");
    // A number never wraps ("2.776e-" over "17"): its cell is one line however narrow the page.
    row.querySelectorAll(".value, .range").forEach((cell) => {
      if (getComputedStyle(cell).whiteSpace !== "nowrap") problems.push("summary: " + row.dataset.key + "'s numbers may wrap");
    });
  });
  if (window.reportErrors.length) problems.push("script errors: " + window.reportErrors.join("; "));
  const verdict = el("pre", {id: "selftest-verdict"},
                     (problems.length ? "FAIL" : "PASS") + " " + records.length + " attention records, " + checked +
                     " query tokens checked\n" + problems.slice(0, 20).join("\n"));
  document.body.prepend(verdict);
}

drawSummary();
drawExplorer();
if (location.hash === "#selftest") selfTest();
