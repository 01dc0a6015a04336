//! Held chits, Skirmish Order and cavalry withdrawal played through the engine with manual dice:
//! a held event offered before the next draw and its effect applied (SR 7.1), the Command
//! Confusion example of SR 7.3 (a 1 turns the order into Regroup), Aggressive Leader, taking up
//! and leaving Skirmish Order (EX 15.1), the skirmish screen (EX 15.3) and cavalry withdrawal
//! (SR 10.8).

use caisson_blindswords::catalog::Side;
use caisson_blindswords::charts::Order;
use caisson_blindswords::movement;
use caisson_blindswords::registry::SYSTEM;
use caisson_blindswords::sequence;
use caisson_blindswords::setup::Data;
use caisson_blindswords::state::{Activator, MoveFor, Moving, Place, Stage, State};
use caisson_blindswords::BlindSwords;
use caisson_hexmap::{Hex, TacticalTerrain};
use caisson_kernel::{DiceMode, Game, Rules, Setup};

/// pv-16-1 with every unit off the map and every brigade released, at `stage`.
fn empty() -> (BlindSwords, State) {
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
    let cup = std::mem::take(&mut state.chits.cup);
    state.chits.out.extend(cup);
    state.chits.key = [None, None];
    (rules, state)
}

fn put(state: &mut State, id: &str, hex: Hex) -> usize {
    let i = state.unit_index(id).unwrap_or_else(|| panic!("no unit {id}"));
    state.units[i].place = Place::Map(hex);
    i
}

/// Moves a chit from wherever it is to the hand of `side`, or to the cup (`None`).
fn take_chit(state: &mut State, chit: &str, side: Option<Side>) {
    let c = &mut state.chits;
    c.out.retain(|x| x != chit);
    c.cup.retain(|x| x != chit);
    for h in &mut c.held {
        h.retain(|x| x != chit);
    }
    match side {
        Some(s) => c.held[caisson_blindswords::state::ix(s)].push(chit.to_string()),
        None => {
            c.cup.push(chit.to_string());
            c.cup.sort();
        }
    }
}

fn game(rules: BlindSwords, mut state: State) -> Game<BlindSwords> {
    sequence::advance(&rules, &mut state);
    let setup =
        Setup { system: SYSTEM.into(), scenario: "pv-16-1".into(), seed: 1, dice: DiceMode::Manual, options: vec![] };
    let g = Game::new(rules, state, setup);
    g.check().expect("the set-up holds");
    g
}

fn choose(g: &mut Game<BlindSwords>, id: &str) {
    g.choose(id).unwrap_or_else(|e| panic!("{id}: {e}"));
    g.check().unwrap_or_else(|e| panic!("after {id}: {e}"));
}

fn ids(g: &Game<BlindSwords>) -> Vec<String> {
    g.pending().map(|d| d.options.into_iter().map(|c| c.id).collect()).unwrap_or_default()
}

/// A hex of the play area whose every hex within `r` is clear, in play, with no hexside feature.
fn open_ground(rules: &BlindSwords, r: u16) -> Hex {
    let map = &rules.data().map;
    let area = &rules.scenario().area;
    map.hexes()
        .filter(|c| area.contains(*c))
        .find(|c| {
            let near: Vec<Hex> = map.hexes().filter(|h| map.distance(*h, *c) <= r).collect();
            near.len() > 3 * usize::from(r) * usize::from(r + 1)
                && near.iter().all(|h| {
                    area.contains(*h)
                        && map.tactical(*h) == Some(TacticalTerrain::Clear)
                        && map.neighbors(*h).all(|(_, n)| map.hexside(*h, n) == caisson_hexmap::Hexside::NONE)
                })
        })
        .expect("open ground on the map")
}

/// SR 7.3, 7.1: a Union event drawn from the cup is held, offered before the next draw with "play
/// none", and played: Rally recovers a unit three hexes from the enemy; the chit is discarded
/// and public, the next draw follows.
#[test]
fn sr_7_1_a_held_rally_is_offered_before_the_next_draw() {
    let (rules, mut state) = empty();
    let c = open_ground(&rules, 3);
    let map = &rules.data().map;
    let far = map.hexes().find(|h| map.distance(*h, c) == 3).expect("a hex three off");
    let worn = put(&mut state, "u-123il", c);
    state.units[worn].morale_hits = 1;
    put(&mut state, "c-41ga", far);
    take_chit(&mut state, "u-rally", None);
    take_chit(&mut state, "u-firefight", None);
    state.stage = Stage::Draw;
    let mut g = game(rules, state);
    // The cup is [u-firefight, u-rally]: dice 1 2 pick the second.
    choose(&mut g, "die:1");
    choose(&mut g, "die:2");
    assert_eq!(g.state().chits.held[0], vec!["u-rally".to_string()]);
    let confederate = serde_json::to_string(&g.rules().view(g.state(), Some("confederate"))).unwrap_or_default();
    assert!(!confederate.contains("u-rally"), "the held chit is secret");
    let d = g.pending().expect("the held-chit play");
    assert_eq!(d.kind, "held-chit");
    assert_eq!(d.side, "union");
    assert!(d.prompt.contains("SR 7.1"), "{}", d.prompt);
    assert_eq!(ids(&g), vec!["play:u-rally".to_string(), "none".to_string()]);
    choose(&mut g, "play:u-rally");
    assert_eq!(ids(&g), vec!["rally:u-123il".to_string()]);
    choose(&mut g, "rally:u-123il");
    let s = g.state();
    assert_eq!(s.units[worn].morale_hits, 0);
    assert!(s.chits.held[0].is_empty());
    assert!(s.chits.played.contains(&"u-rally".to_string()));
    let confederate = serde_json::to_string(&g.rules().view(g.state(), Some("confederate"))).unwrap_or_default();
    assert!(confederate.contains("u-rally"), "a played chit is public");
    let d = g.pending().expect("the next draw");
    assert!(d.prompt.contains("draw from the cup (1 chits)"), "{}", d.prompt);
}

/// Declining: both sides pass in succession and the draw follows; a unit within two hexes of
/// the enemy is no Rally target, so the chit is not offered.
#[test]
fn sr_7_1_play_none_and_unplayable_chits() {
    let (rules, mut state) = empty();
    let c = open_ground(&rules, 3);
    let map = &rules.data().map;
    let far = map.hexes().find(|h| map.distance(*h, c) == 3).expect("a hex three off");
    let worn = put(&mut state, "u-123il", c);
    state.units[worn].morale_hits = 2;
    let enemy = put(&mut state, "c-41ga", far);
    take_chit(&mut state, "u-rally", Some(Side::Union));
    take_chit(&mut state, "u-firefight", None);
    state.stage = Stage::Draw;
    let mut g = game(rules.clone(), state.clone());
    choose(&mut g, "none");
    assert_eq!(g.state().stage, Stage::Draw);
    assert_eq!(g.state().units[worn].morale_hits, 2);
    assert!(g.pending().expect("the draw").prompt.contains("draw from the cup"));

    // Within two hexes of the enemy there is nothing to rally: the Union player is still asked
    // (his opponent may not learn which chit he holds, PG19), but may only decline.
    let near = map.hexes().find(|h| map.distance(*h, c) == 2).expect("a hex two off");
    state.units[enemy].place = Place::Map(near);
    let mut g = game(rules, state);
    assert_eq!(ids(&g), vec!["none".to_string()]);
    assert!(g.choose("play:u-rally").is_err(), "not playable now");
    choose(&mut g, "none");
    assert!(g.pending().expect("the draw").prompt.contains("draw from the cup"));
}

/// SR 7.3 example: a brigade receives an Attack order; the other side plays its held Command
/// Confusion and rolls a 1, and the order becomes Regroup (no movement).
#[test]
fn sr_7_3_example_command_confusion_1_is_regroup() {
    let (rules, mut state) = empty();
    let c = open_ground(&rules, 2);
    put(&mut state, "c-41ga", c);
    take_chit(&mut state, "u-command-confusion", Some(Side::Union));
    state.stage = Stage::Orders { brigade: "maney".into(), by: Activator::Command };
    let mut g = game(rules, state);
    choose(&mut g, "order:attack");
    let d = g.pending().expect("Command Confusion offered");
    assert_eq!(d.side, "union");
    assert_eq!(ids(&g), vec!["play:u-command-confusion".to_string(), "none".to_string()]);
    choose(&mut g, "play:u-command-confusion");
    assert!(matches!(g.state().stage, Stage::ConfusionRoll { .. }));
    choose(&mut g, "die:1");
    let s = g.state();
    assert_eq!(s.brigade("maney").and_then(|b| b.order), Some(Order::Regroup));
    assert!(s.chits.played.contains(&"u-command-confusion".to_string()));
    assert!(s
        .log
        .iter()
        .any(|e| e.roll.is_some() && e.text.contains("Command Confusion 1") && e.text.contains("Regroup")));
    assert!(!matches!(s.stage, Stage::Move { .. }), "Regroup does not move");
}

/// Aggressive Leader turns a Confederate Limited Activation (a 6, always Limited, A-01) into a
/// Full one: the Orders Step follows.
#[test]
fn aggressive_leader_makes_a_limited_activation_full() {
    let (rules, mut state) = empty();
    let c = open_ground(&rules, 2);
    put(&mut state, "c-41ga", c);
    take_chit(&mut state, "c-aggressive-leader", Some(Side::Confederate));
    state.chits.out.retain(|x| x != "cheatham");
    state.chits.played.push("cheatham".into());
    if let Some(b) = state.brigade_mut("maney") {
        b.activated = true;
    }
    state.stage = Stage::ActivationRoll { chit: "cheatham".into(), brigade: "maney".into() };
    let mut g = game(rules, state);
    choose(&mut g, "die:6");
    assert_eq!(ids(&g), vec!["play:c-aggressive-leader".to_string(), "none".to_string()]);
    choose(&mut g, "play:c-aggressive-leader");
    assert!(matches!(&g.state().stage, Stage::Orders { brigade, .. } if brigade == "maney"));
}

fn moving(brigade: &str, order: Order) -> Stage {
    Stage::Move {
        for_: MoveFor::Brigade { brigade: brigade.into(), order, by: Activator::Command },
        moved: Vec::new(),
        current: None,
    }
}

/// EX 15.1: a unit takes up Skirmish Order for 2 MP during its move, and leaves it by staying
/// still for a whole later order. Digest §8 T46: with two units of its side already in Skirmish
/// Order a third may not take it up (EX 15.0); entry costs 2 MP; next to the enemy it is refused
/// (`ex_15_1_no_skirmish_order_in_engagement_range`).
#[test]
fn ex_15_1_skirmish_order_taken_for_2_mp_and_left_after_a_still_order() {
    let (rules, mut state) = empty();
    let c = open_ground(&rules, 2);
    let unit = put(&mut state, "u-123il", c);
    state.stage = moving("terrill", Order::Maneuver);

    // T46: two Union skirmishers elsewhere on the map already; a third is not offered.
    let mut two = state.clone();
    let far: Vec<Hex> = {
        let map = &rules.data().map;
        let area = &rules.scenario().area;
        map.hexes().filter(|h| area.contains(*h) && map.distance(*h, c) >= 6).step_by(7).take(2).collect()
    };
    let others: Vec<String> = two
        .units
        .iter()
        .filter(|u| u.side == Side::Union && u.brigade.as_deref() != Some("terrill"))
        .filter(|u| u.ty == caisson_blindswords::catalog::UnitType::Infantry)
        .take(2)
        .map(|u| u.id.clone())
        .collect();
    for (id, h) in others.iter().zip(&far) {
        let i = put(&mut two, id, *h);
        two.units[i].skirmish = true;
    }
    let mut g = game(rules.clone(), two);
    choose(&mut g, "unit:u-123il");
    assert!(!ids(&g).contains(&"skirmish".to_string()), "T46: a third skirmisher (EX 15.0)");
    assert!(g.choose("skirmish").is_err(), "refused when asked for anyway");
    let mut g = game(rules.clone(), state.clone());
    choose(&mut g, "unit:u-123il");
    let d = g.pending().expect("the move");
    let form = d
        .options
        .iter()
        .find(|o| o.id == "skirmish")
        .unwrap_or_else(|| panic!("Skirmish Order offered: {:?}", d.options));
    assert!(form.label.contains("2 MP, 4 left"), "{}", form.label);
    choose(&mut g, "skirmish");
    assert!(g.state().units[unit].skirmish);
    assert!(
        matches!(&g.state().stage, Stage::Move { current: Some(Moving { mp, formed: true, .. }), .. } if (*mp - 4.0).abs() < 1e-9)
    );
    assert!(!ids(&g).contains(&"skirmish".to_string()), "already a skirmisher");
    choose(&mut g, "stop");

    // A later order: staying still for it drops the marker.
    let mut s = g.state().clone();
    s.stage = moving("terrill", Order::Defend);
    let mut g = game(rules, s);
    assert!(ids(&g).contains(&"unform:u-123il".to_string()));
    choose(&mut g, "unform:u-123il");
    let s = g.state();
    assert!(!s.units[unit].skirmish);
    assert!(
        matches!(&s.stage, Stage::Move { moved, .. } if moved.contains(&unit))
            || !matches!(s.stage, Stage::Move { .. })
    );
}

/// EX 15.1: no Skirmish Order next to the enemy (engagement range).
#[test]
fn ex_15_1_no_skirmish_order_in_engagement_range() {
    let (rules, mut state) = empty();
    let c = open_ground(&rules, 2);
    let n = rules.data().map.neighbors(c).next().expect("a neighbour").1;
    put(&mut state, "u-123il", c);
    put(&mut state, "c-41ga", n);
    state.stage = moving("terrill", Order::Attack);
    let mut g = game(rules, state);
    choose(&mut g, "unit:u-123il");
    assert!(!ids(&g).contains(&"skirmish".to_string()));
    assert!(g.choose("skirmish").is_err(), "an option not offered is refused");
}

/// EX 15.3: an enemy moving next to a skirmisher pays 1 MP more, and the skirmisher withdraws
/// at once to a hex away from it and next to no enemy; then the mover goes on. Digest §8 T48,
/// with `ex_15_3_a_surrounded_skirmisher_breaks` (no hex to go to: Broken Box 1) and
/// tests/fire_step.rs `skirmisher_is_not_fired_on` (no Opportunity Fire at a skirmisher).
#[test]
fn ex_15_3_skirmish_screen_costs_1_mp_and_the_skirmisher_withdraws() {
    let (rules, mut state) = empty();
    let map = &rules.data().map;
    let s_hex = open_ground(&rules, 3);
    let start = map.hexes().find(|h| map.distance(*h, s_hex) == 2).expect("two off");
    let target = map
        .neighbors(start)
        .map(|(_, n)| n)
        .find(|n| map.distance(*n, s_hex) == 1)
        .expect("a hex next to the skirmisher");
    let sk = put(&mut state, "c-41ga", s_hex);
    state.units[sk].skirmish = true;
    let mover = put(&mut state, "u-123il", start);
    state.stage = moving("terrill", Order::Attack);
    let plain = movement::cost(&rules, state.units[mover].ty, Some(Order::Attack), false, Some(start), target)
        .expect("enterable")
        .mp;
    let screen = rules.data().charts.terrain.movement().skirmish_screen;
    let mut g = game(rules.clone(), state);
    choose(&mut g, "unit:u-123il");
    let d = g.pending().expect("the move");
    let step = d.options.iter().find(|o| o.id == format!("hex:{target}")).expect("the step offered");
    assert!(step.label.starts_with(&format!("{target}: {} MP", plain + screen)), "{}", step.label);
    assert!(step.label.contains("EX 15.3"), "{}", step.label);
    choose(&mut g, &format!("hex:{target}"));
    let d = g.pending().expect("the withdrawal");
    assert_eq!(d.kind, "withdraw");
    assert_eq!(d.side, "confederate");
    assert!(!d.options.iter().any(|o| o.id == "stay"), "a skirmisher must withdraw");
    let map = &g.rules().data().map;
    for o in &d.options {
        let h: Hex = o.id.trim_start_matches("hex:").parse().expect("a hex");
        assert!(map.distance(h, target) == 2, "{h} is away from {target} and next to no enemy");
    }
    let to = d.options[0].id.clone();
    choose(&mut g, &to);
    let s = g.state();
    assert_eq!(s.units[sk].place, Place::Map(to.trim_start_matches("hex:").parse().expect("hex")));
    assert!(s.units[sk].skirmish);
    match &s.stage {
        Stage::Move { current: Some(m), .. } => {
            assert_eq!(m.unit, mover);
            assert!((m.mp - (4.0 - plain - screen)).abs() < 1e-9, "{} MP left", m.mp);
        }
        other => panic!("the mover goes on, not {other:?}"),
    }
}

/// EX 15.3: a skirmisher with no hex to withdraw to goes to Broken box 1 and loses its marker
/// (digest §8 T48).
#[test]
fn ex_15_3_a_surrounded_skirmisher_breaks() {
    let (rules, mut state) = empty();
    let map = &rules.data().map;
    let s_hex = open_ground(&rules, 3);
    let ring: Vec<Hex> = map.neighbors(s_hex).map(|(_, n)| n).collect();
    let sk = put(&mut state, "c-41ga", s_hex);
    state.units[sk].skirmish = true;
    // Union infantry on five of the six neighbours; the sixth is entered by the mover.
    let union: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.side == Side::Union && u.ty == caisson_blindswords::catalog::UnitType::Infantry)
        .filter(|u| u.brigade.as_deref() != Some("terrill"))
        .take(5)
        .map(|u| u.id.clone())
        .collect();
    for (id, h) in union.iter().zip(&ring[..5]) {
        put(&mut state, id, *h);
    }
    let last = ring[5];
    let start = map.neighbors(last).map(|(_, n)| n).find(|n| map.distance(*n, s_hex) == 2).expect("outside");
    put(&mut state, "u-123il", start);
    state.stage = moving("terrill", Order::Attack);
    let mut g = game(rules, state);
    choose(&mut g, "unit:u-123il");
    choose(&mut g, &format!("hex:{last}"));
    let s = g.state();
    assert_eq!(s.units[sk].place, Place::Broken(1));
    assert!(!s.units[sk].skirmish);
    assert!(s.log.iter().any(|e| e.text.contains("Broken box 1")));
}

/// SR 10.8: enemy infantry coming within two hexes of cavalry lets its owner step it one hex
/// away, or stay; within one hex, a second chance.
#[test]
fn sr_10_8_cavalry_withdraws_at_two_hexes_and_at_one() {
    let (rules, mut state) = empty();
    let map = &rules.data().map;
    let cav_hex = open_ground(&rules, 3);
    let start = map.hexes().find(|h| map.distance(*h, cav_hex) == 3).expect("three off");
    let two = map.neighbors(start).map(|(_, n)| n).find(|n| map.distance(*n, cav_hex) == 2).expect("two off");
    let one = map.neighbors(two).map(|(_, n)| n).find(|n| map.distance(*n, cav_hex) == 1).expect("one off");
    let cav = put(&mut state, "c-2ga-cav", cav_hex);
    put(&mut state, "u-123il", start);
    state.stage = moving("terrill", Order::Attack);
    let mut g = game(rules, state);
    choose(&mut g, "unit:u-123il");
    choose(&mut g, &format!("hex:{two}"));
    let d = g.pending().expect("the withdrawal");
    assert_eq!((d.kind.as_str(), d.side.as_str()), ("withdraw", "confederate"));
    assert!(d.options.iter().any(|o| o.id == "stay"));
    choose(&mut g, "stay");
    assert_eq!(g.state().units[cav].place, Place::Map(cav_hex));
    choose(&mut g, &format!("hex:{one}"));
    let d = g.pending().expect("the second chance");
    let away = d.options.iter().find(|o| o.id.starts_with("hex:")).expect("a hex away").id.clone();
    let h: Hex = away.trim_start_matches("hex:").parse().expect("hex");
    assert!(g.rules().data().map.distance(h, one) == 2);
    choose(&mut g, &away);
    assert_eq!(g.state().units[cav].place, Place::Map(h));
    assert!(matches!(g.state().stage, Stage::Move { current: Some(_), .. }), "the mover goes on");
}

/// EX 15.1 under Regroup (no Movement Step): the brigade's skirmisher may still leave Skirmish
/// Order, having stayed still for the whole order; no unit is offered a move.
#[test]
fn ex_15_1_a_regrouping_skirmisher_may_leave_skirmish_order() {
    let (rules, mut state) = empty();
    let c = open_ground(&rules, 2);
    let unit = put(&mut state, "u-123il", c);
    state.units[unit].skirmish = true;
    state.stage = Stage::Orders { brigade: "terrill".into(), by: Activator::Command };
    let mut g = game(rules, state);
    choose(&mut g, "order:regroup");
    let d = g.pending().expect("the skirmisher's choice");
    assert!(d.prompt.contains("no movement"), "{}", d.prompt);
    assert_eq!(ids(&g), vec!["unform:u-123il".to_string(), "done".to_string()]);
    assert!(g.choose("unit:u-123il").is_err(), "Regroup moves nobody");
    choose(&mut g, "unform:u-123il");
    assert!(!g.state().units[unit].skirmish);
    assert!(!matches!(g.state().stage, Stage::Move { .. }), "nothing more to do");
}

/// Brigade Initiative (EX 7.5c): played before a draw, it fully activates an On Hold brigade on
/// the map, whose units then move; the brigade stays On Hold.
#[test]
fn ex_7_5c_brigade_initiative_moves_an_on_hold_brigade() {
    let (rules, mut state) = empty();
    let c = open_ground(&rules, 2);
    let unit = put(&mut state, "u-123il", c);
    state.units[unit].on_hold = true;
    if let Some(b) = state.brigade_mut("terrill") {
        b.on_hold = true;
    }
    take_chit(&mut state, "u-brigade-initiative", Some(Side::Union));
    take_chit(&mut state, "u-firefight", None);
    state.stage = Stage::Draw;
    let mut g = game(rules, state);
    assert!(ids(&g).contains(&"play:u-brigade-initiative".to_string()));
    choose(&mut g, "play:u-brigade-initiative");
    assert!(ids(&g).contains(&"brigade:terrill".to_string()));
    choose(&mut g, "brigade:terrill");
    choose(&mut g, "order:maneuver");
    assert!(ids(&g).contains(&"unit:u-123il".to_string()), "the On Hold unit may move");
    choose(&mut g, "unit:u-123il");
    let to = ids(&g).into_iter().find(|o| o.starts_with("hex:")).expect("a step");
    choose(&mut g, &to);
    choose(&mut g, "stop");
    let s = g.state();
    assert_eq!(s.units[unit].place, Place::Map(to.trim_start_matches("hex:").parse().expect("hex")));
    let b = s.brigade("terrill").expect("terrill");
    assert!(b.on_hold && !b.activated);
    assert!(s.chits.played.contains(&"u-brigade-initiative".to_string()));
    assert!(s.events.initiative.is_none(), "the initiative ends with the activation");
}

/// Hidden Enemy (EX 5.2, events.toml): played at the start of a Confederate brigade's Movement
/// Step, Union units within two hexes first step one hex towards it, ending Engaged; then its
/// units may not move next to a Union unit; the chit leaves the game.
#[test]
fn ex_5_2_hidden_enemy_keeps_a_brigade_from_union_units_and_is_used_once() {
    let (rules, mut state) = empty();
    let map = &rules.data().map;
    let c = open_ground(&rules, 3);
    let start = map.hexes().find(|h| map.distance(*h, c) == 2).expect("two off");
    put(&mut state, "c-41ga", c);
    let union = put(&mut state, "u-123il", start);
    take_chit(&mut state, "u-hidden-enemy", Some(Side::Union));
    state.stage = Stage::Orders { brigade: "maney".into(), by: Activator::Command };
    let mut g = game(rules, state);
    choose(&mut g, "order:attack");
    // Asked after the order (PG19), with no Command Confusion to play.
    assert_eq!(ids(&g), vec!["none".to_string()]);
    choose(&mut g, "none");
    // The Attack order's Fire Combat Step comes first (SR 4.0 4b): the brigade holds its fire.
    assert!(ids(&g).contains(&"done".to_string()), "{:?}", ids(&g));
    choose(&mut g, "done");
    assert_eq!(ids(&g), vec!["play:u-hidden-enemy".to_string(), "none".to_string()]);
    choose(&mut g, "play:u-hidden-enemy");
    assert!(g.state().chits.removed.contains(&"u-hidden-enemy".to_string()));
    let d = g.pending().expect("the Union steps");
    assert_eq!(d.side, "union");
    let map = &g.rules().data().map;
    let step = d.options.iter().find(|o| o.id.starts_with("step:u-123il:")).expect("a step").id.clone();
    for o in d.options.iter().filter_map(|o| o.id.strip_prefix("step:u-123il:")) {
        let h: Hex = o.parse().expect("hex");
        assert_eq!(map.distance(h, c), 1, "{h} ends Engaged");
    }
    choose(&mut g, &step);
    let engaged = g.state().hex_of(union).expect("on the map");
    assert_eq!(g.rules().data().map.distance(engaged, c), 1);
    choose(&mut g, "unit:c-41ga");
    let map = &g.rules().data().map;
    let steps: Vec<Hex> =
        ids(&g).iter().filter_map(|o| o.strip_prefix("hex:")).map(|h| h.parse().expect("hex")).collect();
    assert!(!steps.is_empty());
    assert!(steps.iter().all(|h| map.distance(*h, engaged) > 1), "{steps:?} next to {engaged}");
    assert!(map.neighbors(c).any(|(_, n)| map.distance(n, engaged) == 1), "a hex next to the Union unit exists");
}

/// SR 14.1: with the cup empty, the held-chit play is the Final Held Chit Play.
#[test]
fn sr_14_1_final_held_chit_play() {
    let (rules, mut state) = empty();
    let c = open_ground(&rules, 2);
    let worn = put(&mut state, "u-123il", c);
    state.units[worn].morale_hits = 1;
    take_chit(&mut state, "u-rally", Some(Side::Union));
    state.stage = Stage::Draw;
    let mut g = game(rules, state);
    let d = g.pending().expect("the final play");
    assert!(d.prompt.contains("Final Held Chit Play (SR 14.1)"), "{}", d.prompt);
    choose(&mut g, "none");
    assert!(!matches!(g.state().stage, Stage::Draw | Stage::HeldChits { .. }), "the End Turn Phase goes on");
    assert!(g.state().chits.held[0].is_empty(), "held chits return at the end of the turn");
}
