//! Opportunity Fire beyond a brigade's movement (SR 10.7): at a unit a Wayward Move takes out of
//! a hex next to the enemy (EX 7.3b), played through the engine with manual dice.

use caisson_blindswords::catalog::Side;
use caisson_blindswords::cohesion::CombatUnit;
use caisson_blindswords::registry::SYSTEM;
use caisson_blindswords::setup::Data;
use caisson_blindswords::state::{Place, Stage, State};
use caisson_blindswords::BlindSwords;
use caisson_hexmap::{Hex, Hexside, TacticalTerrain};
use caisson_kernel::{DiceMode, Game, Setup};

/// A clear hex of the scenario's area whose six neighbours are clear, in the area, and joined to
/// it by no fence; with its neighbours in direction order.
fn open_ground(rules: &BlindSwords) -> (Hex, Vec<Hex>) {
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

/// Puts unit `id` in `hex` on its Fresh face, steady and released.
fn set(rules: &BlindSwords, state: &mut State, id: &str, hex: Hex) {
    let i = state.unit_index(id).expect(id);
    let c = CombatUnit::from_catalog(rules.data().catalog.unit(id).expect(id));
    let face = c.fresh.unwrap_or(c.worn);
    let u = &mut state.units[i];
    u.place = Place::Map(hex);
    u.battleworn = false;
    u.sp_halves = face.sp.halves();
    u.cr = face.cr;
    u.on_hold = false;
    u.morale_hits = 0;
    u.shaken = false;
    u.skirmish = false;
}

/// Pv-16-1 with the map empty but the 2nd Ohio in an open clear hex and the 41st Georgia next to
/// it; a Wayward Union Move is to be made by the Confederate player. Returns the game, the 2nd
/// Ohio's hex and a neighbour of it two hexes from the Georgians.
fn wayward() -> (Game<BlindSwords>, Hex, Hex) {
    let (rules, mut state) = BlindSwords::new(Data::builtin().expect("built-in data"), "pv-16-1").expect("scenario");
    let (t, around) = open_ground(&rules);
    for u in &mut state.units {
        u.place = Place::Eliminated;
    }
    set(&rules, &mut state, "u-2oh", t);
    set(&rules, &mut state, "c-41ga", around[0]);
    state.stage = Stage::Wayward { affected: Side::Union };
    let away = around[3];
    let setup =
        Setup { system: SYSTEM.into(), scenario: "pv-16-1".into(), seed: 1, dice: DiceMode::Manual, options: vec![] };
    let g = Game::new(rules, state, setup);
    g.check().expect("the set-up holds");
    (g, t, away)
}

fn dice(g: &mut Game<BlindSwords>, faces: &[u8]) {
    for f in faces {
        g.choose(&format!("die:{f}")).unwrap_or_else(|e| panic!("die {f}: {e}"));
    }
}

/// EX 7.3b, SR 10.7: the unit a Wayward Move takes out of a hex next to the enemy is fired on
/// first, at half SP (the 41st Georgia's 7: 3.5, column 3), the moved unit the Lead Unit; with no
/// effect the move is then made.
#[test]
fn a_wayward_move_draws_opportunity_fire() {
    let (mut g, t, away) = wayward();
    g.choose(&format!("wayward:u-2oh:{away}")).expect("the Wayward Move");
    let d = g.pending().expect("the Opportunity Fire decision");
    assert_eq!((d.side.as_str(), d.kind.as_str()), ("confederate", "opportunity-fire"));
    let id = format!("fire:c-41ga@{t}");
    let fire = d.options.iter().find(|c| c.id == id).unwrap_or_else(|| panic!("no {id} in {:?}", d.options));
    assert!(fire.label.contains("3.5 SP, column 3"), "{}", fire.label);
    assert!(d.options.iter().any(|c| c.id == "let-go"));
    let oh = g.state().unit_index("u-2oh").expect("2OH");
    assert_eq!(g.state().hex_of(oh), Some(t), "not moved before the fire");
    g.choose(&id).expect("fire");
    dice(&mut g, &[1, 1]);
    let s = g.state();
    let logged = s.log.iter().rev().find(|e| e.roll.is_some()).expect("the d66 logged").text.clone();
    assert!(logged.contains("Lead Unit u-2oh") && logged.contains("no effect"), "{logged}");
    assert_eq!(s.hex_of(oh), Some(away), "the move is made after the fire");
    assert!(s.log.iter().any(|e| e.text.contains("41GA fires at") && e.rule.as_deref() == Some("SR 10.7, EX 7.3b")));
    g.check().expect("the state holds");
}

/// EX 7.3b: letting the unit go makes the move at once; a move from a hex next to no enemy draws
/// no fire.
#[test]
fn a_wayward_move_let_go_or_away_from_the_enemy() {
    let (mut g, _, away) = wayward();
    g.choose(&format!("wayward:u-2oh:{away}")).expect("the Wayward Move");
    g.choose("let-go").expect("let it go");
    let oh = g.state().unit_index("u-2oh").expect("2OH");
    assert_eq!(g.state().hex_of(oh), Some(away));
    // With the Georgians gone, the 2nd Ohio leaves a hex next to no enemy.
    let (g, _, away) = wayward();
    let mut state = g.state().clone();
    let ga = state.unit_index("c-41ga").expect("41GA");
    state.units[ga].place = Place::Eliminated;
    let mut g = Game::new(g.rules().clone(), state, g.setup().clone());
    g.choose(&format!("wayward:u-2oh:{away}")).expect("the Wayward Move");
    assert_eq!(g.state().hex_of(oh), Some(away), "no fire to wait for");
}
