//! A minimal double-precision complex number, laid out as `(re, im)` so it
//! crosses the C ABI unchanged (`#[repr(C)]`, same as C's `ekoc_complex` and
//! numpy's complex128).

use std::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct C64 {
    pub re: f64,
    pub im: f64,
}

const _: () = assert!(std::mem::size_of::<C64>() == 16);

impl C64 {
    #[inline]
    pub const fn new(re: f64, im: f64) -> Self {
        C64 { re, im }
    }
    #[inline]
    pub const fn real(re: f64) -> Self {
        C64 { re, im: 0.0 }
    }
    pub const ZERO: C64 = C64::new(0.0, 0.0);
    pub const ONE: C64 = C64::new(1.0, 0.0);
    pub const I: C64 = C64::new(0.0, 1.0);

    #[inline]
    pub fn conj(self) -> Self {
        C64::new(self.re, -self.im)
    }
    #[inline]
    pub fn norm_sqr(self) -> f64 {
        self.re * self.re + self.im * self.im
    }
    #[inline]
    pub fn abs(self) -> f64 {
        self.re.hypot(self.im)
    }
    #[inline]
    pub fn arg(self) -> f64 {
        self.im.atan2(self.re)
    }
    #[inline]
    pub fn is_finite(self) -> bool {
        self.re.is_finite() && self.im.is_finite()
    }
    /// 1/z (Smith's algorithm, no spurious overflow).
    #[inline]
    pub fn recip(self) -> Self {
        C64::ONE / self
    }
    /// exp(z)
    #[inline]
    pub fn exp(self) -> Self {
        let m = self.re.exp();
        let (s, c) = self.im.sin_cos();
        C64::new(m * c, m * s)
    }
    /// principal logarithm
    #[inline]
    pub fn ln(self) -> Self {
        C64::new(self.abs().ln(), self.arg())
    }
    /// principal square root
    pub fn sqrt(self) -> Self {
        let m = self.abs();
        if m == 0.0 {
            return C64::ZERO;
        }
        if self.re >= 0.0 {
            let t = (0.5 * (m + self.re)).sqrt();
            C64::new(t, self.im / (2.0 * t))
        } else {
            let t = (0.5 * (m - self.re)).sqrt();
            C64::new(self.im.abs() / (2.0 * t), if self.im.is_sign_negative() { -t } else { t })
        }
    }
    /// integer power by repeated squaring (negative powers through recip)
    pub fn powi(self, n: i32) -> Self {
        if n < 0 {
            return self.powi(-n).recip();
        }
        let mut base = self;
        let mut e = n as u32;
        let mut acc = C64::ONE;
        while e > 0 {
            if e & 1 == 1 {
                acc = acc * base;
            }
            base = base * base;
            e >>= 1;
        }
        acc
    }
    /// z^w = exp(w ln z), principal branch
    pub fn powc(self, w: C64) -> Self {
        (w * self.ln()).exp()
    }
}

impl Add for C64 {
    type Output = C64;
    #[inline]
    fn add(self, o: C64) -> C64 {
        C64::new(self.re + o.re, self.im + o.im)
    }
}
impl Sub for C64 {
    type Output = C64;
    #[inline]
    fn sub(self, o: C64) -> C64 {
        C64::new(self.re - o.re, self.im - o.im)
    }
}
impl Mul for C64 {
    type Output = C64;
    #[inline]
    fn mul(self, o: C64) -> C64 {
        C64::new(self.re * o.re - self.im * o.im, self.re * o.im + self.im * o.re)
    }
}
impl Div for C64 {
    type Output = C64;
    #[inline]
    fn div(self, b: C64) -> C64 {
        if b.re.abs() >= b.im.abs() {
            let r = b.im / b.re;
            let d = b.re + b.im * r;
            C64::new((self.re + self.im * r) / d, (self.im - self.re * r) / d)
        } else {
            let r = b.re / b.im;
            let d = b.re * r + b.im;
            C64::new((self.re * r + self.im) / d, (self.im * r - self.re) / d)
        }
    }
}
impl Neg for C64 {
    type Output = C64;
    #[inline]
    fn neg(self) -> C64 {
        C64::new(-self.re, -self.im)
    }
}
impl Add<f64> for C64 {
    type Output = C64;
    #[inline]
    fn add(self, o: f64) -> C64 {
        C64::new(self.re + o, self.im)
    }
}
impl Sub<f64> for C64 {
    type Output = C64;
    #[inline]
    fn sub(self, o: f64) -> C64 {
        C64::new(self.re - o, self.im)
    }
}
impl Mul<f64> for C64 {
    type Output = C64;
    #[inline]
    fn mul(self, o: f64) -> C64 {
        C64::new(self.re * o, self.im * o)
    }
}
impl Div<f64> for C64 {
    type Output = C64;
    #[inline]
    fn div(self, o: f64) -> C64 {
        C64::new(self.re / o, self.im / o)
    }
}
impl Add<C64> for f64 {
    type Output = C64;
    #[inline]
    fn add(self, o: C64) -> C64 {
        C64::new(self + o.re, o.im)
    }
}
impl Sub<C64> for f64 {
    type Output = C64;
    #[inline]
    fn sub(self, o: C64) -> C64 {
        C64::new(self - o.re, -o.im)
    }
}
impl Mul<C64> for f64 {
    type Output = C64;
    #[inline]
    fn mul(self, o: C64) -> C64 {
        C64::new(self * o.re, self * o.im)
    }
}
impl Div<C64> for f64 {
    type Output = C64;
    #[inline]
    fn div(self, o: C64) -> C64 {
        C64::real(self) / o
    }
}
impl AddAssign for C64 {
    #[inline]
    fn add_assign(&mut self, o: C64) {
        self.re += o.re;
        self.im += o.im;
    }
}
impl SubAssign for C64 {
    #[inline]
    fn sub_assign(&mut self, o: C64) {
        self.re -= o.re;
        self.im -= o.im;
    }
}
impl MulAssign for C64 {
    #[inline]
    fn mul_assign(&mut self, o: C64) {
        *self = *self * o;
    }
}
impl AddAssign<f64> for C64 {
    #[inline]
    fn add_assign(&mut self, o: f64) {
        self.re += o;
    }
}

/// Approximate equality: |a-b| <= atol + rtol*|b|.
pub fn close(a: C64, b: C64, rtol: f64, atol: f64) -> bool {
    (a - b).abs() <= atol + rtol * b.abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_identities() {
        let a = C64::new(1.5, -2.25);
        let b = C64::new(-0.75, 3.5);
        assert!(close((a / b) * b, a, 1e-15, 0.0));
        assert!(close(a.sqrt() * a.sqrt(), a, 1e-15, 0.0));
        assert!(close(a.ln().exp(), a, 1e-15, 0.0));
        assert!(close(a.powi(5), a * a * a * a * a, 1e-14, 0.0));
        assert!(close(a.powi(-2) * a * a, C64::ONE, 1e-15, 0.0));
        assert!(close(C64::new(-4.0, 0.0).sqrt(), C64::new(0.0, 2.0), 1e-15, 0.0));
        assert!(close(C64::new(-4.0, -0.0).sqrt(), C64::new(0.0, -2.0), 1e-15, 0.0));
    }
}
