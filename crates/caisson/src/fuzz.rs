//! A random-play soak over the decision protocol: games of every scenario with random seeds,
//! seeded and manual dice, and random legal choices, on several threads for a bounded time. After
//! every step it checks the game's invariants ([`DynGame::check`]: the pending decision and the
//! rules' own); along the way it checks that undo takes the game back to the state before the last
//! choice and that choosing it again gives the same state (so undo never re-rolls a die), that a
//! save taken mid-game loads to the same state and goes on exactly like the game it came from,
//! and at the end that the game's own save reloads to the same state.
//!
//! Every game is a function of its seed: game `i` of a campaign uses seed `seed + i` and the
//! scenario `scenarios[i % n]`, so a failure is reproduced by `--scenario S --seed X --games 1`,
//! and it is also written as a save file of the choices before the one that failed.

use std::io::{self, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use caisson_kernel::{random_choice, Dice, DiceMode, DynGame, Save, Setup};

use crate::{panic_message, Registry};

/// A fuzzing campaign.
#[derive(Clone, Debug)]
pub struct Campaign {
    /// Scenario ids; game `i` plays `scenarios[i % len]`.
    pub scenarios: Vec<String>,
    /// Seed of the first game; game `i` uses `seed + i` (wrapping).
    pub seed: u64,
    /// Stop starting games after this long; a game still in play then is cut short (not a failure).
    pub duration: Duration,
    /// Stop after this many games, if given.
    pub games: Option<u64>,
    /// Threads.
    pub jobs: usize,
    /// A game not over after this many decisions is a failure.
    pub max_steps: u64,
    /// Game options.
    pub options: Vec<String>,
}

/// One game that went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The game's setup (scenario, seed, dice mode, options).
    pub setup: Setup,
    /// What went wrong.
    pub message: String,
    /// The choices made, in order, up to and including the one that failed.
    pub choices: Vec<String>,
}

/// The result of a campaign.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Games played to their end (or to a failure).
    pub games: u64,
    /// Games cut short by the time limit.
    pub cut: u64,
    /// Games in manual dice mode among them.
    pub manual: u64,
    /// Decisions made in all games, replays for checks not counted.
    pub decisions: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Games that went wrong.
    pub failures: Vec<Failure>,
}

impl Summary {
    /// Decisions per second.
    #[must_use]
    pub fn rate(&self) -> f64 {
        rate(self.decisions, self.elapsed)
    }
}

fn rate(decisions: u64, elapsed: Duration) -> f64 {
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 {
        decisions as f64 / secs
    } else {
        0.0
    }
}

/// What the workers share.
struct Shared {
    next: AtomicU64,
    decisions: AtomicU64,
    games: AtomicU64,
    cut: AtomicU64,
    manual: AtomicU64,
    failures: Mutex<Vec<Failure>>,
    done: AtomicBool,
}

/// How one game ended.
enum Outcome {
    Over,
    Cut,
}

/// Runs a campaign, writing a progress line every `progress` (if any) and each failure as it is
/// found to `out`, and a save of each failure to `failures_dir` (if any).
///
/// # Errors
/// Writing to `out` failed. A save that cannot be written is reported in `out`, not as an error.
pub fn run(
    registry: &(dyn Registry + Sync),
    campaign: &Campaign,
    progress: Option<Duration>,
    failures_dir: Option<&PathBuf>,
    out: &mut dyn Write,
) -> io::Result<Summary> {
    let started = Instant::now();
    let deadline = started + campaign.duration;
    let shared = Shared {
        next: AtomicU64::new(0),
        decisions: AtomicU64::new(0),
        games: AtomicU64::new(0),
        cut: AtomicU64::new(0),
        manual: AtomicU64::new(0),
        failures: Mutex::new(Vec::new()),
        done: AtomicBool::new(false),
    };
    let mut reported = 0;
    let result = std::thread::scope(|scope| -> io::Result<()> {
        let workers: Vec<_> =
            (0..campaign.jobs.max(1)).map(|_| scope.spawn(|| worker(registry, campaign, deadline, &shared))).collect();
        let mut last = Instant::now();
        let tick = Duration::from_millis(100);
        while !workers.iter().all(|w| w.is_finished()) {
            std::thread::sleep(tick);
            reported = report_failures(registry, &shared, reported, failures_dir, out)?;
            if progress.is_some_and(|p| last.elapsed() >= p) {
                last = Instant::now();
                let d = shared.decisions.load(Ordering::Relaxed);
                writeln!(
                    out,
                    "[{:>6.0} s] {d} decisions, {} games, {:.0} decisions/s, {} failures",
                    started.elapsed().as_secs_f64(),
                    shared.games.load(Ordering::Relaxed),
                    rate(d, started.elapsed()),
                    reported
                )?;
                out.flush()?;
            }
        }
        shared.done.store(true, Ordering::Relaxed);
        Ok(())
    });
    result?;
    report_failures(registry, &shared, reported, failures_dir, out)?;
    let failures = std::mem::take(&mut *shared.failures.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
    Ok(Summary {
        games: shared.games.load(Ordering::Relaxed),
        cut: shared.cut.load(Ordering::Relaxed),
        manual: shared.manual.load(Ordering::Relaxed),
        decisions: shared.decisions.load(Ordering::Relaxed),
        elapsed: started.elapsed(),
        failures,
    })
}

fn report_failures(
    registry: &dyn Registry,
    shared: &Shared,
    reported: usize,
    dir: Option<&PathBuf>,
    out: &mut dyn Write,
) -> io::Result<usize> {
    let new: Vec<Failure> =
        shared.failures.lock().unwrap_or_else(std::sync::PoisonError::into_inner)[reported..].to_vec();
    for f in &new {
        write_failure(registry, f, dir, out)?;
    }
    Ok(reported + new.len())
}

fn worker(registry: &dyn Registry, campaign: &Campaign, deadline: Instant, shared: &Shared) {
    let n = campaign.scenarios.len() as u64;
    while Instant::now() < deadline && !shared.done.load(Ordering::Relaxed) && n > 0 {
        let i = shared.next.fetch_add(1, Ordering::Relaxed);
        if campaign.games.is_some_and(|g| i >= g) {
            return;
        }
        let setup = game_setup(registry, campaign, i);
        if setup.dice == DiceMode::Manual {
            shared.manual.fetch_add(1, Ordering::Relaxed);
        }
        let mut choices = Vec::new();
        let outcome =
            catch_unwind(AssertUnwindSafe(|| play(registry, &setup, campaign.max_steps, deadline, &mut choices)));
        shared.decisions.fetch_add(choices.len() as u64, Ordering::Relaxed);
        let error = match outcome {
            Ok(Ok(Outcome::Over)) => None,
            Ok(Ok(Outcome::Cut)) => {
                shared.cut.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            Ok(Err(e)) => Some(e),
            Err(payload) => Some(format!("panic: {}", panic_message(payload.as_ref()))),
        };
        shared.games.fetch_add(1, Ordering::Relaxed);
        if let Some(message) = error {
            let failure = Failure { setup, message, choices };
            shared.failures.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(failure);
        }
    }
}

/// The setup of game `i`: its scenario, seed `seed + i`, and manual dice for one game in three
/// (chosen from the seed, so the game is the same whichever thread plays it).
#[must_use]
pub fn game_setup(registry: &dyn Registry, campaign: &Campaign, i: u64) -> Setup {
    let seed = campaign.seed.wrapping_add(i);
    let scenario = campaign.scenarios[(i % campaign.scenarios.len() as u64) as usize].clone();
    let dice = if Dice::new(seed ^ 0x6d61_6e75_616c).below(3) == 0 { DiceMode::Manual } else { DiceMode::Seeded };
    Setup { system: registry.system().to_string(), scenario, seed, dice, options: campaign.options.clone() }
}

/// Plays one game with random choices, checking after every step. The random player's dice
/// (which also pick the steps where undo and save are checked) are seeded from the game's seed.
fn play(
    registry: &dyn Registry,
    setup: &Setup,
    max_steps: u64,
    deadline: Instant,
    choices: &mut Vec<String>,
) -> Result<Outcome, String> {
    let mut game = registry.new_game(setup).map_err(|e| format!("cannot start: {e}"))?;
    let mut player = Dice::new(setup.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(1));
    // A save taken at a random early step is loaded and played alongside the game for a while.
    let save_at = player.below(400) as u64;
    let mut shadow: Option<(Box<dyn DynGame>, u32)> = None;
    game.check()?;
    for step in 0..max_steps {
        if step % 1024 == 1023 && Instant::now() >= deadline {
            return Ok(Outcome::Cut);
        }
        let Some(decision) = game.pending() else {
            check_final_save(registry, game.as_ref())?;
            return Ok(Outcome::Over);
        };
        let id = random_choice(&decision, &mut player).to_string();
        // Hashing the state costs as much as a few decisions: only before an undo check.
        let before = (player.below(500) == 0).then(|| game.state_hash());
        choices.push(id.clone());
        game.choose(&id).map_err(|e| format!("the game refused `{id}`, which it offered: {e}"))?;
        game.check()?;
        if let Some(before) = before.filter(|_| game.can_undo()) {
            check_undo(game.as_mut(), &id, &before)?;
        }
        if let Some((loaded, left)) = &mut shadow {
            if loaded.pending().as_ref() != Some(&decision) {
                return Err("a loaded save offers another decision than the game it came from".to_string());
            }
            loaded.choose(&id).map_err(|e| format!("a loaded save refuses `{id}`: {e}"))?;
            if loaded.state_hash() != game.state_hash() {
                return Err(format!("after `{id}`, a loaded save and the game it came from differ"));
            }
            *left -= 1;
            if *left == 0 {
                shadow = None;
            }
        }
        if step == save_at {
            shadow = Some((reload(registry, game.as_ref())?, 64));
        }
    }
    if game.pending().is_none() {
        check_final_save(registry, game.as_ref())?;
        return Ok(Outcome::Over);
    }
    Err(format!("not over after {max_steps} decisions"))
}

/// Undo goes back to the state before the last choice, and choosing it again gives the same
/// state: no die is rolled again differently.
fn check_undo(game: &mut dyn DynGame, id: &str, before: &str) -> Result<(), String> {
    let after = game.state_hash();
    game.undo().map_err(|e| format!("undo refused although can_undo said yes: {e}"))?;
    if game.state_hash() != before {
        return Err(format!("undo of `{id}` does not give back the state before it"));
    }
    game.check()?;
    game.choose(id).map_err(|e| format!("`{id}` refused again after undo: {e}"))?;
    if game.state_hash() != after {
        return Err(format!("`{id}` chosen again after undo gives another state"));
    }
    Ok(())
}

/// The game rebuilt from its save (through its JSON), checked to be in the same state.
fn reload(registry: &dyn Registry, game: &dyn DynGame) -> Result<Box<dyn DynGame>, String> {
    let json = game.save().to_json();
    let save = Save::from_json(&json).map_err(|e| format!("its save does not parse: {e}"))?;
    let loaded = registry.load_game(&save).map_err(|e| format!("its save does not load: {e}"))?;
    if loaded.state_hash() != game.state_hash() {
        return Err("its save loads to another state".to_string());
    }
    Ok(loaded)
}

/// A finished game's save reloads to the same state, which is over too.
fn check_final_save(registry: &dyn Registry, game: &dyn DynGame) -> Result<(), String> {
    let loaded = reload(registry, game)?;
    if loaded.pending().is_some() {
        return Err("its save loads to a game that is not over".to_string());
    }
    loaded.check()
}

/// Reports a failure: its setup, message and choices, the command that plays it again, and a save
/// of the choices before the last one (written to `dir` when the choices still replay).
fn write_failure(registry: &dyn Registry, f: &Failure, dir: Option<&PathBuf>, out: &mut dyn Write) -> io::Result<()> {
    let dice = if f.setup.dice == DiceMode::Manual { "manual" } else { "seeded" };
    writeln!(
        out,
        "FAILED {} seed {} ({dice} dice) after {} decisions: {}",
        f.setup.scenario,
        f.setup.seed,
        f.choices.len(),
        f.message
    )?;
    let opts: String = f.setup.options.iter().map(|o| format!(" --option {o}")).collect();
    writeln!(out, "  reproduce: caisson fuzz --scenario {} --seed {} --games 1{opts}", f.setup.scenario, f.setup.seed)?;
    let shown = f.choices.len().saturating_sub(12);
    writeln!(
        out,
        "  choices{}: {}",
        if shown > 0 { format!(" (the last 12 of {})", f.choices.len()) } else { String::new() },
        serde_json::to_string(&f.choices[shown..]).unwrap_or_default()
    )?;
    if let Some(dir) = dir {
        match save_before_failure(registry, f) {
            Some(save) => {
                let path = dir.join(format!("fuzz-{}-{}.json", f.setup.scenario, f.setup.seed));
                let written = std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, save.to_json()));
                match written {
                    Ok(()) => writeln!(
                        out,
                        "  save before the last choice: {} (then choose {:?})",
                        path.display(),
                        f.choices.last().map_or("", String::as_str)
                    )?,
                    Err(e) => writeln!(out, "  cannot write {}: {e}", path.display())?,
                }
            }
            None => writeln!(out, "  no save: the choices do not replay")?,
        }
    }
    out.flush()
}

/// A save of the failed game's choices but the last, built by replaying them.
fn save_before_failure(registry: &dyn Registry, f: &Failure) -> Option<Save> {
    let keep = f.choices.len().saturating_sub(1);
    catch_unwind(AssertUnwindSafe(|| {
        let mut game = registry.new_game(&f.setup).ok()?;
        for c in &f.choices[..keep] {
            game.choose(c).ok()?;
        }
        Some(game.save())
    }))
    .ok()
    .flatten()
}

/// The closing lines of a campaign.
///
/// # Errors
/// Writing to `out` failed.
pub fn write_summary(campaign: &Campaign, summary: &Summary, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "scenarios:       {}", campaign.scenarios.join(", "))?;
    writeln!(
        out,
        "games:           {} played to the end ({} with manual dice), {} cut short by the time limit",
        summary.games, summary.manual, summary.cut
    )?;
    writeln!(out, "decisions made:  {}", summary.decisions)?;
    writeln!(
        out,
        "decisions/s:     {:.0} ({:.1} s, {} threads)",
        summary.rate(),
        summary.elapsed.as_secs_f64(),
        campaign.jobs
    )?;
    writeln!(out, "failures:        {}", summary.failures.len())?;
    out.flush()
}
