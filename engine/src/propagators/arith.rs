//! Integer division that rounds the way bounds reasoning needs, for any signs.

/// `⌊a / b⌋`
pub(crate) fn floor_div(a: i64, b: i64) -> i64 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// `⌈a / b⌉`
pub(crate) fn ceil_div(a: i64, b: i64) -> i64 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) == (b < 0)) {
        q + 1
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_matches_rational_division_for_all_signs() {
        for a in -20i64..=20 {
            for b in [-7i64, -3, -1, 1, 2, 5] {
                let exact = a as f64 / b as f64;
                assert_eq!(floor_div(a, b), exact.floor() as i64, "{a}/{b}");
                assert_eq!(ceil_div(a, b), exact.ceil() as i64, "{a}/{b}");
            }
        }
    }
}
