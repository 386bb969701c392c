//! The one source of randomness of a run: a PCG generator seeded from the run's seed, so
//! that the same seed replays the same inputs in the same order.

use rand_core::Rng as _;
use rand_pcg::Pcg64Mcg;

/// A seeded generator with the few draws a fuzzer needs.
#[derive(Debug, Clone)]
pub struct Rng(Pcg64Mcg);

impl Rng {
    /// A generator for `seed`. Nearby seeds (1, 2, 3...) give unrelated streams: the seed
    /// is spread over all 128 bits of state by SplitMix64 first.
    pub fn new(seed: u64) -> Rng {
        let hi = splitmix64(seed);
        let lo = splitmix64(hi ^ seed);
        // A multiplicative congruential generator needs an odd state.
        Rng(Pcg64Mcg::new((u128::from(hi) << 64) | u128::from(lo) | 1))
    }

    /// 64 random bits.
    pub fn u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (`n > 0`). The modulo bias is below 2^-40 for the sizes used
    /// here, which does not matter to a fuzzer.
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "below(0) has no value to draw");
        (self.u64() % n as u64) as usize
    }

    /// True with probability `numerator / denominator`.
    pub fn chance(&mut self, numerator: u32, denominator: u32) -> bool {
        self.below(denominator as usize) < numerator as usize
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A size in `1..=max`, small far more often than large: the bit length is uniform,
    /// so 1..2, 2..4, 4..8... are equally likely. Most useful mutations are small, but the
    /// rare large one (a 5000-fold repetition) finds the limits nobody tested.
    pub fn size(&mut self, max: usize) -> usize {
        let max = max.max(1);
        let bits = usize::BITS - max.leading_zeros();
        let cap = 1usize << self.below(bits as usize);
        1 + self.below(cap.min(max))
    }
}

fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn same_seed_same_stream() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        assert!((0..100).all(|_| a.u64() == b.u64()));
        assert_ne!(Rng::new(1).u64(), Rng::new(2).u64());
    }

    #[test]
    fn sizes_stay_in_range_and_favour_small() {
        let mut rng = Rng::new(3);
        let sizes: Vec<usize> = (0..10_000).map(|_| rng.size(5000)).collect();
        assert!(sizes.iter().all(|&s| (1..=5000).contains(&s)));
        assert!(sizes.iter().filter(|&&s| s <= 8).count() > 2500);
        assert!(sizes.iter().any(|&s| s > 1000));
    }
}
