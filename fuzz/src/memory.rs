//! How much memory this process holds right now.
//!
//! The resident set (pages actually in RAM) is what exhausts a machine, not the address
//! space: a `vec![0; n]` of 10 GB costs nothing until it is written. Linux reports it in
//! `/proc/self/statm` (second field, in pages); reading it costs a few microseconds, so
//! the executor reads it only while an input runs long or right after a slow one.

/// The resident set size of this process in bytes, or `None` off Linux.
pub fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * page_size())
}

fn page_size() -> u64 {
    // SAFETY: sysconf only reads a configuration value.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    u64::try_from(size).unwrap_or(4096)
}

/// Tests that read the process's resident set run one at a time: another test's block,
/// freed in the middle, would make the set shrink under them.
#[cfg(test)]
pub(crate) static RESIDENT_SET_TESTS: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[cfg(test)]
mod tests {
    #[test]
    fn resident_set_grows_when_memory_is_touched() {
        // Other tests of this crate (not all behind the lock) free hundreds of megabytes
        // while this one runs, so the set may shrink between two readings (a clean CI run
        // saw 339 MB -> 137 MB): the check is that the touched block is counted at all.
        let _alone = super::RESIDENT_SET_TESTS.lock().unwrap_or_else(|e| e.into_inner());
        let block = std::hint::black_box(vec![1u8; 64 << 20]);
        let after = super::resident_bytes().expect("runs on Linux");
        assert!(after >= 64 << 20, "a 64 MB block is touched, yet the resident set is {after} bytes");
        drop(block);
    }
}
