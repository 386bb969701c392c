//! A row of bits addressed from an arbitrary integer origin, for sets of reachable sums.
//! Only what dynamic programming over sums needs: set, test, shifted OR, shifted AND-test.

#[derive(Debug, Clone, Default)]
pub(crate) struct BitRow {
    words: Vec<u64>,
}

impl BitRow {
    /// Clears and resizes to hold `len` bits.
    pub(crate) fn reset(&mut self, len: usize) {
        self.words.clear();
        self.words.resize(len.div_ceil(64), 0);
    }

    pub(crate) fn set(&mut self, i: usize) {
        self.words[i / 64] |= 1 << (i % 64);
    }

    pub(crate) fn get(&self, i: usize) -> bool {
        self.words.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    /// The word of `src` that lands on word `w` of a row shifted up by `shift` bits.
    fn shifted_word(src: &[u64], w: usize, shift: isize) -> u64 {
        let word_shift = shift.div_euclid(64);
        let bit_shift = shift.rem_euclid(64) as u32;
        let read = |i: isize| if i >= 0 && (i as usize) < src.len() { src[i as usize] } else { 0 };
        let j = w as isize - word_shift;
        if bit_shift == 0 {
            read(j)
        } else {
            (read(j) << bit_shift) | (read(j - 1) >> (64 - bit_shift))
        }
    }

    /// `self |= src << shift` (a negative shift moves bits down); bits beyond the row are lost.
    pub(crate) fn or_shifted(&mut self, src: &BitRow, shift: isize) {
        for w in 0..self.words.len() {
            self.words[w] |= Self::shifted_word(&src.words, w, shift);
        }
    }

    /// `self |= (src << shift) & mask`; returns whether that added anything non-empty.
    pub(crate) fn or_shifted_masked(&mut self, src: &BitRow, shift: isize, mask: &BitRow) -> bool {
        let mut any = 0;
        for w in 0..self.words.len() {
            let bits = Self::shifted_word(&src.words, w, shift) & mask.words.get(w).copied().unwrap_or(0);
            any |= bits;
            self.words[w] |= bits;
        }
        any != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_move_bits_across_words_both_ways() {
        let mut a = BitRow::default();
        a.reset(200);
        a.set(3);
        a.set(70);
        let mut b = BitRow::default();
        b.reset(200);
        b.or_shifted(&a, 65);
        assert!(b.get(68) && b.get(135) && !b.get(3));
        let mut c = BitRow::default();
        c.reset(200);
        c.or_shifted(&b, -65);
        assert!(c.get(3) && c.get(70) && !c.get(68));
        let mut d = BitRow::default();
        d.reset(200);
        let mut mask = BitRow::default();
        mask.reset(200);
        mask.set(135);
        assert!(d.or_shifted_masked(&a, 65, &mask));
        assert!(d.get(135) && !d.get(68));
    }
}
