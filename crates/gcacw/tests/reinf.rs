//! HSN Advanced Game (Scenario 9): the Reinforcement Phase (HSN-A 12.0 Union table and entry
//! areas, 13.0 Confederate constant and variable reinforcements, 2.2 Lyon's Kentucky Raid and
//! Accelerated Union Reinforcements), Union Manpower Enhancement (11.0) and Union railroad
//! movement (9.0), driven through the sequence of play with the dice given.

mod common;
use caisson_gcacw::registry::{hsn, notices};
use caisson_gcacw::reinforcement::Made;
use caisson_gcacw::sequence::{choose, enter, pending, roll, Phase};
use caisson_gcacw::state::{Stage, State, StationMark};
use caisson_gcacw::{Gcacw, Settings, Side};
use caisson_hexmap::{Hex, Hexside};
use caisson_kernel::{Pending, Rules};
use common::{option_ids, place};

fn h(id: u16) -> Hex {
    Hex::new(i16::try_from(id / 100).expect("column"), i16::try_from(id % 100).expect("row"))
}

fn game(scenario: &str) -> (Gcacw, State) {
    Gcacw::new(hsn().expect("HSN data loads"), scenario, Settings::default()).expect("scenario")
}

/// Sc 9 entering `phase` of `turn`.
fn at_phase(turn: u16, phase: Phase, setup: impl FnOnce(&Gcacw, &mut State)) -> (Gcacw, State) {
    let (rules, mut state) = game("hsn-9");
    state.turn = turn;
    setup(&rules, &mut state);
    enter(&rules, &mut state, phase);
    (rules, state)
}

fn roll_modifiers(rules: &Gcacw, state: &State) -> Vec<(String, i32)> {
    match pending(rules, state) {
        Pending::Roll(r) => r.modifiers.into_iter().map(|m| (m.label, m.value)).collect(),
        other => panic!("expected a roll, got {other:?}"),
    }
}

fn made_union(state: &mut State, sets: std::ops::RangeInclusive<u16>, turn: u16) {
    for set in sets {
        state.reinforcement.made.push(Made { group: "union-reinforcements".into(), set, turn });
    }
}

/// Union sets made available and every counter of them placed (struck off the lists).
fn done_union(rules: &Gcacw, state: &mut State, sets: std::ops::RangeInclusive<u16>) {
    made_union(state, sets.clone(), 5);
    for row in &rules.scenario().arrival {
        if row.group == "union-reinforcements" && row.set.is_some_and(|s| sets.contains(&s)) {
            let c = rules.catalog().index(&row.counter).expect("counter");
            state.reinforcement.placed.insert(u16::try_from(c).expect("u16"));
        }
    }
}

/// Smith-B, the constant reinforcement, already on his way.
fn smith_done(rules: &Gcacw, state: &mut State) {
    state.reinforcement.made.push(Made { group: "confederate-constant".into(), set: 0, turn: 10 });
    let c = rules.catalog().index("smith-b").expect("smith-b");
    state.reinforcement.placed.insert(u16::try_from(c).expect("u16"));
}

fn unit(rules: &Gcacw, id: &str) -> usize {
    rules.unit_by_id(id).unwrap_or_else(|| panic!("unit {id}"))
}

/// The reinforcement rules of Sc 9 are enforced: no longer listed as left to the players.
#[test]
fn reinforcement_rules_are_enforced_hsn_a_12_0() {
    let lines = notices("hsn-9").expect("notices");
    for title in [
        "Union Reinforcement Table",
        "Union Entry Areas",
        "Confederate Constant Reinforcement",
        "Confederate Variable Reinforcements",
        "Lyon's Kentucky Raid",
    ] {
        assert!(!lines.iter().any(|l| l.contains(&format!("not yet enforced: {title} —"))), "{title}: {lines:#?}");
    }
}

/// HSN-A 12.0: no Union roll on Turn 1; on Turn 2 the die gets −4, and a 6 makes 2: one set,
/// Hammond (set 1, N), placed in 5706 at FL0, organized, recorded as reinforced on Turn 2; the
/// phase then goes on to the Leader Transfer Phase.
#[test]
fn turn_2_roll_brings_set_1_hsn_a_12_0() {
    let (rules, state) = at_phase(1, Phase::Reinforcement, |_, _| {});
    assert!(matches!(state.stage, Stage::Transfers { .. }), "no roll on Turn 1: {:?}", state.stage);

    let (rules2, mut state) = at_phase(2, Phase::Reinforcement, |_, _| {});
    let _ = rules;
    let rules = rules2;
    assert_eq!(roll_modifiers(&rules, &state), vec![("Turn 2".to_string(), -4)]);
    roll(&rules, &mut state, &[6]).expect("die");
    let ids = option_ids(&rules, &state);
    for hex in ["5703", "5705", "5706", "5707"] {
        assert!(ids.contains(&format!("place:hammond:{hex}")), "{hex}: {ids:?}");
    }
    assert!(!ids.iter().any(|i| i.contains("knipe") || i.contains("g-johnson-a")), "only set 1: {ids:?}");
    assert_eq!(ids.len(), 5, "four hexes and hold: {ids:?}");
    let hammond = unit(&rules, "hammond");
    state.units[hammond].fatigue = 3;
    state.units[hammond].organized = false;
    choose(&rules, &mut state, "place:hammond:5706").expect("place");
    assert_eq!(state.units[hammond].hex, Some(h(5706)));
    assert_eq!(state.units[hammond].fatigue, 0);
    assert!(state.units[hammond].organized);
    assert_eq!(state.campaign.reinforced_on.get(&hammond), Some(&2));
    assert!(matches!(state.stage, Stage::Transfers { .. }), "{:?}", state.stage);
    rules.check(&state).expect("invariants");
}

/// HSN-A 12.0 table: on Turn 2 a 5 makes 1 ("1 or less"): no set, no placement.
#[test]
fn low_roll_gives_no_set_hsn_a_12_0() {
    let (rules, mut state) = at_phase(2, Phase::Reinforcement, |_, _| {});
    roll(&rules, &mut state, &[5]).expect("die");
    assert!(state.reinforcement.made.is_empty());
    assert!(matches!(state.stage, Stage::Transfers { .. }), "{:?}", state.stage);
}

/// HSN-A 12.0: on Turn 8 an unmodified 6 makes three sets (1, 2, 3); the −3 for set 11 applies only
/// once it was made available in an earlier turn.
#[test]
fn three_sets_and_the_set_11_modifier_hsn_a_12_0() {
    let (rules, mut state) = at_phase(8, Phase::Reinforcement, |_, _| {});
    assert!(roll_modifiers(&rules, &state).is_empty());
    roll(&rules, &mut state, &[6]).expect("die");
    let sets: Vec<u16> = state.reinforcement.made.iter().map(|m| m.set).collect();
    assert_eq!(sets, [1, 2, 3]);

    let (rules, state) = at_phase(9, Phase::Reinforcement, |_, s| made_union(s, 1..=11, 9));
    assert!(roll_modifiers(&rules, &state).is_empty(), "set 11 made available this turn");
    let (rules, state) = at_phase(9, Phase::Reinforcement, |_, s| made_union(s, 1..=11, 8));
    let mods = roll_modifiers(&rules, &state);
    assert_eq!(mods.iter().map(|(_, v)| v).sum::<i32>(), -3, "{mods:?}");
}

/// HSN-A 12.0 withholding (R55): sets held back stay available for later phases, and the next roll
/// gives the sets after them.
#[test]
fn held_sets_arrive_later_hsn_a_12_0() {
    let (rules, mut state) = at_phase(8, Phase::Reinforcement, |_, _| {});
    roll(&rules, &mut state, &[2]).expect("die: 1 set");
    choose(&rules, &mut state, "hold").expect("hold");
    assert_eq!(state.units[unit(&rules, "hammond")].hex, None);
    assert!(matches!(state.stage, Stage::Transfers { .. }), "{:?}", state.stage);

    state.turn = 9;
    enter(&rules, &mut state, Phase::Reinforcement);
    roll(&rules, &mut state, &[2]).expect("die: 1 set");
    let sets: Vec<u16> = state.reinforcement.made.iter().map(|m| m.set).collect();
    assert_eq!(sets, [1, 2], "the roll gives set 2, after the held set 1");
    let ids = option_ids(&rules, &state);
    assert!(ids.contains(&"place:hammond:5703".to_string()), "{ids:?}");
    assert!(ids.contains(&"place:g-johnson-a:4934".to_string()), "{ids:?}");
    assert!(!ids.iter().any(|i| i.starts_with("place:knipe:")), "a leader waits for a unit to arrive: {ids:?}");
}

/// HSN Sc 9 Entry Areas: a leader goes atop an arriving unit (R56); no unit goes into a
/// Confederate-occupied hex, but a Confederate ZOC hex is open.
#[test]
fn leaders_on_arriving_units_and_no_confederate_hex_hsn_sc9_entry_areas() {
    let (rules, mut state) = at_phase(8, Phase::Reinforcement, |rules, s| {
        made_union(s, 1..=1, 7);
        s.reinforcement.placed.insert(u16::try_from(rules.catalog().index("hammond").expect("c")).expect("u16"));
        place(rules, s, "pickett", h(5234), 2);
    });
    roll(&rules, &mut state, &[2]).expect("die: set 2");
    let ids = option_ids(&rules, &state);
    // 5234 is next to 5134 and 5334: Confederate ZOC does not close them.
    assert!(ids.contains(&"place:g-johnson-a:5134".to_string()), "{ids:?}");
    assert!(ids.contains(&"place:g-johnson-a:5334".to_string()), "{ids:?}");
    state.units[unit(&rules, "pickett")].hex = Some(h(5134));
    let ids = option_ids(&rules, &state);
    assert!(!ids.contains(&"place:g-johnson-a:5134".to_string()), "Confederate-occupied: {ids:?}");
    choose(&rules, &mut state, "place:g-johnson-a:4934").expect("place");
    let ids = option_ids(&rules, &state);
    assert_eq!(ids, ["place:knipe:4934", "hold"]);
    choose(&rules, &mut state, "place:knipe:4934").expect("leader");
    let knipe = rules.leader_by_id("knipe").expect("knipe");
    assert_eq!(state.leaders[knipe].with, Some(unit(&rules, "g-johnson-a")));
    rules.check(&state).expect("invariants");
}

/// HSN Sc 9 Entry Areas, M: Thomas's DN brigade arriving with Milroy may be placed in 5707 or an
/// undamaged N&C station whose rail path to 4934 is clear (R59); Steedman, with no leader, may not.
#[test]
fn m_infantry_with_a_leader_may_arrive_by_rail_hsn_sc9_entry_areas() {
    let (rules, mut state) = at_phase(8, Phase::Reinforcement, |_, s| made_union(s, 1..=5, 7));
    roll(&rules, &mut state, &[4]).expect("die: sets 6 and 7");
    let ids = option_ids(&rules, &state);
    for hex in ["4934", "5707", "5514", "5519", "5523", "5327", "5232"] {
        assert!(ids.contains(&format!("place:thomas-dn:{hex}")), "{hex}: {ids:?}");
    }
    assert!(!ids.iter().any(|i| i.starts_with("place:steedman:55")), "{ids:?}");
    assert!(!ids.contains(&"place:steedman:5707".to_string()), "{ids:?}");

    // A damaged La Vergne (5519) cuts the path from Nashville and Antioch, and is no placement.
    state.stations.insert(h(5519), StationMark::Damaged);
    let ids = option_ids(&rules, &state);
    for hex in ["5707", "5514", "5519"] {
        assert!(!ids.contains(&format!("place:thomas-dn:{hex}")), "{hex}: {ids:?}");
    }
    assert!(ids.contains(&"place:thomas-dn:5523".to_string()), "{ids:?}");
    // A Confederate unit next to the line south of Smyrna cuts that path too.
    place(&rules, &mut state, "pickett", h(5425), 2);
    let ids = option_ids(&rules, &state);
    assert!(!ids.contains(&"place:thomas-dn:5523".to_string()), "{ids:?}");
    assert!(ids.contains(&"place:thomas-dn:5232".to_string()), "{ids:?}");
    choose(&rules, &mut state, "place:thomas-dn:5232").expect("placed");
    let dn = unit(&rules, "thomas-dn");
    assert_eq!(state.units[dn].fatigue, 0, "no fatigue for the rail placement");
    assert_eq!(state.rail_used.manpower, 0, "outside the 11-Manpower limit");
    assert!(option_ids(&rules, &state).contains(&"place:milroy:5232".to_string()));
}

/// HSN-A 2.2 and 12.0 (R57): an Accelerated Union Reinforcements set is made available before the
/// roll, which then gives the set after it.
#[test]
fn accelerated_set_before_the_roll_hsn_a_2_2() {
    let (rules, mut state) = at_phase(3, Phase::Reinforcement, |_, s| s.campaign.accelerated_sets = 1);
    assert_eq!(state.campaign.accelerated_sets, 0, "consumed");
    assert_eq!(state.reinforcement.made.iter().map(|m| m.set).collect::<Vec<_>>(), [1]);
    roll(&rules, &mut state, &[6]).expect("die: 6-4 = 2, one set");
    assert_eq!(state.reinforcement.made.iter().map(|m| m.set).collect::<Vec<_>>(), [1, 2]);
}

/// HSN-A 2.2 Lyon's Kentucky Raid (R58): the six Union counters never arrive, so with sets 1–12
/// made available the table is no longer rolled; and Lyon (Confederate set 6) is skipped.
#[test]
fn lyon_raid_ends_the_union_table_early_hsn_a_2_2() {
    let (_, state) = at_phase(20, Phase::Reinforcement, |r, s| done_union(r, s, 1..=12));
    assert!(matches!(state.stage, Stage::ReinforcementRoll { side: Side::Union }), "{:?}", state.stage);
    let (_, state) = at_phase(20, Phase::Reinforcement, |r, s| {
        done_union(r, s, 1..=12);
        smith_done(r, s);
        s.campaign.lyon_raid = true;
    });
    assert!(matches!(state.stage, Stage::Transfers { .. }), "{:?}", state.stage);
    // A held set 13 is struck too: nothing left to place.
    let (_, state) = at_phase(20, Phase::Reinforcement, |r, s| {
        done_union(r, s, 1..=12);
        made_union(s, 13..=13, 19);
        smith_done(r, s);
        s.campaign.lyon_raid = true;
    });
    assert!(matches!(state.stage, Stage::Transfers { .. }), "{:?}", state.stage);

    let conf = |r: &Gcacw, s: &mut State| {
        for set in 1..=5 {
            s.reinforcement.made.push(Made { group: "confederate-variable".into(), set, turn: 24 });
        }
        s.reinforcement.made.push(Made { group: "confederate-constant".into(), set: 0, turn: 10 });
        done_union(r, s, 1..=16);
        let rows: Vec<String> = r
            .scenario()
            .arrival
            .iter()
            .filter(|row| row.group.starts_with("confederate-") && row.counter != "lyon")
            .map(|row| row.counter.clone())
            .collect();
        for id in rows {
            let c = r.catalog().index(&id).expect("counter");
            s.reinforcement.placed.insert(u16::try_from(c).expect("u16"));
        }
    };
    let (_, state) = at_phase(25, Phase::Reinforcement, |r, s| conf(r, s));
    assert!(matches!(state.stage, Stage::ReinforcementRoll { side: Side::Confederate }), "{:?}", state.stage);
    let (_, state) = at_phase(25, Phase::Reinforcement, |r, s| {
        conf(r, s);
        s.campaign.lyon_raid = true;
    });
    assert!(matches!(state.stage, Stage::Transfers { .. }), "{:?}", state.stage);
}

/// HSN-A 13.0 Constant Reinforcement: Smith-B on Turn 10, in 0107–0114 not Union-occupied; not
/// before; he may be held back and placed later.
#[test]
fn smith_b_arrives_on_turn_10_hsn_a_13_0() {
    let (_, state) = at_phase(9, Phase::Reinforcement, |r, s| done_union(r, s, 1..=16));
    assert!(matches!(state.stage, Stage::Transfers { .. }), "{:?}", state.stage);

    let (rules, mut state) = at_phase(10, Phase::Reinforcement, |rules, s| {
        done_union(rules, s, 1..=16);
        place(rules, s, "coon", h(110), 2);
    });
    assert!(matches!(state.stage, Stage::Reinforcement { side: Side::Confederate }), "{:?}", state.stage);
    let ids = option_ids(&rules, &state);
    assert_eq!(ids.len(), 8, "0107–0114 less the Union-occupied 0110, and hold: {ids:?}");
    assert!(!ids.contains(&"place:smith-b:0110".to_string()));
    choose(&rules, &mut state, "hold").expect("hold");
    state.turn = 11;
    enter(&rules, &mut state, Phase::Reinforcement);
    choose(&rules, &mut state, "place:smith-b:0112").expect("placed a turn later");
    let smith = unit(&rules, "smith-b");
    assert_eq!(state.units[smith].hex, Some(h(112)));
    assert_eq!(state.campaign.reinforced_on.get(&smith), Some(&11));
    assert!(matches!(state.stage, Stage::Transfers { .. }), "{:?}", state.stage);
}

/// HSN-A 13.0 Variable Reinforcements: from Turn 24 a die, 1–5 nothing, 6 the lowest set (Roddey
/// and Pickett), placed in 0107–0114; leader atop the unit.
#[test]
fn variable_reinforcements_on_a_six_hsn_a_13_0() {
    let setup = |r: &Gcacw, s: &mut State| {
        done_union(r, s, 1..=16);
        s.reinforcement.made.push(Made { group: "confederate-constant".into(), set: 0, turn: 10 });
        let c = r.catalog().index("smith-b").expect("smith-b");
        s.reinforcement.placed.insert(u16::try_from(c).expect("u16"));
    };
    let (_, state) = at_phase(23, Phase::Reinforcement, |r, s| setup(r, s));
    assert!(matches!(state.stage, Stage::Transfers { .. }), "no roll before Turn 24: {:?}", state.stage);
    let (rules, mut state) = at_phase(24, Phase::Reinforcement, |r, s| setup(r, s));
    roll(&rules, &mut state, &[5]).expect("die");
    assert!(matches!(state.stage, Stage::Transfers { .. }), "{:?}", state.stage);
    let (rules, mut state) = at_phase(24, Phase::Reinforcement, |r, s| setup(r, s));
    roll(&rules, &mut state, &[6]).expect("die");
    let ids = option_ids(&rules, &state);
    assert!(ids.contains(&"place:pickett:0107".to_string()), "{ids:?}");
    assert!(!ids.iter().any(|i| i.contains("breckinridge")), "set 2 waits: {ids:?}");
    choose(&rules, &mut state, "place:pickett:0107").expect("unit");
    choose(&rules, &mut state, "place:roddey:0107").expect("leader");
    let roddey = rules.leader_by_id("roddey").expect("roddey");
    assert_eq!(state.leaders[roddey].with, Some(unit(&rules, "pickett")));
    rules.check(&state).expect("invariants");
}

/// HSN-A 11.0: no phase before Turn 3 or after Turn 9; a 1 does nothing; a 6 lets one cavalry and
/// one infantry unit gain 1 Manpower, not above the 7.2 caps (Cox 11, a division), the marker
/// keeping its side; the Manpower ledger still balances.
#[test]
fn manpower_enhancement_hsn_a_11_0() {
    let (_, state) = at_phase(10, Phase::ManpowerEnhancement, |_, _| {});
    assert!(!matches!(state.stage, Stage::EnhancementRoll), "{:?}", state.stage);
    let (rules, mut state) = at_phase(3, Phase::ManpowerEnhancement, |_, _| {});
    assert!(matches!(state.stage, Stage::EnhancementRoll), "{:?}", state.stage);
    roll(&rules, &mut state, &[1]).expect("die");
    assert!(matches!(state.stage, Stage::ReinforcementRoll { .. }), "{:?}", state.stage);

    let (rules, mut state) = at_phase(3, Phase::ManpowerEnhancement, |_, _| {});
    roll(&rules, &mut state, &[6]).expect("die");
    let ids = option_ids(&rules, &state);
    assert!(ids.contains(&"enhance:whitaker".to_string()), "{ids:?}");
    assert!(ids.contains(&"enhance:capron-a".to_string()), "{ids:?}");
    assert!(!ids.contains(&"enhance:cox".to_string()), "Cox is at the division cap of 11: {ids:?}");
    assert!(ids.contains(&"none".to_string()));
    let capron = unit(&rules, "capron-a");
    state.units[capron].organized = false;
    choose(&rules, &mut state, "enhance:capron-a").expect("cavalry");
    assert_eq!(state.units[capron].manpower, 2);
    assert!(!state.units[capron].organized, "the marker keeps its side");
    let ids = option_ids(&rules, &state);
    assert!(!ids.iter().any(|i| i == "enhance:coon"), "the cavalry gain is used: {ids:?}");
    choose(&rules, &mut state, "enhance:whitaker").expect("infantry");
    assert_eq!(state.units[unit(&rules, "whitaker")].manpower, 7);
    assert!(matches!(state.stage, Stage::ReinforcementRoll { .. }), "{:?}", state.stage);
    rules.check(&state).expect("Manpower ledger with gains");
}

/// HSN-A 11.0: a unit whose six neighbours are all Confederate-occupied or in Confederate ZOC
/// with no Union unit in them may not be enhanced; a Union unit in one of them opens it again.
#[test]
fn hemmed_in_unit_is_not_enhanced_hsn_a_11_0() {
    let around: Vec<Hex> = {
        let (rules, _) = game("hsn-9");
        rules.map().neighbors(h(3015)).map(|(_, n)| n).collect()
    };
    assert_eq!(around.len(), 6);
    let rebels = ["johnson", "clayton", "brown", "cleburne", "loring", "french"];
    let (rules, mut state) = at_phase(3, Phase::ManpowerEnhancement, |rules, s| {
        place(rules, s, "whitaker", h(3015), 6);
        for (id, &n) in rebels.iter().zip(&around) {
            place(rules, s, id, n, 5);
        }
    });
    roll(&rules, &mut state, &[3]).expect("die");
    let ids = option_ids(&rules, &state);
    assert!(!ids.contains(&"enhance:whitaker".to_string()), "hemmed in: {ids:?}");
    assert!(ids.contains(&"enhance:wood".to_string()), "{ids:?}");
    // One neighbour left by its Confederate unit but held by a Union one.
    let french = unit(&rules, "french");
    state.units[french].hex = None;
    place(&rules, &mut state, "wood", around[5], 9);
    assert!(option_ids(&rules, &state).contains(&"enhance:whitaker".to_string()));
}

/// Sc 9 on Turn 5 with the Union to act, `id` placed in `hex` at fatigue 0.
fn union_to_act(id: &str, hex: Hex, manpower: u8) -> (Gcacw, State, usize) {
    let (rules, mut state) = game("hsn-9");
    state.turn = 5;
    let u = place(&rules, &mut state, id, hex, manpower);
    state.units[u].fatigue = 0;
    state.stage = Stage::Action { side: Side::Union, other_passed: false };
    (rules, state, u)
}

/// HSN-A 9.0: Van Cleve (infantry, FL0) in Murfreesboro rides the N&C to Nashville: +2 FL, only
/// undamaged N&C stations as ends, once per turn.
#[test]
fn rail_move_to_nashville_hsn_a_9_0() {
    let (rules, mut state, u) = union_to_act("van-cleve", h(5232), 2);
    let ids = option_ids(&rules, &state);
    assert!(ids.contains(&"rail-march:van-cleve".to_string()), "{ids:?}");
    choose(&rules, &mut state, "rail-march:van-cleve").expect("rail");
    let ids = option_ids(&rules, &state);
    let ends: Vec<&str> = ids.iter().filter_map(|i| i.strip_prefix("rail:")).collect();
    assert_eq!(ends, ["5327", "5514", "5519", "5523", "5707"], "the N&C stations: {ids:?}");
    choose(&rules, &mut state, "rail:5707").expect("to Nashville");
    assert_eq!(state.units[u].hex, Some(h(5707)));
    assert_eq!(state.units[u].fatigue, 2);
    assert_eq!(state.rail_used.manpower, 2);
    state.stage = Stage::Action { side: Side::Union, other_passed: false };
    assert!(!option_ids(&rules, &state).contains(&"rail-march:van-cleve".to_string()), "once per turn");
}

/// HSN-A 9.0 eligibility: not above FL2, not in enemy ZOC, only in an N&C station, only infantry,
/// never Confederates, never in a Basic scenario.
#[test]
fn who_may_ride_hsn_a_9_0() {
    let (rules, mut state, u) = union_to_act("van-cleve", h(5232), 2);
    state.units[u].fatigue = 3;
    assert!(!option_ids(&rules, &state).contains(&"rail-march:van-cleve".to_string()), "FL3");
    state.units[u].fatigue = 2;
    assert!(option_ids(&rules, &state).contains(&"rail-march:van-cleve".to_string()), "FL2");
    place(&rules, &mut state, "pickett", h(5132), 2);
    assert!(!option_ids(&rules, &state).contains(&"rail-march:van-cleve".to_string()), "in enemy ZOC");

    let (rules, state, _) = union_to_act("van-cleve", h(4910), 2);
    assert!(!option_ids(&rules, &state).contains(&"rail-march:van-cleve".to_string()), "Brentwood is N&D");
    let (rules, state, _) = union_to_act("hammond", h(5232), 2);
    assert!(!option_ids(&rules, &state).contains(&"rail-march:hammond".to_string()), "cavalry");

    let (rules, mut state, _) = union_to_act("smith-b", h(5232), 2);
    state.stage = Stage::Action { side: Side::Confederate, other_passed: false };
    assert!(!option_ids(&rules, &state).contains(&"rail-march:smith-b".to_string()), "Confederate");

    let (rules, mut state) = game("hsn-2");
    if let Some(u) = rules.unit_by_id("o-moore") {
        state.units[u].hex = Some(h(5232));
        state.units[u].fatigue = 0;
        state.stage = Stage::Action { side: Side::Union, other_passed: false };
        assert!(!option_ids(&rules, &state).iter().any(|i| i.starts_with("rail-march:")), "Basic game");
    }
}

/// HSN-A 9.0 restrictions on the way: enemy ZOC (even Union-occupied), damaged stations and a
/// destroyed bridge stop the ride; at most 11 infantry Manpower per turn.
#[test]
fn rail_limits_hsn_a_9_0() {
    let (rules, mut state, _) = union_to_act("van-cleve", h(5232), 2);
    state.stations.insert(h(5523), StationMark::Damaged);
    choose(&rules, &mut state, "rail-march:van-cleve").expect("rail");
    let ids = option_ids(&rules, &state);
    assert_eq!(ids, ["rail:5327", "cancel"], "Smyrna damaged blocks the line: {ids:?}");

    let (rules, mut state, _) = union_to_act("van-cleve", h(5232), 2);
    place(&rules, &mut state, "17-usct", h(5424), 1);
    place(&rules, &mut state, "pickett", h(5325), 2);
    choose(&rules, &mut state, "rail-march:van-cleve").expect("rail");
    let ids = option_ids(&rules, &state);
    assert!(!ids.contains(&"rail:5707".to_string()), "enemy ZOC across the line: {ids:?}");

    // A bridge of the line, destroyed: no crossing, pontoon or not.
    let line = rules.map().named_hexsides("Nashville & Chattanooga RR").to_vec();
    if let Some(&(a, b)) = line.iter().find(|&&(a, b)| rules.map().hexside(a, b).intersects(Hexside::BRIDGE)) {
        let (rules, mut state, _) = union_to_act("van-cleve", h(5232), 2);
        state.bridges.destroyed.insert(caisson_gcacw::bridges::key(a, b));
        choose(&rules, &mut state, "rail-march:van-cleve").expect("rail");
        assert!(!option_ids(&rules, &state).contains(&"rail:5707".to_string()), "bridge {a}-{b} destroyed");
    }

    let (rules, mut state, _) = union_to_act("steedman", h(5232), 11);
    place(&rules, &mut state, "thomas-dn", h(5707), 4);
    state.units[unit(&rules, "thomas-dn")].fatigue = 0;
    assert!(option_ids(&rules, &state).contains(&"rail-march:thomas-dn".to_string()));
    choose(&rules, &mut state, "rail-march:steedman").expect("rail");
    choose(&rules, &mut state, "rail:5519").expect("ride");
    state.stage = Stage::Action { side: Side::Union, other_passed: false };
    assert!(!option_ids(&rules, &state).contains(&"rail-march:thomas-dn".to_string()), "11 Manpower used");
    state.turn = 6;
    assert!(option_ids(&rules, &state).contains(&"rail-march:thomas-dn".to_string()), "a new turn");
}

/// HSN-A 9.0: an attached leader rides along, or stays behind on another unit of the hex he may
/// be attached to (R61).
#[test]
fn leader_rides_or_stays_hsn_a_9_0() {
    let (rules, mut state, u) = union_to_act("van-cleve", h(5232), 2);
    let milroy = rules.leader_by_id("milroy").expect("milroy");
    state.leaders[milroy].with = Some(u);
    for id in ["140-in", "17-usct"] {
        let v = unit(&rules, id);
        state.units[v].hex = None;
    }
    choose(&rules, &mut state, "rail-march:van-cleve").expect("rail");
    assert!(!option_ids(&rules, &state).contains(&"rail-alone:5707".to_string()), "nobody to stay with");
    let other = place(&rules, &mut state, "140-in", h(5232), 1);
    assert!(option_ids(&rules, &state).contains(&"rail-alone:5707".to_string()));
    let mut riding = state.clone();
    choose(&rules, &mut riding, "rail:5707").expect("with Milroy");
    assert_eq!(rules.leader_hex(&riding, milroy), Some(h(5707)));
    choose(&rules, &mut state, "rail-alone:5707").expect("without Milroy");
    assert_eq!(state.leaders[milroy].with, Some(other));
    assert_eq!(state.units[u].hex, Some(h(5707)));
}
