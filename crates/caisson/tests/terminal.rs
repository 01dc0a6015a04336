//! Terminal play, in process, on the toy Race: piped input, end of input, quitting, bad input,
//! undo, saving, random players and the log display.

mod common;

use caisson::terminal::{format_entry, play, Options, Outcome};
use caisson::Registry;
use caisson_kernel::{DiceMode, DynGame, Save, Setup};
use common::{temp_dir, ToyRegistry};

fn game(seed: u64, dice: DiceMode) -> Box<dyn DynGame> {
    let setup = Setup { system: "toy".into(), scenario: "race".into(), seed, dice, options: vec![] };
    ToyRegistry.new_game(&setup).expect("toy game")
}

/// Plays `input` against a fresh race; returns the outcome, the output and the game.
fn run(input: &str, seed: u64, dice: DiceMode, options: &Options) -> (Outcome, String, Box<dyn DynGame>) {
    let mut g = game(seed, dice);
    let mut out = Vec::new();
    let outcome = play(g.as_mut(), &["a notice".to_string()], options, &mut input.as_bytes(), &mut out).expect("play");
    (outcome, String::from_utf8(out).expect("utf-8"), g)
}

fn random(sides: &[&str]) -> Options {
    Options { random_sides: sides.iter().map(|s| s.to_string()).collect(), player_seed: 2, ..Options::default() }
}

#[test]
fn piped_input_plays_a_game_to_the_end() {
    // Always option 2 (roll two dice): someone reaches 15 within a few turns.
    let input = "2\n".repeat(40);
    let (outcome, out, g) = run(&input, 1, DiceMode::Seeded, &Options::default());
    assert_eq!(outcome, Outcome::Over, "{out}");
    assert!(out.contains("Game over."), "{out}");
    assert!(out.contains("wins the race"), "{out}");
    assert!(g.pending().is_none());
    assert!(g.actions().iter().all(|a| a == "roll:2"));
    // The screen: notices, the summary, the prompt with numbered options and ids.
    assert!(out.starts_with("Notes on this scenario:\n  - a notice\n"), "{out}");
    assert!(out.contains("Race — turn 1 of 30"), "{out}");
    assert!(out.contains("[union · action] union: roll one die"), "{out}");
    assert!(
        out.contains("  1. Roll one die  [roll:1]\n  2. Roll two dice (−1)  [roll:2]\n  3. Pass  [pass]\n"),
        "{out}"
    );
    // Each choice is confirmed (piped input is not echoed).
    assert!(out.contains("> → Roll two dice (−1) [roll:2]\n"), "{out}");
}

#[test]
fn the_status_screen_is_shown_when_it_changes_or_on_request() {
    // Manual dice: entering the first of two dice changes nothing on the screen.
    let (_, out, _) = run(
        "2
3
",
        1,
        DiceMode::Manual,
        &Options::default(),
    );
    assert_eq!(out.matches("Race — turn 1 of 30").count(), 1, "{out}");
    let (_, out, _) = run(
        "2
v
",
        1,
        DiceMode::Manual,
        &Options::default(),
    );
    assert_eq!(out.matches("Race — turn 1 of 30").count(), 2, "{out}");
    // After a roll the scores change, and the screen is shown again.
    let (_, out, _) = run(
        "2
3
4
",
        1,
        DiceMode::Manual,
        &Options::default(),
    );
    assert_eq!(out.matches("Race — turn 1 of 30").count(), 2, "{out}");
    assert!(out.contains("  union         6\n"), "{out}");
}

#[test]
fn rolls_are_shown_with_dice_modifiers_rule_and_result() {
    let (_, out, g) = run("2\n", 1, DiceMode::Seeded, &Options::default());
    let roll = g.log().iter().find_map(|e| e.roll.clone()).expect("a roll");
    let dice = format!("{}+{}", roll.dice[0], roll.dice[1]);
    let line = format!(
        "      roll for union advances [Race 2]: dice {dice}, -1 rolling two dice [Race 3] = {}: union gains",
        roll.total
    );
    assert!(out.contains(&line), "no `{line}` in\n{out}");
}

#[test]
fn end_of_input_ends_cleanly() {
    let (outcome, out, g) = run("", 1, DiceMode::Seeded, &Options::default());
    assert_eq!(outcome, Outcome::EndOfInput);
    assert!(out.ends_with("> \nEnd of input: leaving the game.\n"), "{out}");
    assert!(g.actions().is_empty());
    // Also in the middle of a game, and after a last line with no newline.
    let (outcome, _, g) = run("1\n3", 1, DiceMode::Seeded, &Options::default());
    assert_eq!(outcome, Outcome::EndOfInput);
    assert_eq!(g.actions(), ["roll:1", "pass"]);
}

#[test]
fn q_quits() {
    let (outcome, out, g) = run("1\nq\n1\n", 1, DiceMode::Seeded, &Options::default());
    assert_eq!(outcome, Outcome::Quit);
    assert!(out.ends_with("Quit.\n"), "{out}");
    assert_eq!(g.actions(), ["roll:1"]);
}

#[test]
fn bad_input_re_prompts_and_changes_nothing() {
    let input = "banana\n0\n4\n-1\n\n   \nq now\n\u{7f}\n3\n";
    let (outcome, out, g) = run(input, 1, DiceMode::Seeded, &Options::default());
    assert_eq!(outcome, Outcome::EndOfInput);
    assert_eq!(g.actions(), ["pass"], "only `3` was a choice");
    assert!(
        out.contains("Not understood: `banana`. Enter a number from 1 to 3, an option id, or ? for help."),
        "{out}"
    );
    for bad in ["`0`", "`4`", "`-1`", "`q now`"] {
        assert!(out.contains(&format!("Not understood: {bad}")), "{bad}: {out}");
    }
    // Every refusal is followed by the prompt again.
    let prompts = out.matches("[union · action]").count();
    assert_eq!(prompts, 9, "{out}");
    assert!(out.contains("Not understood: `\\u{7f}`"), "control characters are shown escaped: {out}");
}

#[test]
fn an_option_id_works_as_well_as_its_number() {
    let (_, _, g) = run("roll:2\npass\n", 1, DiceMode::Seeded, &Options::default());
    assert_eq!(g.actions(), ["roll:2", "pass"]);
}

#[test]
fn undo_takes_back_what_it_may() {
    // Manual dice: `roll:2` may be undone; after a die it may not.
    let input = "2\nu\nu\n1\n5\nu\n";
    let (outcome, out, g) = run(input, 1, DiceMode::Manual, &Options::default());
    assert_eq!(outcome, Outcome::EndOfInput);
    assert_eq!(g.actions(), ["roll:1", "die:5"]);
    assert_eq!(out.matches("Undone.").count(), 1, "{out}");
    assert_eq!(out.matches("Cannot undo: nothing to undo").count(), 2, "{out}");
    assert!(
        out.contains(
            "[union · roll] Roll for union advances [Race 2] (die 1 of 2); modifiers: -1 rolling two dice [Race 3]"
        ),
        "{out}"
    );
}

#[test]
fn help_and_log_commands() {
    let (_, out, _) = run("1\n?\nl\n", 1, DiceMode::Seeded, &Options::default());
    assert!(out.contains("u        undo the last choice"), "{out}");
    assert!(out.contains("Log (3 entries):\nT1  The race begins: first to 15 points wins. [Race 1]\n"), "{out}");
}

#[test]
fn s_file_saves_a_game_that_loads() {
    let dir = temp_dir();
    let file = dir.path().join("s.json");
    let input = format!("2\n1\ns\ns {}\n", file.display());
    let (_, out, g) = run(&input, 4, DiceMode::Seeded, &Options::default());
    assert!(out.contains("Save where? Type `s FILE`."), "{out}");
    assert!(out.contains(&format!("Saved to {}.", file.display())), "{out}");
    let text = std::fs::read_to_string(&file).expect("save written");
    let loaded = ToyRegistry.load_game(&Save::from_json(&text).expect("parses")).expect("loads");
    assert_eq!(loaded.state_hash(), g.state_hash());
    // A file that cannot be written is reported, and play goes on.
    let (outcome, out, _) = run("s /nonexistent-dir/x.json\n1\n", 4, DiceMode::Seeded, &Options::default());
    assert_eq!(outcome, Outcome::EndOfInput);
    assert!(out.contains("Could not save to /nonexistent-dir/x.json:"), "{out}");
}

#[test]
fn autosave_keeps_the_file_up_to_date() {
    let dir = temp_dir();
    let file = dir.path().join("auto.json");
    let options = Options { autosave: Some(file.clone()), ..Options::default() };
    let (_, _, g) = run("2\n2\n1\n", 9, DiceMode::Seeded, &options);
    let save = Save::from_json(&std::fs::read_to_string(&file).expect("autosaved")).expect("parses");
    assert_eq!(save.actions.len(), 3);
    assert_eq!(save.state_hash, g.state_hash());
}

#[test]
fn random_sides_play_by_themselves_and_say_what_they_chose() {
    let (outcome, out, g) = run("", 6, DiceMode::Seeded, &random(&["union", "confederate"]));
    assert_eq!(outcome, Outcome::Over, "{out}");
    assert!(out.contains("union (random): "), "{out}");
    assert!(out.contains("confederate (random): "), "{out}");
    assert!(!out.contains("> "), "nobody was asked: {out}");
    // Reproducible: the same seeds give the same game.
    let (_, again, h) = run("", 6, DiceMode::Seeded, &random(&["union", "confederate"]));
    assert_eq!(out, again);
    assert_eq!(g.state_hash(), h.state_hash());
}

#[test]
fn a_human_can_play_against_a_random_side() {
    let (outcome, out, g) = run(&"2\n".repeat(40), 6, DiceMode::Seeded, &random(&["confederate"]));
    assert_eq!(outcome, Outcome::Over, "{out}");
    assert!(out.contains("confederate (random): "), "{out}");
    assert!(!out.contains("[confederate · action]"), "the random side is never asked: {out}");
    let union_choices = g.actions().iter().step_by(2).all(|a| a == "roll:2");
    assert!(union_choices, "{:?}", g.actions());
}

#[test]
fn a_random_side_enters_manual_dice_too() {
    let (outcome, out, _) = run("", 2, DiceMode::Manual, &random(&["union", "confederate"]));
    assert_eq!(outcome, Outcome::Over, "{out}");
    assert!(out.contains("(random): rolled "), "{out}");
}

#[test]
fn a_log_entry_without_rule_or_roll_is_one_line() {
    let e = caisson_kernel::LogEntry { turn: 12, text: "Night falls.".into(), rule: None, roll: None };
    assert_eq!(format_entry(&e), "T12 Night falls.");
}

#[test]
fn a_loaded_game_shows_only_the_last_entries_of_its_log() {
    let mut g = game(1, DiceMode::Seeded);
    for _ in 0..6 {
        g.choose("pass").expect("pass");
    }
    let mut out = Vec::new();
    let options = Options { log_shown: 5, ..Options::default() };
    play(g.as_mut(), &[], &options, &mut "".as_bytes(), &mut out).expect("play");
    let out = String::from_utf8(out).expect("utf-8");
    assert!(out.starts_with("(5 earlier log entries not shown; `l` shows the whole log)\n"), "{out}");
    assert_eq!(out.matches(" passes.").count(), 2, "{out}");
}

#[test]
fn a_panic_in_the_rules_stops_play_with_a_message_instead_of_crashing() {
    let setup =
        Setup { system: "toy".into(), scenario: "boom".into(), seed: 1, dice: DiceMode::Seeded, options: vec![] };
    let mut g = ToyRegistry.new_game(&setup).expect("boom game");
    let dir = temp_dir();
    let file = dir.path().join("boom.json");
    let options = Options { autosave: Some(file.clone()), ..Options::default() };
    let mut out = Vec::new();
    let outcome = play(g.as_mut(), &[], &options, &mut "1\n3\n1\n".as_bytes(), &mut out).expect("play");
    let out = String::from_utf8(out).expect("utf-8");
    assert_eq!(outcome, Outcome::Failed("panic: boom: the rules cannot pass".into()));
    assert!(out.contains("internal error: the rules panicked (boom: the rules cannot pass)."), "{out}");
    assert!(out.contains("holds the game as it was before that choice."), "{out}");
    let save = Save::from_json(&std::fs::read_to_string(&file).expect("autosave")).expect("parses");
    assert_eq!(save.actions.len(), 1, "the autosave holds the game before the pass");
}
