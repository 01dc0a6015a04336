//! The sequence of play driven by hand with manual dice: chit draws as dice (SR 7.3), the
//! automatic activation of EX 16.0b, orders (SR 8.1), movement limits (SR 10.6, EX 3.1), and a
//! broken data file refused with its file, line and field.

use std::path::{Path, PathBuf};

use caisson_blindswords::catalog::{Side, UnitType};
use caisson_blindswords::charts::Order;
use caisson_blindswords::movement::{self, Board};
use caisson_blindswords::registry::SYSTEM;
use caisson_blindswords::setup::Data;
use caisson_blindswords::state::{Place, Stage};
use caisson_blindswords::BlindSwords;
use caisson_hexmap::Hex;
use caisson_kernel::data::DataDir;
use caisson_kernel::{DiceMode, Game, Setup};

fn manual(scenario: &str) -> Game<BlindSwords> {
    let (rules, state) = BlindSwords::new(Data::builtin().expect("built-in data"), scenario).expect("scenario");
    let setup =
        Setup { system: SYSTEM.into(), scenario: scenario.into(), seed: 1, dice: DiceMode::Manual, options: vec![] };
    Game::new(rules, state, setup)
}

fn dice(g: &mut Game<BlindSwords>, faces: &[u8]) {
    for f in faces {
        g.choose(&format!("die:{f}")).unwrap_or_else(|e| panic!("die {f}: {e}"));
    }
}

/// Plays pv-16-0's Command Decision Phase: each side's first event as Key Chit, then the first
/// of the rest drawn at random (dice 1 1: outcome 0 of 36).
fn command_phase(g: &mut Game<BlindSwords>) {
    for _ in 0..2 {
        let d = g.pending().expect("key chit decision");
        assert_eq!(d.kind, "key-chit");
        let first = d.options[0].id.clone();
        g.choose(&first).expect("key chit");
    }
    dice(g, &[1, 1]);
    dice(g, &[1, 1]);
}

/// The dice that pick chit `i` of a cup of up to 36 (two dice read in base 6).
fn dice_for_index(i: usize) -> [u8; 2] {
    [u8::try_from(i / 6 + 1).unwrap_or(0), u8::try_from(i % 6 + 1).unwrap_or(0)]
}

/// SR 5.0-5.3 and EX 16.0a: one key and one random event per side, the two activation chits in
/// play and both Wild chits make a cup of 8; a draw is logged with its dice and the chit, and
/// dice beyond the last multiple of 8 (32 of 36) are rolled again.
#[test]
fn sr_7_3_a_draw_is_a_roll_and_names_the_chit() {
    let mut g = manual("pv-16-0");
    command_phase(&mut g);
    let cup = g.state().chits.cup.clone();
    assert_eq!(cup.len(), 8, "{cup:?}");
    assert!(cup.contains(&"sheridan".to_string()) && cup.contains(&"buckner".to_string()));
    assert!(!cup.contains(&"gay".to_string()), "Gay is set aside until turn 2");
    assert_eq!(g.state().stage, Stage::Draw, "no Artillery Phase on turn 1 (EX 16.0b)");
    let d = g.pending().expect("the draw");
    assert_eq!(d.side, "confederate", "the Confederate player pulls on odd turns (SR 7.2)");
    dice(&mut g, &[6, 6]);
    let last = g.log().last().expect("a log line").text.clone();
    assert!(last.contains("dice 6 6") && last.contains("roll again"), "{last}");
    assert_eq!(g.state().chits.cup.len(), 8);
    let i = cup.iter().position(|c| c == "buckner").expect("buckner");
    dice(&mut g, &dice_for_index(i));
    let last = g.log().last().expect("a log line").text.clone();
    assert_eq!(last, format!("draw from the cup (8 chits): dice {} {} → Buckner", i / 6 + 1, i % 6 + 1));
    assert!(matches!(g.state().stage, Stage::PickBrigade { .. }));
}

/// EX 16.0b: Sheridan activates without a roll on turn 1, then the Orders Step offers the four
/// orders (SR 8.1); a Maneuver order leads to the Movement Step of that brigade.
#[test]
fn ex_16_0b_sheridan_needs_no_roll_on_turn_1() {
    let mut g = manual("pv-16-0");
    command_phase(&mut g);
    let i = g.state().chits.cup.iter().position(|c| c == "sheridan").expect("sheridan in the cup");
    dice(&mut g, &dice_for_index(i));
    let d = g.pending().expect("pick a brigade");
    assert_eq!((d.kind.as_str(), d.side.as_str()), ("activate", "union"));
    let brigade = d.options[0].id.clone();
    g.choose(&brigade).expect("brigade");
    let d = g.pending().expect("orders");
    assert_eq!(d.kind, "order", "no activation roll: {:?}", g.log().last());
    let ids: Vec<&str> = d.options.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["order:attack", "order:defend", "order:maneuver", "order:regroup"]);
    g.choose("order:maneuver").expect("maneuver");
    let d = g.pending().expect("movement");
    assert_eq!(d.kind, "move-unit");
    assert!(d.options.iter().any(|c| c.id == "done"));
}

/// SR 10.6 (only Attack and Defend may engage) and EX 3.1 (12 SP a hex) on a bare board.
#[test]
fn sr_10_6_maneuver_may_not_engage_and_ex_3_1_stacking() {
    let (rules, mut state) = BlindSwords::new(Data::builtin().expect("data"), "pv-16-0").expect("scenario");
    for u in &mut state.units {
        u.place = Place::NotYet(0);
    }
    let union: Vec<usize> = (0..state.units.len())
        .filter(|i| state.units[*i].side == Side::Union && state.units[*i].ty == UnitType::Infantry)
        .collect();
    let rebel = (0..state.units.len()).find(|i| state.units[*i].side == Side::Confederate).expect("a rebel");
    let (at, enemy, between) = (Hex::new(20, 25), Hex::new(20, 27), Hex::new(20, 26));
    state.units[union[0]].place = Place::Map(at);
    state.units[rebel].place = Place::Map(enemy);
    let to = |order| -> Vec<Hex> {
        movement::steps(&rules, &state, union[0], 10.0, true, Some(order)).into_iter().map(|s| s.hex).collect()
    };
    assert!(!to(Order::Maneuver).contains(&between), "a Maneuver order may not move adjacent to the enemy");
    assert!(to(Order::Attack).contains(&between), "an Attack order may");
    assert!(!to(Order::Attack).contains(&enemy), "never into the enemy's hex");
    let hex = Hex::new(15, 25);
    let mut faulted = None;
    for &u in &union[1..] {
        let board = Board::new(&rules.data().map, &state);
        match movement::stacking_fault(&rules, &state, &board, hex, Some(u)) {
            None => state.units[u].place = Place::Map(hex),
            Some(f) => {
                faulted = Some(f);
                break;
            }
        }
    }
    let fault = faulted.expect("the Union infantry cannot all stack in one hex");
    assert!(fault.contains("above 12 (EX 3.1)"), "{fault}");
}

fn data_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read dir").flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).expect("copy");
        }
    }
}

/// A broken scenario file is refused with its file, line and field, not a panic.
#[test]
fn broken_data_names_file_line_and_field() {
    let tmp = tempfile::Builder::new().prefix("caisson-bs-rules-").tempdir().expect("temp dir");
    let root = tmp.path();
    copy_dir(&data_root(), root);
    let file = root.join("perryville/scenarios/pv-16-0.toml");
    let text = std::fs::read_to_string(&file).expect("read").replace("unit = \"u-85il\"", "unit = \"u-85xx\"");
    std::fs::write(&file, text).expect("write");
    let err = Data::load(&DataDir::on_disk(root)).expect_err("a broken file").to_string();
    assert!(err.contains("pv-16-0.toml"), "{err}");
    assert!(err.contains("pv-16-0.toml:36:"), "the line of the broken set-up: {err}");
    assert!(err.contains("field `unit`"), "{err}");
    assert!(err.contains("u-85xx"), "{err}");
}

/// SR 7.3a: Fortunes of War negates the next chit; a negated Division Activation Chit still
/// marks one brigade Activated, which does nothing (no order, no movement).
#[test]
fn sr_7_3a_fortunes_of_war_negates_a_division_chit() {
    let mut g = manual("pv-16-0");
    command_phase(&mut g);
    let cup = g.state().chits.cup.clone();
    let i = cup.iter().position(|c| c == "fortunes-of-war").expect("Fortunes of War in the cup");
    dice(&mut g, &dice_for_index(i));
    assert!(g.state().chits.fortunes);
    let i = g.state().chits.cup.iter().position(|c| c == "sheridan").expect("sheridan");
    dice(&mut g, &dice_for_index(i));
    let d = g.pending().expect("pick the negated brigade");
    assert!(d.prompt.contains("Fortunes of War negates Sheridan"), "{}", d.prompt);
    let brigade = d.options[0].id.trim_start_matches("brigade:").to_string();
    g.choose(&d.options[0].id).expect("brigade");
    let b = g.state().brigade(&brigade).expect("the brigade");
    assert!(b.activated && b.order.is_none());
    assert!(!g.state().chits.fortunes);
    assert_eq!(g.state().stage, Stage::Draw);
    assert!(g.log().iter().any(|l| l.text.contains("does nothing")));
}
