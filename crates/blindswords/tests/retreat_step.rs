//! Retreats and Panic in play (SR 12.1b, 12.3, EX 12.3): a retreat a fire's Cohesion Test
//! orders, played through the engine with manual dice, moves the unit along a legal path towards
//! its own map edges; a unit with no retreat breaks; a Panic picks the low-rated unit next to the
//! tested hex, hits it and sends it 3 hexes back.

mod common;
use common::{manual_game, set, town_and_battery_hex};

use caisson_blindswords::catalog::Side;
use caisson_blindswords::sequence;
use caisson_blindswords::setup::Data;
use caisson_blindswords::state::{Aftermath, Place, RetreatOrder, Stage, State, Then};
use caisson_blindswords::BlindSwords;
use caisson_hexmap::{Hex, TacticalTerrain};
use caisson_kernel::{Game, Pending, Rules};

/// Scenario 16.1 with every unit off the map.
fn empty_board() -> (BlindSwords, State) {
    let (rules, mut state) = BlindSwords::new(Data::builtin().expect("built-in data"), "pv-16-1").expect("scenario");
    for u in &mut state.units {
        u.place = Place::Eliminated;
    }
    for b in &mut state.brigades {
        b.on_hold = false;
    }
    (rules, state)
}

fn dice(g: &mut Game<BlindSwords>, faces: &[u8]) {
    for f in faces {
        g.choose(&format!("die:{f}")).unwrap_or_else(|e| panic!("die {f}: {e}"));
    }
}

/// How far a hex lies towards a side's own map edges from another (EX 12.3, ruling PC9).
fn homeward(side: Side, from: Hex, to: Hex) -> i16 {
    let (east, south) = (to.col - from.col, to.row - from.row);
    match side {
        Side::Union => (-east).max(south),
        Side::Confederate => east.max(-south),
    }
}

/// SR 12.1b, 12.3, EX 12.3: Bush and Stone's battery fires at the 41st Georgia in Perryville
/// (as in tests/combat_step.rs: column 1, roll 62, a Routine test); the test's coloured 1 and
/// white 6 read "-" and "MH R1", so the 41st is Shaken and retreats one hex: to a hex one hex
/// away, not next to the battery, as far towards the north or east edge as a hex can be, the
/// owner picking among equal paths; the log says so, and the Artillery Step goes on.
#[test]
fn sr_12_3_fire_retreat_through_the_engine() {
    let (rules, mut state) = empty_board();
    let (town, from) = town_and_battery_hex(&rules);
    let battery = set(&rules, &mut state, "u-bush-stone-art", from, true);
    let ga = set(&rules, &mut state, "c-41ga", town, false);
    state.stage = Stage::Artillery { side: Side::Union, passes: 0 };
    let mut g = manual_game(rules, state);
    g.choose(&format!("fire:u-bush-stone-art@{town}")).expect("fire");
    dice(&mut g, &[6, 2]);
    dice(&mut g, &[1, 6]);
    if let Some(d) = g.pending().filter(|d| d.kind == "retreat") {
        assert_eq!(d.side, "confederate", "the owner retreats (SR 12.3)");
        assert!(d.prompt.contains("retreat 1 hexes"), "{}", d.prompt);
        let id = d.options[0].id.clone();
        g.choose(&id).expect("a path");
    }
    let s = g.state();
    assert_eq!(s.units[ga].morale_hits, 1, "MH: Shaken");
    let to = s.hex_of(ga).expect("still on the map");
    let map = &g.rules().data().map;
    assert_eq!(map.distance(town, to), 1, "one hex away");
    assert!(map.distance(from, to) > 1, "not next to the battery that caused it");
    assert_eq!(homeward(Side::Confederate, town, to), 1, "towards the north or east edge");
    assert!(
        s.log.iter().any(|e| e.text.starts_with("41GA retreats 1 hexes") && e.rule.as_deref() == Some("SR 12.3")),
        "the retreat is logged with its rule"
    );
    assert!(s.units[battery].acted);
    assert!(!matches!(s.stage, Stage::Aftermath { .. } | Stage::FireTest { .. }), "{:?}", s.stage);
    g.check().expect("the state holds after the retreat");
}

/// An aftermath with one retreat or Panic to work through, after a fire of `firer`.
fn aftermath(firer: usize, target: Hex, lead: usize, retreats: Vec<RetreatOrder>, panic: u8) -> Stage {
    Stage::Aftermath {
        after: Aftermath {
            by: Side::Union,
            causers: vec![firer],
            target,
            lead,
            retreats,
            panic,
            panicking: Vec::new(),
            dice: Vec::new(),
            later: Vec::new(),
            done: Vec::new(),
            then: Then::Fire { firer, retreating: Vec::new() },
        },
    }
}

/// A clear hex of the play area whose six neighbours are in the area too, at least `margin`
/// hexes from the area's edge.
fn open_hex(rules: &BlindSwords, margin: u16) -> Hex {
    let map = &rules.data().map;
    let area = &rules.scenario().area;
    map.hexes()
        .filter(|h| area.contains(*h) && map.tactical(*h) == Some(TacticalTerrain::Clear))
        .find(|h| {
            map.hexes().filter(|n| map.distance(*h, *n) <= margin).all(|n| area.contains(n))
                && map.hexes().filter(|n| map.distance(*h, *n) <= margin).count()
                    == 1 + 3 * usize::from(margin) * usize::from(margin + 1)
        })
        .expect("an open hex")
}

/// SR 12.3: a unit whose every neighbour holds an enemy unit cannot retreat: it goes to Broken
/// Box 3 on its Battleworn side with no marker, and the aftermath passes on.
#[test]
fn sr_12_3_blocked_retreat_breaks_the_unit() {
    let (rules, mut state) = empty_board();
    let hex = open_hex(&rules, 2);
    let ga = set(&rules, &mut state, "c-41ga", hex, false);
    let ring: Vec<Hex> = rules.data().map.neighbors(hex).map(|(_, n)| n).collect();
    let union: Vec<&str> = vec!["u-123il", "u-105oh", "u-80il", "u-garrard", "u-21wi", "u-79pa"];
    let mut first = None;
    for (id, h) in union.iter().zip(&ring) {
        let i = set(&rules, &mut state, id, *h, false);
        first.get_or_insert(i);
    }
    let firer = first.expect("a ring");
    state.units[ga].morale_hits = 1;
    let order = RetreatOrder { unit: ga, hexes: 1, rule: "SR 12.1b R#".into(), causers: vec![firer] };
    state.stage = aftermath(firer, hex, ga, vec![order], 0);
    sequence::advance(&rules, &mut state);
    let u = &state.units[ga];
    assert_eq!(u.place, Place::Broken(3), "no legal retreat: Broken Box 3");
    assert!(u.battleworn, "on its Battleworn side");
    assert_eq!(u.morale_hits, 0, "markers removed");
    assert!(state.log.iter().any(|e| e.text == "41GA cannot retreat: Broken Box 3"));
    assert!(!matches!(state.stage, Stage::Aftermath { .. }), "{:?}", state.stage);
    rules.check(&state).expect("the state holds");
}

/// SR 12.1b Panic: after the Lead Unit's results, the one unit next to the tested hex with a
/// modified CR of 2 or less (a raw regiment, CR 1) panics: a Morale Hit, then a retreat of
/// 3 hexes away from its hex; a veteran unit of CR 3 beside it does not.
#[test]
fn sr_12_1_panic_hits_and_retreats_the_low_rated_unit() {
    let (rules, mut state) = empty_board();
    let map = &rules.data().map;
    let hex = open_hex(&rules, 5);
    let ring: Vec<Hex> = map.neighbors(hex).map(|(_, n)| n).collect();
    let lead = set(&rules, &mut state, "u-123il", hex, false);
    let raw = set(&rules, &mut state, "u-105oh", ring[0], false);
    let enemy = set(&rules, &mut state, "c-41ga", map.neighbors(hex).map(|(_, n)| n).nth(3).expect("a hex"), false);
    state.stage = Stage::Aftermath {
        after: Aftermath {
            by: Side::Confederate,
            causers: vec![enemy],
            target: hex,
            lead,
            retreats: Vec::new(),
            panic: 1,
            panicking: Vec::new(),
            dice: Vec::new(),
            later: Vec::new(),
            done: Vec::new(),
            then: Then::Fire { firer: enemy, retreating: Vec::new() },
        },
    };
    sequence::advance(&rules, &mut state);
    for _ in 0..3 {
        let Pending::Decide(d) = sequence::pending(&rules, &state) else { break };
        if d.kind != "retreat" {
            break;
        }
        let id = d.options[0].id.clone();
        sequence::choose(&rules, &mut state, &id).expect("a path");
        sequence::advance(&rules, &mut state);
    }
    assert!(state.log.iter().any(|e| e.text == "105OH must Panic"), "the raw regiment panics");
    assert_eq!(state.units[raw].morale_hits, 1, "one Morale Hit: Shaken");
    let to = state.hex_of(raw).expect("on the map");
    assert!(map.distance(ring[0], to) >= 3, "3 hexes away from {} (now {to})", ring[0]);
    assert_eq!(state.hex_of(lead), Some(hex), "the Lead Unit never panics");
    assert!(!matches!(state.stage, Stage::Aftermath { .. }), "{:?}", state.stage);
    rules.check(&state).expect("the state holds");
}

/// The box of a Union regiment on the north edge of a scenario's area whose every neighbour in
/// the area holds an enemy unit, when it must retreat 1 hex.
fn edge_retreat(scenario: &str) -> (Place, String) {
    let (rules, mut state) = BlindSwords::new(Data::builtin().expect("built-in data"), scenario).expect("scenario");
    for u in &mut state.units {
        u.place = Place::Eliminated;
    }
    let map = &rules.data().map;
    let area = rules.scenario().area.clone();
    let hex = Hex::new(area.cols[0] + 10, area.rows[0]);
    let of = |side: Side| -> Vec<String> {
        let inf = |u: &&caisson_blindswords::state::UnitState| u.side == side && !u.ty.is_artillery();
        state.units.iter().filter(inf).map(|u| u.id.clone()).collect()
    };
    let (union, csa) = (of(Side::Union), of(Side::Confederate));
    let raw = set(&rules, &mut state, &union[0], hex, false);
    let ring: Vec<Hex> = map.neighbors(hex).map(|(_, n)| n).filter(|n| area.contains(*n)).collect();
    let mut first = None;
    for (id, h) in csa.iter().zip(&ring) {
        first.get_or_insert(set(&rules, &mut state, id, *h, false));
    }
    let firer = first.expect("a neighbour");
    let order = RetreatOrder { unit: raw, hexes: 1, rule: "SR 12.1b R#".into(), causers: vec![firer] };
    state.stage = aftermath(firer, hex, raw, vec![order], 0);
    sequence::advance(&rules, &mut state);
    let name = state.units[raw].name.clone();
    let text = state.log.iter().find(|e| e.text.starts_with(&name)).map(|e| e.text.clone()).unwrap_or_default();
    (state.units[raw].place, text)
}

/// EX 12.3: a unit that can only retreat off the map goes to Broken Box 1; where a scenario
/// plays on part of the map, leaving its area is refused instead (EX 16.0c, ruling A-55: Box 3).
#[test]
fn ex_12_3_off_the_map_box_1_but_box_3_out_of_the_16_0_area() {
    let (place, text) = edge_retreat("pv-16-1");
    assert_eq!(place, Place::Broken(1), "{text} {place:?}");
    assert!(text.ends_with("retreats off the map: Broken Box 1"), "{text}");
    let (place, text) = edge_retreat("pv-16-0");
    assert!(text.contains("inside the scenario's area: Broken Box 3"), "{text}");
    // With no unit left to act, the game runs on to End Turn, where the track moves it down a box.
    assert!(matches!(place, Place::Broken(2 | 3)), "{text} {place:?}");
}
