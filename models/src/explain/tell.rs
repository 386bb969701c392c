//! From the engine's steps to sentences: each step's constraints by name, its facts and its
//! conclusion by variable name, as text for a person and as JSON for a program.

use cpsolve_engine::explain::{
    permutation_sum, Conclusion, Ending, ExplainConfig, ExplainError, PermutationSum, Reasoning, Values,
    MAX_FACT_VALUES,
};
use cpsolve_engine::Val;
use serde_json::{json, Map, Value};

use super::technique::{Candidates, House, HouseKind, Shape};
use super::Vocabulary;
use crate::problem::{Kind, Problem};

/// A variable's known values, by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedFact {
    /// The variable's name.
    pub var: String,
    /// Its values.
    pub values: Values,
    /// The names of its values, for an enum-valued variable (value `k` is the `k`-th).
    pub names: Option<std::sync::Arc<Vec<String>>>,
}

impl NamedFact {
    /// A value as the model names it: an enum's name, else the number.
    fn value_name(&self, v: Val) -> String {
        match &self.names {
            Some(names) if v >= 1 && (v as usize) <= names.len() => names[v as usize - 1].clone(),
            _ => v.to_string(),
        }
    }
}

/// One step, in the model's words.
#[derive(Debug, Clone)]
pub struct ToldStep {
    /// For a case split, the assumption `var = value` that leads to a contradiction.
    pub assumed: Option<(String, Val)>,
    /// A search with all the constraints, not a short deduction, shows the conclusion.
    pub by_search: bool,
    /// The constraints used, as indices into [`Vocabulary::constraints`].
    pub constraints: Vec<usize>,
    /// The facts used, as known before the step.
    pub facts: Vec<NamedFact>,
    /// What follows; `None` for a contradiction.
    pub conclusion: Option<NamedFact>,
    /// For a counting argument, each constraint's factor (in the order of `constraints`):
    /// their equations, so multiplied, add up to a false one.
    pub factors: Option<Vec<i64>>,
    /// For a counting argument, what the equations add up to: `0 = total`.
    pub total: i64,
    /// For a counting argument, per constraint (in the order of `constraints`): the
    /// values an all-different takes each once, whose sum is its equation.
    pub permutations: Vec<Option<PermutationSum>>,
    /// For a contradiction, the variable the constraints (from the other facts) leave only
    /// these values, none of them in its fact.
    pub clash: Option<NamedFact>,
    /// For a step told in small steps (a case split, or a direct step "if not, then"):
    /// the steps from the assumption to the contradiction (empty when told as one step).
    pub chain: Vec<ToldStep>,
    /// What players call it (`explain/technique.rs`), when its shape is one of their
    /// patterns; [`Told::technique`] gives the others a generic name.
    pub pattern: Option<&'static str>,
}

/// How the explanation ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToldEnding {
    /// Every variable is known: one solution.
    Solved,
    /// The last step is a contradiction.
    NoSolution,
    /// Compilation already proved there is none (e.g. more letters than digits).
    NoSolutionAtOnce(String),
    /// Nothing more follows and this variable can take more than one value in solutions.
    FreeChoice(String),
    /// There is no solution, but only a search shows it.
    NoSolutionBySearch,
    /// A limit (or the step budget) stopped the explanation.
    Stopped,
}

/// An explanation, in the model's words.
#[derive(Debug, Clone)]
pub struct Told {
    /// The steps, in order.
    pub steps: Vec<ToldStep>,
    /// Why it ends.
    pub ending: ToldEnding,
    /// The names it uses.
    pub vocabulary: Vocabulary,
    /// The variables fixed before the first step (the model's givens).
    pub givens: Vec<NamedFact>,
    /// How hard the explanation is, on Sukaku Explainer's scale for Sudoku ([`super::grade`]):
    /// `None` when it has no step or a limit stopped it (a grade of part of the way would
    /// pass for the whole).
    pub grade: Option<f64>,
    /// Each constraint's shown variables, by name (empty beyond 100 of them): the
    /// cells a step names when it names the constraint.
    pub scopes: Vec<Vec<String>>,
}

/// A constraint over more shown variables than this lists none in JSON (a sum over a
/// whole board would repeat it at every step that uses it).
const MAX_SCOPE_LISTED: usize = 100;

/// Explains a compiled model (which must not have been searched or propagated). `Err`
/// says why this model cannot be explained.
pub fn explain(mut problem: Problem) -> Result<Told, String> {
    let vocabulary = std::mem::take(&mut problem.vocabulary);
    if vocabulary.is_empty() {
        return Err(match problem.kind {
            // A generic model names what it has: an empty vocabulary is an empty model.
            Kind::Model if vocabulary.constraints.is_empty() => {
                "explain tells how constraints fix variables, and this model states no constraint".to_string()
            }
            Kind::Model => "explain tells how constraints fix variables, and this model shows no variable".to_string(),
            kind => format!("explain does not know the words of a {} model yet", kind.name()),
        });
    }
    if problem.search.objective.is_some() {
        return Err("explain tells why values follow from constraints; a model with an objective \
                    (`minimize`/`maximize`) asks for a best solution, which no deduction gives"
            .to_string());
    }
    if let Some(reason) = problem.unsat_reason.take() {
        return Ok(Told {
            steps: Vec::new(),
            ending: ToldEnding::NoSolutionAtOnce(reason),
            vocabulary,
            givens: Vec::new(),
            grade: None,
            scopes: Vec::new(),
        });
    }
    let givens = vocabulary
        .shown
        .iter()
        .filter(|(x, _)| problem.solver.is_fixed(*x))
        .map(|(x, name)| NamedFact {
            var: name.clone(),
            values: Values::single(problem.solver.min(*x)),
            names: vocabulary.value_names.get(x).cloned(),
        })
        .collect();
    let scopes = scopes(&problem, &vocabulary);
    let groups = vocabulary.constraints.iter().map(|c| c.props.clone()).collect();
    let shown = vocabulary.shown.iter().map(|(x, _)| *x).collect();
    let config = ExplainConfig::new(groups, shown);
    let name = |x: cpsolve_engine::VarId| {
        vocabulary.shown.iter().find(|(y, _)| *y == x).map_or_else(String::new, |(_, n)| n.clone())
    };
    let value_names = |x: cpsolve_engine::VarId| vocabulary.value_names.get(&x).cloned();
    let explanation = problem.solver.explain(&config).map_err(|e| match e {
        // The engine knows the variable by number only; the model knows its name.
        ExplainError::DomainTooLarge(x) => {
            format!("`{}` has more than {MAX_FACT_VALUES} values: too many to explain", name(x))
        }
        e => e.to_string(),
    })?;
    let grade = match explanation.ending {
        Ending::Stopped(_) => None,
        _ if explanation.steps.is_empty() => None,
        _ => Some(super::grade(explanation.difficulty().score)),
    };
    let namer = Namer::new(&problem, &vocabulary);
    let steps = explanation.steps.iter().map(|step| told_step(step, &name, &value_names, &namer)).collect();
    let ending = match explanation.ending {
        Ending::Solved => ToldEnding::Solved,
        Ending::NoSolution => ToldEnding::NoSolution,
        Ending::FreeChoice { var } => ToldEnding::FreeChoice(name(var)),
        Ending::NoSolutionBySearch => ToldEnding::NoSolutionBySearch,
        Ending::Stopped(_) => ToldEnding::Stopped,
    };
    Ok(Told { steps, ending, vocabulary, givens, grade, scopes })
}

/// The shown variables of each constraint's propagators, in the order they are shown.
fn scopes(problem: &Problem, vocabulary: &Vocabulary) -> Vec<Vec<String>> {
    let position: std::collections::HashMap<cpsolve_engine::VarId, usize> =
        vocabulary.shown.iter().enumerate().map(|(k, (x, _))| (*x, k)).collect();
    vocabulary
        .constraints
        .iter()
        .map(|constraint| {
            let mut shown: Vec<usize> = constraint
                .props
                .iter()
                .flat_map(|&p| problem.solver.propagator_vars(p))
                .filter_map(|x| position.get(&x).copied())
                .collect();
            shown.sort_unstable();
            shown.dedup();
            if shown.len() > MAX_SCOPE_LISTED {
                return Vec::new();
            }
            shown.into_iter().map(|k| vocabulary.shown[k].1.clone()).collect()
        })
        .collect()
}

/// Beyond this many root values a variable's candidates are not listed: no house of a
/// grid is that wide.
const MAX_CANDIDATES: u64 = 64;

/// What names a step's technique: the houses among the constraints, the root domains of
/// their variables, and each constraint's kind for the generic names.
struct Namer {
    /// Per constraint, the house it is, if it is a plain all-different.
    houses: Vec<Option<House>>,
    /// The root domains of the houses' variables (small ones only).
    roots: std::collections::HashMap<cpsolve_engine::VarId, Candidates>,
    /// Per constraint, the sum its all-different fixes, if it does (a counting step cites it).
    permutations: Vec<Option<PermutationSum>>,
}

impl Namer {
    fn new(problem: &Problem, vocabulary: &Vocabulary) -> Namer {
        let houses: Vec<Option<House>> = vocabulary
            .constraints
            .iter()
            .map(|c| {
                let vars = c.all_different.clone()?;
                Some(House { vars, kind: HouseKind::from_name(&c.name) })
            })
            .collect();
        let mut roots = std::collections::HashMap::new();
        for x in houses.iter().flatten().flat_map(|h| h.vars.iter().copied()) {
            if problem.solver.size(x) <= MAX_CANDIDATES {
                roots.entry(x).or_insert_with(|| problem.solver.values(x).collect());
            }
        }
        let permutations = vocabulary.constraints.iter().map(|c| permutation_sum(&problem.solver, &c.props)).collect();
        Namer { houses, roots, permutations }
    }

    fn permutation(&self, group: usize) -> Option<PermutationSum> {
        self.permutations.get(group).cloned().flatten()
    }

    /// A player's pattern, where the step cites houses only and narrows a variable.
    fn pattern(&self, step: &cpsolve_engine::explain::Step) -> Option<&'static str> {
        let houses: Option<Vec<&House>> = step.groups.iter().map(|&g| self.houses[g].as_ref()).collect();
        if let (Some(houses), Conclusion::Narrowed(concluded)) = (houses, &step.conclusion) {
            if !matches!(step.reasoning, Reasoning::Search | Reasoning::Sum { .. }) {
                let known = |x| match step.facts.iter().find(|f| f.var == x) {
                    Some(f) => Some(f.values.iter().collect()),
                    None => self.roots.get(&x).cloned(),
                };
                let after: Candidates = concluded.values.iter().collect();
                return Shape::new(&houses, &known)
                    .and_then(|shape| shape.classify(concluded.var, &after))
                    .map(|technique| technique.name());
            }
        }
        None
    }
}

/// A constraint's kind, for a generic step name: "all different", a global's name as the
/// model calls it ("circuit"), "arithmetic" for a relation, else "logic".
fn kind(constraint: &super::NamedConstraint, source: Option<&str>) -> String {
    if constraint.all_different.is_some() || constraint.name == "all different" {
        return "all different".to_string();
    }
    let stated = constraint.span.as_ref().zip(source).map(|(span, source)| locate(source, span).1);
    let text = stated.or_else(|| constraint.says.clone()).unwrap_or_default();
    let call: String = text.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    if call == "alldifferent" || call == "all_different" {
        return "all different".to_string();
    }
    let call: String = text.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    if !call.is_empty() && text[call.len()..].starts_with('(') {
        return call;
    }
    if text.is_empty() || text.contains(['=', '<', '>', '≤', '≥', '≠']) {
        "arithmetic".to_string()
    } else {
        "logic".to_string()
    }
}

/// One step in the model's words, `name` naming the variables.
fn told_step(
    step: &cpsolve_engine::explain::Step,
    name: &dyn Fn(cpsolve_engine::VarId) -> String,
    value_names: &dyn Fn(cpsolve_engine::VarId) -> Option<std::sync::Arc<Vec<String>>>,
    namer: &Namer,
) -> ToldStep {
    let fact = |f: &cpsolve_engine::explain::Fact| NamedFact {
        var: name(f.var),
        values: f.values.clone(),
        names: value_names(f.var),
    };
    ToldStep {
        pattern: namer.pattern(step),
        assumed: match step.reasoning {
            Reasoning::Direct | Reasoning::Search | Reasoning::Sum { .. } => None,
            Reasoning::CaseSplit { var, value } => Some((name(var), value)),
        },
        factors: match &step.reasoning {
            Reasoning::Sum { factors, .. } => Some(factors.clone()),
            _ => None,
        },
        clash: step.clash.as_ref().map(fact),
        total: match step.reasoning {
            Reasoning::Sum { total, .. } => total,
            _ => 0,
        },
        permutations: match step.reasoning {
            Reasoning::Sum { .. } => step.groups.iter().map(|&g| namer.permutation(g)).collect(),
            _ => Vec::new(),
        },
        by_search: step.reasoning == Reasoning::Search,
        constraints: step.groups.clone(),
        facts: step.facts.iter().map(fact).collect(),
        conclusion: match &step.conclusion {
            Conclusion::Narrowed(f) => Some(fact(f)),
            Conclusion::Contradiction => None,
        },
        chain: step.chain.iter().map(|s| told_step(s, name, value_names, namer)).collect(),
    }
}

/// A fact as JSON: `{"var", "values"}`, an enum's values by name.
fn fact_json(f: &NamedFact) -> Value {
    match &f.names {
        Some(_) => json!({ "var": f.var, "values": f.values.iter().map(|v| f.value_name(v)).collect::<Vec<_>>() }),
        None => json!({ "var": f.var, "values": f.values.to_vec() }),
    }
}

/// What an all-different says in a counting step: `16 different values in 1..16: each once,
/// so they sum to 136` (with offsets, the sum is of the variables themselves).
fn permutation_text(p: &PermutationSum) -> String {
    let values = match (p.values.len(), p.values.runs()) {
        (n, &[(lo, hi)]) if n > 3 => format!("{lo}..{hi}"),
        _ => format!("{{{}}}", p.values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")),
    };
    let n = p.terms.len();
    if p.terms.iter().any(|&(_, o)| o != 0) {
        format!("with their offsets, {n} different values in {values}: each once, so the variables sum to {}", p.sum)
    } else {
        format!("{n} different values in {values}: each once, so they sum to {}", p.sum)
    }
}

/// Beyond this many givens, the text says how many rather than listing them.
const MAX_GIVENS_LISTED: usize = 12;

/// `M = 1`, `S ∈ {8, 9}`, `E ∈ 2..7`.
fn show_fact(fact: &NamedFact) -> String {
    let v = &fact.values;
    let named = |x: Val| fact.value_name(x);
    match (v.len(), v.runs()) {
        (0, _) => format!("{} has no value left", fact.var),
        (1, &[(x, _)]) => format!("{} = {}", fact.var, named(x)),
        (n, &[(lo, hi)]) if n > 3 => format!("{} ∈ {}..{}", fact.var, named(lo), named(hi)),
        _ => format!("{} ∈ {{{}}}", fact.var, v.iter().map(named).collect::<Vec<_>>().join(", ")),
    }
}

/// The 1-based line of a byte offset, and the source text of a span on one line.
fn locate(source: &str, span: &std::ops::Range<usize>) -> (usize, String) {
    let start = span.start.min(source.len());
    let end = span.end.clamp(start, source.len());
    let line = source[..start].matches('\n').count() + 1;
    let text = source.get(start..end).unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ");
    (line, text)
}

impl Told {
    /// How a constraint reads: "column 3: E + O + c2 = N + 10·c3", "row 4 (line 7)", or
    /// for an unnamed one "line 7: x + y = 10 (i = 3)".
    fn constraint_text(&self, c: usize, source: Option<&str>) -> String {
        let named = &self.vocabulary.constraints[c];
        let located = named.span.as_ref().zip(source).map(|(span, source)| locate(source, span));
        let bindings = named.bindings.iter().map(|(n, v)| format!("{n} = {v}")).collect::<Vec<_>>().join(", ");
        let mut text = match (&named.says, &located) {
            (Some(says), _) => format!("{}: {says}", named.name),
            (None, Some((line, _))) if !named.name.is_empty() => format!("{} (line {line})", named.name),
            (None, Some((line, stated))) => {
                let with = if bindings.is_empty() { String::new() } else { format!(" ({bindings})") };
                format!("line {line}: {stated}{with}")
            }
            (None, None) => named.name.clone(),
        };
        if text.is_empty() {
            text = format!("constraint {}", c + 1);
        }
        text
    }

    /// What a step is called: the player's pattern it has the shape of, else a name from
    /// how it reasons and the kinds of the constraints it cites.
    pub fn technique(&self, step: &ToldStep, source: Option<&str>) -> String {
        if let Some(pattern) = step.pattern {
            return pattern.to_string();
        }
        match (&step.assumed, step.by_search, &step.factors) {
            (Some(_), _, _) => "case split".to_string(),
            (None, true, _) => "search".to_string(),
            (None, false, Some(_)) => "counting".to_string(),
            (None, false, None) => {
                let mut kinds: Vec<String> = Vec::new();
                for &c in &step.constraints {
                    let k = kind(&self.vocabulary.constraints[c], source);
                    if !kinds.contains(&k) {
                        kinds.push(k);
                    }
                }
                match kinds.split_last() {
                    None => "propagation".to_string(),
                    Some((last, [])) => format!("propagation of {last}"),
                    Some((last, rest)) => format!("propagation of {} and {last}", rest.join(", ")),
                }
            }
        }
    }

    /// The explanation as text: one numbered step after another, then how it ends.
    pub fn text(&self, source: Option<&str>) -> String {
        let mut out = String::new();
        match self.givens.len() {
            0 => {}
            n if n <= MAX_GIVENS_LISTED => {
                let givens = self.givens.iter().map(show_fact).collect::<Vec<_>>().join(", ");
                out.push_str(&format!("given: {givens}\n\n"));
            }
            n => out.push_str(&format!("given: {n} values (the model's givens)\n\n")),
        }
        let width = self.steps.len().to_string().len();
        for (k, step) in self.steps.iter().enumerate() {
            self.step_text(&mut out, &format!("{:>width$}.", k + 1), step, source, false);
        }
        let steps = match self.steps.len() {
            1 => "1 step".to_string(),
            n => format!("{n} steps"),
        };
        let splits = self.steps.iter().filter(|s| s.assumed.is_some() || s.by_search).count();
        let splits = match splits {
            0 => String::new(),
            1 => ", 1 of them a case split or search".to_string(),
            n => format!(", {n} of them case splits or searches"),
        };
        let ending = match &self.ending {
            ToldEnding::Solved => format!("Solved in {steps}{splits}."),
            ToldEnding::NoSolution => format!("No solution: shown in {steps}{splits}."),
            ToldEnding::NoSolutionAtOnce(reason) => format!("No solution: {reason}."),
            ToldEnding::FreeChoice(var) => format!(
                "After {steps}{splits}, nothing more follows: {var} can take more than one value,\n\
                 each in some solution. The model has several solutions; a choice is free from here."
            ),
            ToldEnding::NoSolutionBySearch => {
                format!("After {steps}{splits}, nothing more follows, yet a search finds no solution.")
            }
            ToldEnding::Stopped => format!("Stopped after {steps}{splits}: a limit struck."),
        };
        if !self.steps.is_empty() {
            out.push('\n');
        }
        out.push_str(&ending);
        out.push('\n');
        if let Some(grade) = self.grade {
            out.push_str(&format!("Grade: {grade:.1}\n"));
        }
        out
    }

    /// One step as text: `label` (its number) and what it concludes, then its facts and
    /// constraints indented under it; a step told in small steps lists them, numbered
    /// after it ("7.1."), in place of its facts and constraints. In a chain, a
    /// contradiction is the assumption's, not the model's.
    fn step_text(&self, out: &mut String, label: &str, step: &ToldStep, source: Option<&str>, in_chain: bool) {
        let no_solution = if in_chain { "contradiction" } else { "no solution" };
        let head = match (&step.assumed, &step.conclusion) {
            (None, Some(fact)) if step.by_search => format!(
                "{}   (by search: every other value contradicts the constraints below, \
                 but no short deduction shows it)",
                show_fact(fact)
            ),
            (None, Some(fact)) if !step.chain.is_empty() => format!("{}   (if not, then:)", show_fact(fact)),
            (None, Some(fact)) => show_fact(fact),
            (None, None) if step.factors.is_some() => format!(
                "{no_solution}: these equations cannot all hold: each times the factor shown, they add up to 0 = {}",
                step.total
            ),
            (None, None) => match &step.clash {
                Some(clash) => {
                    let known = step.facts.iter().find(|f| f.var == clash.var).map(show_fact).unwrap_or_default();
                    let values: Vec<String> = clash.values.iter().map(|v| clash.value_name(v)).collect();
                    let allowed = match values.as_slice() {
                        [] => "no value".to_string(),
                        [one] => format!("only {one}"),
                        [rest @ .., last] => format!("only {} or {last}", rest.join(", ")),
                    };
                    format!("{no_solution}: {known}, yet these allow it {allowed}")
                }
                None if step.constraints.len() == 1 => format!("{no_solution}: this cannot hold"),
                None if in_chain => format!("{no_solution}: these cannot all hold"),
                None => format!("{no_solution}: these contradict each other"),
            },
            (Some((var, value)), Some(fact)) if !step.chain.is_empty() => {
                format!("{var} ≠ {value}, so {}   (case split: if {var} = {value}, then:)", show_fact(fact))
            }
            (Some((var, value)), Some(fact)) => {
                format!(
                    "{var} ≠ {value}, so {}   (case split: if {var} = {value}, these contradict each other)",
                    show_fact(fact)
                )
            }
            (Some((var, value)), None) => format!("{no_solution} (case split on {var} = {value})"),
        };
        // A player's pattern is named; a generic name would only repeat what the head and
        // the constraints below it say (JSON gives every step its technique).
        let head = match (step.pattern, head.split_once("   (")) {
            (None, _) => head,
            (Some(pattern), Some((what, how))) => format!("{what}   ({pattern}; {how}"),
            (Some(pattern), None) => format!("{head}   ({pattern})"),
        };
        out.push_str(&format!("{label} {head}\n"));
        let pad = " ".repeat(label.chars().count() + 1);
        if !step.chain.is_empty() {
            let label = label.trim_start().trim_end_matches('.');
            for (k, link) in step.chain.iter().enumerate() {
                self.step_text(out, &format!("{pad}{label}.{}.", k + 1), link, source, true);
            }
            return;
        }
        if !step.facts.is_empty() {
            let facts = step.facts.iter().map(show_fact).collect::<Vec<_>>().join(", ");
            out.push_str(&format!("{pad}from {facts}\n"));
        }
        for (i, &c) in step.constraints.iter().enumerate() {
            let by = if i == 0 { "by  " } else { "and " };
            let mut factor = match step.factors.as_ref().map(|f| f[i]) {
                Some(f) => format!("   × {f}"),
                None => String::new(),
            };
            if let Some(Some(p)) = step.permutations.get(i) {
                factor.push_str(&format!("   ({})", permutation_text(p)));
            }
            out.push_str(&format!("{pad}{by}{}{factor}\n", self.constraint_text(c, source)));
        }
    }

    /// The explanation as JSON: `{"steps": [...], "ending": ...}` (the caller adds the file,
    /// kind and solutions).
    pub fn json(&self, source: Option<&str>) -> Map<String, Value> {
        let steps: Vec<Value> =
            self.steps.iter().enumerate().map(|(k, step)| self.step_json(k + 1, step, source)).collect();
        let ending = match &self.ending {
            ToldEnding::Solved => json!({ "ending": "solved" }),
            ToldEnding::NoSolution => json!({ "ending": "no solution" }),
            ToldEnding::NoSolutionAtOnce(reason) => json!({ "ending": "no solution", "reason": reason }),
            ToldEnding::FreeChoice(var) => json!({ "ending": "free choice", "var": var }),
            ToldEnding::NoSolutionBySearch => json!({ "ending": "no solution by search" }),
            ToldEnding::Stopped => json!({ "ending": "stopped" }),
        };
        let mut object = Map::new();
        object.insert("given".into(), Value::from(self.givens.iter().map(fact_json).collect::<Vec<_>>()));
        object.insert("steps".into(), Value::from(steps));
        if let Value::Object(ending) = ending {
            object.extend(ending);
        }
        if let Some(grade) = self.grade {
            object.insert("grade".into(), json!(grade));
        }
        object
    }

    /// One step as JSON; a step told in small steps has them under `"chain"`.
    fn step_json(&self, number: usize, step: &ToldStep, source: Option<&str>) -> Value {
        let mut object = Map::new();
        object.insert("step".into(), json!(number));
        let reasoning = match (&step.assumed, step.by_search) {
            (Some(_), _) => "case split",
            (None, true) => "search",
            (None, false) if step.factors.is_some() => "sum",
            (None, false) => "direct",
        };
        object.insert("reasoning".into(), json!(reasoning));
        object.insert("technique".into(), json!(self.technique(step, source)));
        if let Some((var, value)) = &step.assumed {
            object.insert("assume".into(), json!({ "var": var, "value": value }));
        }
        let constraints: Vec<Value> = step
            .constraints
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let mut constraint = self.constraint_json(c, source);
                if let (Some(factors), Value::Object(object)) = (&step.factors, &mut constraint) {
                    object.insert("factor".into(), json!(factors[i]));
                    if let Some(Some(p)) = step.permutations.get(i) {
                        object.insert("permutation".into(), json!({ "values": p.values.to_vec(), "sum": p.sum }));
                    }
                }
                constraint
            })
            .collect();
        object.insert("constraints".into(), Value::from(constraints));
        if step.factors.is_some() {
            object.insert("total".into(), json!(step.total));
        }
        object.insert("facts".into(), Value::from(step.facts.iter().map(fact_json).collect::<Vec<_>>()));
        let conclusion = match (&step.conclusion, &step.clash) {
            (Some(f), _) => fact_json(f),
            (None, Some(clash)) => json!({ "contradiction": true, "clash": fact_json(clash) }),
            (None, None) => json!({ "contradiction": true }),
        };
        object.insert("conclusion".into(), conclusion);
        if !step.chain.is_empty() {
            let chain: Vec<Value> =
                step.chain.iter().enumerate().map(|(k, link)| self.step_json(k + 1, link, source)).collect();
            object.insert("chain".into(), Value::from(chain));
        }
        Value::Object(object)
    }

    fn constraint_json(&self, c: usize, source: Option<&str>) -> Value {
        let named = &self.vocabulary.constraints[c];
        let mut object = Map::new();
        object.insert("name".into(), json!(self.constraint_text(c, source)));
        if let Some((line, text)) = named.span.as_ref().zip(source).map(|(span, source)| locate(source, span)) {
            object.insert("line".into(), json!(line));
            object.insert("text".into(), json!(text));
        }
        if !named.bindings.is_empty() {
            let bindings: Map<String, Value> = named.bindings.iter().map(|(n, v)| (n.clone(), json!(v))).collect();
            object.insert("bindings".into(), Value::Object(bindings));
        }
        if let Some(vars) = self.scopes.get(c).filter(|vars| !vars.is_empty()) {
            object.insert("vars".into(), json!(vars));
        }
        Value::Object(object)
    }
}
