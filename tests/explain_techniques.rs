//! Explanation steps named as players name them (issue 51): for each technique, a Sudoku of
//! Sukaku Explainer's rated collection (`bench/grade/`) or of `bench/explain/sudoku/` whose
//! explanation has a step so named, and a check, written here from the techniques'
//! definitions and by brute force over every choice of houses, cells and values, that the
//! named pattern is really in the step: in its cited houses, on the candidates its facts
//! give (a cell without a fact: its given, or 1..9; less the values of cells fixed in a
//! house they share), and it yields the step's conclusion. The same check rejects a wrong
//! name, and the right name once a house the pattern needs is taken out of the step.

mod common;

use std::collections::{BTreeSet, HashMap};

use common::cpsolve;
use serde_json::Value;

/// A Sudoku model of an 81-digit puzzle (0 for an empty cell).
fn sudoku(digits: &str) -> String {
    let mut model = String::from(
        "var x[1..9, 1..9] in 1..9\n\
         forall i in 1..9: alldifferent([x[i, j] | j in 1..9])\n\
         forall j in 1..9: alldifferent([x[i, j] | i in 1..9])\n\
         forall b in 0..2, c in 0..2: alldifferent([x[3*b + i, 3*c + j] | i in 1..3, j in 1..3])\n\
         given x =\n",
    );
    for row in digits.as_bytes().chunks(9) {
        let cells: Vec<String> =
            row.iter().map(|&d| if d == b'0' { ".".to_string() } else { (d as char).to_string() }).collect();
        model.push_str(&format!("  {}\n", cells.join(" ")));
    }
    model
}

fn explain(model: &str) -> Value {
    let run = cpsolve(&["explain", "--format", "json", "-"], Some(model));
    assert_eq!(run.code, 0, "{}", run.stderr);
    serde_json::from_str(&run.stdout).expect("JSON")
}

/// Every step, the links of chains too.
fn all_steps(steps: &[Value], out: &mut Vec<Value>) {
    for step in steps {
        out.push(step.clone());
        if let Some(chain) = step["chain"].as_array() {
            all_steps(chain, out);
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Row,
    Column,
    Box,
}

type Set = BTreeSet<i64>;

/// A step as a player sees it: its houses, its cells' candidates, its conclusion.
#[derive(Clone, Debug)]
struct View {
    houses: Vec<(Kind, Vec<String>)>,
    /// Candidates as the facts and givens state them.
    stated: HashMap<String, Set>,
    /// Less the values of fixed cells in a shared cited house.
    marks: HashMap<String, Set>,
    var: String,
    after: Set,
}

fn values(v: &Value) -> Set {
    v.as_array().expect("values").iter().map(|x| x.as_i64().expect("a value")).collect()
}

impl View {
    fn new(step: &Value, given: &HashMap<String, Set>) -> Option<View> {
        let houses: Vec<(Kind, Vec<String>)> = step["constraints"]
            .as_array()?
            .iter()
            .map(|c| {
                let name = c["name"].as_str().expect("a name");
                let kind = match name.split(' ').next() {
                    Some("row") => Kind::Row,
                    Some("column") => Kind::Column,
                    _ => Kind::Box,
                };
                let vars =
                    c["vars"].as_array().expect("vars").iter().map(|v| v.as_str().unwrap().to_string()).collect();
                (kind, vars)
            })
            .collect();
        let facts: HashMap<String, Set> = step["facts"]
            .as_array()?
            .iter()
            .map(|f| (f["var"].as_str().unwrap().to_string(), values(&f["values"])))
            .collect();
        let mut stated = HashMap::new();
        for cell in houses.iter().flat_map(|h| h.1.iter()) {
            let known = facts.get(cell).or(given.get(cell)).cloned().unwrap_or_else(|| (1..=9).collect());
            stated.insert(cell.clone(), known);
        }
        let mut marks = stated.clone();
        for (cell, known) in &stated {
            if known.len() == 1 {
                continue;
            }
            for (_, vars) in houses.iter().filter(|h| h.1.contains(cell)) {
                for other in vars.iter().filter(|o| *o != cell && stated[*o].len() == 1) {
                    let v = *stated[other].iter().next().unwrap();
                    marks.get_mut(cell).unwrap().remove(&v);
                }
            }
        }
        let var = step["conclusion"]["var"].as_str()?.to_string();
        Some(View { houses, stated, marks, var, after: values(&step["conclusion"]["values"]) })
    }

    fn before(&self) -> &Set {
        &self.marks[&self.var]
    }

    fn removed(&self) -> Set {
        self.before().difference(&self.after).copied().collect()
    }

    fn places(&self, house: &[String], v: i64) -> Vec<String> {
        house.iter().filter(|c| self.marks[*c].contains(&v)).cloned().collect()
    }

    fn sees(&self, a: &str, b: &str) -> bool {
        a != b && self.houses.iter().any(|h| h.1.iter().any(|c| c == a) && h.1.iter().any(|c| c == b))
    }

    fn holding(&self) -> Vec<&(Kind, Vec<String>)> {
        self.houses.iter().filter(|h| h.1.contains(&self.var)).collect()
    }

    /// Whether the step has the shape of the technique `name`.
    fn holds(&self, name: &str) -> bool {
        let single_after = self.after.len() == 1;
        let removed = self.removed();
        let one = if removed.len() == 1 { removed.iter().next().copied() } else { None };
        let leaves = |kept: &Set| self.before().intersection(kept).all(|v| self.after.contains(v));
        match name {
            "naked single" => single_after && self.before().is_subset(&self.after),
            "full house" => {
                single_after
                    && self.houses.len() == 1
                    && self.before().is_subset(&self.after)
                    && self.houses[0].1.iter().all(|c| *c == self.var || self.stated[c].len() == 1)
            }
            "elimination" => !single_after && self.before().is_subset(&self.after),
            "hidden single" => {
                let v = *self.after.iter().next().unwrap_or(&0);
                single_after
                    && self.before().contains(&v)
                    && self.holding().iter().any(|h| self.places(&h.1, v) == vec![self.var.clone()])
            }
            "pointing" | "box-line reduction" => {
                let Some(v) = one else { return false };
                let (from_box, to_box) = (name == "pointing", name != "pointing");
                self.houses.iter().any(|(a_kind, a)| {
                    (*a_kind == Kind::Box) == from_box && !a.contains(&self.var) && {
                        let places = self.places(a, v);
                        places.len() >= 2
                            && self.holding().iter().any(|(b_kind, b)| {
                                (*b_kind == Kind::Box) == to_box && places.iter().all(|p| b.contains(p))
                            })
                    }
                })
            }
            "naked pair" | "naked triple" | "naked quad" => {
                let n = size(name);
                self.holding().iter().any(|(_, h)| {
                    let open: Vec<&String> =
                        h.iter().filter(|c| **c != self.var && self.marks[*c].len() >= 2).collect();
                    subsets(open.len(), n).iter().any(|pick| {
                        let union: Set = pick.iter().flat_map(|&i| self.marks[open[i]].iter().copied()).collect();
                        union.len() == n && leaves(&self.before().difference(&union).copied().collect())
                    })
                })
            }
            "hidden pair" | "hidden triple" | "hidden quad" => {
                let n = size(name);
                let digits: Vec<i64> = (1..=9).collect();
                self.holding().iter().any(|(_, h)| {
                    subsets(9, n).iter().any(|pick| {
                        let chosen: Set = pick.iter().map(|&i| digits[i]).collect();
                        let placed = h.iter().any(|c| self.stated[c].len() == 1 && chosen.is_superset(&self.stated[c]));
                        let cells: BTreeSet<&String> =
                            h.iter().filter(|c| self.marks[*c].iter().any(|v| chosen.contains(v))).collect();
                        !placed && cells.len() == n && cells.contains(&self.var) && leaves(&chosen)
                    })
                })
            }
            "X-wing" | "swordfish" | "jellyfish" => {
                let Some(v) = one else { return false };
                let n = size(name);
                [(Kind::Row, Kind::Column), (Kind::Column, Kind::Row)].iter().any(|&(base_kind, cover_kind)| {
                    let bases: Vec<&Vec<String>> = self
                        .houses
                        .iter()
                        .filter(|(k, h)| *k == base_kind && !h.contains(&self.var) && self.places(h, v).len() >= 2)
                        .map(|(_, h)| h)
                        .collect();
                    let covers: Vec<&Vec<String>> =
                        self.houses.iter().filter(|(k, _)| *k == cover_kind).map(|(_, h)| h).collect();
                    subsets(bases.len(), n).iter().any(|b| {
                        subsets(covers.len(), n).iter().any(|c| {
                            c.iter().any(|&i| covers[i].contains(&self.var))
                                && b.iter()
                                    .flat_map(|&i| self.places(bases[i], v))
                                    .all(|p| c.iter().any(|&i| covers[i].contains(&p)))
                        })
                    })
                })
            }
            "XY-wing" => {
                let Some(c) = one else { return false };
                let pairs: Vec<&String> = self.marks.iter().filter(|(_, m)| m.len() == 2).map(|(k, _)| k).collect();
                pairs.iter().any(|p| {
                    let pivot = &self.marks[*p];
                    *p != &self.var
                        && !pivot.contains(&c)
                        && pairs.iter().any(|q1| {
                            pairs.iter().any(|q2| {
                                let (a, b) = (pivot.iter().next().unwrap(), pivot.iter().nth(1).unwrap());
                                self.marks[*q1] == [*a, c].into_iter().collect::<Set>()
                                    && self.marks[*q2] == [*b, c].into_iter().collect::<Set>()
                                    && self.sees(p, q1)
                                    && self.sees(p, q2)
                                    && self.sees(&self.var, q1)
                                    && self.sees(&self.var, q2)
                            })
                        })
                })
            }
            _ => false,
        }
    }
}

fn size(name: &str) -> usize {
    match name.split(' ').next_back() {
        Some("pair") => 2,
        Some("triple") => 3,
        _ if name == "X-wing" => 2,
        _ if name == "swordfish" => 3,
        _ => 4,
    }
}

/// Every `n`-element subset of `0..len`.
fn subsets(len: usize, n: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for mask in 0u32..(1 << len) {
        if mask.count_ones() as usize == n {
            out.push((0..len).filter(|i| mask & (1 << i) != 0).collect());
        }
    }
    out
}

/// The names of players' patterns (the others are generic: "propagation of ...", "case split").
const PATTERNS: [&str; 17] = [
    "full house",
    "naked single",
    "hidden single",
    "elimination",
    "pointing",
    "box-line reduction",
    "naked pair",
    "naked triple",
    "naked quad",
    "hidden pair",
    "hidden triple",
    "hidden quad",
    "X-wing",
    "swordfish",
    "jellyfish",
    "XY-wing",
    "locked candidates",
];

/// One puzzle per technique: the Sudoku, its rating by Sukaku Explainer where it has one,
/// and where it comes from.
const EXAMPLES: [(&str, &str); 14] = [
    // bench/explain/sudoku/01-wikipedia.puz
    ("naked single", "530070000600195000098000060800060003400803001700020006060000280000419005000080079"),
    ("full house", "530070000600195000098000060800060003400803001700020006060000280000419005000080079"),
    // bench/explain/sudoku/03-euler-02.puz
    ("hidden single", "200080300060070084030500209000105408000000000402706000301007040720040060004010003"),
    // bench/grade/tuning.txt, rated 2.5, 2.6, 2.8
    ("elimination", "060000040908000703000706000000000000006040500840000021100504007080010090702080604"),
    ("pointing", "060000450500000007307204600005040900000102000004060300001609504400000009026000080"),
    ("box-line reduction", "062000004005020000100037060800000700050706030004000001010350008000060900900000510"),
    ("naked pair", "060000040908000703000706000000000000006040500840000021100504007080010090702080604"),
    ("naked triple", "060000040908000703000706000000000000006040500840000021100504007080010090702080604"),
    // Arto Inkala's, tests/corpus/model/sudoku-hardest.puz
    ("hidden pair", "800000000003600000070090200050007000000045700000100030001000068008500010090000400"),
    // bench/grade/heldout.txt, rated 3.2: an X-wing is the hardest technique it needs
    ("X-wing", "010030060000000000500402001090000050007658900800000007005804700120000043000060000"),
    // bench/grade/tuning.txt, rated 4.3, 4.0, 2.5
    ("hidden triple", "900300057000060002010500003050000000200871005000000060100009020400050000360008001"),
    ("XY-wing", "080000090009508200700943001003070900070000020400030007000706000090000080030020050"),
    ("naked quad", "452900010000003540000070000043000900076809430005000170000030000084600000060001857"),
    // bench/grade/tuning.txt, rated 5.7
    ("swordfish", "004090200000000000100635008010080060208000107600000002006752900700000004009804600"),
];

fn givens(explanation: &Value) -> HashMap<String, Set> {
    explanation["given"]
        .as_array()
        .expect("givens")
        .iter()
        .map(|g| (g["var"].as_str().unwrap().to_string(), values(&g["values"])))
        .collect()
}

#[test]
fn every_technique_is_named_on_a_puzzle_and_its_pattern_is_in_the_step() {
    let mut explained: HashMap<&str, Value> = HashMap::new();
    for (technique, digits) in EXAMPLES {
        let explanation = explained.entry(digits).or_insert_with(|| explain(&sudoku(digits)));
        assert_eq!(explanation["ending"], "solved");
        let given = givens(explanation);
        let mut steps = Vec::new();
        all_steps(explanation["steps"].as_array().expect("steps"), &mut steps);
        let named: Vec<&Value> = steps.iter().filter(|s| s["technique"] == technique).collect();
        assert!(!named.is_empty(), "{technique}: no step of {digits} is named so");
        // Every step with a player's name, whatever it is, has that pattern.
        for step in &steps {
            let name = step["technique"].as_str().expect("every step is named");
            if PATTERNS.contains(&name) {
                let view = View::new(step, &given).expect("a named step narrows a cell by houses");
                assert!(view.holds(name), "{digits}: `{name}` does not hold in {step}");
            }
        }
    }
}

#[test]
fn a_wrong_name_is_caught() {
    let explanation = explain(&sudoku(EXAMPLES.iter().find(|e| e.0 == "X-wing").unwrap().1));
    let given = givens(&explanation);
    let mut steps = Vec::new();
    all_steps(explanation["steps"].as_array().unwrap(), &mut steps);
    let step = steps.iter().find(|s| s["technique"] == "X-wing").expect("an X-wing");
    let view = View::new(step, &given).unwrap();
    assert!(view.holds("X-wing"));
    // Not a bigger fish, no single, no pair: each of those names would be wrong here.
    for wrong in ["swordfish", "naked single", "hidden single", "naked pair", "XY-wing", "pointing"] {
        assert!(!view.holds(wrong), "{wrong} accepted for {step}");
    }
    // Without one of its lines, the step is no X-wing.
    for k in 0..view.houses.len() {
        let mut fewer = view.clone();
        let (kind, house) = fewer.houses.remove(k);
        let line_of_the_wing = kind != Kind::Box && house.iter().any(|c| view.marks[c].len() > 1);
        if line_of_the_wing && !fewer.holds("X-wing") {
            return;
        }
    }
    panic!("no line of {step} is needed for its X-wing");
}

#[test]
fn a_hidden_single_is_not_called_naked() {
    let explanation = explain(&sudoku(EXAMPLES.iter().find(|e| e.0 == "hidden single").unwrap().1));
    let given = givens(&explanation);
    let step = &explanation["steps"][5];
    assert_eq!(step["technique"], "hidden single");
    let view = View::new(step, &given).unwrap();
    assert!(view.holds("hidden single") && !view.holds("naked single") && !view.holds("full house"));
}
