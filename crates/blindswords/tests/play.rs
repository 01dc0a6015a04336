//! Random play to the end: every scenario, many seeds, seeded dice; `check` after every step,
//! no dead end (a decision with no option), every game over within its turns; and hidden
//! information: at every step, neither side's view shows the other's held chits or Key Chit.

use caisson_blindswords::registry::SYSTEM;
use caisson_blindswords::scenario::SCENARIOS;
use caisson_blindswords::setup::Data;
use caisson_blindswords::state::{ix, State};
use caisson_blindswords::BlindSwords;
use caisson_kernel::{random_choice, Dice, DiceMode, Game, Rules, Setup};

fn game(scenario: &str, seed: u64, dice: DiceMode) -> Game<BlindSwords> {
    let (rules, state) = BlindSwords::new(Data::builtin().expect("built-in data"), scenario).expect("scenario");
    let setup = Setup { system: SYSTEM.into(), scenario: scenario.into(), seed, dice, options: vec![] };
    Game::new(rules, state, setup)
}

/// The ids and names of `side`'s secret chits (held, and the Key Chit while in the cup) as the
/// view would write them, leaving out a name that also names a chit the viewer may see.
fn secrets(rules: &BlindSwords, state: &State, side: usize) -> Vec<String> {
    let cat = &rules.data().catalog;
    let viewer = 1 - side;
    let visible: Vec<&str> = state.chits.held[viewer]
        .iter()
        .chain(state.chits.key[viewer].iter())
        .chain(&state.chits.played)
        .filter_map(|c| cat.chit(c).map(|c| c.name.as_str()))
        .collect();
    let mut out = Vec::new();
    // EX 16.3: the side of the Union's Right Hook marker, until revealed.
    if side == 0 && state.special.hook.is_some() && !state.special.hook_revealed {
        out.push("\"right_hook\":\"right-hook\"".to_string());
        out.push("\"right_hook\":\"no-right-hook\"".to_string());
    }
    for id in state.chits.held[side].iter().chain(state.chits.key[side].iter()) {
        out.push(format!("\"{id}\""));
        if let Some(c) = cat.chit(id) {
            if !visible.contains(&c.name.as_str()) && !cat.chits.iter().any(|o| o.name == c.name && o.id != c.id) {
                out.push(format!("\"name\":\"{}\"", c.name));
            }
        }
    }
    out
}

fn play(scenario: &str, seed: u64, hidden: bool) -> (usize, String) {
    let mut g = game(scenario, seed, DiceMode::Seeded);
    let mut dice = Dice::new(seed ^ 0x5eed);
    let mut steps = 0;
    while let Some(d) = g.pending() {
        assert!(!d.options.is_empty(), "{scenario} seed {seed}: dead end at {}", d.prompt);
        g.check().unwrap_or_else(|e| panic!("{scenario} seed {seed} step {steps}: {e}"));
        if hidden {
            for (side, viewer) in [(0, "confederate"), (1, "union")] {
                let text = serde_json::to_string(&g.rules().view(g.state(), Some(viewer))).unwrap_or_default();
                for s in secrets(g.rules(), g.state(), side) {
                    assert!(!text.contains(&s), "{scenario} seed {seed}: {viewer} view shows {s}");
                }
            }
        }
        let id = random_choice(&d, &mut dice).to_string();
        g.choose(&id).unwrap_or_else(|e| panic!("{scenario} seed {seed}: {id}: {e}"));
        steps += 1;
        assert!(steps < 200_000, "{scenario} seed {seed}: no end after {steps} decisions");
    }
    g.check().unwrap_or_else(|e| panic!("{scenario} seed {seed} at the end: {e}"));
    let state = g.state();
    assert!(
        state.turn == g.rules().turns() || state.special.sudden_death.is_some(),
        "{scenario} seed {seed} ends on its last turn, or earlier by Sudden Death (EX 16.1)"
    );
    let result = caisson_blindswords::victory::score(g.rules(), state).result;
    (steps, result)
}

/// 50 seeds of each scenario in a release build (`cargo test --release`), 5 in a debug build,
/// where a game of the larger scenarios takes over a second; `BS_SEEDS=n` sets the number.
#[test]
fn random_games_end_without_dead_ends() {
    let default = if cfg!(debug_assertions) { 5 } else { 50 };
    let seeds: u64 = std::env::var("BS_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(default);
    for scenario in SCENARIOS {
        let mut total = 0;
        for seed in 0..seeds {
            total += play(scenario, seed, false).0;
        }
        eprintln!("{scenario}: {seeds} games, {} decisions on average", total / seeds as usize);
    }
}

/// Every step of three games of the introductory scenario (the views of the longer ones carry
/// a log of thousands of lines, too slow to serialise at every step of a debug build).
#[test]
fn views_never_show_the_other_sides_secret_chits() {
    for seed in 0..3 {
        play(SCENARIOS[0], 1000 + seed, true);
    }
}

/// Both sides' key chits are chosen, the union one is in the Union view and not in the other.
#[test]
fn key_chit_is_secret() {
    let mut g = game("pv-16-0", 3, DiceMode::Seeded);
    let d = g.pending().expect("a decision");
    assert_eq!(d.kind, "key-chit");
    let pick = d.options[0].id.clone();
    let id = pick.trim_start_matches("key:").to_string();
    g.choose(&pick).expect("legal");
    assert_eq!(g.state().chits.key[ix(caisson_blindswords::catalog::Side::Union)].as_deref(), Some(id.as_str()));
    let union = serde_json::to_string(&g.rules().view(g.state(), Some("union"))).unwrap_or_default();
    let confederate = serde_json::to_string(&g.rules().view(g.state(), Some("confederate"))).unwrap_or_default();
    assert!(union.contains(&format!("\"{id}\"")));
    assert!(!confederate.contains(&format!("\"{id}\"")));
    assert!(confederate.contains("\"hidden\""));
}

/// EX 16.3: through the first turn of Crittenden's Right Hook, to the reveal decision and past
/// it, the Confederate view never shows the side of the Union's marker nor his secret chits
/// (every tenth step: a debug build serialises the views slowly).
#[test]
fn views_never_show_the_right_hook_marker() {
    for (seed, pick) in [(21, "hook:right-hook"), (22, "hook:no-right-hook")] {
        let mut g = game("pv-16-3", seed, DiceMode::Seeded);
        g.choose(pick).expect("the secret marker");
        let mut dice = Dice::new(seed);
        let mut steps = 0;
        while g.state().turn == 1 {
            let d = g.pending().expect("a decision");
            if steps % 10 == 0 || d.kind == "right-hook" {
                let text = serde_json::to_string(&g.rules().view(g.state(), Some("confederate"))).unwrap_or_default();
                for s in secrets(g.rules(), g.state(), 0) {
                    assert!(!text.contains(&s), "seed {seed}: the Confederate view shows {s}");
                }
            }
            let id = random_choice(&d, &mut dice).to_string();
            g.choose(&id).unwrap_or_else(|e| panic!("seed {seed}: {id}: {e}"));
            steps += 1;
        }
    }
}
