//! Rally played through the engine with manual dice: the Artillery Rally Step (SR 6.4), the Rally
//! Step under Regroup and Defend orders (SR 8.3, 8.5, 13.1-13.2), the Broken Track at End Turn
//! and a unit's return from its "Available" box (SR 12.8, 13.2b, 14.4).

use caisson_blindswords::catalog::Side;
use caisson_blindswords::cohesion::CombatUnit;
use caisson_blindswords::los::{line_of_sight, Sight};
use caisson_blindswords::registry::SYSTEM;
use caisson_blindswords::setup::Data;
use caisson_blindswords::state::{Activator, Place, Stage, State};
use caisson_blindswords::BlindSwords;
use caisson_hexmap::{Hex, TacticalTerrain};
use caisson_kernel::{Decision, DiceMode, Game, Pending, Rules, Setup};

/// A clear hex whose 216 hexes within 8 are all on the map and in the scenario's area, and a clear hex 4 from it
/// with a clear line of sight between them.
fn open_ground(rules: &BlindSwords) -> (Hex, Hex) {
    let map = &rules.data().map;
    let area = &rules.scenario().area;
    let clear = |h: Hex| area.contains(h) && map.tactical(h) == Some(TacticalTerrain::Clear);
    let inland = |c: Hex| {
        let near: Vec<Hex> = map.hexes().filter(|h| map.distance(c, *h) <= 8).collect();
        near.len() == 217 && near.iter().all(|h| area.contains(*h))
    };
    for c in map.hexes().filter(|c| clear(*c) && inland(*c)) {
        for e in map.hexes().filter(|e| map.distance(c, *e) == 4 && clear(*e)) {
            if line_of_sight(map, c, e, |_| false).is_ok_and(|l| l.sight == Sight::Clear) {
                return (c, e);
            }
        }
    }
    panic!("no open ground");
}

/// A clear hex at `d` hexes from `from`, `far` or more from `away`.
fn hex_at(rules: &BlindSwords, from: Hex, d: u16, away: Hex, far: u16) -> Hex {
    let map = &rules.data().map;
    map.hexes()
        .find(|h| {
            map.distance(from, *h) == d
                && map.distance(away, *h) >= far
                && rules.scenario().area.contains(*h)
                && map.tactical(*h) == Some(TacticalTerrain::Clear)
        })
        .unwrap_or_else(|| panic!("no clear hex {d} from {from} and {far} from {away}"))
}

/// Scenario 16.1 with every unit off the map, every brigade released, one chit in the cup.
fn empty() -> (BlindSwords, State) {
    let (rules, mut state) = BlindSwords::new(Data::builtin().expect("built-in data"), "pv-16-1").expect("scenario");
    let chit = state.chits.out.remove(0);
    state.chits.cup.push(chit);
    for u in &mut state.units {
        u.place = Place::Eliminated;
        u.on_hold = false;
    }
    for b in &mut state.brigades {
        b.on_hold = false;
    }
    (rules, state)
}

/// Puts unit `id` in `place`, Battleworn or not, with `hits` Morale Hits.
fn put(rules: &BlindSwords, state: &mut State, id: &str, place: Place, worn: bool, hits: u8) {
    let i = state.unit_index(id).expect(id);
    let c = CombatUnit::from_catalog(rules.data().catalog.unit(id).expect(id));
    let face = if worn { c.worn } else { c.fresh.unwrap_or(c.worn) };
    let u = &mut state.units[i];
    u.place = place;
    u.battleworn = worn || c.fresh.is_none();
    u.sp_halves = face.sp.halves();
    u.cr = face.cr;
    u.morale_hits = hits;
    u.shaken = false;
    u.skirmish = false;
    u.acted = false;
}

fn start(rules: BlindSwords, state: State) -> Game<BlindSwords> {
    let setup =
        Setup { system: SYSTEM.into(), scenario: "pv-16-1".into(), seed: 1, dice: DiceMode::Manual, options: vec![] };
    let g = Game::new(rules, state, setup);
    g.check().expect("the set-up holds");
    g
}

fn decision(g: &Game<BlindSwords>) -> Decision {
    g.pending().unwrap_or_else(|| panic!("nothing pending at {:?}", g.state().stage))
}

fn ids(d: &Decision) -> Vec<String> {
    d.options.iter().map(|c| c.id.clone()).collect()
}

fn unit<'s>(g: &'s Game<BlindSwords>, id: &str) -> &'s caisson_blindswords::state::UnitState {
    let s = g.state();
    &s.units[s.unit_index(id).expect(id)]
}

/// Two Union batteries beside Starkweather's 79th Pennsylvania, both Shaken, Bush and Stone's
/// within reach of the 41st Georgia; the Union Artillery Step about to begin (the Artillery Phase
/// marked as the sequence marks it).
fn batteries(worn: bool) -> (BlindSwords, State, Hex) {
    let (rules, mut state) = empty();
    let (centre, enemy) = open_ground(&rules);
    let infantry = hex_at(&rules, centre, 1, enemy, 5);
    let map = &rules.data().map;
    let other = map
        .neighbors(infantry)
        .map(|(_, h)| h)
        .find(|h| *h != centre && map.tactical(*h) == Some(TacticalTerrain::Clear) && map.distance(*h, enemy) > 3)
        .expect("a clear neighbour");
    put(&rules, &mut state, "u-bush-stone-art", Place::Map(centre), false, 1);
    put(&rules, &mut state, "u-loomis-art", Place::Map(other), worn, 1);
    put(&rules, &mut state, "u-79pa", Place::Map(infantry), false, 0);
    put(&rules, &mut state, "c-41ga", Place::Map(enemy), false, 0);
    state.stage = Stage::Artillery { side: Side::Union, passes: 0 };
    caisson_blindswords::rally_step::mark_artillery(&mut state);
    (rules, state, enemy)
}

/// Feeds a pending roll one face at a time until a decision (or the given stage is left).
fn roll_until_decision(g: &mut Game<BlindSwords>, face: u8) {
    for _ in 0..20 {
        match g.rules().pending(g.state()) {
            Pending::Roll(_) => g.choose(&format!("die:{face}")).unwrap_or_else(|e| panic!("die: {e}")),
            _ => return,
        }
    }
}

/// SR 6.4: a battery that fired this Artillery Phase does not rally; the one that did nothing,
/// stacked with or beside friendly infantry, may (Recovery removes every hit, ruling A-26).
#[test]
fn sr_6_4_a_battery_that_fired_does_not_rally() {
    let (rules, state, enemy) = batteries(false);
    let mut g = start(rules, state);
    let fire = ids(&decision(&g))
        .into_iter()
        .find(|id| id.starts_with("fire:u-bush-stone-art@") && id.ends_with(&enemy.to_string()))
        .unwrap_or_else(|| panic!("Bush and Stone's may fire at {enemy}"));
    g.choose(&fire).expect("fire");
    roll_until_decision(&mut g, 6);
    // The Union passes its next step (Loomis stays put); no Confederate battery: the steps end.
    assert!(matches!(g.state().stage, Stage::Artillery { side: Side::Union, .. }), "{:?}", g.state().stage);
    g.choose("pass").expect("pass");
    let d = decision(&g);
    assert_eq!(d.kind, "artillery-rally", "{}", d.prompt);
    assert_eq!(d.side, "union");
    let offered = ids(&d);
    assert!(!offered.iter().any(|id| id.ends_with("u-bush-stone-art")), "{offered:?}");
    assert_eq!(offered, ["recover:u-loomis-art", "pass"], "Fresh Loomis has nothing to rebuild");
    g.choose("recover:u-loomis-art").expect("recover");
    assert_eq!(unit(&g, "u-loomis-art").morale_hits, 0);
    assert_eq!(unit(&g, "u-bush-stone-art").morale_hits, 1, "the firer keeps its hit");
    assert!(g.state().log.iter().any(|e| e.text == "Loomis's Artillery recovers: Shaken → no Morale Hit"));
    // One battery a side: the Confederates have none, and the Chit Draw Phase begins.
    assert!(g.state().log.iter().any(|e| e.text == "Artillery Phase ends"));
    assert!(matches!(g.state().stage, Stage::Draw), "{:?}", g.state().stage);
    g.check().expect("the state holds");
}

/// SR 6.4, 13.2b: a Battleworn battery rebuilds in the Artillery Rally Step on one die at or
/// under its modified Battleworn CR: Loomis, supported by a regiment of its brigade, at 2, a 2
/// flipping it to its Fresh side and a 3 failing; Shaken, at 1.
#[test]
fn sr_13_2b_artillery_rebuild_roll() {
    let to_rally = |hits: u8| {
        let (rules, mut s, enemy) = batteries(true);
        let i = s.unit_index("u-loomis-art").expect("Loomis");
        s.units[i].morale_hits = hits;
        // Lytle's 10th Ohio beside Loomis gives it support (SR 12.4: same brigade).
        let at = s.hex_of(i).expect("on the map");
        let map = &rules.data().map;
        let spare = map
            .neighbors(at)
            .map(|(_, h)| h)
            .find(|h| {
                s.units_at(*h).next().is_none()
                    && map.distance(*h, enemy) > 2
                    && map.tactical(*h) == Some(TacticalTerrain::Clear)
            })
            .expect("an empty neighbour");
        put(&rules, &mut s, "u-10oh", Place::Map(spare), false, 0);
        let mut g = start(rules, s);
        g.choose("pass").expect("the Union passes: no Confederate battery, the steps end");
        g
    };
    let mut g = to_rally(0);
    let d = decision(&g);
    assert!(ids(&d).contains(&"rebuild:u-loomis-art".to_string()), "{:?}", ids(&d));
    g.choose("rebuild:u-loomis-art").expect("rebuild");
    let Pending::Roll(r) = g.rules().pending(g.state()) else { panic!("a roll") };
    assert_eq!(r.rule, "SR 13.2b");
    assert!(r.purpose.ends_with("succeeds at or under 2"), "{}", r.purpose);
    g.choose("die:2").expect("die");
    let u = unit(&g, "u-loomis-art");
    assert!(!u.battleworn, "flipped to its Fresh side");
    assert_eq!((u.sp_halves, u.cr), (12, 3), "Loomis's Fresh face, 6 SP and CR 3");
    assert!(g.state().log.iter().any(|e| e.text.contains("Rebuild Loomis's Artillery: 2 against 2: succeeds")));
    g.check().expect("the state holds");

    let mut g = to_rally(0);
    g.choose("rebuild:u-loomis-art").expect("rebuild");
    g.choose("die:3").expect("die");
    assert!(unit(&g, "u-loomis-art").battleworn, "a 3 fails");
    assert!(matches!(g.state().stage, Stage::Draw), "the step is over: {:?}", g.state().stage);

    let mut g = to_rally(1);
    g.choose("rebuild:u-loomis-art").expect("rebuild");
    let Pending::Roll(r) = g.rules().pending(g.state()) else { panic!("a roll") };
    assert!(r.purpose.contains("Shaken -1 [SR 12.5]") && r.purpose.ends_with("at or under 1"), "{}", r.purpose);
}

/// Starkweather's brigade with the 79th Pennsylvania Disrupted and the 1st Wisconsin Shaken, an
/// enemy regiment 6 hexes off (the 1st Wisconsin only 2 from it), fully activated by a command
/// chit and waiting for its order.
fn starkweather() -> Game<BlindSwords> {
    let (rules, mut state) = empty();
    let (centre, _) = open_ground(&rules);
    let enemy = hex_at(&rules, centre, 6, centre, 0);
    let close = hex_at(&rules, enemy, 2, centre, 0);
    put(&rules, &mut state, "u-79pa", Place::Map(centre), true, 2);
    put(&rules, &mut state, "u-1wi", Place::Map(close), false, 1);
    put(&rules, &mut state, "c-41ga", Place::Map(enemy), false, 0);
    state.stage = Stage::Orders { brigade: "starkweather".into(), by: Activator::Command };
    start(rules, state)
}

/// SR 8.5, 13.2a (digest §8 T19): under Regroup, the 79th Pennsylvania recovers every Morale Hit; the 1st
/// Wisconsin, two hexes from the enemy, may not rally (SR 13.1).
#[test]
fn sr_13_2a_regroup_recovers_every_hit() {
    let mut g = starkweather();
    g.choose("order:regroup").expect("Regroup");
    let d = decision(&g);
    assert_eq!(d.kind, "rally");
    assert_eq!(ids(&d), ["recover:u-79pa", "rebuild:u-79pa", "done"]);
    assert!(d.options[0].label.contains("every Morale Hit off (Disrupted → none)"), "{}", d.options[0].label);
    g.choose("recover:u-79pa").expect("recover");
    assert_eq!(unit(&g, "u-79pa").morale_hits, 0);
    assert!(unit(&g, "u-79pa").battleworn, "Recovery or Rebuild, not both (SR 13.2)");
    assert_eq!(unit(&g, "u-1wi").morale_hits, 1);
    // Nobody else may rally: the activation is over and the next chit is drawn.
    assert!(matches!(g.state().stage, Stage::Draw), "{:?}", g.state().stage);
    g.check().expect("the state holds");
}

/// SR 8.3, 13.2a (the SR 13 example, digest T18): under Defend, after its Movement Step, the
/// Disrupted 79th Pennsylvania recovers one hit only, to Shaken; Defend offers no Rebuild.
#[test]
fn sr_13_2a_defend_recovers_one_hit() {
    let mut g = starkweather();
    g.choose("order:defend").expect("Defend");
    g.choose("done").expect("no movement");
    let d = decision(&g);
    assert_eq!(ids(&d), ["recover:u-79pa", "done"]);
    g.choose("recover:u-79pa").expect("recover");
    assert_eq!(unit(&g, "u-79pa").morale_hits, 1, "Disrupted → Shaken");
}

/// SR 13.1: under Attack or Maneuver there is no Rally Step.
#[test]
fn no_rally_under_attack() {
    let mut g = starkweather();
    g.choose("order:attack").expect("Attack");
    g.choose("done").expect("no movement");
    assert!(matches!(g.state().stage, Stage::Draw), "{:?}", g.state().stage);
    assert_eq!(unit(&g, "u-79pa").morale_hits, 2);
}

/// SR 12.8a, 14.4 (digest T62): at End Turn box 1 goes to "Available", 2 to 1, 3 to 2, and the
/// "Available" box stays; then (SR 13.2b) a Regroup brigade rebuilds its unit from the
/// "Available" box on a die at or under its Battleworn CR (automatically supported), and its owner
/// places it at least 3 hexes from the enemy and within 3 of a unit of the brigade.
#[test]
fn broken_track_moves_down_and_units_come_back() {
    let (rules, mut state) = empty();
    let (centre, _) = open_ground(&rules);
    let enemy = hex_at(&rules, centre, 6, centre, 0);
    put(&rules, &mut state, "u-79pa", Place::Map(centre), false, 0);
    put(&rules, &mut state, "c-41ga", Place::Map(enemy), false, 0);
    put(&rules, &mut state, "u-24il", Place::Broken(1), true, 0);
    put(&rules, &mut state, "u-1wi", Place::Broken(2), true, 0);
    put(&rules, &mut state, "u-10oh", Place::Broken(3), true, 0);
    put(&rules, &mut state, "u-15ky", Place::Broken(0), true, 0);
    // The last chit of the turn has been played: the activation ends, End Turn follows.
    let cup = std::mem::take(&mut state.chits.cup);
    state.chits.out.extend(cup);
    state.chits.out.sort();
    state.buell_box = None;
    state.stage = Stage::Orders { brigade: "lytle".into(), by: Activator::Command };
    let mut g = start(rules, state);
    g.choose("order:attack").expect("Attack: Lytle has nobody on the map to move");
    roll_until_decision(&mut g, 1);
    assert!(g.state().turn == 2, "the next turn: {:?}", g.state().stage);
    assert_eq!(unit(&g, "u-24il").place, Place::Broken(0));
    assert_eq!(unit(&g, "u-1wi").place, Place::Broken(1));
    assert_eq!(unit(&g, "u-10oh").place, Place::Broken(2));
    assert_eq!(unit(&g, "u-15ky").place, Place::Broken(0));
    assert!(g.state().log.iter().any(|e| e.text.starts_with("Broken Track: 24IL from box 1 to the Available box")));

    // Starkweather regroups: the 24th Illinois, Available, may rebuild (Battleworn CR 2, supported).
    let mut s = g.state().clone();
    s.stage = Stage::Orders { brigade: "starkweather".into(), by: Activator::Command };
    let rules = g.rules().clone();
    let mut g = start(rules, s);
    g.choose("order:regroup").expect("Regroup");
    assert_eq!(ids(&decision(&g)), ["rebuild:u-24il", "done"], "Lytle's units are not of the active brigade");
    g.choose("rebuild:u-24il").expect("rebuild");
    let Pending::Roll(r) = g.rules().pending(g.state()) else { panic!("a roll") };
    assert!(r.purpose.ends_with("at or under 2"), "{}", r.purpose);
    g.choose("die:2").expect("die");
    let d = decision(&g);
    assert_eq!(d.kind, "rally-place");
    let map = &g.rules().data().map;
    let hexes: Vec<Hex> = d.options.iter().map(|c| c.id.trim_start_matches("hex:").parse().expect("a hex")).collect();
    assert!(!hexes.is_empty());
    for h in &hexes {
        assert!(map.distance(*h, enemy) >= 3 && map.distance(*h, centre) <= 3, "{h}");
    }
    let pick = hexes[0];
    g.choose(&format!("hex:{pick}")).expect("place");
    let u = unit(&g, "u-24il");
    assert_eq!(u.place, Place::Map(pick));
    assert!(u.battleworn && u.morale_hits == 0, "back on its Battleworn side");
    g.check().expect("the state holds");
}

/// SR 13.2b: the Battleworn 79th Pennsylvania (2 SP) stacked with the Fresh 1st Wisconsin
/// (8 SP) rebuilds; its Fresh side (8 SP) would put 16 SP in the hex, above 12 (EX 3.1), so its
/// owner moves it to a next hex farther from the nearest enemy (ruling PC20), where it turns
/// Fresh. The state keeps within stacking at every step.
#[test]
fn sr_13_2b_rebuilt_unit_displaces_when_over_stacked() {
    let (rules, mut state) = empty();
    let (centre, _) = open_ground(&rules);
    let enemy = hex_at(&rules, centre, 6, centre, 0);
    put(&rules, &mut state, "u-79pa", Place::Map(centre), true, 0);
    put(&rules, &mut state, "u-1wi", Place::Map(centre), false, 0);
    put(&rules, &mut state, "c-41ga", Place::Map(enemy), false, 0);
    state.stage = Stage::Orders { brigade: "starkweather".into(), by: Activator::Command };
    let mut g = start(rules, state);
    g.choose("order:regroup").expect("Regroup");
    g.choose("rebuild:u-79pa").expect("rebuild");
    g.choose("die:2").expect("die");
    g.check().expect("still within stacking while it waits");
    let d = decision(&g);
    assert_eq!(d.kind, "rally-displace");
    let map = &g.rules().data().map;
    let hexes: Vec<Hex> = d.options.iter().map(|c| c.id.trim_start_matches("hex:").parse().expect("a hex")).collect();
    assert!(!hexes.is_empty());
    for h in &hexes {
        assert!(map.distance(*h, centre) == 1 && map.distance(*h, enemy) > 6, "{h}");
    }
    let to = hexes[0];
    g.choose(&format!("hex:{to}")).expect("displace");
    let u = unit(&g, "u-79pa");
    assert_eq!(u.place, Place::Map(to));
    assert!(!u.battleworn && u.sp_halves == 16, "Fresh, 8 SP");
    g.check().expect("the state holds");
}

/// SR 13.2b Rebuild Option (game option `rebuild=on`): the 24th Illinois, rebuilt from the
/// "Available" box and placed Battleworn, is marked as back from the Broken Track; in a later
/// Regroup Rally Step of its brigade, three or more hexes from the enemy, it may Rebuild to its
/// Fresh side only with the option off.
#[test]
fn sr_13_2b_rebuild_option_keeps_returned_units_battleworn() {
    use caisson_blindswords::special::Options;
    for option in [false, true] {
        let (_, mut state) = empty();
        let options = Options { rebuild: option, ..Options::default() };
        let rules = BlindSwords::with_options(Data::builtin().expect("data"), "pv-16-1", options).expect("scenario").0;
        let (centre, _) = open_ground(&rules);
        let enemy = hex_at(&rules, centre, 6, centre, 0);
        put(&rules, &mut state, "u-79pa", Place::Map(centre), false, 0);
        put(&rules, &mut state, "c-41ga", Place::Map(enemy), false, 0);
        put(&rules, &mut state, "u-24il", Place::Broken(0), true, 0);
        state.stage = Stage::Orders { brigade: "starkweather".into(), by: Activator::Command };
        let mut g = start(rules, state);
        g.choose("order:regroup").expect("Regroup");
        g.choose("rebuild:u-24il").expect("rebuild");
        g.choose("die:1").expect("die");
        let pick = decision(&g).options[0].id.clone();
        g.choose(&pick).expect("place");
        assert!(unit(&g, "u-24il").returned && unit(&g, "u-24il").battleworn, "back, Battleworn");

        let mut s = g.state().clone();
        s.stage = Stage::Orders { brigade: "starkweather".into(), by: Activator::Command };
        let rules = g.rules().clone();
        let mut g = start(rules, s);
        g.choose("order:regroup").expect("Regroup");
        let offered = ids(&decision(&g)).contains(&"rebuild:u-24il".to_string());
        assert_eq!(offered, !option, "Rebuild to Fresh offered with the option {}", if option { "on" } else { "off" });
    }
}
