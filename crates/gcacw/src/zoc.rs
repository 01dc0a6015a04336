//! Zones of control (GCACW 2.4, rain effects 12.0).
//!
//! Every military unit, whatever its state, exerts a zone of control into the six hexes around
//! it, except across a river hexside with no crossing, into or out of a swamp or mountain hex
//! with no route across the hexside, and across an all-water hexside. In rain, fords carry no
//! ZOC, nor do creek hexsides without a route (unless either hex is a city). A ZOC exerted across
//! a woods hexside with no route is *restricted*: it does not affect movement.

use caisson_hexmap::{Hex, Hexside, Map, Terrain};

use crate::bridges::Bridges;

/// The strongest enemy zone of control in a hex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Zoc {
    /// None.
    None,
    /// Restricted: across woods hexsides only (GCACW 2.4).
    Restricted,
    /// Normal.
    Normal,
}

/// Whether a unit in `from` exerts a zone of control into the adjacent `into`, and of what kind.
#[must_use]
pub fn exerted(map: &Map, from: Hex, into: Hex, rain: bool) -> Zoc {
    exerted_with(map, &Bridges::default(), from, into, rain, false)
}

/// As [`exerted`], with the bridges as they stand: a destroyed bridge carries ZOC only as a
/// ford does, and a pontoon of either side carries it (GCACW 10.2); `fords_closed` when rivers are
/// unfordable (GCACW 12.0: no ZOC across a hexside a unit cannot cross).
#[must_use]
pub fn exerted_with(map: &Map, bridges: &Bridges, from: Hex, into: Hex, rain: bool, fords_closed: bool) -> Zoc {
    let side = map.hexside(from, into);
    let route = side.intersects(Hexside::ANY_ROUTE);
    if side.contains(Hexside::ALL_WATER) {
        return Zoc::None;
    }
    if side.intersects(Hexside::RIVER) {
        let c = bridges.crossing(map, from, into);
        if !(c.bridge || c.pontoon.is_some() || (!rain && !fords_closed && c.ford)) {
            return Zoc::None;
        }
    }
    let closed = |t: Option<Terrain>| {
        matches!(t, Some(Terrain::Swamp | Terrain::Mountain)) || (rain && t == Some(Terrain::ProvisionalSwamp))
    };
    if !route && (closed(map.terrain(from)) || closed(map.terrain(into))) {
        return Zoc::None;
    }
    if rain
        && side.contains(Hexside::CREEK)
        && !route
        && map.terrain(from) != Some(Terrain::City)
        && map.terrain(into) != Some(Terrain::City)
    {
        return Zoc::None;
    }
    if !route && map.is_woods_hexside(from, into) {
        return Zoc::Restricted;
    }
    Zoc::Normal
}

/// The zone-of-control grid of a set of units (their hexes): the strongest ZOC in each hex,
/// indexed by [`Map::index`].
#[must_use]
pub fn grid(
    map: &Map,
    bridges: &Bridges,
    sources: impl IntoIterator<Item = Hex>,
    rain: bool,
    fords_closed: bool,
) -> Vec<Zoc> {
    let mut g = vec![Zoc::None; map.index_len()];
    for from in sources {
        for (_, n) in map.neighbors(from) {
            if let Some(i) = map.index(n) {
                g[i] = g[i].max(exerted_with(map, bridges, from, n, rain, fords_closed));
            }
        }
    }
    g
}
