//! The eight symmetries of the square acting on a queens placement.
//!
//! A placement is a permutation `p` (column `c` holds its queen on row `p[c]`, 0-based).
//! Two placements are the same up to symmetry when a rotation or reflection maps one onto
//! the other; each class is represented by its lexicographically smallest member.

/// The images of `p` under the 8 symmetries of the square (the first is `p` itself).
pub(crate) fn images(p: &[usize]) -> [Vec<usize>; 8] {
    let n = p.len();
    let mut out: [Vec<usize>; 8] = std::array::from_fn(|_| vec![0; n]);
    for (c, &r) in p.iter().enumerate() {
        out[0][c] = r; // identity
        out[1][r] = n - 1 - c; // rotation by 90°
        out[2][n - 1 - c] = n - 1 - r; // rotation by 180°
        out[3][n - 1 - r] = c; // rotation by 270°
        out[4][n - 1 - c] = r; // mirror left-right
        out[5][c] = n - 1 - r; // mirror top-bottom
        out[6][r] = c; // transpose
        out[7][n - 1 - r] = n - 1 - c; // anti-transpose
    }
    out
}

/// True when `p` is the smallest member of its class among the images that `allowed`
/// accepts (all of them, unless a partial start restricts the placements).
pub(crate) fn is_representative(p: &[usize], allowed: impl Fn(&[usize]) -> bool) -> bool {
    images(p).iter().skip(1).all(|image| image.as_slice() >= p || !allowed(image))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eight_images_are_solutions_and_form_a_group() {
        let p = vec![0, 4, 7, 5, 2, 6, 1, 3]; // a solution of eight queens
        let imgs = images(&p);
        for image in &imgs {
            let mut rows = image.clone();
            rows.sort_unstable();
            assert_eq!(rows, (0..8).collect::<Vec<_>>(), "each image is a permutation");
            for a in 0..8 {
                for b in a + 1..8 {
                    assert_ne!(image[a].abs_diff(image[b]), b - a, "diagonals stay free");
                }
            }
            // Applying all symmetries to an image gives the same class.
            let mut again: Vec<Vec<usize>> = images(image).to_vec();
            let mut class: Vec<Vec<usize>> = imgs.to_vec();
            again.sort();
            class.sort();
            assert_eq!(again, class);
        }
    }
}
