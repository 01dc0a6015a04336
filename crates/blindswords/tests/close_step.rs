//! Close Combat played through the engine with manual dice (SR 11, 12.2, 12.7): the SR 12.8
//! Close Combat and Cohesion Test example (digest §8 T07-T09) as the rule reads it (rulings
//! A-46, A-46b, PC7), and the declaration's voluntary "no Close Combat".

mod common;
use common::{attack_move, manual_game};

use std::sync::Arc;

use caisson_blindswords::catalog::{Face, Sp, Weapon};
use caisson_blindswords::setup::Data;
use caisson_blindswords::state::{Place, Stage, State};
use caisson_blindswords::BlindSwords;
use caisson_hexmap::{Hex, Hexside, TacticalTerrain};
use caisson_kernel::data::DataDir;
use caisson_kernel::{Game, Pending};

/// The example's four counters, carried by four catalog units given the example's printed
/// values (the example says its values are illustrations): two Union regiments of one brigade,
/// the 1st WV (3-2 Fresh) and the 4th WV (4-1 Battleworn), and two Confederate regiments of one
/// brigade, the 36th VA (5-4 Battleworn) and the 69th NC (2-3 Battleworn); every weapon R, so
/// no "S" shift applies, as in the example.
const WV1: &str = "u-123il";
const WV4: &str = "u-105oh";
const VA36: &str = "c-41ga";
const NC69: &str = "c-6tn";

fn example_data() -> Arc<Data> {
    let mut data = Data::load(&DataDir::builtin()).expect("built-in data");
    let face = |sp: u8, cr: u8| Face { sp: Sp::whole(sp), cr };
    for u in &mut data.catalog.units {
        let (fresh, worn) = match u.id.as_str() {
            WV1 => (face(3, 2), face(1, 1)),
            WV4 => (face(12, 2), face(4, 1)),
            VA36 => (face(15, 5), face(5, 4)),
            NC69 => (face(6, 4), face(2, 3)),
            _ => continue,
        };
        u.fresh = Some(fresh);
        u.worn = worn;
        u.weapon = Weapon::R;
    }
    Arc::new(data)
}

/// A clear hex next to a higher clear hex across a plain Slope hexside, in the scenario's area:
/// the example's ground (its levels 4 and 5 are illustrations; on this map a Slope lies between
/// levels two apart, ruling PM4).
fn slope_pair(rules: &BlindSwords) -> (Hex, Hex) {
    let map = &rules.data().map;
    let area = &rules.scenario().area;
    let clear = |h: Hex| area.contains(h) && map.tactical(h) == Some(TacticalTerrain::Clear);
    for a in map.hexes().filter(|h| clear(*h)) {
        for (_, d) in map.neighbors(a) {
            if clear(d) && map.elevation(d) > map.elevation(a) && map.hexside(a, d) == Hexside::SLOPE {
                return (a, d);
            }
        }
    }
    panic!("no pair of clear hexes across a plain slope");
}

/// Scenario 16.1 with only the example's four units on the map, the Union brigade at the end
/// of its Attack-order Movement Step.
fn example() -> (Game<BlindSwords>, Hex, Hex) {
    let (rules, mut state) = BlindSwords::new(example_data(), "pv-16-1").expect("scenario");
    let (usa, csa) = slope_pair(&rules);
    for u in &mut state.units {
        u.place = Place::Eliminated;
    }
    for b in &mut state.brigades {
        b.on_hold = false;
    }
    let set = |state: &mut State, id: &str, hex: Hex, worn: bool| {
        let i = state.unit_index(id).expect(id);
        let c = rules.data().catalog.unit(id).expect(id);
        let f = if worn { c.worn } else { c.fresh.unwrap_or(c.worn) };
        let u = &mut state.units[i];
        u.place = Place::Map(hex);
        u.battleworn = worn;
        u.sp_halves = f.sp.halves();
        u.cr = f.cr;
        u.on_hold = false;
        u.morale_hits = 0;
        u.shaken = false;
    };
    set(&mut state, WV1, usa, false);
    set(&mut state, WV4, usa, true);
    set(&mut state, VA36, csa, true);
    set(&mut state, NC69, csa, true);
    state.stage = attack_move(&state, WV1);
    (manual_game(rules, state), usa, csa)
}

fn dice(g: &mut Game<BlindSwords>, faces: &[u8]) {
    for f in faces {
        g.choose(&format!("die:{f}")).unwrap_or_else(|e| panic!("die {f}: {e}"));
    }
}

fn choose(g: &mut Game<BlindSwords>, id: &str) {
    g.choose(id).unwrap_or_else(|e| panic!("{id}: {e}"));
}

fn morale(g: &Game<BlindSwords>, id: &str) -> (u8, bool) {
    let s = g.state();
    let i = s.unit_index(id).expect(id);
    (s.units[i].morale_hits, matches!(s.units[i].place, Place::Map(_)))
}

/// SR 12.8 example (digest §8 T07-T09): the two Union regiments attack the Confederate stack
/// up the Slope with 7 SP (ruling A-46b: 3 + 4, the same "6-7" column), shifted two columns
/// left for the Slope and one for the defending Lead Unit's better CR (the 36th VA's 4,
/// supported by the 69th NC) to column "3". The d66 52 reads row 51-53, "- | 0 | 1-3": a Close
/// Fight. The test's coloured 5 and white 3 are "BD*" and "AMH": the 4th WV (largest printed
/// SP) depletes first (ruling PC7) and, Battleworn, takes a Break Test: 1 against CR 1 holds,
/// Shaken; the 36th VA, Battleworn, rolls 4 against CR 4, which holds by the rule text (ruling
/// Shaken, where the example says Broken Box 1); then the AMH turns the 4th WV Disrupted.
#[test]
fn sr_12_8_close_combat_example_through_the_engine() {
    let (mut g, usa, csa) = example();
    choose(&mut g, "done");
    let d = g.pending().expect("the declaration");
    assert_eq!(d.kind, "close-declare");
    assert!(d.options.iter().any(|c| c.id == "done" && c.label.contains("voluntary")), "{:?}", d.options);
    choose(&mut g, &format!("target:{csa}"));
    choose(&mut g, &format!("unit:{WV1}"));
    choose(&mut g, &format!("unit:{WV4}"));
    choose(&mut g, "declare");
    choose(&mut g, "done");
    let d = g.pending().expect("Defensive Fire is offered first (SR 11.3a)");
    assert_eq!((d.kind.as_str(), d.side.as_str()), ("defensive-fire", "confederate"));
    choose(&mut g, "hold");
    let Pending::Roll(r) = g.rules_pending() else { panic!("the d66 is due: {:?}", g.state().stage) };
    assert_eq!(r.side, "union", "the attacker rolls (SR 11.3d)");
    assert!(r.purpose.contains("7 SP in the Assaulting Hex"), "{}", r.purpose);
    assert!(r.purpose.contains("column 6-7"), "{}", r.purpose);
    assert!(r.purpose.contains("defender above a Slope -2 [EX 11.3c x]"), "{}", r.purpose);
    assert!(r.purpose.contains("Lead Unit's CR above the best attacker's -1 [EX 11.3c ix]"), "{}", r.purpose);
    assert!(r.purpose.contains("→ 3; Lead Unit CR 4"), "{}", r.purpose);
    dice(&mut g, &[5, 2]);
    let logged = g.state().log.iter().rev().find(|e| e.roll.is_some()).expect("the d66 logged").text.clone();
    assert!(logged.contains("column 3, roll 52: - | 0 | 1-3"), "{logged}");
    assert!(logged.contains("a Close Fight Close Combat Cohesion Test"), "{logged}");
    dice(&mut g, &[5, 3]);
    let Pending::Roll(r) = g.rules_pending() else { panic!("the 4th WV's Break Test") };
    assert_eq!(r.side, "union", "the owner rolls the Break Test (SR 12.6)");
    assert!(r.purpose.contains(WV4), "{}", r.purpose);
    dice(&mut g, &[1]);
    let Pending::Roll(r) = g.rules_pending() else { panic!("the 36th VA's Break Test") };
    assert_eq!(r.side, "confederate");
    assert!(r.purpose.contains(VA36), "{}", r.purpose);
    dice(&mut g, &[4]);
    assert_eq!(morale(&g, WV4), (2, true), "4th WV: Shaken by its Break Test, then Disrupted by the AMH");
    assert_eq!(morale(&g, VA36), (1, true), "36th VA: 4 against CR 4 holds, Shaken (SR 12.6, ruling A-46)");
    assert_eq!(morale(&g, WV1), (0, true), "1st WV untouched");
    assert_eq!(morale(&g, NC69), (0, true), "69th NC untouched");
    let s = g.state();
    assert!(s.log.iter().any(|e| e.text.contains("Depletion \"BD*\", Skedaddle \"AMH\"")), "the test is logged");
    assert_eq!(s.hex_of(s.unit_index(WV4).expect("4th WV")), Some(usa), "nobody retreats");
    assert!(
        !matches!(s.stage, Stage::CloseCombat { .. } | Stage::Aftermath { .. } | Stage::Advance { .. }),
        "the activation is over: {:?}",
        s.stage
    );
    g.check().expect("the state holds after the combat");
}

/// SR 11.2: attacking is voluntary; "no Close Combat" ends the activation with nobody hurt.
#[test]
fn sr_11_2_close_combat_is_voluntary() {
    let (mut g, _, _) = example();
    choose(&mut g, "done");
    choose(&mut g, "done");
    assert!(g.state().log.iter().any(|e| e.text == "No Close Combat"));
    assert!(!matches!(g.state().stage, Stage::CloseDeclare { .. } | Stage::CloseCombat { .. }));
    assert_eq!(morale(&g, VA36), (0, true));
}

/// SR 11.2: a unit that is not adjacent to the target is not offered, and naming it is refused.
#[test]
fn sr_11_2_only_adjacent_units_attack() {
    let (mut g, _, csa) = example();
    choose(&mut g, "done");
    choose(&mut g, &format!("target:{csa}"));
    assert!(g.choose("unit:c-6tn").is_err(), "an enemy unit cannot attack");
    assert!(g.choose("target:0101").is_err());
}

trait RulesPending {
    fn rules_pending(&self) -> Pending;
}

impl RulesPending for Game<BlindSwords> {
    fn rules_pending(&self) -> Pending {
        caisson_kernel::Rules::pending(self.rules(), self.state())
    }
}

/// SR 12.2c "RA#", 12.7: the same attack, a Close Fight whose test reads coloured 2 ("-") and
/// white 6 ("MH RA1"): the 36th VA is Shaken, both defenders retreat one hex (their owner
/// picking among equal paths), and the attackers, offered a one-hex advance into the emptied
/// hex, move the 1st WV in.
#[test]
fn sr_12_7_advance_after_the_defenders_retreat() {
    let (mut g, usa, csa) = example();
    for id in ["done".to_string(), format!("target:{csa}"), format!("unit:{WV1}"), format!("unit:{WV4}")] {
        choose(&mut g, &id);
    }
    choose(&mut g, "declare");
    choose(&mut g, "done");
    choose(&mut g, "hold");
    dice(&mut g, &[5, 2]);
    dice(&mut g, &[2, 6]);
    while let Some(d) = g.pending().filter(|d| d.kind == "retreat") {
        assert_eq!(d.side, "confederate");
        let id = d.options[0].id.clone();
        choose(&mut g, &id);
    }
    let map = &g.rules().data().map;
    for id in [VA36, NC69] {
        let s = g.state();
        let h = s.hex_of(s.unit_index(id).expect(id)).expect("on the map");
        assert_eq!(map.distance(csa, h), 1, "{id} retreated one hex");
    }
    assert_eq!(morale(&g, VA36), (1, true), "the Lead Unit's MH");
    let d = g.pending().expect("the advance");
    assert_eq!((d.kind.as_str(), d.side.as_str()), ("advance", "union"));
    assert!(d.prompt.contains(&format!("into {csa} (up to 1 hexes")), "{}", d.prompt);
    choose(&mut g, &format!("unit:{WV1}"));
    choose(&mut g, "done");
    let s = g.state();
    assert_eq!(s.hex_of(s.unit_index(WV1).expect("1st WV")), Some(csa), "advanced (SR 12.7)");
    assert_eq!(s.hex_of(s.unit_index(WV4).expect("4th WV")), Some(usa), "stayed");
    assert!(s
        .log
        .iter()
        .any(|e| e.text == format!("123IL advances into {csa}") && e.rule.as_deref() == Some("SR 12.7")));
    g.check().expect("the state holds after the advance");
}
