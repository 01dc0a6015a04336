//! Search over a map: hexes within a path length, and least-cost movement.
//!
//! Like hexx's `field_of_movement`, the searches take closures for costs and permissions, so the
//! rules decide what a step costs and this crate only walks the grid.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::hex::Hex;
use crate::map::Map;

/// Hexes reachable from `start` by a path of at most `radius` steps, where every hex entered
/// after `start` satisfies `enter` (used for command radius, GCACW 2.5, and leader transfers,
/// GCACW 6.3). A hex that fails `enter` is neither reached nor passed through. Returns each hex
/// with its path length; `start` comes first at 0.
pub fn within(map: &Map, start: Hex, radius: u16, mut enter: impl FnMut(Hex) -> bool) -> Vec<(Hex, u16)> {
    let mut seen = vec![false; map.index_len()];
    let mut out = Vec::new();
    let Some(si) = map.index(start) else { return out };
    seen[si] = true;
    let mut queue = VecDeque::from([(start, 0u16)]);
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
