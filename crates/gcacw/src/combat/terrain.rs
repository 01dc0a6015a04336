//! Modifiers to the defender's die roll (GCACW 7.4 Terrain, Ridge, Demoralization-2; 12.0).

use caisson_hexmap::{Hex, Hexside, Ridge, Terrain};
use caisson_kernel::Modifier;

use crate::rules::Gcacw;
use crate::state::State;

use super::values::Defence;

/// The defender's modifiers (GCACW 7.4), read between the defender's hex and `active_hex`: the
/// marching unit's hex, or the active leader's hex in an assault or grand assault (GCACW 7.4
/// grand-assault note; digest A19).
///
/// - Bridge, dam, ferry or ford hexside: +2 (a pontoon is a bridge; a destroyed bridge a ford,
///   GCACW 10.1, 10.2).
/// - Creek hexside (even with a route): +1; +2 in a rain turn (GCACW 12.0).
/// - Hill: +1, none if the active attacker is on a hill or mountain or attacks down a ridge.
/// - Mountain: +2, +1 if the active attacker is on a mountain or attacks down a ridge.
/// - Ridge: attacking up +2; attacking down +1 into a mountain, otherwise 0. Ruling: the +1 for
///   attacking down into a mountain is the Mountain modifier's reduced +1, not a second +1
///   (GCACW 7.4 Ridge Combat Example: the defender adds 1 in all).
/// - Demoralize-2: −1 if the defender is a lone Demoralize-2 unit, or if Demoralize-2 units give
///   more than half of the hex's Combat value (ruling: before entrenchment).
///
/// Modifiers that a clause cancels are listed with value 0 so a player sees why.
pub(super) fn defender_modifiers(
    rules: &Gcacw,
    state: &State,
    active_hex: Hex,
    defender_hex: Hex,
    defence: &Defence,
    several_hexes: bool,
) -> Vec<Modifier> {
    let map = rules.map();
    let rain = state.rain;
    let mut out = Vec::new();
    let hs = map.hexside(active_hex, defender_hex);
    let whose = if several_hexes { " between the defender and the active leader's hex" } else { "" };
    if hs.intersects(Hexside::RIVER) {
        let c = state.bridges.crossing(map, active_hex, defender_hex);
        let name = if c.bridge {
            [(Hexside::DAM, "dam"), (Hexside::FERRY, "ferry")]
                .into_iter()
                .find(|(b, _)| hs.contains(*b))
                .map_or("bridge", |(_, n)| n)
        } else if c.pontoon.is_some() {
            "pontoon bridge"
        } else if hs.contains(Hexside::FORD) {
            "ford"
        } else if c.ford {
            "destroyed bridge (a ford)"
        } else {
            ""
        };
        if !name.is_empty() {
            out.push(Modifier::new(format!("Attack across a {name}{whose}"), 2, "GCACW 7.4"));
        }
    }
    if hs.contains(Hexside::CREEK) {
        if rain {
            out.push(Modifier::new(format!("Attack across a creek in rain{whose}"), 2, "GCACW 12.0"));
        } else {
            out.push(Modifier::new(format!("Attack across a creek{whose}"), 1, "GCACW 7.4"));
        }
    }
    let ridge = map.ridge(active_hex, defender_hex);
    let down = ridge == Ridge::Down;
    let at = map.terrain(active_hex);
    match map.terrain(defender_hex) {
        Some(Terrain::Hill) => {
            if matches!(at, Some(Terrain::Hill | Terrain::Mountain)) {
                out.push(Modifier::new("Defender on a hill: none, the attacker is on high ground", 0, "GCACW 7.4"));
            } else if down {
                out.push(Modifier::new("Defender on a hill: none, the attack comes down a ridge", 0, "GCACW 7.4"));
            } else {
                out.push(Modifier::new("Defender on a hill", 1, "GCACW 7.4"));
            }
        }
        Some(Terrain::Mountain) => {
            if at == Some(Terrain::Mountain) {
                out.push(Modifier::new("Defender on a mountain (the attacker is on one too)", 1, "GCACW 7.4"));
            } else if down {
                out.push(Modifier::new("Defender on a mountain, attacked down a ridge", 1, "GCACW 7.4"));
            } else {
                out.push(Modifier::new("Defender on a mountain", 2, "GCACW 7.4"));
            }
        }
        _ => {}
    }
    match ridge {
        Ridge::Up => out.push(Modifier::new("Attack up a ridge", 2, "GCACW 7.4")),
        Ridge::Down if map.terrain(defender_hex) == Some(Terrain::Mountain) => out.push(Modifier::new(
            "Attack down a ridge into a mountain: counted in the mountain's +1",
            0,
            "GCACW 7.4 (Ridge Combat Example)",
        )),
        Ridge::Down => out.push(Modifier::new("Attack down a ridge: no modifier", 0, "GCACW 7.4")),
        Ridge::None => {}
    }
    let d2: crate::charts::Half =
        defence.units.iter().filter(|d| state.units[d.unit].demoralized >= 2).map(|d| d.cv).sum();
    let lone = defence.units.len() == 1 && state.units[defence.units[0].unit].demoralized >= 2;
    if lone || (d2.halves() > 0 && u32::from(d2.halves()) * 2 > u32::from(defence.cv.halves())) {
        let label = if lone {
            "Lone Demoralize-2 defender".to_string()
        } else {
            format!("Demoralize-2 units give {d2} of the defender's {}", defence.cv)
        };
        out.push(Modifier::new(label, -1, "GCACW 7.4, 11.0"));
    }
    out
}
