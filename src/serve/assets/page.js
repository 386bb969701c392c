// The page of `cpsolve serve`: posts the model to the API, draws the board the server's
// pictures code drew, lists the explanation's steps and rewinds the board to any of them.
//
// Every step shown is one the server checked before printing it; the page only replays
// them. A step is an element with `data-step` (its number in the explanation, from 1);
// step 0 is the board with the givens only.
"use strict";

const $ = (id) => document.getElementById(id);

const state = {
  explanation: null, // the /api/explain JSON
  cells: [],         // per board cell (the picture's order): { rect, text, fill, key }
  keyed: new Map(),  // a cell's key (variable name or "r,c") -> its index in `cells`
  current: 0,        // the step shown
  hinted: -1,        // the step whose technique and area the hint has told
};

function timeoutQuery() {
  const seconds = parseFloat($("timeout").value);
  return Number.isFinite(seconds) && seconds > 0 ? `?timeout=${seconds}` : "";
}

async function post(path, model) {
  const response = await fetch(path + timeoutQuery(), { method: "POST", body: model });
  const text = await response.text();
  return { status: response.status, text };
}

function setStatus(message, isError) {
  $("status").textContent = message;
  $("status").className = isError ? "error" : "";
}

function errorText(json) {
  return (json.errors || []).map((e) => `line ${e.line}, column ${e.column}: ${e.message}`).join("\n");
}

async function drawPicture(model) {
  const { status, text } = await post("/api/picture", model);
  const board = $("board");
  board.textContent = "";
  state.cells = [];
  state.keyed = new Map();
  if (status !== 200) return false;
  const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  if (svg.nodeName !== "svg") return false;
  board.appendChild(document.importNode(svg, true));
  const rects = [...board.querySelectorAll("rect.cell")];
  const texts = [...board.querySelectorAll("text.value")];
  state.cells = rects.map((rect, k) => ({
    rect,
    text: texts.length === rects.length ? texts[k] : null,
    fill: rect.getAttribute("fill"),
  }));
  return true;
}

// Board cells keyed by what the explanation calls them: the variable names of the
// board's array (the picture's title), in the solution's order, which is the array's.
function keyCells(explanation) {
  state.keyed = new Map();
  const n = state.cells.length;
  if (n === 0) return;
  if (explanation.kind === "minesweeper") {
    const columns = new Set(state.cells.map((c) => c.rect.getAttribute("x"))).size;
    state.cells.forEach((c, k) => state.keyed.set(`${Math.floor(k / columns)},${k % columns}`, k));
    return;
  }
  const title = ($("board").querySelector("svg > title") || {}).textContent || "";
  const solution = (explanation.solutions || [])[0] || {};
  let names = Object.keys(solution).filter((name) => name.startsWith(title + "["));
  if (names.length !== n) {
    // No solution to read the names from: the givens and conclusions name the cells.
    names = [];
  }
  names.forEach((name, k) => state.keyed.set(name, k));
}

function showValues(values) {
  if (values.length === 1) return `= ${values[0]}`;
  return `∈ {${values.join(", ")}}`;
}

// What a step is called, where it looks, and what it concludes, as words.
function describe(step, kind) {
  if (kind === "minesweeper") {
    // A Minesweeper step has the shape of every other (its numbers are its constraints,
    // its cells are variables valued "safe" or "mine"), told in the game's words.
    const area = step.constraints.map((c) => c.name).join(", ") || "the whole board";
    const c = step.conclusion;
    const conclusion = c.contradiction ? "no layout of mines fits" : `${c.var} is ${c.values[0] === "mine" ? "a mine" : "safe"}`;
    const technique = c.contradiction ? "No layout" : c.values[0] === "mine" ? "Mine" : "Safe";
    return { technique, area, conclusion };
  }
  const area = step.constraints.map((c) => c.name.replace(/ \(line \d+\)$/, "")).join(", ");
  // The server names the technique (a player's pattern, or a generic name); an answer
  // without one (an older server) falls back on how the step reasons.
  const name = step.technique || step.reasoning;
  const technique = name.charAt(0).toUpperCase() + name.slice(1);
  let conclusion;
  if (step.conclusion.contradiction) {
    conclusion = "no solution";
  } else {
    conclusion = `${step.conclusion.var} ${showValues(step.conclusion.values)}`;
  }
  if (step.assume) conclusion = `if ${step.assume.var} = ${step.assume.value}: contradiction; so ${conclusion}`;
  return { technique, area, conclusion };
}

// The cells a step uses (its facts, its constraints' cells) and the one it decides.
function touched(step, kind) {
  const used = new Set();
  let decided = null;
  if (kind === "minesweeper") {
    step.constraints.forEach((c) => c.at && used.add(c.at.join(",")));
    (step.facts || []).forEach((f) => used.add(f.cell.join(",")));
    if (!step.conclusion.contradiction) decided = step.conclusion.cell.join(",");
  } else {
    (step.facts || []).forEach((f) => used.add(f.var));
    step.constraints.forEach((c) => (c.vars || []).forEach((v) => used.add(v)));
    if (!step.conclusion.contradiction) decided = step.conclusion.var;
  }
  return { used, decided };
}

// The board after `upto` steps: the givens and the values concluded so far.
function knownAfter(upto) {
  const known = new Map();
  const explanation = state.explanation;
  (explanation.given || []).forEach((g) => known.set(g.var, g.values));
  const steps = explanation.steps || [];
  for (let k = 0; k < upto && k < steps.length; k++) {
    const step = steps[k];
    if (step.conclusion.contradiction) continue;
    if (explanation.kind === "minesweeper") known.set(step.conclusion.cell.join(","), step.conclusion.values);
    else known.set(step.conclusion.var, step.conclusion.values);
  }
  return known;
}

function showStep(number) {
  const explanation = state.explanation;
  if (!explanation) return;
  const steps = explanation.steps || [];
  state.current = Math.max(0, Math.min(number, steps.length));
  const known = knownAfter(state.current);
  const kind = explanation.kind;
  const { used, decided } = state.current > 0 ? touched(steps[state.current - 1], kind) : { used: new Set(), decided: null };
  state.cells.forEach((cell) => {
    cell.rect.setAttribute("fill", cell.fill);
    cell.rect.classList.remove("used", "decided");
    if (cell.text && kind !== "minesweeper") cell.text.style.visibility = "hidden";
  });
  for (const [key, k] of state.keyed) {
    const cell = state.cells[k];
    const values = known.get(key);
    if (cell.text && kind !== "minesweeper" && values && values.length === 1) cell.text.style.visibility = "visible";
    if (key === decided) {
      cell.rect.setAttribute("fill", "#ffd54f");
      cell.rect.classList.add("decided");
    } else if (used.has(key)) {
      cell.rect.setAttribute("fill", "#cfe3ff");
      cell.rect.classList.add("used");
    }
  }
  document.querySelectorAll("#steps li").forEach((li) => {
    li.classList.toggle("current", Number(li.dataset.step) === state.current);
  });
  const current = document.querySelector(`#steps li[data-step="${state.current}"]`);
  if (current) current.scrollIntoView({ block: "nearest" });
  $("position").textContent = `step ${state.current} of ${steps.length}`;
  $("hint-text").hidden = true;
  state.hinted = -1;
}

// A hint: first the next step's technique and where to look, then (asked again) the step.
function hint() {
  const steps = (state.explanation && state.explanation.steps) || [];
  const next = state.current + 1;
  if (next > steps.length) {
    $("hint-text").textContent = "No step left.";
    $("hint-text").hidden = false;
    return;
  }
  if (state.hinted !== next) {
    const { technique, area } = describe(steps[next - 1], state.explanation.kind);
    $("hint-text").textContent = `Hint: ${technique}, in ${area}. (Hint again to see the step.)`;
    $("hint-text").hidden = false;
    state.hinted = next;
    return;
  }
  showStep(next);
}

function listSteps(explanation) {
  const list = $("steps");
  list.textContent = "";
  (explanation.steps || []).forEach((step, k) => {
    const { technique, area, conclusion } = describe(step, explanation.kind);
    const li = document.createElement("li");
    li.dataset.step = String(k + 1);
    const name = document.createElement("span");
    name.className = "technique";
    name.textContent = technique;
    const by = document.createElement("span");
    by.className = "by";
    by.textContent = area;
    li.append(name, `: ${conclusion}`, by);
    li.addEventListener("click", () => showStep(k + 1));
    list.appendChild(li);
  });
  const endings = {
    solved: "Solved.",
    "no solution": "No solution.",
    "free choice": `Nothing more follows: ${explanation.var} is a free choice (several solutions).`,
    "no solution by search": "No solution, shown by search only.",
    stopped: "Stopped: a limit struck.",
  };
  let ending = endings[explanation.ending] || (explanation.status === "limit" ? "Stopped: a limit struck." : "");
  if (explanation.reason) ending += ` ${explanation.reason}`;
  if (explanation.grade !== undefined) ending += ` Grade ${explanation.grade.toFixed(1)}.`;
  $("ending").textContent = ending;
}

async function explain() {
  const model = $("model").value;
  setStatus("explaining…");
  history.replaceState(null, "", `#puz=${encodeURIComponent(model)}&explain=1`);
  const [answer, drawn] = await Promise.all([post("/api/explain", model), drawPicture(model)]);
  let json;
  try {
    json = JSON.parse(answer.text);
  } catch (e) {
    setStatus(`no answer (${answer.status})`, true);
    return;
  }
  if (json.status === "error") {
    setStatus(errorText(json), true);
    return;
  }
  state.explanation = json;
  keyCells(json);
  listSteps(json);
  $("answer").hidden = true;
  $("step-controls").hidden = false;
  $("legend").hidden = !drawn;
  setStatus(`${(json.steps || []).length} steps; click one to see the board at that step.`);
  showStep(0);
}

async function solve() {
  const model = $("model").value;
  setStatus("solving…");
  history.replaceState(null, "", `#puz=${encodeURIComponent(model)}`);
  const [answer] = await Promise.all([post("/api/solve", model), drawPicture(model)]);
  state.explanation = null;
  $("steps").textContent = "";
  $("ending").textContent = "";
  $("step-controls").hidden = true;
  $("legend").hidden = true;
  let json;
  try {
    json = JSON.parse(answer.text);
  } catch (e) {
    setStatus(`no answer (${answer.status})`, true);
    return;
  }
  if (json.status === "error") {
    setStatus(errorText(json), true);
    return;
  }
  setStatus(`status: ${json.status}`);
  $("answer").textContent = JSON.stringify(json, null, 1);
  $("answer").hidden = false;
}

const SUDOKU = `var x[1..9, 1..9] in 1..9
forall i in 1..9: alldifferent([x[i, j] | j in 1..9])
forall j in 1..9: alldifferent([x[i, j] | i in 1..9])
forall b in 0..2, c in 0..2: alldifferent([x[3*b + i, 3*c + j] | i in 1..3, j in 1..3])
given x =
  5 3 . . 7 . . . .
  6 . . 1 9 5 . . .
  . 9 8 . . . . 6 .
  8 . . . 6 . . . 3
  4 . . 8 . 3 . . 1
  7 . . . 2 . . . 6
  . 6 . . . . 2 8 .
  . . . 4 1 9 . . 5
  . . . . 8 . . 7 9
`;

function start() {
  $("solve").addEventListener("click", solve);
  $("explain").addEventListener("click", explain);
  $("first").addEventListener("click", () => showStep(0));
  $("previous").addEventListener("click", () => showStep(state.current - 1));
  $("next").addEventListener("click", () => showStep(state.current + 1));
  $("hint").addEventListener("click", hint);
  const params = new URLSearchParams(location.hash.slice(1));
  $("model").value = params.has("puz") ? params.get("puz") : SUDOKU;
  if (params.get("explain") === "1") explain();
}

start();
