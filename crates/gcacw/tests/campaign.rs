//! HSN Scenario 9, the Advanced Game campaign, as a whole: a save made in the middle of the
//! campaign reloads and goes on exactly as the game it was taken from (a game is scenario +
//! seed + choices; saves store the log with its hash chain).

use caisson_gcacw::{registry, Gcacw};
use caisson_kernel::{random_choice, Dice, DiceMode, DynGame, Game, Save};

/// The turn being played.
fn turn(g: &dyn DynGame) -> u16 {
    g.as_any().downcast_ref::<Game<Gcacw>>().map_or(0, |g| g.state().turn)
}

/// Plays random choices until `until` has begun or the game is over.
fn play_until(g: &mut Box<dyn DynGame>, dice: &mut Dice, until: u16) {
    while let Some(d) = g.pending() {
        if turn(g.as_ref()) >= until {
            return;
        }
        let pick = random_choice(&d, dice).to_string();
        g.choose(&pick).expect("an offered option is legal");
    }
}

#[test]
fn a_campaign_saved_mid_game_reloads_and_continues_identically() {
    for seed in [3, 11] {
        let mut g = registry::new_game(&registry::setup("hsn-9", seed, DiceMode::Seeded, vec![])).expect("new");
        let mut dice = Dice::new(seed);
        play_until(&mut g, &mut dice, 12);
        let reached = turn(g.as_ref());
        assert!(reached >= 12, "seed {seed}: the campaign reached turn {reached} only");

        // Save through JSON, as a file would, and load it back.
        let text = g.save().to_json();
        let save = Save::from_json(&text).expect("the save parses");
        let mut h = registry::load_game(&save).expect("the save loads");
        assert_eq!(h.state_hash(), g.state_hash(), "seed {seed}: the reloaded state differs");
        assert_eq!(h.pending(), g.pending(), "seed {seed}: the reloaded game waits for something else");

        // Both copies take the same choices to the end of the campaign.
        let mut dice_h = dice.clone();
        play_until(&mut g, &mut dice, u16::MAX);
        play_until(&mut h, &mut dice_h, u16::MAX);
        assert_eq!(h.state_hash(), g.state_hash(), "seed {seed}: the games diverged after the reload");
        assert!(g.pending().is_none(), "seed {seed}: the campaign ends");
        assert_eq!(turn(g.as_ref()), 32, "seed {seed}: it ends after Turn 32");
    }
}
