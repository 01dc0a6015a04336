//! Exiting the map (HSN-A 14.0): each side has a few map-edge hexes (data: the scenario's
//! `exit-hexes` rule) from which its units may march off the map, paying what entering a pike hex
//! costs, or retreat, rout or cavalry-retreat off it with no extra Manpower loss. A unit that
//! leaves is out of the game for good, with the leaders it carries: it has no hex, it is not
//! eliminated (its Manpower is never a loss, so it never scores as one), and it is listed in
//! `state.campaign.exited`. (The Union cavalry's off-map remount, HSN-A 5.0, is not an exit.)

use caisson_hexmap::{Hex, Terrain};
use caisson_kernel::Choice;

use crate::charts::{Half, Route};
use crate::retreat::Retreat;
use crate::rules::Gcacw;
use crate::scenario::RuleKind;
use crate::state::{March, State};
use crate::Side;

/// The option id of marching off the map.
pub const EXIT: &str = "exit";

/// A side's exit hexes (HSN-A 14.0); none if the scenario has no `exit-hexes` rule.
#[must_use]
pub fn exit_hexes(rules: &Gcacw, side: Side) -> &[Hex] {
    rules
        .scenario()
        .rules()
        .find_map(|r| match r {
            RuleKind::ExitHexes { union, confederate } => Some(match side {
                Side::Union => union.as_slice(),
                Side::Confederate => confederate.as_slice(),
            }),
            _ => None,
        })
        .unwrap_or(&[])
}

/// Whether the scenario has exit hexes at all.
#[must_use]
pub fn in_play(rules: &Gcacw) -> bool {
    rules.scenario().rules().any(|r| matches!(r, RuleKind::ExitHexes { .. }))
}

/// What marching off the map costs (HSN-A 14.0: as entering a pike hex), plus 1 MP when the unit
/// begins its march in an enemy normal ZOC and leaves it this way (GCACW 6.2, ZOC to non-ZOC:
/// off the map is no enemy ZOC).
#[must_use]
pub fn cost(rules: &Gcacw, state: &State, march: &March) -> Half {
    let pike = rules.charts().route_cost(Route::Pike, Terrain::Clear, state.rain);
    if march.started_in_zoc && !march.moved {
        pike + Half::whole(1)
    } else {
        pike
    }
}

/// The marching unit's option to leave the map, if it stands in one of its side's exit hexes, has
/// not stopped in an enemy ZOC, and can pay the cost (or has not moved yet: the minimum move,
/// GCACW 6.1).
#[must_use]
pub fn march_option(rules: &Gcacw, state: &State, march: &March) -> Option<Choice> {
    let u = march.unit;
    let at = state.units[u].hex?;
    let side = rules.unit_side(state, u);
    if march.stopped || !exit_hexes(rules, side).contains(&at) {
        return None;
    }
    if crate::march::in_enemy_zoc_now(rules, state, u) && march.moved {
        return None;
    }
    let cost = cost(rules, state, march);
    if cost > march.left && march.moved {
        return None;
    }
    Some(Choice::new(
        EXIT,
        format!(
            "Leave the map from {} ({cost} MP): out of the game for good, with its leaders (HSN-A 14.0)",
            rules.map().label(at)
        ),
    ))
}

/// Whether a retreating stack may leave the map now under HSN-A 14.0: it stands in one of its
/// side's exit hexes, may still go on, and an off-map neighbour is no closer to the active enemy
/// (GCACW 7.6). Retreats, routs, cavalry retreats and the Defender's Retreat Option all may.
#[must_use]
pub fn retreat_may_exit(rules: &Gcacw, state: &State, r: &Retreat) -> bool {
    if r.units.is_empty() || r.must_stop(rules, state) {
        return false;
    }
    let at = r.at();
    let map = rules.map();
    exit_hexes(rules, r.side).contains(&at)
        && at.neighbors().any(|(_, n)| !map.contains(n) && n.distance(r.enemy) >= at.distance(r.enemy))
}

/// Units leave the map (HSN-A 14.0): no hex, not eliminated, no Manpower lost, listed in
/// `state.campaign.exited`; the leaders with them go too. `how` completes "<unit> …".
pub fn leave(rules: &Gcacw, state: &mut State, units: &[usize], how: &str) {
    for &u in units {
        if state.units[u].hex.is_none() {
            continue;
        }
        state.units[u].hex = None;
        state.units[u].entrenchment = None;
        state.campaign.exited.insert(u);
        state.note(
            format!(
                "{} {how}: it leaves the game for good (no Manpower lost, Manpower {}).",
                rules.unit_name(state, u),
                state.units[u].manpower
            ),
            Some("HSN-A 14.0"),
        );
        for l in 0..state.leaders.len() {
            if state.leaders[l].with == Some(u) {
                state.leaders[l].with = None;
                let name = rules.leader_counter(state, l).name.clone();
                state.note(format!("{name} leaves the map with it."), Some("HSN-A 14.0"));
            }
        }
    }
    let occupied: std::collections::BTreeSet<Hex> = state.units.iter().filter_map(|u| u.hex).collect();
    state.flanks_refused.retain(|h| occupied.contains(h));
    crate::victory::observe(rules, state);
}

/// Whether unit `u` has left the map by an exit hex.
#[must_use]
pub fn exited(state: &State, u: usize) -> bool {
    state.campaign.exited.contains(&u)
}
