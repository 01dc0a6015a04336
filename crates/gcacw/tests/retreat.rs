//! Retreats (GCACW 7.6): priorities, lengths, surrender and the one override.

use caisson_gcacw::registry::hsn;
use caisson_gcacw::retreat::{steps, Retreat, RetreatKind};
use caisson_gcacw::{Gcacw, Settings, Side};
use caisson_hexmap::Hex;

fn h(s: &str) -> Hex {
    s.parse().expect("hex")
}

/// The Combat Example's rout (digest T5): Wagner routs from 4610 away from Brown in 4611; with
/// nobody about, every hex on the way is one more distant from 4611, so each step is taken at
/// the best priority available and costs nothing, and four hexes may end it.
#[test]
fn a_rout_in_the_open_moves_away_at_the_best_priority() {
    let (rules, mut state) = Gcacw::new(hsn().expect("data"), "hsn-1", Settings::default()).expect("hsn-1");
    let wagner = rules.unit_by_id("wagner").expect("wagner");
    state.units[wagner].hex = Some(h("4610"));
    let mut r = Retreat {
        side: Side::Union,
        units: vec![wagner],
        start: h("4610"),
        enemy: h("4611"),
        kind: RetreatKind::Rout,
        path: Vec::new(),
        override_used: false,
    };
    for n in 1..=4 {
        let options = steps(&rules, &state, &r);
        assert!(!options.is_empty(), "step {n}: somewhere to go");
        let best = options.iter().map(|s| s.row.priority).min().expect("a priority");
        assert!(options.iter().all(|s| s.row.priority == best), "only the lowest priority is offered");
        let at = r.at();
        let pick = options.iter().find(|s| s.hex.distance(r.enemy) > at.distance(r.enemy)).expect("a farther hex");
        assert_eq!(pick.loss, 0, "moving away in the open costs nothing");
        r.path.push(pick.hex);
        state.units[wagner].hex = Some(pick.hex);
        assert_eq!(r.may_stop(&rules, &state), n >= 4, "a rout may stop after four hexes");
    }
    assert_eq!(r.at().distance(h("4611")), 5);
}

/// A stack hemmed in by the enemy on every side can only go through an enemy-occupied hex,
/// Retreat Priority #5, at three Manpower a unit (GCACW 7.6).
#[test]
fn a_surrounded_stack_can_only_pass_through_the_enemy() {
    let (rules, mut state) = Gcacw::new(hsn().expect("data"), "hsn-1", Settings::default()).expect("hsn-1");
    let cox = rules.unit_by_id("cox").expect("cox");
    let at = h("3012");
    state.units[cox].hex = Some(at);
    let confederates: Vec<usize> =
        (0..state.units.len()).filter(|&u| rules.unit_side(&state, u) == Side::Confederate).collect();
    // Enemy units on five neighbours; the sixth is the attacker's hex.
    let around: Vec<Hex> = rules.map().neighbors(at).map(|(_, n)| n).collect();
    for (u, hex) in confederates.iter().zip(&around) {
        state.units[*u].hex = Some(*hex);
    }
    let r = Retreat {
        side: Side::Union,
        units: vec![cox],
        start: at,
        enemy: around[0],
        kind: RetreatKind::Retreat,
        path: Vec::new(),
        override_used: false,
    };
    let options = steps(&rules, &state, &r);
    assert!(!options.is_empty(), "some enemy hex is not closer to the attacker");
    for s in &options {
        assert_eq!((s.row.priority, s.loss), (5, 3), "{} is enemy-occupied", s.hex);
        assert!(around.contains(&s.hex) && s.hex != around[0]);
    }
}
