//! A local search for odd n in the near-90° class that keeps every row and column at two
//! points and moves points along their rows (swaps), so that only the slanted lines can
//! be broken.
//!
//! In the near-90° class (see [`super::Symmetry::NearRotational4`]) a point off the long
//! diagonals comes with its three rotations: the orbit of `(r, c)` puts one point in each
//! of the rows r, m − r, c, m − c (m = n − 1), and column counts equal row counts (the
//! 90° rotation maps row r onto column m − r). Rows r and m − r always hold the same
//! number of points, so take the *row pairs* A = min(r, m − r) < h = m / 2, and the middle
//! row h: an orbit is an edge between the row pairs of its row and its column, giving one
//! point to each row of both (the middle row, being its own pair, gets two). The pair of
//! points on the main diagonal, `(d, d)` and `(m − d, m − d)`, gives one point to each row
//! of pair d. Every row holds two points exactly when every row pair A < h has degree 2
//! (counting the diagonal pair) and the middle row degree 1: a path from the middle row
//! to the diagonal pair's row pair, and cycles. Between two row pairs A < B < h lie two
//! orbits, those of `(A, B)` and `(A, m − B)` (the bit of an edge), between A and the
//! middle one.
//!
//! The moves keep those degrees: flip an edge's bit (move its points along their rows),
//! exchange the ends of two edges ({A, B}, {C, D} → {A, C}, {B, D} or {A, D}, {B, C}, with
//! any bits), and move the diagonal pair to the row pair at one end of an edge while that
//! edge takes the old row pair instead. The cost is the number of points in excess of two
//! on the slanted lines; each step takes the best move of a random point on a broken
//! line, not undoing a recent move (tabu), with random steps now and then. Seeded, so the
//! same seed and step budget give the same answer.

#![cfg_attr(not(test), allow(dead_code))]
use super::lines::{slanted_lines, Point};

/// An edge of the row-pair graph: row pairs `a < b` and which of the two orbits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Edge {
    a: usize,
    b: usize,
    flip: bool,
}

struct Grid {
    n: usize,
    /// For each cell (row-major), the slanted lines through it.
    lines_of: Vec<Vec<u32>>,
    /// Points on each slanted line.
    count: Vec<u32>,
    /// Sum over lines of the points beyond two, times the line's weight.
    cost: i64,
    /// Sum over lines of the points beyond two.
    excess: i64,
    /// Each line's weight: raised while it stays broken at a local minimum.
    weight: Vec<i64>,
}

impl Grid {
    fn new(n: usize) -> Grid {
        let lines = slanted_lines(n);
        let mut lines_of = vec![Vec::new(); n * n];
        for (i, line) in lines.iter().enumerate() {
            for &(r, c) in line {
                lines_of[r * n + c].push(i as u32);
            }
        }
        Grid { n, lines_of, count: vec![0; lines.len()], cost: 0, excess: 0, weight: vec![1; lines.len()] }
    }

    fn add(&mut self, (r, c): Point) {
        for &l in &self.lines_of[r * self.n + c] {
            let k = &mut self.count[l as usize];
            *k += 1;
            if *k > 2 {
                self.cost += self.weight[l as usize];
                self.excess += 1;
            }
        }
    }

    fn remove(&mut self, (r, c): Point) {
        for &l in &self.lines_of[r * self.n + c] {
            let k = &mut self.count[l as usize];
            if *k > 2 {
                self.cost -= self.weight[l as usize];
                self.excess -= 1;
            }
            *k -= 1;
        }
    }
}

/// The cells of an edge's orbit (four, or the four of the middle row's orbit).
fn cells(n: usize, e: Edge) -> [Point; 4] {
    let m = n - 1;
    let (r, c) = (e.a, if e.flip { m - e.b } else { e.b });
    [(r, c), (c, m - r), (m - r, m - c), (m - c, r)]
}

fn edge(a: usize, b: usize, flip: bool, h: usize) -> Edge {
    let (a, b) = (a.min(b), a.max(b));
    // The middle row pair has one orbit per partner.
    Edge { a, b, flip: flip && b != h }
}

/// A placement of 2n points in the near-90° class found within `steps` steps from the
/// start seeded by `seed`, or `None`. n odd, at least 7.
pub(super) fn search(n: usize, seed: u64, steps: u64) -> Option<Vec<Point>> {
    assert!(n % 2 == 1 && n >= 7);
    let m = n - 1;
    let h = m / 2;
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut grid = Grid::new(n);
    // A random path from the middle row through every row pair, the diagonal pair at its end.
    let mut order: Vec<usize> = (0..h).collect();
    rng.shuffle(&mut order);
    let mut edges: Vec<Edge> = Vec::with_capacity(h);
    let mut prev = h;
    for &v in &order {
        edges.push(edge(prev, v, rng.bool(), h));
        prev = v;
    }
    let mut diag = prev;
    for &e in &edges {
        for p in cells(n, e) {
            grid.add(p);
        }
    }
    grid.add((diag, diag));
    grid.add((m - diag, m - diag));
    // Tabu: the step until which an orbit just removed may not come back.
    let orbit_id = |e: Edge| (e.a * n + e.b) * 2 + e.flip as usize;
    let mut tabu_until = vec![0u64; n * n * 2];
    let tenure: u64 = std::env::var("NT_TENURE").ok().and_then(|t| t.parse().ok()).unwrap_or(10);
    let weighting = std::env::var("NT_WEIGHTS").is_ok();
    let noise: u32 = std::env::var("NT_NOISE").ok().and_then(|t| t.parse().ok()).unwrap_or(20);
    let mut best_cost = grid.cost;
    for step in 0..steps {
        if grid.excess == 0 {
            let mut points: Vec<Point> = edges.iter().flat_map(|&e| cells(n, e)).collect();
            points.push((diag, diag));
            points.push((m - diag, m - diag));
            points.sort_unstable();
            return Some(points);
        }
        // A random point on a broken line: its edge (or the diagonal pair).
        let broken: Vec<usize> = (0..edges.len())
            .filter(|&i| {
                cells(n, edges[i])
                    .iter()
                    .any(|&(r, c)| grid.lines_of[r * n + c].iter().any(|&l| grid.count[l as usize] > 2))
            })
            .collect();
        let i = broken[rng.usize(..broken.len())];
        let e1 = edges[i];
        let used = |es: &[Edge], x: Edge| es.iter().any(|&y| y == x);
        // Candidate moves: (edge index pairs replaced, new edges, new diagonal).
        let mut best: Option<(i64, Vec<(usize, Edge)>, usize)> = None;
        let mut ties = 0u32;
        let random_step = rng.u32(..1000) < noise;
        for p in cells(n, e1) {
            grid.remove(p);
        }
        let mut consider = |grid: &mut Grid, changes: Vec<(usize, Edge)>, removed_cost: i64, new_diag: usize| {
            let mut added = Vec::new();
            for &(_, e) in &changes {
                for p in cells(n, e) {
                    grid.add(p);
                    added.push(p);
                }
            }
            let cost = grid.cost;
            for p in added {
                grid.remove(p);
            }
            let _ = removed_cost;
            let is_tabu = changes.iter().any(|&(_, e)| tabu_until[orbit_id(e)] > step);
            if is_tabu && cost >= best_cost {
                return;
            }
            let cost = if random_step { rng.i64(0..1000) } else { cost };
            match &best {
                Some((c, _, _)) if cost > *c => {}
                Some((c, _, _)) if cost == *c => {
                    ties += 1;
                    if rng.u32(..ties) == 0 {
                        best = Some((cost, changes, new_diag));
                    }
                }
                _ => {
                    ties = 1;
                    best = Some((cost, changes, new_diag));
                }
            }
        };
        // Flip.
        if e1.b != h {
            let f = Edge { flip: !e1.flip, ..e1 };
            if !used(&edges, f) {
                consider(&mut grid, vec![(i, f)], 0, diag);
            }
        }
        // Exchanges with every other edge.
        for j in 0..edges.len() {
            if j == i {
                continue;
            }
            let e2 = edges[j];
            for p in cells(n, e2) {
                grid.remove(p);
            }
            for (x1, y1, x2, y2) in [(e1.a, e2.a, e1.b, e2.b), (e1.a, e2.b, e1.b, e2.a)] {
                if x1 == y1 || x2 == y2 {
                    continue;
                }
                for bits in 0..4 {
                    let n1 = edge(x1, y1, bits & 1 == 1, h);
                    let n2 = edge(x2, y2, bits & 2 == 2, h);
                    if n1 == n2 || (n1.b == h && bits & 1 == 1) || (n2.b == h && bits & 2 == 2) {
                        continue;
                    }
                    let others: Vec<Edge> =
                        edges.iter().enumerate().filter(|&(k, _)| k != i && k != j).map(|(_, &e)| e).collect();
                    if used(&others, n1) || used(&others, n2) {
                        continue;
                    }
                    consider(&mut grid, vec![(i, n1), (j, n2)], 0, diag);
                }
            }
            for p in cells(n, e2) {
                grid.add(p);
            }
        }
        // The diagonal pair to an end of e1, e1 taking the old diagonal row pair.
        for (end, other) in [(e1.a, e1.b), (e1.b, e1.a)] {
            if end == h || other == diag {
                continue;
            }
            grid.remove((diag, diag));
            grid.remove((m - diag, m - diag));
            grid.add((end, end));
            grid.add((m - end, m - end));
            for flip in [false, true] {
                let ne = edge(diag, other, flip, h);
                if (ne.b == h && flip) || used(&edges, ne) {
                    continue;
                }
                consider(&mut grid, vec![(i, ne)], 0, end);
            }
            grid.remove((end, end));
            grid.remove((m - end, m - end));
            grid.add((diag, diag));
            grid.add((m - diag, m - diag));
        }
        for p in cells(n, e1) {
            grid.add(p);
        }
        let Some((best_move, changes, new_diag)) = best else { continue };
        if weighting && best_move >= grid.cost {
            // A local minimum: the broken lines weigh more.
            for l in 0..grid.count.len() {
                if grid.count[l] > 2 {
                    grid.weight[l] += 1;
                    grid.cost += i64::from(grid.count[l]) - 2;
                }
            }
        }
        for &(k, _) in &changes {
            for p in cells(n, edges[k]) {
                grid.remove(p);
            }
            tabu_until[orbit_id(edges[k])] = step + tenure + rng.u64(..tenure);
        }
        for &(k, e) in &changes {
            edges[k] = e;
            for p in cells(n, e) {
                grid.add(p);
            }
        }
        if new_diag != diag {
            grid.remove((diag, diag));
            grid.remove((m - diag, m - diag));
            diag = new_diag;
            grid.add((diag, diag));
            grid.add((m - diag, m - diag));
        }
        best_cost = best_cost.min(grid.cost);
        if grid.excess == 0 && std::env::var("NT_TRACE").is_ok() {
            eprintln!("solved at step {step}");
        }
        if std::env::var("NT_TRACE").is_ok() && step % 1000 == 0 {
            eprintln!("step {step} cost {} excess {} best {best_cost}", grid.cost, grid.excess);
        }
    }
    None
}

/// Simulated annealing over the same moves, one random move per step, accepted when it
/// costs `delta <= 0` or with probability exp(−delta / T), T falling geometrically from
/// `t0` to `t1` over `steps`.
pub(super) fn anneal(n: usize, seed: u64, steps: u64, t0: f64, t1: f64) -> Option<(Vec<Point>, u64)> {
    assert!(n % 2 == 1 && n >= 7);
    let m = n - 1;
    let h = m / 2;
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut grid = Grid::new(n);
    let mut order: Vec<usize> = (0..h).collect();
    rng.shuffle(&mut order);
    let mut edges: Vec<Edge> = Vec::with_capacity(h);
    let mut prev = h;
    for &v in &order {
        edges.push(edge(prev, v, rng.bool(), h));
        prev = v;
    }
    let mut diag = prev;
    for &e in &edges {
        for p in cells(n, e) {
            grid.add(p);
        }
    }
    grid.add((diag, diag));
    grid.add((m - diag, m - diag));
    let cool = (t1 / t0).powf(1.0 / steps.max(1) as f64);
    let mut t = t0;
    let set_diag = |grid: &mut Grid, from: usize, to: usize| {
        grid.remove((from, from));
        grid.remove((m - from, m - from));
        grid.add((to, to));
        grid.add((m - to, m - to));
    };
    for step in 0..steps {
        if grid.excess == 0 {
            let mut points: Vec<Point> = edges.iter().flat_map(|&e| cells(n, e)).collect();
            points.push((diag, diag));
            points.push((m - diag, m - diag));
            points.sort_unstable();
            return Some((points, step));
        }
        t *= cool;
        let before = grid.cost;
        let i = rng.usize(..edges.len());
        let e1 = edges[i];
        // (edge index, new edge) changes and the new diagonal row pair.
        let (changes, new_diag): (Vec<(usize, Edge)>, usize) = match rng.u32(..8) {
            0 => {
                if e1.b == h {
                    continue;
                }
                (vec![(i, Edge { flip: !e1.flip, ..e1 })], diag)
            }
            1 => {
                let (end, other) = if rng.bool() { (e1.a, e1.b) } else { (e1.b, e1.a) };
                if end == h || other == diag || end == diag {
                    continue;
                }
                (vec![(i, edge(diag, other, rng.bool(), h))], end)
            }
            _ => {
                let j = rng.usize(..edges.len());
                if j == i {
                    continue;
                }
                let e2 = edges[j];
                let (x1, y1, x2, y2) = if rng.bool() { (e1.a, e2.a, e1.b, e2.b) } else { (e1.a, e2.b, e1.b, e2.a) };
                if x1 == y1 || x2 == y2 {
                    continue;
                }
                (vec![(i, edge(x1, y1, rng.bool(), h)), (j, edge(x2, y2, rng.bool(), h))], diag)
            }
        };
        // No orbit twice.
        let clash = changes.iter().enumerate().any(|(a, &(_, ne))| {
            edges.iter().enumerate().any(|(k, &e)| e == ne && changes.iter().all(|&(c, _)| c != k))
                || changes[..a].iter().any(|&(_, o)| o == ne)
        });
        if clash {
            continue;
        }
        let old: Vec<Edge> = changes.iter().map(|&(k, _)| edges[k]).collect();
        let apply = |grid: &mut Grid, edges: &mut Vec<Edge>, to: &[Edge]| {
            for (&(k, _), &e) in changes.iter().zip(to) {
                for p in cells(n, edges[k]) {
                    grid.remove(p);
                }
                edges[k] = e;
            }
            for &(k, _) in &changes {
                for p in cells(n, edges[k]) {
                    grid.add(p);
                }
            }
        };
        let new: Vec<Edge> = changes.iter().map(|&(_, e)| e).collect();
        apply(&mut grid, &mut edges, &new);
        if new_diag != diag {
            set_diag(&mut grid, diag, new_diag);
        }
        let delta = (grid.cost - before) as f64;
        if delta <= 0.0 || rng.f64() < (-delta / t).exp() {
            diag = new_diag;
        } else {
            if new_diag != diag {
                set_diag(&mut grid, new_diag, diag);
            }
            apply(&mut grid, &mut edges, &old);
        }
        if std::env::var("NT_TRACE").is_ok() && step % 100_000 == 0 {
            eprintln!("step {step} t {t:.3} excess {}", grid.excess);
        }
    }
    None
}

/// Whether `points` are 2n points of the n×n grid, two in every row and column, no three
/// on a line: checked from the definition (every triple's cross product), for the answer
/// of [`search`] before it is shown.
pub(super) fn is_solution(n: usize, points: &[Point]) -> bool {
    let mut rows = vec![0; n];
    let mut cols = vec![0; n];
    for &(r, c) in points {
        if r >= n || c >= n {
            return false;
        }
        rows[r] += 1;
        cols[c] += 1;
    }
    let mut sorted = points.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != 2 * n || rows.iter().chain(&cols).any(|&k| k != 2) {
        return false;
    }
    let d = |p: Point, q: Point| (q.0 as i64 - p.0 as i64, q.1 as i64 - p.1 as i64);
    for (i, &a) in sorted.iter().enumerate() {
        for (j, &b) in sorted.iter().enumerate().skip(i + 1) {
            let u = d(a, b);
            for &c in &sorted[j + 1..] {
                let v = d(a, c);
                if u.0 * v.1 == u.1 * v.0 {
                    return false;
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[ignore]
    fn experiment_anneal() {
        let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
        let n: usize = env("NT_N", "21").parse().unwrap();
        let steps: u64 = env("NT_STEPS", "1000000").parse().unwrap();
        let t0: f64 = env("NT_T0", "2").parse().unwrap();
        let t1: f64 = env("NT_T1", "0.2").parse().unwrap();
        for seed in env("NT_SEEDS", "1").split(',').map(|s| s.parse::<u64>().unwrap()) {
            let start = std::time::Instant::now();
            let found = anneal(n, seed, steps, t0, t1);
            println!(
                "RESULT n={n} seed={seed} found={:?} valid={} secs={:.2}",
                found.as_ref().map(|f| f.1),
                found.as_ref().is_some_and(|p| is_solution(n, &p.0)),
                start.elapsed().as_secs_f64()
            );
        }
    }

    #[test]
    #[ignore]
    fn experiment() {
        let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
        let n: usize = env("NT_N", "21").parse().unwrap();
        let steps: u64 = env("NT_STEPS", "100000").parse().unwrap();
        for seed in env("NT_SEEDS", "1").split(',').map(|s| s.parse::<u64>().unwrap()) {
            let start = std::time::Instant::now();
            let found = search(n, seed, steps);
            println!(
                "RESULT n={n} seed={seed} found={} valid={} secs={:.2}",
                found.is_some(),
                found.as_ref().is_some_and(|p| is_solution(n, p)),
                start.elapsed().as_secs_f64()
            );
        }
    }
}
