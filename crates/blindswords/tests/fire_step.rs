//! A brigade's Fire Combat Step and Opportunity Fire played through the engine with manual dice
//! (SR 4.0, 9.0-9.3, 10.7; EX 15.3; ruling A-01b): the fires offered with their previews, the
//! d66 logged with the chart cell, the test's result written back, and where the game goes next.

mod common;
use common::{manual_game, set};

use caisson_blindswords::catalog::Side;
use caisson_blindswords::charts::Order;
use caisson_blindswords::setup::Data;
use caisson_blindswords::state::{Activator, MoveFor, Moving, Place, Stage, State};
use caisson_blindswords::BlindSwords;
use caisson_hexmap::{Hex, Hexside, TacticalTerrain};
use caisson_kernel::{Game, Rules};

/// A hex of Perryville town and a clear neighbour, with no fence on the hexside between them.
fn town_and_neighbour(rules: &BlindSwords) -> (Hex, Hex) {
    let map = &rules.data().map;
    let area = &rules.scenario().area;
    for t in map.hexes().filter(|h| map.tactical(*h) == Some(TacticalTerrain::Town) && area.contains(*h)) {
        for (_, n) in map.neighbors(t) {
            let fence = map.hexside(n, t).intersects(Hexside::STONE_FENCE.union(Hexside::WOOD_FENCE));
            if area.contains(n) && map.tactical(n) == Some(TacticalTerrain::Clear) && !fence {
                return (t, n);
            }
        }
    }
    panic!("no town hex with a clear neighbour");
}

/// Pv-16-1 with everyone off the map but the 2nd Ohio (Harris's brigade), Battleworn (3 SP) when
/// `worn`, in a clear hex next to the 41st Georgia (CR 4) in Perryville; the game waits in
/// `stage(state, 2OH's index)`.
fn board(worn: bool, stage: impl Fn(&State, usize) -> Stage) -> (Game<BlindSwords>, Hex, Hex) {
    let (rules, mut state) = BlindSwords::new(Data::builtin().expect("built-in data"), "pv-16-1").expect("scenario");
    let (town, next) = town_and_neighbour(&rules);
    for u in &mut state.units {
        u.place = Place::Eliminated;
    }
    for b in &mut state.brigades {
        b.on_hold = false;
    }
    let oh = set(&rules, &mut state, "u-2oh", next, worn);
    set(&rules, &mut state, "c-41ga", town, false);
    state.stage = stage(&state, oh);
    (manual_game(rules, state), town, next)
}

fn fire_step(order: Option<Order>) -> impl Fn(&State, usize) -> Stage {
    move |_, _| Stage::FireStep { brigade: "harris".into(), order, by: Activator::Command, fired: Vec::new() }
}

fn dice(g: &mut Game<BlindSwords>, faces: &[u8]) {
    for f in faces {
        g.choose(&format!("die:{f}")).unwrap_or_else(|e| panic!("die {f}: {e}"));
    }
}

/// Rolls single dice (all 1s) while a Fire Combat Cohesion Test still asks for Break Test dice.
fn finish_test(g: &mut Game<BlindSwords>) {
    for _ in 0..4 {
        if !matches!(g.state().stage, Stage::FireTest { .. }) {
            return;
        }
        dice(g, &[1]);
    }
}

/// SR 9.3 fire example in a brigade's Fire Combat Step (digest §8 T03): an infantry unit of 3 SP
/// under Attack orders fires at an adjacent enemy, shifted two columns left (here by Perryville
/// town, EX 9.3 ii, as in tests/fire.rs: the example's Woods gives three under the Perryville
/// rules, T04), on column "1"; the roll 62 reads `- | 0-1 | 2-4`, and the Lead Unit of modified
/// CR 3 (the 41st Georgia's 4, unsupported in town, EX 12.4 iv) takes a Routine test (ruling
/// The unit then has fired (SR 9.1) and the brigade goes on to its Movement Step.
#[test]
fn sr_9_3_fire_example_in_a_brigade_fire_step() {
    let (mut g, town, next) = board(true, fire_step(Some(Order::Attack)));
    g.check().expect("the set-up holds");
    let d = g.pending().expect("the Fire Combat Step");
    assert_eq!((d.side.as_str(), d.kind.as_str()), ("union", "fire-combat"));
    let id = format!("fire:u-2oh@{town}");
    let fire = d.options.iter().find(|c| c.id == id).unwrap_or_else(|| panic!("no {id} in {:?}", d.options));
    assert!(fire.label.contains("3 SP, column 3"), "{}", fire.label);
    assert!(fire.label.contains("target in town -2 [EX 9.3 ii]"), "{}", fire.label);
    assert!(fire.label.ends_with("→ 1"), "{}", fire.label);
    assert!(d.options.iter().any(|c| c.id == "done"), "the step may end without firing");
    g.choose(&id).expect("fire");
    assert!(matches!(g.state().stage, Stage::FireRoll { .. }), "{:?}", g.state().stage);
    let view = g.rules().view(g.state(), Some("union"));
    assert_eq!(view["stage"], "fire-combat", "the fire belongs to the Fire Combat Step, not the Artillery Phase");
    dice(&mut g, &[6, 2]);
    let logged = g.state().log.iter().rev().find(|e| e.roll.is_some()).expect("the d66 logged").text.clone();
    assert!(logged.contains("column 1, roll 62: - | 0-1 | 2-4"), "{logged}");
    assert!(logged.contains("Lead Unit CR 3 takes a Routine"), "{logged}");
    dice(&mut g, &[6, 6]);
    finish_test(&mut g);
    let s = g.state();
    assert!(s.log.iter().any(|e| e.text.starts_with("Cohesion Test at")), "the test is logged");
    assert!(s.volley.is_none(), "the fire is over");
    // SR 9.1: the 2nd Ohio has fired and no other unit of the brigade is on the map, so the
    // step ends and the Movement Step under the Attack order begins (SR 4.0 4c).
    match &s.stage {
        Stage::Move { for_: MoveFor::Brigade { brigade, order, .. }, current: None, .. } => {
            assert_eq!((brigade.as_str(), *order), ("harris", Order::Attack));
        }
        other => panic!("not the Movement Step: {other:?}"),
    }
    assert_eq!(s.hex_of(s.unit_index("u-2oh").expect("2OH")), Some(next), "firing moved nobody");
    g.check().expect("the state holds after the fire");
}

/// SR 9.1, 8.2-8.5: an illegal fire is refused, and ending the step goes on to the Movement
/// Step without a shot.
#[test]
fn fire_step_refuses_what_it_does_not_offer() {
    let (mut g, town, _) = board(true, fire_step(Some(Order::Defend)));
    let far = Hex::new(town.col, town.row.saturating_add(20));
    assert!(g.choose(&format!("fire:u-2oh@{far}")).is_err());
    assert!(g.choose(&format!("fire:c-41ga@{town}")).is_err(), "an enemy unit is not the brigade's");
    assert!(g.choose("fire:nobody@garbage").is_err());
    assert!(matches!(g.state().stage, Stage::FireStep { .. }));
    g.choose("done").expect("end the step");
    assert!(matches!(g.state().stage, Stage::Move { .. }), "{:?}", g.state().stage);
}

/// Ruling A-01b: a Limited Activation gives no order; the brigade fires as under Defend and then
/// its activation ends, with no Movement Step.
#[test]
fn limited_activation_fires_only() {
    let (mut g, town, next) =
        board(true, |_, _| Stage::ActivationRoll { chit: "rousseau".into(), brigade: "harris".into() });
    // An unmodified 6 is always Limited (ruling A-01).
    dice(&mut g, &[6]);
    match &g.state().stage {
        Stage::FireStep { order: None, brigade, .. } => assert_eq!(brigade, "harris"),
        other => panic!("no Fire Combat Step after a Limited Activation: {other:?}"),
    }
    let d = g.pending().expect("the Fire Combat Step");
    assert!(d.prompt.contains("Limited Activation"), "{}", d.prompt);
    g.choose(&format!("fire:u-2oh@{town}")).expect("fire");
    dice(&mut g, &[1, 1]);
    finish_test(&mut g);
    let s = g.state();
    assert!(!matches!(s.stage, Stage::Move { .. } | Stage::FireStep { .. }), "{:?}", s.stage);
    assert_eq!(s.hex_of(s.unit_index("u-2oh").expect("2OH")), Some(next), "no movement");
}

/// The 2nd Ohio (fresh) starts its move next to the 41st Georgia, with the Confederates to
/// decide on Opportunity Fire as soon as it announces a step away.
fn leaving(skirmish: bool) -> (Game<BlindSwords>, Hex, Hex, Hex) {
    let (mut g, town, next) = board(false, |_, oh| Stage::Move {
        for_: MoveFor::Brigade { brigade: "harris".into(), order: Order::Maneuver, by: Activator::Command },
        moved: Vec::new(),
        current: Some(Moving::new(oh, 6.0)),
    });
    let oh = g.state().unit_index("u-2oh").expect("2OH");
    if skirmish {
        let mut state = g.state().clone();
        state.units[oh].skirmish = true;
        let rules = g.rules().clone();
        g = Game::new(rules, state, g.setup().clone());
    }
    let d = g.pending().expect("the move");
    let away = d
        .options
        .iter()
        .filter_map(|c| c.id.strip_prefix("hex:").and_then(|h| h.parse::<Hex>().ok()))
        .find(|h| g.rules().data().map.distance(*h, town) == 2)
        .unwrap_or_else(|| panic!("no step away from {town} in {:?}", d.options));
    (g, town, next, away)
}

/// SR 10.7 (digest T35): a unit leaving a hex next to the enemy is fired on first, at half SP
/// (the 41st Georgia's 7 at Effective range: 3.5), the moving unit the Lead Unit; a fire with no
/// effect lets the move go on.
#[test]
fn opportunity_fire_at_half_sp_before_the_move() {
    let (mut g, town, next, away) = leaving(false);
    g.choose(&format!("hex:{away}")).expect("announce the step");
    assert!(matches!(g.state().stage, Stage::OppFire { .. }), "{:?}", g.state().stage);
    let d = g.pending().expect("the Opportunity Fire decision");
    assert_eq!((d.side.as_str(), d.kind.as_str()), ("confederate", "opportunity-fire"));
    let id = format!("fire:c-41ga@{next}");
    let fire = d.options.iter().find(|c| c.id == id).unwrap_or_else(|| panic!("no {id} in {:?}", d.options));
    assert!(fire.label.contains("3.5 SP, column 3"), "{}", fire.label);
    assert!(d.options.iter().any(|c| c.id == "let-go"));
    assert!(g.choose(&format!("fire:c-41ga@{town}")).is_err(), "only the moving unit's hex is a target");
    g.choose(&id).expect("fire");
    let stage = g.state().stage.clone();
    assert!(matches!(stage, Stage::FireRoll { .. }), "the moving unit is the Lead Unit, no pick: {stage:?}");
    // 11 is the lowest row of the CRT: no effect on column 3 for the 2nd Ohio's CR.
    dice(&mut g, &[1, 1]);
    let logged = g.state().log.iter().rev().find(|e| e.roll.is_some()).expect("the d66 logged").text.clone();
    assert!(logged.contains("Lead Unit u-2oh"), "{logged}");
    assert!(logged.contains("no effect"), "{logged}");
    let s = g.state();
    let oh = s.unit_index("u-2oh").expect("2OH");
    assert_eq!(s.hex_of(oh), Some(away), "the move goes on after the fire: {:?}", s.stage);
    assert!(s.log.iter().any(|e| e.text.contains("41GA fires at") && e.rule.as_deref() == Some("SR 10.7")));
    g.check().expect("the state holds");
}

/// SR 10.7: a Retreat result cancels the move: the unit makes only its retreat (SR 12.3) and
/// never takes the announced step. The dice are found by trying every d66 and test roll on copies.
#[test]
fn opportunity_fire_retreat_cancels_the_move() {
    // The retreat may pass through the hex it meant to enter: the log tells the two apart.
    let (mut g, _, next, away) = leaving(false);
    g.choose(&format!("hex:{away}")).expect("announce the step");
    g.choose(&format!("fire:c-41ga@{next}")).expect("fire");
    let mut found = None;
    'search: for (c, w) in (1..=6).flat_map(|c| (1..=6).map(move |w| (c, w))).rev() {
        let mut roll = g.clone();
        dice(&mut roll, &[c, w]);
        if !matches!(roll.state().stage, Stage::FireTest { .. }) {
            continue;
        }
        for (tc, tw) in (1..=6).flat_map(|c| (1..=6).map(move |w| (c, w))) {
            let mut test = roll.clone();
            dice(&mut test, &[tc, tw]);
            finish_test(&mut test);
            // The owner's pick of a retreat path, when there are several.
            for _ in 0..4 {
                if !matches!(test.state().stage, Stage::Aftermath { .. }) {
                    break;
                }
                let Some(d) = test.pending() else { break };
                let first = d.options[0].id.clone();
                test.choose(&first).expect("a retreat path");
            }
            if test.state().log.iter().any(|e| e.text.starts_with("2OH retreats")) {
                found = Some(test);
                break 'search;
            }
        }
    }
    let g = found.expect("some roll retreats the 2nd Ohio");
    let s = g.state();
    let oh = s.unit_index("u-2oh").expect("2OH");
    assert!(s.log.iter().any(|e| e.text == "2OH's move is cancelled"), "{:?}", s.log.last());
    assert_ne!(s.hex_of(oh), Some(next), "it retreated");
    let retreat = s.log.iter().position(|e| e.text.starts_with("2OH retreats")).expect("the retreat");
    let cancelled = s.log.iter().position(|e| e.text == "2OH's move is cancelled").expect("cancelled");
    assert!(retreat < cancelled, "the retreat is its only move");
    // Its move ends; the brigade's movement goes on without it (here, with no other unit to move,
    // the activation ends).
    assert!(!matches!(s.stage, Stage::OppFire { .. } | Stage::Move { current: Some(_), .. }), "{:?}", s.stage);
}

/// EX 15.3: a skirmisher never suffers Opportunity Fire; it steps away at once (digest §8 T48).
#[test]
fn skirmisher_is_not_fired_on() {
    let (mut g, _, _, away) = leaving(true);
    g.choose(&format!("hex:{away}")).expect("step");
    let s = g.state();
    assert!(!matches!(s.stage, Stage::OppFire { .. }), "{:?}", s.stage);
    assert_eq!(s.hex_of(s.unit_index("u-2oh").expect("2OH")), Some(away));
    assert_eq!(s.units.iter().filter(|u| u.side == Side::Confederate && matches!(u.place, Place::Map(_))).count(), 1);
}

/// EX 15.4 (EX 9.3 viii): a skirmisher's fire is shifted two columns left, shown in the preview
/// before the roll (the fresh 2nd Ohio in Skirmish Order firing at the 41st Georgia in town; the
/// Battleworn one's 3 SP would be shifted off the chart and could not fire at all).
#[test]
fn skirmisher_fire_is_two_columns_left() {
    let (g, town, _) = board(false, fire_step(Some(Order::Defend)));
    let mut state = g.state().clone();
    let oh = state.unit_index("u-2oh").expect("2OH");
    state.units[oh].skirmish = true;
    let g = Game::new(g.rules().clone(), state, g.setup().clone());
    let d = g.pending().expect("the Fire Combat Step");
    let id = format!("fire:u-2oh@{town}");
    let fire = d.options.iter().find(|c| c.id == id).unwrap_or_else(|| panic!("no {id} in {:?}", d.options));
    assert!(fire.label.contains("Skirmish Order -2 [EX 9.3 viii]"), "{}", fire.label);
    assert!(fire.label.contains("target in town -2 [EX 9.3 ii]"), "{}", fire.label);
}
