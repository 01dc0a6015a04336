//! Opportunity Fire beyond a brigade's movement (SR 10.7): at a unit a Wayward Move takes out of
//! a hex next to the enemy (EX 7.3b), and at a retreating unit leaving a hex next to the enemy
//! after the first (SR 12.3 note), played through the engine with manual dice.

use caisson_blindswords::catalog::{Side, UnitType};
use caisson_blindswords::charts::Order;
use caisson_blindswords::fire::FireKind;
use caisson_blindswords::registry::SYSTEM;
use caisson_blindswords::sequence;
use caisson_blindswords::setup::Data;
use caisson_blindswords::state::{Activator, Aftermath, Place, RetreatOrder, Stage, Then, Volley};
use caisson_blindswords::BlindSwords;
use caisson_hexmap::{Hex, TacticalTerrain};
use caisson_kernel::{DiceMode, Game, Setup};

mod common;
use common::{open_ground, set};

/// Pv-16-1 with the map empty but the 2nd Ohio in an open clear hex and the 41st Georgia next to
/// it; a Wayward Union Move is to be made by the Confederate player. Returns the game, the 2nd
/// Ohio's hex and a neighbour of it two hexes from the Georgians.
fn wayward() -> (Game<BlindSwords>, Hex, Hex) {
    let (rules, mut state) = BlindSwords::new(Data::builtin().expect("built-in data"), "pv-16-1").expect("scenario");
    let (t, around) = open_ground(&rules);
    for u in &mut state.units {
        u.place = Place::Eliminated;
    }
    set(&rules, &mut state, "u-2oh", t, false);
    set(&rules, &mut state, "c-41ga", around[0], false);
    state.stage = Stage::Wayward { affected: Side::Union };
    let away = around[3];
    let setup =
        Setup { system: SYSTEM.into(), scenario: "pv-16-1".into(), seed: 1, dice: DiceMode::Manual, options: vec![] };
    let g = Game::new(rules, state, setup);
    g.check().expect("the set-up holds");
    (g, t, away)
}

fn dice(g: &mut Game<BlindSwords>, faces: &[u8]) {
    for f in faces {
        g.choose(&format!("die:{f}")).unwrap_or_else(|e| panic!("die {f}: {e}"));
    }
}

/// EX 7.3b, SR 10.7: the unit a Wayward Move takes out of a hex next to the enemy is fired on
/// first, at half SP (the 41st Georgia's 7: 3.5, column 3), the moved unit the Lead Unit; with no
/// effect the move is then made.
#[test]
fn a_wayward_move_draws_opportunity_fire() {
    let (mut g, t, away) = wayward();
    g.choose(&format!("wayward:u-2oh:{away}")).expect("the Wayward Move");
    let d = g.pending().expect("the Opportunity Fire decision");
    assert_eq!((d.side.as_str(), d.kind.as_str()), ("confederate", "opportunity-fire"));
    let id = format!("fire:c-41ga@{t}");
    let fire = d.options.iter().find(|c| c.id == id).unwrap_or_else(|| panic!("no {id} in {:?}", d.options));
    assert!(fire.label.contains("3.5 SP, column 3"), "{}", fire.label);
    assert!(d.options.iter().any(|c| c.id == "let-go"));
    let oh = g.state().unit_index("u-2oh").expect("2OH");
    assert_eq!(g.state().hex_of(oh), Some(t), "not moved before the fire");
    g.choose(&id).expect("fire");
    dice(&mut g, &[1, 1]);
    let s = g.state();
    let logged = s.log.iter().rev().find(|e| e.roll.is_some()).expect("the d66 logged").text.clone();
    assert!(logged.contains("Lead Unit u-2oh") && logged.contains("no effect"), "{logged}");
    assert_eq!(s.hex_of(oh), Some(away), "the move is made after the fire");
    assert!(s.log.iter().any(|e| e.text.contains("41GA fires at") && e.rule.as_deref() == Some("SR 10.7, EX 7.3b")));
    g.check().expect("the state holds");
}

/// EX 7.3b: letting the unit go makes the move at once; a move from a hex next to no enemy draws
/// no fire.
#[test]
fn a_wayward_move_let_go_or_away_from_the_enemy() {
    let (mut g, _, away) = wayward();
    g.choose(&format!("wayward:u-2oh:{away}")).expect("the Wayward Move");
    g.choose("let-go").expect("let it go");
    let oh = g.state().unit_index("u-2oh").expect("2OH");
    assert_eq!(g.state().hex_of(oh), Some(away));
    // With the Georgians gone, the 2nd Ohio leaves a hex next to no enemy.
    let (g, _, away) = wayward();
    let mut state = g.state().clone();
    let ga = state.unit_index("c-41ga").expect("41GA");
    state.units[ga].place = Place::Eliminated;
    let mut g = Game::new(g.rules().clone(), state, g.setup().clone());
    g.choose(&format!("wayward:u-2oh:{away}")).expect("the Wayward Move");
    assert_eq!(g.state().hex_of(oh), Some(away), "no fire to wait for");
}

/// SR 9.3c with EX 7.3b (ruling PC37): with the 27th Tennessee also next to the 2nd Ohio, two
/// hexsides round from the Georgians, the unit a Wayward Move takes away may be fired on as a
/// Flanking Fire: both fires announced, then each resolved at half SP one column right (the
/// Georgians' 3.5 SP on "3" read on "4"); the rolls of 11 miss and the move is made.
#[test]
fn a_wayward_move_may_draw_flanking_fire() {
    let (g, t, away) = wayward();
    let mut state = g.state().clone();
    let map = &g.rules().data().map;
    let far = map.neighbors(t).nth(4).map(|(_, h)| h).expect("a sixth neighbour");
    let tn = state.unit_index("c-27tn").expect("27TN");
    state.units[tn].place = Place::Map(far);
    let mut g = Game::new(g.rules().clone(), state, g.setup().clone());
    g.check().expect("the set-up holds");
    g.choose(&format!("wayward:u-2oh:{away}")).expect("the Wayward Move");
    let flank = format!("flank:{t}");
    let d = g.pending().expect("the Opportunity Fire decision");
    assert!(d.options.iter().any(|o| o.id == flank), "{:?}", d.options);
    g.choose(&flank).expect("announce");
    let ga = format!("fire:c-41ga@{t}");
    let d = g.pending().expect("the announcement");
    let offer = d.options.iter().find(|o| o.id == ga).unwrap_or_else(|| panic!("{:?}", d.options));
    assert!(offer.label.contains("3.5 SP, column 3 Flanking Fire +1"), "{}", offer.label);
    g.choose(&ga).expect("announced");
    g.choose(&format!("fire:c-27tn@{t}")).expect("announced");
    g.choose("resolve").expect("resolve");
    dice(&mut g, &[1, 1]);
    let first = g.state().log.iter().rev().find(|e| e.roll.is_some()).expect("the d66").text.clone();
    assert!(first.contains("41GA fires at") && first.contains("column 4, roll 11"), "{first}");
    dice(&mut g, &[1, 1]);
    let s = g.state();
    let second = s.log.iter().rev().find(|e| e.roll.is_some()).expect("the d66").text.clone();
    assert!(second.contains("27TN fires at") && second.contains("Lead Unit u-2oh"), "{second}");
    let oh = s.unit_index("u-2oh").expect("2OH");
    assert_eq!(s.hex_of(oh), Some(away), "the move is made after the fire");
    g.check().expect("the state holds");
}

/// SR 10.7, 12.3 note: the 2nd Ohio, retreating two hexes from the 41st Georgia's fire through
/// the one gap in a ring of Confederates, is not fired on in its first hex, but leaving the hex
/// in the gap, next to two ring units, draws their Opportunity Fire (half SP, the retreating
/// unit the Lead Unit); with no effect the retreat goes on, and the Georgians' fire step, set
/// aside meanwhile, comes back.
/// The 2nd Ohio ordered to retreat two hexes from the 41st Georgia's fire, with a ring of
/// Confederates two hexes round it but for one gap; the game, the gap's two hexes (entered
/// first, then the end) and the 2nd Ohio's index.
fn ring_retreat() -> (Game<BlindSwords>, Hex, Hex, usize) {
    let (rules, mut state) = BlindSwords::new(Data::builtin().expect("built-in data"), "pv-16-1").expect("scenario");
    let map = rules.data().map.clone();
    let area = rules.scenario().area.clone();
    let clear = |h: Hex| area.contains(h) && map.tactical(h) == Some(TacticalTerrain::Clear);
    let t = map
        .hexes()
        .find(|t| {
            map.hexes().filter(|h| map.distance(*h, *t) <= 2).count() == 19
                && map.hexes().filter(|h| map.distance(*h, *t) <= 2).all(clear)
        })
        .expect("open ground two hexes round");
    let around: Vec<Hex> = map.neighbors(t).map(|(_, n)| n).collect();
    let (d3, _) = map.neighbors(t).nth(3).expect("direction 3");
    let gap_entry = around[3];
    let gap = map.neighbor(gap_entry, d3);
    for u in &mut state.units {
        u.place = Place::Eliminated;
    }
    for b in &mut state.brigades {
        b.on_hold = false;
    }
    set(&rules, &mut state, "u-2oh", t, false);
    set(&rules, &mut state, "c-41ga", around[0], false);
    let ring: Vec<Hex> = map.hexes().filter(|h| map.distance(*h, t) == 2 && *h != gap).collect();
    let rebels: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.side == Side::Confederate && u.ty == UnitType::Infantry && u.id != "c-41ga")
        .map(|u| u.id.clone())
        .take(ring.len())
        .collect();
    for (id, h) in rebels.iter().zip(&ring) {
        set(&rules, &mut state, id, *h, false);
    }
    let oh = state.unit_index("u-2oh").expect("2OH");
    let ga = state.unit_index("c-41ga").expect("41GA");
    let step = Stage::FireStep {
        brigade: "maney".into(),
        order: Some(Order::Attack),
        by: Activator::Command,
        fired: vec![ga],
    };
    state.volley = Some(Volley { firers: vec![ga], kind: FireKind::Brigade(Order::Attack), then: step });
    state.stage = Stage::Aftermath {
        after: Aftermath {
            by: Side::Confederate,
            causers: vec![ga],
            target: t,
            lead: oh,
            retreats: vec![RetreatOrder { unit: oh, hexes: 2, rule: "R2 (SR 12.1)".into(), causers: vec![ga] }],
            panic: 0,
            panicking: Vec::new(),
            dice: Vec::new(),
            later: Vec::new(),
            done: Vec::new(),
            then: Then::Fire { firer: ga, retreating: vec!["u-2oh".into()] },
        },
    };
    sequence::advance(&rules, &mut state);
    let setup =
        Setup { system: SYSTEM.into(), scenario: "pv-16-1".into(), seed: 1, dice: DiceMode::Manual, options: vec![] };
    (Game::new(rules, state, setup), gap_entry, gap, oh)
}

#[test]
fn a_retreat_past_the_enemy_draws_opportunity_fire() {
    let (mut g, gap_entry, gap, oh) = ring_retreat();
    g.check().expect("paused mid-retreat, the state holds");
    assert_eq!(g.state().hex_of(oh), Some(gap_entry), "stopped in the gap, not fired on in its first hex");
    assert!(matches!(g.state().stage, Stage::RetreatFire { .. }), "{:?}", g.state().stage);
    let d = g.pending().expect("the Opportunity Fire decision");
    assert_eq!((d.side.as_str(), d.kind.as_str()), ("confederate", "opportunity-fire"));
    let fires: Vec<&str> = d.options.iter().map(|c| c.id.as_str()).filter(|id| id.starts_with("fire:")).collect();
    assert!(!fires.is_empty(), "{:?}", d.options);
    assert!(fires.iter().all(|id| id.ends_with(&format!("@{gap_entry}"))), "only the retreating unit: {fires:?}");
    assert!(!fires.iter().any(|id| id.contains("c-41ga")), "the Georgians are not next to the gap: {fires:?}");
    let first = fires.iter().find(|id| !id.contains('+')).expect("a single unit's fire").to_string();
    g.choose(&first).expect("fire");
    dice(&mut g, &[1, 1]);
    let logged = g.state().log.iter().rev().find(|e| e.roll.is_some()).expect("the d66 logged").text.clone();
    assert!(logged.contains("Lead Unit u-2oh") && logged.contains("no effect"), "{logged}");
    // Any other ring unit next to the gap may still fire; let the 2nd Ohio go.
    if matches!(g.state().stage, Stage::RetreatFire { .. }) {
        g.choose("let-go").expect("let it go");
    }
    let s = g.state();
    assert_eq!(s.hex_of(oh), Some(gap), "the retreat goes on to its end");
    assert!(s.log.iter().any(|e| e.text.starts_with("2OH retreats 2 hexes from")));
    assert!(s.volley.is_none(), "the Georgians' fire is over");
    assert!(
        matches!(&s.stage, Stage::FireStep { brigade, .. } if brigade == "maney")
            || matches!(&s.stage, Stage::Move { .. }),
        "back to the Georgians' step: {:?}",
        s.stage
    );
    g.check().expect("the state holds");
}

/// SR 12.3 note (ruling PC33): a Retreat from the Opportunity Fire at a retreating unit is added
/// to the hexes it had left, and replaces the rest of its path; the first fire's step then comes
/// back. The dice are found by trying every d66 and test roll on copies.
#[test]
fn a_retreat_result_on_a_retreating_unit_adds_to_its_retreat() {
    let (g, gap_entry, _, oh) = ring_retreat();
    let d = g.pending().expect("the Opportunity Fire decision");
    let fire = d.options.iter().map(|c| c.id.clone()).find(|id| id.starts_with("fire:")).expect("a fire");
    let mut found = None;
    'search: for (c, w) in (1..=6).flat_map(|c| (1..=6).map(move |w| (c, w))).rev() {
        let mut roll = g.clone();
        roll.choose(&fire).expect("fire");
        dice(&mut roll, &[c, w]);
        if !matches!(roll.state().stage, Stage::FireTest { .. }) {
            continue;
        }
        for (tc, tw) in (1..=6).flat_map(|c| (1..=6).map(move |w| (c, w))) {
            let mut test = roll.clone();
            dice(&mut test, &[tc, tw]);
            for _ in 0..12 {
                match test.pending() {
                    Some(d)
                        if d.kind == "opportunity-fire"
                            && test
                                .state()
                                .log
                                .iter()
                                .any(|e| e.text.contains("hexes left of its retreat under way")) =>
                    {
                        test.choose("let-go").expect("let go");
                    }
                    Some(d) if d.kind == "roll" && matches!(test.state().stage, Stage::FireTest { .. }) => {
                        dice(&mut test, &[1]);
                    }
                    Some(d) if d.kind == "retreat" => {
                        let first = d.options[0].id.clone();
                        test.choose(&first).expect("a retreat path");
                    }
                    _ => break,
                }
            }
            if test.state().log.iter().any(|e| e.text.contains("hexes left of its retreat under way")) {
                found = Some(test);
                break 'search;
            }
        }
    }
    let g = found.expect("some roll gives the retreating unit a new Retreat");
    let s = g.state();
    let added = s.log.iter().find(|e| e.text.contains("hexes left of its retreat under way")).expect("logged");
    let total: u8 =
        added.text.rsplit(": ").next().and_then(|t| t.split(' ').next()).and_then(|n| n.parse().ok()).expect("a total");
    let moved = format!("2OH retreats {total} hexes from {gap_entry}");
    assert!(
        s.log.iter().any(|e| e.text.starts_with(&moved)),
        "{moved}: {:?}",
        s.log.iter().rev().take(8).collect::<Vec<_>>()
    );
    assert!(s.log.iter().any(|e| e.text.contains("ends in the new one")), "the old retreat is cut short");
    assert_eq!(s.log.iter().filter(|e| e.text.starts_with("2OH retreats")).count(), 1, "the old path is not finished");
    assert_ne!(s.hex_of(oh), Some(gap_entry));
    assert!(s.volley.is_none() || matches!(s.stage, Stage::RetreatFire { .. } | Stage::Aftermath { .. }));
    g.check().expect("the state holds");
}

/// SR 9.3c with 10.7 (ruling PC37): the two ring units next to the gap fire into it along lines
/// a full hexside apart (the gap between them), so the Confederate player may announce a
/// Flanking Fire at the retreating 2nd Ohio: both fires are announced, then resolved in order,
/// each at half SP and one column right, the 2nd Ohio the Lead Unit. With no Retreat result the
/// retreat then goes on to its end.
#[test]
fn a_retreating_unit_may_take_flanking_fire() {
    let (mut g, gap_entry, gap, oh) = ring_retreat();
    let d = g.pending().expect("the Opportunity Fire decision");
    let flank = format!("flank:{gap_entry}");
    assert!(d.options.iter().any(|o| o.id == flank), "{:?}", d.options);
    let singles: Vec<String> =
        d.options.iter().map(|o| o.id.clone()).filter(|id| id.starts_with("fire:") && !id.contains('+')).collect();
    assert_eq!(singles.len(), 2, "the two ring units next to the gap: {singles:?}");
    g.choose(&flank).expect("announce");
    for id in &singles {
        let d = g.pending().expect("the announcement");
        assert_eq!(d.kind, "flanking-fire");
        let offer = d.options.iter().find(|o| &o.id == id).unwrap_or_else(|| panic!("{:?}", d.options));
        assert!(offer.label.contains("Flanking Fire +1"), "{}", offer.label);
        g.choose(id).expect("announced");
    }
    g.choose("resolve").expect("resolve");
    // Every die a 1: the d66 11, and any test's 1s, give no Retreat (cohesion.toml).
    for _ in 0..12 {
        match g.state().stage {
            Stage::FireRoll { .. } | Stage::FireTest { .. } => dice(&mut g, &[1]),
            _ => break,
        }
    }
    let flanked = g.state().log.iter().filter(|e| e.text.contains(&format!("at {gap_entry} (Flanking Fire)"))).count();
    assert_eq!(flanked, 2, "both announced fires resolved as a Flanking Fire");
    let rolls: Vec<&str> = g
        .state()
        .log
        .iter()
        .filter(|e| e.roll.is_some() && e.text.contains("roll 11"))
        .map(|e| e.text.as_str())
        .collect();
    assert!(rolls.len() >= 2 && rolls.iter().all(|t| t.contains("Lead Unit u-2oh")), "{rolls:?}");
    if matches!(g.state().stage, Stage::RetreatFire { .. }) {
        g.choose("let-go").expect("let it go");
    }
    assert_eq!(g.state().hex_of(oh), Some(gap), "the retreat goes on to its end");
    g.check().expect("the state holds");
}
