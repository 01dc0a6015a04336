//! EX 16.4g in play: a unit whose retreat can only leave the map counts as exited when it leaves
//! from an exit hex at a time the exit counts (ruling PG34), with its victory count; otherwise it
//! goes to Broken Box 1 as anywhere else (EX 12.3, ruling PC10).

mod common;
use common::{one_retreat, set};

use caisson_blindswords::catalog::{Side, UnitType};
use caisson_blindswords::sequence;
use caisson_blindswords::setup::Data;
use caisson_blindswords::special;
use caisson_blindswords::state::{Place, State};
use caisson_blindswords::BlindSwords;
use caisson_hexmap::Hex;
use caisson_kernel::Rules;

/// Whether the regiment went to Broken Box 1 off the map (the game may then run on to End Turn,
/// where the track moves it on to Available).
fn broke_off_the_map(state: &State, reb: usize) -> bool {
    let name = &state.units[reb].name;
    matches!(state.units[reb].place, Place::Broken(0 | 1))
        && state.log.iter().any(|e| e.text == format!("{name} retreats off the map: Broken Box 1"))
}

/// Scenario 16.4 on `turn` with every unit off the map; a Confederate regiment in `at` must
/// retreat 1 hex, every neighbour of `at` in the area holding a Union regiment (and `extra`
/// Union units placed as given). Returns the state after the retreat and the regiment.
fn retreat_from(at: Hex, turn: u16, extra: &[Hex]) -> (BlindSwords, State, usize) {
    let (rules, mut state) = BlindSwords::new(Data::builtin().expect("built-in data"), "pv-16-4").expect("scenario");
    for u in &mut state.units {
        u.place = Place::Eliminated;
    }
    state.turn = turn;
    let map = &rules.data().map;
    let area = rules.scenario().area.clone();
    let of = |side: Side| -> Vec<String> {
        let inf = |u: &&caisson_blindswords::state::UnitState| u.side == side && u.ty == UnitType::Infantry;
        state.units.iter().filter(inf).map(|u| u.id.clone()).collect()
    };
    let (union, csa) = (of(Side::Union), of(Side::Confederate));
    let reb = set(&rules, &mut state, &csa[0], at, false);
    let ring: Vec<Hex> = map.neighbors(at).map(|(_, n)| n).filter(|n| area.contains(*n)).collect();
    assert!(ring.len() < 6, "{at} is a map edge hex");
    let mut first = None;
    for (id, h) in union.iter().zip(ring.iter().chain(extra)) {
        first.get_or_insert(set(&rules, &mut state, id, *h, false));
    }
    let firer = first.expect("a neighbour");
    state.stage = one_retreat(Side::Union, firer, reb, at, 1);
    sequence::advance(&rules, &mut state);
    (rules, state, reb)
}

/// EX 16.4g: from 6 PM (turn 11), a Confederate regiment in 4009 with no retreat on the map
/// leaves the map there and counts as exited: it is out of play, not on the Broken Track, and
/// the victory count has it.
#[test]
fn ex_16_4g_retreat_off_an_exit_hex_counts_as_exited() {
    let (rules, state, reb) = retreat_from(Hex::new(40, 9), 11, &[]);
    assert_eq!(state.units[reb].place, Place::Exited, "exited, not Broken Box 1");
    assert_eq!(special::exits(&state), [0, 1], "one Confederate exit");
    let name = &state.units[reb].name;
    assert!(
        state.log.iter().any(|e| e.text == format!("{name} retreats off the map from 4009: it counts as exited")
            && e.rule.as_deref() == Some("EX 16.4g")),
        "logged with its rule"
    );
    rules.check(&state).expect("the state holds");
}

/// EX 16.4g: before 6 PM the same retreat is an ordinary one off the map, Broken Box 1 (EX 12.3).
#[test]
fn ex_16_4g_retreat_off_the_map_before_6_pm_breaks() {
    let (rules, state, reb) = retreat_from(Hex::new(40, 9), 10, &[]);
    assert!(broke_off_the_map(&state, reb), "{:?}", state.units[reb].place);
    assert_eq!(special::exits(&state), [0, 0]);
    rules.check(&state).expect("the state holds");
}

/// EX 16.4g: while Union troops hold 4009 no Confederate exit counts, a retreat off the map from
/// 4008 included; far from the exit hexes, none ever does.
#[test]
fn ex_16_4g_no_confederate_exit_while_the_union_holds_4009_nor_away_from_the_exits() {
    let (_, state, reb) = retreat_from(Hex::new(40, 8), 11, &[]);
    assert!(
        state.units.iter().any(|u| u.side == Side::Union && u.place == Place::Map(Hex::new(40, 9))),
        "4009 is one of 4008's neighbours, held by the Union"
    );
    assert!(broke_off_the_map(&state, reb), "{:?}", state.units[reb].place);
    assert_eq!(special::exits(&state), [0, 0]);
    let (_, state, reb) = retreat_from(Hex::new(40, 13), 11, &[]);
    assert!(broke_off_the_map(&state, reb), "4013 is no exit hex");
    assert_eq!(special::exits(&state), [0, 0]);
}
