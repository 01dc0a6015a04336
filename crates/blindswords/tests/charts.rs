//! The Blind Swords and Perryville tables as loaded from `data/blind-swords`, checked against
//! the rulebook's worked examples and quoted values (digest §8), and the loader's checks
//! against broken copies of the files.

use std::path::{Path, PathBuf};

use caisson_blindswords::charts::{
    Activation, Arm, BreakResult, BuellModifier, Charts, Depletion, EventSide, FogOfWar, Mover, Mp, Order, Rally,
    RangeBand, ReleaseCount, Section, Skedaddle, D66,
};
use caisson_kernel::data::DataDir;

fn data_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data")
}

fn charts() -> Charts {
    match Charts::load(&DataDir::on_disk(&data_root())) {
        Ok(c) => c,
        Err(e) => panic!("charts load: {e}"),
    }
}

fn d66(v: u8) -> D66 {
    D66::from_value(v).unwrap_or_else(|| panic!("{v} is not a d66 roll"))
}

fn col(c: &Charts, label: &str) -> usize {
    c.crt.column_index(label).unwrap_or_else(|| panic!("no column {label}"))
}

#[test]
fn builtin_tables_load_and_match_the_files() {
    let built = match Charts::load(&DataDir::builtin()) {
        Ok(c) => c,
        Err(e) => panic!("builtin: {e}"),
    };
    let disk = charts();
    assert_eq!(built.reconstructed(), disk.reconstructed());
    assert_eq!(built.crt.column_count(), disk.crt.column_count());
}

// Data honesty: every reconstructed table says so; the tables the text gives in full do not.
#[test]
fn reconstructed_lists_each_rebuilt_table_once() {
    let c = charts();
    let r = c.reconstructed();
    for table in [
        "Combat Results Table",
        "Cohesion Test Tables",
        "Weapon Ranges Table",
        "Terrain Effects Chart",
        "Brigade Order Details",
        "Artillery Stacking Table",
        "activation roll",
        "General Casualty Table",
        "Unique Event Descriptions (events.toml)",
        "Buell Alert Track",
    ] {
        assert_eq!(r.iter().filter(|l| l.starts_with(table)).count(), 1, "{table} in {r:?}");
    }
    assert!(!r.iter().any(|l| l.starts_with("Break Test") || l.starts_with("Fog of War")), "{r:?}");
    assert_eq!(r.len(), 10, "{r:?}");
    let events = c.events.of_side(EventSide::Confederate);
    assert!(events.iter().any(|e| e.name == "Sharpshooters" && e.reconstructed.is_some()));
}

// SR 9.3: columns "C", "1", "2", "3", two columns, "6-7", …, "23+".
#[test]
fn sr_9_3_column_set() {
    let c = charts();
    let labels: Vec<&str> = (0..c.crt.column_count()).filter_map(|i| c.crt.label(i)).collect();
    assert_eq!(&labels[..7], &["C", "1", "2", "3", "4", "5", "6-7"]);
    assert_eq!(labels.last(), Some(&"23+"));
    assert_eq!(col(&c, "6-7") - col(&c, "3"), 3, "exactly two columns between 3 and 6-7");
}

// SR 9.3 fire example: 3 SP shifted two left fires on "1"; roll 62 reads row 61-62, cell
// `- | 0-1 | 2-4`; a Shaken Lead Unit of CR 3 takes a Routine test.
#[test]
fn sr_9_3_fire_example_cell() {
    let c = charts();
    let start = c.crt.column_for(3.0).expect("3 SP fires");
    assert_eq!(c.crt.label(start), Some("3"));
    let column = c.crt.shifted(start, -2, false).expect("on the table");
    assert_eq!(c.crt.label(column), Some("1"));
    let roll = D66::new(6, 2).expect("dice");
    assert_eq!(roll.value(), 62);
    let cell = c.crt.cell(column, roll).expect("cell");
    assert_eq!(cell.to_string(), "- | 0-1 | 2-4");
    assert_eq!(c.crt.result(column, roll, 3), Some(Section::Routine));
    assert_eq!(c.crt.result(column, roll, 1), Some(Section::Tough));
    assert_eq!(c.crt.result(column, roll, 0), Some(Section::Tough));
    assert_eq!(c.crt.result(column, roll, 5), None);
}

// SR 12.8 close combat example: a "6-7" attack shifted three left (slope 2L, better defending
// CR 1L) resolves on "3"; roll 52 reads row 51-53, cell `- | 0 | 1-3`; the Lead Unit's CR 4 is
// in no box, a Close Fight.
#[test]
fn sr_12_8_close_combat_example_cell() {
    let c = charts();
    let start = c.crt.column_for(6.0).expect("6 SP attacks");
    assert_eq!(c.crt.label(start), Some("6-7"));
    assert_eq!(c.crt.column_for(7.0), Some(start));
    let column = c.crt.shifted(start, -3, false).expect("on the table");
    assert_eq!(c.crt.label(column), Some("3"));
    let cell = c.crt.cell(column, D66::new(5, 2).expect("dice")).expect("cell");
    assert_eq!(cell.to_string(), "- | 0 | 1-3");
    assert_eq!(c.crt.result(column, d66(52), 4), None, "Close Fight");
    assert_eq!(c.crt.close_result(column, d66(52), 4), Some(Section::CloseFight));
    assert_eq!(c.crt.close_result(column, d66(52), 2), Some(Section::Routine));
    assert_eq!(c.crt.result(column, d66(51), 0), Some(Section::Tough));
    assert_eq!(c.crt.result(column, d66(53), 3), Some(Section::Routine));
}

// SR 12.8 example, continued: Close Fight, coloured 5 = BD*, white 3 = AM (Attacker Morale Hit).
#[test]
fn sr_12_8_close_fight_row() {
    let c = charts();
    let r = c.close_tests.result(Section::CloseFight, 5, 3).expect("close fight");
    assert_eq!(r.depletion, Depletion::BothDeplete);
    assert_eq!(r.depletion_text, "BD*");
    assert_eq!(r.skedaddle, &[Skedaddle::AttackerMoraleHit]);
    assert!(c.fire_tests.result(Section::CloseFight, 5, 3).is_none(), "no Close Fight in fire");
}

// SR 12.1 panic example: Tough test, coloured 5 = D2, white 5 = "MH RA2 (P1)": the Lead Unit is
// Shaken and retreats two hexes, then one unit panics.
#[test]
fn sr_12_1_panic_example_row() {
    let c = charts();
    let r = c.fire_tests.result(Section::Tough, 5, 5).expect("tough");
    assert_eq!(r.depletion, Depletion::DepleteTwo);
    assert_eq!(r.skedaddle_text, "MH RA2 (P1)");
    assert_eq!(r.skedaddle, &[Skedaddle::MoraleHits(1), Skedaddle::Retreat(2), Skedaddle::Panic(1)]);
    assert!(c.fire_tests.result(Section::Tough, 0, 5).is_none() && c.fire_tests.result(Section::Tough, 5, 7).is_none());
}

// The reconstructed cohesion tables worsen with the test's severity (SR 12.1: Routine < Tough < Severe).
#[test]
fn sr_12_1_sections_grow_worse() {
    let c = charts();
    let hits = |s: Section, die: u8| -> u8 {
        let r = c.fire_tests.result(s, die, die).expect("row");
        r.skedaddle
            .iter()
            .map(|x| match x {
                Skedaddle::MoraleHits(n) => *n,
                Skedaddle::BreakTest => 3,
                _ => 0,
            })
            .sum()
    };
    for die in 1..=6 {
        assert!(hits(Section::Routine, die) <= hits(Section::Tough, die), "die {die}");
        assert!(hits(Section::Tough, die) <= hits(Section::Severe, die), "die {die}");
    }
}

// SR 9.3, 2.8 (digest T04-T06, T34): shifts past "C", past "23+", and the rounding rule.
#[test]
fn sr_9_3_shifts_and_rounding() {
    let c = charts();
    let three = c.crt.column_for(3.0).expect("3");
    assert_eq!(c.crt.shifted(three, -3, false).and_then(|i| c.crt.label(i)), Some("C"), "T04 woods 3L");
    let one = c.crt.column_for(1.0).expect("1");
    assert_eq!(c.crt.shifted(one, -2, false), None, "T05 fire ignored");
    assert_eq!(c.crt.shifted(one, -2, true).and_then(|i| c.crt.label(i)), Some("C"), "T05 defensive fire");
    let thirty = c.crt.column_for(30.0).expect("30");
    assert_eq!(c.crt.shifted(thirty, 2, false).and_then(|i| c.crt.label(i)), Some("23+"), "T06");
    assert_eq!(c.crt.column_for(1.75).and_then(|i| c.crt.label(i)), Some("1"), "T34 1.75");
    assert_eq!(c.crt.column_for(0.5).and_then(|i| c.crt.label(i)), Some("C"), "T34 0.5");
    assert_eq!(c.crt.column_for(0.25), None, "T34 0.25 cannot fire");
}

// SR 9.3 note: a low roll misses all but the lowest ratings; results never shrink with column or roll.
#[test]
fn crt_grows_with_column_and_roll() {
    let c = charts();
    let reach = |column: usize, roll: u8| -> usize {
        let cell = c.crt.cell(column, d66(roll)).expect("cell");
        (0..=6).filter(|cr| cell.test(*cr).is_some()).count()
    };
    let rolls = [11, 21, 31, 41, 51, 54, 61, 63, 65, 66];
    for column in 0..c.crt.column_count() {
        for w in rolls.windows(2) {
            assert!(reach(column, w[0]) <= reach(column, w[1]), "column {column} rows {w:?}");
        }
        if column + 1 < c.crt.column_count() {
            for r in rolls {
                assert!(reach(column, r) <= reach(column + 1, r), "column {column} roll {r}");
            }
        }
    }
    let five = c.crt.cell(col(&c, "5"), d66(11)).expect("cell");
    assert_eq!((0..=6).filter(|cr| five.test(*cr).is_some()).collect::<Vec<_>>(), [0], "only the lowest rating");
}

// SR 12.6 (digest T12, T13): the Break Test Table.
#[test]
fn sr_12_6_break_test() {
    let c = charts();
    for roll in 1..=3 {
        assert_eq!(c.break_test.result(roll, 3), BreakResult::Hold, "roll {roll} vs 3");
    }
    assert_eq!(c.break_test.result(4, 3), BreakResult::Broken(1));
    assert_eq!(c.break_test.result(5, 3), BreakResult::Broken(2));
    assert_eq!(c.break_test.result(6, 3), BreakResult::Broken(3));
    assert_eq!(c.break_test.result(1, 0), BreakResult::Broken(1), "T13");
    assert_eq!(c.break_test.result(2, 0), BreakResult::Broken(2));
    assert_eq!(c.break_test.result(3, 0), BreakResult::Broken(3));
    // SR 12.8 example: 4th WV, CR 1, rolls 1 and holds.
    assert_eq!(c.break_test.result(1, 1), BreakResult::Hold);
    // SR 12.8 example: 36th VA, CR 4, rolls 4: the rule holds it (the example's Box 1 is one of
    // its misprints, ruling A-46); a 5 would break it to Box 1.
    assert_eq!(c.break_test.result(4, 4), BreakResult::Hold);
    assert_eq!(c.break_test.result(5, 4), BreakResult::Broken(1));
    // Modified ratings stay within 0-6 (SR 2.1): a rating below 0 tests as 0.
    assert_eq!(c.break_test.result(1, -2), BreakResult::Broken(1));
}

// SR 9.1c, EX 2.1a: bands and factors; "A" reaches one hex at half strength; "CC" has no range.
#[test]
fn sr_9_1c_weapon_ranges() {
    let w = &charts().weapons;
    assert_eq!(w.band(Arm::SmallArms, "A", 1), Some(RangeBand::Long));
    assert!((w.factor(RangeBand::Long) - 0.5).abs() < f64::EPSILON);
    assert_eq!(w.band(Arm::SmallArms, "A", 2), None);
    let cc = w.weapon(Arm::SmallArms, "CC").expect("CC");
    assert!(!cc.has_ranges());
    assert_eq!(cc.band(1), None);
    assert!((w.factor(RangeBand::Canister) - 1.5).abs() < f64::EPSILON);
    assert!((w.factor(RangeBand::Extreme) - 0.25).abs() < f64::EPSILON);
    assert_eq!(w.band(Arm::Artillery, "S", 1), Some(RangeBand::Canister), "EX 9.3 ix: S guns fire canister");
    assert_eq!(w.band(Arm::SmallArms, "S", 0), None);
    let r = w.weapon(Arm::SmallArms, "R").expect("R");
    let bands: Vec<Option<RangeBand>> = (1..=5).map(|d| r.band(d)).collect();
    assert_eq!(
        bands,
        [Some(RangeBand::Effective), Some(RangeBand::Effective), Some(RangeBand::Long), Some(RangeBand::Extreme), None]
    );
}

// SR 3.1a (digest T24): 6 SP of guns stack as 4.5, so 7.5 SP of infantry still fit under 12.
#[test]
fn sr_3_1a_artillery_stacking() {
    let s = &charts().artillery_stacking;
    assert!((s.stacking_sp(6) - 4.5).abs() < f64::EPSILON);
    assert!((s.stacking_sp(6) + 7.5 - 12.0).abs() < f64::EPSILON);
    assert!(s.stacking_sp(0).abs() < f64::EPSILON);
    assert!(s.stacking_sp(14) > s.stacking_sp(12));
}

// EX 6.0, SR 8.2-8.5: artillery 6 and 9 MP; Regroup has no movement; only Maneuver marches.
#[test]
fn sr_8_brigade_order_details() {
    let o = &charts().orders;
    assert_eq!((o.foot_artillery(), o.horse_artillery()), (6, 9));
    let regroup = o.details(Order::Regroup);
    assert_eq!((regroup.infantry, regroup.cavalry, regroup.rally), (0, 0, Rally::Full));
    assert_eq!(o.details(Order::Defend).rally, Rally::One);
    assert!(o.details(Order::Attack).close_combat && !o.details(Order::Defend).close_combat);
    let marching: Vec<Order> = Order::ALL.into_iter().filter(|x| o.details(*x).march_column).collect();
    assert_eq!(marching, [Order::Maneuver]);
    assert!(!o.details(Order::Maneuver).fire && !o.details(Order::Maneuver).engage);
}

// EX 2.10, 6.5, 15, 16.1g, SR 10.12: the Terrain Effects Chart's numbers given by the text.
#[test]
fn ex_2_10_terrain_effects() {
    let t = &charts().terrain;
    let m = t.movement();
    assert_eq!((m.road, m.march_column, m.artillery_road, m.congested_road), (1.0, 0.5, 0.5, 3.0));
    assert_eq!((m.skirmish_entry, m.skirmish_discount, m.skirmish_minimum, m.skirmish_screen), (2.0, 1.0, 1.0, 1.0));
    assert_eq!((m.off_map, m.night_factor), (1.0, 2.0));
    assert_eq!(t.hex_cost("woods", Mover::Artillery), Some(Mp::Prohibited), "EX 6.5a");
    assert_eq!(t.hex_cost("clear", Mover::Infantry), Some(Mp::Cost(1.0)));
    assert_eq!(
        t.hex_cost("orchard", Mover::Infantry),
        Some(Mp::Cost(1.0)),
        "EX 2.10j: orchard slows only cavalry and artillery"
    );
    assert_eq!(t.hex_cost("swamp", Mover::Infantry), None);
    for uphill in [true, false] {
        assert_eq!(t.hexside_cost("steep-slope", Mover::Cavalry, uphill), Some(Mp::Prohibited), "EX 2.10n errata");
        assert_eq!(t.hexside_cost("steep-slope", Mover::Artillery, uphill), Some(Mp::Prohibited));
    }
    assert_eq!(t.hexside_cost("slope", Mover::Infantry, false), Some(Mp::Cost(0.0)), "EX 2.10m: upslope only");
    assert_eq!(t.hexside_cost("stone-fence", Mover::Infantry, true), Some(Mp::Cost(0.0)), "EX 2.10d");
    let woods = t.hex_effects("woods").expect("woods");
    assert_eq!((woods.fire, woods.close_combat, woods.support), (-2, 0, false));
    let town = t.hex_effects("town").expect("town");
    assert_eq!((town.fire, town.close_combat, town.support), (-2, -2, false));
    assert_eq!(t.hex_effects("cornfield").map(|e| (e.fire, e.close_combat)), Some((-1, 0)));
    assert_eq!(t.hexside_effects("steep-slope").map(|e| e.close_combat), Some(-3));
    assert_eq!(t.hexside_effects("slope").map(|e| e.close_combat), Some(-2));
    let river = t.hexside_effects("river").expect("river");
    assert!(river.retreat_morale_hit && river.close_combat == -2);
    let ford = t.hexside_effects("ford").expect("ford");
    assert!(!ford.retreat_morale_hit && ford.close_combat == -2, "EX 11.3c xii: with or without fords");
}

// EX 7.3b errata (digest T02) with the scenario overrides of 16.0a and 16.4e.
#[test]
fn ex_7_3b_fog_of_war() {
    let f = &charts().fog_of_war;
    let want = [
        FogOfWar::UnionBattlefieldChaos,
        FogOfWar::ConfederateBattlefieldChaos,
        FogOfWar::WaywardUnionMove,
        FogOfWar::WaywardConfederateMove,
        FogOfWar::PossibleGeneralCasualty,
        FogOfWar::CourierToBuell,
    ];
    for (roll, w) in (1..=6).zip(want) {
        assert_eq!(f.result(roll, "16.1"), Some(w), "roll {roll}");
    }
    assert_eq!(f.result(6, "16.0"), Some(FogOfWar::NoEffect));
    assert_eq!(f.result(5, "16.0"), Some(FogOfWar::PossibleGeneralCasualty));
    assert_eq!(f.result(6, "16.4"), Some(FogOfWar::BuellCommands));
    assert_eq!(f.result(7, "16.1"), None);
}

// EX 7.3b (digest T68): a roll names a general; the same rolls restore him once a casualty.
#[test]
fn ex_7_3b_general_casualty() {
    let g = &charts().general_casualty;
    // Every general with an activation chit (EX 7.3c-e), by chit id.
    let chits = [
        "cheatham",
        "anderson",
        "buckner",
        "wharton",
        "wheeler",
        "rousseau",
        "jackson",
        "sheridan",
        "schoepf",
        "mitchell",
        "wood",
        "van-cleve",
        "gay",
        "a-mccook",
    ];
    let mut named = 0;
    for general in chits {
        let rolls = g.rolls_for(general);
        assert!(!rolls.is_empty(), "{general}");
        for r in rolls {
            assert_eq!(g.general(d66(r)), Some(general));
            named += 1;
        }
    }
    let all = (1..=6).flat_map(|c| (1..=6).map(move |w| c * 10 + w)).filter(|r| g.general(d66(*r)).is_some()).count();
    assert_eq!(all, named, "no roll names anyone else");
    assert_eq!(g.general(d66(66)), None, "a possible casualty may miss");
}

// SR 7.3 example: Command Confusion roll 1 = Regroup; EX 16.0d: Attack and Defend are results.
#[test]
fn sr_7_3_command_confusion() {
    let e = &charts().events;
    assert_eq!(e.command_confusion(1), Some(Order::Regroup));
    let all: Vec<Order> = (1..=6).filter_map(|r| e.command_confusion(r)).collect();
    assert!(all.contains(&Order::Attack) && all.contains(&Order::Defend));
    assert_eq!(e.command_confusion(0), None);
}

// EX 16.1a: seven events a side; EX 5.2: Hidden Enemy is used once; EX 11.3c xvii, xviii.
#[test]
fn ex_events_inventory() {
    let e = &charts().events;
    assert_eq!(e.of_side(EventSide::Confederate).len(), 7);
    assert_eq!(e.of_side(EventSide::Union).len(), 7);
    assert!(e.event("hidden-enemy").is_some_and(|h| h.once && h.side == EventSide::Union));
    assert!(e
        .event("rebel-yell")
        .is_some_and(|r| r.side == EventSide::Confederate && r.effect.contains("two columns")));
    assert!(e.event("command-confusion").is_some_and(|c| c.reconstructed.is_none()));
}

// EX 14.2a (digest T51, T52): the Buell roll; 16.1 and 16.2 start boxes.
#[test]
fn ex_14_2a_buell_roll_and_track() {
    let b = &charts().buell;
    assert!(b.moves(4, &[BuellModifier::TurnAtOrAfter530Pm, BuellModifier::OnHoldUnitTargeted]), "T51: 4+1+2 = 7");
    assert!(!b.moves(6, &[BuellModifier::NoUnitsEngaged]), "T52: 6-2 = 4");
    assert!(b.moves(6, &[]));
    assert!(b.moves(3, &[BuellModifier::CourierFindsBuell, BuellModifier::MccookChitOnTrack]));
    assert_eq!(b.modifier(BuellModifier::UnionMoreBrokenAndEliminated), 1);
    assert_eq!(b.box_index("Buell is unaware"), Some(0), "16.3: the leftmost box");
    assert_eq!(b.box_index("Buell hears artillery fire"), Some(1));
    assert_eq!(b.boxes().last().map(|x| x.count), Some(ReleaseCount::All));
    assert_eq!(b.boxes()[0].count, ReleaseCount::Some(0));
}

// Ruling A-01: roll at most the rating = Full; EX 16.1e -1 makes activation more likely.
#[test]
fn a_01_activation_roll() {
    let a = &charts().activation;
    assert_eq!(a.roll(4, 0, 3), Activation::Limited);
    assert_eq!(a.roll(4, -1, 3), Activation::Full, "EX 16.1e");
    assert_eq!(a.roll(3, 2, 4), Activation::Limited, "EX 16.4c +2");
    assert_eq!(a.roll(1, 3, 0), Activation::Full, "unmodified 1");
    assert_eq!(a.roll(6, -3, 6), Activation::Limited, "unmodified 6");
    let l = a.limited();
    assert!(l.fire && !l.movement && !l.close_combat && !l.reinforcements, "SR 10.11, EX 15.1");
}

// ---------------------------------------------------------------------------------------------
// Broken copies: every check names file, line and field.

/// A copy of `data/blind-swords` under the temp dir with one file edited; returns the copy's
/// root and the edited text.
fn broken_copy(name: &str, file: &str, edit: impl Fn(&str) -> String) -> (tempfile::TempDir, String) {
    let root = tempfile::Builder::new().prefix(&format!("caisson-bs-charts-{name}-")).tempdir().expect("temp dir");
    let out = root.path().join("blind-swords");
    std::fs::create_dir_all(&out).expect("temp dir");
    for entry in std::fs::read_dir(data_root().join("blind-swords")).expect("data dir") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("read");
        let fname = path.file_name().expect("name").to_string_lossy().to_string();
        let new = if fname == file { edit(&text) } else { text.clone() };
        if fname == file {
            assert_ne!(new, text, "the edit of {file} changed nothing");
        }
        std::fs::write(out.join(&fname), &new).expect("write");
    }
    let text = std::fs::read_to_string(out.join(file)).expect("read back");
    (root, text)
}

fn line_of(text: &str, needle: &str) -> usize {
    let at = text.find(needle).unwrap_or_else(|| panic!("`{needle}` not in file"));
    text[..at].matches('\n').count() + 1
}

/// Loads a broken copy and checks the error names `file:line` of `needle` and every `words`.
fn check_broken(name: &str, file: &str, edit: impl Fn(&str) -> String, needle: &str, words: &[&str]) {
    let (root, text) = broken_copy(name, file, edit);
    let err = match Charts::load(&DataDir::on_disk(root.path())) {
        Ok(_) => panic!("{name}: a broken table loaded"),
        Err(e) => e.to_string(),
    };
    let want = format!("{file}:{}:", line_of(&text, needle));
    assert!(err.contains(&want), "{name}: `{err}` lacks `{want}`");
    for w in words {
        assert!(err.contains(w), "{name}: `{err}` lacks `{w}`");
    }
}

#[test]
fn crt_column_gap_is_refused() {
    check_broken(
        "colgap",
        "crt.toml",
        |t| t.replacen("\"5\", \"6-7\"", "\"5\", \"7-8\"", 1),
        "\"7-8\"",
        &["columns", "SP 6"],
    );
}

#[test]
fn crt_last_column_must_be_open() {
    check_broken(
        "colopen",
        "crt.toml",
        |t| t.replacen("\"19-22\", \"23+\"", "\"19-22\", \"23\"", 1),
        "\"23\"]",
        &["columns", "N+"],
    );
}

#[test]
fn crt_row_gap_is_refused() {
    check_broken(
        "rowgap",
        "crt.toml",
        |t| t.replacen("\"51-53\", \"54-56\"", "\"51-53\", \"55-56\"", 1),
        "\"55-56\"",
        &["rows", "start at 54"],
    );
}

#[test]
fn crt_row_overlap_is_refused() {
    check_broken(
        "rowoverlap",
        "crt.toml",
        |t| t.replacen("\"51-53\", \"54-56\"", "\"51-54\", \"54-56\"", 1),
        "\"54-56\"",
        &["rows", "start at 55"],
    );
}

#[test]
fn crt_invalid_d66_is_refused() {
    check_broken("d66", "crt.toml", |t| t.replacen("\"65\", \"66\"", "\"65\", \"67\"", 1), "\"67\"", &["rows", "d66"]);
}

#[test]
fn crt_boxes_must_ascend() {
    check_broken(
        "boxes",
        "crt.toml",
        |t| t.replacen("\"- | 0-1 | 2-4\",  # 61-62", "\"- | 2-4 | 0-1\",  # 61-62", 1),
        "\"- | 2-4 | 0-1\"",
        &["cells", "ascending"],
    );
}

#[test]
fn crt_cr_range_within_0_to_6() {
    check_broken(
        "cr7",
        "crt.toml",
        |t| t.replacen("\"0-6 | - | -\"", "\"0-7 | - | -\"", 1),
        "\"0-7",
        &["cells", "0-6"],
    );
}

#[test]
fn crt_missing_cell_is_refused() {
    check_broken(
        "cells",
        "crt.toml",
        |t| t.replacen("  \"-\",  # 11-16\n", "", 1),
        "[[column]]\nlabel = \"C\"",
        &["cells", "rows"],
    );
}

#[test]
fn fire_test_refuses_close_combat_results() {
    check_broken(
        "firevocab",
        "cohesion.toml",
        |t| t.replacen("\"MH R1\", \"MH RA2 (P1)\"", "\"MH R1\", \"MH AMH (P1)\"", 1),
        "\"MH AMH (P1)\"",
        &["fire.tough", "skedaddle", "AMH"],
    );
    check_broken(
        "firedep",
        "cohesion.toml",
        |t| {
            t.replacen(
                "depletion = [\"-\", \"-\", \"-\", \"-\", \"D\", \"D\"]",
                "depletion = [\"-\", \"-\", \"-\", \"-\", \"BD*\", \"D\"]",
                1,
            )
        },
        "\"BD*\", \"D\"]",
        &["fire.routine", "depletion", "BD*"],
    );
}

#[test]
fn cohesion_rows_need_six_faces() {
    check_broken(
        "six",
        "cohesion.toml",
        |t| {
            t.replacen("skedaddle = [\"-\", \"-\", \"-\", \"MH\", \"MH\", \"MH R1\"]", "skedaddle = [\"-\", \"MH\"]", 1)
        },
        "skedaddle = [\"-\", \"MH\"]",
        &["fire.routine", "skedaddle", "1-6"],
    );
}

#[test]
fn break_test_result_vocabulary() {
    check_broken(
        "break",
        "break-test.toml",
        |t| t.replacen("\"broken-3\"", "\"broken-4\"", 1),
        "\"broken-4\"",
        &["result", "broken-4"],
    );
}

#[test]
fn weapon_bands_must_grow() {
    check_broken(
        "weapon",
        "weapons.toml",
        |t| t.replacen("effective = 2\nlong = 3", "effective = 2\nlong = 2", 1),
        "[[weapon]]\narm = \"small-arms\"\ncode = \"R\"",
        &["long", "`R`"],
    );
}

#[test]
fn terrain_costs_are_whole_or_half() {
    check_broken(
        "half",
        "terrain.toml",
        |t| t.replacen("cost = { infantry = 2, cavalry = 3,", "cost = { infantry = 2.3, cavalry = 3,", 1),
        "[[hex]]\nname = \"woods\"",
        &["infantry", "2.3"],
    );
}

#[test]
fn terrain_cost_is_a_number_or_p() {
    check_broken(
        "costp",
        "terrain.toml",
        |t| t.replacen("cavalry = 3, artillery = \"P\"", "cavalry = 3, artillery = \"X\"", 1),
        "[[hex]]\nname = \"woods\"",
        &["artillery", "\"X\"", "\"P\""],
    );
}

#[test]
fn orders_regroup_has_no_movement() {
    check_broken(
        "regroup",
        "orders.toml",
        |t| t.replacen("name = \"regroup\"\ninfantry = 0", "name = \"regroup\"\ninfantry = 1", 1),
        "[[order]]\nname = \"regroup\"",
        &["SR 8.5"],
    );
}

#[test]
fn general_casualty_bands_cover_11_to_66() {
    check_broken(
        "gc",
        "general-casualty.toml",
        |t| t.replacen("\"13-14\"", "\"13-15\"", 1),
        "\"15-16\"",
        &["d66", "start at 16"],
    );
}

#[test]
fn buell_modifier_ids_are_known() {
    check_broken(
        "buell",
        "buell-track.toml",
        |t| t.replacen("\"courier-finds-buell\"", "\"courier-lost\"", 1),
        "\"courier-lost\"",
        &["courier-lost"],
    );
}

#[test]
fn reconstructed_reason_may_not_be_empty() {
    check_broken(
        "prov",
        "weapons.toml",
        |t| {
            let start = t.find("reconstructed = \"").expect("field");
            let end = start + t[start..].find('\n').expect("line");
            format!("{}reconstructed = \"\"{}", &t[..start], &t[end..])
        },
        "reconstructed = \"\"",
        &["reconstructed", "reason"],
    );
}

#[test]
fn unknown_key_is_refused() {
    check_broken(
        "key",
        "fog-of-war.toml",
        |t| t.replacen("roll = 6\n", "roll = 6\ndice = 2\n", 1),
        "dice = 2",
        &["dice"],
    );
}
