//! SR 13 Rally and the SR 6.4 Artillery Rally Step: eligibility, Recovery by order, Rebuild
//! rolls, checked against the SR 13 example (digest §8 T18–T20).

use std::path::{Path, PathBuf};

use caisson_blindswords::catalog::{Face, Side, Sp, UnitType, Weapon};
use caisson_blindswords::charts::{Charts, Order, Rally};
use caisson_blindswords::cohesion::{CombatUnit, Morale, Status};
use caisson_blindswords::rally::{options, rebuild, rebuild_cr, recover, RallyAction, RallyCheck, RallyStep};
use caisson_kernel::data::DataDir;

fn charts() -> Charts {
    let root: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    Charts::load(&DataDir::on_disk(&root)).unwrap_or_else(|e| panic!("charts: {e}"))
}

fn unit(id: &str, morale: Morale, battleworn: bool) -> CombatUnit {
    CombatUnit {
        id: id.into(),
        side: Side::Union,
        ty: UnitType::Infantry,
        brigade: Some("tyler".into()),
        division: Some("shields".into()),
        fresh: Some(Face { sp: Sp::whole(6), cr: 3 }),
        worn: Face { sp: Sp::whole(2), cr: 2 },
        weapon: Weapon::R,
        battleworn,
        morale,
        status: Status::OnMap,
        nearby_support: true,
        skirmish: false,
        chaos: false,
    }
}

fn check(distance: u32) -> RallyCheck {
    RallyCheck {
        in_active_brigade: true,
        beside_friends: true,
        enemy_distance: Some(distance),
        on_hold: false,
        used_this_phase: false,
        returned_from_broken: false,
    }
}

/// SR 13 example (digest T18): under Defend the 7th IN-a withdrew to three hexes from the enemy
/// and, Disrupted, recovers one Morale Hit: Shaken.
#[test]
fn sr_13_example_defend_recovers_one_hit() {
    let c = charts();
    let a = unit("7IN-a", Morale::Disrupted, true);
    let opts = options(&c, RallyStep::Brigade(Order::Defend), &a, &check(3)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(opts, vec![RallyAction::Recovery(Rally::One)], "Defend: no Rebuild");
    assert_eq!(recover(&a, Rally::One).morale, Morale::Shaken);
    assert_eq!(recover(&a, Rally::Full).morale, Morale::Steady);
}

/// SR 13.1 (digest T19): two hexes from the enemy is too close, whatever the order; the
/// Available box is exempt.
#[test]
fn too_close_to_the_enemy() {
    let c = charts();
    let b = unit("7IN-b", Morale::Shaken, false);
    let e = options(&c, RallyStep::Brigade(Order::Regroup), &b, &check(2)).err();
    assert_eq!(e.map(|e| e.rule), Some("SR 13.1"));
    let mut pa = unit("110PA-a", Morale::Steady, true);
    pa.status = Status::Available;
    assert_eq!(options(&c, RallyStep::Brigade(Order::Regroup), &pa, &check(1)).ok(), Some(vec![RallyAction::Rebuild]));
}

/// SR 13.2b (digest T20): a unit in the Available box of Battleworn CR 2 counts as supported;
/// a 1 brings it back on its Battleworn side, a 3 fails. The example names the 7th IN-b's CR
/// for the 110th PA-a's roll (ruling A-46); the rule's unit is used.
#[test]
fn rebuild_from_the_available_box() {
    let mut pa = unit("110PA-a", Morale::Steady, true);
    pa.status = Status::Available;
    let (cr, mods) = rebuild_cr(&pa, false);
    assert_eq!((cr, mods.len()), (2, 0));
    let (back, ok) = rebuild(&pa, cr, 1);
    assert!(ok);
    assert_eq!((back.status, back.battleworn), (Status::OnMap, true));
    let (same, ok) = rebuild(&pa, cr, 3);
    assert!(!ok);
    assert_eq!(same, pa);
}

/// SR 13.2b: on the map a Battleworn unit flips to Fresh; unsupported and Shaken lower the roll.
#[test]
fn rebuild_on_the_map() {
    let u = unit("u", Morale::Shaken, true);
    let (cr, _) = rebuild_cr(&u, false);
    assert_eq!(cr, 0);
    let (cr, _) = rebuild_cr(&unit("u", Morale::Steady, true), true);
    let (after, ok) = rebuild(&unit("u", Morale::Steady, true), cr, 2);
    assert!(ok && !after.battleworn);
}

/// SR 13.1, 13.2, 8.2–8.5: orders and who may rally.
#[test]
fn orders_and_eligibility() {
    let c = charts();
    let u = unit("u", Morale::Shaken, true);
    assert!(options(&c, RallyStep::Brigade(Order::Attack), &u, &check(5)).is_err());
    assert!(options(&c, RallyStep::Brigade(Order::Maneuver), &u, &check(5)).is_err());
    assert_eq!(
        options(&c, RallyStep::Brigade(Order::Regroup), &u, &check(5)).ok(),
        Some(vec![RallyAction::Recovery(Rally::Full), RallyAction::Rebuild])
    );
    let stranger = RallyCheck { in_active_brigade: false, ..check(5) };
    assert!(options(&c, RallyStep::Brigade(Order::Regroup), &u, &stranger).is_err());
    // The optional Rebuild rule: back from the Broken Track, never Fresh again.
    let back = RallyCheck { returned_from_broken: true, ..check(5) };
    assert_eq!(
        options(&c, RallyStep::Brigade(Order::Regroup), &u, &back).ok(),
        Some(vec![RallyAction::Recovery(Rally::Full)])
    );
    let mut broken = u;
    broken.status = Status::Broken(2);
    assert!(options(&c, RallyStep::Brigade(Order::Regroup), &broken, &check(5)).is_err());
}

/// SR 13.1, 6.4 (ruling A-26): artillery recovers in the Rally Step beside the active brigade,
/// and rebuilds only in the Artillery Rally Step.
#[test]
fn artillery_rally() {
    let c = charts();
    let mut gun = unit("bat", Morale::Disrupted, true);
    gun.ty = UnitType::Artillery;
    assert_eq!(
        options(&c, RallyStep::Brigade(Order::Regroup), &gun, &check(4)).ok(),
        Some(vec![RallyAction::Recovery(Rally::Full)])
    );
    let alone = RallyCheck { beside_friends: false, ..check(4) };
    assert!(options(&c, RallyStep::Brigade(Order::Regroup), &gun, &alone).is_err());
    assert_eq!(
        options(&c, RallyStep::Artillery, &gun, &check(1)).ok(),
        Some(vec![RallyAction::Recovery(Rally::Full), RallyAction::Rebuild])
    );
    let used = RallyCheck { used_this_phase: true, ..check(4) };
    assert!(options(&c, RallyStep::Artillery, &gun, &used).is_err());
    assert!(options(&c, RallyStep::Artillery, &unit("inf", Morale::Shaken, true), &check(4)).is_err());
    let held = RallyCheck { on_hold: true, ..check(4) };
    assert!(options(&c, RallyStep::Artillery, &gun, &held).is_err());
}
