//! Fixtures shared by the rules tests. Each test file is its own crate and uses only some of
//! them, so the others would count as dead code there.
#![allow(dead_code)]

use caisson_gcacw::registry::hsn;
use caisson_gcacw::sequence::pending;
use caisson_gcacw::state::State;
use caisson_gcacw::{Gcacw, Settings};
use caisson_hexmap::Hex;
use caisson_kernel::Pending;

/// A scenario on `turn` with every unit and leader off the map, dry, nothing pending.
pub fn empty(scenario: &str, turn: u16) -> (Gcacw, State) {
    let (rules, mut state) =
        Gcacw::new(hsn().expect("HSN data loads"), scenario, Settings::default()).expect("scenario");
    for u in &mut state.units {
        u.hex = None;
    }
    for l in &mut state.leaders {
        l.with = None;
    }
    state.rain = false;
    state.turn = turn;
    (rules, state)
}

/// The ids of the pending decision's options; a panic, with the latest log lines, if the game
/// waits for something else.
pub fn option_ids(rules: &Gcacw, state: &State) -> Vec<String> {
    match pending(rules, state) {
        Pending::Decide(d) => d.options.into_iter().map(|c| c.id).collect(),
        other => panic!(
            "expected a decision, got {other:?}; log {:#?}",
            state.log.iter().rev().take(12).map(|e| &e.text).collect::<Vec<_>>()
        ),
    }
}

/// Puts a unit on the map: organized, fatigue 1, undemoralized, unentrenched.
pub fn place(rules: &Gcacw, state: &mut State, id: &str, hex: Hex, manpower: u8) -> usize {
    let u = rules.unit_by_id(id).unwrap_or_else(|| panic!("unit {id} in this scenario"));
    let unit = &mut state.units[u];
    unit.hex = Some(hex);
    unit.manpower = manpower;
    unit.organized = true;
    unit.fatigue = 1;
    unit.demoralized = 0;
    unit.entrenchment = None;
    unit.eliminated = false;
    u
}
