//! SR 10.11 in play: a reinforcement brigade is placed, all of it, in its entry hex on its Full
//! Activation even over-stacked; it moves on from there, and what is still over-stacked when its
//! first move is over (or at once, frozen under a Regroup order) leaves the hex one unit at a
//! time, the largest first, to adjacent legal hexes (ruling PG36). Batteries are placed as the
//! Artillery Phase begins.

use caisson_blindswords::catalog::Side;
use caisson_blindswords::movement::{self, Board};
use caisson_blindswords::setup::Data;
use caisson_blindswords::state::{Activator, Place, Stage, State};
use caisson_blindswords::{sequence, BlindSwords};
use caisson_hexmap::Hex;
use caisson_kernel::{Pending, Rules};

const LAIBOLDT: [&str; 4] = ["u-2mo", "u-15mo", "u-44il", "u-73il"];

fn entry() -> Hex {
    "1025".parse().expect("hex")
}

/// Scenario 16.0 on turn 3, no Confederate on the map, Laiboldt's brigade (and Hescock's
/// battery) waiting to enter at 1025.
fn laiboldt_waiting() -> (BlindSwords, State) {
    let (rules, mut state) = BlindSwords::new(Data::builtin().expect("built-in data"), "pv-16-0").expect("scenario");
    let line =
        rules.scenario().reinforcement.iter().position(|r| r.brigades.iter().any(|b| b == "laiboldt")).expect("line");
    for i in state.to_place.clone() {
        state.units[i].place = Place::Eliminated;
    }
    state.to_place.clear();
    for u in &mut state.units {
        if u.side == Side::Confederate {
            u.place = Place::Eliminated;
        }
        if u.brigade.as_deref() == Some("laiboldt") || u.id == "u-hescock-art" {
            u.place = Place::Waiting(line);
            u.on_hold = false;
        }
    }
    for b in &mut state.brigades {
        b.on_hold = false;
    }
    state.turn = 3;
    (rules, state)
}

fn pending_kind(rules: &BlindSwords, state: &State) -> Option<String> {
    match rules.pending(state) {
        Pending::Decide(d) => Some(d.kind),
        _ => None,
    }
}

fn first_option(rules: &BlindSwords, state: &State) -> String {
    match rules.pending(state) {
        Pending::Decide(d) => d.options[0].id.clone(),
        other => panic!("no decision: {other:?}"),
    }
}

fn in_entry(state: &State) -> Vec<String> {
    LAIBOLDT
        .iter()
        .filter(|id| state.hex_of(state.unit_index(id).expect("unit")) == Some(entry()))
        .map(|s| (*s).to_string())
        .collect()
}

fn over_stacked(rules: &BlindSwords, state: &State, hex: Hex) -> bool {
    movement::stacking_fault(rules, state, &Board::new(&rules.data().map, state), hex, None).is_some()
}

/// Answers every over-stacked-entry decision with its first hex; returns the units moved, in order.
fn unstack_all(rules: &BlindSwords, state: &mut State) -> Vec<String> {
    let mut moved = Vec::new();
    while let Stage::Unstack { unit, .. } = state.stage {
        moved.push(state.units[unit].id.clone());
        let id = first_option(rules, state);
        assert!(id.starts_with("unstack:"), "{id}");
        rules.choose(state, &id).expect("unstack");
        rules.check(state).expect("the state holds while unstacking");
    }
    moved
}

/// SR 10.11: on a Full Activation with a Maneuver order, all four regiments (41 SP) are placed in
/// 1025 over-stacked, and the state holds; the 73rd Illinois moves off, and when the brigade's
/// Movement Step is done the two regiments over the limit still in 1025 leave it one at a time,
/// largest first (here 9 SP each, by id), until 1025 is within the limit.
#[test]
fn sr_10_11_brigade_placed_over_stacked_then_moves_on() {
    let (rules, mut state) = laiboldt_waiting();
    state.stage = Stage::Orders { brigade: "laiboldt".into(), by: Activator::Command };
    rules.choose(&mut state, "order:maneuver").expect("order");
    assert_eq!(in_entry(&state), LAIBOLDT, "the whole brigade is placed in 1025");
    assert!(over_stacked(&rules, &state, entry()), "41 SP in one hex");
    assert!(state
        .log
        .iter()
        .any(|e| e.text.contains("arrive in 1025, over-stacked") && e.rule.as_deref() == Some("SR 10.11")));
    let hescock = state.unit_index("u-hescock-art").expect("Hescock");
    assert!(matches!(state.units[hescock].place, Place::Waiting(_)), "a battery waits for the Artillery Phase");
    rules.check(&state).expect("over-stacked in the entry hex is allowed");

    // The 73rd moves one hex out and stops.
    assert_eq!(pending_kind(&rules, &state).as_deref(), Some("move-unit"));
    rules.choose(&mut state, "unit:u-73il").expect("unit");
    let step = match rules.pending(&state) {
        Pending::Decide(d) => {
            d.options.iter().find(|o| o.id.starts_with("hex:")).map(|o| o.id.clone()).expect("a step")
        }
        other => panic!("{other:?}"),
    };
    rules.choose(&mut state, &step).expect("step");
    rules.choose(&mut state, "stop").expect("stop");
    assert_eq!(in_entry(&state), ["u-2mo", "u-15mo", "u-44il"]);
    assert!(over_stacked(&rules, &state, entry()), "27 SP still");

    // The others stay: the Movement Step ends, and the largest leave, the owner picking the hex.
    rules.choose(&mut state, "done").expect("done");
    assert_eq!(pending_kind(&rules, &state).as_deref(), Some("unstack"));
    let moved = unstack_all(&rules, &mut state);
    assert_eq!(moved, ["u-15mo", "u-2mo"], "one at a time, until 9 SP are left");
    assert_eq!(in_entry(&state), ["u-44il"]);
    assert!(!over_stacked(&rules, &state, entry()));
    let map = &rules.data().map;
    for id in &moved {
        let h = state.hex_of(state.unit_index(id).expect("unit")).expect("on the map");
        assert_eq!(map.distance(entry(), h), 1, "{id} went to an adjacent hex");
    }
    assert!(state.special.crowded.is_empty());
    rules.check(&state).expect("the state holds");
}

/// SR 10.11: frozen under a Regroup order, the reinforcements leave the over-stacked entry hex at
/// once, starting with the largest SP unit (the 14-SP 73rd Illinois), until it meets the limit.
#[test]
fn sr_10_11_frozen_under_regroup_largest_unit_leaves_first() {
    let (rules, mut state) = laiboldt_waiting();
    state.stage = Stage::Orders { brigade: "laiboldt".into(), by: Activator::Command };
    rules.choose(&mut state, "order:regroup").expect("order");
    assert_eq!(pending_kind(&rules, &state).as_deref(), Some("unstack"));
    let moved = unstack_all(&rules, &mut state);
    assert_eq!(moved, ["u-73il", "u-15mo", "u-2mo"]);
    assert!(!over_stacked(&rules, &state, entry()));
    assert!(state.log.iter().any(|e| e.text.starts_with("73IL leaves the over-stacked 1025 for")));
    rules.check(&state).expect("the state holds");
}

/// SR 10.11: a released battery waiting off the map is placed in its entry hex as the Artillery
/// Phase begins, before any Artillery Step.
#[test]
fn sr_10_11_battery_placed_at_the_start_of_the_artillery_phase() {
    let (rules, mut state) = laiboldt_waiting();
    let first = rules.scenario().first_player;
    let second = if first == Side::Union { Side::Confederate } else { Side::Union };
    state.stage = Stage::RandomEvents { side: second, left: 0 };
    sequence::advance(&rules, &mut state);
    let hescock = state.unit_index("u-hescock-art").expect("Hescock");
    assert_eq!(state.units[hescock].place, Place::Map(entry()));
    assert!(in_entry(&state).is_empty(), "the infantry waits for its brigade's activation");
    rules.check(&state).expect("the state holds");
}
