//! The invariants every reachable GCACW state keeps, checked after every step by the fuzzer
//! (`caisson fuzz`) and the property tests. A broken one is a bug in the rules.
//!
//! - the turn is within the scenario's turns (GCACW 3.0);
//! - Fatigue Levels are 0–4 (GCACW 5.1) and Demoralization 0–2 (GCACW 7.5);
//! - a unit on the map is on a hex of the map, has Manpower and is not eliminated; an eliminated
//!   unit is off the map with no Manpower (GCACW 6.3);
//! - no hex holds units of both sides (GCACW 6.1);
//! - a marching unit on the map stands in the last hex of its march's path (GCACW 6.1, 7.6);
//! - a unit that exited the map (HSN-A 14.0) is off the map and not eliminated;
//! - a leader is with a unit of his own command (or one a scenario rule lets him activate, such as
//!   Croxton with R. Johnson in HSN Sc 3) that is on the map (or off it for remounts, HSN-A 5.1),
//!   or off the game (GCACW 2.1, 6.3);
//! - a unit off the map for remounts is Union cavalry, not eliminated and in no hex (HSN-A 5.1);
//! - Manpower is conserved: the Manpower of every unit, in play or still to arrive, plus every loss
//!   in the ledger (`State::losses`, each with its cause) equals the scenario's starting Manpower
//!   plus the Manpower Enhancement gains (`State::gains`, HSN-A 11.0)
//!   (a consolidation's Manpower over the maximum is a ledger loss, HSN Sc 2).

use std::collections::BTreeMap;

use crate::rules::Gcacw;
use crate::state::State;

/// Checks the invariants of a state.
///
/// # Errors
/// The first broken invariant, in words, naming the units and leaders involved.
pub fn check(rules: &Gcacw, state: &State) -> Result<(), String> {
    let turns = rules.scenario().turns;
    if state.turn == 0 || state.turn > turns {
        return Err(format!("turn {} outside the scenario's turns 1..={turns}", state.turn));
    }
    let mut sides = BTreeMap::new();
    for (i, u) in state.units.iter().enumerate() {
        let name = || rules.unit_name(state, i);
        if u.fatigue > 4 {
            return Err(format!("{} at Fatigue Level {} (GCACW 5.1: 0 to 4)", name(), u.fatigue));
        }
        if u.demoralized > 2 {
            return Err(format!("{} at Demoralization {} (GCACW 7.5: 0 to 2)", name(), u.demoralized));
        }
        if u.eliminated && (u.hex.is_some() || u.manpower > 0) {
            return Err(format!("{} is eliminated but in {:?} with Manpower {}", name(), u.hex, u.manpower));
        }
        let Some(h) = u.hex else { continue };
        if u.manpower == 0 || u.eliminated {
            return Err(format!("{} is on the map in {h} with no Manpower", name()));
        }
        if !rules.map().contains(h) {
            return Err(format!("{} is off the map, in {h}", name()));
        }
        let side = rules.unit_side(state, i);
        if let Some(&(j, other)) = sides.get(&h) {
            if other != side {
                return Err(format!("{} shares {h} with the enemy {}", name(), rules.unit_name(state, j)));
            }
        } else {
            sides.insert(h, (i, side));
        }
    }
    if let crate::state::Stage::Moving { march } = &state.stage {
        let at = state.units.get(march.unit).and_then(|u| u.hex);
        if at.is_some() && march.path.last().copied() != at {
            return Err(format!(
                "{} marches in {at:?} but its path {:?} ends elsewhere",
                rules.unit_name(state, march.unit),
                march.path
            ));
        }
    }
    for (l, leader) in state.leaders.iter().enumerate() {
        let Some(u) = leader.with else { continue };
        let lc = rules.leader_counter(state, l);
        let Some(unit) = state.units.get(u) else {
            return Err(format!("{} is with unit #{u}, which does not exist", lc.name));
        };
        if unit.hex.is_none() && !crate::mounts::off_map(state, u) {
            return Err(format!("{} is with {}, which is not on the map", lc.name, rules.unit_name(state, u)));
        }
        if !rules.commands(state, leader.counter as usize, u)
            && !crate::activation::extra_activator(rules, leader.counter as usize, unit.counter as usize)
        {
            return Err(format!("{} is with {}, not a unit of his command", lc.name, rules.unit_name(state, u)));
        }
    }
    // HSN-A 14.0: a unit that left the map by an exit hex is off the map and not eliminated.
    for &u in &state.campaign.exited {
        let Some(unit) = state.units.get(u) else {
            return Err(format!("unit #{u} is listed as exited but does not exist"));
        };
        if unit.hex.is_some() || unit.eliminated {
            return Err(format!(
                "{} is listed as exited but is in {:?} (eliminated: {})",
                rules.unit_name(state, u),
                unit.hex,
                unit.eliminated
            ));
        }
    }
    for &u in &state.campaign.off_map {
        let Some(unit) = state.units.get(u) else {
            return Err(format!("unit #{u} is off the map for remounts but does not exist"));
        };
        if unit.hex.is_some() || unit.eliminated || !crate::mounts::union_cavalry(rules, state, u) {
            return Err(format!(
                "{} is off the map for remounts but is not Union cavalry waiting off the map (HSN-A 5.1)",
                rules.unit_name(state, u)
            ));
        }
    }
    let mut lost = 0u32;
    for loss in &state.losses {
        if loss.unit >= state.units.len() {
            return Err(format!("a loss of {} recorded for unit #{}, which does not exist", loss.amount, loss.unit));
        }
        lost += u32::from(loss.amount);
    }
    let gained: u32 = state.gains.iter().map(|g| u32::from(g.amount)).sum();
    let now: u32 = state.units.iter().map(|u| u32::from(u.manpower)).sum();
    if now + lost != rules.start_manpower + gained {
        return Err(format!(
            "Manpower is not conserved: {now} in the units and {lost} lost in the ledger, but {} at the start and {gained} gained",
            rules.start_manpower
        ));
    }
    Ok(())
}
