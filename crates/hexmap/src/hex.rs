//! Hex coordinates: printed ids, offset and axial forms, neighbours and distance.
//!
//! Maps number hexes `XXYY`: `XX` is the column, `YY` the position in it. Which columns sit half
//! a hex further along `YY` is the grid's [`Parity`]. HSN is "even-q": even columns sit half a hex
//! further along `YY` than odd ones (HSN digest §6.1, checked against the rulebook's combat
//! example, where 4510 is south-west of 4610 and a rout of four hexes from 4610 ends in 4908).
//! Perryville is "odd-q" (Blind Swords digest §6.1, EX 2.10n: 2316 neighbours both 2216 and
//! 2217). Geometry is computed in axial coordinates, where distance and direction are plain
//! arithmetic. The methods of [`Hex`] itself assume even-q; code for a map of another parity goes
//! through [`Parity`] (or the [`crate::Map`] methods, which use the map's parity).

use std::fmt;
use std::str::FromStr;

/// One hex, by printed column and row. Ordering is column-major, like the printed ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hex {
    /// Printed column (`XX`).
    pub col: i16,
    /// Printed row within the column (`YY`).
    pub row: i16,
}

/// One of the six directions from a hex to a neighbour, `0..6`. Direction `d` and `d + 3` are
/// opposite. In axial terms the steps are `(+1,0) (+1,-1) (0,-1) (-1,0) (-1,+1) (0,+1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Direction(u8);

const AXIAL_STEPS: [(i16, i16); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

impl Direction {
    /// All six directions in order.
    pub const ALL: [Direction; 6] =
        [Direction(0), Direction(1), Direction(2), Direction(3), Direction(4), Direction(5)];

    /// The direction with this index (taken modulo 6).
    #[must_use]
    pub const fn new(index: u8) -> Direction {
        Direction(index % 6)
    }

    /// The index `0..6`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The opposite direction.
    #[must_use]
    pub const fn opposite(self) -> Direction {
        Direction((self.0 + 3) % 6)
    }
}

/// Which columns of a grid sit half a hex further along their rows (towards higher `YY`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Parity {
    /// Even columns sit half a hex further (GCACW's HSN map).
    #[default]
    EvenQ,
    /// Odd columns sit half a hex further (Perryville: odd columns are half a hex further south).
    OddQ,
}

impl Parity {
    /// The map-file word.
    #[must_use]
    pub const fn word(self) -> &'static str {
        match self {
            Parity::EvenQ => "even-q",
            Parity::OddQ => "odd-q",
        }
    }

    /// Whether `col` is one of the columns set half a hex further along its rows.
    #[must_use]
    pub const fn shifted(self, col: i16) -> bool {
        let odd = col & 1 == 1;
        match self {
            Parity::EvenQ => !odd,
            Parity::OddQ => odd,
        }
    }

    /// Axial coordinates `(q, r)` of a hex.
    #[must_use]
    pub const fn axial(self, hex: Hex) -> (i16, i16) {
        match self {
            Parity::EvenQ => hex.axial(),
            Parity::OddQ => (hex.col, hex.row - (hex.col - (hex.col & 1)) / 2),
        }
    }

    /// The hex at axial coordinates `(q, r)`.
    #[must_use]
    pub const fn from_axial(self, q: i16, r: i16) -> Hex {
        match self {
            Parity::EvenQ => Hex::from_axial(q, r),
            Parity::OddQ => Hex { col: q, row: r + (q - (q & 1)) / 2 },
        }
    }

    /// The neighbour of `hex` in direction `d` (it may be off the map).
    #[must_use]
    pub const fn neighbor(self, hex: Hex, d: Direction) -> Hex {
        let (q, r) = self.axial(hex);
        let (dq, dr) = AXIAL_STEPS[d.index()];
        self.from_axial(q + dq, r + dr)
    }

    /// The six neighbours of `hex`, in direction order.
    pub fn neighbors(self, hex: Hex) -> impl Iterator<Item = (Direction, Hex)> {
        Direction::ALL.into_iter().map(move |d| (d, self.neighbor(hex, d)))
    }

    /// The direction from `a` to `b`, if they are adjacent.
    #[must_use]
    pub fn direction(self, a: Hex, b: Hex) -> Option<Direction> {
        Direction::ALL.into_iter().find(|&d| self.neighbor(a, d) == b)
    }

    /// Hex distance between two hexes, whatever the terrain.
    #[must_use]
    pub const fn distance(self, a: Hex, b: Hex) -> u16 {
        let (q1, r1) = self.axial(a);
        let (q2, r2) = self.axial(b);
        axial_distance(q1 - q2, r1 - r2)
    }
}

const fn axial_distance(dq: i16, dr: i16) -> u16 {
    let (a, b, c) = (dq.unsigned_abs(), dr.unsigned_abs(), (dq + dr).unsigned_abs());
    let m = if a > b { a } else { b };
    if m > c {
        m
    } else {
        c
    }
}

impl Hex {
    /// A hex from its printed column and row.
    #[must_use]
    pub const fn new(col: i16, row: i16) -> Hex {
        Hex { col, row }
    }

    /// Axial coordinates `(q, r)` of this hex (even-q offset layout; see [`Parity::axial`]).
    #[must_use]
    pub const fn axial(self) -> (i16, i16) {
        let q = self.col;
        let r = self.row - (self.col + (self.col & 1)) / 2;
        (q, r)
    }

    /// The hex at axial coordinates `(q, r)`.
    #[must_use]
    pub const fn from_axial(q: i16, r: i16) -> Hex {
        Hex { col: q, row: r + (q + (q & 1)) / 2 }
    }

    /// The neighbour in direction `d` (it may be off the map).
    #[must_use]
    pub const fn neighbor(self, d: Direction) -> Hex {
        let (q, r) = self.axial();
        let (dq, dr) = AXIAL_STEPS[d.index()];
        Hex::from_axial(q + dq, r + dr)
    }

    /// The six neighbours, in direction order.
    pub fn neighbors(self) -> impl Iterator<Item = (Direction, Hex)> {
        Direction::ALL.into_iter().map(move |d| (d, self.neighbor(d)))
    }

    /// The direction from this hex to `other`, if they are adjacent.
    #[must_use]
    pub fn direction_to(self, other: Hex) -> Option<Direction> {
        Direction::ALL.into_iter().find(|&d| self.neighbor(d) == other)
    }

    /// Hex distance on an even-q grid: the fewest steps between two hexes, whatever the terrain.
    #[must_use]
    pub fn distance(self, other: Hex) -> u16 {
        Parity::EvenQ.distance(self, other)
    }
}

impl fmt::Display for Hex {
    /// The printed id, `XXYY`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}{:02}", self.col, self.row)
    }
}

/// Why a hex id did not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a hex id: expected four digits XXYY, e.g. 0511")]
pub struct HexParseError(pub String);

impl FromStr for Hex {
    type Err = HexParseError;

    fn from_str(s: &str) -> Result<Hex, HexParseError> {
        let bad = || HexParseError(s.to_string());
        if s.len() != 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let col = s[..2].parse().map_err(|_| bad())?;
        let row = s[2..].parse().map_err(|_| bad())?;
        Ok(Hex { col, row })
    }
}

impl serde::Serialize for Hex {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Hex {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Hex, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A hex range written `XXYY-XXYY`: every hex whose column and row both lie between the two
/// corners (inclusive), or a single hex `XXYY`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HexRange {
    /// First corner.
    pub from: Hex,
    /// Second corner.
    pub to: Hex,
}

impl HexRange {
    /// Whether `hex` lies in the range.
    #[must_use]
    pub fn contains(&self, hex: Hex) -> bool {
        let (c0, c1) = (self.from.col.min(self.to.col), self.from.col.max(self.to.col));
        let (r0, r1) = (self.from.row.min(self.to.row), self.from.row.max(self.to.row));
        (c0..=c1).contains(&hex.col) && (r0..=r1).contains(&hex.row)
    }

    /// The hexes of the range, column by column (some may be off the map).
    pub fn hexes(&self) -> impl Iterator<Item = Hex> {
        let (c0, c1) = (self.from.col.min(self.to.col), self.from.col.max(self.to.col));
        let (r0, r1) = (self.from.row.min(self.to.row), self.from.row.max(self.to.row));
        (c0..=c1).flat_map(move |c| (r0..=r1).map(move |r| Hex::new(c, r)))
    }
}

impl FromStr for HexRange {
    type Err = HexParseError;

    fn from_str(s: &str) -> Result<HexRange, HexParseError> {
        match s.split_once('-') {
            Some((a, b)) => Ok(HexRange { from: a.trim().parse()?, to: b.trim().parse()? }),
            None => {
                let h: Hex = s.trim().parse()?;
                Ok(HexRange { from: h, to: h })
            }
        }
    }
}

impl fmt::Display for HexRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.from == self.to {
            write!(f, "{}", self.from)
        } else {
            write!(f, "{}-{}", self.from, self.to)
        }
    }
}

impl<'de> serde::Deserialize<'de> for HexRange {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<HexRange, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl serde::Serialize for HexRange {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> Hex {
        s.parse().expect("test hex id")
    }

    /// HSN digest T27, from the rulebook's combat example geometry.
    #[test]
    fn neighbours_of_4610_and_5707() {
        let mut n: Vec<String> = h("4610").neighbors().map(|(_, x)| x.to_string()).collect();
        n.sort();
        assert_eq!(n, ["4510", "4511", "4609", "4611", "4710", "4711"]);
        let n: Vec<Hex> = h("5707").neighbors().map(|(_, x)| x).collect();
        for want in ["5806", "5807", "5606", "5607", "5706", "5708"] {
            assert!(n.contains(&h(want)), "{want} should neighbour 5707");
        }
    }

    #[test]
    fn distances_from_the_rulebook_examples() {
        assert_eq!(h("4610").distance(h("4908")), 4);
        assert_eq!(h("4611").distance(h("4908")), 5);
        assert_eq!(h("5609").distance(h("5707")), 3);
        assert_eq!(h("5609").distance(h("5706")), 4);
    }

    #[test]
    fn ids_round_trip_and_bad_ids_are_refused() {
        assert_eq!(h("0511").to_string(), "0511");
        assert!("511".parse::<Hex>().is_err());
        assert!("05a1".parse::<Hex>().is_err());
        let r: HexRange = "0101-0120".parse().expect("range");
        assert!(r.contains(h("0115")) && !r.contains(h("0121")));
        assert_eq!(r.hexes().count(), 20);
    }

    /// Blind Swords digest §6.1 and EX 2.10n: on Perryville's odd-q grid 2316 neighbours both 2216
    /// and 2217, and 1612 neighbours 1712 (the EX 2.10a elevation examples).
    #[test]
    fn odd_q_neighbours_follow_the_perryville_examples() {
        let p = Parity::OddQ;
        let n: Vec<Hex> = p.neighbors(h("2316")).map(|(_, x)| x).collect();
        for want in ["2216", "2217", "2315", "2317", "2416", "2417"] {
            assert!(n.contains(&h(want)), "{want} should neighbour 2316");
        }
        let n: Vec<Hex> = p.neighbors(h("2216")).map(|(_, x)| x).collect();
        for want in ["2115", "2116", "2315", "2316", "2215", "2217"] {
            assert!(n.contains(&h(want)), "{want} should neighbour 2216");
        }
        assert_eq!(p.distance(h("1612"), h("1712")), 1);
        assert_eq!(p.distance(h("1611"), h("1813")), 3);
        assert_eq!(p.distance(h("2216"), h("2218")), 2);
        // Even-q disagrees: there 2316 neighbours 2315 and 2316 of column 22.
        assert_eq!(Parity::EvenQ.distance(h("2316"), h("2217")), 2);
        for hex in [h("2316"), h("1000"), h("4040"), h("1712")] {
            let (q, r) = p.axial(hex);
            assert_eq!(p.from_axial(q, r), hex);
            for (d, b) in p.neighbors(hex) {
                assert_eq!(p.neighbor(b, d.opposite()), hex);
                assert_eq!(p.direction(hex, b), Some(d));
            }
        }
    }

    #[test]
    fn direction_and_opposite_agree() {
        let a = h("3012");
        for (d, b) in a.neighbors() {
            assert_eq!(b.neighbor(d.opposite()), a);
            assert_eq!(a.direction_to(b), Some(d));
            assert_eq!(a.distance(b), 1);
        }
    }
}
