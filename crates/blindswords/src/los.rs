//! [SR 9.1a, EX 9.1a] Line of sight: whether a firing unit sees its target clearly, obscured or
//! not at all, and why.
//!
//! The line runs from hex centre to hex centre ([`caisson_hexmap::algorithms::line`]); every hex
//! it touches between the two is an intervening hex, whose single level (EX 2.10a: the whole hex
//! is at its level) and single terrain (SR 9.1a, EX 2.10b) are compared with the firer's level
//! `Lf` and the target's level `Lt` by the three cases of EX 9.1a:
//!
//! | case | intervening level `Lh` | effect |
//! |---|---|---|
//! | same level `L` | `Lh > L` | Blocked (i) |
//! | | `Lh = L` | woods, Perryville or a unit: Blocked (iii) |
//! | | `Lh < L` | woods or Perryville: Obscured (ii); a unit: Obscured (ruling A-14a) |
//! | firing up | `Lh > Lt` | Blocked (i) |
//! | | `Lh = Lt` | Blocked (iv) |
//! | | `Lf ≤ Lh < Lt` | woods, Perryville or a unit: Obscured (iii) |
//! | | `Lh < Lf` | woods, Perryville or a unit: Obscured (ii) |
//! | firing down | `Lh > Lf` | Blocked (i) |
//! | | `Lh = Lf` | Blocked (iii) |
//! | | `Lt ≤ Lh < Lf` | woods or a unit: Obscured (iv); Perryville too (ruling A-14b) |
//! | | `Lh < Lt` | woods, Perryville or a unit: Obscured (ii) |
//!
//! Each intervening hex is judged on its own (ruling PM8: "if all intervening hexes are lower"
//! is read hex by hex). Besides: the firer's own hex never counts (SR 9.1a); a target in woods is
//! always Obscured (EX 9.1a), adjacent or not; a line running exactly along a hexside takes the
//! more restrictive of the two hexes (EX 9.1a); Blocked and Obscured together are Blocked. Corn
//! fields are no obstacle (EX 2.10f, ruling A-60), and slopes and fences act only through
//! the levels of the hexes (ruling PM9). Whether units may fire *over* the units the line passes
//! (SR 9.1b) is fire combat's question: [`Los::over_units`] lists those hexes for it.

use std::fmt;

use caisson_hexmap::algorithms::{line, LineStep};
use caisson_hexmap::{Hex, Map, MapError, TacticalTerrain};

/// How well the firer sees the target (EX 9.1a), ordered from best to worst.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Sight {
    /// Nothing in the way.
    Clear,
    /// Fire is allowed with a detrimental column shift (EX 9.3 shift vii).
    Obscured,
    /// Fire is prohibited.
    Blocked,
}

impl fmt::Display for Sight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Sight::Clear => "clear",
            Sight::Obscured => "obscured",
            Sight::Blocked => "blocked",
        })
    }
}

/// One hex that obscures or blocks the line, with the rule that says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    /// The hex (the target's own hex for "target in woods").
    pub hex: Hex,
    /// What it does to the line.
    pub sight: Sight,
    /// The rule, e.g. `EX 9.1a firing up iv`.
    pub rule: &'static str,
    /// What about the hex, in words: "level 2, the target's level".
    pub detail: String,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} by {}: {} [{}]", self.sight, self.hex, self.detail, self.rule)
    }
}

/// The line of sight from a firing hex to a target hex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Los {
    /// The worst effect of any reason (Clear when there is none).
    pub sight: Sight,
    /// Every hex that obscures or blocks, in order along the line.
    pub reasons: Vec<Reason>,
    /// Intervening hexes holding units that did not block: the line passes over them (SR 9.1b
    /// says who may fire over whom).
    pub over_units: Vec<Hex>,
    /// The line itself, both ends included.
    pub line: Vec<LineStep>,
}

/// How the firer's and target's levels compare: the three cases of EX 9.1a.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Case {
    Same,
    Up,
    Down,
}

/// The line of sight from `from` to `to` on `map`; `occupied(h)` says whether any unit, friendly
/// or enemy, is in hex `h` (only intervening hexes are asked).
///
/// # Errors
/// Either hex is not a playable hex of the map.
pub fn line_of_sight(map: &Map, from: Hex, to: Hex, occupied: impl Fn(Hex) -> bool) -> Result<Los, MapError> {
    for h in [from, to] {
        if !map.contains(h) {
            return Err(MapError::OffMap(h));
        }
    }
    let lf = map.elevation(from).unwrap_or(0);
    let lt = map.elevation(to).unwrap_or(0);
    let steps = line(map.parity(), from, to);
    let mut reasons = Vec::new();
    let mut over_units = Vec::new();
    for step in &steps {
        let found = match *step {
            LineStep::Hex(h) if h == from || h == to => None,
            LineStep::Hex(h) => judge(map, h, lf, lt, &occupied).map(|r| (r, None)),
            LineStep::Hexside(a, b) => {
                // EX 9.1a: along a hexside, the more restrictive of the two hexes.
                let (ra, rb) = (judge(map, a, lf, lt, &occupied), judge(map, b, lf, lt, &occupied));
                let worse = match (ra, rb) {
                    (Some(x), Some(y)) => Some(if y.sight > x.sight { y } else { x }),
                    (x, y) => x.or(y),
                };
                worse.map(|r| {
                    let other = if r.hex == a { b } else { a };
                    (r, Some(other))
                })
            }
        };
        if let Some((mut r, other)) = found {
            if let Some(other) = other {
                r.rule = "EX 9.1a (along a hexside: the more restrictive hex)";
                r.detail = format!("{}; the line runs along its hexside with {other}", r.detail);
            }
            reasons.push(r);
        }
        for h in step.hexes() {
            if h != from && h != to && occupied(h) && !reasons.iter().any(|r| r.hex == h && r.sight == Sight::Blocked) {
                over_units.push(h);
            }
        }
    }
    if map.tactical(to) == Some(TacticalTerrain::Woods) {
        reasons.push(Reason {
            hex: to,
            sight: Sight::Obscured,
            rule: "EX 9.1a (target in woods)",
            detail: "the target is in a woods hex".to_string(),
        });
    }
    let sight = reasons.iter().map(|r| r.sight).max().unwrap_or(Sight::Clear);
    Ok(Los { sight, reasons, over_units, line: steps })
}

/// What one intervening hex does to a line from level `lf` to level `lt`.
fn judge(map: &Map, h: Hex, lf: u8, lt: u8, occupied: &impl Fn(Hex) -> bool) -> Option<Reason> {
    let lh = map.elevation(h).unwrap_or(0);
    let terrain = map.tactical(h);
    let woods = terrain == Some(TacticalTerrain::Woods);
    let town = terrain == Some(TacticalTerrain::Town);
    let unit = occupied(h);
    let case = match lf.cmp(&lt) {
        std::cmp::Ordering::Equal => Case::Same,
        std::cmp::Ordering::Less => Case::Up,
        std::cmp::Ordering::Greater => Case::Down,
    };
    let what = || {
        let mut v = Vec::new();
        if woods {
            v.push("woods");
        }
        if town {
            v.push("Perryville");
        }
        if unit {
            v.push("a unit");
        }
        v.join(" and ")
    };
    let reason = |sight, rule, detail: String| Some(Reason { hex: h, sight, rule, detail });
    let obstacle = woods || town || unit;
    match case {
        Case::Same if lh > lf => {
            reason(Sight::Blocked, "EX 9.1a same level i", format!("level {lh}, higher than both units (level {lf})"))
        }
        Case::Same if lh == lf && obstacle => reason(
            Sight::Blocked,
            "EX 9.1a same level iii",
            format!("{} at level {lh}, the level of both units", what()),
        ),
        Case::Same if lh < lf && (woods || town) => {
            reason(Sight::Obscured, "EX 9.1a same level ii", format!("{} at level {lh}, lower than both units", what()))
        }
        Case::Same if lh < lf && unit => reason(
            Sight::Obscured,
            "EX 9.1a same level ii, ruling A-14a",
            format!("a unit at level {lh}, lower than both units"),
        ),
        Case::Up if lh > lt => {
            reason(Sight::Blocked, "EX 9.1a firing up i", format!("level {lh}, higher than both units ({lf}, {lt})"))
        }
        Case::Up if lh == lt => {
            reason(Sight::Blocked, "EX 9.1a firing up iv", format!("level {lh}, the target's level"))
        }
        Case::Up if lh >= lf && obstacle => reason(
            Sight::Obscured,
            "EX 9.1a firing up iii",
            format!("{} at level {lh}, from the firer's level {lf} up to below the target's {lt}", what()),
        ),
        Case::Up if obstacle => {
            reason(Sight::Obscured, "EX 9.1a firing up ii", format!("{} at level {lh}, lower than both units", what()))
        }
        Case::Down if lh > lf => {
            reason(Sight::Blocked, "EX 9.1a firing down i", format!("level {lh}, higher than both units ({lf}, {lt})"))
        }
        Case::Down if lh == lf => {
            reason(Sight::Blocked, "EX 9.1a firing down iii", format!("level {lh}, the firer's level"))
        }
        Case::Down if lh >= lt && (woods || unit) => reason(
            Sight::Obscured,
            "EX 9.1a firing down iv",
            format!("{} at level {lh}, from the target's level {lt} up to below the firer's {lf}", what()),
        ),
        Case::Down if lh >= lt && town => reason(
            Sight::Obscured,
            "EX 9.1a firing down iv, ruling A-14b",
            format!("Perryville at level {lh}, from the target's level {lt} up to below the firer's {lf}"),
        ),
        Case::Down if obstacle => reason(
            Sight::Obscured,
            "EX 9.1a firing down ii",
            format!("{} at level {lh}, lower than both units", what()),
        ),
        _ => None,
    }
}
