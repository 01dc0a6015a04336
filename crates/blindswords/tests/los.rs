//! Line of sight (SR 9.1a with the EX 9.1a cases): the rulebook's worked examples and one test
//! per case of the rule, with digest §8 T27-T31.

use caisson_blindswords::charts::{Charts, Order};
use caisson_blindswords::fire::{assess, FireInput, FireKind, Firer, Over, Target};
use caisson_blindswords::los::{line_of_sight, Los, Sight};
use caisson_blindswords::map::builtin;
use caisson_hexmap::{format, Hex, Map};
use caisson_kernel::data::DataDir;

mod common;

fn h(s: &str) -> Hex {
    s.parse().expect("test hex")
}

/// A small tactical map, columns 10–14 and rows 00–04: one terrain string and one level string
/// per column (`.` clear, `w` woods, `T` town, `c` corn).
fn small(terrain: [&str; 5], levels: [&str; 5]) -> Map {
    let mut text = String::from("map t \"t\"\ngrid 10-14 00-04 00-04 odd-q columns-east tactical\n[terrain]\n");
    for (i, t) in terrain.iter().enumerate() {
        text.push_str(&format!("{} {t}\n", 10 + i));
    }
    text.push_str("[elevation]\n");
    for (i, l) in levels.iter().enumerate() {
        text.push_str(&format!("{} {l}\n", 10 + i));
    }
    format::parse(&text, "small.txt").expect("test map parses")
}

fn los(map: &Map, from: &str, to: &str, units: &[&str]) -> Los {
    let units: Vec<Hex> = units.iter().map(|s| h(s)).collect();
    line_of_sight(map, h(from), h(to), |x| units.contains(&x)).expect("hexes on the map")
}

fn rules(l: &Los) -> Vec<&'static str> {
    l.reasons.iter().map(|r| r.rule).collect()
}

const CLEAR: [&str; 5] = ["....."; 5];

/// EX 9.1a, firing up: USA A on level 1 fires at CSA C on level 2; 2622 and 2621, at level 2,
/// block. USA B on level 1, with only level-1 hexes between, sees C clearly. On the reconstructed
/// map C is in 2620, A in 2623 and B in 2618 (the rulebook gives only 2621 and 2622).
/// Digest §8 T28: firer L1, target L2, an intervening hex at L2 (2622/2621): Blocked.
/// Digest §8 T29: firer L1, target L2, every intervening hex at L1 and no obstacle: Clear.
#[test]
fn ex_9_1a_firing_up_example_2622_2621() {
    let m = builtin("perryville").expect("map");
    let level = |x: &str| m.elevation(h(x));
    assert_eq!((level("2623"), level("2620")), (Some(1), Some(2)), "T28: firing up from L1 to L2");
    let a = los(&m, "2623", "2620", &[]);
    assert_eq!(a.sight, Sight::Blocked);
    let blockers: Vec<Hex> = a.reasons.iter().map(|r| r.hex).collect();
    assert_eq!(blockers, [h("2622"), h("2621")]);
    assert!(blockers.iter().all(|b| m.elevation(*b) == Some(2)), "T28: the blockers are at the target's L2");
    assert!(rules(&a).iter().all(|r| *r == "EX 9.1a firing up iv"), "{:?}", a.reasons);
    let b = los(&m, "2618", "2620", &[]);
    assert_eq!(level("2618"), Some(1));
    let between: Vec<Hex> =
        b.line.iter().flat_map(|s| s.hexes()).filter(|x| *x != h("2618") && *x != h("2620")).collect();
    assert!(!between.is_empty(), "the line has intervening hexes");
    assert!(between.iter().all(|x| m.elevation(*x) == Some(1)), "T29: every intervening hex at L1: {between:?}");
    assert_eq!(b.sight, Sight::Clear, "{:?}", b.reasons);
}

/// EX 9.1a, same level: C and A both on level 2, the dismounted cavalry B on level 1 between
/// them obscures but does not block (the example is the source of ruling A-14a); the line
/// passes over B, which fire combat checks against SR 9.1b.
/// Digest §8 T27: firer L2, target L2, an intervening L1 hex with an enemy unit: Obscured, and
/// the fire is allowed (firing over enemy units is, SR 9.1b) at 1L for the Obscured line and 1L
/// more for Overhead Fire (ruling A-59).
#[test]
fn ex_9_1a_same_level_example_unit_below_obscures() {
    let m = small(CLEAR, ["22222", "22222", "21222", "22222", "22222"]);
    // Column 12 from row 00 to row 04 passes 1201, 1202, 1203; B is in 1201 at level 1.
    let l = los(&m, "1200", "1204", &["1201"]);
    assert_eq!(l.sight, Sight::Obscured);
    assert_eq!(rules(&l), ["EX 9.1a same level ii, ruling A-14a"]);
    assert_eq!(l.over_units, [h("1201")]);

    // T27: the fire this line allows, B being an enemy of the firer.
    let charts = Charts::load(&DataDir::builtin()).expect("charts");
    let firer = Firer {
        brigade: Some("terrill".into()),
        hex: h("1200"),
        sight: l.sight,
        over: l.over_units.iter().map(|_| Over { friendly: false, adjacent_to_target: false }).collect(),
        ..common::firer("A", 6, 4)
    };
    let target =
        Target { hex: h("1204"), terrain: "clear".into(), fence: None, lead_cavalry: false, lead_skirmish: false };
    let input = FireInput {
        kind: FireKind::Brigade(Order::Attack),
        firers: vec![firer.clone()],
        target,
        flanking: false,
        grid: m.parity(),
        extra: Vec::new(),
    };
    let a = assess(&charts, &input).unwrap_or_else(|e| panic!("T27: the fire is allowed: {e}"));
    let shifts: Vec<(i32, &str)> = a.shifts.iter().map(|s| (s.value, s.rule.as_str())).collect();
    assert_eq!(shifts, [(-1, "EX 9.3 vi (ruling A-59)"), (-1, "EX 9.3 vii, 9.1a (ruling A-14c)")]);
    assert_eq!(a.net_shift, -2);
    // Over a friendly unit instead, the infantry may not fire at all (SR 9.1b).
    let friendly = Firer { over: vec![Over { friendly: true, adjacent_to_target: false }], ..firer };
    let refused = assess(&charts, &FireInput { firers: vec![friendly], ..input }).err().map(|e| e.rule);
    assert_eq!(refused, Some("SR 9.1b"));
}

/// EX 9.1a, firing down: B one level above A, with an intervening hex at B's level: Blocked.
/// "If B was on" A's level the woods in that hex would still block. The example's levels 8 and
/// 7 are off the 1–6 scale: the test keeps the logic at levels 6 and 5.
/// Digest §8 T30: firing down (firer at Lf), an intervening hex at Lf: Blocked (the wedding cake);
/// `firing_down_cases` checks it on a clear hex too.
#[test]
fn ex_9_1a_firing_down_example_1110() {
    let m = small([".....", ".....", "..w..", ".....", "....."], ["66666", "66666", "66665", "66666", "66666"]);
    let l = los(&m, "1200", "1204", &[]);
    assert_eq!(l.sight, Sight::Blocked);
    assert!(l.reasons.iter().any(|r| r.hex == h("1202") && r.rule == "EX 9.1a firing down iii"), "{:?}", l.reasons);
    // Both at one level: the woods in the intervening hex block (same level iii).
    let same = small([".....", ".....", "..w..", ".....", "....."], ["55555", "55555", "55555", "55555", "55555"]);
    let l = los(&same, "1200", "1204", &[]);
    assert_eq!(l.sight, Sight::Blocked);
    assert_eq!(rules(&l), ["EX 9.1a same level iii"]);
}

/// SR 9.3 fire example and EX 9.1a: a target in woods is always Obscured, even adjacent.
#[test]
fn target_in_woods_is_obscured_even_adjacent() {
    let m = small(["..w..", ".....", ".....", ".....", "....."], ["11111"; 5]);
    let l = los(&m, "1001", "1002", &[]);
    assert_eq!(l.sight, Sight::Obscured);
    assert_eq!(rules(&l), ["EX 9.1a (target in woods)"]);
}

/// SR 9.1a: the firer's own hex never affects its LOS.
#[test]
fn the_firers_own_hex_does_not_count() {
    let m = small(["w....", ".....", ".....", ".....", "....."], ["11111"; 5]);
    assert_eq!(los(&m, "1000", "1004", &[]).sight, Sight::Clear);
}

/// The same-level cases of EX 9.1a. Digest §8 T31 is case iii: an intervening hex at the common
/// level holding a unit (a friendly one, the firer's side does not matter to the line) Blocks;
/// that infantry may not fire over friendly units anyway (SR 9.1b) is asserted with T27 above.
#[test]
fn same_level_cases() {
    // i: a higher hex blocks, whatever is in it.
    let m = small(CLEAR, ["22222", "22222", "22322", "22222", "22222"]);
    let l = los(&m, "1200", "1204", &[]);
    assert_eq!((l.sight, rules(&l)), (Sight::Blocked, vec!["EX 9.1a same level i"]));
    // ii: lower woods or Perryville obscure.
    let m = small([".....", ".....", ".w.T.", ".....", "....."], ["22222", "22222", "21212", "22222", "22222"]);
    let l = los(&m, "1200", "1204", &[]);
    assert_eq!(l.sight, Sight::Obscured);
    assert_eq!(rules(&l), ["EX 9.1a same level ii", "EX 9.1a same level ii"]);
    // iii: woods, Perryville or a unit at the same level block; an empty clear hex does not.
    let m = small([".....", ".....", ".T...", ".....", "....."], ["22222"; 5]);
    assert_eq!(los(&m, "1200", "1204", &[]).sight, Sight::Blocked);
    let m = small(CLEAR, ["22222"; 5]);
    assert_eq!(los(&m, "1200", "1204", &[]).sight, Sight::Clear);
    let l = los(&m, "1200", "1204", &["1203"]);
    assert_eq!((l.sight, rules(&l)), (Sight::Blocked, vec!["EX 9.1a same level iii"]));
    assert!(l.over_units.is_empty(), "a blocking unit is not fired over");
    assert_eq!(l.reasons[0].hex, h("1203"), "T31: the unit's hex blocks");
}

#[test]
fn firing_up_cases() {
    // Firer 1200 at level 2, target 1204 at level 5; intervening 1201 1202 1203.
    let map = |t: &'static str, mid: &str| {
        let col = format!("2{mid}5");
        small([".....", ".....", t, ".....", "....."], ["33333", "33333", col.as_str(), "33333", "33333"])
    };
    // i: higher than both; iv: at the target's level.
    assert_eq!(rules(&los(&map(".....", "161"), "1200", "1204", &[])), ["EX 9.1a firing up i"]);
    assert_eq!(rules(&los(&map(".....", "151"), "1200", "1204", &[])), ["EX 9.1a firing up iv"]);
    // iii: from the firer's level up to below the target's, woods / Perryville / units obscure.
    let l = los(&map("..w..", "234"), "1200", "1204", &["1203"]);
    assert_eq!(l.sight, Sight::Obscured);
    assert_eq!(rules(&l), ["EX 9.1a firing up iii", "EX 9.1a firing up iii"]);
    // ii: lower than both, the same.
    let l = los(&map(".T...", "111"), "1200", "1204", &[]);
    assert_eq!((l.sight, rules(&l)), (Sight::Obscured, vec!["EX 9.1a firing up ii"]));
    // An empty clear hex in between is no obstacle at any lower level.
    assert_eq!(los(&map(".....", "234"), "1200", "1204", &[]).sight, Sight::Clear);
}

#[test]
fn firing_down_cases() {
    // Firer 1200 at level 5, target 1204 at level 2.
    let map = |t: &'static str, mid: &str| {
        let col = format!("5{mid}2");
        small([".....", ".....", t, ".....", "....."], ["33333", "33333", col.as_str(), "33333", "33333"])
    };
    assert_eq!(rules(&los(&map(".....", "161"), "1200", "1204", &[])), ["EX 9.1a firing down i"]);
    // iii (digest §8 T30): an intervening hex at the firer's level blocks, clear or not.
    let l = los(&map(".....", "151"), "1200", "1204", &[]);
    assert_eq!((l.sight, rules(&l)), (Sight::Blocked, vec!["EX 9.1a firing down iii"]));
    // iv: from the target's level up to below the firer's: woods and units obscure...
    let l = los(&map("..w..", "432"), "1200", "1204", &["1203"]);
    assert_eq!(rules(&l), ["EX 9.1a firing down iv", "EX 9.1a firing down iv"]);
    // ... and Perryville too, by ruling A-14b.
    let l = los(&map(".T...", "333"), "1200", "1204", &[]);
    assert_eq!((l.sight, rules(&l)), (Sight::Obscured, vec!["EX 9.1a firing down iv, ruling A-14b"]));
    // ii: lower than both.
    let l = los(&map("...w.", "111"), "1200", "1204", &[]);
    assert_eq!((l.sight, rules(&l)), (Sight::Obscured, vec!["EX 9.1a firing down ii"]));
}

/// EX 9.1a: a line exactly along a hexside takes the more restrictive of the two hexes. From 1002
/// to 1202 the line runs along the hexside between 1101 and 1102 (column 11 sits half a hex
/// lower).
#[test]
fn along_a_hexside_the_more_restrictive_hex_counts() {
    let m = small([".....", "..w..", ".....", ".....", "....."], ["22222"; 5]);
    let l = los(&m, "1002", "1202", &[]);
    assert_eq!(l.sight, Sight::Blocked);
    assert_eq!(l.reasons.len(), 1);
    assert_eq!(l.reasons[0].hex, h("1102"));
    assert!(l.reasons[0].detail.contains("1101"), "{}", l.reasons[0]);
    // With the woods on the other side instead, the same.
    let m = small([".....", ".w...", ".....", ".....", "....."], ["22222"; 5]);
    assert_eq!(los(&m, "1002", "1202", &[]).reasons[0].hex, h("1101"));
    // Neither side an obstacle: clear.
    assert_eq!(los(&small(CLEAR, ["22222"; 5]), "1002", "1202", &[]).sight, Sight::Clear);
}

/// EX 2.10f, ruling A-60: corn fields are no LOS obstacle, at one level or between levels.
#[test]
fn corn_is_no_obstacle() {
    let m = small([".....", ".....", ".ccc.", ".....", "....."], ["22222"; 5]);
    assert_eq!(los(&m, "1200", "1204", &[]).sight, Sight::Clear);
}

#[test]
fn off_map_hexes_are_an_error() {
    let m = small(CLEAR, ["22222"; 5]);
    assert!(line_of_sight(&m, h("1200"), h("1505"), |_| false).is_err());
}

/// The reasons read as an explanation: the sight, the hex, what is there and the rule.
#[test]
fn reasons_explain_themselves() {
    let m = builtin("perryville").expect("map");
    let l = los(&m, "2623", "2620", &[]);
    assert_eq!(l.reasons[0].to_string(), "blocked by 2622: level 2, the target's level [EX 9.1a firing up iv]");
}

mod properties {
    use super::*;
    use proptest::prelude::*;
    use std::sync::OnceLock;

    fn map() -> &'static Map {
        static MAP: OnceLock<Map> = OnceLock::new();
        MAP.get_or_init(|| builtin("perryville").expect("map"))
    }

    fn hex() -> impl Strategy<Value = Hex> {
        (10i16..=40, 0i16..=40).prop_map(|(c, r)| Hex::new(c, r))
    }

    proptest! {
        /// Units only ever make the sight worse; the verdict is the worst reason; the firer's and
        /// the target's own hexes are never a reason, except the target's woods.
        #[test]
        fn units_never_help_and_the_verdict_is_the_worst_reason(a in hex(), b in hex(), seed in 0i32..7) {
            // A unit never fires at its own hex; there the target's woods would be the firer's.
            prop_assume!(a != b);
            let m = map();
            let empty = line_of_sight(m, a, b, |_| false).expect("on map");
            let crowded = line_of_sight(m, a, b, |h| (i32::from(h.col) * 41 + i32::from(h.row)).rem_euclid(7) == seed).expect("on map");
            prop_assert!(crowded.sight >= empty.sight);
            for l in [&empty, &crowded] {
                prop_assert_eq!(l.sight, l.reasons.iter().map(|r| r.sight).max().unwrap_or(Sight::Clear));
                prop_assert!(l.reasons.iter().all(|r| r.hex != a));
                prop_assert!(l.reasons.iter().all(|r| r.hex != b || r.rule == "EX 9.1a (target in woods)"));
            }
        }

        /// SR 9.1a: between neighbours nothing intervenes, so only a woods target obscures.
        #[test]
        fn neighbours_see_each_other(a in hex(), d in 0u8..6) {
            let m = map();
            let b = m.neighbor(a, caisson_hexmap::Direction::new(d));
            prop_assume!(m.contains(b));
            let l = line_of_sight(m, a, b, |_| true).expect("on map");
            let woods = m.tactical(b) == Some(caisson_hexmap::TacticalTerrain::Woods);
            prop_assert_eq!(l.sight, if woods { Sight::Obscured } else { Sight::Clear });
        }
    }
}
