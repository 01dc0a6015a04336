//! Quantities counted in half points: Movement Points (a pike costs 1½ MP in rain, GCACW 12.0)
//! and Combat values (a disorganized marker may show ½, GCACW 7.2).

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, Sub};

/// A non-negative quantity in half points (GCACW 7.2: Combat ½ is kept exactly in combat;
/// GCACW 12.0: a pike costs 1½ MP in rain). Arithmetic saturates instead of overflowing, and
/// subtraction stops at zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Half(u16);

impl Half {
    /// Zero.
    pub const ZERO: Half = Half(0);

    /// `n` whole points.
    #[must_use]
    pub const fn whole(n: u16) -> Half {
        Half(n.saturating_mul(2))
    }

    /// `n` half points (`from_halves(3)` is 1½).
    #[must_use]
    pub const fn from_halves(n: u16) -> Half {
        Half(n)
    }

    /// The value in half points.
    #[must_use]
    pub const fn halves(self) -> u16 {
        self.0
    }

    /// Whole points, rounding a ½ up (GCACW 6.2: "11.5" counts as more than 11; GCACW 7.5: a
    /// value between two columns moves up by ½).
    #[must_use]
    pub const fn ceil(self) -> u16 {
        self.0.div_ceil(2)
    }

    /// Whole points, dropping a ½.
    #[must_use]
    pub const fn floor(self) -> u16 {
        self.0 / 2
    }

    /// Whether there is no ½.
    #[must_use]
    pub const fn is_whole(self) -> bool {
        self.0 & 1 == 0
    }
}

impl Add for Half {
    type Output = Half;
    fn add(self, rhs: Half) -> Half {
        Half(self.0.saturating_add(rhs.0))
    }
}

impl Sub for Half {
    type Output = Half;
    /// Saturating: never below zero.
    fn sub(self, rhs: Half) -> Half {
        Half(self.0.saturating_sub(rhs.0))
    }
}

impl Sum for Half {
    fn sum<I: Iterator<Item = Half>>(iter: I) -> Half {
        iter.fold(Half::ZERO, Add::add)
    }
}

impl From<u16> for Half {
    fn from(n: u16) -> Half {
        Half::whole(n)
    }
}

impl fmt::Display for Half {
    /// "3", "½", "1½".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.floor(), self.is_whole()) {
            (n, true) => write!(f, "{n}"),
            (0, false) => f.write_str("½"),
            (n, false) => write!(f, "{n}½"),
        }
    }
}

impl serde::Serialize for Half {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.is_whole() {
            s.serialize_u16(self.floor())
        } else {
            s.serialize_f64(f64::from(self.0) / 2.0)
        }
    }
}

impl<'de> serde::Deserialize<'de> for Half {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Half, D::Error> {
        d.deserialize_any(HalfVisitor)
    }
}

struct HalfVisitor;

const EXPECTED: &str = "a whole or half number of at least 0, such as 2 or 1.5";

impl serde::de::Visitor<'_> for HalfVisitor {
    type Value = Half;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(EXPECTED)
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Half, E> {
        u16::try_from(v)
            .ok()
            .filter(|n| *n <= u16::MAX / 2)
            .map(Half::whole)
            .ok_or_else(|| E::custom(format!("{v} is too large for {EXPECTED}")))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Half, E> {
        match u64::try_from(v) {
            Ok(n) => self.visit_u64(n),
            Err(_) => Err(E::custom(format!("{v} is negative; expected {EXPECTED}"))),
        }
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Half, E> {
        let doubled = v * 2.0;
        if !v.is_finite() || v < 0.0 || doubled.fract() != 0.0 || doubled > f64::from(u16::MAX) {
            return Err(E::custom(format!("{v} is not {EXPECTED}")));
        }
        // Checked above: a whole number in 0..=u16::MAX.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Ok(Half(doubled as u16))
    }
}
