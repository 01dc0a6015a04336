//! `caisson`: play, serve and test Caisson games from the command line.
//!
//! Exit codes: 0 success (and a closed output pipe), 1 failures in `caisson random` or `caisson fuzz`,
//! 2 errors.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use caisson::charts::{self, CombatQuery};
use caisson::systems::Systems;
use caisson::{bot_compare, bot_match, engine, fuzz, random, terminal, Registry, ScenarioRow};
use caisson_ai::{Bot, Level};
use caisson_kernel::{DiceMode, Save, Setup};
use clap::{Parser, Subcommand, ValueEnum};

/// The search allocates and frees many small vectors in every playout; mimalloc serves them
/// faster than the system allocator (README, Dependencies).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    /// Serve games over HTTP with the web page (see docs/web-api.md) until Ctrl-C.
    ///
    /// Prints `listening on http://ADDR` once ready.
    Serve {
        /// Port to listen on (0: any free port).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Address to listen on (`0.0.0.0` to accept other machines, for online games).
        #[arg(long, default_value = "127.0.0.1")]
        host: std::net::IpAddr,
        /// Where games are kept: `sqlite:FILE` (PostgreSQL is not supported yet).
        #[arg(long, default_value = "sqlite:caisson.db")]
        database: String,
    },
    /// Maps.
    Map {
        #[command(subcommand)]
        command: MapCommand,
    },
    /// The charts and tables of the rules: list them, print one, or read one Combat Chart cell.
    ///
    /// `caisson chart` lists the charts; `caisson chart gcacw combat` prints the Combat Chart;
    /// `caisson chart gcacw combat --diff +4 --attacker-cv 8 --defender-cv 7` reads one row;
    /// `caisson chart blind-swords crt` prints the Blind Swords CRT.
    Chart {
        /// Rule system (`gcacw`, `blind-swords`); without it, the list of GCACW charts.
        system: Option<String>,
        /// Chart name (see `caisson chart`); without it, the list of charts.
        name: Option<String>,
        /// Combat Chart row: the attacker's modified die roll minus the defender's (+4, 0, -2).
        #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = parse_differential)]
        diff: Option<i32>,
        /// The attacker's combined Combat value (8, 3.5 or 3½).
        #[arg(long, value_name = "CV", allow_negative_numbers = true, value_parser = parse_cv)]
        attacker_cv: Option<u16>,
        /// The defender's combined Combat value before entrenchment (8, 3.5 or 3½).
        #[arg(long, value_name = "CV", allow_negative_numbers = true, value_parser = parse_cv)]
        defender_cv: Option<u16>,
    },
    /// Play many games between two computer players and print a balance report: victory levels,
    /// the VP distribution, losses and game length (progress on standard error).
    BotMatch {
        /// Scenario id.
        scenario: String,
        /// Number of games.
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// The Union player: random, ai (the default level), ai-easy, ai-normal or ai-hard.
        #[arg(long, value_parser = parse_bot, default_value = "ai")]
        union: Bot,
        /// The Confederate player (as for --union).
        #[arg(long, value_parser = parse_bot, default_value = "ai")]
        confederate: Bot,
        /// Seed of the first game (game i uses seed + i).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// A game not over after this many decisions is stopped and reported.
        #[arg(long, default_value_t = 20_000)]
        max_steps: u64,
        /// Print the report as JSON (every game included).
        #[arg(long)]
        json: bool,
        /// Write a histogram of the VP as SVG to FILE.
        #[arg(long, value_name = "FILE")]
        plot: Option<PathBuf>,
        /// Write each game's save into DIR (`<scenario>-<seed>.json`, created if missing), to read
        /// any game's log with `caisson load`.
        #[arg(long, value_name = "DIR")]
        saves: Option<PathBuf>,
        /// Game option (`name=value`); repeat for several.
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Merge the JSON reports of several bot matches of the same scenario and players (say one
    /// match's seeds split over several runs) into one balance report.
    BotReport {
        /// Reports written by `bot-match --json`.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print the merged report as JSON (every game included).
        #[arg(long)]
        json: bool,
        /// Write a histogram of the VP as SVG to FILE.
        #[arg(long, value_name = "FILE")]
        plot: Option<PathBuf>,
    },
    /// Compare two bots from two `bot-match --json` reports of one scenario with the players'
    /// sides swapped: the games each won, and seat by seat, seed by seed, which got more VP in
    /// the same seat (the fair measure where one side wins most games whoever plays it).
    BotCompare {
        /// The report of bot A as the Union against bot B.
        first: PathBuf,
        /// The report of bot B as the Union against bot A, on the same seeds.
        second: PathBuf,
        /// Print the comparison as JSON.
        #[arg(long)]
        json: bool,
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
    /// Soak the rules: random games of every scenario (seeded and manual dice) on several threads,
    /// checking the invariants after every decision, undo, and saves that reload and go on alike.
    Fuzz {
        /// How long to run, in minutes (fractions allowed).
        #[arg(long, default_value_t = 1.0, value_parser = parse_minutes)]
        minutes: f64,
        /// Scenario id; repeat for several [default: every scenario].
        #[arg(long = "scenario")]
        scenarios: Vec<String>,
        /// Seed of the first game (game i uses seed + i) [default: taken from the clock, and printed].
        #[arg(long)]
        seed: Option<u64>,
        /// Threads [default: the number of processors].
        #[arg(long)]
        jobs: Option<usize>,
        /// Stop after this many games.
        #[arg(long)]
        games: Option<u64>,
        /// A game not over after this many decisions is a failure.
        #[arg(long, default_value_t = 200_000)]
        max_steps: u64,
        /// Game option (`name=value`); repeat for several.
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Where to write a save of each failed game.
        #[arg(long, value_name = "DIR", default_value = "fuzz-failures")]
        failures: PathBuf,
    },
}

#[derive(Subcommand, Debug)]
enum MapCommand {
    /// Draw a map as SVG.
    Render {
        /// Map id, e.g. `hsn` or `perryville`.
        map: String,
        /// Output file (`-`, the default, for standard output).
        #[arg(long, value_name = "FILE", default_value = "-")]
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
    /// The computer opponent at its default level.
    Ai,
    AiEasy,
    AiNormal,
    AiHard,
    /// The Liddell-bot of pv-16-0's solo variant (EX 16.0d; as Confederate it turns the variant
    /// on).
    Liddell,
}

impl PlayerArg {
    /// The computer player, for the AI players and the Liddell-bot.
    fn bot(self) -> Option<Bot> {
        match self {
            PlayerArg::Human | PlayerArg::Random => None,
            PlayerArg::Ai => Some(Bot::Ai(Level::default())),
            PlayerArg::AiEasy => Some(Bot::Ai(Level::Easy)),
            PlayerArg::AiNormal => Some(Bot::Ai(Level::Normal)),
            PlayerArg::AiHard => Some(Bot::Ai(Level::Hard)),
            PlayerArg::Liddell => Some(Bot::Liddell),
        }
    }
}

fn parse_bot(name: &str) -> Result<Bot, String> {
    Bot::parse(name).ok_or_else(|| format!("unknown player `{name}`: expected one of {}", Bot::NAMES.join(", ")))
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
    match run(cli.command, &Systems) {
        Ok(code) => code,
        Err(Failure::Closed) => ExitCode::SUCCESS,
        Err(Failure::Error(e)) => {
            eprintln!("caisson: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(command: Command, reg: &(dyn Registry + Sync)) -> Result<ExitCode, Failure> {
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
            solo_option(confederate == PlayerArg::Liddell, &mut options);
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
            // A finished game (a bot match's save) is read whole; a game to go on shows its last
            // entries.
            let shown = if game.pending().is_some() { game.log().len().saturating_sub(10) } else { 0 };
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
        Command::Serve { port, host, database } => {
            caisson::serve::run(std::sync::Arc::new(Systems), host, port, &database, &mut out)?;
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
        Command::Chart { system, name, diff, attacker_cv, defender_cv } => {
            chart_command(reg, system, name, (diff, attacker_cv, defender_cv), &mut out)?;
        }
        Command::BotMatch {
            scenario,
            games,
            union,
            confederate,
            seed,
            jobs,
            max_steps,
            json,
            plot,
            saves,
            options,
        } => {
            let mut options = options;
            solo_option(confederate == Bot::Liddell, &mut options);
            options.sort();
            reg.new_game(&Setup {
                system: reg.system().to_string(),
                scenario: scenario.clone(),
                seed,
                dice: DiceMode::Seeded,
                options: options.clone(),
            })?;
            if let Some(dir) = &saves {
                std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
            }
            let plan = bot_match::Plan { scenario, games, seed, union, confederate, max_steps, jobs, options, saves };
            let bar = indicatif::ProgressBar::new(games);
            bar.set_style(
                indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} (eta {eta})")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            let report = bot_match::run(&Systems, &plan, &|_| bar.inc(1));
            bar.finish_and_clear();
            write_report(&report, plot.as_deref(), json, &mut out)?;
        }
        Command::BotReport { files, json, plot } => {
            let reports = files.iter().map(|f| read_report(f)).collect::<Result<Vec<_>, _>>()?;
            let report = bot_match::Report::merge(reports).map_err(|e| e.to_string())?;
            write_report(&report, plot.as_deref(), json, &mut out)?;
        }
        Command::BotCompare { first, second, json } => {
            let comparison = bot_compare::Comparison::of(&read_report(&first)?, &read_report(&second)?)
                .map_err(|e| e.to_string())?;
            if json {
                writeln!(out, "{}", serde_json::to_string(&comparison).unwrap_or_default())?;
            } else {
                comparison.write_text(&mut out)?;
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
        Command::Fuzz { minutes, scenarios, seed, jobs, games, max_steps, options, failures } => {
            let scenarios =
                if scenarios.is_empty() { reg.scenarios()?.into_iter().map(|s| s.id).collect() } else { scenarios };
            let seed = seed.unwrap_or_else(clock_seed);
            let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)).max(1);
            let mut options = options;
            options.sort();
            let campaign = fuzz::Campaign {
                scenarios,
                seed,
                duration: std::time::Duration::from_secs_f64(minutes * 60.0),
                games,
                jobs,
                max_steps,
                options,
            };
            writeln!(
                out,
                "Fuzzing {} for {minutes} min on {jobs} threads from seed {seed}.",
                campaign.scenarios.join(", ")
            )?;
            let progress = Some(std::time::Duration::from_secs(10));
            let summary = fuzz::run(reg, &campaign, progress, Some(&failures), &mut out)?;
            fuzz::write_summary(&campaign, &summary, &mut out)?;
            if !summary.failures.is_empty() {
                return Ok(ExitCode::from(1));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads a report written by `bot-match --json` (or `bot-report --json`).
fn read_report(file: &Path) -> Result<bot_match::Report, Failure> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: cannot read: {e}", file.display()))?;
    serde_json::from_str(&text)
        .map_err(|e| Failure::from(format!("{}: not a `bot-match --json` report: {e}", file.display())))
}

/// Prints a balance report as text or JSON, and writes its VP plot to `plot` if asked.
fn write_report(
    report: &bot_match::Report,
    plot: Option<&Path>,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if let Some(file) = plot {
        std::fs::write(file, report.svg()).map_err(|e| format!("{}: cannot write: {e}", file.display()))?;
    }
    if json {
        writeln!(out, "{}", serde_json::to_string(report).unwrap_or_default())?;
    } else {
        report.write_text(out)?;
    }
    Ok(())
}

/// `caisson chart [SYSTEM [NAME]] [--diff N --attacker-cv CV --defender-cv CV]`.
fn chart_command(
    reg: &dyn Registry,
    system: Option<String>,
    name: Option<String>,
    reading: (Option<i32>, Option<u16>, Option<u16>),
    out: &mut dyn Write,
) -> Result<(), Failure> {
    const READING: &str = "--diff N --attacker-cv CV --defender-cv CV";
    let reg: &dyn Registry = match &system {
        None => reg,
        Some(system) => match Systems::for_system(system) {
            Some(found) => found,
            None => {
                let known: Vec<&str> = Systems::all().iter().map(|r| r.system()).collect();
                let mut owners = Vec::new();
                for r in Systems::all() {
                    if r.charts()?.iter().any(|c| &c.name == system) {
                        owners.push(format!("`caisson chart {} {system}`", r.system()));
                    }
                }
                let hint = if owners.is_empty() {
                    String::new()
                } else {
                    format!(": to print that chart, write {}", owners.join(" or "))
                };
                return Err(Failure::Error(format!(
                    "unknown rule system `{system}` (known: {}){hint}",
                    known.join(", ")
                )));
            }
        },
    };
    let list = reg.charts()?;
    if let Some(name) = &name {
        if !list.iter().any(|c| &c.name == name) {
            let names: Vec<&str> = list.iter().map(|c| c.name.as_str()).collect();
            return Err(Failure::Error(format!(
                "no chart `{name}` in {}; the charts are: {} (`caisson chart` lists them)",
                reg.system(),
                names.join(", ")
            )));
        }
    }
    let query = match reading {
        (None, None, None) => None,
        (Some(differential), Some(attacker_cv), Some(defender_cv)) => {
            Some(CombatQuery { differential, attacker_cv, defender_cv })
        }
        _ => {
            return Err(Failure::Error(format!(
                "a Combat Chart reading needs all three of {READING}, e.g. \
                 `caisson chart {} combat --diff +4 --attacker-cv 8 --defender-cv 7`",
                reg.system()
            )))
        }
    };
    match (name, query) {
        (None, None) => {
            let rows = charts::list(reg)?;
            charts::write_list(reg.system(), &rows, out)?;
            let others: Vec<String> = Systems::all()
                .iter()
                .filter(|r| r.system() != reg.system())
                .map(|r| format!("`caisson chart {}`", r.system()))
                .collect();
            if !others.is_empty() {
                writeln!(out, "The charts of the other rule systems: {}.", others.join(", "))?;
            }
        }
        (Some(name), None) => charts::write_chart(&reg.chart(&name)?, out)?,
        (Some(name), Some(query)) if name == "combat" => {
            charts::write_combat_reading(&reg.combat_reading(&query)?, out)?;
        }
        (name, Some(query)) => {
            if !list.iter().any(|c| c.name == "combat") {
                // A rule system without a Combat Chart says what to read instead.
                reg.combat_reading(&query)?;
            }
            let what = name.map_or_else(|| "the list of charts".to_string(), |n| format!("the `{n}` chart"));
            return Err(Failure::Error(format!(
                "{READING} read the Combat Chart, not {what}: write `caisson chart {} combat {READING}`",
                reg.system()
            )));
        }
    }
    Ok(())
}

/// A duration in minutes from the command line: a number, not negative, at most a week.
fn parse_minutes(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(m) if (0.0..=10_080.0).contains(&m) => Ok(m),
        _ => Err("not a number of minutes from 0 to 10080 (a week), such as 1.5".to_string()),
    }
}

/// A Combat Chart row from the command line: a whole number, signed or not ("+4", "-2", "−2").
fn parse_differential(s: &str) -> Result<i32, String> {
    let t = s.trim().replace('−', "-");
    t.parse::<i32>().map_err(|_| "not a die-roll differential: write a whole number such as +4, 0 or -2".to_string())
}

/// A Combat value from the command line, in half points: "8", "3.5", "3½", "½"; at least ½.
fn parse_cv(s: &str) -> Result<u16, String> {
    const MAX: u16 = 10_000;
    let t = s.trim();
    if t.starts_with('-') || t.starts_with('−') {
        return Err("a Combat value cannot be negative (the smallest is ½)".to_string());
    }
    let not_a_number = || "not a Combat value: write a number such as 8, 3.5 or 3½".to_string();
    let (whole, half) = if let Some(w) = t.strip_suffix('½') {
        (w, true)
    } else if let Some((w, fraction)) = t.split_once('.') {
        match fraction.trim_end_matches('0') {
            "" => (w, false),
            "5" => (w, true),
            _ if fraction.chars().all(|c| c.is_ascii_digit()) => {
                return Err("a Combat value is a whole number or a half (3.5), nothing finer".to_string())
            }
            _ => return Err(not_a_number()),
        }
    } else {
        (t, false)
    };
    let whole: u16 = match whole {
        "" if half => 0,
        w if !w.is_empty() && w.chars().all(|c| c.is_ascii_digit()) => {
            w.parse().ok().filter(|n| *n <= MAX).ok_or_else(|| format!("a Combat value is at most {MAX}"))?
        }
        _ => return Err(not_a_number()),
    };
    let halves = whole * 2 + u16::from(half);
    if halves == 0 {
        return Err("a Combat value is at least ½ (a force with 0 does not fight)".to_string());
    }
    Ok(halves)
}

/// The Liddell-bot as the Confederate player plays pv-16-0's solo variant (EX 16.0d): its game
/// option `solo=liddell` is added unless an option `solo=...` is given; a scenario with no solo
/// variant then refuses the game with a message naming the option.
fn solo_option(liddell: bool, options: &mut Vec<String>) {
    if liddell && !options.iter().any(|o| o.starts_with("solo=")) {
        options.push("solo=liddell".to_string());
    }
}

fn terminal_options(
    seed: u64,
    union: PlayerArg,
    confederate: PlayerArg,
    autosave: Option<PathBuf>,
    log_shown: usize,
) -> terminal::Options {
    let mut random_sides = BTreeSet::new();
    let mut ai_sides = BTreeMap::new();
    for (side, player) in [("union", union), ("confederate", confederate)] {
        if player == PlayerArg::Random {
            random_sides.insert(side.to_string());
        }
        if let Some(bot) = player.bot() {
            ai_sides.insert(side.to_string(), bot);
        }
    }
    terminal::Options { random_sides, ai_sides, player_seed: seed.wrapping_add(1), autosave, log_shown }
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
