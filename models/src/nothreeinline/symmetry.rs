//! The symmetries of the square acting on point sets of the n×n grid.
//!
//! Two uses: `symmetry = distinct` keeps one solution per class under all 8 symmetries
//! (the one whose sorted point list is lexicographically smallest), and the rotational
//! options give every cell one variable per orbit under the 180° or 90° rotation.

use super::lines::Point;

/// The image of `p` under symmetry `t` (0 = identity, 1–3 = rotations by 90°, 180°, 270°,
/// 4–7 = the four reflections).
pub(crate) fn image(t: usize, n: usize, (r, c): Point) -> Point {
    let m = n - 1;
    match t {
        0 => (r, c),
        1 => (c, m - r),
        2 => (m - r, m - c),
        3 => (m - c, r),
        4 => (r, m - c),
        5 => (m - r, c),
        6 => (c, r),
        _ => (m - c, m - r),
    }
}

/// True when the sorted `points` come first among the sorted images of the set.
pub(crate) fn is_representative(n: usize, points: &[Point]) -> bool {
    (1..8).all(|t| {
        let mut img: Vec<Point> = points.iter().map(|&p| image(t, n, p)).collect();
        img.sort_unstable();
        img.as_slice() >= points
    })
}

/// The smallest cell of the orbit of `p` under `group` (symmetries as numbered in
/// [`image`]): cells of one orbit share a variable.
pub(crate) fn orbit_representative(n: usize, p: Point, group: &[usize]) -> Point {
    group.iter().map(|&t| image(t, n, p)).min().unwrap_or(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_images_form_the_group_of_the_square() {
        let n = 5;
        let set: Vec<Point> = vec![(0, 1), (0, 3), (2, 4)];
        let orbit = |s: &[Point]| {
            let mut all: Vec<Vec<Point>> = (0..8)
                .map(|t| {
                    let mut img: Vec<Point> = s.iter().map(|&p| image(t, n, p)).collect();
                    img.sort_unstable();
                    img
                })
                .collect();
            all.sort();
            all.dedup();
            all
        };
        let class = orbit(&set);
        assert_eq!(class.len(), 8, "this set has no symmetry of its own");
        for member in &class {
            assert_eq!(orbit(member), class, "closed under composition");
        }
        assert_eq!(class.iter().filter(|s| is_representative(n, s)).count(), 1);
    }

    #[test]
    fn rotation_orbits() {
        assert_eq!(orbit_representative(4, (3, 2), &[0, 2]), (0, 1));
        assert_eq!(orbit_representative(4, (3, 2), &[0, 1, 2, 3]), (0, 1));
        assert_eq!(orbit_representative(4, (2, 3), &[0, 2, 6, 7]), (0, 1));
        assert_eq!(orbit_representative(5, (2, 2), &[0, 1, 2, 3]), (2, 2));
    }
}
