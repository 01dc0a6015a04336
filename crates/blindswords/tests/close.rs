//! SR 11 / EX 11 Close Combat: declaration, withdrawal, the EX 11.3c shifts and the CRT, checked
//! against the SR 12.8 close combat example and digest §8 T07, T37–T43, T49.

use std::path::{Path, PathBuf};

use caisson_blindswords::catalog::{Side, Sp, UnitType, Weapon};
use caisson_blindswords::charts::{Charts, Order, Section, D66};
use caisson_blindswords::close::{
    assess, check_declaration, odds_shift, resolve, withdrawal, Attacker, CloseInput, Defender,
};
use caisson_blindswords::cohesion::Morale;
use caisson_hexmap::{Hex, Parity};
use caisson_kernel::data::DataDir;
use proptest::prelude::*;

fn charts() -> Charts {
    let root: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    Charts::load(&DataDir::on_disk(&root)).unwrap_or_else(|e| panic!("charts: {e}"))
}

const DEF: Hex = Hex::new(20, 20);
const ASSAULT: Hex = Hex::new(20, 21);

fn attacker(id: &str, sp: u8, cr: i32) -> Attacker {
    Attacker {
        id: id.into(),
        side: Side::Union,
        ty: UnitType::Infantry,
        hex: ASSAULT,
        sp: Sp::whole(sp),
        morale: Morale::Steady,
        weapon: Weapon::R,
        cr,
        order: Order::Attack,
        on_hold: false,
        chaos: false,
        skirmish: false,
        hexside: Vec::new(),
        defender_higher: false,
    }
}

fn defender(id: &str, sp: u8) -> Defender {
    Defender {
        id: id.into(),
        ty: UnitType::Infantry,
        sp: Sp::whole(sp),
        morale: Morale::Steady,
        weapon: Weapon::R,
        skirmish: false,
    }
}

fn input(attackers: Vec<Attacker>, defenders: Vec<Defender>, lead_cr: i32) -> CloseInput {
    CloseInput {
        attackers,
        assault_hex: ASSAULT,
        defender_hex: DEF,
        terrain: "clear".into(),
        defenders,
        lead_cr,
        rebel_yell: false,
        spontaneous_charge: false,
        parity: Parity::EvenQ,
    }
}

fn net(c: &Charts, i: &CloseInput) -> i32 {
    assess(c, i).unwrap_or_else(|e| panic!("{e}")).net_shift
}

/// SR 12.8 example (digest T07): 1st WV (3 SP, CR 2) and 4th WV (4 SP BW, CR 1) attack the 36th
/// VA (5 SP, CR 4) and 69th NC (2 SP) up a Slope. The example says 6 SP; 3 + 4 is 7 (ruling
/// A-46), the same "6-7" column. Slope 2L and the better defending CR 1L: column "3". The roll 52
/// reads `- | 0 | 1-3`: the Lead Unit's CR 4 is in no box, a Close Fight.
#[test]
fn sr_12_8_close_combat_example() {
    let c = charts();
    let mut wv1 = attacker("1WV", 3, 2);
    let mut wv4 = attacker("4WV", 4, 1);
    for a in [&mut wv1, &mut wv4] {
        a.hexside = vec!["slope".into()];
        a.defender_higher = true;
    }
    let i = input(vec![wv1, wv4], vec![defender("36VA", 5), defender("69NC", 2)], 4);
    let a = assess(&c, &i).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(a.initial_column.and_then(|col| c.crt.label(col)), Some("6-7"));
    let rules: Vec<&str> = a.shifts.iter().map(|m| m.rule.as_str()).collect();
    assert_eq!(rules, vec!["EX 11.3c ix", "EX 11.3c x"]);
    assert_eq!(a.final_column.and_then(|col| c.crt.label(col)), Some("3"));
    let roll = D66::from_value(52);
    assert_eq!(
        roll.and_then(|r| a.final_column.and_then(|col| c.crt.cell(col, r))).map(ToString::to_string).as_deref(),
        Some("- | 0 | 1-3")
    );
    assert_eq!(resolve(&c, &a, roll, 4), Section::CloseFight);
    assert_eq!(resolve(&c, &a, roll, 2), Section::Routine);
}

/// EX 11.3c i–vi (digest T37): one odds shift, the first that applies.
#[test]
fn odds_rows() {
    let v = |a: f64, d: f64| odds_shift(a, d).map_or(0, |m| m.value);
    assert_eq!(
        [v(9.0, 3.0), v(8.0, 4.0), v(6.0, 4.0), v(5.0, 4.0), v(4.0, 6.0), v(3.0, 6.0), v(2.0, 6.0)],
        [3, 2, 1, 0, -1, -2, -3]
    );
}

/// EX 11.3c vii, xiv, xiii, xv, xvi, xvii, xviii and the EX 2.11 Perryville errata (T38, T40).
#[test]
fn unit_and_terrain_shifts() {
    let c = charts();
    let gun = Defender { ty: UnitType::Artillery, ..defender("g", 3) };
    assert_eq!(net(&c, &input(vec![attacker("a", 6, 3)], vec![gun, defender("d", 3)], 3)), 4, "half artillery");
    let mut cav = attacker("c", 3, 3);
    cav.ty = UnitType::Cavalry;
    cav.hexside = vec!["wood-fence".into()];
    assert_eq!(net(&c, &input(vec![cav], vec![defender("d", 3)], 3)), -2, "T40");
    let s = Attacker { weapon: Weapon::S, ..attacker("s", 3, 3) };
    assert_eq!(net(&c, &input(vec![s], vec![defender("d", 3)], 3)), 1);
    let ds = Defender { weapon: Weapon::S, ..defender("d", 3) };
    assert_eq!(net(&c, &input(vec![attacker("a", 3, 3)], vec![ds], 3)), -1);
    let mut town = input(vec![attacker("a", 3, 3)], vec![defender("d", 3)], 3);
    town.terrain = "town".into();
    assert_eq!(net(&c, &town), -2);
    town.terrain = "woods".into();
    assert_eq!(net(&c, &town), 0, "woods have no Close Combat effect (EX 2.10g)");
    let mut yell = input(vec![attacker("a", 3, 3)], vec![defender("d", 3)], 3);
    yell.rebel_yell = true;
    yell.spontaneous_charge = true;
    assert_eq!(net(&c, &yell), 1, "a Union attack gets the Spontaneous Charge, not the Rebel Yell");
    let mut river = attacker("a", 3, 3);
    river.hexside = vec!["river".into(), "ford".into()];
    assert_eq!(net(&c, &input(vec![river], vec![defender("d", 3)], 3)), -2, "one Chaplin shift");
    let mut down = attacker("a", 3, 3);
    down.hexside = vec!["steep-slope".into()];
    down.defender_higher = false;
    assert_eq!(net(&c, &input(vec![down.clone()], vec![defender("d", 3)], 3)), 0, "defender below");
    down.defender_higher = true;
    assert_eq!(net(&c, &input(vec![down], vec![defender("d", 3)], 3)), -3);
}

/// EX 11.3c xix (digest T39) and SR 11.3c: only the Assaulting Hex sets the column and the
/// shifts; the odds count every attacker.
#[test]
fn flanking_attack_and_assaulting_hex() {
    let c = charts();
    // The defending hex's neighbours: two next to the Assaulting Hex, two at 2, one opposite.
    let around: Vec<Hex> = DEF.neighbors().map(|(_, h)| h).filter(|h| *h != ASSAULT).collect();
    let near: Vec<Hex> = around.iter().copied().filter(|h| h.distance(ASSAULT) == 1).collect();
    let far: Vec<Hex> = around.iter().copied().filter(|h| h.distance(ASSAULT) >= 2).collect();
    assert_eq!((near.len(), far.len()), (2, 3));
    let beside = Attacker { hex: near[0], ..attacker("f", 3, 3) };
    let i = input(vec![attacker("a", 3, 3), beside.clone()], vec![defender("d", 4)], 3);
    let a = assess(&c, &i).unwrap_or_else(|e| panic!("{e}"));
    assert!((a.assault_sp - 3.0).abs() < 1e-9);
    assert_eq!(a.net_shift, 1, "6 against 4 is 3:2; one flanking hex next to the assault hex: no xix");
    let other = Attacker { hex: near[1], ..attacker("g", 3, 3) };
    let two = input(vec![attacker("a", 3, 3), beside, other], vec![defender("d", 4)], 3);
    assert_eq!(net(&c, &two), 4, "9 against 4 is 2:1, and two flanking hexes +2");
    let away = Attacker { hex: far[0], ..attacker("h", 3, 3) };
    assert_eq!(net(&c, &input(vec![attacker("a", 3, 3), away], vec![defender("d", 4)], 3)), 3);
}

/// SR 11.1, 11.2, EX 11.1, 15.4 (digest T41, T49).
#[test]
fn who_may_attack() {
    let c = charts();
    let rule = |a: Attacker, d: Defender| check_declaration(&c, Parity::EvenQ, &[a], DEF, &[d]).err().map(|e| e.rule);
    let mut cav = attacker("c", 3, 3);
    cav.ty = UnitType::Cavalry;
    cav.hexside = vec!["steep-slope".into()];
    assert_eq!(rule(cav, defender("d", 3)), Some("EX 11.1"));
    assert_eq!(rule(Attacker { ty: UnitType::Artillery, ..attacker("g", 3, 3) }, defender("d", 3)), Some("SR 11.1"));
    assert_eq!(rule(Attacker { order: Order::Defend, ..attacker("a", 3, 3) }, defender("d", 3)), Some("SR 11.1, 8.2"));
    assert_eq!(rule(Attacker { chaos: true, ..attacker("a", 3, 3) }, defender("d", 3)), Some("EX 7.3b"));
    assert_eq!(rule(attacker("a", 3, 3), Defender { skirmish: true, ..defender("d", 3) }), Some("EX 15.4"));
    assert_eq!(rule(Attacker { hex: Hex::new(20, 23), ..attacker("a", 3, 3) }, defender("d", 3)), Some("SR 11.2"));
    assert_eq!(rule(attacker("a", 3, 3), defender("d", 3)), None);
}

/// SR 11.3b, EX 11.3b (digest T42).
#[test]
fn cavalry_and_horse_artillery_withdraw_from_infantry() {
    assert_eq!(withdrawal(UnitType::Cavalry, &[UnitType::Infantry]), Some(0));
    assert_eq!(withdrawal(UnitType::HorseArtillery, &[UnitType::Infantry, UnitType::Infantry]), Some(1));
    assert_eq!(withdrawal(UnitType::Cavalry, &[UnitType::Cavalry]), None);
    assert_eq!(withdrawal(UnitType::Infantry, &[UnitType::Infantry]), None);
}

/// A Close Combat shifted past "C" is a Close Fight without a CRT roll (ruling PC3).
#[test]
fn below_c_is_a_close_fight() {
    let c = charts();
    let mut a = attacker("a", 1, 1);
    a.hexside = vec!["steep-slope".into()];
    a.defender_higher = true;
    let i = input(vec![a], vec![defender("d", 6)], 4);
    let ass = assess(&c, &i).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ass.final_column, None);
    assert_eq!(ass.roll, None);
    assert_eq!(resolve(&c, &ass, None, 4), Section::CloseFight);
}

proptest! {
    /// At most one odds shift, and any final column is on the table.
    #[test]
    fn at_most_one_odds_shift(a in 1u8..30, d in 1u8..30, cr in 0i32..7, lead in 0i32..7, terrain in 0usize..3) {
        let c = charts();
        let mut i = input(vec![attacker("a", a, cr)], vec![defender("d", d)], lead);
        i.terrain = ["clear", "town", "woods"][terrain].into();
        let ass = assess(&c, &i);
        prop_assert!(ass.is_ok());
        let ass = ass.unwrap_or_else(|_| unreachable!());
        let odds = ["EX 11.3c i", "EX 11.3c ii", "EX 11.3c iii", "EX 11.3c iv", "EX 11.3c v", "EX 11.3c vi"];
        prop_assert_eq!(ass.shifts.iter().filter(|m| odds.contains(&m.rule.as_str())).count(), usize::from(odds_shift(ass.attacking_sp, ass.defending_sp).is_some()));
        prop_assert!(ass.shifts.iter().filter(|m| odds.contains(&m.rule.as_str())).count() <= 1);
        prop_assert!(ass.final_column.is_none_or(|col| col < c.crt.column_count()));
    }
}
