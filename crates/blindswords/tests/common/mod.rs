//! Helpers shared by the Blind Swords fire tests: open ground to stage a fight on, and a unit
//! put on the map fresh and steady.

use caisson_blindswords::cohesion::CombatUnit;
use caisson_blindswords::state::{Place, State};
use caisson_blindswords::BlindSwords;
use caisson_hexmap::{Hex, Hexside, TacticalTerrain};

/// A clear hex of the scenario's area whose six neighbours are clear, in the area, and joined to
/// it by no fence; with its neighbours in direction order.
pub fn open_ground(rules: &BlindSwords) -> (Hex, Vec<Hex>) {
    let map = &rules.data().map;
    let area = &rules.scenario().area;
    let clear = |h: Hex| area.contains(h) && map.tactical(h) == Some(TacticalTerrain::Clear);
    for t in map.hexes().filter(|h| clear(*h)) {
        let around: Vec<Hex> = map.neighbors(t).map(|(_, n)| n).collect();
        let fenced = |n: &Hex| map.hexside(*n, t).intersects(Hexside::STONE_FENCE.union(Hexside::WOOD_FENCE));
        if around.len() == 6 && around.iter().all(|n| clear(*n) && !fenced(n)) {
            return (t, around);
        }
    }
    panic!("no open clear hex");
}

/// Puts unit `id` in `hex` on its Battleworn face if `worn`, else on its Fresh face (the only face
/// of a unit without one), steady and released.
pub fn set(rules: &BlindSwords, state: &mut State, id: &str, hex: Hex, worn: bool) {
    let i = state.unit_index(id).expect(id);
    let c = CombatUnit::from_catalog(rules.data().catalog.unit(id).expect(id));
    let face = if worn { c.worn } else { c.fresh.unwrap_or(c.worn) };
    let u = &mut state.units[i];
    u.place = Place::Map(hex);
    u.battleworn = worn;
    u.sp_halves = face.sp.halves();
    u.cr = face.cr;
    u.on_hold = false;
    u.morale_hits = 0;
    u.shaken = false;
    u.skirmish = false;
}
