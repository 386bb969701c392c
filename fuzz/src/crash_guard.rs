//! Saving the input that kills the process.
//!
//! `catch_unwind` catches panics, but some faults do not unwind: a stack overflow (deep
//! recursion on a deeply nested expression) and a failed allocation both end in
//! `abort()`, which raises `SIGABRT`. Without this guard the process would die and the
//! input that killed it would be lost with it.
//!
//! The executor publishes the input it is about to run (a pointer and a length, two
//! atomic stores per input, nearly free); a `SIGABRT` handler writes those bytes to a
//! file named beforehand and lets the signal go on to kill the process. A signal handler
//! may only call async-signal-safe functions, so it uses `open`, `write` and `close`
//! directly, allocates nothing and takes no lock. Only one input is published at a time:
//! one campaign per process, as the binary runs them.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
use std::sync::Once;

static PATH: AtomicPtr<libc::c_char> = AtomicPtr::new(std::ptr::null_mut());
static INPUT: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static INPUT_LEN: AtomicUsize = AtomicUsize::new(0);
static HANDLER: Once = Once::new();

/// Installs the handler (once per process) and names the file a fatal input goes to.
pub fn install(path: &Path) {
    let path = CString::new(path.as_os_str().as_bytes()).expect("a path has no NUL byte");
    // The previous name is leaked on purpose: the handler may be reading it right now.
    PATH.store(path.into_raw(), Ordering::SeqCst);
    HANDLER.call_once(|| {
        // SAFETY: `on_abort` only calls async-signal-safe functions.
        unsafe { libc::signal(libc::SIGABRT, on_abort as *const () as libc::sighandler_t) };
    });
}

/// Publishes the input about to run. It must stay alive and unmoved until [`clear`].
pub fn publish(input: &[u8]) {
    INPUT_LEN.store(input.len(), Ordering::SeqCst);
    INPUT.store(input.as_ptr().cast_mut(), Ordering::SeqCst);
}

/// Withdraws the published input.
pub fn clear() {
    INPUT.store(std::ptr::null_mut(), Ordering::SeqCst);
}

extern "C" fn on_abort(signal: libc::c_int) {
    let path = PATH.load(Ordering::SeqCst);
    let input = INPUT.load(Ordering::SeqCst);
    let len = INPUT_LEN.load(Ordering::SeqCst);
    // SAFETY: raw system calls on a NUL-terminated path and a published, live buffer.
    unsafe {
        if !path.is_null() && !input.is_null() {
            let fd = libc::open(path, libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC | libc::O_CLOEXEC, 0o644);
            if fd >= 0 {
                write_all(fd, input, len);
                libc::close(fd);
                let note =
                    b"\ncpsolve-fuzz: the process aborted (stack overflow or failed allocation?); input saved to ";
                write_all(2, note.as_ptr(), note.len());
                write_all(2, path.cast(), libc::strlen(path));
                write_all(2, b"\n".as_ptr(), 1);
            }
        }
        // Let the signal do what it would have done: end the process with SIGABRT.
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

/// # Safety
/// `bytes` points to `len` readable bytes.
unsafe fn write_all(fd: libc::c_int, mut bytes: *const u8, mut len: usize) {
    while len > 0 {
        // SAFETY: the caller guarantees the buffer.
        let written = unsafe { libc::write(fd, bytes.cast(), len) };
        if written <= 0 {
            return;
        }
        let written = written as usize;
        // SAFETY: `written <= len`, so the pointer stays inside the buffer.
        bytes = unsafe { bytes.add(written) };
        len -= written;
    }
}
