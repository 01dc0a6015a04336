//! The Liddell-bot (EX 16.0d) in pv-16-0 with the solo variant on: whole games against the
//! random player end cleanly and replay from their seed; the bot decides from the Confederate
//! view only; under Attack it closes on the Union, under Defend it does not, and on turn 1 the
//! 7th Arkansas heads back to its brigade.

use caisson_ai::{bot_seed, liddell, Bot};
use caisson_blindswords::registry::SYSTEM;
use caisson_blindswords::setup::Data;
use caisson_blindswords::special::Options;
use caisson_blindswords::state::{Place, State};
use caisson_blindswords::BlindSwords;
use caisson_hexmap::Hex;
use caisson_kernel::{random_choice, Dice, DiceMode, Game, Pending, Rules, Setup};

fn setup(seed: u64, dice: DiceMode) -> Setup {
    Setup { system: SYSTEM.into(), scenario: "pv-16-0".into(), seed, dice, options: vec!["solo=liddell".into()] }
}

fn rules_and_state() -> (BlindSwords, State) {
    let settings = Options { solo: true, ..Options::default() };
    BlindSwords::with_options(Data::builtin().expect("data"), "pv-16-0", settings).expect("scenario")
}

/// Liddell (Confederate) against the random player (Union) to the end; the actions taken.
fn play(seed: u64) -> Vec<String> {
    let mut g = caisson_blindswords::registry::new_game(&setup(seed, DiceMode::Seeded)).expect("game");
    let mut dice = Dice::new(seed ^ 0x5eed);
    let mut steps = 0u64;
    while let Some(d) = g.pending() {
        assert!(!d.options.is_empty(), "seed {seed}: dead end at {}", d.prompt);
        g.check().unwrap_or_else(|e| panic!("seed {seed} step {steps}: {e}"));
        let id = if d.side == "confederate" {
            Bot::Liddell.choose(g.as_ref(), bot_seed(seed, steps)).expect("a choice")
        } else {
            random_choice(&d, &mut dice).to_string()
        };
        g.choose(&id).unwrap_or_else(|e| panic!("seed {seed}: {} refused {id}: {e}", d.side));
        steps += 1;
        assert!(steps < 100_000, "seed {seed}: no end");
    }
    g.check().unwrap_or_else(|e| panic!("seed {seed} at the end: {e}"));
    assert!(g.log().iter().any(|l| l.text.starts_with("The game is over")), "seed {seed}");
    g.actions().to_vec()
}

#[test]
fn liddell_plays_pv_16_0_to_the_end_against_random() {
    for seed in 0..6 {
        play(seed);
    }
}

#[test]
fn the_same_seed_gives_the_same_game() {
    assert_eq!(play(11), play(11));
}

/// `Bot::Liddell` decides from `view(Some("confederate"))` alone: its choice is the one the
/// module makes from that view, and it stays the same when the Union's secret chits (held
/// events, Key Chit) are changed in the state behind the view.
#[test]
fn liddell_reads_only_the_confederate_view() {
    let (rules, mut state) = rules_and_state();
    let mut dice = Dice::new(5);
    let mut compared = 0;
    for step in 0..3000u64 {
        let decision = match rules.pending(&state) {
            Pending::Decide(d) => d,
            Pending::Roll(r) => {
                let faces: Vec<u8> = (0..r.dice).map(|_| dice.d6()).collect();
                rules.roll(&mut state, &faces).expect("dice");
                continue;
            }
            Pending::Over => break,
        };
        let pick = if decision.side == "confederate" {
            let view = rules.view(&state, Some("confederate"));
            let mine = liddell::choose(&rules, &view, &decision, step);
            let mut other = state.clone();
            other.chits.held[0].clear();
            other.chits.key[0] = None;
            let altered = rules.view(&other, Some("confederate"));
            assert_eq!(mine, liddell::choose(&rules, &altered, &decision, step), "step {step}");
            compared += 1;
            mine
        } else {
            random_choice(&decision, &mut dice).to_string()
        };
        rules.choose(&mut state, &pick).unwrap_or_else(|e| panic!("{pick}: {e}"));
    }
    assert!(compared > 20, "{compared} Confederate decisions compared");

    let g = caisson_blindswords::registry::new_game(&setup(3, DiceMode::Seeded)).expect("game");
    let mut g = g;
    while let Some(d) = g.pending() {
        if d.side == "confederate" && d.kind == "move-unit" {
            let concrete = g.as_any().downcast_ref::<Game<BlindSwords>>().expect("a Blind Swords game");
            let view = g.view(Some("confederate"));
            assert_eq!(Bot::Liddell.choose(g.as_ref(), 9), Some(liddell::choose(concrete.rules(), &view, &d, 9)));
            return;
        }
        let id = random_choice(&d, &mut Dice::new(1)).to_string();
        g.choose(&id).expect("legal");
    }
    panic!("no Confederate movement in the game");
}

fn hex_of(g: &Game<BlindSwords>, id: &str) -> Option<Hex> {
    g.state().unit_index(id).and_then(|i| match g.state().units[i].place {
        Place::Map(h) => Some(h),
        _ => None,
    })
}

fn nearest(g: &Game<BlindSwords>, from: Hex, side: &str, except: &str) -> u16 {
    let map = &g.rules().data().map;
    g.state()
        .units
        .iter()
        .filter(|u| caisson_blindswords::state::side_id(u.side) == side && u.id != except)
        .filter_map(|u| match u.place {
            Place::Map(h) => Some(map.distance(from, h)),
            _ => None,
        })
        .min()
        .unwrap_or(u16::MAX)
}

/// Turn 1 with manual dice up to Liddell's Movement Step, the Command Confusion die given.
fn turn_1_liddell(confusion: u8) -> Game<BlindSwords> {
    let (rules, state) = rules_and_state();
    let mut g = Game::new(rules, state, setup(1, DiceMode::Manual));
    let key = g.pending().expect("Union key chit").options[0].id.clone();
    g.choose(&key).expect("key");
    for f in [1, 1] {
        g.choose(&format!("die:{f}")).expect("die");
    }
    let i = g.state().chits.cup.iter().position(|c| c == "buckner").expect("buckner");
    for f in [i / 6 + 1, i % 6 + 1] {
        g.choose(&format!("die:{f}")).expect("die");
    }
    let pick = Bot::Liddell.choose(&g, 1).expect("the brigade");
    assert_eq!(pick, "brigade:liddell");
    g.choose(&pick).expect("brigade");
    g.choose(&format!("die:{confusion}")).expect("Command Confusion");
    g
}

/// Plays the bot's choices for the Confederate Movement Step; returns each unit's hexes before.
fn liddell_moves(g: &mut Game<BlindSwords>) -> Vec<(String, Hex)> {
    let before: Vec<(String, Hex)> = ["c-2ar", "c-5ar", "c-6ar", "c-7ar", "c-8ar"]
        .iter()
        .filter_map(|id| Some((id.to_string(), hex_of(g, id)?)))
        .collect();
    for step in 0..500 {
        let Some(d) = g.pending() else { break };
        if d.side != "confederate" || !d.kind.starts_with("move") {
            break;
        }
        let id = Bot::Liddell.choose(g, step).expect("a choice");
        g.choose(&id).expect("legal");
    }
    before
}

/// Attack (Command Confusion 5): every unit of the brigade but the maneuvering 7th Arkansas ends
/// nearer the Union than it started (they start 9 or more hexes away, EX 16.0 set-up).
#[test]
fn under_attack_liddell_closes_on_the_union() {
    let mut g = turn_1_liddell(5);
    for (id, from) in liddell_moves(&mut g) {
        if id == "c-7ar" {
            continue;
        }
        let to = hex_of(&g, &id).expect("on the map");
        assert!(nearest(&g, to, "union", "") < nearest(&g, from, "union", ""), "{id}: {from} → {to}");
    }
}

/// Defend (Command Confusion 2): no unit ends nearer the Union than it started once within
/// three hexes of it, and the 7th Arkansas (EX 16.0d, turn 1) ends nearer its brigade.
#[test]
fn under_defend_liddell_holds_and_the_7th_arkansas_rejoins() {
    let mut g = turn_1_liddell(2);
    for (id, from) in liddell_moves(&mut g) {
        let to = hex_of(&g, &id).expect("on the map");
        let (before, after) = (nearest(&g, from, "union", ""), nearest(&g, to, "union", ""));
        assert!(after >= before || after > 3, "{id}: {from} → {to}");
        if id == "c-7ar" {
            let mates = |h| nearest(&g, h, "confederate", "c-7ar");
            assert!(mates(to) < mates(from), "7th Arkansas rejoins: {from} → {to}");
        }
    }
}
