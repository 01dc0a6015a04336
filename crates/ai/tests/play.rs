//! The computer opponent through the decision protocol: it answers every decision of every HSN
//! scenario on either side, the same seed gives the same game, and it beats the random player.

use caisson_ai::{bot_seed, decide, gcacw, Bot, Level};
use caisson_gcacw::registry::{self, HSN_IDS};
use caisson_gcacw::{Gcacw, Side};
use caisson_kernel::{DiceMode, DynGame, Game};

/// Plays a game between two bots, seeded as bot matches and the web server seed them; returns
/// the game and whether it ended within `max_steps` decisions.
fn play(scenario: &str, seed: u64, union: Bot, confederate: Bot, max_steps: usize) -> (Box<dyn DynGame>, bool) {
    let setup = registry::setup(scenario, seed, DiceMode::Seeded, Vec::new());
    let mut game = registry::new_game(&setup).expect("a game");
    for _ in 0..max_steps {
        let Some(d) = game.pending() else { return (game, true) };
        let bot = if d.side == Side::Union.id() { union } else { confederate };
        let id = bot.choose(game.as_ref(), bot_seed(seed, game.actions().len() as u64)).expect("a choice");
        assert!(d.options.iter().any(|c| c.id == id), "{scenario}: `{id}` was not offered in {}", d.prompt);
        game.choose(&id).expect("an offered option is accepted");
    }
    let over = game.pending().is_none();
    (game, over)
}

fn winner(game: &dyn DynGame) -> Option<Side> {
    let g = game.as_any().downcast_ref::<Game<Gcacw>>().expect("a GCACW game");
    gcacw::winner(g.rules(), g.state())
}

#[test]
fn the_ai_plays_every_scenario_to_its_end_on_either_side() {
    for (i, id) in HSN_IDS.iter().enumerate() {
        // Scenario 9 is the 32-turn campaign: a bounded stretch of it.
        let steps = if *id == "hsn-9" { 1500 } else { 20_000 };
        let ai = Bot::Ai(Level::Easy);
        let (game, over) = play(id, 40 + i as u64, ai, ai, steps);
        assert!(over || *id == "hsn-9", "{id} did not end in {steps} decisions");
        if over {
            assert!(winner(game.as_ref()).is_some(), "{id} ended with a victory level naming a side");
        }
    }
}

#[test]
fn the_search_answers_every_kind_of_decision_it_meets() {
    // The default level on both sides of a short scenario: every choice is offered (checked in
    // `play`) and the game ends.
    let ai = Bot::Ai(Level::Normal);
    let (game, over) = play("hsn-1", 5, ai, ai, 5_000);
    assert!(over, "hsn-1 ended");
    assert!(game.actions().len() > 50, "a real game was played");
}

#[test]
fn a_seed_gives_the_same_game_twice() {
    let (a, _) = play("hsn-1", 9, Bot::Ai(Level::Normal), Bot::Ai(Level::Easy), 5_000);
    let (b, _) = play("hsn-1", 9, Bot::Ai(Level::Normal), Bot::Ai(Level::Easy), 5_000);
    assert_eq!(a.actions(), b.actions());
    assert_eq!(a.state_hash(), b.state_hash());
    let (c, _) = play("hsn-1", 10, Bot::Ai(Level::Normal), Bot::Ai(Level::Easy), 5_000);
    assert_ne!(a.actions(), c.actions(), "another seed, another game");
}

fn vp(game: &dyn DynGame) -> f64 {
    let g = game.as_any().downcast_ref::<Game<Gcacw>>().expect("a GCACW game");
    caisson_gcacw::victory::score(g.rules(), g.state()).total
}

#[test]
fn the_ai_beats_the_random_player() {
    for (scenario, side) in [("hsn-5", Side::Union), ("hsn-1", Side::Confederate), ("hsn-8", Side::Confederate)] {
        for seed in 1..=4 {
            let (union, confederate) = match side {
                Side::Union => (Bot::Ai(Level::Easy), Bot::Random),
                Side::Confederate => (Bot::Random, Bot::Ai(Level::Easy)),
            };
            let (game, over) = play(scenario, seed, union, confederate, 20_000);
            assert!(over);
            assert_eq!(winner(game.as_ref()), Some(side), "{scenario} seed {seed}");
        }
    }
    // HSN Sc 3, where the Union must bring its divisions and wagons to Franklin: the AI's Union
    // scores far more than a random Union against the same random Confederates.
    let mean = |union: Bot| {
        (1..=4).map(|seed| vp(play("hsn-3", seed, union, Bot::Random, 20_000).0.as_ref())).sum::<f64>() / 4.0
    };
    let (ai, random) = (mean(Bot::Ai(Level::Easy)), mean(Bot::Random));
    assert!(ai > random + 10.0, "Union VP in hsn-3: AI {ai}, random {random}");
}

#[test]
fn a_roll_to_enter_by_hand_is_rolled_not_searched() {
    let setup = registry::setup("hsn-1", 3, DiceMode::Manual, Vec::new());
    let mut game = registry::new_game(&setup).expect("a game");
    let g = game.as_any().downcast_ref::<Game<Gcacw>>().expect("GCACW");
    let h = gcacw::GcacwHeuristics::new(g.rules());
    // Play until a die is asked for.
    for n in 0..500u64 {
        let d = game.pending().expect("not over yet");
        let g = game.as_any().downcast_ref::<Game<Gcacw>>().expect("GCACW");
        let id = decide(g.rules(), g.state(), &d, &h, Level::Normal, n);
        if d.kind == "roll" {
            assert!(id.starts_with("die:"), "{id}");
            return;
        }
        game.choose(&id).expect("offered");
    }
    panic!("no die to enter in 500 decisions");
}

#[test]
fn bot_names_round_trip() {
    for name in Bot::NAMES {
        let bot = Bot::parse(name).expect(name);
        assert_eq!(Bot::parse(&bot.name()), Some(bot));
    }
    assert_eq!(Bot::parse("ai"), Some(Bot::Ai(Level::Normal)));
    assert_eq!(Bot::parse("ai-genius"), None);
    assert_eq!(Bot::parse("Random"), None);
}
