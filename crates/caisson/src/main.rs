//! `caisson`: play, serve and test Caisson games from the command line.
//!
//! Exit codes: 0 success (and a closed output pipe), 1 failures in `caisson random`, 2 errors.

use std::collections::BTreeSet;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use caisson::{engine, random, terminal, Registry, ScenarioRow};
use caisson_gcacw::registry;
use caisson_kernel::{DiceMode, DynGame, Save, SaveError, Setup};
use clap::{Parser, Subcommand, ValueEnum};

/// Play American Civil War board wargames with every rule enforced.
#[derive(Parser, Debug)]
#[command(name = "caisson", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the scenarios.
    Scenarios,
    /// Start a game in the terminal.
    New {
        /// Scenario id (see `caisson scenarios`).
        scenario: String,
        /// Dice seed [default: taken from the clock, and printed].
        #[arg(long)]
        seed: Option<u64>,
        /// How dice are rolled: by the engine, or by you (enter each die).
        #[arg(long, value_enum, default_value_t = DiceArg::Seeded)]
        dice: DiceArg,
        /// Who plays the Union.
        #[arg(long, value_enum, default_value_t = PlayerArg::Human)]
        union: PlayerArg,
        /// Who plays the Confederates.
        #[arg(long, value_enum, default_value_t = PlayerArg::Human)]
        confederate: PlayerArg,
        /// Game option (`name=value`); repeat for several.
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Save the game to FILE after every choice and when play stops.
        #[arg(long, value_name = "FILE")]
        save: Option<PathBuf>,
    },
    /// Resume a saved game in the terminal.
    Load {
        /// The save file.
        file: PathBuf,
        /// Who plays the Union.
        #[arg(long, value_enum, default_value_t = PlayerArg::Human)]
        union: PlayerArg,
        /// Who plays the Confederates.
        #[arg(long, value_enum, default_value_t = PlayerArg::Human)]
        confederate: PlayerArg,
        /// Save the game to FILE after every choice and when play stops.
        #[arg(long, value_name = "FILE")]
        save: Option<PathBuf>,
    },
    /// What a scenario's game rests on: the notices shown at its start, then every reconstructed
    /// value (map, counters, charts) with its reason.
    Notes {
        /// Scenario id.
        scenario: String,
    },
    /// Serve the JSON-lines engine protocol on stdin/stdout (see docs/protocol.md).
    Engine,
    /// Maps.
    Map {
        #[command(subcommand)]
        command: MapCommand,
    },
    /// Play games with random players on both sides, as a smoke test and fuzzer.
    Random {
        /// Scenario id.
        scenario: String,
        /// Number of games.
        #[arg(long)]
        games: u64,
        /// Seed of the first game (game i uses seed + i).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A game not over after this many decisions counts as a failure.
        #[arg(long, default_value_t = 100_000)]
        max_steps: u64,
        /// Game option (`name=value`); repeat for several.
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
}

#[derive(Subcommand, Debug)]
enum MapCommand {
    /// Draw a map as SVG.
    Render {
        /// Map id, e.g. `hsn`.
        map: String,
        /// Output file (`-` for standard output).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum DiceArg {
    Seeded,
    Manual,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum PlayerArg {
    Human,
    Random,
}

/// The GCACW rule system's registry.
struct Gcacw;

impl Registry for Gcacw {
    fn system(&self) -> &str {
        "gcacw"
    }
    fn scenarios(&self) -> Result<Vec<ScenarioRow>, String> {
        let list = registry::scenarios().map_err(|e| e.to_string())?;
        Ok(list
            .into_iter()
            .map(|s| ScenarioRow {
                id: s.id,
                name: s.name,
                first_date: s.first_date,
                last_date: s.last_date,
                turns: s.turns,
                game: s.game,
            })
            .collect())
    }
    fn new_game(&self, setup: &Setup) -> Result<Box<dyn DynGame>, String> {
        registry::new_game(setup)
    }
    fn load_game(&self, save: &Save) -> Result<Box<dyn DynGame>, SaveError> {
        registry::load_game(save)
    }
    fn notices(&self, scenario: &str) -> Result<Vec<String>, String> {
        registry::notices(scenario)
    }
    fn reconstructed(&self, scenario: &str) -> Result<Vec<String>, String> {
        registry::reconstructed(scenario)
    }
    fn render_map_svg(&self, map: &str) -> Result<String, String> {
        registry::render_map_svg(map)
    }
}

/// Why a command stopped.
enum Failure {
    /// An error to report (exit 2).
    Error(String),
    /// Output closed: stop quietly (exit 0).
    Closed,
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure::Closed
        } else {
            Failure::Error(e.to_string())
        }
    }
}

impl From<String> for Failure {
    fn from(e: String) -> Failure {
        Failure::Error(e)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command, &Gcacw) {
        Ok(code) => code,
        Err(Failure::Closed) => ExitCode::SUCCESS,
        Err(Failure::Error(e)) => {
            eprintln!("caisson: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(command: Command, reg: &dyn Registry) -> Result<ExitCode, Failure> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match command {
        Command::Scenarios => {
            let list = reg.scenarios()?;
            write_scenarios(&list, &mut out)?;
        }
        Command::New { scenario, seed, dice, union, confederate, options, save } => {
            let seed = seed.unwrap_or_else(clock_seed);
            let dice = match dice {
                DiceArg::Seeded => DiceMode::Seeded,
                DiceArg::Manual => DiceMode::Manual,
            };
            let mut options = options;
            options.sort();
            let setup = Setup { system: reg.system().to_string(), scenario: scenario.clone(), seed, dice, options };
            let mut game = reg.new_game(&setup)?;
            let notices = reg.notices(&scenario)?;
            writeln!(out, "Caisson: {scenario}, seed {seed}, {} dice.", dice_name(dice))?;
            let opts = terminal_options(seed, union, confederate, save, 0);
            let outcome = terminal::play(game.as_mut(), &notices, &opts, &mut io::stdin().lock(), &mut out)?;
            return Ok(outcome_code(&outcome));
        }
        Command::Load { file, union, confederate, save } => {
            let text = read_text(&file)?;
            let save_data = Save::from_json(&text).map_err(|e| format!("{}: {e}", file.display()))?;
            let mut game = reg.load_game(&save_data).map_err(|e| format!("{}: {e}", file.display()))?;
            let setup = game.setup().clone();
            writeln!(
                out,
                "Caisson: {} resumed from {} ({} choices), seed {}, {} dice.",
                setup.scenario,
                file.display(),
                game.actions().len(),
                setup.seed,
                dice_name(setup.dice)
            )?;
            let shown = game.log().len().saturating_sub(10);
            let opts = terminal_options(setup.seed, union, confederate, save, shown);
            let outcome = terminal::play(game.as_mut(), &[], &opts, &mut io::stdin().lock(), &mut out)?;
            return Ok(outcome_code(&outcome));
        }
        Command::Notes { scenario } => {
            for line in reg.notices(&scenario)? {
                writeln!(out, "- {line}")?;
            }
            writeln!(out, "\nReconstructed values:")?;
            for line in reg.reconstructed(&scenario)? {
                writeln!(out, "- {line}")?;
            }
        }
        Command::Engine => {
            let mut input = io::stdin().lock();
            engine::Engine::new(reg).run(&mut input, &mut out)?;
        }
        Command::Map { command: MapCommand::Render { map, out: file } } => {
            let svg = reg.render_map_svg(&map)?;
            if file == Path::new("-") {
                out.write_all(svg.as_bytes())?;
                out.flush()?;
            } else {
                std::fs::write(&file, svg).map_err(|e| format!("{}: cannot write: {e}", file.display()))?;
                writeln!(out, "wrote {}", file.display())?;
            }
        }
        Command::Random { scenario, games, seed, max_steps, options } => {
            let mut options = options;
            options.sort();
            let plan = random::Plan { scenario, games, seed, max_steps, options };
            let report = random::run(reg, &plan, &mut out)?;
            random::write_report(&plan, &report, &mut out)?;
            if !report.failures.is_empty() || report.finished < report.games {
                return Ok(ExitCode::from(1));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn terminal_options(
    seed: u64,
    union: PlayerArg,
    confederate: PlayerArg,
    autosave: Option<PathBuf>,
    log_shown: usize,
) -> terminal::Options {
    let mut random_sides = BTreeSet::new();
    for (side, player) in [("union", union), ("confederate", confederate)] {
        if player == PlayerArg::Random {
            random_sides.insert(side.to_string());
        }
    }
    terminal::Options { random_sides, player_seed: seed.wrapping_add(1), autosave, log_shown }
}

fn outcome_code(outcome: &terminal::Outcome) -> ExitCode {
    match outcome {
        terminal::Outcome::Failed(_) => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    }
}

fn dice_name(dice: DiceMode) -> &'static str {
    match dice {
        DiceMode::Seeded => "seeded",
        DiceMode::Manual => "manual",
    }
}

/// A seed for a game whose seed was not given: the clock's nanoseconds (the seed is printed and
/// saved, so the game stays reproducible).
fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1)
}

fn read_text(file: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(file).map_err(|e| format!("{}: cannot read: {e}", file.display()))?;
    if meta.len() > 64 << 20 {
        return Err(format!("{}: {} bytes is too big for a save", file.display(), meta.len()));
    }
    std::fs::read_to_string(file).map_err(|e| format!("{}: cannot read: {e}", file.display()))
}

fn write_scenarios(list: &[ScenarioRow], out: &mut dyn Write) -> io::Result<()> {
    let header = ["id", "name", "dates", "turns", "game"];
    let rows: Vec<[String; 5]> = list
        .iter()
        .map(|s| {
            [
                s.id.clone(),
                s.name.clone(),
                format!("{} – {}", s.first_date, s.last_date),
                s.turns.to_string(),
                s.game.clone(),
            ]
        })
        .collect();
    let mut widths = header.map(|h| h.chars().count());
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: &[String]| {
        let padded: Vec<String> = cells.iter().zip(widths).map(|(c, w)| format!("{c:<w$}")).collect();
        padded.join("  ").trim_end().to_string()
    };
    writeln!(out, "{}", line(&header.map(str::to_string)))?;
    for row in &rows {
        writeln!(out, "{}", line(row))?;
    }
    if rows.is_empty() {
        writeln!(out, "(no scenarios)")?;
    }
    out.flush()
}
