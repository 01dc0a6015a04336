//! Random games: both sides pick uniformly among the offered options, through the same
//! [`DynGame`] face every front end uses. A smoke test and a fuzzer: it reports crashes, offered
//! options the rules refuse, decisions with no options, games that do not end, and saves that do
//! not replay, each with the seed and the choices that reproduce it.

use std::cell::RefCell;
use std::io::{self, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use caisson_kernel::{random_choice, Dice, DiceMode, DynGame, Save, Setup};

use crate::{panic_message, Registry};

/// What to play.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Scenario id.
    pub scenario: String,
    /// Number of games.
    pub games: u64,
    /// Seed of the first game; game `i` uses `seed + i` (wrapping). Its random players' dice use
    /// that seed + 1, as `caisson new --union random --confederate random` does.
    pub seed: u64,
    /// A game not over after this many decisions counts as a failure.
    pub max_steps: u64,
    /// Game options.
    pub options: Vec<String>,
}

/// One game that went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The game's seed.
    pub seed: u64,
    /// What went wrong.
    pub message: String,
    /// The choices made, in order, up to and including the one that failed.
    pub choices: Vec<String>,
}

/// The result of a run.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Games played.
    pub games: u64,
    /// Games that reached their end.
    pub finished: u64,
    /// Decisions made in all games.
    pub decisions: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Games that went wrong.
    pub failures: Vec<Failure>,
}

impl Report {
    /// Decisions per second.
    #[must_use]
    pub fn rate(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.decisions as f64 / secs
        } else {
            0.0
        }
    }
}

/// Plays the games of `plan`, writing a line per failure to `out` as they happen.
///
/// # Errors
/// Writing to `out` failed.
pub fn run(registry: &dyn Registry, plan: &Plan, out: &mut dyn Write) -> io::Result<Report> {
    let started = Instant::now();
    let mut report = Report::default();
    for i in 0..plan.games {
        let seed = plan.seed.wrapping_add(i);
        let choices = RefCell::new(Vec::new());
        let outcome = catch_unwind(AssertUnwindSafe(|| play_one(registry, plan, seed, &choices)));
        let choices = choices.into_inner();
        report.games += 1;
        report.decisions += choices.len() as u64;
        let error = match outcome {
            Ok(Ok(())) => {
                report.finished += 1;
                None
            }
            Ok(Err(e)) => Some(e),
            Err(payload) => Some(format!("panic: {}", panic_message(payload.as_ref()))),
        };
        if let Some(message) = error {
            let failure = Failure { seed, message, choices };
            write_failure(plan, &failure, out)?;
            report.failures.push(failure);
        }
    }
    report.elapsed = started.elapsed();
    Ok(report)
}

fn play_one(registry: &dyn Registry, plan: &Plan, seed: u64, choices: &RefCell<Vec<String>>) -> Result<(), String> {
    let setup = Setup {
        system: registry.system().to_string(),
        scenario: plan.scenario.clone(),
        seed,
        dice: DiceMode::Seeded,
        options: plan.options.clone(),
    };
    let mut game = registry.new_game(&setup).map_err(|e| format!("cannot start: {e}"))?;
    let mut player = Dice::new(seed.wrapping_add(1));
    for _ in 0..plan.max_steps {
        let Some(decision) = game.pending() else {
            return check_save(registry, game.as_ref());
        };
        if decision.options.is_empty() {
            return Err(format!("a decision with no options ({}: {})", decision.kind, decision.prompt));
        }
        let id = random_choice(&decision, &mut player).to_string();
        choices.borrow_mut().push(id.clone());
        game.choose(&id).map_err(|e| format!("the game refused `{id}`, which it offered: {e}"))?;
    }
    if game.pending().is_none() {
        return check_save(registry, game.as_ref());
    }
    Err(format!("not over after {} decisions", plan.max_steps))
}

/// A finished game's save must load and give the same state.
fn check_save(registry: &dyn Registry, game: &dyn DynGame) -> Result<(), String> {
    let json = game.save().to_json();
    let save = Save::from_json(&json).map_err(|e| format!("its own save does not parse: {e}"))?;
    let loaded = registry.load_game(&save).map_err(|e| format!("its own save does not load: {e}"))?;
    if loaded.state_hash() != game.state_hash() {
        return Err("its own save loads to another state".to_string());
    }
    Ok(())
}

fn write_failure(plan: &Plan, f: &Failure, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "FAILED seed {} after {} decisions: {}", f.seed, f.choices.len(), f.message)?;
    writeln!(out, "  reproduce: caisson new {} --seed {} --union random --confederate random", plan.scenario, f.seed)?;
    writeln!(out, "  choices: {}", serde_json::to_string(&f.choices).unwrap_or_default())?;
    out.flush()
}

/// The closing lines of a run.
///
/// # Errors
/// Writing to `out` failed.
pub fn write_report(plan: &Plan, report: &Report, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "scenario:        {}", plan.scenario)?;
    writeln!(
        out,
        "games finished:  {} of {} (seeds {}..={})",
        report.finished,
        report.games,
        plan.seed,
        plan.seed.wrapping_add(plan.games.saturating_sub(1))
    )?;
    writeln!(out, "decisions made:  {}", report.decisions)?;
    writeln!(out, "decisions/s:     {:.0} ({:.2} s)", report.rate(), report.elapsed.as_secs_f64())?;
    writeln!(out, "failures:        {}", report.failures.len())?;
    out.flush()
}
