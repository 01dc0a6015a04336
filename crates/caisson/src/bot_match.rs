//! Bot matches: many games of one scenario between two computer players (`caisson bot-match`),
//! played through the same [`DynGame`] face as every front end, on several threads, and a
//! balance report: victory levels, the VP distribution (with an SVG plot), losses and game length.
//!
//! Game `i` uses the seed `seed + i`; the bots' choices are seeded from the game's seed and the
//! number of choices made, as the web server seeds its computer player, so every game can be
//! replayed alone and the report does not depend on the number of threads.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use caisson_ai::Bot;
use caisson_kernel::{DiceMode, Setup};
use serde::{Deserialize, Serialize};

use crate::{panic_message, Outcome, Registry};

/// What to play.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Scenario id.
    pub scenario: String,
    /// Number of games.
    pub games: u64,
    /// Seed of the first game; game `i` uses `seed + i` (wrapping).
    pub seed: u64,
    /// The Union player.
    pub union: Bot,
    /// The Confederate player.
    pub confederate: Bot,
    /// A game not over after this many decisions is stopped and counted as unfinished.
    pub max_steps: u64,
    /// Threads.
    pub jobs: usize,
    /// Game options.
    pub options: Vec<String>,
    /// A folder to write each game's save to (`<scenario>-<seed>.json`), to open any game of
    /// the match with `caisson load` and read its log.
    pub saves: Option<PathBuf>,
}

/// One game's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// The game's seed.
    pub seed: u64,
    /// Whether it reached its end.
    pub finished: bool,
    /// Decisions made, both sides.
    pub decisions: u64,
    /// How it ended (or stood when stopped), if the rule system scores it.
    pub outcome: Option<Outcome>,
    /// What went wrong, if anything (a refused option, a panic, no end in `max_steps`).
    pub error: Option<String>,
    /// How long each side's bot took over each of its decisions, in milliseconds (to the
    /// microsecond), so that the reports of several matches can be merged (`caisson bot-report`).
    pub think_ms: BTreeMap<String, Vec<f64>>,
    /// The playouts (search rollouts) each side's bot ran.
    pub playouts: BTreeMap<String, u64>,
}

/// The bot of a side.
fn bot_for(plan: &Plan, side: &str) -> Bot {
    if side == "union" {
        plan.union
    } else {
        plan.confederate
    }
}

/// Plays one game of the plan.
#[must_use]
pub fn play_one(registry: &dyn Registry, plan: &Plan, seed: u64) -> GameResult {
    let mut result = GameResult {
        seed,
        finished: false,
        decisions: 0,
        outcome: None,
        error: None,
        think_ms: BTreeMap::new(),
        playouts: BTreeMap::new(),
    };
    let mut think: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut playouts: BTreeMap<String, u64> = BTreeMap::new();
    let setup = Setup {
        system: registry.system().to_string(),
        scenario: plan.scenario.clone(),
        seed,
        dice: DiceMode::Seeded,
        options: plan.options.clone(),
    };
    let mut game = match registry.new_game(&setup) {
        Ok(g) => g,
        Err(e) => {
            result.error = Some(format!("cannot start: {e}"));
            return result;
        }
    };
    let played = catch_unwind(AssertUnwindSafe(|| -> Result<bool, String> {
        for _ in 0..plan.max_steps {
            let Some(decision) = game.pending() else { return Ok(true) };
            let bot = bot_for(plan, &decision.side);
            let choice_seed = caisson_ai::bot_seed(seed, game.actions().len() as u64);
            let started = Instant::now();
            let Some(searched) = bot.choose_searched(game.as_ref(), choice_seed) else { return Ok(true) };
            let ms = (started.elapsed().as_secs_f64() * 1e6).round() / 1000.0;
            think.entry(decision.side.clone()).or_default().push(ms);
            *playouts.entry(decision.side.clone()).or_default() += searched.playouts;
            let id = searched.choice;
            game.choose(&id).map_err(|e| format!("the game refused `{id}`, which it offered: {e}"))?;
        }
        Ok(game.pending().is_none())
    }));
    result.decisions = game.actions().len() as u64;
    result.think_ms = think;
    result.playouts = playouts;
    match played {
        Ok(Ok(true)) => result.finished = true,
        Ok(Ok(false)) => result.error = Some(format!("not over after {} decisions", plan.max_steps)),
        Ok(Err(e)) => result.error = Some(e),
        Err(payload) => result.error = Some(format!("panic: {}", panic_message(payload.as_ref()))),
    }
    result.outcome = catch_unwind(AssertUnwindSafe(|| registry.outcome(game.as_ref()))).ok().flatten();
    if let Some(dir) = &plan.saves {
        let file = dir.join(format!("{}-{seed}.json", plan.scenario));
        if let Err(e) = std::fs::write(&file, game.save().to_json()) {
            let note = format!("{}: cannot write the save: {e}", file.display());
            result.error = Some(result.error.map_or(note.clone(), |was| format!("{was}; {note}")));
        }
    }
    result
}

/// Plays every game of the plan on `plan.jobs` threads, calling `done` after each game (for a
/// progress bar). Results come back in seed order.
pub fn run(registry: &(dyn Registry + Sync), plan: &Plan, done: &(dyn Fn(&GameResult) + Sync)) -> Report {
    let started = Instant::now();
    let next = AtomicU64::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..plan.jobs.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= plan.games {
                    break;
                }
                let r = play_one(registry, plan, plan.seed.wrapping_add(i));
                done(&r);
                if let Ok(mut all) = results.lock() {
                    all.push((i, r));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|(i, _)| *i);
    Report::new(plan, results.into_iter().map(|(_, r)| r).collect(), started.elapsed())
}

/// Mean and spread of a sample.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Mean.
    pub mean: f64,
    /// Standard deviation.
    pub sd: f64,
    /// Least value.
    pub min: f64,
    /// Greatest value.
    pub max: f64,
    /// Median.
    pub median: f64,
    /// 95th percentile.
    pub p95: f64,
}

impl Stats {
    fn of(xs: &[f64]) -> Stats {
        if xs.is_empty() {
            return Stats::default();
        }
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let sd = (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
        let mut sorted = xs.to_vec();
        sorted.sort_by(f64::total_cmp);
        let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
        Stats { mean, sd, min: at(0.0), max: at(1.0), median: at(0.5), p95: at(0.95) }
    }
}

/// What a match plays: only reports of the same matchup merge ([`Report::merge`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Matchup {
    /// Scenario id.
    pub scenario: String,
    /// The Union bot.
    pub union: String,
    /// The Confederate bot.
    pub confederate: String,
    /// Game options (`name=value`), sorted.
    #[serde(default)]
    pub options: Vec<String>,
}

impl std::fmt::Display for Matchup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (Union {}, Confederate {}, options [{}])",
            self.scenario,
            self.union,
            self.confederate,
            self.options.join(", ")
        )
    }
}

/// The balance report of a match, or of several merged ([`Report::merge`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// What was played (its fields sit at the top level of the JSON).
    #[serde(flatten)]
    pub matchup: Matchup,
    /// Seed of the first game.
    pub seed: u64,
    /// Games played.
    pub games: u64,
    /// Games that reached their end.
    pub finished: u64,
    /// Wins by side id (finished games whose level names the side), and `none`.
    pub wins: BTreeMap<String, u64>,
    /// Finished games by victory level.
    pub levels: BTreeMap<String, u64>,
    /// The side whose VP are counted.
    pub vp_side: Option<String>,
    /// Victory points of the finished games.
    pub vp: Stats,
    /// Manpower lost per finished game, by side.
    pub losses: BTreeMap<String, Stats>,
    /// Decisions per game (every game).
    pub decisions: Stats,
    /// Milliseconds each side's bot took per decision (every game).
    pub think_ms: BTreeMap<String, Stats>,
    /// Each side's search: playouts (rollouts) in all, and per second of that side's thinking.
    pub search: BTreeMap<String, SearchSpeed>,
    /// Wall-clock seconds (of merged matches, the sum of theirs).
    pub seconds: f64,
    /// Matches merged into this report (1 for one `bot-match`).
    #[serde(default = "one")]
    pub matches: u64,
    /// Games played per second (playouts per second).
    pub games_per_second: f64,
    /// Decisions per second.
    pub decisions_per_second: f64,
    /// Every game, in seed order.
    pub results: Vec<GameResult>,
}

fn one() -> u64 {
    1
}

/// Why reports cannot be merged.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum MergeError {
    /// Nothing to merge.
    #[error("no report to merge")]
    Empty,
    /// The matches differ in what was played.
    #[error("report {index} is of {found}, the first of {expected}: only matches of the same scenario, players and options merge")]
    Different {
        /// Position of the report (from 1).
        index: usize,
        /// What the first report played.
        expected: String,
        /// What this one played.
        found: String,
    },
    /// A game is in two reports.
    #[error("seed {0} is in two reports: a game would count twice")]
    Twice(u64),
}

/// How much a side's search played out over a match.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SearchSpeed {
    /// Rollouts run.
    pub playouts: u64,
    /// Rollouts per second of the side's thinking time.
    pub per_second: f64,
}

impl Report {
    fn new(plan: &Plan, results: Vec<GameResult>, elapsed: Duration) -> Report {
        let matchup = Matchup {
            scenario: plan.scenario.clone(),
            union: plan.union.name(),
            confederate: plan.confederate.name(),
            options: plan.options.clone(),
        };
        Report::of(matchup, plan.seed, results, elapsed.as_secs_f64(), 1)
    }

    /// One report of the games of several matches of the same scenario, players and options
    /// (for example one match's seeds split over several machines or sessions): the figures are
    /// worked out again from every game, and the seconds are the sum of the matches'.
    ///
    /// # Errors
    /// No report, reports of different matches, or a seed in two of them.
    pub fn merge(reports: Vec<Report>) -> Result<Report, MergeError> {
        let first = reports.first().ok_or(MergeError::Empty)?;
        let (matchup, first_seed) = (first.matchup.clone(), first.seed);
        let mut results: Vec<GameResult> = Vec::new();
        let (mut seconds, mut matches) = (0.0, 0);
        for (i, r) in reports.into_iter().enumerate() {
            if r.matchup != matchup {
                return Err(MergeError::Different {
                    index: i + 1,
                    expected: matchup.to_string(),
                    found: r.matchup.to_string(),
                });
            }
            seconds += r.seconds;
            matches += r.matches;
            results.extend(r.results);
        }
        results.sort_by_key(|r| r.seed);
        if let Some(w) = results.windows(2).find(|w| w[0].seed == w[1].seed) {
            return Err(MergeError::Twice(w[0].seed));
        }
        let seed = results.first().map_or(first_seed, |r| r.seed);
        Ok(Report::of(matchup, seed, results, seconds, matches))
    }

    /// The report of `results` of `matchup`, from `seed`, played in `seconds` over `matches`.
    pub(crate) fn of(matchup: Matchup, seed: u64, results: Vec<GameResult>, seconds: f64, matches: u64) -> Report {
        let finished: Vec<&GameResult> = results.iter().filter(|r| r.finished).collect();
        let outcomes: Vec<&Outcome> = finished.iter().filter_map(|r| r.outcome.as_ref()).collect();
        let mut wins = BTreeMap::new();
        let mut levels = BTreeMap::new();
        for o in &outcomes {
            *wins.entry(o.winner.clone().unwrap_or_else(|| "none".into())).or_insert(0) += 1;
            *levels.entry(o.level.clone()).or_insert(0) += 1;
        }
        let mut losses = BTreeMap::new();
        for side in outcomes.iter().flat_map(|o| o.losses.keys()) {
            if !losses.contains_key(side) {
                let xs: Vec<f64> =
                    outcomes.iter().map(|o| f64::from(o.losses.get(side).copied().unwrap_or(0))).collect();
                losses.insert(side.clone(), Stats::of(&xs));
            }
        }
        let vp: Vec<f64> = outcomes.iter().map(|o| o.vp).collect();
        let decisions: Vec<f64> = results.iter().map(|r| r.decisions as f64).collect();
        let mut think: BTreeMap<String, Vec<f64>> = BTreeMap::new();
        for r in &results {
            for (side, ms) in &r.think_ms {
                think.entry(side.clone()).or_default().extend(ms);
            }
        }
        let think_ms = think.iter().map(|(side, ms)| (side.clone(), Stats::of(ms))).collect();
        let mut search: BTreeMap<String, SearchSpeed> = BTreeMap::new();
        for r in &results {
            for (side, n) in &r.playouts {
                search.entry(side.clone()).or_insert(SearchSpeed { playouts: 0, per_second: 0.0 }).playouts += n;
            }
        }
        for (side, s) in &mut search {
            let thought: f64 = think.get(side).map_or(0.0, |ms| ms.iter().sum::<f64>() / 1000.0);
            s.per_second = if thought > 0.0 { s.playouts as f64 / thought } else { 0.0 };
        }
        let per_second = |n: f64| if seconds > 0.0 { n / seconds } else { 0.0 };
        Report {
            matchup,
            seed,
            games: results.len() as u64,
            finished: finished.len() as u64,
            wins,
            levels,
            vp_side: outcomes.first().map(|o| o.vp_side.clone()),
            vp: Stats::of(&vp),
            losses,
            decisions: Stats::of(&decisions),
            think_ms,
            search,
            seconds,
            matches,
            games_per_second: per_second(results.len() as f64),
            decisions_per_second: per_second(decisions.iter().sum()),
            results,
        }
    }

    /// Finished games a side won, as a fraction of the finished games.
    #[must_use]
    pub fn win_rate(&self, side: &str) -> f64 {
        if self.finished == 0 {
            return 0.0;
        }
        self.wins.get(side).copied().unwrap_or(0) as f64 / self.finished as f64
    }

    /// The seeds of the games as runs (`1..=500, 601..=700`).
    fn seed_ranges(&self) -> String {
        let mut runs: Vec<(u64, u64)> = Vec::new();
        for seed in self.results.iter().map(|r| r.seed) {
            match runs.last_mut() {
                Some((_, end)) if end.checked_add(1) == Some(seed) => *end = seed,
                _ => runs.push((seed, seed)),
            }
        }
        runs.iter().map(|(a, b)| format!("{a}..={b}")).collect::<Vec<_>>().join(", ")
    }

    /// The report as text.
    ///
    /// # Errors
    /// Writing to `out` failed.
    pub fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        let m = &self.matchup;
        writeln!(out, "scenario:        {}", m.scenario)?;
        writeln!(out, "players:         Union {} vs Confederate {}", m.union, m.confederate)?;
        writeln!(out, "games finished:  {} of {} (seeds {})", self.finished, self.games, self.seed_ranges())?;
        for (side, n) in &self.wins {
            writeln!(out, "wins {side:<12} {n} ({:.1}%)", 100.0 * self.win_rate(side))?;
        }
        writeln!(out, "victory levels:")?;
        let mut levels: Vec<(&String, &u64)> = self.levels.iter().collect();
        levels.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (level, n) in levels {
            writeln!(out, "  {level:<34} {n}")?;
        }
        if let Some(side) = &self.vp_side {
            writeln!(
                out,
                "{side} VP:  mean {:.2}, sd {:.2}, min {}, max {}",
                self.vp.mean, self.vp.sd, self.vp.min, self.vp.max
            )?;
        }
        for (side, s) in &self.losses {
            writeln!(out, "{side} Manpower lost per game: mean {:.2} (sd {:.2})", s.mean, s.sd)?;
        }
        writeln!(
            out,
            "game length:     {:.0} decisions on average (min {}, max {})",
            self.decisions.mean, self.decisions.min, self.decisions.max
        )?;
        for (side, t) in &self.think_ms {
            writeln!(out, "{side} ms per decision: median {:.2}, p95 {:.2}, max {:.1}", t.median, t.p95, t.max)?;
        }
        for (side, s) in self.search.iter().filter(|(_, s)| s.playouts > 0) {
            writeln!(out, "{side} search: {} playouts, {:.0} per second of thinking", s.playouts, s.per_second)?;
        }
        let merged = if self.matches > 1 { format!(" in all, {} matches", self.matches) } else { String::new() };
        writeln!(
            out,
            "speed:           {:.2} games/s, {:.0} decisions/s ({:.1} s{merged})",
            self.games_per_second, self.decisions_per_second, self.seconds
        )?;
        for r in self.results.iter().filter(|r| r.error.is_some()) {
            writeln!(out, "problem, seed {}: {}", r.seed, r.error.as_deref().unwrap_or(""))?;
        }
        out.flush()
    }

    /// A histogram of the VP of the finished games as SVG, with the victory levels' lowest
    /// totals marked.
    #[must_use]
    pub fn svg(&self) -> String {
        let outcomes: Vec<&Outcome> =
            self.results.iter().filter(|r| r.finished).filter_map(|r| r.outcome.as_ref()).collect();
        let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
        for o in &outcomes {
            *counts.entry(o.vp.floor() as i64).or_insert(0) += 1;
        }
        let thresholds = outcomes.first().map(|o| o.thresholds.clone()).unwrap_or_default();
        let lo = counts.keys().next().copied().unwrap_or(0);
        let hi = counts.keys().next_back().copied().unwrap_or(0);
        let t_lo = thresholds.iter().map(|t| t.0 as i64).min().unwrap_or(lo);
        let t_hi = thresholds.iter().map(|t| t.0 as i64).max().unwrap_or(hi);
        let (lo, hi) = (lo.min(t_lo) - 1, hi.max(t_hi) + 1);
        let top = counts.values().copied().max().unwrap_or(1).max(1);
        let (w, h, left, bottom, top_pad) = (800.0, 400.0, 50.0, 40.0, 50.0);
        let bins = (hi - lo + 1).max(1) as f64;
        let bw = (w - left - 20.0) / bins;
        let plot_h = h - bottom - top_pad;
        let x_of = |vp: f64| left + (vp - lo as f64) * bw;
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11">"#
        );
        let _ = writeln!(s, r##"<rect width="{w}" height="{h}" fill="#fff"/>"##);
        let side = self.vp_side.clone().unwrap_or_default();
        let _ = writeln!(
            s,
            r#"<text x="{left}" y="20" font-size="14">{}: {side} VP in {} games, Union {} vs Confederate {}</text>"#,
            self.matchup.scenario,
            outcomes.len(),
            self.matchup.union,
            self.matchup.confederate
        );
        for (vp, n) in &counts {
            let bh = plot_h * (*n as f64) / (top as f64);
            let x = x_of(*vp as f64);
            let _ = writeln!(
                s,
                r##"<rect x="{x:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}" fill="#4a6fa5"><title>{vp} VP: {n} game{}</title></rect>"##,
                h - bottom - bh,
                (bw - 1.0).max(1.0),
                if *n == 1 { "" } else { "s" }
            );
        }
        for (min, level) in &thresholds {
            let x = x_of(*min);
            let _ = writeln!(
                s,
                r##"<line x1="{x:.1}" y1="{top_pad}" x2="{x:.1}" y2="{:.1}" stroke="#a33" stroke-dasharray="4 3"/>"##,
                h - bottom
            );
            let _ = writeln!(
                s,
                r##"<text x="{:.1}" y="{:.1}" fill="#a33" transform="rotate(-90 {:.1} {:.1})">{}</text>"##,
                x + 10.0,
                top_pad + 4.0,
                x + 10.0,
                top_pad + 4.0,
                escape(level)
            );
        }
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#000"/>"##,
            h - bottom,
            w - 20.0,
            h - bottom
        );
        let step = ((hi - lo) / 10).max(1);
        let mut t = lo;
        while t <= hi {
            let _ =
                writeln!(s, r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{t}</text>"#, x_of(t as f64), h - 22.0);
            t += step;
        }
        let _ = writeln!(s, r#"<text x="8" y="{:.1}">{top}</text>"#, top_pad + 4.0);
        let _ = writeln!(s, r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{side} VP</text>"#, w / 2.0, h - 6.0);
        s.push_str("</svg>\n");
        s
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
