//! Fixtures shared by the combat tests.

use caisson_gcacw::state::State;
use caisson_gcacw::Gcacw;
use caisson_hexmap::Hex;

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
