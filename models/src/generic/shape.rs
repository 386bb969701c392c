//! Index arithmetic of arrays: any number of dimensions, each with its own index range
//! (`1..n`, `0..8`, `-3..3`), stored row-major so that the cells of `x[1..9, 1..9]` come
//! out in reading order for branching, text and JSON alike.

/// The index ranges of an array, one inclusive `(lo, hi)` pair per dimension. A range
/// with `hi < lo` is empty, and so is the array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Shape {
    pub(crate) dims: Vec<(i64, i64)>,
}

/// Why an index tuple has no cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BadIndex {
    /// The index of this dimension lies outside its range.
    OutOfRange(usize),
}

impl Shape {
    /// The number of indices of dimension `d`.
    pub(crate) fn extent(&self, d: usize) -> u128 {
        let (lo, hi) = self.dims[d];
        // Computed in i128: `hi - lo` of two i64 may not fit in an i64.
        (hi as i128 - lo as i128 + 1).max(0) as u128
    }

    /// The number of cells, or `None` if it does not fit in a `u64`.
    pub(crate) fn len(&self) -> Option<u64> {
        let cells = (0..self.dims.len()).try_fold(1u128, |n, d| n.checked_mul(self.extent(d)))?;
        u64::try_from(cells).ok()
    }

    /// The row-major position of the cell at `indices` (one per dimension).
    pub(crate) fn offset(&self, indices: &[i64]) -> Result<usize, BadIndex> {
        let mut offset = 0usize;
        for (d, (&i, &(lo, hi))) in indices.iter().zip(&self.dims).enumerate() {
            if i < lo || i > hi {
                return Err(BadIndex::OutOfRange(d));
            }
            // The array was created, so its size fits in memory and none of this overflows.
            offset = offset * self.extent(d) as usize + (i as i128 - lo as i128) as usize;
        }
        Ok(offset)
    }

    /// The indices of the cell at row-major position `offset`.
    pub(crate) fn indices(&self, mut offset: usize) -> Vec<i64> {
        let mut indices = vec![0; self.dims.len()];
        for d in (0..self.dims.len()).rev() {
            let extent = self.extent(d).max(1) as usize;
            indices[d] = (self.dims[d].0 as i128 + (offset % extent) as i128) as i64;
            offset /= extent;
        }
        indices
    }

    /// The name of a cell as the output shows it: `q[3]`, `x[2,5]`.
    pub(crate) fn cell_name(&self, array: &str, offset: usize) -> String {
        let indices: Vec<String> = self.indices(offset).iter().map(i64::to_string).collect();
        format!("{array}[{}]", indices.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_and_indices_are_inverse_and_row_major() {
        let shape = Shape { dims: vec![(1, 3), (0, 1), (-2, -1)] };
        assert_eq!(shape.len(), Some(12));
        for offset in 0..12 {
            assert_eq!(shape.offset(&shape.indices(offset)), Ok(offset));
        }
        assert_eq!(shape.offset(&[1, 0, -1]), Ok(1));
        assert_eq!(shape.offset(&[2, 0, -2]), Ok(4));
        assert_eq!(shape.offset(&[4, 0, -2]), Err(BadIndex::OutOfRange(0)));
        assert_eq!(shape.cell_name("x", 5), "x[2,0,-1]");
    }

    #[test]
    fn empty_and_huge_ranges() {
        assert_eq!(Shape { dims: vec![(1, 0)] }.len(), Some(0));
        assert_eq!(Shape { dims: vec![(i64::MIN, i64::MAX)] }.len(), None);
        assert_eq!(Shape { dims: vec![(0, i64::MAX), (0, 3)] }.len(), None);
    }
}
