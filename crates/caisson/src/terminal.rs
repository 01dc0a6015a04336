//! Terminal play: the status screen, the log as it grows, and numbered options to pick from.
//!
//! Works on any reader and writer (a TTY, a pipe, a test buffer) and ends cleanly on end of
//! input. Sides can be human (they type), random (they pick with [`random_choice`]) or the
//! computer opponent (`caisson_ai`); the computer players say what they picked.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

use std::panic::{catch_unwind, AssertUnwindSafe};

use caisson_ai::{advise, bot_seed, Bot, Level};
use caisson_kernel::{random_choice, Decision, Dice, DynGame, GameError, LogEntry};

use crate::lines::{read_line, Line};
use crate::panic_message;

/// The longest input line the terminal accepts.
const MAX_INPUT: usize = 64 * 1024;

/// How to run a terminal game.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Sides (as named in `Decision::side`) that play randomly; all others are human.
    pub random_sides: BTreeSet<String>,
    /// Sides a computer player plays (the computer opponent at a level, or the Liddell-bot);
    /// its choices are seeded from `player_seed` and the number of choices made.
    pub ai_sides: BTreeMap<String, Bot>,
    /// Seed of the random players' dice (the front ends use the game seed + 1).
    pub player_seed: u64,
    /// A file to write the save to after every choice and when play stops.
    pub autosave: Option<PathBuf>,
    /// Log entries already shown (the first `n` entries are not printed at the start).
    pub log_shown: usize,
}

/// How a terminal game stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The game is over.
    Over,
    /// The player quit.
    Quit,
    /// The input ended.
    EndOfInput,
    /// A bug in the rules stopped play: they refused an option they had offered to a random
    /// player, offered no option, or panicked.
    Failed(String),
}

const HELP: &str = "\
Enter the number of an option, or its id. Commands:
  u        undo the last choice (not past a die roll or a change of player)
  s FILE   save the game to FILE
  l        show the whole log
  hint     what the computer opponent would choose here (GCACW games)
  v        show the status screen again
  q        quit
  ?        this help";

/// The answer to `hint` where the computer opponent has none to give.
const NO_HINT: &str =
    "No hint here: the computer opponent plays the GCACW games only, and a die to enter is no choice.";

/// Plays `game` on `input` and `output` until it is over, the player quits or the input ends.
/// `notices` are printed first.
///
/// # Errors
/// Writing to `output` or reading `input` failed.
pub fn play(
    game: &mut dyn DynGame,
    notices: &[String],
    options: &Options,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> io::Result<Outcome> {
    let mut player = Dice::new(options.player_seed);
    let mut shown = options.log_shown.min(game.log().len());
    if !notices.is_empty() {
        writeln!(out, "Notes on this scenario:")?;
        for n in notices {
            writeln!(out, "  - {n}")?;
        }
        writeln!(out)?;
    }
    if shown > 0 {
        writeln!(out, "({shown} earlier log entries not shown; `l` shows the whole log)")?;
    }
    // The status screen is shown again only when it has changed.
    let mut last_screen: Option<String> = None;
    loop {
        for entry in game.log().get(shown..).unwrap_or_default() {
            writeln!(out, "{}", format_entry(entry))?;
        }
        shown = game.log().len();
        let Some(decision) = game.pending() else {
            writeln!(out, "\n{}\n\nGame over.", game.summary())?;
            autosave(game, options, out)?;
            return Ok(Outcome::Over);
        };
        if decision.options.is_empty() {
            return Ok(Outcome::Failed(format!("a decision with no options: {}", decision.prompt)));
        }
        let computer = if let Some(bot) = options.ai_sides.get(&decision.side) {
            let seed = bot_seed(options.player_seed, game.actions().len() as u64);
            Some((bot.choose(game, seed).unwrap_or_default(), "computer"))
        } else if options.random_sides.contains(&decision.side) {
            Some((random_choice(&decision, &mut player).to_string(), "random"))
        } else {
            None
        };
        if let Some((id, who)) = computer {
            let label = decision.options.iter().find(|c| c.id == id).map_or("", |c| c.label.as_str());
            writeln!(out, "{} ({who}): {label} [{id}]", decision.side)?;
            match guarded_choose(game, &id) {
                Ok(Ok(())) => {}
                Ok(Err(e)) => {
                    let msg = format!("the game refused `{id}`, which it offered: {e}");
                    writeln!(out, "error: {msg}")?;
                    return Ok(Outcome::Failed(msg));
                }
                Err(msg) => return crashed(msg, options, out),
            }
            autosave(game, options, out)?;
            continue;
        }
        let screen = game.summary();
        if last_screen.as_ref() != Some(&screen) {
            writeln!(out, "\n{screen}")?;
            last_screen = Some(screen);
        }
        write_decision(&decision, out)?;
        write!(out, "> ")?;
        out.flush()?;
        let text = match read_line(input, MAX_INPUT)? {
            Line::Eof => {
                writeln!(out, "\nEnd of input: leaving the game.")?;
                autosave(game, options, out)?;
                return Ok(Outcome::EndOfInput);
            }
            Line::TooLong(n) => {
                writeln!(out, "That line is too long ({n} bytes). Enter a number, an option id or ? for help.")?;
                continue;
            }
            Line::NotUtf8 => {
                writeln!(out, "That line is not UTF-8 text. Enter a number, an option id or ? for help.")?;
                continue;
            }
            Line::Text(t) => t,
        };
        let text = text.trim();
        match Command::parse(text, &decision) {
            Command::Nothing => {}
            Command::Help => writeln!(out, "{HELP}")?,
            Command::Screen => last_screen = None,
            Command::Quit => {
                autosave(game, options, out)?;
                writeln!(out, "Quit.")?;
                return Ok(Outcome::Quit);
            }
            Command::Hint => {
                let seed = bot_seed(options.player_seed, game.actions().len() as u64);
                match advise(game, Level::default(), seed) {
                    Some(hint) => match decision.options.iter().enumerate().find(|(_, c)| c.id == hint.choice) {
                        Some((i, c)) => writeln!(out, "The computer would choose {}. {} [{}]", i + 1, c.label, c.id)?,
                        None => writeln!(out, "The computer would choose [{}]", hint.choice)?,
                    },
                    None => writeln!(out, "{NO_HINT}")?,
                }
            }
            Command::Log => {
                writeln!(out, "Log ({} entries):", game.log().len())?;
                for entry in game.log() {
                    writeln!(out, "{}", format_entry(entry))?;
                }
            }
            Command::Undo => match game.undo() {
                Ok(()) => {
                    writeln!(out, "Undone.")?;
                    shown = shown.min(game.log().len());
                    autosave(game, options, out)?;
                }
                Err(e) => writeln!(out, "Cannot undo: {e}")?,
            },
            Command::Save(None) => writeln!(out, "Save where? Type `s FILE`.")?,
            Command::Save(Some(file)) => match write_save(game, Path::new(&file)) {
                Ok(()) => writeln!(out, "Saved to {file}.")?,
                Err(e) => writeln!(out, "Could not save to {file}: {e}")?,
            },
            Command::Choose(id) => match guarded_choose(game, &id) {
                Err(msg) => return crashed(msg, options, out),
                Ok(Ok(())) => {
                    let label = decision.options.iter().find(|c| c.id == id).map_or("", |c| c.label.as_str());
                    writeln!(out, "→ {label} [{id}]")?;
                    autosave(game, options, out)?;
                }
                Ok(Err(e)) => writeln!(out, "Refused: {e}")?,
            },
            Command::Unknown => writeln!(
                out,
                "Not understood: `{}`. Enter a number from 1 to {}, an option id, or ? for help.",
                text.escape_debug(),
                decision.options.len()
            )?,
        }
    }
}

/// One line of player input.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Command {
    Nothing,
    Help,
    Screen,
    Quit,
    Log,
    Hint,
    Undo,
    Save(Option<String>),
    Choose(String),
    Unknown,
}

impl Command {
    fn parse(text: &str, decision: &Decision) -> Command {
        let (word, rest) = match text.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (text, ""),
        };
        // Option ids win over commands, so an option called `u` or `l` can still be chosen.
        if let Some(c) = decision.options.iter().find(|c| c.id == text) {
            return Command::Choose(c.id.clone());
        }
        match (word, rest.is_empty()) {
            ("", _) => Command::Nothing,
            ("?" | "h" | "help", true) => Command::Help,
            ("v" | "view", true) => Command::Screen,
            ("q" | "quit", true) => Command::Quit,
            ("l" | "log", true) => Command::Log,
            ("hint", true) => Command::Hint,
            ("u" | "undo", true) => Command::Undo,
            ("s" | "save", true) => Command::Save(None),
            ("s" | "save", false) => Command::Save(Some(rest.to_string())),
            _ => match text.parse::<usize>() {
                Ok(n) if (1..=decision.options.len()).contains(&n) => {
                    Command::Choose(decision.options[n - 1].id.clone())
                }
                _ => Command::Unknown,
            },
        }
    }
}

/// Applies a choice, catching a panic in the rules (its message is the `Err`).
fn guarded_choose(game: &mut dyn DynGame, id: &str) -> Result<Result<(), GameError>, String> {
    catch_unwind(AssertUnwindSafe(|| game.choose(id))).map_err(|p| panic_message(p.as_ref()))
}

/// The rules panicked: the game may be half-changed, so play stops; the autosave, written before
/// the choice, still holds the game as it was.
fn crashed(msg: String, options: &Options, out: &mut dyn Write) -> io::Result<Outcome> {
    writeln!(out, "internal error: the rules panicked ({msg}). This is a bug: please report it with a save.")?;
    if let Some(file) = &options.autosave {
        writeln!(out, "{} holds the game as it was before that choice.", file.display())?;
    }
    Ok(Outcome::Failed(format!("panic: {msg}")))
}

fn write_decision(d: &Decision, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "\n[{} · {}] {}", d.side, d.kind, d.prompt)?;
    let width = d.options.len().to_string().len();
    for (i, c) in d.options.iter().enumerate() {
        writeln!(out, "  {:>width$}. {}  [{}]", i + 1, c.label, c.id)?;
    }
    Ok(())
}

/// A log entry as terminal text: turn, text and rule, and for a roll its dice, modifiers, total
/// and result.
#[must_use]
pub fn format_entry(e: &LogEntry) -> String {
    let mut s = format!("T{:<2} {}", e.turn, e.text);
    if let Some(rule) = &e.rule {
        s.push_str(&format!(" [{rule}]"));
    }
    if let Some(r) = &e.roll {
        let dice: Vec<String> = r.dice.iter().map(u8::to_string).collect();
        s.push_str(&format!("\n      roll for {} [{}]: dice {}", r.purpose, r.rule, dice.join("+")));
        for m in &r.modifiers {
            s.push_str(&format!(", {:+} {} [{}]", m.value, m.label, m.rule));
        }
        s.push_str(&format!(" = {}", r.total));
        if !r.result.is_empty() {
            s.push_str(&format!(": {}", r.result));
        }
    }
    s
}

fn write_save(game: &dyn DynGame, file: &Path) -> io::Result<()> {
    let mut text = game.save().to_json();
    text.push('\n');
    std::fs::write(file, text)
}

fn autosave(game: &dyn DynGame, options: &Options, out: &mut dyn Write) -> io::Result<()> {
    if let Some(file) = &options.autosave {
        if let Err(e) = write_save(game, file) {
            writeln!(out, "warning: could not save to {}: {e}", file.display())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use caisson_kernel::Choice;

    fn decision() -> Decision {
        Decision {
            side: "union".into(),
            kind: "action".into(),
            prompt: "?".into(),
            options: vec![
                Choice::new("roll:1", "one"),
                Choice::new("u", "an option called u"),
                Choice::new("pass", "p"),
            ],
        }
    }

    #[test]
    fn inputs_parse() {
        let d = decision();
        assert_eq!(Command::parse("1", &d), Command::Choose("roll:1".into()));
        assert_eq!(Command::parse("3", &d), Command::Choose("pass".into()));
        assert_eq!(Command::parse("pass", &d), Command::Choose("pass".into()));
        assert_eq!(Command::parse("u", &d), Command::Choose("u".into()));
        assert_eq!(Command::parse("undo", &d), Command::Undo);
        assert_eq!(Command::parse("4", &d), Command::Unknown);
        assert_eq!(Command::parse("0", &d), Command::Unknown);
        assert_eq!(Command::parse("-1", &d), Command::Unknown);
        assert_eq!(Command::parse("99999999999999999999999", &d), Command::Unknown);
        assert_eq!(Command::parse("s my game.json", &d), Command::Save(Some("my game.json".into())));
        assert_eq!(Command::parse("s", &d), Command::Save(None));
        assert_eq!(Command::parse("q", &d), Command::Quit);
        assert_eq!(Command::parse("q now", &d), Command::Unknown);
        assert_eq!(Command::parse("", &d), Command::Nothing);
        assert_eq!(Command::parse("?", &d), Command::Help);
        assert_eq!(Command::parse("l", &d), Command::Log);
    }
}
