//! Set-up helpers shared by the Blind Swords test files: ground to stage a fight on, a unit put on
//! the map fresh and steady, a brigade about to end its Attack-order movement, a retreat order
//! waiting in a Cohesion Test's aftermath, a game with manual dice, and a firer for fire
//! assessments. Each test file uses only
//! some of them, hence the `dead_code` allowance.
#![allow(dead_code)]

use caisson_blindswords::catalog::{Side, Sp, UnitType, Weapon};
use caisson_blindswords::charts::Order;
use caisson_blindswords::cohesion::{CombatUnit, Morale};
use caisson_blindswords::fire::Firer;
use caisson_blindswords::los::{line_of_sight, Sight};
use caisson_blindswords::registry::SYSTEM;
use caisson_blindswords::state::{Activator, Aftermath, MoveFor, Place, RetreatOrder, Stage, State, Then};
use caisson_blindswords::BlindSwords;
use caisson_hexmap::{Hex, Hexside, TacticalTerrain};
use caisson_kernel::{DiceMode, Game, Setup};

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

/// A hex of Perryville town and a clear hex three hexes off with a clear line of sight to it.
pub fn town_and_battery_hex(rules: &BlindSwords) -> (Hex, Hex) {
    let map = &rules.data().map;
    let area = &rules.scenario().area;
    for t in map.hexes().filter(|h| map.tactical(*h) == Some(TacticalTerrain::Town) && area.contains(*h)) {
        for f in map.hexes().filter(|f| map.distance(*f, t) == 3 && area.contains(*f)) {
            if map.tactical(f) != Some(TacticalTerrain::Clear) {
                continue;
            }
            if line_of_sight(map, f, t, |_| false).is_ok_and(|l| l.sight == Sight::Clear) {
                return (t, f);
            }
        }
    }
    panic!("no town hex with a clear line of fire three hexes off");
}

/// Puts unit `id` in `hex` on its Battleworn face if `worn` (or if it has no other), else on its
/// Fresh face, steady, released and not yet acted; returns its index.
pub fn set(rules: &BlindSwords, state: &mut State, id: &str, hex: Hex, worn: bool) -> usize {
    let i = state.unit_index(id).expect(id);
    let c = CombatUnit::from_catalog(rules.data().catalog.unit(id).expect(id));
    let face = if worn { c.worn } else { c.fresh.unwrap_or(c.worn) };
    let u = &mut state.units[i];
    u.place = Place::Map(hex);
    u.battleworn = worn || c.fresh.is_none();
    u.sp_halves = face.sp.halves();
    u.cr = face.cr;
    u.on_hold = false;
    u.acted = false;
    u.morale_hits = 0;
    u.shaken = false;
    u.skirmish = false;
    i
}

/// The Movement Step of the brigade of unit `id` under an Attack order from a command chit, no
/// unit moved yet (its "done" ends it and opens the Close Combat Step).
pub fn attack_move(state: &State, id: &str) -> Stage {
    let brigade = state.units[state.unit_index(id).expect(id)].brigade.clone().expect("a brigade");
    Stage::Move {
        for_: MoveFor::Brigade { brigade, order: Order::Attack, by: Activator::Command },
        moved: Vec::new(),
        current: None,
    }
}

/// A fire's Cohesion Test has left one retreat to make: unit `unit` in `at` retreats `hexes`
/// hexes from the fire of `firer` (of side `by`), nothing else.
pub fn one_retreat(by: Side, firer: usize, unit: usize, at: Hex, hexes: u8) -> Stage {
    let order = RetreatOrder { unit, hexes, rule: "SR 12.1b R#".into(), causers: vec![firer] };
    Stage::Aftermath {
        after: Aftermath {
            by,
            causers: vec![firer],
            target: at,
            lead: unit,
            retreats: vec![order],
            panic: 0,
            panicking: Vec::new(),
            dice: Vec::new(),
            later: Vec::new(),
            done: Vec::new(),
            then: Then::Fire { firer, retreating: Vec::new() },
        },
    }
}

/// A game of scenario 16.1 from `state`, dice entered by hand.
pub fn manual_game(rules: BlindSwords, state: State) -> Game<BlindSwords> {
    let setup =
        Setup { system: SYSTEM.into(), scenario: "pv-16-1".into(), seed: 1, dice: DiceMode::Manual, options: vec![] };
    Game::new(rules, state, setup)
}

/// An infantry regiment of Sturgis's brigade at 2020 firing `sp` SP with rifles at `range`, in
/// clear sight, fresh and steady, supporting no one.
pub fn firer(id: &str, sp: u8, range: u32) -> Firer {
    Firer {
        id: id.into(),
        side: Side::Union,
        ty: UnitType::Infantry,
        brigade: Some("sturgis".into()),
        hex: Hex::new(20, 20),
        sp: Sp::whole(sp),
        morale: Morale::Steady,
        weapon: Weapon::R,
        range,
        sight: Sight::Clear,
        over: Vec::new(),
        skirmish: false,
        in_woods: false,
        on_hold: false,
        chaos: false,
        attacked_by_cavalry: false,
        supporting: false,
    }
}
