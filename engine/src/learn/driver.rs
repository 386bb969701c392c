//! What the search loop does for learning: start and end a history, charge changes to
//! their causes, turn a failure into a nogood, and post the nogoods learned.

use crate::ids::{PropId, VarId};
use crate::learn::activity::Activity;
use crate::learn::analyze::analyze;
use crate::learn::db::NogoodDb;
use crate::learn::explain::{naive, ExplainContext};
use crate::learn::history::{Cause, History};
use crate::learn::literal_activity::LiteralActivity;
use crate::learn::verify::check_reason;
use crate::literal::Literal;
use crate::search::{ActivityOver, ActivitySearch, SearchConfig};
use crate::solver::Solver;

/// How much older conflicts count against the newest one in the activities (MiniSat's
/// default).
const ACTIVITY_DECAY: f64 = 0.95;

/// Nogoods longer than this are not kept: each wakes on every change of its variables, and
/// a long one rarely prunes.
pub(crate) const MAX_NOGOOD_LEN: usize = 64;

/// The nogoods kept beyond the glue ones at the first reduction of the database, unless the
/// search says ([`crate::SearchConfig::learned_kept`]); each reduction raises it by
/// [`KEPT_GROWTH`], so that a long search keeps more.
const FIRST_KEPT: usize = 2000;
const KEPT_GROWTH: usize = 300;

/// Off the root, the database is pruned once it holds this many times what is kept: at a
/// restart it is pruned at twice, and a search that restarts seldom waits for one.
const IN_PLACE_FACTOR: usize = 4;

/// The learning state of one search.
#[derive(Debug, Default)]
pub(crate) struct Learner {
    /// Nogoods learned at a failure, with their literal block distances, posted once the
    /// search has backtracked.
    pending: Vec<(Vec<Literal>, u32)>,
    /// How many nogoods beyond the glue ones survive the next reduction.
    kept: usize,
    /// Every nogood learned by the last search, kept when it checks its work (tests).
    pub(crate) log: Vec<Vec<Literal>>,
    /// Check explanations and keep the log.
    pub(crate) verify: bool,
    /// The nogoods learned so far, and their watches.
    pub(crate) db: NogoodDb,
    /// Where the newest nogood asserts: the trail depth a backjump goes back to.
    pub(crate) assert_depth: Option<usize>,
    /// The newest conflict rests on facts of the whole search alone: nothing is left below
    /// the root.
    pub(crate) exhausted: bool,
    /// Every nogood learned, sorted, to tell one learned again.
    seen: rustc_hash::FxHashSet<Vec<Literal>>,
    /// The variables' activities, when decisions use them.
    activity: Option<Activity>,
    /// The literals' activities, when decisions by activity take the literal too.
    literal_activity: Option<LiteralActivity>,
    /// Which decisions use them.
    activity_search: ActivitySearch,
    /// Whether the current run (between restarts) decides by activity alone.
    activity_run: bool,
}

/// The propagator slot through which the queue runs the nogood database: it has no state
/// of its own (the database lives in the solver) and is never propagated directly.
#[derive(Debug)]
struct DatabaseSlot;

impl crate::propagator::Propagator for DatabaseSlot {
    fn name(&self) -> &'static str {
        "learned nogoods"
    }

    fn post(&mut self, _cx: &mut crate::propagator::PostContext<'_>) -> crate::outcome::PropResult {
        Ok(crate::outcome::PropStatus::Active)
    }

    fn propagate(&mut self, _cx: &mut crate::propagator::Context<'_>) -> crate::outcome::PropResult {
        unreachable!("the queue runs the nogood database itself")
    }

    /// The nogoods follow from the constraints: every solution satisfies them.
    fn is_satisfied(&self, _value: &dyn Fn(crate::ids::VarId) -> crate::domain::Val) -> bool {
        true
    }

    fn vars(&self) -> Vec<crate::ids::VarId> {
        Vec::new()
    }
}

impl Solver {
    /// Starts recording the branch's history; the search's root level is the next one.
    pub(crate) fn start_learning(&mut self, config: &SearchConfig) {
        let (verify, activity_search) = (config.check_solutions, config.activity);
        let root_level = self.store.trail.depth() as u32 + 1;
        self.store.history = Some(Box::new(History::new(&self.store.domains, root_level)));
        let activity = (activity_search != ActivitySearch::Off).then(|| Activity::new(self.num_vars(), ACTIVITY_DECAY));
        if let Some(history) = self.store.history.as_deref_mut() {
            history.track_undone = activity.is_some();
        }
        let activity_run = activity_search == ActivitySearch::Only;
        let kept = config.learned_kept.unwrap_or(FIRST_KEPT).max(1);
        let literal_activity = (activity.is_some() && config.activity_over == ActivityOver::Literals)
            .then(|| LiteralActivity::new(self.num_vars(), ACTIVITY_DECAY));
        self.learner =
            Learner { verify, activity, literal_activity, activity_search, activity_run, kept, ..Learner::default() };
        let slot = self.post(Box::new(DatabaseSlot));
        if let Some(slot) = slot {
            self.weights[slot.index()] = 0;
        }
        self.learner.db.slot = slot;
    }

    /// Stops recording; the log stays for [`Solver::learned_log`].
    pub(crate) fn stop_learning(&mut self) {
        // The database's visits and prunings are counted once, at the end, not at each of
        // its runs.
        self.stats.learning_work += std::mem::take(&mut self.learner.db.visits);
        self.stats.nogood_prunings += std::mem::take(&mut self.learner.db.prunings);
        self.store.history = None;
        self.learner.pending.clear();
    }

    pub(crate) fn is_learning(&self) -> bool {
        self.store.history.is_some()
    }

    /// Charges the next changes to `cause`.
    #[inline]
    pub(crate) fn set_cause(&mut self, cause: Cause) {
        if let Some(history) = self.store.history.as_deref_mut() {
            history.cause = cause;
        }
    }

    /// Charges the next changes to the decision `decision`, taken at the current depth.
    pub(crate) fn set_decision_cause(&mut self, decision: Literal) {
        let depth = self.store.trail.depth();
        if let Some(history) = self.store.history.as_deref_mut() {
            history.cause = Cause::Decision;
            history.set_decision(depth, decision);
        }
    }

    /// Learns from the failure of propagator `p` at the current node.
    pub(crate) fn learn_from(&mut self, p: PropId) {
        self.learner.assert_depth = None;
        let Some(history) = self.store.history.as_deref() else {
            return;
        };
        let depth = self.store.trail.depth();
        if depth as u32 <= history.root_level {
            return;
        }
        let cx = ExplainContext { history, at: usize::MAX };
        let conflict = if Some(p) == self.learner.db.slot {
            self.stats.nogood_conflicts += 1;
            let k = self.learner.db.conflict.expect("the database failed on a nogood");
            self.learner.db.nogoods[k as usize].clone()
        } else {
            let prop = &self.props[p.index()];
            let conflict = prop.explain_conflict(&cx).unwrap_or_else(|| naive(history, &prop.vars(), usize::MAX));
            if self.learner.verify {
                check_reason(history, prop.as_ref(), &conflict, None);
            }
            conflict
        };
        let learned = analyze(history, &self.props, &self.learner.db, &conflict, depth, self.learner.verify);
        self.stats.learning_work += learned.cited as u64;
        if let Some(activity) = self.learner.activity.as_mut() {
            for &lit in &learned.met {
                activity.bump(lit.var());
            }
            activity.decay();
        }
        if let Some(activity) = self.learner.literal_activity.as_mut() {
            for &lit in &learned.met {
                activity.bump(lit);
            }
            activity.decay();
        }
        let Some(nogood) = learned.nogood else {
            return; // too costly to find
        };
        if nogood.is_empty() {
            self.learner.exhausted = true;
            return;
        }
        if nogood.len() > MAX_NOGOOD_LEN {
            return;
        }
        // A nogood learned twice means the database let the same failure happen again
        // (it missed a propagation: `NogoodDb::missed` finds none in the tests, but a
        // nogood longer than the kept ones is never in the database): no backjump then, so
        // that the search always moves on.
        let mut key = nogood.clone();
        key.sort_unstable();
        if self.learner.seen.insert(key) {
            self.learner.assert_depth = Some(learned.assert_level as usize);
        } else {
            self.stats.relearned += 1;
        }
        if self.learner.verify {
            self.learner.log.push(nogood.clone());
        }
        let mut levels: Vec<u32> = nogood.iter().filter_map(|&l| history.level_of(l)).collect();
        levels.sort_unstable();
        levels.dedup();
        self.learner.pending.push((nogood, levels.len() as u32));
    }

    /// At the search's root (a restart): when the database has grown past what is kept,
    /// forgets the nogoods worth least ([`NogoodDb::reduce`]).
    pub(crate) fn reduce_learned(&mut self) {
        let Some(slot) = self.learner.db.slot else { return };
        if self.learner.db.len() <= 2 * self.learner.kept {
            return;
        }
        for mut nogood in self.learner.db.reduce(self.learner.kept) {
            nogood.sort_unstable();
            self.learner.seen.remove(&nogood);
            self.stats.forgotten += 1;
        }
        self.learner.kept += KEPT_GROWTH;
        self.store.queue.push(slot);
    }

    /// Anywhere in the search, after a backtrack: when the database has grown to
    /// [`IN_PLACE_FACTOR`] times what is kept (a search that does not restart, or a long
    /// run between restarts), forgets in place ([`NogoodDb::forget_in_place`]).
    fn forget_in_place(&mut self) {
        if self.learner.db.len() <= IN_PLACE_FACTOR * self.learner.kept {
            return;
        }
        let Some(history) = self.store.history.as_deref() else { return };
        for mut nogood in self.learner.db.forget_in_place(self.learner.kept, history) {
            nogood.sort_unstable();
            self.learner.seen.remove(&nogood);
            self.stats.forgotten += 1;
        }
        self.learner.kept += KEPT_GROWTH;
    }

    /// A restart: with [`ActivitySearch::Alternate`], the next run takes the other order.
    pub(crate) fn next_run(&mut self) {
        if self.learner.activity_search == ActivitySearch::Alternate {
            self.learner.activity_run = !self.learner.activity_run;
        }
    }

    /// Whether every decision of this search goes by activity alone: the branching
    /// groups are never asked.
    pub(crate) fn activity_only(&self) -> bool {
        self.learner.activity_search == ActivitySearch::Only && self.activity_run()
    }

    /// Whether the next decision goes by activity alone, the branching groups aside.
    pub(crate) fn activity_run(&self) -> bool {
        self.learner.activity_run && self.learner.activity.is_some()
    }

    /// The unfixed variable of highest activity, when decisions use activities (`None`
    /// also when every variable is fixed).
    pub(crate) fn most_active(&mut self) -> Option<VarId> {
        self.read_undone();
        let activity = self.learner.activity.as_mut()?;
        let domains = &self.store.domains;
        activity.most_active(|x| domains[x.index()].min != domains[x.index()].max)
    }

    /// The most active open literal on its saved side, when decisions by activity rank
    /// literals and one is open.
    pub(crate) fn most_active_literal(&mut self) -> Option<Literal> {
        self.read_undone();
        self.learner.literal_activity.as_mut()?.decide(&self.store.domains, &self.phases)
    }

    /// Gives the activities what backtracks undid since they last looked: the variables
    /// are candidates again, and the literals of the branch left are the saved phases.
    fn read_undone(&mut self) {
        let Some(history) = self.store.history.as_deref_mut() else { return };
        let Learner { activity, literal_activity, .. } = &mut self.learner;
        if let Some(literals) = literal_activity.as_mut() {
            literals.begin_backtrack(history.decisions_taken);
        }
        for lit in history.take_undone() {
            if let Some(activity) = activity.as_mut() {
                activity.restore(lit.var());
            }
            if let Some(literals) = literal_activity.as_mut() {
                literals.undone(lit);
            }
        }
        if let Some(literals) = literal_activity.as_mut() {
            literals.unpark(&self.store.domains);
        }
    }

    /// Whether decisions use activities.
    pub(crate) fn uses_activity(&self) -> bool {
        self.learner.activity.is_some()
    }

    /// After a backtrack: posts the nogoods learned since the last call at the current
    /// node, and has those whose propagation the backtrack undid checked again. Says
    /// whether the node must be propagated for them.
    pub(crate) fn post_learned(&mut self) -> bool {
        // Read at every backtrack, so that what it undid does not pile up where no
        // decision reads the activities (an annotation's own decisions).
        self.read_undone();
        let Some(slot) = self.learner.db.slot else { return false };
        self.forget_in_place();
        // Those to check again first, then the new ones (each is checked whole).
        let mut run = self.learner.db.backtracked_to(self.store.trail.depth());
        for (nogood, lbd) in std::mem::take(&mut self.learner.pending) {
            let num_vars = self.num_vars();
            for x in self.learner.db.add(nogood, lbd, &self.store, num_vars) {
                self.store.subscribe(x, slot, crate::outcome::Events::DOMAIN);
            }
            self.stats.learned += 1;
            run = true;
        }
        if run {
            self.store.queue.push(slot);
        }
        run
    }

    /// Where the search learns, keeps `nogood` (decisions a restart found refuted) in the
    /// database for good, as if learned at one level: there it is visited only when one
    /// of its two watched literals comes to hold, where a propagator of its own would be
    /// woken by every change of every variable it names (jobshop ft10 posts thousands).
    /// `false` where the search does not learn.
    pub(crate) fn keep_refuted(&mut self, nogood: &[Literal]) -> bool {
        let Some(slot) = self.learner.db.slot else { return false };
        let num_vars = self.num_vars();
        for x in self.learner.db.add(nogood.to_vec(), 1, &self.store, num_vars) {
            self.store.subscribe(x, slot, crate::outcome::Events::DOMAIN);
        }
        self.store.queue.push(slot);
        true
    }

    /// Runs propagator `p` (or the nogood database, if `p` is its slot) while learning,
    /// charging its changes to it.
    #[cold]
    pub(crate) fn propagate_learning(&mut self, p: PropId) -> crate::outcome::PropResult {
        self.set_cause(Cause::Prop(p));
        if Some(p) == self.learner.db.slot {
            self.learner.db.propagate(&mut self.store).map(|()| crate::outcome::PropStatus::Active)
        } else {
            self.props[p.index()].propagate(&mut crate::propagator::Context { store: &mut self.store })
        }
    }

    /// The nogoods learned by the last search that checked its solutions
    /// ([`crate::SearchConfig::check_solutions`] with [`crate::SearchConfig::learning`]):
    /// each is a set of literals that no solution satisfies all of. For tests.
    #[doc(hidden)]
    pub fn learned_log(&self) -> &[Vec<Literal>] {
        &self.learner.log
    }
}
