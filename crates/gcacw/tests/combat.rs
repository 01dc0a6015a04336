//! Combat assessment (GCACW 7.1–7.5, 7.8, 9.0, 11.0, 12.0; HSN-B 2.2, 7.4, 9.0; HSN-A 8.0),
//! checked against the rulebook's worked examples (digest §8: T5, T6, T7, T21, T22) on the
//! reconstructed HSN map, with every other unit taken off the board.

mod common;
use common::place;
use std::sync::Arc;

use caisson_gcacw::charts::AttackType;
use caisson_gcacw::combat::{
    assess, attack_restriction, attack_value, hsn_assault_bonus, legal_targets, outcome, Assessment, Attack, Forts,
};
use caisson_gcacw::data::GameData;
use caisson_gcacw::registry::hsn;
use caisson_gcacw::scenario::Entrenchment;
use caisson_gcacw::state::State;
use caisson_gcacw::{Gcacw, Settings, Side};
use caisson_hexmap::{Hex, HexFeature, Hexside, Terrain};

fn h(id: u16) -> Hex {
    Hex::new(i16::try_from(id / 100).expect("column"), i16::try_from(id % 100).expect("row"))
}

/// A scenario's rules and state with every unit off the map, in dry weather, on Turn 2 (so the
/// worked examples, set in Sc 4, are free of its Turn 1 Artillery Penalty).
fn empty(scenario: &str) -> (Gcacw, State) {
    let (rules, mut state) =
        Gcacw::new(hsn().expect("HSN data loads"), scenario, Settings::default()).expect("scenario");
    clear(&mut state);
    (rules, state)
}

/// As [`empty`], on a copy of the HSN map changed by `edit`.
fn empty_on(scenario: &str, edit: impl FnOnce(&mut caisson_hexmap::Map)) -> (Gcacw, State) {
    let mut data = GameData::load(&caisson_gcacw::data::DataDir::builtin(), "hsn").expect("HSN data loads");
    edit(&mut data.map);
    let (rules, mut state) = Gcacw::new(Arc::new(data), scenario, Settings::default()).expect("scenario");
    clear(&mut state);
    (rules, state)
}

fn clear(state: &mut State) {
    for u in &mut state.units {
        u.hex = None;
    }
    for l in &mut state.leaders {
        l.with = None;
    }
    state.rain = false;
    state.turn = 2;
}

fn attach(rules: &Gcacw, state: &mut State, leader: &str, unit: usize) -> usize {
    let l = rules.leader_by_id(leader).unwrap_or_else(|| panic!("leader {leader}"));
    state.leaders[l].with = Some(unit);
    l
}

fn modifier(a: &Assessment, prefix: &str) -> Option<i32> {
    a.attacker_modifiers.iter().find(|m| m.label.starts_with(prefix)).map(|m| m.value)
}

fn defender_mod(a: &Assessment, prefix: &str) -> Option<i32> {
    a.defender_modifiers.iter().find(|m| m.label.starts_with(prefix)).map(|m| m.value)
}

/// Every assessment's rows cover all the outcomes exactly once: each row's ways are the pairs of
/// dice (with an odd and an even parity die, when one is needed) whose differential [`outcome`]
/// finds in that row.
fn check_rows(a: &Assessment) {
    let out_of = a.rows.first().map_or(0, |r| r.out_of);
    assert!(out_of == 36 || out_of == 72, "{out_of}");
    assert_eq!(a.rows.iter().map(|r| r.ways).sum::<u32>(), out_of, "{:?}", a.rows);
    let parities: &[u8] = if out_of == 72 { &[1, 2] } else { &[1] };
    let mut read = std::collections::BTreeMap::new();
    for attacker in 1..=6 {
        for defender in 1..=6 {
            for &parity in parities {
                let o = outcome(a, attacker, defender, Some(parity))
                    .unwrap_or_else(|e| panic!("dice {attacker} and {defender}: {e} (rows {:?})", a.rows));
                *read.entry(o.cells.row).or_insert(0_u32) += 1;
            }
        }
    }
    let ways: std::collections::BTreeMap<i32, u32> = a.rows.iter().map(|r| (r.row, r.ways)).collect();
    assert_eq!(ways, read, "{:?}", a.rows);
    let p: f64 = a.rows.iter().map(|r| r.probability).sum();
    assert!((p - 1.0).abs() < 1e-12, "probabilities sum to {p}");
    assert!(a.rows.windows(2).all(|w| w[0].row < w[1].row && w[0].differentials.1 < w[1].differentials.0));
}

/// The HSN Combat Example (GCACW 7.4, 7.5; digest T5): Brown (8, Artillery 2, Tactical 2) with
/// Cheatham (Tactical 3) makes a hasty attack from 4611 on Wagner (7, Artillery 2, Tactical 2) in
/// the rough hex 4610; Armstrong (2) stands in 4510. Ratio 8 to 7 = 1-1, 0; artillery 2 − 2 = 0
/// on the rough line: −1*, and the parity die of 3 is odd, so no modifier; tactical 3 − 2 = +1;
/// five covered hexes, Armstrong's 2 being at least a quarter of 7: +2; total −1 + 0 + 1 + 2 =
/// +2. Dice 4 and 2: 6 − 2 = +4; the 7–11 columns give the defender 1DR and the attacker fa.
#[test]
fn combat_example_brown_attacks_wagner_gcacw_7_4_7_5() {
    let (r, mut s) = empty("hsn-4");
    let wagner = place(&r, &mut s, "wagner", h(4610), 7);
    let brown = place(&r, &mut s, "brown", h(4611), 8);
    let armstrong = place(&r, &mut s, "armstrong", h(4510), 2);
    let cheatham = attach(&r, &mut s, "cheatham", brown);
    assert_eq!(r.map().terrain(h(4610)), Some(Terrain::Rough), "4610 is rough, as the example says");
    assert_eq!(legal_targets(&r, &s, brown, h(4611), false, &Forts::default()), vec![h(4610)]);
    assert_eq!(legal_targets(&r, &s, armstrong, h(4510), false, &Forts::default()), vec![h(4610)]);

    let attack = Attack::march(&r, &s, brown, h(4610), AttackType::Hasty);
    assert_eq!(attack.leaders, vec![cheatham], "Cheatham, in Brown's hex, counts");
    let a = assess(&r, &s, &attack);
    assert_eq!(a.defenders, vec![wagner]);
    assert_eq!((a.attacker_cv.to_string(), a.defender_cv.to_string()), ("8".into(), "7".into()));
    assert_eq!(a.defender_cv_entrenched.to_string(), "7");
    assert_eq!(a.ratio, "1-1");
    assert_eq!(modifier(&a, "Ratio 1-1"), Some(0));
    assert_eq!(modifier(&a, "Hasty attack"), Some(-1));
    assert_eq!(modifier(&a, "Tactical: Cheatham 3 − Wagner 2"), Some(1));
    assert_eq!(a.artillery_differential, 0);
    assert_eq!(a.artillery.to_string(), "-1*");
    assert!(a.artillery.needs_roll());
    assert_eq!(a.artillery.resolve(3), 0, "an odd parity die: the −1 is not used");
    assert_eq!(a.artillery.resolve(4), -1);

    assert_eq!(a.flank.covered, 5);
    assert_eq!((a.flank.basic, a.flank.final_bonus, a.flank.bonus), (2, 2, 2));
    let mut covered = a.flank.covered_hexes();
    covered.sort();
    assert_eq!(covered, vec![h(4510), h(4511), h(4609), h(4611), h(4711)]);
    let uncovered: Vec<Hex> = a.flank.hexes.iter().filter(|x| x.covered.is_none()).map(|x| x.hex).collect();
    assert_eq!(uncovered, vec![h(4710)]);
    let flank = a.attacker_modifiers.iter().find(|m| m.label.starts_with("Flank attack")).expect("flank modifier");
    assert_eq!(flank.value, 2);
    assert!(flank.label.contains("4510") && flank.label.contains("4609"), "{}", flank.label);
    assert_eq!(a.attacker_total(), 2, "{:?}", a.attacker_modifiers);
    assert_eq!(a.defender_total(), 0, "the Union roll is not modified: {:?}", a.defender_modifiers);
    assert_eq!((a.attacker_column.as_str(), a.defender_column.as_str()), ("7–11", "7–11"));
    check_rows(&a);
    assert_eq!(a.rows[0].out_of, 72, "a parity die doubles the outcomes");

    let o = outcome(&a, 4, 2, Some(3)).expect("legal dice");
    assert_eq!((o.attacker_roll, o.defender_roll, o.differential, o.artillery), (6, 2, 4, 0));
    assert_eq!(o.cells.row, 4);
    assert_eq!(o.cells.defender.to_string(), "1DR");
    assert_eq!(o.cells.attacker.to_string(), "fa");
    assert!(!o.equal_dice);
    // With an even parity die the −1 applies: 5 − 2 = +3.
    assert_eq!(outcome(&a, 4, 2, Some(6)).expect("legal dice").differential, 3);
    assert!(outcome(&a, 4, 2, None).is_err(), "the −1* needs its parity die");
    assert!(outcome(&a, 7, 2, Some(3)).is_err());
    // The rows list every reachable differential with both cells.
    let plus4 = a.rows.iter().find(|r| r.row == 4).expect("row +4 reachable");
    assert_eq!(plus4.cells.defender.to_string(), "1DR");
}

/// GCACW 7.5 Hindman example (digest T6): a defender of 8 under completed Breastworks defends
/// with 16 for the ratio but reads the 7–11 column.
#[test]
fn entrenched_defender_ratio_doubles_column_does_not_gcacw_7_5_9_0() {
    let (r, mut s) = empty("hsn-4");
    let wagner = place(&r, &mut s, "wagner", h(4610), 8);
    s.units[wagner].entrenchment = Some(Entrenchment::Breastworks);
    let brown = place(&r, &mut s, "brown", h(4611), 8);
    let a = assess(&r, &s, &Attack::march(&r, &s, brown, h(4610), AttackType::Normal));
    assert_eq!(a.defender_cv.to_string(), "8");
    assert_eq!(a.defender_cv_entrenched.to_string(), "16");
    assert_eq!(a.defender_column, "7–11");
    assert_eq!(a.ratio, "1-2", "8 to 16");
    assert_eq!(modifier(&a, "Ratio 1-2 (8 to 16)"), Some(-1));
    // Artillery is doubled too: 2 × 2 = 4, so 2 − 4 = −2 on rough: −1*.
    assert_eq!((a.attacker_artillery, a.defender_artillery, a.artillery_differential), (2, 4, -2));
    check_rows(&a);
}

/// GCACW 9.0 and HSN-B 9.0: a Union unit in a Union redoubt defends ×1.5, fractions kept (a ½
/// becomes ¾; the ratio uses the exact value), the Artillery sum is rounded up; a Confederate
/// unit there gets nothing; a better marker replaces the redoubt's ×1.5.
#[test]
fn redoubt_multiplies_union_defenders_only_hsn_b_9_0() {
    let (r, mut s) = empty("hsn-4");
    assert!(r.map().has_feature(h(5505), HexFeature::Redoubt));
    let wagner = place(&r, &mut s, "wagner", h(5505), 7);
    let brown = place(&r, &mut s, "brown", h(5605), 8);
    let a = assess(&r, &s, &Attack::march(&r, &s, brown, h(5505), AttackType::Normal));
    assert_eq!(a.defender_cv_entrenched.to_string(), "10½");
    assert_eq!(a.defender_cv.to_string(), "7");
    assert_eq!(a.defender_artillery, 3, "2 × 1.5 = 3");
    s.units[wagner].entrenchment = Some(Entrenchment::FortBuild2);
    let a = assess(&r, &s, &Attack::march(&r, &s, brown, h(5505), AttackType::Normal));
    assert_eq!(a.defender_cv_entrenched.to_string(), "17½", "7 × 2.5");
    assert_eq!(a.defender_artillery, 5);
    // A disorganized unit of Combat ½ in the redoubt: ¾.
    s.units[wagner].entrenchment = None;
    s.units[wagner].manpower = 1;
    s.units[wagner].organized = false;
    assert_eq!(r.combat_value(&s, wagner).to_string(), "½");
    let a = assess(&r, &s, &Attack::march(&r, &s, brown, h(5505), AttackType::Normal));
    assert_eq!(a.defender_cv_entrenched.to_string(), "¾");
    assert_eq!(a.ratio, "10-1", "8 to ¾ is 10⅔ to 1, read exactly (not 8 to 1)");
    // Confederates do not use HSN redoubts.
    let (r, mut s) = empty("hsn-4");
    place(&r, &mut s, "brown", h(5505), 8);
    let wagner = place(&r, &mut s, "wagner", h(5605), 7);
    let a = assess(&r, &s, &Attack::march(&r, &s, wagner, h(5505), AttackType::Normal));
    assert_eq!(a.defender_cv_entrenched.to_string(), "8");
}

/// GCACW 7.4 Ridge and Ridge Combat Example (digest T7), on the HSN map's ridge 4409>4510 (4409 is
/// the upper side, a hill) and on a copy of the map with a mountain: up a ridge +2; down a ridge
/// into a mountain +1 in all; down into any other hex 0; hill +1 unless the attacker is on high
/// ground or comes down a ridge; mountain +2, +1 from a mountain.
#[test]
fn ridge_hill_and_mountain_modifiers_gcacw_7_4() {
    let (r, mut s) = empty("hsn-4");
    assert_eq!(r.map().terrain(h(4409)), Some(Terrain::Hill));
    assert_eq!(r.map().terrain(h(4510)), Some(Terrain::Clear));
    let wagner = place(&r, &mut s, "wagner", h(4409), 7);
    let brown = place(&r, &mut s, "brown", h(4510), 8);
    let up = assess(&r, &s, &Attack::march(&r, &s, brown, h(4409), AttackType::Normal));
    assert_eq!(defender_mod(&up, "Attack up a ridge"), Some(2));
    assert_eq!(defender_mod(&up, "Defender on a hill"), Some(1));
    assert_eq!(up.defender_total(), 3);
    // Wagner attacks Brown down the ridge: no modifier in a clear hex.
    let down = assess(&r, &s, &Attack::march(&r, &s, wagner, h(4510), AttackType::Normal));
    assert_eq!(defender_mod(&down, "Attack down a ridge"), Some(0));
    assert_eq!(down.defender_total(), 0);

    // A copy of the map: 4510 a mountain below the ridge from 4409; 4511 a mountain too; 4410 a
    // hill next to the hill 4409.
    let (r, mut s) = empty_on("hsn-4", |m| {
        m.set_terrain(h(4510), Terrain::Mountain).expect("on map");
        m.set_terrain(h(4511), Terrain::Mountain).expect("on map");
        m.set_terrain(h(4410), Terrain::Hill).expect("on map");
    });
    let brown = place(&r, &mut s, "brown", h(4510), 8);
    let wagner = place(&r, &mut s, "wagner", h(4409), 7);
    // Down a ridge into a mountain: +1 in all (the Geary example).
    let a = assess(&r, &s, &Attack::march(&r, &s, wagner, h(4510), AttackType::Normal));
    assert_eq!(defender_mod(&a, "Defender on a mountain, attacked down a ridge"), Some(1));
    assert_eq!(a.defender_total(), 1, "{:?}", a.defender_modifiers);
    // Up a ridge from a mountain into a hill: the hill gives nothing (attacker on a mountain),
    // the ridge +2 (the Cleburne example).
    let a = assess(&r, &s, &Attack::march(&r, &s, brown, h(4409), AttackType::Normal));
    assert_eq!(defender_mod(&a, "Defender on a hill: none"), Some(0));
    assert_eq!(a.defender_total(), 2, "{:?}", a.defender_modifiers);
    // Mountain from a mountain (no ridge between 4511 and 4510): +1.
    let (r, mut s) = empty_on("hsn-4", |m| {
        m.set_terrain(h(4510), Terrain::Mountain).expect("on map");
        m.set_terrain(h(4511), Terrain::Mountain).expect("on map");
        m.set_terrain(h(4410), Terrain::Hill).expect("on map");
    });
    place(&r, &mut s, "wagner", h(4510), 7);
    let brown = place(&r, &mut s, "brown", h(4511), 8);
    assert!(!r.map().hexside(h(4511), h(4510)).intersects(Hexside::RIDGE));
    let a = assess(&r, &s, &Attack::march(&r, &s, brown, h(4510), AttackType::Normal));
    assert_eq!(a.defender_total(), 1, "{:?}", a.defender_modifiers);
    // From a clear hex into the mountain: +2.
    s.units[brown].hex = Some(h(4610));
    let a = assess(&r, &s, &Attack::march(&r, &s, brown, h(4510), AttackType::Normal));
    assert_eq!(defender_mod(&a, "Defender on a mountain"), Some(2));
    // Hill to hill, no ridge between 4410 and 4409? Then no hill modifier.
    s.units[brown].hex = Some(h(4410));
    let wagner = r.unit_by_id("wagner").expect("wagner");
    s.units[wagner].hex = Some(h(4409));
    let a = assess(&r, &s, &Attack::march(&r, &s, brown, h(4409), AttackType::Normal));
    assert_eq!(defender_mod(&a, "Defender on a hill: none, the attacker is on high ground"), Some(0));
    check_rows(&a);
}

/// A ring of Confederate divisions around 4610 (4609, 4711, 4511) covers all six hexes: basic +4.
fn ringed(edit: impl FnOnce(&mut caisson_hexmap::Map)) -> (Gcacw, State, usize) {
    let (r, mut s) = empty_on("hsn-4", edit);
    place(&r, &mut s, "wagner", h(4610), 7);
    let brown = place(&r, &mut s, "brown", h(4609), 8);
    place(&r, &mut s, "cleburne", h(4711), 7);
    place(&r, &mut s, "bate-a", h(4511), 5);
    (r, s, brown)
}

/// GCACW 7.8 and 9.0 (digest T21): Flanks Refused turns +4 into +2 and gives a non-flank attack
/// +1; an eligible redoubt turns +1 into 0 and gives a non-flank attack nothing.
#[test]
fn flanks_refused_and_redoubt_gcacw_7_8_9_0() {
    let (r, s, brown) = ringed(|_| {});
    let mut attack = Attack::march(&r, &s, brown, h(4610), AttackType::Normal);
    let a = assess(&r, &s, &attack);
    assert_eq!((a.flank.covered, a.flank.basic, a.flank.final_bonus, a.flank.bonus), (6, 4, 4, 4));
    attack.flanks_refused = true;
    let a = assess(&r, &s, &attack);
    assert_eq!(a.flank.bonus, 2);
    assert!(modifier(&a, "Flank attack").is_some_and(|v| v == 2), "{:?}", a.attacker_modifiers);
    assert_eq!(modifier(&a, "Non-flank"), None);

    // A lone attacker: a non-flank attack, +1 against Flanks Refused.
    let (r, mut s) = empty("hsn-4");
    place(&r, &mut s, "wagner", h(4610), 7);
    let brown = place(&r, &mut s, "brown", h(4611), 8);
    let mut attack = Attack::march(&r, &s, brown, h(4610), AttackType::Normal);
    assert_eq!(modifier(&assess(&r, &s, &attack), "Non-flank"), None);
    attack.flanks_refused = true;
    let a = assess(&r, &s, &attack);
    assert_eq!(modifier(&a, "Non-flank attack on a hex with Flanks Refused"), Some(1));
    assert_eq!(a.flank.covered, 3);

    // Five covered, one held by a second Union unit (reduction a): +2 − 1 = +1. Flanks Refused
    // leaves +1; a redoubt (on a copy of the map) takes it to 0.
    let setup = |redoubt: bool| {
        let (r, mut s) = empty_on("hsn-4", |m| {
            if redoubt {
                m.add_feature(h(4610), HexFeature::Redoubt).expect("on map");
            }
        });
        place(&r, &mut s, "wagner", h(4610), 7);
        place(&r, &mut s, "opdycke", h(4710), 2);
        let brown = place(&r, &mut s, "brown", h(4609), 8);
        place(&r, &mut s, "cleburne", h(4711), 7);
        (r, s, brown)
    };
    let (r, s, brown) = setup(false);
    let mut attack = Attack::march(&r, &s, brown, h(4610), AttackType::Normal);
    let a = assess(&r, &s, &attack);
    assert_eq!((a.flank.covered, a.flank.basic, a.flank.reduction, a.flank.final_bonus), (5, 2, 1, 1));
    let held = a.flank.hexes.iter().find(|x| x.hex == h(4710)).expect("4710");
    assert!(held.reduces.as_deref().is_some_and(|w| w.starts_with("(a)")), "{held:?}");
    attack.flanks_refused = true;
    assert_eq!(assess(&r, &s, &attack).flank.bonus, 1, "Flanks Refused leaves +1 at +1");
    let (r, s, brown) = setup(true);
    let a = assess(&r, &s, &Attack::march(&r, &s, brown, h(4610), AttackType::Normal));
    assert_eq!((a.flank.final_bonus, a.flank.bonus), (1, 0), "a redoubt takes +1 to 0");
    assert_eq!(modifier(&a, "Flank attack"), Some(0));
    assert_eq!(a.defender_cv_entrenched.to_string(), "10½", "7 × 1.5 in the redoubt");
    // Redoubt and a ringed +4: +2.
    let (r, s, brown) = ringed(|m| m.add_feature(h(4610), HexFeature::Redoubt).expect("on map"));
    assert_eq!(assess(&r, &s, &Attack::march(&r, &s, brown, h(4610), AttackType::Normal)).flank.bonus, 2);
    // A non-flank attack on a redoubt: nothing.
    let (r, mut s) = empty_on("hsn-4", |m| m.add_feature(h(4610), HexFeature::Redoubt).expect("on map"));
    place(&r, &mut s, "wagner", h(4610), 7);
    let brown = place(&r, &mut s, "brown", h(4611), 8);
    let a = assess(&r, &s, &Attack::march(&r, &s, brown, h(4610), AttackType::Normal));
    assert!(a.attacker_modifiers.iter().all(|m| !m.label.contains("lank")), "{:?}", a.attacker_modifiers);
}

/// GCACW 7.4 Flank Bonus Conditions: a hex is not covered by units with less than a quarter of the
/// defender's Combat value (entrenched); demoralized units and wagons never help (HSN-B 2.2).
#[test]
fn flank_quarter_rule_demoralized_and_wagons_gcacw_7_4() {
    let (r, mut s) = empty("hsn-4");
    let wagner = place(&r, &mut s, "wagner", h(4610), 7);
    let brown = place(&r, &mut s, "brown", h(4611), 8);
    let armstrong = place(&r, &mut s, "armstrong", h(4510), 1);
    let attack = Attack::march(&r, &s, brown, h(4610), AttackType::Hasty);
    let a = assess(&r, &s, &attack);
    assert_eq!(a.flank.covered, 3, "1 is less than a quarter of 7: neither 4510 nor 4609 is covered");
    let x = a.flank.hexes.iter().find(|x| x.hex == h(4510)).expect("4510");
    assert!(x.not_covered.as_deref().is_some_and(|w| w.contains("less than one quarter")), "{x:?}");
    // 4511 is reached by Brown (8) and Armstrong together: covered.
    assert!(a.flank.hexes.iter().any(|x| x.hex == h(4511) && x.covered.is_some()));
    // Entrenchment raises the test: 2 is a quarter of 7 but not of 14.
    s.units[armstrong].manpower = 2;
    assert_eq!(assess(&r, &s, &attack).flank.covered, 5);
    s.units[wagner].entrenchment = Some(Entrenchment::Breastworks);
    assert_eq!(assess(&r, &s, &attack).flank.covered, 3, "2 is less than a quarter of 14");
    s.units[wagner].entrenchment = None;
    s.units[armstrong].demoralized = 1;
    assert_eq!(assess(&r, &s, &attack).flank.covered, 3, "a demoralized unit does not help at all");
    // A wagon train never helps (a Union attack on Brown, a wagon next to him).
    let (r, mut s) = empty("hsn-4");
    place(&r, &mut s, "brown", h(4610), 8);
    let wagner = place(&r, &mut s, "wagner", h(4611), 7);
    place(&r, &mut s, "wagon-a", h(4510), 4);
    let a = assess(&r, &s, &Attack::march(&r, &s, wagner, h(4610), AttackType::Normal));
    assert_eq!(a.flank.covered, 3);
    let x = a.flank.hexes.iter().find(|x| x.hex == h(4510)).expect("4510");
    assert!(x.not_covered.as_deref().is_some_and(|w| w.contains("wagon")), "{x:?}");
}

/// GCACW 7.4 cavalry against cavalry: a cavalry attacker against a defender more than half
/// cavalry has +4 cut to +2 and +2 to +1.
#[test]
fn cavalry_against_cavalry_gcacw_7_4() {
    let (r, mut s) = empty("hsn-4");
    place(&r, &mut s, "croxton-a", h(4610), 4);
    let armstrong = place(&r, &mut s, "armstrong", h(4609), 3);
    place(&r, &mut s, "cleburne", h(4711), 7);
    place(&r, &mut s, "bate-a", h(4511), 5);
    let a = assess(&r, &s, &Attack::march(&r, &s, armstrong, h(4610), AttackType::Normal));
    assert_eq!((a.flank.final_bonus, a.flank.bonus), (4, 2));
    // An infantry attacker keeps +4.
    let bate = r.unit_by_id("bate-a").expect("bate");
    assert_eq!(assess(&r, &s, &Attack::march(&r, &s, bate, h(4610), AttackType::Normal)).flank.bonus, 4);
}

/// GCACW 11.0 (digest T22): Demoralize-1 attacks with half rounded down (5 → 2; 1 → ½);
/// Demoralize-2 with 1 (½ if 1 or ½); Artillery 0 either way. Defending values are not lowered;
/// a defender that is mostly Demoralize-2 subtracts 1 (GCACW 7.4).
#[test]
fn demoralized_attackers_gcacw_11_0() {
    let (r, mut s) = empty("hsn-4");
    let wagner = place(&r, &mut s, "wagner", h(4610), 7);
    let brown = place(&r, &mut s, "brown", h(4611), 5);
    s.units[brown].demoralized = 1;
    assert_eq!(attack_value(&r, &s, brown).to_string(), "2");
    let a = assess(&r, &s, &Attack::march(&r, &s, brown, h(4610), AttackType::Normal));
    assert_eq!(a.attacker_cv.to_string(), "2");
    assert_eq!(a.attacker_artillery, 0);
    assert_eq!(a.ratio, "1-4", "2 to 7 rounds down to 1-4");
    s.units[brown].manpower = 1;
    assert_eq!(attack_value(&r, &s, brown).to_string(), "½");
    s.units[brown].manpower = 7;
    s.units[brown].demoralized = 2;
    assert_eq!(attack_value(&r, &s, brown).to_string(), "1");
    s.units[brown].manpower = 1;
    assert_eq!(attack_value(&r, &s, brown).to_string(), "½");
    // A disorganized ½ (Manpower 1) with Demoralize-1 still attacks with ½.
    s.units[brown].demoralized = 1;
    s.units[brown].organized = false;
    assert_eq!(r.combat_value(&s, brown).to_string(), "½");
    assert_eq!(attack_value(&r, &s, brown).to_string(), "½");
    // A Demoralize-2 defender defends in full, with artillery 0, and subtracts 1.
    s.units[brown].demoralized = 0;
    s.units[brown].organized = true;
    s.units[brown].manpower = 8;
    s.units[wagner].demoralized = 2;
    let a = assess(&r, &s, &Attack::march(&r, &s, brown, h(4610), AttackType::Normal));
    assert_eq!(a.defender_cv.to_string(), "7");
    assert_eq!(a.defender_artillery, 0);
    assert_eq!(defender_mod(&a, "Lone Demoralize-2 defender"), Some(-1));
    assert_eq!(a.artillery.to_string(), "NE", "2 − 0 on rough is NE");
    check_rows(&a);
    assert_eq!(a.rows[0].out_of, 36);
}

/// GCACW 7.1 Attack Restrictions and 12.0: wagons never attack; rivers only at a crossing and a
/// ford never in rain; a woods hexside without a route only from the starting hex; creeks in rain
/// only along a route. Defender +2 across a ford, creek +1 (+2 in rain), attacker −1 in rain.
#[test]
fn attack_restrictions_and_hexside_modifiers_gcacw_7_1_7_4_12_0() {
    let (r, mut s) = empty("hsn-4");
    let map = r.map();
    let wagon = place(&r, &mut s, "wagon-a", h(4609), 4);
    place(&r, &mut s, "brown", h(4610), 8);
    assert!(legal_targets(&r, &s, wagon, h(4609), true, &Forts::default()).is_empty(), "HSN-B 2.2");

    // A river hexside with no crossing.
    let pair = map
        .hexes()
        .flat_map(|a| map.neighbors(a).map(move |(_, b)| (a, b)))
        .find(|&(a, b)| {
            let hs = map.hexside(a, b);
            hs.contains(Hexside::MINOR_RIVER) && !hs.intersects(Hexside::CROSSING) && a < b
        })
        .expect("an unbridged river hexside");
    assert!(attack_restriction(&r, &s, Side::Union, pair.0, pair.1, true).is_some());

    // The Harpeth ford 4224/4325: allowed when dry (+2 to the defender), not in rain.
    assert!(map.hexside(h(4224), h(4325)).contains(Hexside::FORD));
    let (r, mut s) = empty("hsn-4");
    place(&r, &mut s, "brown", h(4325), 8);
    let wagner = place(&r, &mut s, "wagner", h(4224), 7);
    assert_eq!(legal_targets(&r, &s, wagner, h(4224), false, &Forts::default()), vec![h(4325)]);
    let a = assess(&r, &s, &Attack::march(&r, &s, wagner, h(4325), AttackType::Normal));
    assert_eq!(defender_mod(&a, "Attack across a ford"), Some(2));
    s.rain = true;
    assert!(legal_targets(&r, &s, wagner, h(4224), true, &Forts::default()).is_empty());
    let a = assess(&r, &s, &Attack::march(&r, &s, wagner, h(4325), AttackType::Normal));
    assert_eq!(modifier(&a, "Rain"), Some(-1));

    // A creek hexside: +1, and +2 in rain.
    let (r, mut s) = empty("hsn-4");
    let map = r.map();
    let (ca, cb) = map
        .hexes()
        .flat_map(|a| map.neighbors(a).map(move |(_, b)| (a, b)))
        .find(|&(a, b)| {
            map.hexside(a, b).contains(Hexside::CREEK)
                && !map.hexside(a, b).intersects(Hexside::RIVER | Hexside::RIDGE)
                && map.terrain(b) != Some(Terrain::Hill)
        })
        .expect("a creek hexside");
    let brown = place(&r, &mut s, "brown", ca, 8);
    place(&r, &mut s, "wagner", cb, 7);
    let a = assess(&r, &s, &Attack::march(&r, &s, brown, cb, AttackType::Normal));
    assert_eq!(defender_mod(&a, "Attack across a creek"), Some(1));
    s.rain = true;
    let a = assess(&r, &s, &Attack::march(&r, &s, brown, cb, AttackType::Normal));
    assert_eq!(defender_mod(&a, "Attack across a creek in rain"), Some(2));
    let routed = map.hexside(ca, cb).intersects(Hexside::ANY_ROUTE);
    assert_eq!(legal_targets(&r, &s, brown, ca, true, &Forts::default()).contains(&cb), routed);

    // Woods: 4610 made woods on a copy of the map; 4611–4610 has no route.
    let (r, mut s) = empty_on("hsn-4", |m| m.set_terrain(h(4610), Terrain::Woods).expect("on map"));
    assert!(!r.map().hexside(h(4611), h(4610)).intersects(Hexside::ANY_ROUTE));
    place(&r, &mut s, "wagner", h(4610), 7);
    let brown = place(&r, &mut s, "brown", h(4611), 8);
    assert!(legal_targets(&r, &s, brown, h(4611), false, &Forts::default()).is_empty());
    assert_eq!(legal_targets(&r, &s, brown, h(4611), true, &Forts::default()), vec![h(4610)]);
    // Along the road 4511–4610 the attack is allowed after marching.
    let road = r.map().hexside(h(4511), h(4610)).intersects(Hexside::ANY_ROUTE);
    s.units[brown].hex = Some(h(4511));
    assert_eq!(legal_targets(&r, &s, brown, h(4511), false, &Forts::default()).contains(&h(4610)), road);
    // Woods defender: the artillery line is NE, so no parity die: 36 outcomes.
    let a = assess(&r, &s, &Attack::march(&r, &s, brown, h(4610), AttackType::Normal));
    assert_eq!(a.artillery.to_string(), "NE");
    check_rows(&a);
    assert_eq!(a.rows[0].out_of, 36);
}

/// GCACW 7.1, 7.4: an assault gets +1 and no attack type, and only the active leader's Tactical
/// value counts, except Cleburne's attacking 4 when his division joins (HSN-B 2.2); he defends
/// with 3. HSN-B 7.4: Hood's bonus for a corps leader stacked with him; Forrest's for Forrest.
#[test]
fn assault_tactical_cleburne_and_hsn_bonuses_hsn_b_2_2_7_4() {
    let (r, mut s) = empty("hsn-4");
    place(&r, &mut s, "wagner", h(4610), 7);
    let cleburne = place(&r, &mut s, "cleburne", h(4611), 7);
    let brown = place(&r, &mut s, "brown", h(4611), 8);
    let cheatham = attach(&r, &mut s, "cheatham", brown);
    attach(&r, &mut s, "hood", brown);
    let mut attack = Attack::assault(&r, &s, cheatham, vec![brown], h(4610), false);
    let a = assess(&r, &s, &attack);
    assert_eq!(modifier(&a, "Assault"), Some(1));
    assert_eq!(modifier(&a, "Tactical: Cheatham 3"), Some(1));
    let types = ["Column-of-route attack", "Hasty attack", "Normal attack", "Prepared attack"];
    assert!(a.attacker_modifiers.iter().all(|m| !types.contains(&m.label.as_str())), "no attack type in an assault");
    attack.attackers.push(cleburne);
    let a = assess(&r, &s, &attack);
    assert_eq!(modifier(&a, "Tactical: Cleburne 4 − Wagner 2"), Some(2));
    assert_eq!(a.attacker_cv.to_string(), "15");
    // Hood's bonus: Cheatham is a Confederate infantry corps leader stacked with Hood.
    let bonus = hsn_assault_bonus(&r, &s, cheatham, None).expect("Hood bonus");
    assert_eq!(bonus.1, 1);
    assert!(hsn_assault_bonus(&r, &s, cheatham, Some(usize::MAX)).is_none(), "another corps had it this turn");
    attack.assault_bonus = Some(bonus);
    let a = assess(&r, &s, &attack);
    assert_eq!(modifier(&a, "Hood Assault Bonus"), Some(1));
    let forrest = r.leader_by_id("forrest").expect("forrest");
    assert_eq!(hsn_assault_bonus(&r, &s, forrest, None).map(|b| b.0), Some("Forrest Assault Bonus".to_string()));
    // Cleburne defending: 3.
    let (r, mut s) = empty("hsn-4");
    place(&r, &mut s, "cleburne", h(4610), 7);
    let wagner = place(&r, &mut s, "wagner", h(4611), 7);
    let a = assess(&r, &s, &Attack::march(&r, &s, wagner, h(4610), AttackType::Normal));
    assert_eq!(modifier(&a, "Tactical: Wagner 2 − Cleburne 3"), Some(-1));
}

/// GCACW 7.2 Maximum Values: attackers 80 per attacking hex (a grand assault may exceed it, and
/// from 80 its loss number grows); defenders 70, 120 when at least half the units are entrenched
/// (ruling A16: units are counted), 160 when all are.
#[test]
fn maximum_values_and_grand_assault_loss_gcacw_7_2() {
    let (r, mut s) = empty("hsn-4");
    let csa = ["cleburne", "bate-a", "brown", "loring", "walthall", "french", "clayton", "stevenson-a"];
    let mut units: Vec<usize> = csa.iter().map(|id| place(&r, &mut s, id, h(4611), 11)).collect();
    place(&r, &mut s, "wagner", h(4610), 7);
    let cheatham = attach(&r, &mut s, "cheatham", units[0]);
    let a = assess(&r, &s, &Attack::assault(&r, &s, cheatham, units.clone(), h(4610), false));
    assert_eq!(a.attacker_cv.to_string(), "80", "88 capped");
    assert_eq!(a.extra_attacker_loss, 0);
    units.push(place(&r, &mut s, "johnson", h(4609), 11));
    let a = assess(&r, &s, &Attack::assault(&r, &s, cheatham, units.clone(), h(4610), true));
    assert_eq!(a.attacker_cv.to_string(), "91", "80 + 11: the cap is per hex");
    assert_eq!(a.extra_attacker_loss, 2);
    let o = outcome(&a, 1, 6, Some(2)).expect("dice");
    assert_eq!(o.extra_attacker_loss, if o.cells.attacker.loss > 0 { 2 } else { 0 });

    let (r, mut s) = empty("hsn-4");
    let usa = ["wagner", "cox", "ruger", "kimball", "wood", "opdycke", "mcarthur", "j-moore"];
    let def: Vec<usize> = usa.iter().map(|id| place(&r, &mut s, id, h(4610), 11)).collect();
    let brown = place(&r, &mut s, "brown", h(4611), 8);
    let attack = Attack::march(&r, &s, brown, h(4610), AttackType::Normal);
    assert_eq!(assess(&r, &s, &attack).defender_cv_entrenched.to_string(), "70");
    for &u in &def[..4] {
        s.units[u].entrenchment = Some(Entrenchment::Breastworks);
    }
    assert_eq!(assess(&r, &s, &attack).defender_cv_entrenched.to_string(), "120", "4 of 8 entrenched");
    for &u in &def {
        s.units[u].entrenchment = Some(Entrenchment::Breastworks);
    }
    let a = assess(&r, &s, &attack);
    assert_eq!(a.defender_cv_entrenched.to_string(), "160");
    assert_eq!(a.defender_cv.to_string(), "88");
    assert_eq!(a.defender_column, "50+");
}

/// GCACW 7.4 artillery special cases: neither side has artillery → none; a defender with 0 turns
/// a negative modifier into NE; a printed defender total of 1 turns −2 into −1.
#[test]
fn artillery_special_cases_gcacw_7_4() {
    let (r, mut s) = empty("hsn-7");
    assert_eq!(r.map().terrain(h(4609)), Some(Terrain::Clear));
    // Croxton-B (Artillery 1) in clear 4609, attacked by Armstrong (0): 0 − 1 = −1 on clear is
    // −2, and the printed total 1 makes it −1.
    place(&r, &mut s, "croxton-b", h(4609), 3);
    let armstrong = place(&r, &mut s, "armstrong", h(4610), 3);
    let a = assess(&r, &s, &Attack::march(&r, &s, armstrong, h(4609), AttackType::Normal));
    assert_eq!(a.artillery_differential, -1);
    assert_eq!(a.artillery.to_string(), "-1", "{}", a.artillery_label);
    // Demoralized, Croxton has 0: no artillery on either side.
    let croxton = r.unit_by_id("croxton-b").expect("croxton");
    s.units[croxton].demoralized = 1;
    assert_eq!(
        assess(&r, &s, &Attack::march(&r, &s, armstrong, h(4609), AttackType::Normal)).artillery.to_string(),
        "NE"
    );
}

/// HSN-A 8.0 and HSN-B 7.4: a Confederate attack on an undestroyed fort: the fort's values are
/// added for the ratio (not multiplied, ruling A26) but not for the column; no flank bonus; a
/// Confederate +1/+2 artillery modifier is NE; no Tactical modifier in the Confederates' favour;
/// no Hood or Forrest bonus. An empty fort may be attacked.
#[test]
fn union_forts_hsn_a_8_0() {
    let (r, mut s) = empty("hsn-4");
    assert!(r.map().has_feature(h(5231), HexFeature::FortA));
    let forts = Forts { undestroyed: vec![h(5231)], destroyed: vec![] };
    let brown = place(&r, &mut s, "brown", h(5232), 8);
    assert_eq!(legal_targets(&r, &s, brown, h(5232), true, &forts), vec![h(5231)], "an empty fort is a target");
    assert!(legal_targets(&r, &s, brown, h(5232), true, &Forts::default()).is_empty());
    let mut attack = Attack::march(&r, &s, brown, h(5231), AttackType::Normal);
    attack.forts = forts.clone();
    attack.assault_bonus = Some(("Forrest Assault Bonus".into(), 1, "HSN-B 7.4".into()));
    let a = assess(&r, &s, &attack);
    assert_eq!(a.defender_cv.to_string(), "0");
    assert_eq!(a.defender_cv_entrenched.to_string(), "2");
    assert_eq!(a.defender_column, "½–3", "an empty fort reads the first column (ruling A26)");
    assert_eq!(a.ratio, "4-1");
    assert!(modifier(&a, "Forrest").is_none());
    assert!(modifier(&a, "Tactical").is_some_and(|v| v == 0));
    // Wagner in the fort: unentrenched, ×1.5 as in a redoubt, plus the fort's 2 (not multiplied).
    place(&r, &mut s, "wagner", h(5231), 6);
    let a = assess(&r, &s, &attack);
    assert_eq!(a.defender_cv_entrenched.to_string(), "11", "6 × 1.5 + 2");
    assert_eq!(a.defender_cv.to_string(), "6");
    assert_eq!(a.defender_artillery, 5, "2 × 1.5 = 3, + 2");
    assert!(a.artillery.value <= 0);
    assert!(modifier(&a, "Flank").is_none_or(|v| v == 0));
}

/// Odds: every assessment's rows add up to all the outcomes, and the chart's end rows take every
/// differential beyond them (GCACW 7.5).
#[test]
fn odds_cover_every_die_pair_gcacw_7_5() {
    let (r, mut s) = empty("hsn-4");
    place(&r, &mut s, "wagner", h(4610), 1);
    let brown = place(&r, &mut s, "brown", h(4611), 11);
    place(&r, &mut s, "cleburne", h(4609), 11);
    place(&r, &mut s, "bate-a", h(4711), 11);
    place(&r, &mut s, "loring", h(4511), 11);
    let a = assess(&r, &s, &Attack::march(&r, &s, brown, h(4610), AttackType::Prepared));
    check_rows(&a);
    let top = a.rows.last().expect("rows");
    assert!(top.differentials.1 > top.row || a.rows.len() > 1);
    for d in 1..=6 {
        for e in 1..=6 {
            let o = outcome(&a, d, e, Some(1)).expect("dice");
            assert!(a.rows.iter().any(|r| r.row == o.cells.row));
        }
    }
}

/// GCACW 7.4 Steps 1b–e and 3b–d: off-map hexes next to an edge defender are covered; an empty hex
/// reached only across woods hexsides (a restricted ZOC) is covered but lowers the bonus; a river
/// with no crossing covers a hex and lowers the bonus.
#[test]
fn flank_edge_woods_and_river_gcacw_7_4() {
    // 4601 on the edge: 4600 is off the map. 4502 is woods.
    let (r, mut s) = empty("hsn-4");
    let map = r.map();
    assert!(!map.contains(h(4600)));
    assert_eq!(map.terrain(h(4502)), Some(Terrain::Woods));
    for (a, b) in [(h(4602), h(4502)), (h(4501), h(4502))] {
        assert!(!map.hexside(a, b).intersects(Hexside::ANY_ROUTE), "{a}-{b} has a route");
    }
    place(&r, &mut s, "wagner", h(4601), 7);
    let brown = place(&r, &mut s, "brown", h(4602), 8);
    place(&r, &mut s, "bate-a", h(4501), 5);
    let a = assess(&r, &s, &Attack::march(&r, &s, brown, h(4601), AttackType::Normal));
    let edge = a.flank.hexes.iter().find(|x| x.hex == h(4600)).expect("4600");
    assert_eq!(edge.covered.as_deref(), Some("(e) off the map"));
    assert!(edge.reduces.is_none());
    // 4502 is covered by Brown's and Bate's (restricted) zones, and lies across the river from
    // 4601 on the reconstructed map: it lowers the bonus once, by (b) or (d). Bate's own hex,
    // 4501, is across the Harpeth from 4601 too (the river leaves the map there), but at a ford:
    // no reduction.
    let woods = a.flank.hexes.iter().find(|x| x.hex == h(4502)).expect("4502");
    assert!(woods.covered.is_some());
    assert!(woods.reduces.is_some(), "{woods:?}");
    let bate = a.flank.hexes.iter().find(|x| x.hex == h(4501)).expect("4501");
    assert!(bate.reduces.is_none(), "{bate:?}");
    assert_eq!((a.flank.covered, a.flank.basic, a.flank.reduction, a.flank.final_bonus), (5, 2, 1, 1));

    // The combat example with a river (no crossing) between 4610 and 4710: six covered, one
    // reduced: +3.
    let (r, mut s) = empty_on("hsn-4", |m| m.add_hexside(h(4610), h(4710), Hexside::MINOR_RIVER).expect("adjacent"));
    place(&r, &mut s, "wagner", h(4610), 7);
    let brown = place(&r, &mut s, "brown", h(4611), 8);
    place(&r, &mut s, "armstrong", h(4510), 2);
    let a = assess(&r, &s, &Attack::march(&r, &s, brown, h(4610), AttackType::Hasty));
    let river = a.flank.hexes.iter().find(|x| x.hex == h(4710)).expect("4710");
    assert!(river.reduces.as_deref().is_some_and(|w| w.starts_with("(d)")), "{river:?}");
    assert_eq!((a.flank.covered, a.flank.basic, a.flank.reduction, a.flank.bonus), (6, 4, 1, 3));
    // A woods 4710 instead, reached by Cleburne in 4711 only across woods: covered, reduced.
    let (r, mut s) = empty_on("hsn-4", |m| m.set_terrain(h(4710), Terrain::Woods).expect("on map"));
    assert!(!r.map().hexside(h(4711), h(4710)).intersects(Hexside::ANY_ROUTE));
    place(&r, &mut s, "wagner", h(4610), 7);
    let brown = place(&r, &mut s, "brown", h(4609), 8);
    place(&r, &mut s, "cleburne", h(4711), 7);
    place(&r, &mut s, "bate-a", h(4511), 5);
    let a = assess(&r, &s, &Attack::march(&r, &s, brown, h(4610), AttackType::Normal));
    let woods = a.flank.hexes.iter().find(|x| x.hex == h(4710)).expect("4710");
    assert!(woods.reduces.as_deref().is_some_and(|w| w.starts_with("(b)")), "{woods:?}");
    assert_eq!((a.flank.covered, a.flank.final_bonus), (6, 3));
}

/// An assessment's numbers: every label, note and reason blanked.
fn numbers(mut a: Assessment) -> Assessment {
    for m in a.attacker_modifiers.iter_mut().chain(a.defender_modifiers.iter_mut()) {
        m.label.clear();
    }
    a.notes.clear();
    for fh in &mut a.flank.hexes {
        for reason in [&mut fh.covered, &mut fh.reduces, &mut fh.not_covered].into_iter().flatten() {
            reason.clear();
        }
    }
    for adjustment in &mut a.flank.adjustments {
        adjustment.clear();
    }
    a
}

/// `reckon`, which a computer player weighs attacks with, gives every number `assess` gives
/// (GCACW 7.2–7.5): the march attacks of each type and the assaults of positions reached by
/// random play in every HSN scenario.
#[test]
fn reckon_gives_the_numbers_of_assess() {
    use caisson_gcacw::combat::reckon;
    use caisson_kernel::{random_choice, Dice, DiceMode, Game, Setup};
    let types = [AttackType::ColumnOfRoute, AttackType::Hasty, AttackType::Normal, AttackType::Prepared];
    let (mut compared, mut flanked) = (0, 0);
    for (id, seed) in caisson_gcacw::registry::HSN_IDS.iter().flat_map(|id| (1..=3).map(move |s| (*id, s))) {
        let (rules, state) = Gcacw::new(hsn().expect("data"), id, Settings::default()).expect("scenario");
        let setup =
            Setup { system: "gcacw".into(), scenario: id.into(), seed, dice: DiceMode::Seeded, options: vec![] };
        let mut g = Game::new(rules, state, setup);
        let mut dice = Dice::new(seed + 10);
        for step in 0..2000 {
            if step % 5 == 0 {
                let (rules, state) = (g.rules(), g.state());
                for (u, at) in rules.on_map(state) {
                    let side = rules.unit_side(state, u);
                    for (_, n) in at.neighbors() {
                        if rules.occupant(state, n) != Some(side.enemy()) {
                            continue;
                        }
                        let mut attacks: Vec<Attack> =
                            types.iter().map(|&t| Attack::march(rules, state, u, n, t)).collect();
                        for l in (0..state.leaders.len()).filter(|&l| rules.leader_hex(state, l) == Some(at)) {
                            let units: Vec<usize> = rules
                                .on_map(state)
                                .filter(|&(v, h)| h == at && rules.unit_side(state, v) == side)
                                .map(|(v, _)| v)
                                .collect();
                            attacks.push(Attack::assault(rules, state, l, units, n, false));
                        }
                        for attack in attacks {
                            let a = assess(rules, state, &attack);
                            flanked += usize::from(a.flank.covered >= 5);
                            assert_eq!(
                                numbers(a),
                                numbers(reckon(rules, state, &attack)),
                                "{id}, step {step}: {attack:?}"
                            );
                            compared += 1;
                        }
                    }
                }
            }
            let Some(d) = g.pending() else { break };
            let pick = random_choice(&d, &mut dice).to_string();
            g.choose(&pick).expect("a legal choice");
        }
    }
    assert!(compared > 1000 && flanked > 50, "only {compared} attacks compared, {flanked} with a flank bonus");
}
