//! Artillery fire played through the engine with manual dice (SR 6.2, 9.3, 12.1): the target
//! offered with its preview, the d66 logged with the chart cell, and the Fire Combat Cohesion
//! Test's result written back to the state.

mod common;
use common::{manual_game, set, town_and_battery_hex};

use caisson_blindswords::catalog::Side;
use caisson_blindswords::cohesion::{fire_test, CombatUnit, FireTest, Stack};
use caisson_blindswords::setup::Data;
use caisson_blindswords::state::{Place, Stage};
use caisson_blindswords::BlindSwords;
use caisson_hexmap::Hex;
use caisson_kernel::Game;

/// Bush and Stone's battery (R guns, Battleworn: 3 SP) three hexes from the 41st Georgia (CR 4)
/// in Perryville, everyone else off the map, at the start of the Union Artillery Step.
fn duel() -> (Game<BlindSwords>, Hex) {
    let (rules, mut state) = BlindSwords::new(Data::builtin().expect("built-in data"), "pv-16-1").expect("scenario");
    let (town, from) = town_and_battery_hex(&rules);
    for u in &mut state.units {
        u.place = Place::Eliminated;
    }
    set(&rules, &mut state, "u-bush-stone-art", from, true);
    set(&rules, &mut state, "c-41ga", town, false);
    for b in &mut state.brigades {
        b.on_hold = false;
    }
    state.stage = Stage::Artillery { side: Side::Union, passes: 0 };
    (manual_game(rules, state), town)
}

fn dice(g: &mut Game<BlindSwords>, faces: &[u8]) {
    for f in faces {
        g.choose(&format!("die:{f}")).unwrap_or_else(|e| panic!("die {f}: {e}"));
    }
}

/// SR 9.3 fire example, as far as artillery can play it: 3 SP shifted two columns left fire on
/// "1" (here the shifts come from Perryville, EX 9.3 ii, as in tests/fire.rs); the roll 62 reads
/// `- | 0-1 | 2-4`, and a Lead Unit of modified CR 3 (the 41st Georgia's 4, unsupported in town,
/// EX 12.4 iv) takes a Routine Fire Combat Cohesion Test, whose result lands on the state.
#[test]
fn sr_9_3_artillery_fire_through_the_engine() {
    let (mut g, town) = duel();
    g.check().expect("the set-up holds");
    let d = g.pending().expect("the Artillery Step");
    let fire = d
        .options
        .iter()
        .find(|c| c.id == format!("fire:u-bush-stone-art@{town}"))
        .unwrap_or_else(|| panic!("no fire at {town} in {:?}", d.options));
    assert!(fire.label.contains("3 SP, column 3"), "{}", fire.label);
    assert!(fire.label.contains("target in town -2 [EX 9.3 ii]"), "{}", fire.label);
    assert!(fire.label.ends_with("→ 1"), "{}", fire.label);
    let id = fire.id.clone();
    g.choose(&id).expect("fire");
    assert!(matches!(g.state().stage, Stage::FireRoll { .. }), "{:?}", g.state().stage);
    dice(&mut g, &[6, 2]);
    let logged = g.state().log.iter().rev().find(|e| e.roll.is_some()).expect("the d66 logged").text.clone();
    assert!(logged.contains("column 1, roll 62: - | 0-1 | 2-4"), "{logged}");
    assert!(logged.contains("Lead Unit CR 3 takes a Routine"), "{logged}");

    // The Routine test with coloured 6, white 6 and any Break Test dice (all 1s), against the
    // pure procedure given the same dice.
    dice(&mut g, &[6, 6]);
    let mut faces: Vec<u8> = Vec::new();
    while matches!(g.state().stage, Stage::FireTest { .. }) && faces.len() < 4 {
        faces.push(1);
        dice(&mut g, &[1]);
    }
    // White 6 orders a retreat (SR 12.3): the owner picks among equal paths if there are several.
    if let Some(d) = g.pending().filter(|d| d.kind == "retreat") {
        let id = d.options[0].id.clone();
        g.choose(&id).expect("a retreat path");
    }
    let rules = g.rules();
    let ga = CombatUnit::from_catalog(rules.data().catalog.unit("c-41ga").expect("41GA"));
    let test = FireTest {
        section: caisson_blindswords::charts::Section::Routine,
        target: Stack { units: vec![ga], allows_support: false },
        lead: 0,
        opportunity: false,
        second: None,
    };
    let outcome = fire_test(&rules.data().charts, &test, 6, 6, &faces).unwrap_or_else(|n| panic!("{n}"));
    let s = g.state();
    let i = s.unit_index("c-41ga").expect("41GA");
    let after = &outcome.target.units[0];
    assert_eq!(s.units[i].battleworn, after.battleworn);
    assert_eq!(s.units[i].morale_hits, after.morale.penalty());
    assert_eq!(s.units[i].sp_halves, after.face().sp.halves());
    assert!(s.log.iter().any(|e| e.text.starts_with("Cohesion Test at")), "the test is logged");
    let b = s.unit_index("u-bush-stone-art").expect("battery");
    assert!(s.units[b].acted, "the battery has acted (SR 6.1)");
    // SR 6.3: the step passes on; no Confederate battery is left, so the phase runs on.
    assert!(
        !matches!(s.stage, Stage::FireLead { .. } | Stage::FireRoll { .. } | Stage::FireTest { .. }),
        "{:?}",
        s.stage
    );
    g.check().expect("the state holds after the fire");
}

/// SR 6.2, 9.1c: a target beyond the guns' reach is not offered, and choosing it is refused.
#[test]
fn out_of_reach_target_is_refused() {
    let (mut g, town) = duel();
    let d = g.pending().expect("the Artillery Step");
    let far = Hex::new(town.col, town.row.saturating_add(30));
    assert!(!d.options.iter().any(|c| c.id.ends_with(&format!("@{far}"))));
    assert!(g.choose(&format!("fire:u-bush-stone-art@{far}")).is_err());
    assert!(matches!(g.state().stage, Stage::Artillery { .. }));
}
