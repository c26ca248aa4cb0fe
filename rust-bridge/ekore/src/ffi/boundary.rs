//! The panic boundary of the C ABI and the calling thread's error buffer:
//! `guard` runs an entry point's body under `catch_unwind`, `fail` records a
//! message (no allocation: formatted straight into a fixed thread-local
//! buffer), `ekore_last_error` hands that buffer to C.

use std::cell::RefCell;
use std::fmt::{self, Write};
use std::os::raw::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};

use super::{EKORE_ERROR_LEN, EKORE_ERR_PANIC};

thread_local! {
    static LAST: RefCell<[u8; EKORE_ERROR_LEN]> = const { RefCell::new([0u8; EKORE_ERROR_LEN]) };
}

/// `fmt::Write` into a fixed buffer, truncating, always leaving room for NUL.
struct FixedWriter<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl Write for FixedWriter<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let room = self.buf.len() - 1 - self.len;
        let take = s.len().min(room);
        self.buf[self.len..self.len + take].copy_from_slice(&s.as_bytes()[..take]);
        self.len += take;
        Ok(())
    }
}

/// Records the message of `code` in the calling thread's buffer and returns `code`.
/// No allocation: core formatting writes straight into the fixed buffer.
pub(super) fn fail(code: i32, args: fmt::Arguments) -> i32 {
    let _ = LAST.try_with(|cell| {
        if let Ok(mut buf) = cell.try_borrow_mut() {
            let mut w = FixedWriter { buf: &mut buf[..], len: 0 };
            let _ = w.write_fmt(args);
            let end = w.len;
            buf[end] = 0;
        }
    });
    code
}

/// Runs `f` behind the panic boundary: a panic becomes `EKORE_ERR_PANIC`
/// with its message recorded.
pub(super) fn guard<F: FnOnce() -> i32>(func: &str, f: F) -> i32 {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(code) => code,
        Err(payload) => {
            let msg: &str = if let Some(s) = payload.downcast_ref::<&str>() {
                s
            } else if let Some(s) = payload.downcast_ref::<String>() {
                s.as_str()
            } else {
                "unknown payload"
            };
            fail(EKORE_ERR_PANIC, format_args!("{func}: internal panic: {msg}"))
        }
    }
}

/// The message of the last error of an `ekore_*` call on the calling thread
/// ("" if none yet), NUL-terminated, at most EKORE_ERROR_LEN-1 bytes. The pointer
/// is owned by ekore and stays valid for the thread's lifetime; the text is
/// replaced by the next failing call on the same thread (successful calls leave it).
#[no_mangle]
pub extern "C" fn ekore_last_error() -> *const c_char {
    static EMPTY: [u8; 1] = [0];
    catch_unwind(|| LAST.try_with(|cell| cell.as_ptr() as *const c_char).unwrap_or(EMPTY.as_ptr() as *const c_char))
        .unwrap_or(EMPTY.as_ptr() as *const c_char)
}
