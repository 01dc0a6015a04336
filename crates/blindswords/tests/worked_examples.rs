//! Digest §8 test cases the engine plays that no other test reproduced through the engine: each
//! test names its case (T##) and section, and drives the game through `choose`/`roll` (or the
//! aftermath of a test, as `sequence::advance` works it) with manual dice where dice fall.

mod common;
use common::{attack_move, manual_game, one_retreat, open_ground};

use std::sync::Arc;

use caisson_blindswords::catalog::{ChitKind, Face, Owner, Side, Sp, UnitType};
use caisson_blindswords::charts::{Section, D66};
use caisson_blindswords::cohesion::CombatUnit;
use caisson_blindswords::sequence;
use caisson_blindswords::setup::Data;
use caisson_blindswords::state::{Aftermath, Place, RetreatOrder, Stage, State, Then};
use caisson_blindswords::BlindSwords;
use caisson_hexmap::{Hex, Hexside, TacticalTerrain};
use caisson_kernel::data::DataDir;
use caisson_kernel::{Pending, Rules};

fn scenario(id: &str) -> (BlindSwords, State) {
    scenario_with(Data::builtin().expect("built-in data"), id)
}

/// As [`scenario`], on `data`.
fn scenario_with(data: Arc<Data>, id: &str) -> (BlindSwords, State) {
    let (rules, mut state) = BlindSwords::new(data, id).expect("scenario");
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
    state.stage = one_retreat(Side::Union, firer, reb, bank, 1);
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

/// The SR 12.1 panic example's counters (values the example gives as illustrations), carried by
/// four regiments of Sam Wood's brigade: the Lead Unit 4-3 (Battleworn 1-2), a 3-3 (C-2), a 1-3
/// (C-2) in the same hex, and next to it a Shaken 6-4 (2-3).
const LEAD: &str = "c-33al";
const THREE: &str = "c-32ms";
const ONE: &str = "c-3csa";
const SIX: &str = "c-45ms";

fn panic_data() -> Arc<Data> {
    let mut data = Data::load(&DataDir::builtin()).expect("built-in data");
    let face = |sp: Sp, cr: u8| Face { sp, cr };
    for u in &mut data.catalog.units {
        let (fresh, worn) = match u.id.as_str() {
            LEAD => (face(Sp::whole(4), 3), face(Sp::whole(1), 2)),
            THREE => (face(Sp::whole(3), 3), face(Sp::CADRE, 2)),
            ONE => (face(Sp::whole(1), 3), face(Sp::CADRE, 2)),
            SIX => (face(Sp::whole(6), 4), face(Sp::whole(2), 3)),
            _ => continue,
        };
        u.fresh = Some(fresh);
        u.worn = worn;
    }
    Arc::new(data)
}

/// A clear hex whose every hex within 4 is in play.
fn open_hex(rules: &BlindSwords) -> Hex {
    let map = &rules.data().map;
    let area = &rules.scenario().area;
    map.hexes()
        .filter(|h| area.contains(*h) && map.tactical(*h) == Some(TacticalTerrain::Clear))
        .find(|h| {
            let near: Vec<Hex> = map.hexes().filter(|n| map.distance(*h, *n) <= 4).collect();
            near.len() == 61 && near.iter().all(|n| area.contains(*n))
        })
        .expect("an open hex")
}

/// Digest §8 T11, SR 12.1 panic example, through the engine: a battery's fire reads a Tough test
/// for the Lead Unit (CR 3); the test's coloured 5 is "D2" and white 5 "MH R2 (P1)" (ruling PT3).
/// D2 flips the Lead Unit and the 3-SP regiment to their Battleworn sides; the Lead Unit is
/// Shaken and retreats 2 hexes. One unit must Panic: of the units next to the tested hex with a
/// modified CR of 2 or less, only the (now C-2) regiment qualifies: the 1-SP regiment is CR 3 and
/// the Shaken 6-SP regiment next to the hex 4 - 1 = 3. It takes a Morale Hit (Shaken) and
/// retreats 3 hexes, as SR 12.1b says (the example says 2; ruling A-46b).
#[test]
fn t11_sr_12_1_panic_example_through_the_engine() {
    let (rules, mut state) = BlindSwords::new(panic_data(), "pv-16-1").expect("scenario");
    for u in &mut state.units {
        u.place = Place::Eliminated;
    }
    state.to_place.clear();
    let map = &rules.data().map;
    let target = open_hex(&rules);
    let beside = map.neighbors(target).map(|(_, n)| n).next().expect("a neighbour");
    let far = map.hexes().find(|h| map.distance(*h, target) == 4 && map.distance(*h, beside) == 4).expect("hex");
    let lead = set(&rules, &mut state, LEAD, target, 0);
    let three = set(&rules, &mut state, THREE, target, 0);
    let one = set(&rules, &mut state, ONE, target, 0);
    let six = set(&rules, &mut state, SIX, beside, 1);
    let battery = ids(&state, Side::Union, UnitType::Artillery)[0].clone();
    let firer = set(&rules, &mut state, &battery, far, 0);
    // The CRT column where a roll of 62 gives a CR 3 Lead Unit a Tough test (the CRT is
    // reconstructed, ruling A-04; the example's own column is not given).
    let roll = D66::from_value(62).expect("d66");
    let column = (0..13).find(|c| rules.data().charts.crt.result(*c, roll, 3) == Some(Section::Tough)).expect("column");
    let in_hex: Vec<usize> = (0..state.units.len()).filter(|i| state.units[*i].place == Place::Map(target)).collect();
    let lead_ix = in_hex.iter().position(|i| *i == lead).expect("lead");
    state.stage = Stage::FireTest { firer, target, lead: lead_ix, column, roll: 62, second: None, dice: Vec::new() };
    rules.roll(&mut state, &[5, 5]).expect("the test's coloured and white dice");
    // The retreats: the owner picks among equal paths.
    for _ in 0..4 {
        match rules.pending(&state) {
            Pending::Decide(d) if d.kind == "retreat" => {
                let id = d.options[0].id.clone();
                rules.choose(&mut state, &id).expect("path");
            }
            _ => break,
        }
    }
    let u = |i: usize| &state.units[i];
    assert!(u(lead).battleworn && u(three).battleworn && !u(one).battleworn, "D2: the Lead Unit and the 3-SP");
    assert_eq!((u(lead).sp_halves, u(lead).cr), (2, 2), "1-2");
    assert_eq!((u(three).sp_halves, u(three).cr), (1, 2), "C-2");
    assert_eq!(u(lead).morale_hits, 1, "the Lead Unit is Shaken");
    assert_eq!(map.distance(target, state.hex_of(lead).expect("on the map")), 2, "R2");
    assert!(state.log.iter().any(|e| e.text == format!("{} must Panic", u(three).name)));
    assert_eq!(u(three).morale_hits, 1, "the panicking unit is Shaken");
    assert!(map.distance(target, state.hex_of(three).expect("on the map")) >= 3, "3 hexes back");
    assert_eq!(state.hex_of(one), Some(target), "the 1-SP regiment (CR 3) stays");
    assert_eq!((state.hex_of(six), u(six).morale_hits), (Some(beside), 1), "the Shaken 6-SP (CR 3) stays");
    rules.check(&state).expect("the state holds");
}

/// Starkweather's brigade regroups with the 79th Pennsylvania on the map and the 24th Illinois
/// (Battleworn CR 2) in the Broken Track's "Available" box, the enemy 8 hexes off; the rebuild
/// roll is `die`. Returns the state after it.
fn rebuild_roll(die: u8) -> (BlindSwords, State) {
    let (rules, mut state) = scenario("pv-16-1");
    let hex = open_hex(&rules);
    let map = &rules.data().map;
    let enemy = map.hexes().find(|h| map.distance(*h, hex) == 8).expect("hex");
    set(&rules, &mut state, "u-79pa", hex, 0);
    set(&rules, &mut state, "c-41ga", enemy, 0);
    let il = set(&rules, &mut state, "u-24il", hex, 0);
    let worn = CombatUnit::from_catalog(rules.data().catalog.unit("u-24il").expect("24IL")).worn;
    let u = &mut state.units[il];
    u.place = Place::Broken(0);
    u.battleworn = true;
    u.sp_halves = worn.sp.halves();
    u.cr = worn.cr;
    assert_eq!(worn.cr, 2, "the example's Battleworn CR 2");
    state.stage = Stage::Orders { brigade: "starkweather".into(), by: caisson_blindswords::state::Activator::Command };
    rules.choose(&mut state, "order:regroup").expect("Regroup");
    rules.choose(&mut state, "rebuild:u-24il").expect("rebuild");
    match rules.pending(&state) {
        Pending::Roll(r) => assert!(r.purpose.ends_with("at or under 2"), "{}", r.purpose),
        other => panic!("a roll: {other:?}"),
    }
    rules.roll(&mut state, &[die]).expect("die");
    (rules, state)
}

/// Digest §8 T20, SR 13.2b: under Regroup, a unit in the "Available" box with Battleworn CR 2
/// (automatically supported) rebuilds on a 1: its owner places it, Battleworn, at least 3 hexes
/// from the enemy and within 3 of a unit of the brigade. On a 3 it fails and stays in the box.
#[test]
fn t20_sr_13_2b_rebuild_on_1_not_on_3() {
    let (rules, state) = rebuild_roll(1);
    let hexes: Vec<Hex> = match rules.pending(&state) {
        Pending::Decide(d) if d.kind == "rally-place" => {
            d.options.iter().filter_map(|c| c.id.strip_prefix("hex:")).map(|h| h.parse().expect("hex")).collect()
        }
        other => panic!("the placement: {other:?}"),
    };
    let map = &rules.data().map;
    let pa = state.hex_of(state.unit_index("u-79pa").expect("79PA")).expect("on the map");
    let ga = state.hex_of(state.unit_index("c-41ga").expect("41GA")).expect("on the map");
    assert!(!hexes.is_empty() && hexes.iter().all(|h| map.distance(*h, ga) >= 3 && map.distance(*h, pa) <= 3));

    let (_, state) = rebuild_roll(3);
    let il = state.unit_index("u-24il").expect("24IL");
    assert_eq!(state.units[il].place, Place::Broken(0), "failed: still Available");
}

/// The modifiers of the activation roll pending, as (value, rule).
fn roll_modifiers(rules: &BlindSwords, state: &State) -> Vec<(i32, String)> {
    match rules.pending(state) {
        Pending::Roll(r) => r.modifiers.iter().map(|m| (m.value, m.rule.clone())).collect(),
        other => panic!("an activation roll: {other:?}"),
    }
}

/// The Division Activation Chits of a side in a scenario.
fn dacs(rules: &BlindSwords, state: &State, side: Side) -> Vec<String> {
    let cat = &rules.data().catalog;
    let mut all: Vec<String> = rules.all_chits(state);
    let owner = if side == Side::Union { Owner::Union } else { Owner::Confederate };
    all.retain(|c| cat.chit(c).is_some_and(|x| x.kind == ChitKind::Division && x.side == owner));
    all
}

/// Digest §8 T59, EX 16.1e: a Confederate activation roll has a -1 on turns 1 and 2, none from
/// turn 3.
#[test]
fn t59_ex_16_1e_confederate_activation_minus_one_on_turns_1_and_2() {
    let (rules, mut state) = scenario("pv-16-1");
    let chit = dacs(&rules, &state, Side::Confederate)[0].clone();
    let brigade = rules.data().catalog.chit(&chit).and_then(|c| c.command.clone()).expect("division");
    let brigade = state
        .brigades
        .iter()
        .find(|b| rules.data().catalog.brigade(&b.id).and_then(|c| c.division.as_deref()) == Some(brigade.as_str()))
        .map(|b| b.id.clone())
        .expect("a brigade of the division");
    for (turn, want) in [(1, vec![(-1, "EX 16.1e".to_string())]), (2, vec![(-1, "EX 16.1e".to_string())]), (3, vec![])]
    {
        state.turn = turn;
        state.stage = Stage::ActivationRoll { chit: chit.clone(), brigade: brigade.clone() };
        assert_eq!(roll_modifiers(&rules, &state), want, "turn {turn}");
    }
}

/// Digest §8 T54, EX 16.4c: with 4, 5, 6 or 7 Union DACs in the cup this turn (the one drawn
/// included), the Union activation roll is modified 0, +1, +2, +2.
#[test]
fn t54_ex_16_4c_union_dacs_in_the_cup_modify_the_activation_roll() {
    let (rules, mut state) = scenario("pv-16-4");
    let union = dacs(&rules, &state, Side::Union);
    assert!(union.len() >= 7, "{union:?}");
    let drawn = union[0].clone();
    let division = rules.data().catalog.chit(&drawn).and_then(|c| c.command.clone()).expect("division");
    let brigade = state
        .brigades
        .iter()
        .find(|b| rules.data().catalog.brigade(&b.id).and_then(|c| c.division.as_deref()) == Some(division.as_str()))
        .map(|b| b.id.clone())
        .expect("a brigade of the division");
    for (n, want) in [(4, 0), (5, 1), (6, 2), (7, 2)] {
        state.chits.cup = union[1..n].to_vec();
        state.chits.played = vec![drawn.clone()];
        state.stage = Stage::ActivationRoll { chit: drawn.clone(), brigade: brigade.clone() };
        let total: i32 = roll_modifiers(&rules, &state).iter().filter(|(_, r)| r == "EX 16.4c").map(|(v, _)| v).sum();
        assert_eq!(total, want, "{n} Union DACs");
    }
}

/// Digest §8 T53, EX 14.2b-c: released by the Buell Track, Greusel (Sheridan's first released
/// brigade) leaves On Hold with Sheridan's divisional batteries, Barnett and Hescock, and
/// takes a Maneuver activation at once, in which only its regiments move (no battery).
#[test]
fn t53_ex_14_2b_releasing_greusel() {
    let (rules, mut state) = BlindSwords::new(Data::builtin().expect("built-in data"), "pv-16-1").expect("scenario");
    for i in state.to_place.clone() {
        state.units[i].place = Place::Eliminated;
    }
    state.to_place.clear();
    // Greusel's regiments on the map, one a hex (their set-up is the owner's).
    let map = &rules.data().map;
    let centre = open_hex(&rules);
    let hexes: Vec<Hex> = map.neighbors(centre).map(|(_, n)| n).collect();
    for (id, h) in ["u-36il", "u-88il", "u-21mi", "u-24wi"].iter().zip(hexes) {
        let i = state.unit_index(id).expect(id);
        state.units[i].place = Place::Map(h);
    }
    assert!(state.brigade("greusel").is_some_and(|b| b.on_hold), "On Hold at the start");
    state.stage = Stage::Release { left: 1, corps: vec!["iii-corps".into()] };
    rules.choose(&mut state, "release:greusel").expect("release");
    assert!(state.brigade("greusel").is_some_and(|b| !b.on_hold));
    for id in ["u-barnett-art", "u-hescock-art", "u-36il"] {
        assert!(!state.units[state.unit_index(id).expect(id)].on_hold, "{id} released");
    }
    let laiboldt = state.units.iter().find(|u| u.brigade.as_deref() == Some("laiboldt")).expect("Laiboldt");
    assert!(laiboldt.on_hold, "the division's other brigade stays On Hold");
    match &state.stage {
        Stage::Move { for_: caisson_blindswords::state::MoveFor::Brigade { brigade, order, .. }, .. } => {
            assert_eq!((brigade.as_str(), *order), ("greusel", caisson_blindswords::charts::Order::Maneuver));
        }
        other => panic!("Greusel's Maneuver activation: {other:?}"),
    }
    let units: Vec<String> = match rules.pending(&state) {
        Pending::Decide(d) => d.options.iter().filter_map(|o| o.id.strip_prefix("unit:").map(String::from)).collect(),
        other => panic!("{other:?}"),
    };
    assert!(!units.is_empty() && units.iter().all(|u| !u.ends_with("-art")), "regiments only: {units:?}");
}

/// Digest §8 T22, SR 7.3a: Fortunes of War drawn, then the Fog of War chit: the Fog of War chit
/// is negated, discarded with no Fog of War roll, and the next draw follows.
#[test]
fn t22_sr_7_3a_fortunes_of_war_negates_the_fog_of_war_chit() {
    use caisson_blindswords::registry::SYSTEM;
    use caisson_kernel::{DiceMode, Game, Setup};
    let (rules, state) = BlindSwords::new(Data::builtin().expect("built-in data"), "pv-16-0").expect("scenario");
    let setup =
        Setup { system: SYSTEM.into(), scenario: "pv-16-0".into(), seed: 1, dice: DiceMode::Manual, options: vec![] };
    let mut g = Game::new(rules, state, setup);
    let die = |g: &mut Game<BlindSwords>, faces: [u8; 2]| {
        for f in faces {
            g.choose(&format!("die:{f}")).unwrap_or_else(|e| panic!("die {f}: {e}"));
        }
    };
    // Command Decision Phase: each side's first event as Key Chit, the first of the rest drawn.
    for _ in 0..2 {
        let first = g.pending().expect("key chit").options[0].id.clone();
        g.choose(&first).expect("key chit");
    }
    die(&mut g, [1, 1]);
    die(&mut g, [1, 1]);
    // A chit of the cup is drawn by two dice read in base 6 (tests/sequence.rs).
    let index = |g: &Game<BlindSwords>, chit: &str| {
        let i = g.state().chits.cup.iter().position(|c| c == chit).expect(chit);
        [u8::try_from(i / 6 + 1).unwrap_or(0), u8::try_from(i % 6 + 1).unwrap_or(0)]
    };
    let faces = index(&g, "fortunes-of-war");
    die(&mut g, faces);
    assert!(g.state().chits.fortunes);
    let faces = index(&g, "fog-of-war");
    die(&mut g, faces);
    let s = g.state();
    assert!(!s.chits.fortunes);
    assert!(s.chits.played.iter().any(|c| c == "fog-of-war"), "discarded");
    assert!(s
        .log
        .iter()
        .any(|e| e.text.ends_with("is negated by Fortunes of War") && e.rule.as_deref() == Some("SR 7.3a")));
    assert!(!matches!(s.stage, Stage::Fog), "no Fog of War roll: {:?}", s.stage);
    assert!(!s.log.iter().any(|e| e.rule.as_deref() == Some("EX 7.3b")), "no Fog of War result");
}

/// The SR 12.8 example's counters (as in tests/close_step.rs): the 1st WV (3-2, Battleworn 1-1)
/// and the 4th WV (Battleworn 4-1) attack the 36th VA (Battleworn 5-4) and the 69th NC
/// (Battleworn 2-3) up a Slope.
fn close_example() -> (BlindSwords, State, Hex, Hex) {
    close_fight(
        &[
            ("u-123il", 3, 2, 1, 1, false),
            ("u-105oh", 12, 2, 4, 1, true),
            ("c-41ga", 15, 5, 5, 4, true),
            ("c-6tn", 6, 4, 2, 3, true),
        ],
        true,
    )
}

/// Two Union regiments of Terrill's brigade (the first two units) next to two Confederate
/// regiments of one brigade, each given the printed values `(id, Fresh SP, CR, Battleworn SP,
/// CR, on its Battleworn side)` and weapon R, up a Slope if `slope` (else across a plain
/// hexside between clear hexes); the Union brigade at the end of its Attack-order Movement Step.
fn close_fight(units: &[(&str, u8, u8, u8, u8, bool)], slope: bool) -> (BlindSwords, State, Hex, Hex) {
    let mut data = Data::load(&DataDir::builtin()).expect("built-in data");
    for u in &mut data.catalog.units {
        if let Some((_, fs, fc, ws, wc, _)) = units.iter().find(|x| x.0 == u.id) {
            u.fresh = Some(Face { sp: Sp::whole(*fs), cr: *fc });
            u.worn = Face { sp: Sp::whole(*ws), cr: *wc };
            u.weapon = caisson_blindswords::catalog::Weapon::R;
        }
    }
    let (rules, mut state) = BlindSwords::new(Arc::new(data), "pv-16-1").expect("scenario");
    let map = &rules.data().map;
    let area = &rules.scenario().area;
    let clear = |h: Hex| area.contains(h) && map.tactical(h) == Some(TacticalTerrain::Clear);
    let (usa, csa) = map
        .hexes()
        .filter(|h| clear(*h))
        .find_map(|a| {
            map.neighbors(a)
                .map(|(_, d)| d)
                .find(|d| {
                    let side = map.hexside(a, *d);
                    let up = map.elevation(*d) > map.elevation(a) && side == Hexside::SLOPE;
                    clear(*d) && if slope { up } else { side.is_empty() }
                })
                .map(|d| (a, d))
        })
        .expect("the ground");
    for u in &mut state.units {
        u.place = Place::Eliminated;
    }
    for b in &mut state.brigades {
        b.on_hold = false;
    }
    for &(id, _, _, _, _, worn) in units {
        let hex = if id.starts_with("u-") { usa } else { csa };
        let i = set(&rules, &mut state, id, hex, 0);
        if worn {
            let f = rules.data().catalog.unit(id).expect(id).worn;
            let u = &mut state.units[i];
            u.battleworn = true;
            u.sp_halves = f.sp.halves();
            u.cr = f.cr;
        }
    }
    state.stage = attack_move(&state, "u-123il");
    (rules, state, usa, csa)
}

/// Digest §8 T45, SR 12.7: the SR 12.8 example's attack (column "3") rolls 65 instead, a Tough
/// test for the 36th VA (CR 4); its coloured 1 reads "-" and white 4 "MH RA2": both defenders
/// retreat two hexes, and the attackers may advance two hexes, the first into the emptied hex
/// (tests/close_step.rs has the one-hex case after a one-hex retreat).
#[test]
fn t45_sr_12_7_two_hex_retreat_gives_a_two_hex_advance() {
    let (rules, mut state, _, csa) = close_example();
    for id in ["done".to_string(), format!("target:{csa}"), "unit:u-123il".into(), "unit:u-105oh".into()] {
        rules.choose(&mut state, &id).unwrap_or_else(|e| panic!("{id}: {e}"));
    }
    for id in ["declare", "done", "hold"] {
        rules.choose(&mut state, id).unwrap_or_else(|e| panic!("{id}: {e}"));
    }
    rules.roll(&mut state, &[6, 5]).expect("d66 65");
    let logged = state.log.iter().rev().find(|e| e.roll.is_some()).expect("the d66 logged").text.clone();
    assert!(logged.contains("column 3, roll 65") && logged.contains("Tough"), "{logged}");
    rules.roll(&mut state, &[1, 4]).expect("the test's dice");
    while let Pending::Decide(d) = rules.pending(&state) {
        if d.kind != "retreat" {
            break;
        }
        let id = d.options[0].id.clone();
        rules.choose(&mut state, &id).expect("path");
    }
    let map = &rules.data().map;
    for id in ["c-41ga", "c-6tn"] {
        let h = state.hex_of(state.unit_index(id).expect(id)).expect("on the map");
        assert_eq!(map.distance(csa, h), 2, "{id} retreated two hexes");
    }
    match rules.pending(&state) {
        Pending::Decide(d) => {
            assert_eq!(d.kind, "advance");
            assert!(d.prompt.contains(&format!("into {csa} (up to 2 hexes")), "{}", d.prompt);
        }
        other => panic!("the advance: {other:?}"),
    }
}

/// Sheridan's chit drawn after Fortunes of War, with Greusel's and (if `both`) Laiboldt's
/// regiments on the map, neither activated: the owner marks Greusel. Returns the state after.
fn negated_sheridan(both: bool) -> State {
    let (rules, mut state) = scenario("pv-16-1");
    let centre = open_hex(&rules);
    let hexes: Vec<Hex> = rules.data().map.neighbors(centre).map(|(_, n)| n).collect();
    set(&rules, &mut state, "u-36il", hexes[0], 0);
    if both {
        set(&rules, &mut state, "u-2mo", hexes[3], 0);
    }
    state.chits.cup.retain(|c| c != "sheridan");
    state.chits.out.retain(|c| c != "sheridan");
    state.chits.played.push("sheridan".into());
    state.stage = Stage::PickBrigade { chit: "sheridan".into(), negated: true };
    rules.choose(&mut state, "brigade:greusel").expect("brigade");
    state
}

/// Digest §8 T21, SR 7.3a: a Division Activation Chit drawn after Fortunes of War marks one
/// brigade of the division Activated, with no action at all; with another brigade of the
/// division still to activate the chit returns to the cup, with none it is discarded.
#[test]
fn t21_sr_7_3a_negated_dac_returns_to_the_cup_while_brigades_remain() {
    let state = negated_sheridan(true);
    let b = state.brigade("greusel").expect("Greusel");
    assert!(b.activated && b.order.is_none(), "Activated, no order");
    assert!(state.log.iter().any(|e| e.text.contains("does nothing")));
    assert!(state.log.iter().any(|e| e.text.ends_with("goes back in the cup")), "Laiboldt is left: back in the cup");
    let state = negated_sheridan(false);
    assert!(state.brigade("greusel").is_some_and(|b| b.activated));
    assert!(!state.log.iter().any(|e| e.text.ends_with("goes back in the cup")), "no brigade left: discarded");
    assert!(!state.chits.cup.iter().any(|c| c == "sheridan"));
}

/// Digest §8 T36, SR 10.7 (ruling PC33): the 2nd Ohio, ordered to retreat two hexes from the
/// fire of the 41st Georgia (X, next to its hex), is boxed in by a ring of Confederates two
/// hexes round it but for one gap, so its first hex is next to the 27th Tennessee (Y). X may not
/// fire as it leaves its first hex: the first decision comes with the Ohioans in hex 1, and X is
/// not among the firers. Y fires as it leaves hex 1, at half its 4 SP (2 SP, column 2), the
/// retreating unit the Lead Unit; the roll 11 has no effect and the retreat ends in the gap.
#[test]
fn t36_sr_10_7_retreat_draws_fire_only_after_its_first_hex() {
    use caisson_blindswords::charts::Order;
    use caisson_blindswords::fire::FireKind;
    use caisson_blindswords::state::{Activator, Volley};

    let (rules, mut state) = scenario("pv-16-1");
    let map = rules.data().map.clone();
    let area = rules.scenario().area.clone();
    let clear = |h: Hex| area.contains(h) && map.tactical(h) == Some(TacticalTerrain::Clear);
    let near = |t: Hex| -> Vec<Hex> { map.hexes().filter(|h| map.distance(*h, t) <= 2).collect() };
    let t = map
        .hexes()
        .find(|t| {
            let n = near(*t);
            n.len() == 19 && n.iter().all(|h| clear(*h))
        })
        .expect("open ground two hexes round");
    let around: Vec<Hex> = map.neighbors(t).map(|(_, n)| n).collect();
    let (d3, _) = map.neighbors(t).nth(3).expect("direction 3");
    let hex1 = around[3];
    let gap = map.neighbor(hex1, d3);
    let oh = set(&rules, &mut state, "u-2oh", t, 0);
    let x = set(&rules, &mut state, "c-41ga", around[0], 0);
    let ring: Vec<Hex> = map.hexes().filter(|h| map.distance(*h, t) == 2 && *h != gap).collect();
    let (by_hex1, rest): (Vec<Hex>, Vec<Hex>) = ring.into_iter().partition(|h| map.distance(*h, hex1) == 1);
    set(&rules, &mut state, "c-27tn", by_hex1[0], 0);
    let others: Vec<String> = ids(&state, Side::Confederate, UnitType::Infantry)
        .into_iter()
        .filter(|id| !["c-41ga", "c-27tn"].contains(&id.as_str()))
        .collect();
    for (id, h) in others.iter().zip(by_hex1[1..].iter().chain(&rest)) {
        set(&rules, &mut state, id, *h, 0);
    }
    let step =
        Stage::FireStep { brigade: "maney".into(), order: Some(Order::Attack), by: Activator::Command, fired: vec![x] };
    state.volley = Some(Volley { firers: vec![x], kind: FireKind::Brigade(Order::Attack), then: step });
    state.stage = Stage::Aftermath {
        after: Aftermath {
            by: Side::Confederate,
            causers: vec![x],
            target: t,
            lead: oh,
            retreats: vec![RetreatOrder { unit: oh, hexes: 2, rule: "R2 (SR 12.1)".into(), causers: vec![x] }],
            panic: 0,
            panicking: Vec::new(),
            dice: Vec::new(),
            later: Vec::new(),
            done: Vec::new(),
            then: Then::Fire { firer: x, retreating: vec!["u-2oh".into()] },
        },
    };
    sequence::advance(&rules, &mut state);
    let mut g = manual_game(rules, state);
    g.check().expect("paused in hex 1, the state holds");
    // X cannot fire: nothing was asked before the unit left its first hex.
    assert_eq!(g.state().hex_of(oh), Some(hex1), "the first decision comes in hex 1");
    assert!(!g.state().log.iter().any(|e| e.text.contains("Opportunity Fire") && e.text.contains("41GA")));
    let d = g.pending().expect("Y's Opportunity Fire");
    assert_eq!((d.side.as_str(), d.kind.as_str()), ("confederate", "opportunity-fire"));
    assert!(!d.options.iter().any(|o| o.id.contains("c-41ga")), "X may not fire: {:?}", d.options);
    let id = format!("fire:c-27tn@{hex1}");
    let offer = d.options.iter().find(|o| o.id == id).unwrap_or_else(|| panic!("{:?}", d.options));
    assert!(offer.label.contains("2 SP, column 2"), "half of 4 SP (SR 9.1d, 10.7): {}", offer.label);
    g.choose(&id).expect("Y fires");
    for f in [1, 1] {
        g.choose(&format!("die:{f}")).expect("a die");
    }
    let logged = g.state().log.iter().rev().find(|e| e.roll.is_some()).expect("the d66 logged").text.clone();
    assert!(logged.contains("column 2, roll 11") && logged.contains("Lead Unit u-2oh"), "{logged}");
    assert!(logged.contains("no effect"), "{logged}");
    while matches!(g.state().stage, Stage::RetreatFire { .. }) {
        g.choose("let-go").expect("let it go");
    }
    assert_eq!(g.state().hex_of(oh), Some(gap), "the retreat ends two hexes away");
    g.check().expect("the state holds");
}

/// A face's printed (SP, CR).
type Printed = (u8, u8);

/// The built-in data with the printed faces of some units replaced: `(id, Fresh, Battleworn)`
/// as (SP, CR), no Fresh side making the unit Fragile (SR 2.1). The digest's cases give values
/// as illustrations; the units carrying them are any of the right type.
fn with_faces(units: &[(&str, Option<Printed>, Printed)]) -> Arc<Data> {
    let mut data = Data::load(&DataDir::builtin()).expect("built-in data");
    let face = |(sp, cr): (u8, u8)| Face { sp: Sp::whole(sp), cr };
    for u in &mut data.catalog.units {
        if let Some((_, fresh, worn)) = units.iter().find(|x| x.0 == u.id) {
            u.fresh = fresh.map(face);
            u.worn = face(*worn);
        }
    }
    Arc::new(data)
}

/// The two dice of a Cohesion Test section whose coloured die reads `depletion` and whose white
/// die's result passes `skedaddle` (the tables are reconstructed, so the faces are looked up).
fn test_dice(
    table: &caisson_blindswords::charts::CohesionTable,
    section: Section,
    depletion: &str,
    skedaddle: impl Fn(&str) -> bool,
) -> [u8; 2] {
    let faces = 1..=6u8;
    let coloured = faces.clone().find(|c| table.result(section, *c, 1).is_some_and(|r| r.depletion_text == depletion));
    let white = faces.clone().find(|w| table.result(section, 1, *w).is_some_and(|r| skedaddle(r.skedaddle_text)));
    [coloured.expect("a coloured face"), white.expect("a white face")]
}

/// A Union battery 4 hexes off has fired at Confederate unit `id`, alone (so unsupported) and
/// Battleworn in open ground with `hits` Morale Hits, for a Fire Combat Cohesion Test of
/// `section` (a CRT cell giving it for the unit's modified CR is looked up: the CRT is
/// reconstructed). The test's dice are to roll.
fn under_fire(data: Arc<Data>, id: &str, hits: u8, section: Section) -> (BlindSwords, State, usize) {
    let (rules, mut state) = BlindSwords::new(data, "pv-16-1").expect("scenario");
    for u in &mut state.units {
        u.place = Place::Eliminated;
    }
    state.to_place.clear();
    let map = &rules.data().map;
    let target = open_hex(&rules);
    let far = map.hexes().find(|h| map.distance(*h, target) == 4).expect("hex");
    let unit = set(&rules, &mut state, id, target, hits);
    let worn = rules.data().catalog.unit(id).expect(id).worn;
    let u = &mut state.units[unit];
    u.battleworn = true;
    u.sp_halves = worn.sp.halves();
    u.cr = worn.cr;
    let battery = ids(&state, Side::Union, UnitType::Artillery)[0].clone();
    let firer = set(&rules, &mut state, &battery, far, 0);
    let penalty = i32::from(hits.min(2));
    let cr = i32::from(worn.cr) - 1 - penalty;
    let (column, roll) = (0..13)
        .flat_map(|c| (11..=66).filter_map(D66::from_value).map(move |r| (c, r)))
        .find(|(c, r)| rules.data().charts.crt.result(*c, *r, cr) == Some(section))
        .expect("a CRT cell");
    state.stage =
        Stage::FireTest { firer, target, lead: 0, column, roll: roll.value(), second: None, dice: Vec::new() };
    (rules, state, unit)
}

/// A Confederate regiment (or battery, or Fragile regiment) on its Battleworn side, printed CR
/// chosen so that its modified CR is `cr` (unsupported −1, and its markers), takes a Routine
/// fire test whose coloured die reads "D" and white die "-": Depleted on its Battleworn side, it
/// takes a Break Test (SR 12.1a, 12.6), rolled `roll`. Returns the state and the unit.
fn break_test(kind: &str, hits: u8, cr: u8, roll: u8) -> (BlindSwords, State, usize) {
    let printed = cr + 1 + hits.min(2);
    let (id, fresh) = match kind {
        "artillery" => ("c-semple-art", Some((2, printed + 1))),
        "fragile" => (LEAD, None),
        _ => (LEAD, Some((4, printed + 1))),
    };
    let (rules, mut state, unit) = under_fire(with_faces(&[(id, fresh, (2, printed))]), id, hits, Section::Routine);
    let dice = test_dice(&rules.data().charts.fire_tests, Section::Routine, "D", |s| s == "-");
    rules.roll(&mut state, &dice).expect("the test's dice");
    match rules.pending(&state) {
        Pending::Roll(r) => assert!(r.purpose.contains(&format!("(modified CR {cr})")), "{}", r.purpose),
        other => panic!("a Break Test roll: {other:?}"),
    }
    rules.roll(&mut state, &[roll]).expect("the Break Test die");
    (rules, state, unit)
}

/// Digest §8 T12, SR 12.6: a Break Test against modified CR 3. A roll of 1-3 holds: an
/// unmarked unit is Shaken, a Shaken one Disrupted, a Disrupted one stays Disrupted; 4, 5 and 6
/// send it, markers off and Battleworn, to Broken Boxes 1, 2 and 3; artillery and Fragile units
/// are eliminated on 4 or more, and hold on 3.
#[test]
fn t12_sr_12_6_break_test_against_cr_3() {
    for roll in 1..=6 {
        let (rules, state, u) = break_test("infantry", 0, 3, roll);
        let unit = &state.units[u];
        let want = match roll {
            1..=3 => Place::Map(open_hex(&rules)),
            n => Place::Broken(n - 3),
        };
        assert_eq!(unit.place, want, "roll {roll}");
        assert_eq!(unit.morale_hits, u8::from(roll <= 3), "roll {roll}: Shaken if it holds, markers off if broken");
        assert!(unit.battleworn);
        assert!(state
            .log
            .iter()
            .any(|e| e.text.contains(&format!("rolled {roll} against CR 3")) && e.rule.as_deref() == Some("SR 12.6")));
        rules.check(&state).expect("the state holds");
    }
    for (hits, after) in [(1, 2), (2, 2)] {
        for roll in 1..=3 {
            let (_, state, u) = break_test("infantry", hits, 3, roll);
            assert_eq!(state.units[u].morale_hits, after, "{hits} hit(s), roll {roll}");
            assert!(matches!(state.units[u].place, Place::Map(_)));
        }
    }
    for kind in ["artillery", "fragile"] {
        let (_, state, u) = break_test(kind, 0, 3, 3);
        assert!(matches!(state.units[u].place, Place::Map(_)), "{kind} holds on 3");
        for roll in 4..=6 {
            let (rules, state, u) = break_test(kind, 0, 3, roll);
            assert_eq!(state.units[u].place, Place::Eliminated, "{kind}, roll {roll}");
            rules.check(&state).expect("the state holds");
        }
    }
}

/// Digest §8 T13, SR 12.6: against modified CR 0 a roll of 1, 2 or 3 is 1, 2 or 3 over it:
/// Broken Box 1, 2 or 3.
#[test]
fn t13_sr_12_6_break_test_against_cr_0() {
    for roll in 1..=3 {
        let (_, state, u) = break_test("infantry", 0, 0, roll);
        assert_eq!(state.units[u].place, Place::Broken(roll), "roll {roll}");
    }
}

/// The Morale Hits a fire test gives the Lead Unit: `white` picks the Skedaddle result, the
/// coloured die reads "-", the Break Test dice all hold (roll 1 against modified CR 3).
fn morale_test(hits: u8, section: Section, white: impl Fn(&str) -> bool) -> (BlindSwords, State, usize) {
    let printed = 3 + 1 + hits.min(2);
    let data = with_faces(&[(LEAD, Some((6, printed + 1)), (4, printed))]);
    let (rules, mut state, unit) = under_fire(data, LEAD, hits, section);
    let dice = test_dice(&rules.data().charts.fire_tests, section, "-", white);
    rules.roll(&mut state, &dice).expect("the test's dice");
    while matches!(rules.pending(&state), Pending::Roll(r) if r.purpose.starts_with("Break Test")) {
        rules.roll(&mut state, &[1]).expect("a Break Test die");
    }
    (rules, state, unit)
}

/// How many Break Tests a unit took in the log.
fn break_tests(state: &State, unit: usize) -> usize {
    let name = &state.units[unit].name;
    state.log.iter().filter(|e| e.text.starts_with(&format!("{name}: Break Test: rolled"))).count()
}

/// Digest §8 T14, SR 12.5: two Morale Hits on an unmarked unit make it Disrupted (SP and CR
/// −2, no Break Test); one on a Shaken unit makes it Disrupted; two on a Shaken unit make it
/// Disrupted and call one Break Test; two on a Disrupted unit call two Break Tests. The "2MH"
/// and "MH" rows are the fire table's (its other results, a retreat, follow afterwards).
#[test]
fn t14_sr_12_5_morale_hits() {
    use caisson_blindswords::cohesion::{Morale, Stack};
    let two = |s: &str| s.starts_with("2MH") && !s.contains('P');
    let one = |s: &str| s == "MH";
    for (hits, section, white, after, tests) in [
        (0, Section::Severe, &two as &dyn Fn(&str) -> bool, 2, 0),
        (1, Section::Routine, &one, 2, 0),
        (1, Section::Severe, &two, 2, 1),
        (2, Section::Severe, &two, 2, 2),
    ] {
        let (rules, state, u) = morale_test(hits, section, white);
        assert_eq!(state.units[u].morale_hits, after, "{hits} hit(s) before");
        assert_eq!(break_tests(&state, u), tests, "{hits} hit(s) before, Break Tests");
        assert!(matches!(state.units[u].place, Place::Map(_)), "every Break Test held");
        // What the Disrupted marker costs the unit (SR 12.5): 2 SP and 2 CR.
        let mut c = CombatUnit::from_catalog(rules.data().catalog.unit(LEAD).expect(LEAD));
        c.battleworn = true;
        let printed = c.modified_sp();
        c.morale = Morale::Disrupted;
        assert!((printed - c.modified_sp() - 2.0).abs() < 1e-9);
        let stack = Stack { units: vec![c], allows_support: true };
        assert!(stack.modified_cr(0).1.iter().any(|m| m.value == -2 && m.rule == "SR 12.5"));
    }
}

/// A Close Combat of `attackers` (two Union regiments, Fresh `(SP, CR)`) on `defenders` (two
/// Confederate regiments, Fresh) across open ground, whose Cohesion Test's coloured die reads
/// "BD*" (SR 12.2a). The d66 is one giving a test with a Skedaddle row that harms nobody, and
/// the white die reads it. Returns the state after the test.
fn both_deplete(attackers: [(u8, u8); 2], defenders: [(u8, u8); 2]) -> (BlindSwords, State) {
    let fresh = |id, (sp, cr): (u8, u8)| (id, sp, cr, 1, cr.saturating_sub(1), false);
    let (rules, mut state, _, csa) = close_fight(
        &[
            fresh("u-123il", attackers[0]),
            fresh("u-105oh", attackers[1]),
            fresh("c-41ga", defenders[0]),
            fresh("c-6tn", defenders[1]),
        ],
        false,
    );
    for id in ["done".to_string(), format!("target:{csa}"), "unit:u-123il".into(), "unit:u-105oh".into()] {
        rules.choose(&mut state, &id).unwrap_or_else(|e| panic!("{id}: {e}"));
    }
    for id in ["declare", "done", "hold"] {
        rules.choose(&mut state, id).unwrap_or_else(|e| panic!("{id}: {e}"));
    }
    let table = &rules.data().charts.close_tests;
    let harmless =
        |section: Section| (1..=6u8).find(|w| table.result(section, 1, *w).is_some_and(|r| r.skedaddle.is_empty()));
    let section = |s: &State| match &s.stage {
        Stage::CloseCombat { fight, .. } => fight.section,
        _ => None,
    };
    // The CRT is reconstructed: try the d66 rolls until one gives such a test.
    let rolled = (1..=6u8).flat_map(|a| (1..=6u8).map(move |b| [a, b])).find_map(|d66| {
        let mut s = state.clone();
        rules.roll(&mut s, &d66).ok()?;
        let sec = section(&s)?;
        harmless(sec).map(|w| (s, sec, w))
    });
    let (mut state, section, white) = rolled.expect("a d66 giving a harmless Skedaddle row");
    let coloured =
        (1..=6u8).find(|c| table.result(section, *c, 1).is_some_and(|r| r.depletion_text == "BD*")).expect("BD*");
    rules.roll(&mut state, &[coloured, white]).expect("the test's dice");
    (rules, state)
}

/// Digest §8 T10, SR 12.2a BD*: attackers with 9 modified SP against 3 in the defending hex
/// triple them, so only "D" applies (the defending Lead Unit flips, no attacker does); 3 against
/// 9, only "AD" (the largest attacker flips, no defender does); 6 against 3 triples neither
/// side, so both deplete.
#[test]
fn t10_sr_12_2a_bd_star_tripling() {
    let worn = |s: &State, id: &str| s.units[s.unit_index(id).expect(id)].battleworn;
    let (rules, state) = both_deplete([(5, 3), (4, 3)], [(2, 3), (1, 3)]);
    assert!(worn(&state, "c-41ga") && !worn(&state, "c-6tn"), "D: the Lead Unit only");
    assert!(!worn(&state, "u-123il") && !worn(&state, "u-105oh"), "no AD");
    assert!(state.log.iter().any(|e| e.text.ends_with("attackers' 9 SP triple the defenders' 3: only D")
        && e.rule.as_deref() == Some("SR 12.2a BD*")));
    rules.check(&state).expect("the state holds");

    let (rules, state) = both_deplete([(2, 3), (1, 3)], [(5, 3), (4, 3)]);
    assert!(worn(&state, "u-123il") && !worn(&state, "u-105oh"), "AD: the largest attacker");
    assert!(!worn(&state, "c-41ga") && !worn(&state, "c-6tn"), "no D");
    assert!(state.log.iter().any(|e| e.text.ends_with("defenders' 9 SP triple the attackers' 3: only AD")));
    rules.check(&state).expect("the state holds");

    let (_, state) = both_deplete([(4, 3), (2, 3)], [(2, 3), (1, 3)]);
    assert!(worn(&state, "c-41ga") && worn(&state, "u-123il"), "6 against 3: both deplete");
}

/// Scenario 16.1 at the end of a turn's draws, no unit on the map, the Union holding exactly
/// `union` of the objective and per-turn hexes and the Confederates the others; the End Turn
/// Phase is played up to the Victory Point Awards and past them if the game goes on.
fn end_turn_holding(union: &[&str]) -> (BlindSwords, State) {
    let (rules, mut state) = scenario("pv-16-1");
    let sc = rules.scenario();
    let caisson_blindswords::scenario::Victory::Points { per_turn, objective, .. } = &sc.victory else {
        panic!("16.1 scores Victory Points")
    };
    let hexes: Vec<Hex> = per_turn.iter().map(|t| t.hex).chain(objective.iter().map(|o| o.hex)).collect();
    state.control.retain(|(h, _)| !hexes.contains(h));
    for h in hexes {
        let side = if union.contains(&h.to_string().as_str()) { Side::Union } else { Side::Confederate };
        state.control.push((h, side));
    }
    let out = std::mem::take(&mut state.chits.cup);
    state.chits.out.extend(out);
    state.stage = Stage::Draw;
    sequence::advance(&rules, &mut state);
    (rules, state)
}

/// Digest §8 T56, EX 16.1 Sudden Death: at the End Turn Victory Point Awards the Union holds
/// the three per-turn hexes 2012, 2419 and 2127 and two of its end objectives, 3908 and 4017:
/// a Union smashing victory at once. Without 4017 the game goes on.
#[test]
fn t56_ex_16_1_sudden_death_at_the_vp_awards() {
    let (rules, state) = end_turn_holding(&["2012", "2419", "2127", "3908", "4017"]);
    assert_eq!(state.stage, Stage::Over);
    assert_eq!(state.special.sudden_death, Some(Side::Union));
    assert!(state.log.iter().any(|e| e.text.ends_with("Sudden Death") && e.rule.as_deref() == Some("EX 16.1")));
    let score = caisson_blindswords::victory::score(&rules, &state);
    assert_eq!((score.result.as_str(), score.winner), ("Union smashing victory (Sudden Death)", Some(Side::Union)));

    let (_, state) = end_turn_holding(&["2012", "2419", "2127", "3908"]);
    assert_ne!(state.stage, Stage::Over, "one end objective is not enough");
    assert_eq!(state.special.sudden_death, None);
}

/// The Union's two regiments (Fresh 6-3 each) next to the 41st Georgia (Fresh 4-4) and the 6th
/// Tennessee (Fresh 2-4), with the Battlefield Chaos chit on the Confederate hex if `chaos`.
fn chaos_fight(chaos: bool) -> (BlindSwords, State, Hex, Hex) {
    let (rules, mut state, usa, csa) = close_fight(
        &[
            ("u-123il", 6, 3, 2, 2, false),
            ("u-105oh", 6, 3, 2, 2, false),
            ("c-41ga", 4, 4, 1, 3, false),
            ("c-6tn", 2, 4, 1, 3, false),
        ],
        false,
    );
    state.chaos = chaos.then_some(csa);
    (rules, state, usa, csa)
}

/// The Union declares its Close Combat on the Confederate hex; the defender's options follow.
fn declare_on(rules: &BlindSwords, state: &mut State, csa: Hex) -> Vec<(String, String)> {
    for id in ["done".to_string(), format!("target:{csa}"), "unit:u-123il".into(), "unit:u-105oh".into()] {
        rules.choose(state, &id).unwrap_or_else(|e| panic!("{id}: {e}"));
    }
    rules.choose(state, "declare").expect("declare");
    rules.choose(state, "done").expect("no more attacks");
    match rules.pending(state) {
        Pending::Decide(d) if d.kind == "defensive-fire" => d.options.into_iter().map(|o| (o.id, o.label)).collect(),
        other => panic!("Defensive Fire: {other:?}"),
    }
}

/// Digest §8 T67, EX 7.3b Battlefield Chaos: a stack under the chit, attacked in Close Combat,
/// may Defensive-Fire at half SP (the 41st Georgia's 4 SP fire as 2); it is unsupported (its
/// Lead Unit's CR 4 is read as 3, though the 6th Tennessee of its brigade is with it); it may not
/// initiate a Close Combat; and when it retreats the chit is removed (ruling PC38). The same
/// fight without the chit is the control.
#[test]
fn t67_ex_7_3b_battlefield_chaos_under_close_combat() {
    let fire_41ga = |options: &[(String, String)]| {
        options
            .iter()
            .find(|(id, _)| id.starts_with("fire:") && id.contains("c-41ga") && !id.contains("c-6tn"))
            .map(|(_, l)| l.clone())
            .expect("the 41st Georgia's Defensive Fire")
    };
    let (rules, mut state, _, csa) = chaos_fight(false);
    let label = fire_41ga(&declare_on(&rules, &mut state, csa));
    assert!(label.contains(": 4 SP, column"), "no chit, full SP: {label}");
    rules.choose(&mut state, "hold").expect("no Defensive Fire");
    rules.roll(&mut state, &[1, 1]).expect("d66");
    assert!(state.log.iter().any(|e| e.text.contains("Lead Unit CR 4:")), "supported");

    let (rules, mut state, _, csa) = chaos_fight(true);
    let label = fire_41ga(&declare_on(&rules, &mut state, csa));
    assert!(label.contains(": 2 SP, column") && label.ends_with("; 41GA 4→2 SP Battlefield Chaos"), "half SP: {label}");
    rules.choose(&mut state, "hold").expect("no Defensive Fire");
    // A d66 giving a test whose white die has a retreat of every defender and no Panic.
    let table = &rules.data().charts.close_tests;
    let white = |section: Section| {
        (1..=6u8).find(|w| {
            table
                .result(section, 1, *w)
                .is_some_and(|r| r.skedaddle_text.contains("RA") && !r.skedaddle_text.contains('P'))
        })
    };
    let rolled = (1..=6u8).flat_map(|a| (1..=6u8).map(move |b| [a, b])).find_map(|d66| {
        let mut s = state.clone();
        rules.roll(&mut s, &d66).ok()?;
        let section = match &s.stage {
            Stage::CloseCombat { fight, .. } => fight.section?,
            _ => return None,
        };
        white(section).map(|w| (s, section, w))
    });
    let (mut state, section, white) = rolled.expect("a d66 giving a retreat");
    assert!(state.log.iter().any(|e| e.text.contains("Lead Unit CR 3:")), "unsupported under the chit");
    let coloured = (1..=6u8).find(|c| table.result(section, *c, 1).is_some_and(|r| r.depletion_text == "-"));
    rules.roll(&mut state, &[coloured.expect("a harmless coloured face"), white]).expect("the test's dice");
    while let Pending::Decide(d) = rules.pending(&state) {
        if d.kind != "retreat" {
            break;
        }
        let id = d.options[0].id.clone();
        rules.choose(&mut state, &id).expect("path");
    }
    assert_ne!(state.hex_of(state.unit_index("c-41ga").expect("41GA")), Some(csa), "retreated");
    assert_eq!(state.chaos, None, "the chit is removed");
    assert!(state.log.iter().any(|e| e.text.ends_with("the chit is removed") && e.rule.as_deref() == Some("EX 7.3b")));
    rules.check(&state).expect("the state holds");

    // Under the chit the Confederates may not initiate: their brigade, under Attack orders next
    // to the Union, is offered no Close Combat.
    for chaos in [false, true] {
        let (rules, mut state, _, csa) = chaos_fight(chaos);
        state.stage = attack_move(&state, "c-41ga");
        rules.choose(&mut state, "done").expect("no move");
        let targets: Vec<String> = match rules.pending(&state) {
            Pending::Decide(d) if d.kind == "close-declare" => {
                d.options.into_iter().filter(|o| o.id.starts_with("target:")).map(|o| o.id).collect()
            }
            _ => Vec::new(),
        };
        assert_eq!(targets.is_empty(), chaos, "{csa} under the chit: {chaos}; targets {targets:?}");
    }
}

/// The hexes unit `i` may enter next from where it stands (its first step) under `order`, as
/// the Movement Step offers them.
fn next_hexes(rules: &BlindSwords, state: &State, i: usize, order: caisson_blindswords::charts::Order) -> Vec<Hex> {
    caisson_blindswords::movement::steps(rules, state, i, 10.0, true, Some(order)).into_iter().map(|s| s.hex).collect()
}

/// Digest §8 T01, SR 9.3a: a fire's d66 reads the coloured die as tens and the white die as
/// units. The 2nd Ohio fires at the 41st Georgia next to it; the first die asked for is the
/// coloured one: coloured 2, white 4 is roll 24 on the CRT.
#[test]
fn t01_sr_9_3a_d66_coloured_die_tens_white_die_units() {
    use caisson_blindswords::charts::Order;
    use caisson_blindswords::state::Activator;
    let (rules, mut state) = scenario("pv-16-1");
    let (centre, around) = open_ground(&rules);
    set(&rules, &mut state, "u-2oh", centre, 0);
    set(&rules, &mut state, "c-41ga", around[0], 0);
    state.stage = Stage::FireStep {
        brigade: "harris".into(),
        order: Some(Order::Attack),
        by: Activator::Command,
        fired: Vec::new(),
    };
    let mut g = manual_game(rules, state);
    g.choose(&format!("fire:u-2oh@{}", around[0])).expect("the fire is offered");
    match g.rules().pending(g.state()) {
        Pending::Roll(r) => {
            assert_eq!((r.dice, r.rule.as_str()), (2, "SR 9.3a"));
            assert!(r.purpose.contains("coloured die tens, white die units"), "{}", r.purpose);
        }
        other => panic!("the d66 is asked for: {other:?}"),
    }
    g.choose("die:2").expect("coloured die");
    g.choose("die:4").expect("white die");
    let logged = g.state().log.iter().rev().find(|e| e.roll.is_some()).expect("the d66 logged").text.clone();
    assert!(logged.contains(", roll 24: "), "{logged}");
}

/// Digest §8 T25, SR 3.1b, EX 3.1c: cavalry may not enter a hex holding infantry, may enter one
/// holding horse artillery, and may not enter one holding foot artillery.
#[test]
fn t25_ex_3_1c_cavalry_stacks_only_with_cavalry_and_horse_artillery() {
    use caisson_blindswords::charts::Order;
    use caisson_blindswords::movement::{stacking_fault, Board};
    let (rules, mut state) = scenario("pv-16-1");
    let (centre, around) = open_ground(&rules);
    let side = Side::Confederate;
    let first = |ty: UnitType| ids(&state, side, ty).into_iter().next().unwrap_or_else(|| panic!("a {ty:?}"));
    let (cav, inf, horse, foot) = (
        first(UnitType::Cavalry),
        first(UnitType::Infantry),
        first(UnitType::HorseArtillery),
        first(UnitType::Artillery),
    );
    let c = set(&rules, &mut state, &cav, centre, 0);
    set(&rules, &mut state, &inf, around[0], 0);
    set(&rules, &mut state, &horse, around[1], 0);
    set(&rules, &mut state, &foot, around[2], 0);
    let to = next_hexes(&rules, &state, c, Order::Maneuver);
    assert!(!to.contains(&around[0]), "with infantry: illegal");
    assert!(to.contains(&around[1]), "with horse artillery: legal");
    assert!(!to.contains(&around[2]), "with foot artillery: illegal");
    assert!(to.contains(&around[3]), "an empty hex: legal");
    let board = Board::new(&rules.data().map, &state);
    let why = stacking_fault(&rules, &state, &board, around[0], Some(c)).expect("a fault");
    assert!(why.contains("SR 3.1b, EX 3.1c"), "{why}");
}

/// Digest §8 T26, EX 3.1d: a unit of more than 12 SP (here a regiment given 14 SP) may stand
/// alone in a hex, but no other unit may join it, nor may it join another.
#[test]
fn t26_ex_3_1d_a_large_unit_stands_only_alone() {
    use caisson_blindswords::charts::Order;
    use caisson_blindswords::movement::{stacking_fault, Board};
    let (rules, mut state) = scenario_with(with_faces(&[("u-123il", Some((14, 3)), (4, 2))]), "pv-16-1");
    let (centre, around) = open_ground(&rules);
    let big = set(&rules, &mut state, "u-123il", centre, 0);
    assert_eq!(state.units[big].sp_halves, 28, "14 SP");
    let board = Board::new(&rules.data().map, &state);
    assert_eq!(stacking_fault(&rules, &state, &board, centre, None), None, "alone: legal");
    rules.check(&state).expect("alone, the state holds");
    let other = ids(&state, Side::Union, UnitType::Infantry).into_iter().find(|i| i != "u-123il").expect("another");
    let o = set(&rules, &mut state, &other, around[0], 0);
    let to = next_hexes(&rules, &state, o, Order::Maneuver);
    assert!(!to.contains(&centre), "another unit may not join it");
    assert!(to.contains(&around[1]));
    let board = Board::new(&rules.data().map, &state);
    let why = stacking_fault(&rules, &state, &board, centre, Some(o)).expect("a fault");
    assert!(why.contains("above 12 (EX 3.1)"), "{why}");
    let to = next_hexes(&rules, &state, big, Order::Maneuver);
    assert!(!to.contains(&around[0]), "nor may it join another unit");
    assert!(to.contains(&around[3]), "an empty hex");
}

/// Digest §8 T47, EX 15.2: a skirmisher pays one MP less a hex, at least one: the 123rd
/// Illinois in Skirmish Order (Attack order, 4 MP) enters a Woods hex that costs infantry 2 MP
/// for 1, then a clear hex (1 MP) for 1.
#[test]
fn t47_ex_15_2_skirmisher_pays_one_less_at_least_one() {
    use caisson_blindswords::charts::Order;
    use caisson_blindswords::movement::cost;
    use caisson_blindswords::state::Moving;
    let (rules, mut state) = scenario("pv-16-1");
    let map = &rules.data().map;
    let area = &rules.scenario().area;
    let mp = |skirmish: bool, a: Hex, b: Hex| {
        cost(&rules, UnitType::Infantry, Some(Order::Attack), skirmish, Some(a), b).map(|c| (c.mp, c.route))
    };
    let (start, woods, clear) = map
        .hexes()
        .filter(|h| area.contains(*h))
        .flat_map(|h| map.neighbors(h).map(move |(_, w)| (h, w)))
        .filter(|(h, w)| {
            area.contains(*w)
                && map.tactical(*w) == Some(TacticalTerrain::Woods)
                && mp(false, *h, *w) == Some((2.0, false))
        })
        .find_map(|(h, w)| {
            map.neighbors(w)
                .map(|(_, c)| c)
                .find(|c| *c != h && area.contains(*c) && mp(false, w, *c) == Some((1.0, false)))
                .map(|c| (h, w, c))
        })
        .expect("a 2-MP Woods step then a 1-MP step");
    let unit = set(&rules, &mut state, "u-123il", start, 0);
    state.units[unit].skirmish = true;
    state.stage = attack_move(&state, "u-123il");
    let mut g = manual_game(rules, state);
    g.choose("unit:u-123il").expect("the skirmisher moves");
    let left = |g: &caisson_kernel::Game<BlindSwords>| match &g.state().stage {
        Stage::Move { current: Some(Moving { mp, .. }), .. } => *mp,
        other => panic!("moving: {other:?}"),
    };
    assert!((left(&g) - 4.0).abs() < 1e-9);
    g.choose(&format!("hex:{woods}")).expect("into the woods");
    assert!((left(&g) - 3.0).abs() < 1e-9, "the Woods hex cost 1, not 2");
    g.choose(&format!("hex:{clear}")).expect("on to clear ground");
    assert!((left(&g) - 2.0).abs() < 1e-9, "the clear hex cost 1: never below one");
    g.check().expect("the state holds");
}

/// Digest §8 T50, EX 8.2a: a brigade of Attack Coordination Rating 3 with two units next to the
/// enemy may move exactly one more next to it. Starting with four next to the enemy, they may
/// stay (and step from one hex next to the enemy to another), but none may join them until fewer
/// than three are next to the enemy.
#[test]
fn t50_ex_8_2a_brigade_attack_coordination() {
    use caisson_blindswords::charts::Order;
    let (rules, mut state) = scenario("pv-16-1");
    let cat = &rules.data().catalog;
    let infantry = |state: &State, b: &str| -> Vec<String> {
        state
            .units
            .iter()
            .filter(|u| u.brigade.as_deref() == Some(b) && u.ty == UnitType::Infantry)
            .map(|u| u.id.clone())
            .collect()
    };
    let brigade = state
        .brigades
        .iter()
        .map(|b| b.id.clone())
        .find(|b| cat.brigade(b).is_some_and(|c| c.coordination == Some(3)) && infantry(&state, b).len() >= 5)
        .expect("a brigade rated 3 with five regiments");
    let units = infantry(&state, &brigade);
    let side = state.brigade(&brigade).expect("brigade").side;
    let (centre, ring) = open_ground(&rules);
    let enemy = ids(&state, caisson_blindswords::state::other(side), UnitType::Infantry)[0].clone();
    set(&rules, &mut state, &enemy, centre, 0);
    let map = &rules.data().map;
    let area = &rules.scenario().area;
    // A hex two from the enemy next to ring hex `k`.
    let outer = |k: usize| {
        map.neighbors(ring[k])
            .map(|(_, n)| n)
            .find(|n| area.contains(*n) && map.distance(*n, centre) == 2)
            .expect("outer")
    };
    let joins = |state: &State, i: usize| {
        next_hexes(&rules, state, i, Order::Attack).iter().any(|h| map.distance(*h, centre) == 1)
    };
    let u: Vec<usize> = units.iter().take(5).map(|id| state.unit_index(id).expect("unit")).collect();

    // Two next to the enemy: a third may join.
    set(&rules, &mut state, &units[0], ring[0], 0);
    set(&rules, &mut state, &units[1], ring[1], 0);
    set(&rules, &mut state, &units[2], outer(3), 0);
    assert!(joins(&state, u[2]), "the third unit may move next to the enemy");
    set(&rules, &mut state, &units[2], ring[3], 0);
    set(&rules, &mut state, &units[3], outer(5), 0);
    assert!(!joins(&state, u[3]), "a fourth may not");
    assert!(!next_hexes(&rules, &state, u[3], Order::Attack).is_empty(), "it may still move elsewhere");

    // Four next to the enemy: they stay; none joins; one may shift along the enemy's front.
    set(&rules, &mut state, &units[3], ring[4], 0);
    set(&rules, &mut state, &units[4], outer(2), 0);
    assert!(!joins(&state, u[4]), "none may join four");
    assert!(next_hexes(&rules, &state, u[0], Order::Attack).contains(&ring[5]), "an engaged unit may shift");
    state.units[u[0]].place = Place::Eliminated;
    assert!(!joins(&state, u[4]), "three engaged: still none may join");
    state.units[u[1]].place = Place::Eliminated;
    assert!(joins(&state, u[4]), "two engaged: one may join again");
}

/// Digest §8 T55, EX 16.1 (ruling A-29): at the end a VP margin of 2 is a draw, 4 a marginal
/// victory, 8 a tactical victory and 12 a smashing victory, for either side.
#[test]
fn t55_ex_16_1_victory_levels_by_margin() {
    let (rules, mut state) = scenario("pv-16-1");
    for u in &mut state.units {
        u.place = Place::Exited; // neither a loss nor a hex held (ruling PG29)
    }
    state.control.clear();
    for (margin, level) in
        [(2, None), (4, Some("marginal victory")), (8, Some("tactical victory")), (12, Some("smashing victory"))]
    {
        for side in Side::BOTH {
            state.vp = if side == Side::Union { [margin, 0] } else { [0, margin] };
            let score = caisson_blindswords::victory::score(&rules, &state);
            match level {
                None => assert_eq!((score.result.as_str(), score.winner), ("draw", None), "margin {margin}"),
                Some(l) => assert_eq!((score.result, score.winner), (format!("{side} {l}"), Some(side))),
            }
        }
    }
}

fn hex(s: &str) -> Hex {
    s.parse().expect("test hex")
}

/// Moves unit `id` under an Attack order from the hex next to `to` where it is set, into `to`,
/// then on along the first hex offered if `on`, and stops. Returns the hex it ends in.
fn walk_into(rules: &BlindSwords, state: &mut State, id: &str, from: Hex, to: Hex, on: bool) -> Hex {
    set(rules, state, id, from, 0);
    state.stage = attack_move(state, id);
    rules.choose(state, &format!("unit:{id}")).expect("the unit moves");
    rules.choose(state, &format!("hex:{to}")).unwrap_or_else(|e| panic!("{id} into {to}: {e}"));
    let mut end = to;
    if on {
        let next = options(rules, state).into_iter().find(|o| o.starts_with("hex:")).expect("a hex beyond");
        rules.choose(state, &next).expect("on");
        end = next.trim_start_matches("hex:").parse().expect("hex");
    }
    rules.choose(state, "stop").expect("stop");
    assert_eq!(state.hex_of(state.unit_index(id).expect(id)), Some(end));
    end
}

/// A neighbour of `h` in play, empty, and at least `gap` hexes from every hex of `avoid`.
fn beside(rules: &BlindSwords, state: &State, h: Hex, avoid: &[Hex], gap: u16) -> Hex {
    let map = &rules.data().map;
    map.neighbors(h)
        .map(|(_, n)| n)
        .find(|n| {
            rules.scenario().area.contains(*n)
                && !state.units.iter().any(|u| u.place == Place::Map(*n))
                && avoid.iter().all(|a| map.distance(*a, *n) >= gap)
        })
        .expect("a free neighbour")
}

/// Digest §8 T57, EX 16.0: the Union wins by controlling three of 2127, 2428, 2525 and 2929;
/// its infantry walking into 2127, 2428 and 2525 wins. Alternatively with its cavalry the only
/// Union unit to enter 2929 (Edwards), that hex is not counted for it: cavalry controls nothing
/// (EX 16.0 preamble), so holding 2127 and 2428 besides loses.
#[test]
fn t57_ex_16_0_cavalry_cannot_control_a_victory_hex() {
    let (rules, mut base) = scenario("pv-16-0");
    base.control.clear();
    let inf = ids(&base, Side::Union, UnitType::Infantry);
    let cav = ids(&base, Side::Union, UnitType::Cavalry);

    let mut state = base.clone();
    for (id, h) in inf.iter().zip(["2127", "2428", "2525"]) {
        let from = beside(&rules, &state, hex(h), &[], 0);
        walk_into(&rules, &mut state, id, from, hex(h), false);
        assert_eq!(state.controller(hex(h)), Some(Side::Union), "{h}");
    }
    let score = caisson_blindswords::victory::score(&rules, &state);
    assert_eq!((score.result.as_str(), score.winner), ("Union victory", Some(Side::Union)));

    let mut state = base;
    for (id, h) in inf.iter().zip(["2127", "2428"]) {
        let from = beside(&rules, &state, hex(h), &[], 0);
        walk_into(&rules, &mut state, id, from, hex(h), false);
    }
    let from = beside(&rules, &state, hex("2929"), &[], 0);
    walk_into(&rules, &mut state, &cav[0], from, hex("2929"), false);
    assert_eq!(state.controller(hex("2929")), None, "cavalry does not control Edwards");
    let score = caisson_blindswords::victory::score(&rules, &state);
    assert!(score.lines.iter().any(|l| l == "2929: controlled by nobody"), "{:?}", score.lines);
    assert_eq!((score.result.as_str(), score.winner), ("Confederate victory", Some(Side::Confederate)));
}

/// Digest §8 T58, EX 16.0 preamble (ruling PG11): a Confederate regiment passes through 2428 and
/// leaves it, and no Union infantry enters after: the Confederates control 2428. Union cavalry
/// then sitting in it does not take control, but denies the hex: the Confederate regiment next
/// to it may not step back in.
#[test]
fn t58_ex_16_0_control_follows_the_last_infantry_cavalry_only_denies() {
    use caisson_blindswords::charts::Order;
    let (rules, mut state) = scenario("pv-16-0");
    state.control.clear();
    let target = hex("2428");
    let reb = ids(&state, Side::Confederate, UnitType::Infantry)[0].clone();
    let from = beside(&rules, &state, target, &[], 0);
    let out = walk_into(&rules, &mut state, &reb, from, target, true);
    assert_ne!(out, target, "it left 2428");
    assert_eq!(state.controller(target), Some(Side::Confederate), "the last infantry in it was Confederate");
    let cav = ids(&state, Side::Union, UnitType::Cavalry)[0].clone();
    let from = beside(&rules, &state, target, &[out], 2);
    walk_into(&rules, &mut state, &cav, from, target, false);
    assert_eq!(state.controller(target), Some(Side::Confederate), "cavalry does not take control");
    let r = state.unit_index(&reb).expect("reb");
    assert!(!next_hexes(&rules, &state, r, Order::Attack).contains(&target), "the cavalry denies the hex");
}

/// Digest §8 T69, EX 2.10h: a step from a road hex to a road hex along the road costs 1 MP (a
/// March Column under a Maneuver order ½), whatever the terrain entered and the hexside crossed:
/// here the Mackville Pike step 1916 → 2017 with 2017 made Woods behind a wood fence. The
/// stacking limit holds in that hex (SR 3.1c): with 2017 full the step is not offered.
#[test]
fn t69_ex_2_10h_road_step_ignores_woods_and_fence_and_keeps_the_stacking_limit() {
    use caisson_blindswords::charts::Order;
    use caisson_blindswords::movement::{cost, stacking_fault, Board};
    let (a, b) = (hex("1916"), hex("2017"));
    let mut data = Data::load(&DataDir::builtin()).expect("built-in data");
    data.map.set_tactical(b, TacticalTerrain::Woods).expect("woods");
    data.map.add_hexside(a, b, Hexside::WOOD_FENCE).expect("fence");
    let (rules, mut state) = scenario_with(Arc::new(data), "pv-16-1");
    let side = rules.data().map.hexside(a, b);
    assert!(side.contains(Hexside::ROAD) && side.contains(Hexside::WOOD_FENCE), "{side:?}");
    let step = |order| cost(&rules, UnitType::Infantry, Some(order), false, Some(a), b).expect("enterable");
    let attack = step(Order::Attack);
    assert_eq!((attack.mp, attack.route), (1.0, true), "{}", attack.why);
    assert!((step(Order::Maneuver).mp - 0.5).abs() < 1e-9, "March Column");
    let mover = set(&rules, &mut state, "u-123il", a, 0);
    assert!(next_hexes(&rules, &state, mover, Order::Attack).contains(&b));
    for id in ids(&state, Side::Union, UnitType::Infantry).into_iter().filter(|i| i != "u-123il") {
        let board = Board::new(&rules.data().map, &state);
        if stacking_fault(&rules, &state, &board, b, Some(mover)).is_some() {
            break;
        }
        let i = state.unit_index(&id).expect("unit");
        if stacking_fault(&rules, &state, &board, b, Some(i)).is_none() {
            set(&rules, &mut state, &id, b, 0);
        }
    }
    assert!(!next_hexes(&rules, &state, mover, Order::Attack).contains(&b), "the stacking limit holds");
}

/// Digest §8 T70, EX 6.5c (ruling PG37): a battery on the Mackville Pike in a Woods hex (1916,
/// made Woods) wants to go on along the road into 2017, which it would over-stack: the step costs
/// 3 MP, and it may not stop there; it goes on to 2117 along the road. From a clear road hex
/// (2117) the same full hex is not offered at all: on a road the limit holds always (EX 3.1b).
#[test]
fn t70_ex_6_5c_artillery_pays_3_mp_to_pass_a_full_hex_from_a_woods_road() {
    use caisson_blindswords::movement::{stacking_fault, Board};
    use caisson_blindswords::state::{MoveFor, Moving};
    let (a, b, c) = (hex("1916"), hex("2017"), hex("2117"));
    let mut data = Data::load(&DataDir::builtin()).expect("built-in data");
    data.map.set_tactical(a, TacticalTerrain::Woods).expect("woods");
    data.map.set_tactical(c, TacticalTerrain::Clear).expect("clear");
    let (rules, mut state) = scenario_with(Arc::new(data), "pv-16-1");
    let map = &rules.data().map;
    assert!(map.hexside(a, b).contains(Hexside::ROAD) && map.hexside(b, c).contains(Hexside::ROAD));
    let battery = ids(&state, Side::Union, UnitType::Artillery)[0].clone();
    let bat = set(&rules, &mut state, &battery, a, 0);
    for id in ids(&state, Side::Union, UnitType::Infantry) {
        let board = Board::new(&rules.data().map, &state);
        if stacking_fault(&rules, &state, &board, b, Some(bat)).is_some() {
            break;
        }
        let i = state.unit_index(&id).expect("unit");
        if stacking_fault(&rules, &state, &board, b, Some(i)).is_none() {
            set(&rules, &mut state, &id, b, 0);
        }
    }
    let moving = |unit: usize| Stage::Move {
        for_: MoveFor::Artillery { side: Side::Union },
        moved: Vec::new(),
        current: Some(Moving::new(unit, 6.0)),
    };
    // From the clear road hex 2117 the full hex is refused.
    let mut clear = state.clone();
    set(&rules, &mut clear, &battery, c, 0);
    clear.stage = moving(bat);
    assert!(!options(&rules, &clear).contains(&format!("hex:{b}")), "EX 3.1b: not from a clear road hex");

    state.stage = moving(bat);
    rules.check(&state).expect("the set-up holds");
    let step = match rules.pending(&state) {
        Pending::Decide(d) => d.options.into_iter().find(|o| o.id == format!("hex:{b}")).expect("the step is offered"),
        other => panic!("the move: {other:?}"),
    };
    assert!(step.label.starts_with(&format!("{b}: 3 MP")), "{}", step.label);
    assert!(step.label.contains("EX 6.5c"), "{}", step.label);
    rules.choose(&mut state, &format!("hex:{b}")).expect("into the full hex");
    assert_eq!(state.hex_of(bat), Some(b));
    assert!(matches!(&state.stage, Stage::Move { current: Some(m), .. } if (m.mp - 3.0).abs() < 1e-9));
    rules.check(&state).expect("passing through is allowed");
    assert!(!options(&rules, &state).contains(&"stop".to_string()), "it may not stop in the full hex");
    assert!(rules.choose(&mut state, "stop").is_err());
    rules.choose(&mut state, &format!("hex:{c}")).expect("on along the road");
    rules.choose(&mut state, "stop").expect("stops within the limit");
    assert_eq!(state.hex_of(bat), Some(c));
    rules.check(&state).expect("the state holds");
}
