//! HSN Scenario 7 movement restrictions: the closed strip south of the Harpeth (Common Movement
//! Restriction), Wood's divisions on Turn 1 (Union Movement Restriction), Ross and Forrest until
//! Columbia (Confederate Movement Restriction; Forrest and Ross).

mod common;
use caisson_gcacw::movement::{step, MoveContext};
use caisson_gcacw::registry::{hsn, notices};
use caisson_gcacw::retreat::{surrender, Retreat, RetreatKind};
use caisson_gcacw::state::State;
use caisson_gcacw::{Gcacw, Settings, Side};
use caisson_hexmap::Hex;
use common::place;

fn h(id: u16) -> Hex {
    Hex::new(i16::try_from(id / 100).expect("column"), i16::try_from(id % 100).expect("row"))
}

/// Sc 7 with every unit off the map, on `turn`.
fn empty(turn: u16) -> (Gcacw, State) {
    let (rules, mut state) = Gcacw::new(hsn().expect("HSN data loads"), "hsn-7", Settings::default()).expect("hsn-7");
    for u in &mut state.units {
        u.hex = None;
    }
    state.turn = turn;
    state.rain = false;
    (rules, state)
}

fn may_enter(rules: &Gcacw, state: &State, u: usize, to: Hex) -> bool {
    let from = state.units[u].hex.expect("on the map");
    step(rules, &MoveContext::new(rules, state, u), from, to, true, false, true).is_some()
}

/// The map's Harpeth (ruling R41): Franklin and Columbia lie south of it; Fort Granger, Brentwood
/// and Nashville north; east of the source the line between hexrows 41 and 42 goes on.
#[test]
fn south_of_the_harpeth() {
    let (rules, _) = empty(1);
    for south in [4010, 1715, 2914, 4126, 4133] {
        assert!(rules.south_of_harpeth(h(south)), "{south} is south of the Harpeth");
    }
    for north in [4111, 4910, 5707, 4226, 4233, 5005] {
        assert!(!rules.south_of_harpeth(h(north)), "{north} is north of the Harpeth");
    }
    let lines = notices("hsn-7").expect("notices");
    assert!(!lines.iter().any(|l| l.contains("Movement Restriction") || l.contains("Forrest and Ross")), "{lines:#?}");
}

/// Common Movement Restriction: neither side enters a hexrow-06-or-less hex south of the Harpeth;
/// north of it the same rows stay open.
#[test]
fn the_strip_south_of_the_harpeth_is_closed() {
    let (rules, state) = empty(2);
    for side in Side::BOTH {
        assert!(rules.prohibited(side, h(3006)), "{side}: 3006");
        assert!(!rules.prohibited(side, h(3007)), "{side}: 3007 (row 07)");
        assert!(!rules.prohibited(side, h(5005)), "{side}: 5005 (north of the Harpeth)");
    }
    let mut state = state;
    let u = place(&rules, &mut state, "kimball", h(3007), 6);
    assert!(!may_enter(&rules, &state, u, h(3006)));
}

/// Union Movement Restriction: on Turn 1 Kimball may not cross the Harpeth from Fort Granger into
/// Franklin, nor attack into it; on Turn 2 he may.
#[test]
fn wood_stays_north_of_the_harpeth_on_turn_1() {
    let (rules, mut state) = empty(1);
    let u = place(&rules, &mut state, "kimball", h(4111), 6);
    let foe = place(&rules, &mut state, "ross", h(4010), 3);
    assert!(rules.barred(&state, u, h(4010), false).is_some());
    assert!(rules.barred(&state, u, h(4010), true).is_some(), "no attack south of the Harpeth either");
    assert!(caisson_gcacw::combat::legal_targets(&rules, &state, u, h(4111), true, &Default::default()).is_empty());
    state.units[foe].hex = None;
    assert!(!may_enter(&rules, &state, u, h(4010)), "Turn 1");
    state.turn = 2;
    assert!(may_enter(&rules, &state, u, h(4010)), "Turn 2");
}

/// Confederate Movement Restriction and Forrest and Ross: Ross may not enter Williamson County
/// nor Maury north of the Duck, and Forrest may not transfer, until Ross enters Columbia.
#[test]
fn ross_and_forrest_until_columbia() {
    let (rules, mut state) = empty(1);
    let ross = place(&rules, &mut state, "ross", h(3915), 3);
    let forrest = rules.leader_by_id("forrest").expect("forrest");
    state.leaders[forrest].with = Some(ross);
    assert_eq!(rules.map().county(h(4010)), Some("Williamson"));
    assert!(rules.barred(&state, ross, h(4010), false).is_some(), "Williamson County");
    assert!(rules.barred(&state, ross, h(2914), false).is_some(), "Spring Hill: Maury north of the Duck");
    assert!(rules.barred(&state, ross, h(1715), false).is_none(), "Columbia itself is open");
    assert!(rules.pinned(&state, forrest).is_some());

    rules.relocate(&mut state, ross, h(1715));
    assert!(rules.barred(&state, ross, h(4010), false).is_none(), "lifted in Columbia");
    assert!(rules.pinned(&state, forrest).is_none());
    assert!(state.log.iter().any(|e| e.text.contains("is lifted")));
}

/// Forrest and Ross: Ross eliminated before reaching Columbia takes Forrest out of the game.
#[test]
fn forrest_leaves_with_ross() {
    let (rules, mut state) = empty(1);
    let ross = place(&rules, &mut state, "ross", h(3915), 1);
    place(&rules, &mut state, "biffle", h(3916), 2);
    let forrest = rules.leader_by_id("forrest").expect("forrest");
    state.leaders[forrest].with = Some(ross);
    rules.lose_manpower(&mut state, ross, 1, caisson_gcacw::state::LossCause::Combat, "test", "GCACW 7.5");
    assert_eq!(state.leaders[forrest].with, None, "not moved to Biffle: removed");
    assert!(state.log.iter().any(|e| e.text.contains("Forrest is removed from the game")));
}

/// Common Movement Restriction: a Union unit whose retreat is stopped by the strip is removed
/// from play with no Manpower loss recorded (no VP); a Confederate one surrenders and its loss
/// counts.
#[test]
fn forced_into_the_strip() {
    for (id, side, counted) in [("kimball", Side::Union, false), ("bate-a", Side::Confederate, true)] {
        let (rules, mut state) = empty(2);
        let u = place(&rules, &mut state, id, h(3007), 4);
        let r = Retreat {
            side,
            units: vec![u],
            start: h(3007),
            enemy: h(3008),
            kind: RetreatKind::Retreat,
            path: Vec::new(),
            override_used: false,
        };
        surrender(&rules, &mut state, &r);
        assert_eq!(state.units[u].hex, None, "{id} leaves the map");
        let scored = state.losses.iter().any(|l| caisson_gcacw::victory::scoring_cause(l.cause));
        assert_eq!(scored, counted, "{id}: scoring loss recorded = {counted}: {:?}", state.losses);
    }
}

/// The march's map of barred hexes (`barred_hexes`, read by every step) says, hex by hex, what
/// `barred` says: for Ross before and after Columbia, for Kimball on Turns 1 and 2, and for a unit
/// no restriction names (an empty map: nothing barred).
#[test]
fn the_barred_map_of_a_march_agrees_with_barred_hex_by_hex() {
    let (rules, mut state) = empty(1);
    let ross = place(&rules, &mut state, "ross", h(3915), 3);
    let kimball = place(&rules, &mut state, "kimball", h(4111), 6);
    let clayton = place(&rules, &mut state, "clayton", h(2014), 6);
    let agrees = |state: &State, u: usize| {
        let map = rules.map();
        let barred = rules.barred_hexes(state, u);
        let count = barred.iter().filter(|&&b| b).count();
        for hex in map.hexes() {
            let i = map.index(hex).expect("a map hex");
            assert_eq!(barred.get(i).copied().unwrap_or(false), rules.barred(state, u, hex, false).is_some(), "{hex}");
        }
        count
    };
    assert!(agrees(&state, ross) > 100, "Williamson County and Maury north of the Duck");
    assert!(agrees(&state, kimball) > 0, "south of the Harpeth on Turn 1");
    assert_eq!(agrees(&state, clayton), 0);
    assert!(rules.barred_hexes(&state, clayton).is_empty());
    state.turn = 2;
    assert_eq!(agrees(&state, kimball), 0, "Turn 2");
    rules.relocate(&mut state, ross, h(1715));
    assert_eq!(agrees(&state, ross), 0, "lifted in Columbia");
}
