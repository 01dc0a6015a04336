//! Before a declared Close Combat's dice, through the engine with manual dice: Defensive Fire
//! from the attacked hex and Supporting Defensive Fire at half SP from an adjacent hex (SR 11.3a),
//! an attacker that retreats under it leaving the combat (SR 11.3c), cavalry withdrawing instead
//! of fighting (SR 11.3b), and Rebel Yell! shifting the Close Combat's column (EX 11.3c xvii).

mod common;
use common::{attack_move, manual_game};

use std::sync::Arc;

use caisson_blindswords::setup::Data;
use caisson_blindswords::state::{ix, Place, Stage, State};
use caisson_blindswords::BlindSwords;
use caisson_hexmap::{Hex, Hexside, TacticalTerrain};
use caisson_kernel::data::DataDir;
use caisson_kernel::{Game, Pending};

/// Union infantry (15 SP Fresh, CR 1, R).
const IL123: &str = "u-123il";
/// Confederate infantry (7 SP Fresh, CR 4, S).
const GA41: &str = "c-41ga";
/// Confederate infantry of the same brigade (4 SP Fresh, CR 4, S).
const TN27: &str = "c-27tn";
/// Union horse artillery (1 SP, CR 3, S).
const HOTCHKISS: &str = "u-hotchkiss-art";
/// Union cavalry (5 SP Fresh, CR 3, R).
const MI2_CAV: &str = "u-2mi-cav";

fn open() -> (BlindSwords, State) {
    let data = Data::load(&DataDir::builtin()).expect("built-in data");
    BlindSwords::new(Arc::new(data), "pv-16-1").expect("scenario")
}

/// Three clear hexes of one level in the scenario's area: the attackers' `a`, the defenders' `d`
/// next to it across a plain hexside, and `s` next to `a` but not to `d`.
fn ground(rules: &BlindSwords) -> (Hex, Hex, Hex) {
    let map = &rules.data().map;
    let area = &rules.scenario().area;
    let clear = |h: Hex| area.contains(h) && map.tactical(h) == Some(TacticalTerrain::Clear);
    for a in map.hexes().filter(|h| clear(*h)) {
        let level = map.elevation(a);
        let flat = |h: Hex| clear(h) && map.elevation(h) == level;
        for (_, d) in map.neighbors(a) {
            if !flat(d) || map.hexside(a, d) != Hexside::NONE || map.neighbors(d).filter(|(_, n)| flat(*n)).count() < 6
            {
                continue;
            }
            let s = map.neighbors(a).map(|(_, s)| s).find(|s| flat(*s) && map.distance(*s, d) == 2);
            if let Some(s) = s {
                return (a, d, s);
            }
        }
    }
    panic!("no three clear hexes");
}

/// Scenario 16.1 with only `units` on the map (each Fresh, steady), the brigade of `mover` at the
/// end of its Attack-order Movement Step.
fn game(units: &[(&str, Hex)], mover: &str) -> Game<BlindSwords> {
    let (rules, mut state) = open();
    for u in &mut state.units {
        u.place = Place::Eliminated;
    }
    for b in &mut state.brigades {
        b.on_hold = false;
    }
    for (id, hex) in units {
        let i = state.unit_index(id).expect(id);
        let c = rules.data().catalog.unit(id).expect(id);
        let f = c.fresh.unwrap_or(c.worn);
        let u = &mut state.units[i];
        u.place = Place::Map(*hex);
        u.battleworn = false;
        u.sp_halves = f.sp.halves();
        u.cr = f.cr;
        u.on_hold = false;
        u.morale_hits = 0;
        u.shaken = false;
    }
    state.chits.held = [Vec::new(), Vec::new()];
    state.stage = attack_move(&state, mover);
    manual_game(rules, state)
}

fn choose(g: &mut Game<BlindSwords>, id: &str) {
    g.choose(id).unwrap_or_else(|e| panic!("{id}: {e}\n{:?}", g.pending()));
}

fn dice(g: &mut Game<BlindSwords>, faces: &[u8]) {
    for f in faces {
        g.choose(&format!("die:{f}")).unwrap_or_else(|e| panic!("die {f}: {e}\n{:?}", g.rules_pending()));
    }
}

/// Ends the movement and declares `attackers` against `target`.
fn declare(g: &mut Game<BlindSwords>, target: Hex, attackers: &[&str]) {
    choose(g, "done");
    choose(g, &format!("target:{target}"));
    for a in attackers {
        choose(g, &format!("unit:{a}"));
    }
    choose(g, "declare");
    choose(g, "done");
}

fn hex_of(g: &Game<BlindSwords>, id: &str) -> Option<Hex> {
    let s: &State = g.state();
    s.hex_of(s.unit_index(id).expect(id))
}

fn logged(g: &Game<BlindSwords>, needle: &str) -> bool {
    g.state().log.iter().any(|e| e.text.contains(needle))
}

/// SR 11.3a: the 41st Georgia, attacked by the 123rd Illinois, fires Defensive Fire first: its
/// 7 SP at one hex (Effective range) on column "6-7", no shift over clear ground. The roll 66 on
/// that column puts the Illinois's modified CR 0 (CR 1, unsupported) in the Severe box; its Fire
/// Combat Cohesion Test, coloured 2 "D" and white 1 "MH", flips it to its Battleworn side and
/// Shakes it. It stays, so the Close Combat goes on: the 41st Georgia has fired, nothing more is
/// offered, and the attacker's d66 is due.
#[test]
fn sr_11_3a_defensive_fire_before_the_close_combat() {
    let rules = open().0;
    let (a, d, _) = ground(&rules);
    let mut g = game(&[(IL123, a), (GA41, d)], IL123);
    declare(&mut g, d, &[IL123]);
    let p = g.pending().expect("the defender's Defensive Fire");
    assert_eq!((p.kind.as_str(), p.side.as_str()), ("defensive-fire", "confederate"));
    let id = format!("fire:{GA41}@{a}");
    let offer = p.options.iter().find(|c| c.id == id).unwrap_or_else(|| panic!("{:?}", p.options));
    assert!(offer.label.contains("41GA Defensive Fire at"), "{}", offer.label);
    assert!(offer.label.contains("7 SP, column 6-7 no shift → 6-7"), "{}", offer.label);
    assert!(p.options.iter().any(|c| c.id == "hold"));
    choose(&mut g, &id);
    assert!(logged(&g, &format!("41GA fires Defensive Fire at {a}")));
    let Pending::Roll(r) = g.rules_pending() else { panic!("the Defensive Fire d66: {:?}", g.state().stage) };
    assert_eq!(r.side, "confederate", "the firing defender rolls (SR 9.3a)");
    dice(&mut g, &[6, 6]);
    let roll = g.state().log.iter().rev().find(|e| e.roll.is_some()).expect("the d66 logged").text.clone();
    assert!(roll.contains("41GA fires at"), "{roll}");
    assert!(roll.contains("column 6-7, roll 66: 0-3 | 4-6 | -"), "the chart cell is logged: {roll}");
    assert!(roll.contains("Lead Unit CR 0 takes a Severe Fire Combat Cohesion Test (SR 9.3b)"), "{roll}");
    let Pending::Roll(r) = g.rules_pending() else { panic!("the Cohesion Test dice: {:?}", g.state().stage) };
    assert_eq!(r.side, "union", "the tested unit's owner rolls");
    dice(&mut g, &[2, 1]);
    assert!(logged(&g, "Cohesion Test at"), "the Fire Combat Cohesion Test is logged");
    let s = g.state();
    let il = &s.units[s.unit_index(IL123).expect("123IL")];
    assert!(il.battleworn, "D: flipped to its Battleworn side (SR 12.1a)");
    assert_eq!((il.morale_hits, il.place), (1, Place::Map(a)), "MH: Shaken, and it stays (SR 12.1b)");
    let Pending::Roll(r) = g.rules_pending() else { panic!("the Close Combat d66: {:?}", g.state().stage) };
    assert_eq!(r.side, "union");
    assert!(r.purpose.contains(&format!("Close Combat against {d}")), "{}", r.purpose);
    g.check().expect("the state holds");
}

/// SR 11.3a, 9.1d, 11.3c: the 27th Tennessee, next to the attacking 123rd Illinois but not in
/// the attacked hex, fires Supporting Defensive Fire at half its 4 SP: 2 SP on column "2". The
/// roll 66 calls for a Severe test of the Illinois (modified CR 0); coloured 1 "-" and white 2
/// "MH R1" make it retreat a hex, so it takes no further part and the Close Combat against the
/// 41st Georgia has no attacker left.
#[test]
fn sr_11_3a_supporting_defensive_fire_from_an_adjacent_hex() {
    let rules = open().0;
    let (a, d, s) = ground(&rules);
    let mut g = game(&[(IL123, a), (GA41, d), (TN27, s)], IL123);
    declare(&mut g, d, &[IL123]);
    let p = g.pending().expect("the defender's Defensive Fire");
    let id = format!("fire:{TN27}@{a}");
    let offer = p.options.iter().find(|c| c.id == id).unwrap_or_else(|| panic!("{:?}", p.options));
    assert!(offer.label.contains("27TN Supporting Defensive Fire at"), "{}", offer.label);
    assert!(offer.label.contains("2 SP, column 2"), "half of 4 SP (SR 9.1d): {}", offer.label);
    choose(&mut g, &id);
    dice(&mut g, &[6, 6]);
    let roll = g.state().log.iter().rev().find(|e| e.roll.is_some()).expect("the d66 logged").text.clone();
    assert!(roll.contains("27TN fires at") && roll.contains("column 2, roll 66:"), "{roll}");
    assert!(roll.contains("Severe"), "{roll}");
    dice(&mut g, &[1, 2]);
    while let Some(p) = g.pending().filter(|p| p.kind == "retreat") {
        let id = p.options[0].id.clone();
        choose(&mut g, &id);
    }
    let map = &g.rules().data().map;
    let now = hex_of(&g, IL123).expect("on the map");
    assert_eq!(map.distance(now, a), 1, "retreated one hex");
    assert!(logged(&g, "123IL retreated or broke under Defensive Fire: out of the Close Combat"));
    assert!(logged(&g, &format!("The Close Combat against {d} has no attacker or defender left")));
    assert!(!matches!(g.state().stage, Stage::CloseCombat { .. }), "{:?}", g.state().stage);
    g.check().expect("the state holds");
}

/// SR 11.3a, 9.1d-e (ruling PC36): the 41st Georgia in the attacked hex and the 27th Tennessee of
/// its brigade in a hex next to it and to the attacking 123rd Illinois fire one Defensive Fire
/// together, the Georgians at their full 7 SP, the Tennesseans at half their 4: 9 SP on column
/// "8-9", the preview itemising each unit's share. The roll 66 calls for a Severe test of the
/// Illinois (modified CR 0); coloured 1 "-" and white 2 "MH R1" make it retreat a hex, out of
/// the Close Combat. Both units have fired.
#[test]
fn sr_11_3a_defensive_fire_combined_with_supporting_fire() {
    let rules = open().0;
    let (a, d, _) = ground(&rules);
    let map = &rules.data().map;
    let c = map.neighbors(d).map(|(_, n)| n).find(|n| map.distance(*n, a) == 1).expect("a hex next to both");
    let mut g = game(&[(IL123, a), (GA41, d), (TN27, c)], IL123);
    declare(&mut g, d, &[IL123]);
    let p = g.pending().expect("the defender's Defensive Fire");
    for alone in [GA41, TN27] {
        assert!(p.options.iter().any(|o| o.id == format!("fire:{alone}@{a}")), "{alone} may still fire alone");
    }
    let id = format!("fire:{GA41}+{TN27}@{a}");
    let offer = p.options.iter().find(|o| o.id == id).unwrap_or_else(|| panic!("{:?}", p.options));
    assert!(offer.label.contains("41GA + 27TN Defensive Fire with Supporting Defensive Fire at"), "{}", offer.label);
    assert!(offer.label.contains("9 SP, column 8-9 no shift"), "7 + half of 4 (SR 9.1d-e): {}", offer.label);
    assert!(offer.label.ends_with("; 41GA 7 SP, 27TN 4→2 SP supporting"), "each share itemised: {}", offer.label);
    choose(&mut g, &id);
    assert!(logged(&g, &format!("41GA + 27TN fire Defensive Fire with Supporting Defensive Fire at {a}")));
    dice(&mut g, &[6, 6]);
    let roll = g.state().log.iter().rev().find(|e| e.roll.is_some()).expect("the d66 logged").text.clone();
    assert!(roll.contains("column 8-9, roll 66:") && roll.contains("Severe"), "{roll}");
    dice(&mut g, &[1, 2]);
    while let Some(p) = g.pending().filter(|p| p.kind == "retreat") {
        let id = p.options[0].id.clone();
        choose(&mut g, &id);
    }
    let now = hex_of(&g, IL123).expect("on the map");
    assert_eq!(g.rules().data().map.distance(now, a), 1, "retreated one hex");
    assert!(logged(&g, "123IL retreated or broke under Defensive Fire: out of the Close Combat"));
    assert!(!matches!(g.state().stage, Stage::CloseCombat { .. }), "{:?}", g.state().stage);
    g.check().expect("the state holds");
}

/// SR 9.3c with 11.3a (ruling PC37): the 41st Georgia, attacked, and the 27th Tennessee, next to
/// the attacking 123rd Illinois on the far side of it, fire into its hex along lines a full
/// hexside apart: the defender announces a Flanking Fire there, both fires, then resolves them in
/// the order announced, each one column right: the Georgians' 7 SP on "6-7" read on "8-9", the
/// Tennesseans' half of 4 on "2" read on "3". The Georgians' 11 calls a Routine test of the
/// Illinois (modified CR 0), whose 1 and 1 do nothing; the Tennesseans' 11 misses. The Close
/// Combat goes on to the attacker's d66.
#[test]
fn sr_9_3c_flanking_defensive_fire() {
    let rules = open().0;
    let (a, d, s) = ground(&rules);
    let mut g = game(&[(IL123, a), (GA41, d), (TN27, s)], IL123);
    declare(&mut g, d, &[IL123]);
    let p = g.pending().expect("the defender's Defensive Fire");
    let flank = format!("flank:{a}");
    assert!(p.options.iter().any(|o| o.id == flank), "{:?}", p.options);
    choose(&mut g, &flank);
    let p = g.pending().expect("the announcement");
    assert_eq!((p.kind.as_str(), p.side.as_str()), ("flanking-fire", "confederate"));
    let ga = format!("fire:{GA41}@{a}");
    let offer = p.options.iter().find(|o| o.id == ga).unwrap_or_else(|| panic!("{:?}", p.options));
    assert!(offer.label.contains("7 SP, column 6-7 Flanking Fire +1"), "{}", offer.label);
    assert!(!p.options.iter().any(|o| o.id == "resolve"), "one line flanks nothing");
    choose(&mut g, &ga);
    let tn = format!("fire:{TN27}@{a}");
    let p = g.pending().expect("the announcement goes on");
    let offer = p.options.iter().find(|o| o.id == tn).unwrap_or_else(|| panic!("{:?}", p.options));
    assert!(offer.label.contains("2 SP, column 2 Flanking Fire +1"), "half of 4 SP (SR 9.1d): {}", offer.label);
    choose(&mut g, &tn);
    choose(&mut g, "resolve");
    dice(&mut g, &[1, 1]);
    let first = g.state().log.iter().rev().find(|e| e.roll.is_some()).expect("the first d66").text.clone();
    assert!(first.contains("41GA fires at") && first.contains("column 8-9, roll 11"), "{first}");
    assert!(first.contains("Routine"), "{first}");
    dice(&mut g, &[1, 1]);
    assert!(logged(&g, "Depletion \"-\", Skedaddle \"-\""), "the Routine test's 1 and 1: no result");
    dice(&mut g, &[1, 1]);
    let second = g.state().log.iter().rev().find(|e| e.roll.is_some()).expect("the second d66").text.clone();
    assert!(second.contains("27TN fires at") && second.contains("column 3, roll 11"), "{second}");
    let Pending::Roll(r) = g.rules_pending() else { panic!("the Close Combat d66: {:?}", g.state().stage) };
    assert!(r.purpose.contains(&format!("Close Combat against {d}")), "{}", r.purpose);
    g.check().expect("the state holds");
}

/// SR 11.3b (ruling PC5): the 2nd Michigan Cavalry, attacked by infantry only, withdraws one hex
/// instead of firing; its hex emptied, the attacker may advance into it (SR 12.7) and no CRT roll
/// is made.
#[test]
fn sr_11_3b_cavalry_withdraws_instead_of_fighting() {
    let rules = open().0;
    let (a, d, _) = ground(&rules);
    let mut g = game(&[(GA41, a), (MI2_CAV, d)], GA41);
    declare(&mut g, d, &[GA41]);
    let p = g.pending().expect("the defender's choice");
    assert_eq!((p.kind.as_str(), p.side.as_str()), ("defensive-fire", "union"));
    let withdraw = p
        .options
        .iter()
        .find(|c| c.id.starts_with(&format!("withdraw:{MI2_CAV}@")))
        .unwrap_or_else(|| panic!("{:?}", p.options))
        .id
        .clone();
    let map = &g.rules().data().map;
    let to: Hex = withdraw.rsplit('@').next().and_then(|h| h.parse().ok()).expect("a hex");
    assert_eq!(map.distance(to, d), 1);
    assert_eq!(map.distance(to, a), 2, "away from the attacker");
    choose(&mut g, &withdraw);
    assert_eq!(hex_of(&g, MI2_CAV), Some(to));
    assert!(logged(&g, &format!("2MI CAV withdraws from {d} to {to} before the Close Combat")));
    let p = g.pending().expect("the advance");
    assert_eq!((p.kind.as_str(), p.side.as_str()), ("advance", "confederate"));
    assert!(p.prompt.contains(&format!("into {d} (up to 1 hexes")), "{}", p.prompt);
    choose(&mut g, &format!("unit:{GA41}"));
    assert_eq!(hex_of(&g, GA41), Some(d));
    assert!(!g.state().log.iter().any(|e| e.text.contains("Close Combat against") && e.roll.is_some()), "no CRT roll");
    let s = g.state();
    assert_eq!(s.units[s.unit_index(MI2_CAV).expect("cav")].morale_hits, 0, "cavalry withdraws without a hit");
    g.check().expect("the state holds");
}

/// EX 11.3b: horse artillery withdraws like cavalry but takes a Morale Hit doing so.
#[test]
fn ex_11_3b_horse_artillery_withdraws_with_a_morale_hit() {
    let rules = open().0;
    let (a, d, _) = ground(&rules);
    let mut g = game(&[(GA41, a), (HOTCHKISS, d)], GA41);
    declare(&mut g, d, &[GA41]);
    let p = g.pending().expect("the defender's choice");
    let option = p
        .options
        .iter()
        .find(|c| c.id.starts_with(&format!("withdraw:{HOTCHKISS}@")))
        .unwrap_or_else(|| panic!("{:?}", p.options));
    assert!(option.label.contains("taking 1 Morale Hit (EX 11.3b)"), "{}", option.label);
    let id = option.id.clone();
    choose(&mut g, &id);
    let s = g.state();
    let u = &s.units[s.unit_index(HOTCHKISS).expect("Hotchkiss")];
    assert_eq!(u.morale_hits, 1, "Shaken by the withdrawal");
    assert_ne!(u.place, Place::Map(d));
    assert!(logged(&g, "Hotchkiss Artillery: Morale Hit: Shaken"));
    g.check().expect("the state holds");
}

/// EX 11.3c xvii: the Confederate attacker holding Rebel Yell! is asked before the dice; played,
/// the d66's request shows the two-column shift and the column two to the right of the one it
/// read before (7 SP of the 41st Georgia on "6-7", and the odds and CR shifts).
#[test]
fn ex_11_3c_xvii_rebel_yell_shifts_the_column() {
    let rules = open().0;
    let (a, d, _) = ground(&rules);
    let mut g = game(&[(GA41, a), (IL123, d)], GA41);
    let mut state = g.state().clone();
    state.chits.held[ix(caisson_blindswords::catalog::Side::Confederate)] = vec!["c-rebel-yell".into()];
    g = manual_game(g.rules().clone(), state);
    declare(&mut g, d, &[GA41]);
    choose(&mut g, "hold");
    let p = g.pending().expect("the attacker's held chit");
    assert_eq!((p.kind.as_str(), p.side.as_str()), ("event", "confederate"));
    assert!(p.prompt.contains("→ "), "the assessment before the chit: {}", p.prompt);
    let before = p.prompt.split("→ ").nth(1).and_then(|t| t.split(';').next()).expect("a column").to_string();
    let play = p.options.iter().find(|c| c.id == "play:c-rebel-yell").unwrap_or_else(|| panic!("{:?}", p.options));
    assert!(play.label.contains("two columns right"), "{}", play.label);
    choose(&mut g, "play:c-rebel-yell");
    let Pending::Roll(r) = g.rules_pending() else { panic!("the d66: {:?}", g.state().stage) };
    assert!(r.purpose.contains("Rebel Yell! +2 [EX 11.3c xvii]"), "{}", r.purpose);
    let crt = &g.rules().data().charts.crt;
    let labels: Vec<&str> = (0..13).filter_map(|c| crt.label(c)).collect();
    let from = labels.iter().position(|l| *l == before).expect("a CRT column");
    let to = labels.get(from + 2).copied().unwrap_or("23+");
    assert!(r.purpose.contains(&format!("→ {to};")), "{before} shifted two right is {to}: {}", r.purpose);
    let s = g.state();
    assert!(!s.chits.held[ix(caisson_blindswords::catalog::Side::Confederate)].contains(&"c-rebel-yell".to_string()));
    assert!(logged(&g, "plays Rebel Yell!"));
}

trait RulesPending {
    fn rules_pending(&self) -> Pending;
}

impl RulesPending for Game<BlindSwords> {
    fn rules_pending(&self) -> Pending {
        caisson_kernel::Rules::pending(self.rules(), self.state())
    }
}
