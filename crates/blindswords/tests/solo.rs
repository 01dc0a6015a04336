//! EX 16.0d, the solo variant (game option `solo=liddell`): no activation roll for Buckner but
//! a Command Confusion roll for Liddell's order, all three Confederate events in the cup each
//! turn, the 7th Arkansas maneuvering on turn 1; and random games with the variant on end cleanly.

use caisson_blindswords::charts::Order;
use caisson_blindswords::registry::{self, SYSTEM};
use caisson_blindswords::setup::Data;
use caisson_blindswords::special::Options;
use caisson_blindswords::state::Stage;
use caisson_blindswords::BlindSwords;
use caisson_kernel::{random_choice, Dice, DiceMode, Game, Pending, Rules, Setup};

const CONFEDERATE_EVENTS: [&str; 3] = ["c-rally", "c-rebel-yell", "c-sharpshooters"];

fn solo_game(seed: u64, dice: DiceMode) -> Game<BlindSwords> {
    let settings = Options { solo: true, ..Options::default() };
    let (rules, state) =
        BlindSwords::with_options(Data::builtin().expect("built-in data"), "pv-16-0", settings).expect("scenario");
    let setup =
        Setup { system: SYSTEM.into(), scenario: "pv-16-0".into(), seed, dice, options: vec!["solo=liddell".into()] };
    Game::new(rules, state, setup)
}

fn dice(g: &mut Game<BlindSwords>, faces: &[u8]) {
    for f in faces {
        g.choose(&format!("die:{f}")).unwrap_or_else(|e| panic!("die {f}: {e}"));
    }
}

/// The dice that pick chit `i` of a cup of up to 36 (two dice read in base 6).
fn dice_for_index(i: usize) -> [u8; 2] {
    [u8::try_from(i / 6 + 1).unwrap_or(0), u8::try_from(i % 6 + 1).unwrap_or(0)]
}

/// Turn 1 to the draw: the Union Key Chit and random event; the Confederates pick nothing.
fn command_phase(g: &mut Game<BlindSwords>) {
    let d = g.pending().expect("the Union key chit");
    assert_eq!((d.kind.as_str(), d.side.as_str()), ("key-chit", "union"));
    let first = d.options[0].id.clone();
    g.choose(&first).expect("key chit");
    // The Union random event (two dice); then straight to the draw: no Confederate choice.
    dice(g, &[1, 1]);
    assert_eq!(g.state().stage, Stage::Draw, "{:?}", g.log().last());
}

/// Draws Buckner and activates Liddell.
fn draw_buckner(g: &mut Game<BlindSwords>) {
    let i = g.state().chits.cup.iter().position(|c| c == "buckner").expect("buckner in the cup");
    dice(g, &dice_for_index(i));
    let d = g.pending().expect("pick the brigade");
    assert_eq!((d.kind.as_str(), d.side.as_str()), ("activate", "confederate"));
    g.choose("brigade:liddell").expect("Liddell");
}

/// EX 16.0d: all three Confederate event chits go in the cup, with no Key Chit and no random
/// pick; the Union keeps its Key Chit and random event (EX 16.0a): 2 + 3 + 2 DACs + 2 Wild = 9.
#[test]
fn ex_16_0d_all_three_confederate_events_in_the_cup() {
    let mut g = solo_game(1, DiceMode::Manual);
    command_phase(&mut g);
    let cup = &g.state().chits.cup;
    for e in CONFEDERATE_EVENTS {
        assert!(cup.contains(&e.to_string()), "{e} not in {cup:?}");
    }
    assert_eq!(cup.len(), 9, "{cup:?}");
    assert!(g.state().chits.key[1].is_none(), "no Confederate Key Chit");
    assert!(g.log().iter().any(|l| l.rule.as_deref() == Some("EX 16.0d") && l.text.contains("every event chit")));
}

/// EX 16.0d: drawing Buckner makes no activation roll; a Command Confusion roll (here 5: Attack,
/// ruling A-10) sets Liddell's order with no Orders Step, and on turn 1 the 7th Arkansas moves
/// with the Maneuver allowance while the rest of the brigade has the Attack one.
#[test]
fn ex_16_0d_command_confusion_sets_liddells_order() {
    let mut g = solo_game(1, DiceMode::Manual);
    command_phase(&mut g);
    draw_buckner(&mut g);
    assert!(matches!(g.state().stage, Stage::SoloOrders { .. }), "no activation roll: {:?}", g.state().stage);
    let Pending::Roll(r) = g.rules().pending(g.state()) else { panic!("a roll") };
    assert_eq!((r.rule.as_str(), r.dice), ("EX 16.0d, SR 7.3", 1));
    assert!(r.purpose.contains("Command Confusion"), "{}", r.purpose);
    dice(&mut g, &[5]);
    assert_eq!(g.state().brigade("liddell").and_then(|b| b.order), Some(Order::Attack));
    let texts: Vec<&str> = g.log().iter().map(|l| l.text.as_str()).collect();
    assert!(
        texts.iter().any(|t| t.starts_with("Command Confusion 5: St. John Liddell's order is Attack")),
        "{texts:?}"
    );
    assert!(!g.log().iter().any(|l| l.rule.as_deref() == Some("SR 7.3, A-01")), "no activation roll logged");
    let d = g.pending().expect("Liddell's Movement Step");
    assert_eq!((d.kind.as_str(), d.side.as_str()), ("move-unit", "confederate"));
    let label = |id: &str| d.options.iter().find(|c| c.id == id).map(|c| c.label.clone()).unwrap_or_default();
    assert!(label("unit:c-7ar").ends_with("MA 6"), "7th Arkansas maneuvers: {}", label("unit:c-7ar"));
    assert!(label("unit:c-2ar").ends_with("MA 4"), "2nd Arkansas attacks: {}", label("unit:c-2ar"));
    g.choose("unit:c-7ar").expect("7th Arkansas");
    let Stage::Move { current: Some(m), .. } = &g.state().stage else { panic!("moving") };
    assert!((m.mp - 6.0).abs() < f64::EPSILON, "{}", m.mp);
}

/// EX 16.0d: a Command Confusion 1 is Regroup (SR 7.3 example): Liddell's brigade stays put, but
/// on turn 1 the 7th Arkansas still moves to rejoin it under a Maneuver order.
#[test]
fn ex_16_0d_regroup_still_moves_the_7th_arkansas_on_turn_1() {
    let mut g = solo_game(1, DiceMode::Manual);
    command_phase(&mut g);
    draw_buckner(&mut g);
    dice(&mut g, &[1]);
    assert_eq!(g.state().brigade("liddell").and_then(|b| b.order), Some(Order::Regroup));
    let ar7 = g.state().unit_index("c-7ar").expect("7th Arkansas");
    let Stage::Move { current: Some(m), moved, .. } = &g.state().stage else { panic!("{:?}", g.state().stage) };
    assert_eq!(m.unit, ar7, "the 7th Arkansas moves");
    assert!((m.mp - 6.0).abs() < f64::EPSILON, "under the Maneuver allowance: {}", m.mp);
    let brigade: Vec<usize> = (0..g.state().units.len())
        .filter(|&i| i != ar7 && g.state().units[i].brigade.as_deref() == Some("liddell"))
        .collect();
    assert!(brigade.iter().all(|i| moved.contains(i)), "the rest of the brigade stays");
}

/// Without the option, Buckner's activation is rolled for (ruling A-01), and the option is
/// refused in a scenario with no solo variant.
#[test]
fn the_option_is_off_by_default_and_only_for_pv_16_0() {
    let (rules, state) = BlindSwords::new(Data::builtin().expect("data"), "pv-16-0").expect("scenario");
    assert!(!rules.options().solo);
    assert!(matches!(state.stage, Stage::KeyChit { .. }));
    let setup = |scenario: &str| Setup {
        system: SYSTEM.into(),
        scenario: scenario.into(),
        seed: 1,
        dice: DiceMode::Seeded,
        options: vec!["solo=liddell".into()],
    };
    assert!(registry::new_game(&setup("pv-16-0")).is_ok());
    let err = registry::new_game(&setup("pv-16-1")).err().unwrap_or_default();
    assert!(err.contains("scenario `pv-16-1` has no solo variant"), "{err}");
    let data = Data::builtin().expect("built-in data");
    let sc = data.scenarios.iter().find(|s| s.id == "pv-16-0").expect("pv-16-0");
    let err = Options::parse(&["solo=grant".into()], sc).err().unwrap_or_default();
    assert!(err.contains("game option `solo=grant`: give `solo=liddell` or `solo=off`"), "{err}");
    let err = BlindSwords::with_options(
        Data::builtin().expect("built-in data"),
        "pv-16-1",
        Options { solo: true, ..Options::default() },
    )
    .err()
    .unwrap_or_default();
    assert!(err.contains("no solo variant"), "{err}");
}

/// Random games with the variant on: `check` after every step, no dead end, the game ends on
/// its last turn; at every Artillery Phase (the cup is full, nothing drawn yet) the three
/// Confederate events are in the cup, every turn.
#[test]
fn random_solo_games_end_cleanly_with_all_events_each_turn() {
    for seed in 0..5 {
        let mut g = solo_game(seed, DiceMode::Seeded);
        let mut dice = Dice::new(seed ^ 0x5eed);
        let mut checked = Vec::new();
        let mut steps = 0;
        while let Some(d) = g.pending() {
            assert!(!d.options.is_empty(), "seed {seed}: dead end at {}", d.prompt);
            g.check().unwrap_or_else(|e| panic!("seed {seed} step {steps}: {e}"));
            assert!(d.kind != "order" || d.side == "union", "seed {seed}: Liddell gets no Orders Step");
            if matches!(g.state().stage, Stage::Artillery { .. }) && !checked.contains(&g.state().turn) {
                for e in CONFEDERATE_EVENTS {
                    assert!(g.state().chits.cup.contains(&e.to_string()), "seed {seed} turn {}", g.state().turn);
                }
                checked.push(g.state().turn);
            }
            let id = random_choice(&d, &mut dice).to_string();
            g.choose(&id).unwrap_or_else(|e| panic!("seed {seed}: {id}: {e}"));
            steps += 1;
            assert!(steps < 100_000, "seed {seed}: no end");
        }
        assert_eq!(g.state().turn, 8);
        assert_eq!(checked, (2..=8).collect::<Vec<u16>>(), "seed {seed}: an Artillery Phase on turns 2-8");
    }
}
