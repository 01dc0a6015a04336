//! SR 9 / EX 9 Fire Combat: eligibility, modified SP, combining, the EX 9.3 shifts and the CRT,
//! checked against the SR 9.3 fire example and digest §8 T03–T06, T33–T35, T43, T64–T65.

use std::path::{Path, PathBuf};

use caisson_blindswords::catalog::{UnitType, Weapon};
use caisson_blindswords::charts::{Charts, Order, Section, D66};
use caisson_blindswords::cohesion::Morale;
use caisson_blindswords::fire::{
    assess, flanking_fire, resolve, FireAssessment, FireInput, FireKind, Firer, Over, Target,
};
use caisson_blindswords::los::Sight;
use caisson_hexmap::{Hex, Parity};
use caisson_kernel::data::DataDir;
use proptest::prelude::*;

mod common;
use common::firer;

fn charts() -> Charts {
    let root: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    Charts::load(&DataDir::on_disk(&root)).unwrap_or_else(|e| panic!("charts: {e}"))
}

fn gun(id: &str, sp: u8, range: u32, weapon: Weapon) -> Firer {
    Firer { ty: UnitType::Artillery, weapon, ..firer(id, sp, range) }
}

fn target(terrain: &str) -> Target {
    Target { hex: Hex::new(20, 21), terrain: terrain.into(), fence: None, lead_cavalry: false, lead_skirmish: false }
}

fn input(kind: FireKind, firers: Vec<Firer>, terrain: &str) -> FireInput {
    FireInput { kind, firers, target: target(terrain), flanking: false, grid: Parity::EvenQ, extra: Vec::new() }
}

fn attack() -> FireKind {
    FireKind::Brigade(Order::Attack)
}

fn ok(c: &Charts, i: &FireInput) -> FireAssessment {
    assess(c, i).unwrap_or_else(|e| panic!("{e}"))
}

fn label(c: &Charts, a: &FireAssessment) -> Option<String> {
    a.final_column.and_then(|col| c.crt.label(col)).map(str::to_string)
}

fn d66(v: u8) -> D66 {
    D66::from_value(v).unwrap_or_else(|| panic!("{v}"))
}

/// SR 9.3 fire example (digest T03): 3 SP shifted two columns left fire on "1"; the roll 62 reads
/// row 61-62, `- | 0-1 | 2-4`. Here the two left shifts come from a target in Perryville (EX 9.3
/// ii), which obscures nothing; the example's Woods gives three under the Perryville rules (T04).
/// A Lead Unit of CR 3 takes a Routine test as the example says; its CR 4 "no effect" contradicts
/// the quoted box, so the rule's reading is asserted (ruling A-46).
#[test]
fn sr_9_3_fire_example_on_column_1() {
    let c = charts();
    let a = ok(&c, &input(attack(), vec![firer("2MO", 3, 1)], "town"));
    assert_eq!(c.crt.label(a.initial_column), Some("3"));
    assert_eq!(a.net_shift, -2);
    assert_eq!(label(&c, &a).as_deref(), Some("1"));
    let r = resolve(&c, &a, d66(62), 3);
    assert_eq!(r.cell, "- | 0-1 | 2-4");
    assert_eq!(r.test, Some(Section::Routine));
    assert_eq!(resolve(&c, &a, d66(62), 4).test, Some(Section::Routine), "ruling A-46");
    assert_eq!(resolve(&c, &a, d66(62), 1).test, Some(Section::Tough));
    assert_eq!(resolve(&c, &a, d66(62), 5).test, None);
    let roll = a.roll.unwrap_or_else(|| panic!("a roll"));
    assert_eq!((roll.dice, roll.rule.as_str()), (2, "SR 9.3a"));
}

/// EX 9.3 i + vii, EX 9.1a (digest T04, ruling A-14c): a target in Woods is 2L and always
/// Obscured, 1L more: the 3 SP fire lands on "C".
#[test]
fn woods_target_is_three_left() {
    let c = charts();
    let a = ok(&c, &input(attack(), vec![firer("2MO", 3, 1)], "woods"));
    let rules: Vec<&str> = a.shifts.iter().map(|m| m.rule.as_str()).collect();
    assert_eq!(a.net_shift, -3, "{rules:?}");
    assert_eq!(label(&c, &a).as_deref(), Some("C"));
}

/// SR 9.3 (digest T05): past "C" a fire is ignored; Defensive Fire resolves on "C".
#[test]
fn beyond_c_is_ignored_except_defensive_fire() {
    let c = charts();
    let a = ok(&c, &input(attack(), vec![firer("x", 1, 1)], "woods"));
    assert_eq!(a.final_column, None);
    assert_eq!(a.roll, None);
    assert_eq!(resolve(&c, &a, d66(66), 0).test, None);
    let d = ok(&c, &input(FireKind::Defensive, vec![firer("x", 1, 1)], "woods"));
    assert_eq!(label(&c, &d).as_deref(), Some("C"));
}

/// SR 9.3 (digest T06): past "23+" reads "23+". Cavalry target (EX 9.3 v) and Flanking Fire (x).
#[test]
fn beyond_23_reads_23() {
    let c = charts();
    let mut i = input(attack(), vec![firer("a", 20, 1), firer("b", 10, 1)], "clear");
    i.target.lead_cavalry = true;
    i.flanking = true;
    let a = ok(&c, &i);
    assert_eq!(a.net_shift, 2);
    assert_eq!(label(&c, &a).as_deref(), Some("23+"));
}

/// SR 2.8, 9.1c, 9.1e (digest T34): 3 SP at Long (1.5) + 1 SP at Extreme (0.25) = 1.75 → "1";
/// 2 SP at Extreme alone = ½ → "C"; 1 SP at Extreme alone cannot fire.
#[test]
fn fractions_are_kept_to_the_total() {
    let c = charts();
    let a = ok(&c, &input(attack(), vec![firer("a", 3, 3), firer("b", 1, 4)], "clear"));
    assert!((a.total_sp - 1.75).abs() < 1e-9);
    assert_eq!(c.crt.label(a.initial_column), Some("1"));
    let b = ok(&c, &input(attack(), vec![firer("a", 2, 4)], "clear"));
    assert_eq!(c.crt.label(b.initial_column), Some("C"));
    let e = assess(&c, &input(attack(), vec![firer("a", 1, 4)], "clear")).err();
    assert_eq!(e.map(|e| e.rule), Some("SR 9.3"));
    assert!(assess(&c, &input(attack(), vec![firer("a", 1, 5)], "clear")).is_err(), "out of range");
}

/// SR 9.1d, 10.7 (digest T35), SR 12.5 and EX 2.1a.
#[test]
fn halvings_and_morale_hits() {
    let c = charts();
    let a = ok(&c, &input(FireKind::Opportunity, vec![firer("a", 4, 1)], "clear"));
    assert!((a.total_sp - 2.0).abs() < 1e-9);
    let mut shaken = firer("s", 3, 1);
    shaken.morale = Morale::Shaken;
    assert!((ok(&c, &input(attack(), vec![shaken], "clear")).total_sp - 2.0).abs() < 1e-9);
    let antique = Firer { weapon: Weapon::A, ..firer("a", 4, 1) };
    let a = ok(&c, &input(FireKind::SupportingDefensive, vec![antique.clone()], "clear"));
    assert!((a.total_sp - 1.0).abs() < 1e-9, "A at 1 hex ½, Supporting ½ (ruling A-24)");
    assert!(assess(&c, &input(attack(), vec![Firer { range: 2, ..antique }], "clear")).is_err());
}

/// EX 9.3 ix, SR 9.1b (digest T33): a 4 SP "S" battery at canister fires 6 SP with 1R; over a
/// friendly unit it may not use canister (Effective, 4 SP, no ix) and takes Overhead Fire 1L.
#[test]
fn canister_and_overhead_fire() {
    let c = charts();
    let a = ok(&c, &input(FireKind::Artillery, vec![gun("bat", 4, 2, Weapon::S)], "clear"));
    assert!((a.total_sp - 6.0).abs() < 1e-9);
    assert_eq!(a.net_shift, 1);
    let mut over = gun("bat", 4, 2, Weapon::S);
    over.over = vec![Over { friendly: true, adjacent_to_target: false }];
    let a = ok(&c, &input(FireKind::Artillery, vec![over.clone()], "clear"));
    assert!((a.total_sp - 4.0).abs() < 1e-9);
    assert_eq!(a.net_shift, -1);
    // T32: not over a friendly unit adjacent to the target.
    over.over = vec![Over { friendly: true, adjacent_to_target: true }];
    over.range = 3;
    assert_eq!(assess(&c, &input(FireKind::Artillery, vec![over], "clear")).err().map(|e| e.rule), Some("SR 9.1b"));
    // Infantry never fires over friendly units; over enemy units it may.
    let mut inf = firer("i", 4, 2);
    inf.over = vec![Over { friendly: true, adjacent_to_target: false }];
    assert!(assess(&c, &input(attack(), vec![inf.clone()], "clear")).is_err());
    inf.over = vec![Over { friendly: false, adjacent_to_target: true }];
    assert_eq!(ok(&c, &input(attack(), vec![inf], "clear")).net_shift, -1);
    // Rifled guns at canister range: no ix.
    assert_eq!(ok(&c, &input(FireKind::Artillery, vec![gun("r", 4, 2, Weapon::R)], "clear")).net_shift, 0);
}

/// SR 9.0, 9.1a, 9.1c, 8.5, 11.3a, EX 9.1f, 6.5e (digest T43, T64, T65).
#[test]
fn who_may_fire() {
    let c = charts();
    let rule = |i: &FireInput| assess(&c, i).err().map(|e| e.rule);
    let mut blocked = firer("b", 4, 2);
    blocked.sight = Sight::Blocked;
    assert_eq!(rule(&input(attack(), vec![blocked.clone()], "clear")), Some("SR 9.1a, EX 9.1a"));
    blocked.range = 1;
    let adjacent = assess(&c, &input(attack(), vec![blocked], "clear")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(adjacent.net_shift, 0, "adjacent: no LOS needed");
    assert_eq!(rule(&input(FireKind::Brigade(Order::Regroup), vec![firer("r", 4, 1)], "clear")), Some("SR 8.2-8.5"));
    assert_eq!(rule(&input(attack(), vec![gun("g", 4, 1, Weapon::S)], "clear")), Some("SR 9.0"));
    assert_eq!(rule(&input(FireKind::Artillery, vec![firer("i", 4, 1)], "clear")), Some("SR 6.0"));
    let woods_gun = Firer { in_woods: true, ..gun("g", 4, 1, Weapon::S) };
    assert_eq!(rule(&input(FireKind::Defensive, vec![woods_gun], "clear")), Some("EX 9.1f"));
    let cc = Firer { weapon: Weapon::CC, ..firer("cc", 4, 1) };
    assert!(rule(&input(attack(), vec![cc.clone()], "clear")).is_some());
    assert!(assess(&c, &input(FireKind::Defensive, vec![cc.clone()], "clear")).is_ok(), "SR 11.3a");
    let cc_cav = Firer { ty: UnitType::Cavalry, ..cc };
    assert!(rule(&input(FireKind::Defensive, vec![cc_cav], "clear")).is_some());
    let cav = Firer { ty: UnitType::Cavalry, attacked_by_cavalry: true, ..firer("c", 4, 1) };
    assert_eq!(rule(&input(FireKind::Defensive, vec![cav], "clear")), Some("SR 11.3a (ruling A-19)"));
    let held = Firer { on_hold: true, ..gun("h", 4, 7, Weapon::S) };
    assert_eq!(rule(&input(FireKind::Artillery, vec![held.clone()], "clear")), Some("EX 6.5e"));
    assert!(assess(&c, &input(FireKind::Artillery, vec![Firer { range: 5, ..held }], "clear")).is_ok());
}

/// SR 9.1e: who may add their SP together.
#[test]
fn combining_fire() {
    let c = charts();
    let rule = |f: Vec<Firer>, k: FireKind| assess(&c, &input(k, f, "clear")).err().map(|e| e.rule);
    let a = firer("a", 3, 1);
    let next = Firer { hex: Hex::new(21, 20), ..firer("b", 3, 2) };
    assert_eq!(rule(vec![a.clone(), next.clone()], attack()), None, "two adjacent hexes of one brigade");
    let other = Firer { brigade: Some("other".into()), ..next.clone() };
    assert_eq!(rule(vec![a.clone(), other], attack()), Some("SR 9.1e"));
    let far = Firer { hex: Hex::new(23, 20), ..next };
    assert_eq!(rule(vec![a.clone(), far], attack()), Some("SR 9.1e"));
    let cav = Firer { ty: UnitType::Cavalry, ..firer("c", 3, 1) };
    assert_eq!(rule(vec![a.clone(), cav], attack()), Some("SR 9.1e"));
    let g = gun("g", 4, 1, Weapon::S);
    assert_eq!(rule(vec![a.clone(), g.clone()], FireKind::Opportunity), Some("SR 9.1e"));
    assert_eq!(rule(vec![a, g], FireKind::Defensive), None);
}

/// SR 9.1e, 9.3c on Perryville's odd-q grid: adjacency and the hexsides a line enters by follow
/// the map's parity. (21,19) touches (20,20) on the odd-q grid but not on HSN's even-q one, and
/// (21,21) the other way round.
#[test]
fn combining_and_flanking_follow_the_map_grid() {
    let c = charts();
    let a = firer("a", 3, 1);
    let odd_next = Firer { hex: Hex::new(21, 19), ..firer("b", 3, 2) };
    let even_next = Firer { hex: Hex::new(21, 21), ..firer("b", 3, 2) };
    let on = |grid: Parity, f: &Firer| {
        assess(&c, &FireInput { grid, ..input(attack(), vec![a.clone(), f.clone()], "clear") }).err().map(|e| e.rule)
    };
    assert_eq!(on(Parity::OddQ, &odd_next), None, "adjacent on the Perryville grid");
    assert_eq!(on(Parity::OddQ, &even_next), Some("SR 9.1e"), "not adjacent on the Perryville grid");
    assert_eq!(on(Parity::EvenQ, &even_next), None);
    let t = Hex::new(20, 20);
    let around: Vec<Hex> = Parity::OddQ.neighbors(t).map(|(_, h)| h).collect();
    assert!(flanking_fire(Parity::OddQ, t, &[around[0], around[3]]));
    assert!(!flanking_fire(Parity::OddQ, t, &[around[0], around[1]]));
    // (21,19) and (21,20) both touch (20,20) on odd-q, as neighbouring hexsides: no flank; read
    // with even-q, (21,19) would be no entry at all.
    assert!(!flanking_fire(Parity::OddQ, t, &[Hex::new(21, 19), Hex::new(21, 20)]));
    assert!(flanking_fire(Parity::OddQ, t, &[Hex::new(21, 19), Hex::new(19, 20)]));
}

/// EX 9.3 iii, iv, viii: cornfield, fence, skirmishers.
#[test]
fn terrain_and_skirmish_shifts() {
    let c = charts();
    assert_eq!(ok(&c, &input(attack(), vec![firer("a", 6, 1)], "cornfield")).net_shift, -1);
    let mut i = input(attack(), vec![firer("a", 6, 1)], "clear");
    i.target.fence = Some("stone-fence".into());
    assert_eq!(ok(&c, &i).net_shift, -1);
    i.target.fence = None;
    i.target.lead_skirmish = true;
    i.target.lead_cavalry = true;
    // Skirmishing cavalry: 1R - 2L = 1L (digest 3.10.5 note).
    assert_eq!(ok(&c, &i).net_shift, -1);
}

/// SR 9.3c (ruling A-14e): lines entering by the same or neighbouring hexsides do not flank;
/// with a full hexside between them they do.
#[test]
fn flanking_fire_needs_a_hexside_between_the_lines() {
    let t = Hex::new(20, 20);
    let around: Vec<Hex> = t.neighbors().map(|(_, h)| h).collect();
    assert!(!flanking_fire(Parity::EvenQ, t, &[around[0], around[0]]));
    assert!(!flanking_fire(Parity::EvenQ, t, &[around[0], around[1]]));
    assert!(!flanking_fire(Parity::EvenQ, t, &[around[0], around[5]]));
    assert!(flanking_fire(Parity::EvenQ, t, &[around[0], around[2]]));
    assert!(flanking_fire(Parity::EvenQ, t, &[around[1], around[4]]));
    assert!(!flanking_fire(Parity::EvenQ, t, &[around[1]]));
    assert!(
        !flanking_fire(Parity::EvenQ, t, &[Hex::new(25, 25), around[3]]),
        "a hex not next to the target is no entry"
    );
}

proptest! {
    /// Whatever the fire, a final column is on the table and a roll is asked exactly when there
    /// is one; totals are never negative.
    #[test]
    fn columns_stay_on_the_table(sp in 1u8..40, range in 1u32..5, kind in 0usize..5,
                                 terrain in 0usize..4, cav in any::<bool>(), skirm in any::<bool>(),
                                 flank in any::<bool>(), morale in 0usize..3, roll in 11u8..=66) {
        let c = charts();
        let kinds = [attack(), FireKind::Opportunity, FireKind::Defensive, FireKind::SupportingDefensive, FireKind::Brigade(Order::Defend)];
        let terrains = ["clear", "woods", "town", "cornfield"];
        let mut f = firer("a", sp, range);
        f.morale = [Morale::Steady, Morale::Shaken, Morale::Disrupted][morale];
        let mut i = input(kinds[kind], vec![f], terrains[terrain]);
        i.target.lead_cavalry = cav;
        i.target.lead_skirmish = skirm;
        i.flanking = flank;
        if let Ok(a) = assess(&c, &i) {
            prop_assert!(a.total_sp >= 0.5);
            prop_assert!(a.final_column.is_none_or(|col| col < c.crt.column_count()));
            prop_assert_eq!(a.final_column.is_some(), a.roll.is_some());
            if let Some(r) = D66::from_value(roll) {
                let res = resolve(&c, &a, r, 3);
                prop_assert!(res.test.is_none() || a.final_column.is_some());
            }
        }
    }
}
