//! Combined fire from two adjacent hexes (SR 9.1e) and Flanking Fire (SR 9.3c, EX 9.3 x) in a
//! brigade's Fire Combat Step, played through the engine with manual dice.

use caisson_blindswords::registry::SYSTEM;
use caisson_blindswords::setup::Data;
use caisson_blindswords::state::{Activator, MoveFor, Place, Stage};
use caisson_blindswords::BlindSwords;
use caisson_hexmap::Hex;
use caisson_kernel::{DiceMode, Game, Setup};

mod common;
use common::{open_ground, set};

/// Pv-16-1 with the map empty but the 41st Georgia in an open clear hex and, of Harris's brigade
/// (Battleworn: 2nd Ohio 3 SP, 33rd Ohio 2 SP), the 2nd Ohio on the neighbour in direction 0 and
/// the 33rd Ohio on the neighbour in direction `d`; Harris's Fire Combat Step under Attack.
fn board(d: usize) -> (Game<BlindSwords>, Hex) {
    let (rules, mut state) = BlindSwords::new(Data::builtin().expect("built-in data"), "pv-16-1").expect("scenario");
    let (t, around) = open_ground(&rules);
    for u in &mut state.units {
        u.place = Place::Eliminated;
    }
    for b in &mut state.brigades {
        b.on_hold = false;
    }
    set(&rules, &mut state, "c-41ga", t, true);
    set(&rules, &mut state, "u-2oh", around[0], true);
    set(&rules, &mut state, "u-33oh", around[d], true);
    state.stage = Stage::FireStep {
        brigade: "harris".into(),
        order: Some(caisson_blindswords::charts::Order::Attack),
        by: Activator::Command,
        fired: Vec::new(),
    };
    let setup =
        Setup { system: SYSTEM.into(), scenario: "pv-16-1".into(), seed: 1, dice: DiceMode::Manual, options: vec![] };
    let g = Game::new(rules, state, setup);
    g.check().expect("the set-up holds");
    (g, t)
}

fn dice(g: &mut Game<BlindSwords>, faces: &[u8]) {
    for f in faces {
        g.choose(&format!("die:{f}")).unwrap_or_else(|e| panic!("die {f}: {e}"));
    }
}

/// The prompt of the pending roll (the kernel's manual-dice decision carries its purpose).
fn roll_prompt(g: &Game<BlindSwords>) -> String {
    match g.pending() {
        Some(d) if d.kind == "roll" => d.prompt,
        other => panic!("no roll pending: {other:?}"),
    }
}

fn options(g: &Game<BlindSwords>) -> Vec<(String, String)> {
    g.pending().map(|d| d.options.into_iter().map(|c| (c.id, c.label)).collect()).unwrap_or_default()
}

/// SR 9.1e: two units of one brigade in two adjacent hexes add their SP (3 + 2 = 5, column "5",
/// no shift in the open) and fire once together; both have then fired and the step ends.
#[test]
fn two_adjacent_hexes_fire_together() {
    let (mut g, t) = board(1);
    let both = format!("fire:u-2oh+u-33oh@{t}");
    let opts = options(&g);
    let (_, label) = opts.iter().find(|(id, _)| *id == both).unwrap_or_else(|| panic!("no {both} in {opts:?}"));
    assert!(label.contains("5 SP, column 5 no shift → 5"), "{label}");
    assert!(opts.iter().any(|(id, _)| *id == format!("fire:u-2oh@{t}")), "each may still fire alone");
    assert!(!opts.iter().any(|(id, _)| id.starts_with("flank:")), "neighbouring hexsides do not flank");
    g.choose(&both).expect("combined fire");
    let r = roll_prompt(&g);
    assert!(r.contains("on column 5"), "{r}");
    dice(&mut g, &[1, 1]);
    let logged = g.state().log.iter().rev().find(|e| e.roll.is_some()).expect("the d66 logged").text.clone();
    assert!(logged.starts_with("2OH + 33OH fire at"), "{logged}");
    assert!(logged.contains("column 5, roll 11"), "{logged}");
    // Both have fired: nothing is left to fire, the Movement Step begins.
    assert!(matches!(g.state().stage, Stage::Move { for_: MoveFor::Brigade { .. }, .. }), "{:?}", g.state().stage);
    g.check().expect("the state holds");
}

/// SR 9.3c, EX 9.3 x: fires from opposite sides of the 41st Georgia are announced together and
/// each is resolved one column right (3 SP: column 3 → 4; 2 SP: 2 → 3), one after the other; a
/// single announced fire may not be resolved as Flanking Fire.
#[test]
fn flanking_fire_shifts_each_announced_fire() {
    let (mut g, t) = board(3);
    let flank = format!("flank:{t}");
    assert!(options(&g).iter().any(|(id, _)| *id == flank), "{:?}", options(&g));
    g.choose(&flank).expect("announce");
    let opts = options(&g);
    let oh2 = format!("fire:u-2oh@{t}");
    let (_, label) = opts.iter().find(|(id, _)| *id == oh2).unwrap_or_else(|| panic!("no {oh2} in {opts:?}"));
    assert!(label.contains("3 SP, column 3 Flanking Fire +1 [EX 9.3 x, SR 9.3c] → 4"), "{label}");
    g.choose(&oh2).expect("announce the 2nd Ohio");
    assert!(!options(&g).iter().any(|(id, _)| id == "resolve"), "one line alone is no Flanking Fire");
    assert!(g.choose("resolve").is_err());
    g.choose(&format!("fire:u-33oh@{t}")).expect("announce the 33rd Ohio");
    g.choose("resolve").expect("resolve");
    let r = roll_prompt(&g);
    assert!(r.contains("on column 4") && r.contains("Flanking Fire +1"), "{r}");
    dice(&mut g, &[1, 1]);
    let r = roll_prompt(&g);
    assert!(r.contains("2 SP, column 2 Flanking Fire +1"), "{r}");
    assert!(r.contains("on column 3"), "{r}");
    dice(&mut g, &[1, 1]);
    let s = g.state();
    let flanked = s.log.iter().filter(|e| e.text.ends_with("(Flanking Fire)")).count();
    assert_eq!(flanked, 2, "both fires resolved as Flanking Fire");
    assert!(matches!(s.stage, Stage::Move { .. }), "{:?}", s.stage);
    g.check().expect("the state holds");
}

/// SR 9.3c: an announcement withdrawn before any fire leaves every unit free to fire.
#[test]
fn a_withdrawn_flanking_announcement_fires_nothing() {
    let (mut g, t) = board(3);
    g.choose(&format!("flank:{t}")).expect("announce");
    g.choose(&format!("fire:u-2oh@{t}")).expect("announce the 2nd Ohio");
    g.choose("cancel").expect("withdraw");
    assert!(matches!(&g.state().stage, Stage::FireStep { fired, .. } if fired.is_empty()), "{:?}", g.state().stage);
    assert!(options(&g).iter().any(|(id, _)| *id == format!("fire:u-2oh@{t}")));
    assert_eq!(g.pending().map(|d| d.kind).as_deref(), Some("fire-combat"));
}

/// Ruling PC31: once the announced lines flank, the announcement stands.
#[test]
fn a_flanking_announcement_stands_once_it_flanks() {
    let (mut g, t) = board(3);
    g.choose(&format!("flank:{t}")).expect("announce");
    g.choose(&format!("fire:u-2oh@{t}")).expect("announce the 2nd Ohio");
    g.choose(&format!("fire:u-33oh@{t}")).expect("announce the 33rd Ohio");
    assert!(g.choose("cancel").is_err());
    assert!(options(&g).iter().any(|(id, _)| id == "resolve"));
}

/// SR 9.3c "for any reason", SR 10.7: the 2nd Ohio leaves a hex between two Confederate units on
/// opposite sides; their Opportunity Fires, announced together as a Flanking Fire, are each
/// resolved at half SP (Battleworn 2 SP: 1) and one column right, and with no effect the move
/// goes on.
#[test]
fn opportunity_fire_may_flank_a_moving_unit() {
    use caisson_blindswords::charts::Order;
    use caisson_blindswords::state::Moving;
    let (rules, mut state) = BlindSwords::new(Data::builtin().expect("built-in data"), "pv-16-1").expect("scenario");
    let (m, around) = open_ground(&rules);
    for u in &mut state.units {
        u.place = Place::Eliminated;
    }
    for b in &mut state.brigades {
        b.on_hold = false;
    }
    set(&rules, &mut state, "u-2oh", m, true);
    set(&rules, &mut state, "c-41ga", around[0], true);
    set(&rules, &mut state, "c-1tn", around[3], true);
    let oh = state.unit_index("u-2oh").expect("2OH");
    state.stage = Stage::Move {
        for_: MoveFor::Brigade { brigade: "harris".into(), order: Order::Attack, by: Activator::Command },
        moved: Vec::new(),
        current: Some(Moving::new(oh, 6.0)),
    };
    let setup =
        Setup { system: SYSTEM.into(), scenario: "pv-16-1".into(), seed: 1, dice: DiceMode::Manual, options: vec![] };
    let mut g = Game::new(rules, state, setup);
    g.check().expect("the set-up holds");
    let to = options(&g).into_iter().find_map(|(id, _)| id.strip_prefix("hex:").map(str::to_string)).expect("a step");
    g.choose(&format!("hex:{to}")).expect("announce the step");
    let flank = format!("flank:{m}");
    assert!(options(&g).iter().any(|(id, _)| *id == flank), "{:?}", options(&g));
    g.choose(&flank).expect("announce a Flanking Fire");
    assert_eq!(g.pending().map(|d| (d.side, d.kind)), Some(("confederate".into(), "flanking-fire".into())));
    g.choose(&format!("fire:c-41ga@{m}")).expect("announce the Georgians");
    g.choose(&format!("fire:c-1tn@{m}")).expect("announce the Tennesseans");
    g.choose("resolve").expect("resolve");
    for _ in 0..2 {
        let r = roll_prompt(&g);
        assert!(r.contains("1 SP, column 1 Flanking Fire +1 [EX 9.3 x, SR 9.3c] → 2"), "{r}");
        dice(&mut g, &[1, 1]);
    }
    let s = g.state();
    assert_eq!(s.log.iter().filter(|e| e.text.ends_with("(Flanking Fire)")).count(), 2);
    assert_eq!(s.hex_of(oh).map(|h| h.to_string()), Some(to), "the move goes on: {:?}", s.stage);
    g.check().expect("the state holds");
}
