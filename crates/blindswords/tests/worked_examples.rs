//! Digest §8 test cases the engine plays that no other test reproduced through the engine: each
//! test names its case (T##) and section, and drives the game through `choose`/`roll` (or the
//! aftermath of a test, as `sequence::advance` works it) with manual dice where dice fall.

use caisson_blindswords::catalog::{Side, UnitType};
use caisson_blindswords::cohesion::CombatUnit;
use caisson_blindswords::sequence;
use caisson_blindswords::setup::Data;
use caisson_blindswords::state::{Aftermath, Place, RetreatOrder, Stage, State, Then};
use caisson_blindswords::BlindSwords;
use caisson_hexmap::{Hex, Hexside};
use caisson_kernel::{Pending, Rules};

fn scenario(id: &str) -> (BlindSwords, State) {
    let (rules, mut state) = BlindSwords::new(Data::builtin().expect("built-in data"), id).expect("scenario");
    for u in &mut state.units {
        u.place = Place::Eliminated;
    }
    state.to_place.clear();
    for b in &mut state.brigades {
        b.on_hold = false;
    }
    (rules, state)
}

/// Puts a unit on the map, Fresh, with `hits` Morale Hits.
fn set(rules: &BlindSwords, state: &mut State, id: &str, hex: Hex, hits: u8) -> usize {
    let i = state.unit_index(id).expect(id);
    let c = CombatUnit::from_catalog(rules.data().catalog.unit(id).expect(id));
    let face = c.fresh.unwrap_or(c.worn);
    let u = &mut state.units[i];
    u.place = Place::Map(hex);
    u.battleworn = c.fresh.is_none();
    u.sp_halves = face.sp.halves();
    u.cr = face.cr;
    u.on_hold = false;
    u.acted = false;
    u.morale_hits = hits;
    i
}

fn ids(state: &State, side: Side, ty: UnitType) -> Vec<String> {
    state.units.iter().filter(|u| u.side == side && u.ty == ty).map(|u| u.id.clone()).collect()
}

fn options(rules: &BlindSwords, state: &State) -> Vec<String> {
    match rules.pending(state) {
        Pending::Decide(d) => d.options.into_iter().map(|o| o.id).collect(),
        other => panic!("no decision: {other:?}"),
    }
}

/// A hex pair across the Chaplin with no ford or bridge, both in play, the far one clear of
/// other river hexsides' trouble: `(bank, across)`.
fn chaplin_crossing(rules: &BlindSwords) -> (Hex, Hex) {
    let map = &rules.data().map;
    let area = &rules.scenario().area;
    for h in map.hexes().filter(|h| area.contains(*h)) {
        for (_, n) in map.neighbors(h) {
            let side = map.hexside(h, n);
            let all_in = map.neighbors(h).count() == 6 && map.neighbors(h).all(|(_, x)| area.contains(x));
            if all_in
                && side.contains(Hexside::TACTICAL_RIVER)
                && !side.intersects(Hexside::FORD.union(Hexside::BRIDGE))
                && caisson_blindswords::movement::cost(rules, UnitType::Infantry, None, false, Some(h), n).is_some()
            {
                return (h, n);
            }
        }
    }
    panic!("no Chaplin hexside without a ford or bridge");
}

/// A Confederate regiment with `hits` Morale Hits on the Chaplin's bank must retreat 1 hex; every
/// other neighbour holds a Union regiment, so it can only cross the river off a ford.
fn chaplin_retreat(hits: u8) -> (BlindSwords, State, usize, Hex) {
    let (rules, mut state) = scenario("pv-16-1");
    let (bank, across) = chaplin_crossing(&rules);
    let csa = ids(&state, Side::Confederate, UnitType::Infantry);
    let reb = set(&rules, &mut state, &csa[0], bank, hits);
    let ring: Vec<Hex> = rules.data().map.neighbors(bank).map(|(_, n)| n).filter(|n| *n != across).collect();
    let union = ids(&state, Side::Union, UnitType::Infantry);
    let mut firer = None;
    for (id, h) in union.iter().zip(&ring) {
        firer.get_or_insert(set(&rules, &mut state, id, *h, 0));
    }
    let firer = firer.expect("a ring");
    let order = RetreatOrder { unit: reb, hexes: 1, rule: "SR 12.1b R#".into(), causers: vec![firer] };
    state.stage = Stage::Aftermath {
        after: Aftermath {
            by: Side::Union,
            causers: vec![firer],
            target: bank,
            lead: reb,
            retreats: vec![order],
            panic: 0,
            panicking: Vec::new(),
            dice: Vec::new(),
            later: Vec::new(),
            done: Vec::new(),
            then: Then::Fire { firer, retreating: Vec::new() },
        },
    };
    sequence::advance(&rules, &mut state);
    (rules, state, reb, across)
}

/// Digest §8 T44, EX 2.10k: an unmarked unit retreating across the Chaplin off a ford or bridge
/// takes a Morale Hit and is Shaken; a Disrupted unit stays Disrupted, with no Break Test
/// (ruling A-53).
#[test]
fn t44_ex_2_10k_chaplin_retreat_shakes_and_leaves_disrupted_as_it_is() {
    let (rules, state, reb, across) = chaplin_retreat(0);
    assert_eq!(state.units[reb].place, Place::Map(across), "across the river");
    assert_eq!(state.units[reb].morale_hits, 1, "Shaken");
    assert!(state.log.iter().any(|e| e.rule.as_deref() == Some("EX 2.10k")), "the hit is logged with its rule");
    rules.check(&state).expect("the state holds");

    let (rules, state, reb, across) = chaplin_retreat(2);
    assert_eq!(state.units[reb].place, Place::Map(across), "no Break Test sends it to the track");
    assert_eq!(state.units[reb].morale_hits, 2, "still Disrupted");
    let name = state.units[reb].name.clone();
    assert!(!state.log.iter().any(|e| e.text.contains(&name) && e.text.contains("Break Test")), "no Break Test");
    rules.check(&state).expect("the state holds");
}

/// Digest §8 T23, SR 7.3 example, EX 7.3c: a Commander-in-Chief chit (A. McCook) may activate a
/// brigade already activated this turn; it gets a full order.
#[test]
fn t23_sr_7_3_cic_chit_on_an_activated_brigade() {
    let (rules, mut state) = scenario("pv-16-1");
    let cat = &rules.data().catalog;
    let b = state
        .brigades
        .iter()
        .find(|b| cat.brigade(&b.id).is_some_and(|c| c.wing == "i-corps" && c.division.is_some()))
        .map(|b| b.id.clone())
        .expect("an I Corps brigade");
    let unit = state.units.iter().position(|u| u.brigade.as_deref() == Some(&b) && !u.ty.is_artillery()).expect("unit");
    let id = state.units[unit].id.clone();
    set(&rules, &mut state, &id, "2020".parse().expect("hex"), 0);
    state.brigade_mut(&b).expect("brigade").activated = true;
    state.stage = Stage::Mccook;
    let cic = format!("cic:{b}");
    assert!(options(&rules, &state).contains(&cic), "offered for an activated brigade");
    rules.choose(&mut state, &cic).expect("cic");
    assert!(matches!(&state.stage, Stage::Orders { brigade, .. } if *brigade == b), "{:?}", state.stage);
    let orders = options(&rules, &state);
    for o in ["order:attack", "order:defend", "order:maneuver", "order:regroup"] {
        assert!(orders.iter().any(|x| x == o), "a full order set: {orders:?}");
    }
}

/// Digest §8 T63, SR 6.3: the Union passes, the Confederates move a battery, the Union passes,
/// the Confederates pass: two passes in a row end the Artillery Steps, and the Union battery that
/// never moved stays unactivated.
#[test]
fn t63_sr_6_3_artillery_steps_end_after_two_passes_in_a_row() {
    let (rules, mut state) = scenario("pv-16-1");
    let ub = ids(&state, Side::Union, UnitType::Artillery)[0].clone();
    let cb = ids(&state, Side::Confederate, UnitType::Artillery)[0].clone();
    let ui = set(&rules, &mut state, &ub, "1020".parse().expect("hex"), 0);
    let ci = set(&rules, &mut state, &cb, "3520".parse().expect("hex"), 0);
    // A second Confederate battery, so that the Confederates still have one to move and pass.
    let cb2 = ids(&state, Side::Confederate, UnitType::Artillery)[1].clone();
    let ci2 = set(&rules, &mut state, &cb2, "3522".parse().expect("hex"), 0);
    state.stage = Stage::Artillery { side: Side::Union, passes: 0 };
    rules.choose(&mut state, "pass").expect("Union pass");
    assert_eq!(state.stage, Stage::Artillery { side: Side::Confederate, passes: 1 });
    rules.choose(&mut state, &format!("move:{cb}")).expect("Confederate battery");
    rules.choose(&mut state, "stop").expect("stop");
    assert!(state.units[ci].acted);
    assert_eq!(state.stage, Stage::Artillery { side: Side::Union, passes: 0 }, "a move resets the count");
    rules.choose(&mut state, "pass").expect("Union pass");
    assert_eq!(state.stage, Stage::Artillery { side: Side::Confederate, passes: 1 });
    rules.choose(&mut state, "pass").expect("Confederate pass");
    assert!(!matches!(state.stage, Stage::Artillery { .. }), "the phase is over: {:?}", state.stage);
    assert!(state.log.iter().any(|e| e.text == "The Artillery Steps end" && e.rule.as_deref() == Some("SR 6.3")));
    assert!(!state.units[ui].acted, "the Union battery stays unactivated");
    assert!(!state.units[ci2].acted);
}
