//! The held events that fire (`events.toml`, reconstructed, ruling A-10; ruling PC34), played
//! through the engine with manual dice: Firefight and Sharpshooters.

use caisson_blindswords::catalog::Side;
use caisson_blindswords::registry::SYSTEM;
use caisson_blindswords::sequence;
use caisson_blindswords::setup::Data;
use caisson_blindswords::state::{Place, Stage, State};
use caisson_blindswords::BlindSwords;
use caisson_hexmap::{Hex, Hexside, TacticalTerrain};
use caisson_kernel::{DiceMode, Game, Setup};

/// A clear hex of the area whose every hex within two is clear, in the area, with no hexside
/// feature; and a hex one and a hex two away from it.
fn open_ground(rules: &BlindSwords) -> (Hex, Hex, Hex) {
    let map = &rules.data().map;
    let area = &rules.scenario().area;
    let c = map
        .hexes()
        .filter(|c| area.contains(*c))
        .find(|c| {
            let near: Vec<Hex> = map.hexes().filter(|h| map.distance(*h, *c) <= 2).collect();
            near.len() == 19
                && near.iter().all(|h| {
                    area.contains(*h)
                        && map.tactical(*h) == Some(TacticalTerrain::Clear)
                        && map.neighbors(*h).all(|(_, n)| map.hexside(*h, n) == Hexside::NONE)
                })
        })
        .expect("open ground");
    let one = map.neighbors(c).map(|(_, n)| n).next().expect("a neighbour");
    let two = map.hexes().find(|h| map.distance(*h, c) == 2 && map.distance(*h, one) == 3).expect("two off");
    (c, one, two)
}

/// Pv-16-1 with the map empty, every brigade released, one chit (Rally) in the cup, and `chit` in
/// the hand of `side`, whose held-chit play is open.
fn board(chit: &str, side: Side) -> (BlindSwords, State) {
    let (rules, mut state) = BlindSwords::new(Data::builtin().expect("built-in data"), "pv-16-1").expect("scenario");
    for u in &mut state.units {
        u.place = Place::Eliminated;
        u.on_hold = false;
        u.skirmish = false;
    }
    for b in &mut state.brigades {
        b.on_hold = false;
    }
    state.to_place.clear();
    let c = &mut state.chits;
    let cup = std::mem::take(&mut c.cup);
    c.out.extend(cup);
    c.key = [None, None];
    for id in [chit, "u-rally"] {
        c.out.retain(|x| x != id);
        for h in &mut c.held {
            h.retain(|x| x != id);
        }
    }
    c.cup.push("u-rally".into());
    c.held[caisson_blindswords::state::ix(side)].push(chit.into());
    state.stage = Stage::HeldChits { side, passes: 0 };
    (rules, state)
}

fn put(state: &mut State, id: &str, hex: Hex) -> usize {
    let i = state.unit_index(id).unwrap_or_else(|| panic!("no unit {id}"));
    state.units[i].place = Place::Map(hex);
    i
}

fn game(rules: BlindSwords, mut state: State) -> Game<BlindSwords> {
    sequence::advance(&rules, &mut state);
    let setup =
        Setup { system: SYSTEM.into(), scenario: "pv-16-1".into(), seed: 1, dice: DiceMode::Manual, options: vec![] };
    let g = Game::new(rules, state, setup);
    g.check().expect("the set-up holds");
    g
}

fn options(g: &Game<BlindSwords>) -> Vec<(String, String)> {
    g.pending().map(|d| d.options.into_iter().map(|c| (c.id, c.label)).collect()).unwrap_or_default()
}

fn dice(g: &mut Game<BlindSwords>, faces: &[u8]) {
    for f in faces {
        g.choose(&format!("die:{f}")).unwrap_or_else(|e| panic!("die {f}: {e}"));
    }
}

/// Firefight (Union): played before a draw, the 123rd Illinois, next to the 41st Georgia, fires
/// at it as in a Fire Combat Step; the chit is discarded and the draw follows. Not playable with
/// no unit next to the enemy.
#[test]
fn firefight_fires_from_a_hex_next_to_the_enemy() {
    let (rules, mut state) = board("u-firefight", Side::Union);
    let (c, one, two) = open_ground(&rules);
    put(&mut state, "u-123il", c);
    put(&mut state, "c-41ga", two);
    let far = game(rules.clone(), state.clone());
    assert!(!options(&far).iter().any(|(id, _)| id == "play:u-firefight"), "no enemy adjacent: {:?}", options(&far));
    put(&mut state, "c-41ga", one);
    let mut g = game(rules, state);
    assert!(options(&g).iter().any(|(id, _)| id == "play:u-firefight"), "{:?}", options(&g));
    g.choose("play:u-firefight").expect("play");
    let d = g.pending().expect("the event's fire");
    assert_eq!((d.side.as_str(), d.kind.as_str()), ("union", "event-fire"));
    let fire = format!("fire:u-123il@{one}");
    let ids: Vec<String> = d.options.iter().map(|c| c.id.clone()).collect();
    assert_eq!(ids, vec![fire.clone()], "one hex next to the enemy, at an adjacent hex only");
    g.choose(&fire).expect("fire");
    dice(&mut g, &[1, 1]);
    let s = g.state();
    assert!(s.log.iter().any(|e| e.text.starts_with("123IL fires at") && e.roll.is_some()), "the d66 logged");
    assert!(s.chits.played.contains(&"u-firefight".to_string()) && s.chits.held[0].is_empty());
    assert!(s.volley.is_none());
    let d = g.pending().expect("the next draw");
    assert!(d.prompt.contains("draw from the cup"), "{}", d.prompt);
    g.check().expect("the state holds");
}

/// Sharpshooters (Confederate): one infantry unit fires at an enemy within its Effective range
/// (smoothbores: 1 hex) one column right, itemised in the preview and on the roll; a target at
/// Long range is not offered.
#[test]
fn sharpshooters_fire_one_column_right_within_effective_range() {
    let (rules, mut state) = board("c-sharpshooters", Side::Confederate);
    let (c, one, two) = open_ground(&rules);
    put(&mut state, "c-41ga", c);
    put(&mut state, "u-123il", two);
    let far = game(rules.clone(), state.clone());
    assert!(!options(&far).iter().any(|(id, _)| id == "play:c-sharpshooters"), "Long range only: {:?}", options(&far));
    put(&mut state, "u-2oh", one);
    let mut g = game(rules, state);
    g.choose("play:c-sharpshooters").expect("play");
    let opts = options(&g);
    let fire = format!("fire:c-41ga@{one}");
    assert_eq!(opts.iter().map(|(id, _)| id.clone()).collect::<Vec<_>>(), vec![fire.clone()], "{opts:?}");
    let label = &opts[0].1;
    assert!(
        label.contains("7 SP, column 6-7 Sharpshooters +1 [events.toml (reconstructed, ruling A-10)] → 8-9"),
        "{label}"
    );
    g.choose(&fire).expect("fire");
    let d = g.pending().expect("the d66");
    assert!(d.prompt.contains("on column 8-9"), "{}", d.prompt);
    dice(&mut g, &[1, 1]);
    assert!(g.state().chits.played.contains(&"c-sharpshooters".to_string()));
    g.check().expect("the state holds");
}

/// A Confederate infantry unit of another brigade than the 41st Georgia's.
fn other_rebel(state: &State) -> String {
    let ga = state.unit_index("c-41ga").expect("41GA");
    state
        .units
        .iter()
        .find(|u| {
            u.side == Side::Confederate
                && u.ty == caisson_blindswords::catalog::UnitType::Infantry
                && u.brigade.is_some()
                && u.brigade != state.units[ga].brigade
        })
        .map(|u| u.id.clone())
        .expect("another brigade")
}

/// Firing on Friends (Union, EX 16.1g and events.toml, ruling PC35): two Confederate units of
/// different brigades side by side; the Union player picks which fires at which, rolls the
/// d66, and the Confederate owner is the one tested.
#[test]
fn firing_on_friends_turns_enemy_fire_on_its_own() {
    let (rules, mut state) = board("u-firing-on-friends", Side::Union);
    let (c, one, _) = open_ground(&rules);
    let other = other_rebel(&state);
    put(&mut state, "c-41ga", c);
    let mut g = game(rules.clone(), state.clone());
    assert!(!options(&g).iter().any(|(id, _)| id == "play:u-firing-on-friends"), "{:?}", options(&g));
    put(&mut state, &other, one);
    g = game(rules, state);
    g.choose("play:u-firing-on-friends").expect("play");
    let d = g.pending().expect("the event's fire");
    assert_eq!((d.side.as_str(), d.kind.as_str()), ("union", "event-fire"));
    let mut ids: Vec<String> = d.options.iter().map(|c| c.id.clone()).collect();
    ids.sort();
    let mut want = vec![format!("fire:c-41ga@{one}"), format!("fire:{other}@{c}")];
    want.sort();
    assert_eq!(ids, want);
    g.choose(&format!("fire:c-41ga@{one}")).expect("fire");
    let d = g.pending().expect("the d66");
    assert_eq!(d.side, "union", "the event's player rolls");
    dice(&mut g, &[6, 6]);
    let s = g.state();
    assert!(s.log.iter().any(|e| e.text.starts_with("41GA fires at") && e.roll.is_some()));
    assert!(matches!(s.stage, Stage::FireTest { .. }), "66 on column 6-7 calls a test: {:?}", s.stage);
    assert_eq!(g.pending().map(|d| d.side).as_deref(), Some("confederate"), "the tested unit's owner rolls its test");
    assert!(s.chits.played.contains(&"u-firing-on-friends".to_string()));
    g.check().expect("the state holds");
}

/// EX 16.1g: on a night turn Firing on Friends may also be played when enemy units are next to
/// the player's own units of another brigade; by day it may not.
#[test]
fn firing_on_friends_at_night_also_at_the_players_units() {
    use caisson_blindswords::special::Options;
    let night = Options { night: true, ..Options::default() };
    let (_, mut state) = board("u-firing-on-friends", Side::Union);
    let (rules, _) =
        BlindSwords::with_options(Data::builtin().expect("data"), "pv-16-1", night).expect("scenario with night");
    let (c, one, _) = open_ground(&rules);
    put(&mut state, "c-41ga", c);
    put(&mut state, "u-2oh", one);
    let day = game(rules.clone(), state.clone());
    assert!(!options(&day).iter().any(|(id, _)| id == "play:u-firing-on-friends"), "by day");
    state.turn = rules.scenario().turns + 1;
    let mut g = game(rules, state);
    g.choose("play:u-firing-on-friends").expect("play at night");
    let ids: Vec<String> = g.pending().expect("the fire").options.into_iter().map(|c| c.id).collect();
    assert_eq!(ids, vec![format!("fire:c-41ga@{one}")]);
}

/// Sharpshooters (events.toml, reconstructed): a roll that calls a Routine test gives the Lead
/// Unit one Morale Hit instead, with no test dice. The roll is found by trying every d66.
#[test]
fn sharpshooters_turn_a_routine_test_into_a_morale_hit() {
    let (rules, mut state) = board("c-sharpshooters", Side::Confederate);
    let (c, one, _) = open_ground(&rules);
    put(&mut state, "c-41ga", c);
    let oh = put(&mut state, "u-2oh", one);
    let mut g = game(rules, state);
    g.choose("play:c-sharpshooters").expect("play");
    g.choose(&format!("fire:c-41ga@{one}")).expect("fire");
    let hit = (1..=6)
        .flat_map(|c| (1..=6).map(move |w| (c, w)))
        .find_map(|(c, w)| {
            let mut t = g.clone();
            dice(&mut t, &[c, w]);
            let routine = t.state().log.iter().any(|e| e.roll.is_some() && e.text.contains("takes a Routine"));
            routine.then_some(t)
        })
        .expect("some roll calls a Routine test");
    let s = hit.state();
    assert!(s.log.iter().any(|e| e.text.starts_with("Sharpshooters at")), "the Morale Hit is logged");
    assert!(!s.log.iter().any(|e| e.text.starts_with("Cohesion Test at")), "no Cohesion Test");
    assert_eq!(s.units[oh].morale_hits, 1);
    assert!(!matches!(s.stage, Stage::FireTest { .. }), "no test dice asked: {:?}", s.stage);
    hit.check().expect("the state holds");
}
