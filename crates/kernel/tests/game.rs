//! The kernel's promises, checked on the toy "Race" rules: determinism, saves that replay and
//! refuse tampering, illegal choices that change nothing, manual dice that reproduce seeded
//! games, undo that never takes back a roll or the opponent's view, and random players that only
//! pick offered options.

use caisson_kernel::game::{SAVE_FORMAT, SAVE_VERSION};
use caisson_kernel::toy::{toy_game, toy_load, toy_setup, Race};
use caisson_kernel::{random_choice, Dice, DiceMode, Game, GameError, RuleError, Save, SaveError};
use sha2::{Digest, Sha256};

/// Plays `choices` in order; every one must be accepted.
fn play(g: &mut Game<Race>, choices: &[&str]) {
    for c in choices {
        if let Err(e) = g.choose(c) {
            panic!("choice `{c}` refused: {e}");
        }
    }
}

/// Plays a whole game with a random player whose dice have `player_seed`; returns the choices.
fn play_randomly(g: &mut Game<Race>, player_seed: u64) -> Vec<String> {
    let mut player = Dice::new(player_seed);
    let mut steps = 0;
    while let Some(d) = g.pending() {
        let id = random_choice(&d, &mut player).to_string();
        g.choose(&id).expect("a random choice among the offered options is accepted");
        steps += 1;
        assert!(steps < 10_000, "the game does not end");
    }
    g.actions().to_vec()
}

/// A seeded game a few choices in, with rolls made: union rolls two, confederate one, union passes.
fn midgame(seed: u64) -> Game<Race> {
    let mut g = toy_game(&toy_setup(seed, DiceMode::Seeded));
    play(&mut g, &["roll:2", "roll:1", "pass", "roll:1"]);
    g
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

// ---------------------------------------------------------------------------------------------
// Determinism

#[test]
fn same_setup_and_same_choices_give_the_same_state_hash() {
    let a = midgame(42);
    let b = midgame(42);
    assert_eq!(a.state_hash(), b.state_hash());
    assert_eq!(a.state(), b.state());
    assert_eq!(a.state_hash().len(), 64);
    // The dice really are part of it: another seed gives other rolls.
    let rolls = |g: &Game<Race>| g.log().iter().filter_map(|e| e.roll.clone()).map(|r| r.dice).collect::<Vec<_>>();
    assert_eq!(rolls(&a).len(), 3);
    let other = (43..60).map(midgame).find(|g| rolls(g) != rolls(&a));
    assert!(other.is_some(), "17 other seeds all rolled the same dice");
}

#[test]
fn whole_random_games_are_reproducible() {
    for seed in 0..20 {
        let mut a = toy_game(&toy_setup(seed, DiceMode::Seeded));
        let choices = play_randomly(&mut a, seed + 1);
        let mut b = toy_game(&toy_setup(seed, DiceMode::Seeded));
        for c in &choices {
            b.choose(c).expect("replayed choice");
        }
        assert_eq!(a.state_hash(), b.state_hash(), "seed {seed}");
        assert!(b.pending().is_none(), "seed {seed}: the replay is over too");
    }
}

// ---------------------------------------------------------------------------------------------
// Saves

#[test]
fn save_to_json_and_load_gives_the_same_hash_and_continues_identically() {
    let mut original = midgame(7);
    let json = original.save().to_json();
    let save = Save::from_json(&json).expect("own save parses");
    assert_eq!(save, original.save());
    assert_eq!(save.format, SAVE_FORMAT);
    assert_eq!(save.version, SAVE_VERSION);
    assert_eq!(save.actions.len(), 4);
    let mut loaded = toy_load(&save).expect("own save loads");
    assert_eq!(loaded.state_hash(), original.state_hash());
    assert_eq!(loaded.actions(), original.actions());
    assert_eq!(loaded.pending(), original.pending());
    // Both go on the same way, seeded rolls included: the dice generator is where it was.
    for c in ["roll:2", "roll:2", "roll:1", "pass", "roll:2"] {
        if original.pending().is_none() {
            break;
        }
        original.choose(c).expect("original accepts");
        loaded.choose(c).expect("loaded accepts");
        assert_eq!(loaded.state_hash(), original.state_hash(), "after `{c}`");
    }
    assert_eq!(loaded.save(), original.save());
}

#[test]
fn a_manual_game_saved_between_two_dice_of_one_roll_loads_and_goes_on() {
    let mut g = toy_game(&toy_setup(1, DiceMode::Manual));
    play(&mut g, &["roll:2", "die:5"]);
    let mut loaded = toy_load(&Save::from_json(&g.save().to_json()).expect("parses")).expect("loads");
    assert_eq!(loaded.pending(), g.pending());
    assert!(loaded.pending().expect("pending").prompt.contains("die 2 of 2"));
    loaded.choose("die:6").expect("second die");
    assert_eq!(loaded.state().scores, [10, 0]);
}

#[test]
fn a_save_with_one_choice_altered_is_refused() {
    let mut save = midgame(7).save();
    save.actions[2].choice = "roll:2".to_string(); // was `pass`
    let err = toy_load(&save).err().expect("refused");
    assert!(matches!(err, SaveError::Chain(3)), "{err:?}");
    assert_eq!(err.to_string(), "the save has been altered or corrupted: the hash chain breaks at choice 3");
}

#[test]
fn a_save_with_a_chain_link_altered_is_refused() {
    let mut save = midgame(7).save();
    let link = &mut save.actions[1].chain;
    let flipped = if link.starts_with('0') { "1" } else { "0" };
    link.replace_range(0..1, flipped);
    let err = toy_load(&save).err().expect("refused");
    assert!(matches!(err, SaveError::Chain(2)), "{err:?}");
    assert!(err.to_string().contains("hash chain breaks at choice 2"), "{err}");
}

#[test]
fn a_save_with_its_setup_altered_is_refused() {
    let mut save = midgame(7).save();
    save.setup.seed = 8;
    let err = toy_load(&save).err().expect("refused");
    assert!(matches!(err, SaveError::SetupHash), "{err:?}");
    // Even a save with no choice yet is checked.
    let mut fresh = toy_game(&midgame(7).setup().clone()).save();
    fresh.setup.dice = caisson_kernel::DiceMode::Manual;
    assert!(matches!(toy_load(&fresh).err(), Some(SaveError::SetupHash)));
}

#[test]
fn a_save_with_its_state_hash_altered_is_refused() {
    let mut save = midgame(7).save();
    save.state_hash = "0".repeat(64);
    let err = toy_load(&save).err().expect("refused");
    assert!(matches!(err, SaveError::StateHash), "{err:?}");
    assert_eq!(err.to_string(), "the save has been altered or corrupted: the replayed state does not match its hash");
}

#[test]
fn a_save_with_a_wrong_version_is_refused() {
    let mut save = midgame(7).save();
    save.version = SAVE_VERSION + 1;
    let err = toy_load(&save).err().expect("refused");
    assert!(matches!(err, SaveError::Version(v) if v == SAVE_VERSION + 1), "{err:?}");
    assert_eq!(
        err.to_string(),
        format!("save version {} is not supported (this program reads version {SAVE_VERSION})", SAVE_VERSION + 1)
    );
}

#[test]
fn a_save_with_a_wrong_format_name_is_refused() {
    let mut save = midgame(7).save();
    save.format = "chess-pgn".to_string();
    let err = toy_load(&save).err().expect("refused");
    assert!(matches!(err, SaveError::Format(_)), "{err:?}");
    assert_eq!(err.to_string(), "not a Caisson save (format `chess-pgn`)");
}

#[test]
fn garbage_json_is_refused_as_not_a_save() {
    for text in ["", "not json", "{", "[1,2,3]", "{\"format\":\"caisson-save\"}", "null"] {
        let err = Save::from_json(text).err().unwrap_or_else(|| panic!("`{text}` parsed as a save"));
        assert!(matches!(err, SaveError::Parse(_)), "{text}: {err:?}");
        assert!(err.to_string().starts_with("not a Caisson save: "), "{err}");
    }
    // Unknown fields are refused too (the save format is strict).
    let mut v: serde_json::Value = serde_json::from_str(&midgame(7).save().to_json()).expect("json");
    v["extra"] = serde_json::json!(1);
    let err = Save::from_json(&v.to_string()).expect_err("refused");
    assert!(err.to_string().contains("unknown field `extra`"), "{err}");
}

#[test]
fn a_save_whose_altered_choice_has_a_recomputed_chain_is_refused_on_replay() {
    // Someone who knows the chain rule can rebuild it; the replay still checks legality.
    let mut save = midgame(7).save();
    save.actions[0].choice = "roll:9".to_string();
    let setup_json = serde_json::to_vec(&save.setup).expect("setup json");
    let mut prev: [u8; 32] = Sha256::digest(&setup_json).into();
    for a in &mut save.actions {
        let mut h = Sha256::new();
        h.update(prev);
        h.update(a.choice.as_bytes());
        prev = h.finalize().into();
        a.chain = hex(&prev);
    }
    let err = toy_load(&save).err().expect("refused");
    assert!(matches!(err, SaveError::Replay(1, _)), "{err:?}");
    assert!(err.to_string().starts_with("the save does not replay: choice 1 is refused"), "{err}");
}

#[test]
fn the_chain_is_sha256_of_the_setup_json_then_of_each_link_and_choice() {
    // docs/protocol.md documents this rule; keep them in step.
    let g = midgame(7);
    let save = g.save();
    let mut prev: [u8; 32] = Sha256::digest(serde_json::to_vec(&save.setup).expect("json")).into();
    for a in &save.actions {
        let mut h = Sha256::new();
        h.update(prev);
        h.update(a.choice.as_bytes());
        prev = h.finalize().into();
        assert_eq!(a.chain, hex(&prev));
    }
    let state_hash = hex(&Sha256::digest(serde_json::to_vec(g.state()).expect("json")));
    assert_eq!(save.state_hash, state_hash);
}

// ---------------------------------------------------------------------------------------------
// Illegal choices

#[test]
fn an_illegal_choice_is_an_error_and_changes_nothing() {
    let mut g = midgame(7);
    let hash = g.state_hash();
    let actions = g.actions().to_vec();
    let pending = g.pending();
    for bad in ["roll:3", "", "ROLL:1", "die:4", "pass ", "roll:1\n"] {
        let err = g.choose(bad).err().unwrap_or_else(|| panic!("`{bad}` accepted"));
        assert!(matches!(err, GameError::Rule(RuleError::NotAnOption(ref o)) if o == bad), "{err:?}");
        assert!(err.to_string().contains("is not one of the options now"), "{err}");
        assert_eq!(g.state_hash(), hash);
        assert_eq!(g.actions(), actions.as_slice());
        assert_eq!(g.pending(), pending);
    }
}

#[test]
fn a_die_out_of_range_is_refused_in_manual_mode() {
    let mut g = toy_game(&toy_setup(1, DiceMode::Manual));
    play(&mut g, &["roll:1"]);
    let hash = g.state_hash();
    for bad in ["die:0", "die:7", "die:", "die:x", "roll:1"] {
        assert!(g.choose(bad).is_err(), "`{bad}` accepted");
        assert_eq!(g.state_hash(), hash);
        assert_eq!(g.actions(), ["roll:1"]);
    }
    let d = g.pending().expect("roll pending");
    assert_eq!(d.kind, "roll");
    assert_eq!(d.side, "union");
    let ids: Vec<&str> = d.options.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["die:1", "die:2", "die:3", "die:4", "die:5", "die:6"]);
}

#[test]
fn choosing_after_the_game_is_over_is_refused() {
    let mut g = toy_game(&toy_setup(5, DiceMode::Seeded));
    play_randomly(&mut g, 9);
    assert!(g.pending().is_none());
    let hash = g.state_hash();
    let err = g.choose("pass").expect_err("refused");
    assert!(matches!(err, GameError::Rule(RuleError::GameOver)), "{err:?}");
    assert_eq!(err.to_string(), "the game is over");
    assert_eq!(g.state_hash(), hash);
}

// ---------------------------------------------------------------------------------------------
// Manual dice

#[test]
fn entering_a_seeded_games_dice_by_hand_reproduces_it() {
    for seed in [1, 2, 3, 99] {
        let mut seeded = toy_game(&toy_setup(seed, DiceMode::Seeded));
        let choices = play_randomly(&mut seeded, seed + 1000);
        let dice: Vec<u8> = seeded.log().iter().filter_map(|e| e.roll.as_ref()).flat_map(|r| r.dice.clone()).collect();
        assert!(!dice.is_empty());

        let mut manual = toy_game(&toy_setup(seed, DiceMode::Manual));
        let (mut choices, mut dice) = (choices.iter(), dice.iter());
        while let Some(d) = manual.pending() {
            let id = if d.kind == "roll" {
                format!("die:{}", dice.next().expect("a recorded die for every manual roll"))
            } else {
                choices.next().expect("a recorded choice for every decision").clone()
            };
            manual.choose(&id).unwrap_or_else(|e| panic!("seed {seed}: `{id}` refused: {e}"));
        }
        assert!(choices.next().is_none() && dice.next().is_none(), "seed {seed}: leftovers");
        assert_eq!(manual.state_hash(), seeded.state_hash(), "seed {seed}");
        assert_eq!(manual.log(), seeded.log());
    }
}

#[test]
fn a_manual_roll_records_the_entered_dice_with_modifiers_and_rule() {
    let mut g = toy_game(&toy_setup(1, DiceMode::Manual));
    play(&mut g, &["roll:2", "die:6", "die:4"]);
    let entry = g.log().last().expect("log");
    let roll = entry.roll.as_ref().expect("roll record");
    assert_eq!(roll.dice, [6, 4]);
    assert_eq!(roll.total, 9);
    assert_eq!(roll.rule, "Race 2");
    assert_eq!(roll.modifiers.len(), 1);
    assert_eq!((roll.modifiers[0].value, roll.modifiers[0].rule.as_str()), (-1, "Race 3"));
    assert_eq!(g.state().scores, [9, 0]);
}

// ---------------------------------------------------------------------------------------------
// Undo

#[test]
fn undo_takes_back_a_choice_that_neither_rolled_nor_changed_the_side() {
    let mut g = toy_game(&toy_setup(1, DiceMode::Manual));
    play(&mut g, &["roll:1", "die:3", "roll:1", "die:2"]); // union 3, confederate 2; union to move
    let before = g.state_hash();
    let pending = g.pending();
    play(&mut g, &["roll:2"]); // same side decides next (its roll): undoable
    assert!(g.can_undo());
    g.undo().expect("undo");
    assert_eq!(g.state_hash(), before);
    assert_eq!(g.pending(), pending);
    assert_eq!(g.actions().len(), 4);
    // The floor holds: the choice before was a die, so nothing more can be undone.
    assert!(!g.can_undo());
    assert!(matches!(g.undo(), Err(GameError::Undo(_))));
    // And play goes on.
    play(&mut g, &["roll:1", "die:6"]);
    assert_eq!(g.state().scores, [9, 2]);
}

#[test]
fn undo_never_takes_back_a_choice_followed_by_a_roll() {
    // Seeded: the roll follows the choice at once.
    let mut g = toy_game(&toy_setup(1, DiceMode::Seeded));
    play(&mut g, &["roll:1"]);
    assert!(!g.can_undo());
    let hash = g.state_hash();
    let err = g.undo().expect_err("refused");
    assert!(err.to_string().starts_with("nothing to undo"), "{err}");
    assert_eq!(g.state_hash(), hash);
    // Manual: the first die of two is already seen.
    let mut g = toy_game(&toy_setup(1, DiceMode::Manual));
    play(&mut g, &["roll:2", "die:4"]);
    assert!(!g.can_undo());
    assert!(g.undo().is_err());
    assert_eq!(g.actions(), ["roll:2", "die:4"]);
}

#[test]
fn undo_never_takes_back_a_choice_followed_by_a_change_of_side() {
    for mode in [DiceMode::Seeded, DiceMode::Manual] {
        let mut g = toy_game(&toy_setup(1, mode));
        play(&mut g, &["pass"]);
        assert_eq!(g.pending().expect("pending").side, "confederate");
        assert!(!g.can_undo(), "{mode:?}");
        assert!(g.undo().is_err());
        assert_eq!(g.actions(), ["pass"]);
    }
}

#[test]
fn nothing_to_undo_at_the_start() {
    let mut g = toy_game(&toy_setup(1, DiceMode::Manual));
    assert!(!g.can_undo());
    assert!(g.undo().is_err());
}

#[test]
fn undo_survives_a_save_and_load() {
    let mut g = toy_game(&toy_setup(1, DiceMode::Manual));
    play(&mut g, &["pass", "roll:1", "die:1", "roll:2"]);
    let mut loaded = toy_load(&g.save()).expect("loads");
    assert!(loaded.can_undo());
    loaded.undo().expect("undo after load");
    assert!(!loaded.can_undo());
    assert_eq!(loaded.actions(), ["pass", "roll:1", "die:1"]);
}

// ---------------------------------------------------------------------------------------------
// Random players

#[test]
fn random_choice_only_returns_offered_ids_and_reaches_them_all() {
    let mut player = Dice::new(11);
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..30 {
        for mode in [DiceMode::Seeded, DiceMode::Manual] {
            let mut g = toy_game(&toy_setup(seed, mode));
            while let Some(d) = g.pending() {
                let id = random_choice(&d, &mut player).to_string();
                assert!(d.options.iter().any(|c| c.id == id), "`{id}` not offered in {d:?}");
                seen.insert(id.clone());
                g.choose(&id).expect("offered id accepted");
            }
        }
    }
    let expected = ["die:1", "die:2", "die:3", "die:4", "die:5", "die:6", "pass", "roll:1", "roll:2"];
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), expected);
}

#[test]
fn random_choice_with_one_option_returns_it() {
    let d = caisson_kernel::Decision {
        side: "union".into(),
        kind: "action".into(),
        prompt: "only one".into(),
        options: vec![caisson_kernel::Choice::new("only", "The only one")],
    };
    let mut dice = Dice::new(1);
    for _ in 0..10 {
        assert_eq!(random_choice(&d, &mut dice), "only");
    }
}
