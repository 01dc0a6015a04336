//! HSN Scenario 5 blockhouses: the seven markers, the Confederate attack on one (special rule
//! (a)) and the Blockhouse Table, driven through the sequence of play with the dice given.

mod common;
use caisson_gcacw::blockhouse::standing;
use caisson_gcacw::charts::Half;
use caisson_gcacw::registry::{hsn, notices};
use caisson_gcacw::sequence::{choose, pending, roll};
use caisson_gcacw::state::{March, Stage, State};
use caisson_gcacw::victory::score;
use caisson_gcacw::{Gcacw, Settings};
use caisson_hexmap::Hex;
use caisson_kernel::Pending;
use common::{option_ids, place};

fn h(id: u16) -> Hex {
    Hex::new(i16::try_from(id / 100).expect("column"), i16::try_from(id % 100).expect("row"))
}

/// Sc 5 on Turn 1 with `id` marching from `hex` with `mp` Movement Points left.
fn marching(id: &str, hex: Hex, manpower: u8, mp: u16) -> (Gcacw, State, usize) {
    let (rules, mut state) = Gcacw::new(hsn().expect("HSN data loads"), "hsn-5", Settings::default()).expect("hsn-5");
    let u = place(&rules, &mut state, id, hex, manpower);
    let march = March {
        unit: u,
        ma: 6,
        left: Half::whole(mp),
        moved: false,
        started_in_zoc: false,
        wagon_paid: false,
        stopped: false,
        declined: Vec::new(),
        blockhouse_tried: false,
        path: vec![hex],
    };
    state.stage = Stage::Moving { march };
    (rules, state, u)
}

fn roll_modifiers(rules: &Gcacw, state: &State) -> Vec<(String, i32)> {
    match pending(rules, state) {
        Pending::Roll(r) => r.modifiers.into_iter().map(|m| (m.label, m.value)).collect(),
        other => panic!("expected a roll, got {other:?}"),
    }
}

/// HSN Sc 5 set-up: seven blockhouses on the Nashville and Chattanooga railroad, and the
/// blockhouse rules are enforced (not listed among the rules the game leaves to the players).
#[test]
fn seven_blockhouses_stand_at_the_start() {
    let (rules, state) = Gcacw::new(hsn().expect("data"), "hsn-5", Settings::default()).expect("hsn-5");
    let hexes: Vec<Hex> = standing(&rules, &state).into_iter().map(|(h, _)| h).collect();
    assert_eq!(hexes, [5610, 5512, 5514, 5519, 5523, 5424, 5328].map(h));
    let lines = notices("hsn-5").expect("notices");
    assert!(!lines.iter().any(|l| l.contains("Blockhouse")), "{lines:#?}");
}

/// HSN Sc 5 (a) and the Blockhouse Table: Armstrong (cavalry, Combat 3) with Forrest makes a hasty
/// attack for 2 MP; the die gets −1 hasty, +1 Combat 2 or more, +1 Forrest stacked; a 4 makes 5:
/// Destroyed, +6 VP, and the march goes on with the MP left.
#[test]
fn hasty_attack_destroys_a_blockhouse_hsn_sc5() {
    let (rules, mut state, u) = marching("armstrong", h(5610), 3, 4);
    let forrest = rules.leader_by_id("forrest").expect("forrest");
    state.leaders[forrest].with = Some(u);
    let ids = option_ids(&rules, &state);
    // Cavalry: column of route 0 MP, hasty 2, normal 4; prepared (8) is out of reach.
    for ty in ["column-of-route", "hasty", "normal"] {
        assert!(ids.contains(&format!("blockhouse:{ty}")), "{ty} offered: {ids:?}");
    }
    assert!(!ids.contains(&"blockhouse:prepared".to_string()), "{ids:?}");
    let before = score(&rules, &state).total;

    choose(&rules, &mut state, "blockhouse:hasty").expect("hasty attack");
    let mods = roll_modifiers(&rules, &state);
    assert_eq!(mods.iter().map(|(_, v)| v).sum::<i32>(), 1, "{mods:?}");
    assert_eq!(mods.len(), 3, "{mods:?}");
    roll(&rules, &mut state, &[4]).expect("die");

    assert_eq!(standing(&rules, &state).len(), 6, "the blockhouse in 5610 is gone");
    assert!(!standing(&rules, &state).iter().any(|(hex, _)| *hex == h(5610)));
    assert_eq!(score(&rules, &state).total, before + 6.0, "Destroyed is worth 6 VP");
    let Stage::Moving { march } = &state.stage else { panic!("the march goes on: {:?}", state.stage) };
    assert_eq!(march.left, Half::whole(2), "2 of 4 MP spent on the hasty attack");
    let last = state.log.last().expect("log");
    assert!(last.text.contains("Destroyed"), "{}", last.text);
}

/// Blockhouse Table low rows: a column-of-route attack by a disorganized one-Manpower brigade
/// (Combat ½): −3 and −1; a 5 makes 1, "No Effect (+2 FL)", and fatigue 3 goes to 4, not 5. The
/// unit may not attack that blockhouse again in the same march.
#[test]
fn failed_attack_tires_the_attacker_hsn_sc5() {
    let (rules, mut state, u) = marching("palmer", h(5512), 1, 3);
    state.units[u].organized = false;
    state.units[u].fatigue = 3;
    choose(&rules, &mut state, "blockhouse:column-of-route").expect("column of route");
    let mods = roll_modifiers(&rules, &state);
    assert_eq!(mods.iter().map(|(_, v)| v).sum::<i32>(), -4, "{mods:?}");
    roll(&rules, &mut state, &[5]).expect("die");
    assert_eq!(state.units[u].fatigue, 4, "+2 FL stops at 4");
    assert_eq!(standing(&rules, &state).len(), 7);
    let Stage::Moving { march } = &state.stage else { panic!("no extended march: {:?}", state.stage) };
    assert_eq!(march.left, Half::whole(3), "column of route costs no MP");
    let ids = option_ids(&rules, &state);
    assert!(!ids.iter().any(|i| i.starts_with("blockhouse:")), "one attack per march: {ids:?}");
}

/// Only Confederate units attack blockhouses; a Union unit in the hex is offered none.
#[test]
fn union_units_do_not_attack_blockhouses() {
    let (rules, state, _) = marching("g-johnson-a", h(5514), 2, 6);
    let ids = option_ids(&rules, &state);
    assert!(!ids.iter().any(|i| i.starts_with("blockhouse:")), "{ids:?}");
}
