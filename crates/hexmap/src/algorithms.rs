//! Search over a map: hexes within a path length, least-cost movement, and the hexes a straight
//! line between two hex centres passes through (for line of sight).
//!
//! Like hexx's `field_of_movement`, the searches take closures for costs and permissions, so the
//! rules decide what a step costs and this crate only walks the grid.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::hex::{Hex, Parity};
use crate::map::Map;

/// One step of a straight line from hex centre to hex centre ([`line`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineStep {
    /// The line passes through this hex.
    Hex(Hex),
    /// The line runs exactly along the hexside between these two adjacent hexes, touching both
    /// (Blind Swords EX 9.1a: such a line is affected by the more restrictive of the two).
    Hexside(Hex, Hex),
}

impl LineStep {
    /// The hexes of the step: one, or the two of a hexside.
    #[must_use]
    pub fn hexes(self) -> Vec<Hex> {
        match self {
            LineStep::Hex(h) => vec![h],
            LineStep::Hexside(a, b) => vec![a, b],
        }
    }
}

/// The hexes a straight line from the centre of `from` to the centre of `to` touches, in order,
/// both ends included (a supercover: every hex whose inside the segment crosses).
///
/// Hex borders lie where one of the three cube differences `x − y`, `y − z`, `z − x` takes an
/// integer value, so the segment is cut at every such crossing; inside each piece the hex does
/// not change and is found by rounding the piece's midpoint. The midpoint is rounded twice, with
/// the line nudged a hair to either side: where the two disagree the piece runs exactly along the
/// hexside between them (only in the six directions between hex rows), reported as
/// [`LineStep::Hexside`]. A line through a corner where three hexes meet touches the third hex at
/// a single point only, and that hex is not listed. Geometry is the same whatever the
/// orientation; the parity only says how printed ids map to axial ones.
#[must_use]
pub fn line(parity: Parity, from: Hex, to: Hex) -> Vec<LineStep> {
    let (q0, r0) = parity.axial(from);
    let (q1, r1) = parity.axial(to);
    let (dq, dr) = (i32::from(q1 - q0), i32::from(r1 - r0));
    let (q0, r0) = (i32::from(q0), i32::from(r0));
    // The three cube differences at the start, and their change along the segment.
    let starts = [2 * q0 + r0, -q0 - 2 * r0, r0 - q0];
    let deltas = [2 * dq + dr, -dq - 2 * dr, dr - dq];
    let mut cuts = vec![0.0, 1.0];
    for (s, d) in starts.into_iter().zip(deltas) {
        let (lo, hi) = if d > 0 { (s, s + d) } else { (s + d, s) };
        for k in lo + 1..hi {
            cuts.push(f64::from(k - s) / f64::from(d));
        }
    }
    cuts.sort_by(f64::total_cmp);
    let at = |t: f64, sign: f64| {
        const NUDGE: (f64, f64) = (1e-7, 2e-7);
        round_axial(
            parity,
            f64::from(q0) + f64::from(dq) * t + NUDGE.0 * sign,
            f64::from(r0) + f64::from(dr) * t + NUDGE.1 * sign,
        )
    };
    let mut out = vec![LineStep::Hex(from)];
    for pair in cuts.windows(2) {
        let &[t0, t1] = pair else { continue };
        if t1 - t0 < 1e-9 {
            continue;
        }
        let mid = (t0 + t1) / 2.0;
        let (a, b) = (at(mid, 1.0), at(mid, -1.0));
        let step = if a == b { LineStep::Hex(a) } else { LineStep::Hexside(a.min(b), a.max(b)) };
        if out.last() != Some(&step) {
            out.push(step);
        }
    }
    if out.last() != Some(&LineStep::Hex(to)) {
        out.push(LineStep::Hex(to));
    }
    out
}

/// The hex containing the axial point `(q, r)` (cube rounding).
fn round_axial(parity: Parity, q: f64, r: f64) -> Hex {
    let s = -q - r;
    let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    // Rounded values of map-sized coordinates fit in i16.
    #[allow(clippy::cast_possible_truncation)]
    parity.from_axial(rq as i16, rr as i16)
}

/// Hexes reachable from `start` by a path of at most `radius` steps, where every hex entered
/// after `start` satisfies `enter` (used for command radius, GCACW 2.5, and leader transfers,
/// GCACW 6.3). A hex that fails `enter` is neither reached nor passed through. Returns each hex
/// with its path length; `start` comes first at 0.
pub fn within(map: &Map, start: Hex, radius: u16, mut enter: impl FnMut(Hex) -> bool) -> Vec<(Hex, u16)> {
    let mut seen = vec![false; map.index_len()];
    let Some(si) = map.index(start) else { return Vec::new() };
    // At most the hexes of a full disc of `radius` (3r(r+1)+1), allocated once.
    let disc = (3 * usize::from(radius) * (usize::from(radius) + 1) + 1).min(map.index_len());
    let mut out = Vec::with_capacity(disc);
    seen[si] = true;
    let mut queue = VecDeque::with_capacity(disc);
    queue.push_back((start, 0u16));
    while let Some((hex, d)) = queue.pop_front() {
        out.push((hex, d));
        if d == radius {
            continue;
        }
        for (_, n) in map.neighbors(hex) {
            let Some(ni) = map.index(n) else { continue };
            if !seen[ni] && enter(n) {
                seen[ni] = true;
                queue.push_back((n, d + 1));
            }
        }
    }
    out
}

/// What one step of a move costs, as the rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Cost of the step, in the caller's units.
    pub cost: u32,
    /// Whether the move must stop in the hex entered (e.g. on entering an enemy zone of control).
    pub stop: bool,
}

/// The cheapest cost to every hex reachable from `start` within `budget`, by Dijkstra's
/// algorithm. `step(from, to)` says what entering `to` from `from` costs, or `None` if the step
/// is forbidden. Hexes where a step said `stop` are reached but not left. Returns a dense array
/// over [`Map::index`]: `Some(cost)` for reached hexes.
pub fn reachable(
    map: &Map,
    start: Hex,
    budget: u32,
    mut step: impl FnMut(Hex, Hex) -> Option<Step>,
) -> Vec<Option<u32>> {
    let mut best: Vec<Option<u32>> = vec![None; map.index_len()];
    let mut stopped = vec![false; map.index_len()];
    let Some(si) = map.index(start) else { return best };
    best[si] = Some(0);
    let mut heap = BinaryHeap::from([Reverse((0u32, si))]);
    while let Some(Reverse((cost, i))) = heap.pop() {
        if best[i] != Some(cost) || stopped[i] {
            continue;
        }
        let hex = map.hex_at(i);
        for (_, n) in map.neighbors(hex) {
            let Some(s) = step(hex, n) else { continue };
            let c = cost + s.cost;
            if c > budget {
                continue;
            }
            let Some(ni) = map.index(n) else { continue };
            if best[ni].is_none_or(|b| c < b) {
                best[ni] = Some(c);
                stopped[ni] = s.stop;
                heap.push(Reverse((c, ni)));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terrain::Terrain;

    fn open(cols: i16, rows: i16) -> Map {
        let mut m = Map::new("t", "t", (1, cols), rows, rows);
        for c in 1..=cols {
            for r in 1..=rows {
                m.set_terrain(Hex::new(c, r), Terrain::Clear).expect("grid");
            }
        }
        m
    }

    fn h(s: &str) -> Hex {
        s.parse().expect("test hex")
    }

    #[test]
    fn lines_along_a_column_and_along_hexsides() {
        let p = Parity::OddQ;
        let col: Vec<LineStep> = line(p, h("2620"), h("2623"));
        assert_eq!(col, ["2620", "2621", "2622", "2623"].map(|x| LineStep::Hex(h(x))));
        // 2420 to 2620 runs along the hexside between 2519 and 2520 (column 25 is the lower one).
        let side = line(p, h("2420"), h("2620"));
        assert_eq!(side.len(), 3);
        assert_eq!(side[0], LineStep::Hex(h("2420")));
        assert_eq!(side[1], LineStep::Hexside(h("2519"), h("2520")));
        assert_eq!(line(p, h("2420"), h("2420")), vec![LineStep::Hex(h("2420"))]);
    }

    #[test]
    fn within_counts_path_length_and_respects_blocks() {
        let m = open(9, 9);
        let c = Hex::new(5, 5);
        let all = within(&m, c, 3, |_| true);
        assert_eq!(all.len(), 1 + 6 + 12 + 18);
        assert!(all.iter().all(|(h, d)| h.distance(c) == *d));
        // A ring of blocked hexes at distance 1 leaves only the start.
        let walled = within(&m, c, 3, |h| h.distance(c) != 1);
        assert_eq!(walled, vec![(c, 0)]);
    }

    #[test]
    fn reachable_finds_cheapest_costs_and_stops() {
        let m = open(9, 9);
        let c = Hex::new(5, 5);
        let costs = reachable(&m, c, 4, |_, _| Some(Step { cost: 2, stop: false }));
        for h in m.hexes() {
            let got = costs[m.index(h).expect("idx")];
            let d = h.distance(c);
            assert_eq!(got, (d <= 2).then_some(u32::from(d) * 2), "{h}");
        }
        let stopping = reachable(&m, c, 10, |_, _| Some(Step { cost: 1, stop: true }));
        assert_eq!(stopping.iter().flatten().count(), 7);
    }
}

#[cfg(test)]
mod line_properties {
    use super::*;
    use proptest::prelude::*;

    fn hex() -> impl Strategy<Value = Hex> {
        (10i16..=40, 0i16..=40).prop_map(|(c, r)| Hex::new(c, r))
    }

    fn parity() -> impl Strategy<Value = Parity> {
        prop_oneof![Just(Parity::EvenQ), Just(Parity::OddQ)]
    }

    fn adjacent(p: Parity, a: Hex, b: Hex) -> bool {
        p.distance(a, b) == 1
    }

    proptest! {
        /// Ends are the two hexes, there are at least distance + 1 steps, and every step touches
        /// the previous one.
        #[test]
        fn a_line_is_a_connected_chain(p in parity(), a in hex(), b in hex()) {
            let l = line(p, a, b);
            prop_assert!(l.len() > usize::from(p.distance(a, b)));
            prop_assert_eq!(l.first(), Some(&LineStep::Hex(a)));
            prop_assert_eq!(l.last(), Some(&LineStep::Hex(b)));
            for pair in l.windows(2) {
                for x in pair[0].hexes() {
                    for y in pair[1].hexes() {
                        prop_assert!(adjacent(p, x, y), "{x} and {y} in {l:?}");
                    }
                }
                if let LineStep::Hexside(x, y) = pair[1] {
                    prop_assert!(adjacent(p, x, y));
                }
            }
            // No step goes back towards the start.
            let d: Vec<u16> = l.iter().map(|s| s.hexes().iter().map(|&x| p.distance(a, x)).max().unwrap_or(0)).collect();
            prop_assert!(d.windows(2).all(|w| w[0] <= w[1]), "{l:?}");
        }

        /// The line back is the same line reversed.
        #[test]
        fn a_line_is_symmetric(p in parity(), a in hex(), b in hex()) {
            let fwd = line(p, a, b);
            let mut back = line(p, b, a);
            back.reverse();
            prop_assert_eq!(fwd, back);
        }

        /// Dense sampling of the segment finds no hex the line misses.
        #[test]
        fn no_hex_the_segment_crosses_is_missed(p in parity(), a in hex(), b in hex()) {
            let l = line(p, a, b);
            let all: Vec<Hex> = l.iter().flat_map(|s| s.hexes()).collect();
            let (q0, r0) = p.axial(a);
            let (q1, r1) = p.axial(b);
            let steps = 64 * u32::from(p.distance(a, b).max(1));
            for k in 0..=steps {
                let t = f64::from(k) / f64::from(steps);
                let q = f64::from(q0) + f64::from(q1 - q0) * t;
                let r = f64::from(r0) + f64::from(r1 - r0) * t;
                let x = round_axial(p, q, r);
                prop_assert!(all.contains(&x), "{x} at t={t} not in {l:?}");
            }
        }

        /// Hexside steps appear only on lines in the six directions between hex rows.
        #[test]
        fn hexside_steps_only_between_rows(p in parity(), a in hex(), b in hex()) {
            let (q0, r0) = p.axial(a);
            let (q1, r1) = p.axial(b);
            let (dq, dr) = (q1 - q0, r1 - r0);
            let ds = -dq - dr;
            let between_rows = dq == dr || dr == ds || ds == dq;
            let any_side = line(p, a, b).iter().any(|s| matches!(s, LineStep::Hexside(..)));
            prop_assert_eq!(any_side, between_rows && (dq, dr) != (0, 0));
        }
    }
}
