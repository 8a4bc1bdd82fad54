//! Capabilities: 128 random bits from the kernel, compared in constant time.

/// A fresh capability string (`cap-` + 32 hex digits).
pub fn random_capability() -> String {
    let mut bytes = [0u8; 16];
    fill_random(&mut bytes);
    let mut out = String::with_capacity(36);
    out.push_str("cap-");
    for b in bytes {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

fn fill_random(buf: &mut [u8]) {
    let mut filled = 0;
    // getrandom(2) blocks only until the pool is initialised at boot; a short read or EINTR
    // is retried. Bounded: a kernel that keeps failing panics rather than hands out zeros.
    for _ in 0..64 {
        if filled == buf.len() {
            return;
        }
        // SAFETY: the pointer and length describe the unfilled tail of `buf`.
        let n =
            unsafe { libc::getrandom(buf[filled..].as_mut_ptr().cast(), buf.len() - filled, 0) };
        if n > 0 {
            filled += n as usize;
        }
    }
    assert_eq!(filled, buf.len(), "getrandom(2) keeps failing");
}

/// Equal in time independent of where the strings differ (length aside).
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    // Keep the optimiser from short-circuiting the fold.
    std::hint::black_box(diff) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capabilities_differ_and_compare() {
        let a = random_capability();
        let b = random_capability();
        assert_ne!(a, b);
        assert_eq!(a.len(), 36);
        assert!(constant_time_eq(a.as_bytes(), a.clone().as_bytes()));
        assert!(!constant_time_eq(a.as_bytes(), b.as_bytes()));
        assert!(!constant_time_eq(b"abc", b"ab"));
    }
}
