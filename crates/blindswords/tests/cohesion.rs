//! SR 12 Cohesion Tests on explicit stacks: the SR 12.1 panic example, the SR 12.8 close combat
//! example (digest §8 T08–T11), Morale Hits (T14), Break Tests (T12–T13), Unit Support
//! (T15–T17), the Broken Track (T62) and the advance (T45), with the rulebook's dice.

use std::path::{Path, PathBuf};

use caisson_blindswords::catalog::{Face, Side, Sp, UnitType, Weapon};
use caisson_blindswords::charts::{Charts, Section};
use caisson_blindswords::cohesion::{
    advance_hexes, apply_panic, broken_track_advance, close_test, failed_retreat, fire_test, morale_hits, panic_pick,
    retreat_paths, supported, CloseTest, CombatUnit, EnemyNear, FireTest, Morale, Nearby, Need, PanicCandidate,
    RetreatGround, RetreatPath, RetreatPlan, Stack, Status,
};
use caisson_hexmap::Hex;
use caisson_kernel::data::DataDir;
use proptest::prelude::*;

fn charts() -> Charts {
    let root: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    Charts::load(&DataDir::on_disk(&root)).unwrap_or_else(|e| panic!("charts: {e}"))
}

fn sp(s: &str) -> Sp {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// A unit of `brigade` with Fresh (SP, CR) and Battleworn (SP, CR) faces.
fn unit(id: &str, brigade: &str, fresh: Option<(&str, u8)>, worn: (&str, u8)) -> CombatUnit {
    CombatUnit {
        id: id.into(),
        side: Side::Union,
        ty: UnitType::Infantry,
        brigade: Some(brigade.into()),
        division: Some("div".into()),
        fresh: fresh.map(|(s, cr)| Face { sp: sp(s), cr }),
        worn: Face { sp: sp(worn.0), cr: worn.1 },
        weapon: Weapon::R,
        battleworn: false,
        morale: Morale::Steady,
        status: Status::OnMap,
        nearby_support: false,
        skirmish: false,
        chaos: false,
    }
}

fn worn(mut u: CombatUnit) -> CombatUnit {
    u.battleworn = true;
    u
}

fn stack(units: Vec<CombatUnit>) -> Stack {
    Stack { units, allows_support: true }
}

fn find<'a>(s: &'a Stack, id: &str) -> &'a CombatUnit {
    s.units.iter().find(|u| u.id == id).unwrap_or_else(|| panic!("no {id}"))
}

fn ok<T>(r: Result<T, Need>) -> T {
    r.unwrap_or_else(|n| panic!("needs {n}"))
}

/// SR 12.8 example (digest T08–T09), 1st and 4th WV against the 36th VA and 69th NC: Close
/// Fight, coloured 5 = BD*, white 3 = AMH (printed "AM", ruling PT4). Break Test dice 1 (4th WV)
/// and 4 (36th VA). The example breaks the 36th VA on a 4 against CR 4; SR 12.6 says a roll equal
/// to the rating holds, so the test follows the rule (ruling A-46): Shaken.
fn sr_12_8() -> CloseTest {
    let wv1 = unit("1WV", "union-bde", Some(("3", 2)), ("1", 1));
    let wv4 = worn(unit("4WV", "union-bde", Some(("12", 2)), ("4", 1)));
    let va36 = worn(unit("36VA", "smith", Some(("15", 5)), ("5", 4)));
    let nc69 = worn(unit("69NC", "smith", Some(("6", 4)), ("2", 3)));
    CloseTest {
        section: Section::CloseFight,
        target: stack(vec![va36, nc69]),
        lead: 0,
        second: None,
        assault: stack(vec![wv1, wv4]),
        attacker: None,
        attacking_sp: 7.0,
    }
}

#[test]
fn sr_12_8_close_combat_example_both_deplete_then_attacker_morale_hit() {
    let c = charts();
    let test = sr_12_8();
    assert_eq!(test.target.modified_cr(0).0, 4, "the 36th VA is supported by the 69th NC");
    let out = ok(close_test(&c, &test, 5, 3, &[1, 4]));
    assert_eq!(out.depletion, "BD*");
    assert_eq!(out.skedaddle, "AMH");
    let att = out.attackers.as_ref().unwrap_or_else(|| panic!("attackers"));
    // AD hits the 4th WV (largest printed SP, 4 against 3), Battleworn: Break Test 1 <= CR 1:
    // Shaken; then AMH: Shaken -> Disrupted (T09).
    assert_eq!(find(att, "4WV").morale, Morale::Disrupted);
    assert_eq!(find(att, "4WV").status, Status::OnMap);
    assert_eq!(find(att, "1WV").morale, Morale::Steady);
    // D on the 36th VA, Battleworn: Break Test 4 against CR 4 holds (SR 12.6).
    assert_eq!(find(&out.target, "36VA").status, Status::OnMap);
    assert_eq!(find(&out.target, "36VA").morale, Morale::Shaken);
    assert!(out.retreats.is_empty());
    assert_eq!(out.panic, 0);
}

#[test]
fn sr_12_8_a_roll_one_above_the_rating_breaks_to_box_1() {
    let out = ok(close_test(&charts(), &sr_12_8(), 5, 3, &[1, 5]));
    let va = find(&out.target, "36VA");
    assert_eq!(va.status, Status::Broken(1));
    assert_eq!(va.morale, Morale::Steady, "markers come off a broken unit (SR 12.8)");
}

#[test]
fn a_missing_break_test_die_is_asked_for_and_the_input_is_untouched() {
    let test = sr_12_8();
    match close_test(&charts(), &test, 5, 3, &[1]) {
        Err(Need::Roll(r)) => {
            assert_eq!(r.dice, 1);
            assert_eq!(r.rule, "SR 12.6");
            assert!(r.purpose.contains("36VA"), "{}", r.purpose);
        }
        other => panic!("expected a roll, got {other:?}"),
    }
    assert_eq!(test.target.units[0].morale, Morale::Steady);
    assert!(matches!(close_test(&charts(), &test, 5, 3, &[1, 7]), Err(Need::Roll(_))), "7 is no die face");
    assert!(matches!(close_test(&charts(), &test, 0, 3, &[]), Err(Need::Roll(_))));
}

/// SR 12.2a BD* exception (digest T10): attackers' modified SP triple the defenders': only D.
#[test]
fn both_deplete_becomes_one_sided_when_one_side_triples_the_other() {
    let c = charts();
    let mut t = sr_12_8();
    t.target.units.truncate(1); // 36th VA alone: 5 SP
    t.attacking_sp = 15.0;
    let out = ok(close_test(&c, &t, 5, 4, &[6]));
    assert_eq!(out.attackers.as_ref().map(|a| find(a, "4WV").status), Some(Status::OnMap));
    assert_eq!(out.attackers.as_ref().map(|a| find(a, "4WV").morale), Some(Morale::Steady));
    assert_eq!(find(&out.target, "36VA").status, Status::Broken(3), "D on a BW unit: 6 against CR 3 (4, unsupported)");
    t.attacking_sp = 1.5; // 5 >= 3 x 1.5: only AD
    let out = ok(close_test(&c, &t, 5, 4, &[6]));
    assert_eq!(find(&out.target, "36VA").status, Status::OnMap);
    assert_eq!(out.attackers.as_ref().map(|a| find(a, "4WV").status), Some(Status::Broken(3)));
}

/// SR 12.1 panic example (digest T11): Tough, coloured 5 = D2, white 5 = "MH RA2 (P1)".
#[test]
fn sr_12_1_panic_example() {
    let c = charts();
    let four = unit("four", "b", Some(("4", 3)), ("1", 2));
    let three = unit("three", "b", Some(("3", 3)), ("C", 2));
    let one = unit("one", "b", Some(("1", 3)), ("C", 2));
    let t = FireTest {
        section: Section::Tough,
        target: stack(vec![one, three, four]),
        lead: 2,
        opportunity: false,
        second: None,
    };
    let out = ok(fire_test(&c, &t, 5, 5, &[]));
    assert_eq!(out.depletion, "D2");
    assert!(find(&out.target, "four").battleworn && find(&out.target, "three").battleworn);
    assert!(!find(&out.target, "one").battleworn);
    assert_eq!(find(&out.target, "four").morale, Morale::Shaken);
    assert_eq!(out.retreats.len(), 1);
    assert_eq!((out.retreats[0].unit.as_str(), out.retreats[0].hexes), ("four", 2));
    assert_eq!(out.panic, 1);
    // After the Lead Unit has gone: the C unit is CR 2 (supported by the 1-SP unit), the 1-SP
    // unit CR 3, the adjacent Shaken 6-SP unit 4 - 1 = 3. Only the C unit may panic.
    let mut left = out.target.clone();
    left.units.retain(|u| u.id != "four");
    let cands: Vec<PanicCandidate> = (0..left.units.len())
        .map(|i| PanicCandidate { unit: left.units[i].id.clone(), cr: left.modified_cr(i).0 })
        .chain([PanicCandidate { unit: "six".into(), cr: 3 }])
        .collect();
    let pick = panic_pick(&cands, out.panic);
    assert_eq!(pick.forced, vec!["three".to_string()]);
    assert_eq!(pick.choose, 0);
    let i = left.units.iter().position(|u| u.id == "three").unwrap_or(99);
    let (after, _, retreat) = ok(apply_panic(&c, &left, i, None, &[]));
    assert_eq!(after.units[i].morale, Morale::Shaken);
    // The example retreats it two hexes; SR 12.1b says three (ruling A-46).
    assert_eq!(retreat.map(|r| r.hexes), Some(3));
}

#[test]
fn panic_ties_are_left_to_the_enemy_player_lowest_rating_first() {
    let c = |u: &str, cr| PanicCandidate { unit: u.into(), cr };
    let pick = panic_pick(&[c("a", 2), c("b", 1), c("d", 2), c("e", 0), c("f", 3)], 2);
    assert_eq!(pick.forced, vec!["e".to_string(), "b".to_string()]);
    let pick = panic_pick(&[c("a", 2), c("b", 1), c("d", 2)], 2);
    assert_eq!((pick.forced, pick.choose, pick.tied.len()), (vec!["b".to_string()], 1, 2));
    assert!(panic_pick(&[c("a", 3)], 1).forced.is_empty());
}

/// A panicking unit of the defending hex retreats the greater of RA# and 3 (SR 12.2 note).
#[test]
fn panic_with_retreat_all_takes_the_longer_retreat_only() {
    let c = charts();
    let s = stack(vec![unit("x", "b", Some(("3", 1)), ("1", 0))]);
    let (_, _, r) = ok(apply_panic(&c, &s, 0, Some(2), &[]));
    assert_eq!(r.map(|r| r.hexes), Some(3));
}

#[test]
fn d2_with_a_tie_for_second_asks_the_owner() {
    let c = charts();
    let s = stack(vec![
        unit("a", "b", Some(("5", 3)), ("2", 2)),
        unit("b", "b", Some(("3", 3)), ("1", 2)),
        unit("c", "b", Some(("3", 3)), ("1", 2)),
    ]);
    let mut t = FireTest { section: Section::Tough, target: s, lead: 0, opportunity: false, second: None };
    match fire_test(&c, &t, 5, 1, &[]) {
        Err(Need::Choose { candidates, .. }) => assert_eq!(candidates, vec![1, 2]),
        other => panic!("expected a choice, got {other:?}"),
    }
    t.second = Some(2);
    let out = ok(fire_test(&c, &t, 5, 1, &[]));
    assert!(out.target.units[2].battleworn && !out.target.units[1].battleworn);
    // Opportunity Fire: only the moving Lead Unit is depleted (SR 10.7).
    t.opportunity = true;
    let out = ok(fire_test(&c, &t, 5, 1, &[]));
    assert!(out.target.units[0].battleworn && !out.target.units[2].battleworn);
}

/// SR 12.5 (digest T14).
#[test]
fn morale_hits_follow_the_marker() {
    let c = charts();
    let s = stack(vec![unit("u", "b", Some(("6", 3)), ("2", 2)), unit("v", "b", Some(("6", 3)), ("2", 2))]);
    let (a, _) = ok(morale_hits(&c, &s, 0, 2, true, &[]));
    assert_eq!(a.units[0].morale, Morale::Disrupted);
    assert!((a.units[0].modified_sp() - 4.0).abs() < 1e-9);
    assert_eq!(a.modified_cr(0).0, 1);
    let (b, _) = ok(morale_hits(&c, &a, 1, 1, true, &[]));
    let (b, _) = ok(morale_hits(&c, &b, 1, 1, true, &[]));
    assert_eq!(b.units[1].morale, Morale::Disrupted);
    // Shaken + 2: Disrupted then one Break Test; Disrupted + 2: two Break Tests.
    let mut shaken = s.clone();
    shaken.units[0].morale = Morale::Shaken;
    assert!(matches!(morale_hits(&c, &shaken, 0, 2, true, &[]), Err(Need::Roll(_))));
    let (_, steps) = ok(morale_hits(&c, &shaken, 0, 2, true, &[1]));
    assert_eq!(steps.iter().filter(|s| s.rule == "SR 12.6").count(), 1);
    let (_, steps) = ok(morale_hits(&c, &a, 0, 2, true, &[1, 1]));
    assert_eq!(steps.iter().filter(|s| s.rule == "SR 12.6").count(), 2);
    // The Chaplin retreat hit never calls a Break Test (EX 2.10k, ruling A-53).
    let (d, _) = ok(morale_hits(&c, &a, 0, 1, false, &[]));
    assert_eq!((d.units[0].morale, d.units[0].status), (Morale::Disrupted, Status::OnMap));
}

/// SR 12.6 (digest T12–T13): a Disrupted unit hit once tests; CR 3 (2 printed... here 5 - 2).
#[test]
fn break_test_rows() {
    let c = charts();
    let mut u = unit("u", "b", Some(("6", 5)), ("2", 4));
    u.morale = Morale::Disrupted;
    u.nearby_support = true;
    let s = stack(vec![u]);
    assert_eq!(s.modified_cr(0).0, 3);
    let expect = [Status::OnMap, Status::OnMap, Status::OnMap, Status::Broken(1), Status::Broken(2), Status::Broken(3)];
    for (roll, want) in (1..=6).zip(expect) {
        let (after, _) = ok(morale_hits(&c, &s, 0, 1, true, &[roll]));
        assert_eq!(after.units[0].status, want, "roll {roll}");
        if want != Status::OnMap {
            assert!(after.units[0].battleworn);
        }
    }
    // CR 0: 1, 2, 3 are boxes 1, 2, 3.
    let mut z = s.clone();
    z.units[0].nearby_support = false;
    z.units[0].fresh = Some(Face { sp: sp("6"), cr: 2 });
    assert_eq!(z.modified_cr(0).0, 0);
    for (roll, b) in [(1, 1), (2, 2), (3, 3)] {
        assert_eq!(ok(morale_hits(&c, &z, 0, 1, true, &[roll])).0.units[0].status, Status::Broken(b));
    }
    // Artillery and Fragile units are eliminated instead.
    let mut gun = s.clone();
    gun.units[0].ty = UnitType::Artillery;
    assert_eq!(ok(morale_hits(&c, &gun, 0, 1, true, &[4])).0.units[0].status, Status::Eliminated);
    let mut fragile = s;
    fragile.units[0].fresh = None;
    fragile.units[0].battleworn = true;
    assert_eq!(ok(morale_hits(&c, &fragile, 0, 1, true, &[6])).0.units[0].status, Status::Eliminated);
}

/// SR 12.4, EX 12.4 (digest T15–T17).
#[test]
fn unit_support() {
    let inf = unit("inf", "greusel", Some(("6", 3)), ("2", 2));
    let friend = unit("friend", "greusel", Some(("6", 3)), ("2", 2));
    let near = |u| Nearby { unit: u, hex_allows_support: true };
    assert!(supported(&inf, true, &[near(&friend)], false));
    assert!(!supported(&inf, false, &[near(&friend), near(&friend)], false), "in Woods: never (EX 12.4 iv)");
    assert!(!supported(&inf, true, &[Nearby { unit: &friend, hex_allows_support: false }], false));
    assert!(!supported(&inf, true, &[near(&friend)], true), "night (EX 16.1g)");
    let mut gun = unit("gun", "greusel", Some(("4", 3)), ("1", 2));
    gun.ty = UnitType::Artillery;
    assert!(supported(&inf, true, &[near(&gun)], false), "artillery of the brigade supports (EX 12.4 i)");
    // T17: a Disrupted unit of the brigade and a fresh unit of another brigade do not.
    let mut shaken = friend.clone();
    shaken.morale = Morale::Disrupted;
    let other = unit("other", "lytle", Some(("6", 3)), ("2", 2));
    assert!(!supported(&inf, true, &[near(&shaken), near(&other)], false));
    // T16: Sheridan's batteries (division artillery) take support from any of his brigades.
    let mut barnett = unit("barnett", "x", Some(("4", 2)), ("1", 1));
    barnett.ty = UnitType::Artillery;
    barnett.brigade = None;
    assert!(supported(&barnett, true, &[near(&friend)], false));
    let mut elsewhere = other.clone();
    elsewhere.division = Some("rousseau".into());
    assert!(!supported(&barnett, true, &[near(&elsewhere)], false));
    assert!(supported(&inf, true, &[near(&barnett)], false), "and supports them");
    assert!(!supported(&elsewhere, true, &[near(&barnett)], false));
    let mut skirmisher = friend.clone();
    skirmisher.skirmish = true;
    assert!(!supported(&inf, true, &[near(&skirmisher)], false), "EX 15.3");
}

#[test]
fn broken_track_and_advance() {
    assert_eq!(broken_track_advance(Status::Broken(1)), Status::Available);
    assert_eq!(broken_track_advance(Status::Broken(2)), Status::Broken(1));
    assert_eq!(broken_track_advance(Status::Broken(3)), Status::Broken(2));
    assert_eq!(broken_track_advance(Status::Available), Status::Available);
    assert_eq!(advance_hexes(1, false), 1);
    assert_eq!(advance_hexes(2, false), 2);
    assert_eq!(advance_hexes(0, true), 2);
}

proptest! {
    /// Whatever the dice, SP never goes below 0, ratings stay within 0-6, and a broken unit has
    /// no marker and shows its Battleworn side.
    #[test]
    fn cohesion_tests_keep_units_sound(
        section in 0usize..3, coloured in 1u8..=6, white in 1u8..=6,
        dice in proptest::collection::vec(1u8..=6, 12),
        morale in 0usize..3, worn_lead in any::<bool>(),
    ) {
        let c = charts();
        let sections = [Section::Routine, Section::Tough, Section::Severe];
        let mut lead = unit("l", "b", Some(("4", 3)), ("1", 2));
        lead.morale = [Morale::Steady, Morale::Shaken, Morale::Disrupted][morale];
        lead.battleworn = worn_lead;
        let s = stack(vec![lead, unit("m", "b", Some(("3", 1)), ("C", 0)), unit("n", "b", Some(("2", 0)), ("C", 0))]);
        let t = FireTest { section: sections[section], target: s, lead: 0, opportunity: false, second: Some(1) };
        let out = fire_test(&c, &t, coloured, white, &dice);
        prop_assert!(out.is_ok(), "{:?}", out.err());
        let out = out.unwrap_or_else(|_| unreachable!());
        for (i, u) in out.target.units.iter().enumerate() {
            prop_assert!(u.modified_sp() >= 0.0);
            let cr = out.target.modified_cr(i).0;
            prop_assert!((0..=6).contains(&cr));
            if u.status != Status::OnMap {
                prop_assert!(u.battleworn && u.morale == Morale::Steady);
            }
        }
    }
}

/// A square of open ground, columns and rows 10-30, with enemy units, closed hexes, full hexes
/// and Chaplin hexsides.
#[derive(Default)]
struct Ground {
    causers: Vec<Hex>,
    others: Vec<Hex>,
    closed: Vec<Hex>,
    full: Vec<Hex>,
    river: Vec<(Hex, Hex)>,
}

impl RetreatGround for Ground {
    fn around(&self, h: Hex) -> Vec<Hex> {
        h.neighbors().map(|(_, n)| n).collect()
    }
    fn distance(&self, a: Hex, b: Hex) -> u16 {
        a.distance(b)
    }
    fn on_map(&self, h: Hex) -> bool {
        (10..=30).contains(&h.col) && (10..=30).contains(&h.row)
    }
    fn may_enter(&self, _: Hex, to: Hex) -> bool {
        !self.causers.contains(&to) && !self.others.contains(&to) && !self.closed.contains(&to)
    }
    fn enemy_near(&self, h: Hex) -> EnemyNear {
        if self.causers.iter().any(|e| e.distance(h) == 1) {
            EnemyNear::Causer
        } else if self.others.iter().any(|e| e.distance(h) == 1) {
            EnemyNear::Other
        } else {
            EnemyNear::None
        }
    }
    fn fits(&self, h: Hex) -> bool {
        !self.full.contains(&h)
    }
    fn crosses_river(&self, a: Hex, b: Hex) -> bool {
        self.river.contains(&(a, b)) || self.river.contains(&(b, a))
    }
}

fn paths(plan: RetreatPlan) -> Vec<RetreatPath> {
    match plan {
        RetreatPlan::Paths(p) => p,
        other => panic!("expected paths, got {other:?}"),
    }
}

/// SR 12.3, EX 12.3: exactly N hexes away, away from the enemy that caused it, towards the own
/// edges (the Union west or south).
#[test]
fn retreat_goes_away_from_the_enemy_towards_home() {
    let from = Hex::new(20, 20);
    let g = Ground { causers: vec![Hex::new(20, 19)], ..Ground::default() };
    let ps = paths(retreat_paths(&g, Side::Union, from, 2));
    assert!(!ps.is_empty());
    for p in &ps {
        let end = p.hexes[p.hexes.len() - 1];
        assert_eq!(from.distance(end), 2, "{p:?}");
        assert!(p.hexes.iter().all(|h| g.enemy_near(*h) != EnemyNear::Causer), "{p:?}");
        assert!(end.col <= 18 || end.row >= 22, "towards the west or south edge: {end}");
    }
    assert!(ps.iter().any(|p| p.hexes == vec![Hex::new(20, 21), Hex::new(20, 22)]));
    let csa = paths(retreat_paths(
        &Ground { causers: vec![Hex::new(20, 21)], ..Ground::default() },
        Side::Confederate,
        from,
        2,
    ));
    assert!(csa.iter().all(|p| {
        let e = p.hexes[p.hexes.len() - 1];
        e.col >= 22 || e.row <= 18
    }));
}

/// SR 12.3: surrounded, Broken Box 3; at the map edge with hexes left, Broken Box 1 (EX 12.3).
#[test]
fn retreat_blocked_or_off_the_map() {
    let from = Hex::new(20, 20);
    let ring: Vec<Hex> = from.neighbors().map(|(_, h)| h).collect();
    let g = Ground { causers: ring[..2].to_vec(), others: ring[2..].to_vec(), ..Ground::default() };
    assert_eq!(retreat_paths(&g, Side::Union, from, 1), RetreatPlan::Blocked);
    let edge = Hex::new(10, 20);
    let inward: Vec<Hex> = edge.neighbors().map(|(_, h)| h).filter(|h| h.col >= 10).collect();
    let g = Ground { closed: inward, ..Ground::default() };
    assert_eq!(retreat_paths(&g, Side::Union, edge, 2), RetreatPlan::OffMap { from: vec![edge] });
    let mut inf = unit("i", "b", Some(("4", 3)), ("1", 2));
    assert_eq!(failed_retreat(&inf, true), Status::Broken(1));
    assert_eq!(failed_retreat(&inf, false), Status::Broken(3));
    inf.ty = UnitType::Artillery;
    assert_eq!(failed_retreat(&inf, true), Status::Eliminated);
}

/// SR 12.3: a retreat that would end over-stacked goes on to the nearest hex it fits in.
#[test]
fn retreat_goes_on_past_full_hexes() {
    let from = Hex::new(20, 20);
    let full: Vec<Hex> =
        (10..=30).flat_map(|c| (10..=30).map(move |r| Hex::new(c, r))).filter(|h| from.distance(*h) == 1).collect();
    let g = Ground { full, ..Ground::default() };
    let ps = paths(retreat_paths(&g, Side::Union, from, 1));
    assert!(ps.iter().all(|p| from.distance(p.hexes[p.hexes.len() - 1]) == 2));
}

/// EX 2.10k, SR 10.7: crossings of the Chaplin and hexes left next to the enemy are reported.
#[test]
fn retreat_reports_river_crossings_and_exposure() {
    let from = Hex::new(20, 20);
    let ring: Vec<Hex> = from.neighbors().map(|(_, h)| h).collect();
    // Only one way out, across the river, then past another enemy unit.
    let out = ring[0];
    let mut closed: Vec<Hex> = ring[1..].to_vec();
    closed.retain(|h| *h != out);
    let beyond: Vec<Hex> = out.neighbors().map(|(_, h)| h).filter(|h| from.distance(*h) == 2).collect();
    let other = beyond[0];
    let g = Ground { closed, others: vec![other], river: vec![(from, out)], ..Ground::default() };
    let ps = paths(retreat_paths(&g, Side::Union, from, 2));
    assert!(ps.iter().all(|p| p.hexes[0] == out && p.river_crossings == 1));
    assert!(ps.iter().all(|p| p.exposed == vec![out]), "{ps:?}");
}

proptest! {
    /// Every retreat offered ends at least the ordered distance away, enters no enemy or closed
    /// hex, moves one hex a step and ends where the unit fits.
    #[test]
    fn retreats_keep_the_requirements(
        hexes in 1u8..=3,
        enemies in proptest::collection::vec((17i16..=23, 17i16..=23), 0..6),
        closed in proptest::collection::vec((17i16..=23, 17i16..=23), 0..6),
        full in proptest::collection::vec((17i16..=23, 17i16..=23), 0..6),
    ) {
        let from = Hex::new(20, 20);
        let h = |v: Vec<(i16, i16)>| v.into_iter().map(|(c, r)| Hex::new(c, r)).filter(|x| *x != from).collect::<Vec<_>>();
        let g = Ground { causers: h(enemies), closed: h(closed), full: h(full), ..Ground::default() };
        if let RetreatPlan::Paths(ps) = retreat_paths(&g, Side::Union, from, hexes) {
            prop_assert!(!ps.is_empty());
            for p in ps {
                let end = p.hexes[p.hexes.len() - 1];
                prop_assert!(from.distance(end) >= u16::from(hexes));
                prop_assert!(g.fits(end));
                let mut prev = from;
                for x in &p.hexes {
                    prop_assert_eq!(prev.distance(*x), 1);
                    prop_assert!(g.may_enter(prev, *x));
                    prev = *x;
                }
            }
        }
    }
}
