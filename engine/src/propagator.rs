//! What a propagator is, and the contexts through which it reads and prunes domains.
//!
//! A propagator removes values that cannot take part in any solution of its constraint.
//! The contract, after Chuffed's checklist:
//! 1. it must return `Err(Conflict)` when all its variables are fixed and the constraint is
//!    violated (correctness does not depend on anything else);
//! 2. it may report `Entailed` only when the current domains prove that every remaining
//!    combination satisfies it;
//! 3. state that must survive backtracking lives in [`TrailedInt`]s, never in plain fields
//!    that the search relies on (plain fields may hold caches that are valid at any level);
//! 4. it need not be idempotent: the engine runs it again while its variables change;
//! 5. arithmetic that could overflow is checked when the constraint is posted.
//!
//! Construction is separate from propagation: [`Propagator::post`] subscribes to events and
//! may decide the constraint at once; [`Propagator::propagate`] runs at every wake-up.

use crate::domain::{DomainValues, Val};
use crate::ids::{PropId, TrailedInt, VarId};
use crate::learn::explain::ExplainContext;
use crate::literal::Literal;
use crate::outcome::{Conflict, Events, Interrupted, Priority, PropResult};
use crate::store::Store;

/// A constraint's filtering algorithm. See the module documentation for the contract.
pub trait Propagator: std::fmt::Debug + Send {
    /// The constraint's name, as statistics and error messages show it (`"linear"`).
    fn name(&self) -> &'static str;

    /// Subscribes to the events that should wake it, and may prune or decide at once.
    /// The engine runs [`Propagator::propagate`] right after, unless this returns `Entailed`.
    fn post(&mut self, cx: &mut PostContext<'_>) -> PropResult;

    /// Prunes the domains of its variables.
    fn propagate(&mut self, cx: &mut Context<'_>) -> PropResult;

    /// The ground truth: does this full assignment satisfy the constraint?
    fn is_satisfied(&self, value: &dyn Fn(VarId) -> Val) -> bool;

    /// The variables it constrains.
    fn vars(&self) -> Vec<VarId>;

    /// When it runs among the queued propagators: cheap ones first, so that expensive ones
    /// see domains already narrowed.
    fn priority(&self) -> Priority {
        Priority::Linear
    }

    /// True if one call always reaches its own fixpoint: the engine then does not wake it
    /// for the changes it made itself.
    fn idempotent(&self) -> bool {
        false
    }

    /// True if, run alone to its fixpoint, it leaves each variable exactly the values that
    /// some assignment satisfying it (within the domains) uses: domain consistency. A
    /// step-wise explanation then takes its propagation as what the constraint says alone,
    /// without trying its cases. The claim is tested against brute force.
    fn domain_consistent(&self) -> bool {
        false
    }

    /// Why it established `lit`, a literal it made true (a bound, a removed value), with the
    /// domains as they were just before ([`ExplainContext`]): literals that held then and
    /// that, with the constraint, imply `lit`. `None`: the engine cites the domains of all
    /// its variables instead (the naive explanation, always sound and often longer).
    fn explain(&self, _lit: Literal, _cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        None
    }

    /// Told of a change of the bounds of a variable it advises ([`PostContext::advise`]):
    /// `local` is the id it gave there, `old` and `new` the bounds before and after. It may
    /// only update its trailed state. Every change reaches it once, in order, before it
    /// next runs, and at the level where the change happened; its own changes reach it
    /// after its `propagate` returns. None reach it while it is entailed (its state is then
    /// out of date until backtracking revives it, which restores the state it had when the
    /// level opened) nor those made by its own `post` (it sets its state from the domains
    /// as `post` leaves them).
    fn notify_bounds(&mut self, _cx: &mut NotifyContext<'_>, _local: u32, _old: (Val, Val), _new: (Val, Val)) {}

    /// The linear equation `Σ aᵢ·xᵢ = c` this propagator enforces, when it is one, as
    /// `(terms, c)`: it must hold exactly for the assignments [`Propagator::is_satisfied`]
    /// accepts. Step-wise explanations add such equations up (a counting argument: "the
    /// rows sum to 45, the columns to 48"). `None`: not an equation.
    fn linear_equation(&self) -> Option<(Vec<(i64, VarId)>, i64)> {
        None
    }

    /// The terms `xᵢ + oᵢ` this propagator keeps pairwise different, when that is exactly
    /// what it enforces, as `(xᵢ, oᵢ)`: [`Propagator::is_satisfied`] must accept exactly the
    /// assignments in which the terms differ. Step-wise explanations count with it: `n`
    /// different terms over exactly `n` possible values take each value once, so their sum
    /// is fixed (the permutation argument: sixteen different numbers in 1..16 sum to 136).
    /// `None`: not an all-different.
    fn distinct_terms(&self) -> Option<Vec<(VarId, i64)>> {
        None
    }

    /// Why it failed: literals that hold now and that the constraint forbids together.
    /// `None`: the domains of all its variables.
    fn explain_conflict(&self, _cx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        None
    }

    /// When this is the only constraint left on the unfixed variables, one assignment of
    /// its variables (in the order of [`Propagator::vars`]) that completes the current
    /// domains and satisfies it, found by a dedicated algorithm; `Ok(None)` when there is
    /// none. `None`: no such algorithm here.
    fn find_solution(
        &self,
        _cx: &Context<'_>,
        _stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<Result<Option<Vec<Val>>, Interrupted>> {
        None
    }

    /// Whether [`Propagator::count_solutions`] would count the current domains.
    fn can_count_solutions(&self, _cx: &Context<'_>) -> bool {
        false
    }

    /// When this is the only constraint left on the unfixed variables, the number of ways
    /// to complete the current domains that satisfy it, counted by a dedicated algorithm
    /// faster than search. `None`: no such algorithm here (the search goes on as usual).
    /// `stop` is polled now and then; when it returns true, answer `Err(Interrupted)`.
    fn count_solutions(
        &self,
        _cx: &Context<'_>,
        _stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<Result<u128, Interrupted>> {
        None
    }

    /// One [`Share`] of [`Propagator::count_solutions`]'s own work: the counts of the
    /// shares `0..of` of the same domains add up to the whole count, whatever `of`. It
    /// lets the parts of a split count (run on other machines) use the dedicated count
    /// instead of splitting the search tree above it. `None`: not available here.
    fn count_solutions_share(
        &self,
        _cx: &Context<'_>,
        _stop: &(dyn Fn() -> bool + Sync),
        _share: Share,
    ) -> Option<Result<u128, Interrupted>> {
        None
    }
}

/// The `index`-th (from 0) of `of` shares of a dedicated count's work
/// ([`Propagator::count_solutions_share`]): of the count's own list of independent tasks,
/// a contiguous run, the runs as even as can be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Share {
    /// Which share, from 0.
    pub index: u64,
    /// How many shares in all (at least 1).
    pub of: u64,
}

impl Share {
    /// All the work.
    pub const WHOLE: Share = Share { index: 0, of: 1 };

    /// Whether the `task`-th of `tasks` tasks is in this share.
    pub fn holds(self, task: usize, tasks: usize) -> bool {
        let of = u128::from(self.of.max(1));
        let bound = |i: u64| tasks as u128 * u128::from(i) / of;
        (bound(self.index)..bound(self.index + 1)).contains(&(task as u128))
    }
}

/// How many rejected values [`Context::retain`] skips at each end of a domain too wide to
/// list before it gives up narrowing it.
pub(crate) const RETAIN_PROBES: usize = 64;

/// Ranges up to this many values are compared a word (64 values) at a time by
/// [`Context::overlaps`] and [`Context::intersect`]; wider ones value by value.
const WORD_WALK_SPAN: i128 = 1 << 24;

/// Read and prune access to the domains during propagation.
#[derive(Debug)]
pub struct Context<'a> {
    pub(crate) store: &'a mut Store,
}

impl Context<'_> {
    /// Whether the search learns from its failures (every change is recorded with its
    /// cause, to be explained). A propagator whose deductions the learned nogoods come to
    /// make anyway, at a fraction of its cost, may stand aside then.
    pub fn learning(&self) -> bool {
        self.store.history.is_some()
    }

    /// The smallest value in the domain of `x`.
    pub fn min(&self, x: VarId) -> Val {
        self.store.domains[x.index()].min
    }

    /// The largest value in the domain of `x`.
    pub fn max(&self, x: VarId) -> Val {
        self.store.domains[x.index()].max
    }

    /// The smallest and largest values of `x`, read together (one look-up).
    #[inline]
    pub fn bounds(&self, x: VarId) -> (Val, Val) {
        let d = &self.store.domains[x.index()];
        (d.min, d.max)
    }

    /// The number of values in the domain of `x`.
    pub fn size(&self, x: VarId) -> u64 {
        self.store.domains[x.index()].size()
    }

    /// Whether `x` has a single value left.
    pub fn is_fixed(&self, x: VarId) -> bool {
        self.store.domains[x.index()].is_fixed()
    }

    /// Whether `v` is still in the domain of `x`.
    pub fn contains(&self, x: VarId, v: Val) -> bool {
        self.store.domains[x.index()].contains(v)
    }

    /// The values `lo..=lo + 63` of `x` as the bits of one word: bit `i` set when `lo + i` is
    /// in the domain.
    #[inline]
    pub fn window(&self, x: VarId, lo: Val) -> u64 {
        self.store.domains[x.index()].window(lo)
    }

    /// The values of `x`, in increasing order.
    pub fn values(&self, x: VarId) -> DomainValues<'_> {
        self.store.domains[x.index()].values()
    }

    /// Raises the minimum to `v` (or to the next value in the domain). `Ok(true)` if it
    /// changed; `Err` if no value is left.
    pub fn set_min(&mut self, x: VarId, v: Val) -> Result<bool, Conflict> {
        self.store.set_min(x, v)
    }

    /// Lowers the maximum to `v` (or to the previous value in the domain). `Ok(true)` if it
    /// changed; `Err` if no value is left.
    pub fn set_max(&mut self, x: VarId, v: Val) -> Result<bool, Conflict> {
        self.store.set_max(x, v)
    }

    /// Removes `v` from the domain of `x`. `Ok(true)` if the domain changed; `Err` if it
    /// became empty. (Inside a range of more than 2^24 values, which is kept as an interval,
    /// only a bound can be removed: an inner value stays, which only weakens propagation.)
    pub fn remove(&mut self, x: VarId, v: Val) -> Result<bool, Conflict> {
        self.store.remove(x, v)
    }

    /// Fixes `x` to `v`. `Ok(true)` if the domain changed; `Err` if `v` is not in it.
    pub fn assign(&mut self, x: VarId, v: Val) -> Result<bool, Conflict> {
        self.store.assign(x, v)
    }

    /// Removes from `x` every value for which `keep` (which may read other domains) says
    /// no. `Ok(true)` if any was removed.
    ///
    /// A domain too wide ever to hold holes (an interval wider than a bitset the engine
    /// would allocate) is not listed value by value, which could take hours and all the
    /// memory: its bounds move past at most 64 (`RETAIN_PROBES`) rejected values at each end, and the values left unchecked make
    /// the search check each solution against every constraint, as a skipped removal does.
    pub fn retain(&mut self, x: VarId, keep: impl Fn(&Context<'_>, Val) -> bool) -> Result<bool, Conflict> {
        let d = &self.store.domains[x.index()];
        if !d.can_hold_holes() {
            let (lo, hi) = (d.min, d.max);
            let first = (lo..=hi).take(RETAIN_PROBES).find(|&v| keep(self, v));
            let last = (lo..=hi).rev().take(RETAIN_PROBES).find(|&v| keep(self, v));
            let changed = match (first, last) {
                (Some(a), Some(b)) => self.set_min(x, a)? | self.set_max(x, b)?,
                // Rejected values all the way through: empty.
                _ if hi - lo < RETAIN_PROBES as Val => return Err(Conflict),
                _ => self.set_min(x, first.unwrap_or(lo))? | self.set_max(x, last.unwrap_or(hi))?,
            };
            self.store.lossy = true;
            return Ok(changed);
        }
        if d.is_small() {
            // Every value is tested on the domains as they are, then all the rejected ones
            // go at once (one trail record, one wake-up), with no list allocated.
            let offset = d.offset;
            let gone = self.values(x).filter(|&v| !keep(self, v)).fold(0, |gone, v| gone | 1 << (v - offset));
            return self.store.remove_small_bits(x, gone);
        }
        // A wide domain: the rejected values are gathered as bits of the domain's own
        // blocks, then go all at once (see `Store::remove_wide_bits`).
        let materialised = self.store.domains[x.index()].materialise();
        debug_assert!(materialised, "a domain that can hold holes gets its bitset");
        let d = &self.store.domains[x.index()];
        let mut gone: Vec<(usize, fixedbitset::Block)> = Vec::new();
        for v in d.values().filter(|&v| !keep(self, v)) {
            let (index, mask) = d.block_of(v);
            match gone.last_mut() {
                Some((last, bits)) if *last == index => *bits |= mask,
                _ => gone.push((index, mask)),
            }
        }
        self.store.remove_wide_bits(x, &gone)
    }

    /// Keeps of `x` only the values of `sorted` (increasing; values `x` does not have are
    /// ignored): the bounds move to the first and last of them, then on a wide domain the
    /// bitset between the bounds is masked block by block, with the values that go removed
    /// in one operation. The cost is a step per block (64 values) and per value of `sorted`,
    /// not per value of the domain: `x mod 97 = 0` over 0..138516 walks 2 165 blocks and
    /// 1 428 multiples. `Ok(true)` if any value was removed.
    pub fn keep_only(&mut self, x: VarId, sorted: &[Val]) -> Result<bool, Conflict> {
        debug_assert!(sorted.windows(2).all(|w| w[0] < w[1]), "increasing");
        let (Some(&first), Some(&last)) = (sorted.first(), sorted.last()) else {
            return Err(Conflict);
        };
        let bounds = self.set_min(x, first)? | self.set_max(x, last)?;
        let d = &self.store.domains[x.index()];
        if d.is_small() || !d.can_hold_holes() {
            return Ok(self.retain(x, |_, v| sorted.binary_search(&v).is_ok())? | bounds);
        }
        let materialised = self.store.domains[x.index()].materialise();
        debug_assert!(materialised, "a domain that can hold holes gets its bitset");
        let d = &self.store.domains[x.index()];
        let bits = fixedbitset::Block::BITS as Val;
        let (lo, hi) = (d.min, d.max);
        let (first_block, last_block) = (d.block_of(lo).0, d.block_of(hi).0);
        let mut next = sorted.partition_point(|&v| v < lo);
        let mut gone = Vec::new();
        for index in first_block..=last_block {
            let base = d.offset + index as Val * bits;
            let mut keep: fixedbitset::Block = 0;
            while next < sorted.len() && sorted[next] < base + bits {
                keep |= 1 << (sorted[next] - base);
                next += 1;
            }
            // Bits outside the bounds are not values of the domain: they stay as they are.
            let below = (lo - base).clamp(0, bits);
            let above = (hi - base + 1).clamp(0, bits);
            // At least one value of the block lies within the bounds: 1 ≤ above - below ≤ 64.
            let in_bounds: fixedbitset::Block = (!0 >> (bits - (above - below))) << below;
            let go = d.block(index) & in_bounds & !keep;
            if go != 0 {
                gone.push((index, go));
            }
        }
        Ok(self.store.remove_wide_bits(x, &gone)? | bounds)
    }

    /// Whether `x` and `y` have a value in common (a bounds test first; one AND of two words
    /// where the bounds share at most 64 values; else the smaller domain walked).
    pub fn overlaps(&self, x: VarId, y: VarId) -> bool {
        let ((x_lo, x_hi), (y_lo, y_hi)) = (self.bounds(x), self.bounds(y));
        if x_hi < y_lo || x_lo > y_hi {
            return false;
        }
        let lo = x_lo.max(y_lo);
        if x_hi.min(y_hi) - lo < 64 {
            return self.window(x, lo) & self.window(y, lo) != 0;
        }
        // A word of values at a time: the cost is a step per 64 values of the common range,
        // not a membership test per value.
        let hi = x_hi.min(y_hi);
        if hi as i128 - lo as i128 > WORD_WALK_SPAN {
            let (small, large) = if self.size(x) <= self.size(y) { (x, y) } else { (y, x) };
            return self.values(small).any(|v| self.contains(large, v));
        }
        let mut base = lo;
        loop {
            if self.window(x, base) & self.window(y, base) != 0 {
                return true;
            }
            match base.checked_add(64) {
                Some(next) if next <= hi => base = next,
                _ => return false,
            }
        }
    }

    /// Makes `x` and `y` keep only their common values (`x = y` by domains). Within one
    /// word of values this is one AND; otherwise bounds first, then each side filtered by
    /// the other.
    pub fn intersect(&mut self, x: VarId, y: VarId) -> Result<(), Conflict> {
        let ((x_lo, x_hi), (y_lo, y_hi)) = (self.bounds(x), self.bounds(y));
        let lo = x_lo.min(y_lo);
        if x_hi.max(y_hi) - lo < 64 {
            let (x_bits, y_bits) = (self.window(x, lo), self.window(y, lo));
            let common = x_bits & y_bits;
            if common == 0 {
                return Err(Conflict);
            }
            if x_bits != common {
                let _ = self.keep_window(x, lo, common)?;
            }
            if y_bits != common {
                let _ = self.keep_window(y, lo, common)?;
            }
            return Ok(());
        }
        for (from, to) in [(x, y), (y, x), (x, y)] {
            let _ = self.set_min(to, self.min(from))?;
            let _ = self.set_max(to, self.max(from))?;
        }
        // The two domains compared a word of values at a time over both their ranges: each
        // value one side has and the other lacks goes, all of one side's at once. (Value by
        // value, an element over time domains of 23,040 values costs a membership test each.)
        let ((x_lo, x_hi), (y_lo, y_hi)) = (self.bounds(x), self.bounds(y));
        let (lo, hi) = (x_lo.min(y_lo), x_hi.max(y_hi));
        if hi as i128 - lo as i128 > WORD_WALK_SPAN {
            // Too wide to walk (an interval that never holds holes, say): value by value,
            // which `retain` limits to the bounds there.
            for (from, to) in [(x, y), (y, x)] {
                let _ = self.retain(to, |cx, v| cx.contains(from, v))?;
            }
            return Ok(());
        }
        let (mut only_x, mut only_y) = (Vec::new(), Vec::new());
        let mut base = lo;
        loop {
            let (a, b) = (self.window(x, base), self.window(y, base));
            let mut differ = a ^ b;
            while differ != 0 {
                let i = differ.trailing_zeros();
                if a >> i & 1 == 1 {
                    only_x.push(base + i as Val);
                } else {
                    only_y.push(base + i as Val);
                }
                differ &= differ - 1;
            }
            match base.checked_add(64) {
                Some(next) if next <= hi => base = next,
                _ => break,
            }
        }
        let _ = self.remove_sorted(x, &only_x)?;
        let _ = self.remove_sorted(y, &only_y)?;
        Ok(())
    }

    /// Removes the values `sorted` (increasing, each in the domain of `x`) in one operation:
    /// a step per value, whatever the width of the domain. `Ok(true)` if any was removed.
    pub fn remove_sorted(&mut self, x: VarId, sorted: &[Val]) -> Result<bool, Conflict> {
        debug_assert!(sorted.windows(2).all(|w| w[0] < w[1]), "increasing");
        if sorted.is_empty() {
            return Ok(false);
        }
        let d = &self.store.domains[x.index()];
        if d.is_small() {
            let offset = d.offset;
            let gone = sorted.iter().fold(0, |gone: fixedbitset::Block, &v| gone | 1 << (v - offset));
            return self.store.remove_small_bits(x, gone);
        }
        if !d.can_hold_holes() {
            // Only its bounds can move (`retain` probes them alone).
            return self.retain(x, |_, v| sorted.binary_search(&v).is_err());
        }
        let materialised = self.store.domains[x.index()].materialise();
        debug_assert!(materialised, "a domain that can hold holes gets its bitset");
        let d = &self.store.domains[x.index()];
        let mut gone: Vec<(usize, fixedbitset::Block)> = Vec::new();
        for &v in sorted {
            let (index, mask) = d.block_of(v);
            match gone.last_mut() {
                Some((last, bits)) if *last == index => *bits |= mask,
                _ => gone.push((index, mask)),
            }
        }
        self.store.remove_wide_bits(x, &gone)
    }

    /// Keeps of `x` only the values `lo + i` whose bit `i` is set in `keep` (values outside
    /// `lo..=lo + 63` go too). `Ok(true)` if any was removed. On a domain of at most 64
    /// initial values this is one trail record and one wake-up.
    pub fn keep_window(&mut self, x: VarId, lo: Val, keep: u64) -> Result<bool, Conflict> {
        let d = &self.store.domains[x.index()];
        if d.is_small() {
            // `keep` moved onto the domain's own bits; bits that fall off are values the
            // domain never held.
            let shift = lo - d.offset;
            let kept = match shift {
                64.. | ..=-64 => 0,
                0.. => keep << shift,
                _ => keep >> -shift,
            };
            return self.store.remove_small_bits(x, d.live_word() & !(kept as fixedbitset::Block));
        }
        self.retain(x, |_, v| (0..64).contains(&(v - lo)) && keep >> (v - lo) & 1 == 1)
    }

    /// The current value of a trailed integer made by [`PostContext::new_int`].
    pub fn int(&self, id: TrailedInt) -> i64 {
        self.store.int(id)
    }

    /// Sets a trailed integer; backtracking past this node restores its old value.
    pub fn set_int(&mut self, id: TrailedInt, value: i64) {
        self.store.set_int(id, value)
    }
}

/// What [`Propagator::notify_bounds`] may touch: its trailed integers.
#[derive(Debug)]
pub struct NotifyContext<'a> {
    pub(crate) store: &'a mut Store,
}

impl NotifyContext<'_> {
    /// The current value of a trailed integer.
    #[inline]
    pub fn int(&self, id: TrailedInt) -> i64 {
        self.store.int(id)
    }

    /// Sets a trailed integer; backtracking past this node restores its old value.
    #[inline]
    pub fn set_int(&mut self, id: TrailedInt, value: i64) {
        self.store.set_int(id, value)
    }
}

/// Access at post time: everything of [`Context`], plus subscriptions and trailed integers.
#[derive(Debug)]
pub struct PostContext<'a> {
    pub(crate) cx: Context<'a>,
    pub(crate) prop: PropId,
}

impl PostContext<'_> {
    /// Wakes this propagator when `x` undergoes one of `events`.
    pub fn subscribe(&mut self, x: VarId, events: Events) {
        self.cx.store.subscribe(x, self.prop, events);
    }

    /// Tells this propagator of every change of `x`'s bounds from now on, through
    /// [`Propagator::notify_bounds`] with `local` (a variable occurring twice gets two
    /// advisors). It does not wake the propagator: [`PostContext::subscribe`] does.
    pub fn advise(&mut self, x: VarId, local: u32) {
        self.cx.store.advise(x, self.prop, local);
    }

    /// A new trailed integer starting at `initial`, for state the propagator updates
    /// incrementally and the search must undo on backtrack.
    pub fn new_int(&mut self, initial: i64) -> TrailedInt {
        self.cx.store.new_int(initial)
    }
}

impl<'a> std::ops::Deref for PostContext<'a> {
    type Target = Context<'a>;
    fn deref(&self) -> &Context<'a> {
        &self.cx
    }
}

impl<'a> std::ops::DerefMut for PostContext<'a> {
    fn deref_mut(&mut self) -> &mut Context<'a> {
        &mut self.cx
    }
}
