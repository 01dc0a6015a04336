//! Who may attack what (GCACW 7.1 Attack Restrictions; 12.0 rain; HSN-B 2.2, 10.0; HSN-A 8.0).

use caisson_hexmap::{Hex, Hexside, Terrain};

use crate::rules::Gcacw;
use crate::state::State;
use crate::Side;

use super::values::{fort_values, is_wagon};
use super::Forts;

/// Why a unit of `side` in `from` may not attack into the adjacent `target` because of the map,
/// the weather or a scenario, or `None` if it may (GCACW 7.1, 12.0):
///
/// - not across a major or minor river unless a standing bridge, an own pontoon bridge or a ford
///   joins the hexes (a destroyed bridge is a ford; an enemy pontoon may not be attacked across,
///   GCACW 10.2); in rain, or while a scenario makes rivers unfordable (HSN Sc 7 Turn 3,
///   [`super::unfordable`]), not across a ford or destroyed bridge (GCACW 12.0);
/// - not into or out of a mountain or swamp hex (provisional swamp in rain) unless a road, pike,
///   railroad or trail joins the hexes;
/// - across a woods hexside only if the unit started the action in `from` (`started_here`) or a
///   road, pike, railroad or trail joins the hexes;
/// - in rain, not across a creek hexside without a road, pike, railroad or trail unless one of
///   the hexes is a city;
/// - not into a hex the scenario forbids the side to attack into (HSN Sc 4 and 6) or that is off
///   the map for it (HSN-B 10.0: 5805 and 5806 for the Confederates);
/// - ruling: not across an all-water hexside, which nothing crosses.
///
/// Unit-level restrictions (wagons, a unit that may not attack alone) are in [`unit_restriction`].
#[must_use]
pub fn attack_restriction(
    rules: &Gcacw,
    state: &State,
    side: Side,
    from: Hex,
    target: Hex,
    started_here: bool,
) -> Option<String> {
    let map = rules.map();
    let rain = state.rain;
    if from.distance(target) != 1 || !map.contains(target) {
        return Some(format!("{target} is not next to {from}"));
    }
    if rules.prohibited_on(side, target, state.turn) {
        return Some(format!("{side} units may not attack into {target} in this scenario (or it is off their map)"));
    }
    let hs = map.hexside(from, target);
    let route = hs.intersects(Hexside::ANY_ROUTE);
    if hs.contains(Hexside::ALL_WATER) {
        return Some("no attack across an all-water hexside".into());
    }
    if hs.intersects(Hexside::RIVER) {
        let c = state.bridges.crossing(map, from, target);
        let own_pontoon = c.pontoon.is_some_and(|(owner, _)| owner == side);
        if !c.bridge && !own_pontoon && !c.ford {
            return Some(if c.pontoon.is_some() {
                "no attack across an enemy pontoon bridge (GCACW 10.2)".into()
            } else {
                "no attack across a river without a bridge or ford (GCACW 7.1)".into()
            });
        }
        if !c.bridge && !own_pontoon && rain {
            return Some("no attack across a ford or destroyed bridge in a rain turn (GCACW 12.0)".into());
        }
        if !c.bridge && !own_pontoon && super::unfordable(rules, state) {
            return Some(
                "no attack across a ford or destroyed bridge while rivers are unfordable (scenario rule; GCACW 12.0)"
                    .into(),
            );
        }
    }
    let closed = |h: Hex| {
        map.terrain(h)
            .map(|t| rules.charts().effective_terrain(t, rain))
            .is_some_and(|t| matches!(t, Terrain::Mountain | Terrain::Swamp))
    };
    if !route && (closed(from) || closed(target)) {
        return Some(
            "no attack into or out of a mountain or swamp hex without a road, pike, RR or trail (GCACW 7.1)".into(),
        );
    }
    if !route && map.is_woods_hexside(from, target) && !started_here {
        return Some(
            "across a woods hexside without a route only a unit that began its action in this hex may attack (GCACW 7.1)"
                .into(),
        );
    }
    if rain
        && hs.contains(Hexside::CREEK)
        && !route
        && map.terrain(from) != Some(Terrain::City)
        && map.terrain(target) != Some(Terrain::City)
    {
        return Some("no attack across a creek without a route in a rain turn (GCACW 12.0)".into());
    }
    None
}

/// Why unit `u` may not make an attack of its own (a march attack, where it is the only
/// attacker), or `None` (GCACW 7.1; HSN-B 2.2): wagon trains never attack; a unit whose
/// Tactical value is printed in parentheses may not be the only unit in an attack; a unit off
/// the map cannot attack.
#[must_use]
pub fn unit_restriction(rules: &Gcacw, state: &State, u: usize) -> Option<String> {
    if state.units[u].hex.is_none() {
        return Some(format!("{} is not on the map", rules.unit_name(state, u)));
    }
    if is_wagon(rules, state, u) {
        return Some("wagon trains never attack (HSN-B 2.2)".into());
    }
    if rules.unit_counter(state, u).parenthesized {
        return Some("a unit with a parenthesized Tactical value may not attack alone (GCACW 7.1)".into());
    }
    None
}

/// The hexes unit `u` may attack in a march from `from` (GCACW 7.1): every adjacent hex with an
/// enemy unit (or, for the Confederates, an undestroyed Union fort, HSN-A 8.0) that no
/// restriction of [`attack_restriction`] or [`unit_restriction`] closes. `started_here`: the
/// unit began this action in `from` (the woods-hexside rule). Sorted by hex.
///
/// An empty `forts` stands for the forts in play now ([`super::forts_in_play`]: none unless the
/// scenario has the `forts` rule), because the callers pass `Forts::default()`.
#[must_use]
pub fn legal_targets(rules: &Gcacw, state: &State, u: usize, from: Hex, started_here: bool, forts: &Forts) -> Vec<Hex> {
    if unit_restriction(rules, state, u).is_some() {
        return Vec::new();
    }
    let in_play;
    let forts = if *forts == Forts::default() {
        in_play = super::forts_in_play(rules, state);
        &in_play
    } else {
        forts
    };
    let side = rules.unit_side(state, u);
    let mut out: Vec<Hex> = rules
        .map()
        .neighbors(from)
        .map(|(_, n)| n)
        .filter(|&n| {
            rules.occupant(state, n) == Some(side.enemy())
                || (side == Side::Confederate && fort_values(rules, forts, n).is_some())
        })
        .filter(|&n| attack_restriction(rules, state, side, from, n, started_here).is_none())
        .filter(|&n| rules.barred(state, u, n, true).is_none())
        .collect();
    out.sort();
    out
}
