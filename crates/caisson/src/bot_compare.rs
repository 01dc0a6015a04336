//! Comparing two bots (`caisson bot-compare`): the reports of two matches of one scenario with
//! the players' sides swapped, paired game by game by seed.
//!
//! Two figures come out. The games each bot won, as the bar counts them; and, for a
//! scenario whose sides are far from even (where the side decides more of the wins than the
//! player), the seat by seat score: for each seed, in the seat whose VP the scenario counts,
//! whether the first bot (against the second) scored more than the second (against the first),
//! as duplicate bridge scores a deal played at two tables.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use crate::bot_match::{GameResult, Report};
use crate::Outcome;

/// Why two reports cannot be compared.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CompareError {
    /// The matches are of different scenarios or options.
    #[error("the reports are of {first} and {second}: only matches of the same scenario and options compare")]
    Different {
        /// What the first match played.
        first: String,
        /// What the second match played.
        second: String,
    },
    /// The second match does not swap the first one's players.
    #[error("the second report's players (Union {union}, Confederate {confederate}) are not the first's swapped")]
    NotSwapped {
        /// The second match's Union bot.
        union: String,
        /// The second match's Confederate bot.
        confederate: String,
    },
    /// No seed was played to its end, with a score, in both matches.
    #[error("no seed was played to its end in both reports")]
    NoPairs,
}

/// How one bot did in one seat over the paired games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Seat {
    /// The bot.
    pub bot: String,
    /// Games it won as the Union.
    pub union_wins: u64,
    /// Games it won as the Confederates.
    pub confederate_wins: u64,
}

/// Two bots compared over the seeds both matches played to their end.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// Scenario id.
    pub scenario: String,
    /// Game options (`name=value`), sorted.
    pub options: Vec<String>,
    /// The side whose VP the scenario counts.
    pub vp_side: String,
    /// The seeds paired: finished, and scored, in both matches.
    pub seeds: Vec<u64>,
    /// The first report's Union bot, then its Confederate bot.
    pub bots: [Seat; 2],
    /// Games of the pairs no side won.
    pub no_winner: u64,
    /// Seeds where the first bot, in the seat whose VP count, scored more than the second bot
    /// in that seat.
    pub better: u64,
    /// Seeds where both ended with the same VP.
    pub equal: u64,
    /// Seeds where it scored fewer.
    pub worse: u64,
}

impl Comparison {
    /// Pairs the games of `first` (bot A as the Union, B as the Confederates) with those of
    /// `second` (B as the Union, A as the Confederates) by seed.
    ///
    /// # Errors
    /// Different scenarios or options, players not swapped, or no seed finished in both.
    pub fn of(first: &Report, second: &Report) -> Result<Comparison, CompareError> {
        let (a, b) = (&first.matchup, &second.matchup);
        if (&a.scenario, &a.options) != (&b.scenario, &b.options) {
            return Err(CompareError::Different { first: a.to_string(), second: b.to_string() });
        }
        if (&a.union, &a.confederate) != (&b.confederate, &b.union) {
            return Err(CompareError::NotSwapped { union: b.union.clone(), confederate: b.confederate.clone() });
        }
        let scored = |r: &Report| -> BTreeMap<u64, Outcome> {
            r.results
                .iter()
                .filter(|g| g.finished)
                .filter_map(|g: &GameResult| Some((g.seed, g.outcome.clone()?)))
                .collect()
        };
        let swapped = scored(second);
        let pairs: Vec<(u64, Outcome, Outcome)> =
            scored(first).into_iter().filter_map(|(seed, o)| Some((seed, o, swapped.get(&seed)?.clone()))).collect();
        let vp_side = pairs.first().ok_or(CompareError::NoPairs)?.1.vp_side.clone();
        let mut c = Comparison {
            scenario: a.scenario.clone(),
            options: a.options.clone(),
            vp_side,
            seeds: pairs.iter().map(|p| p.0).collect(),
            bots: [
                Seat { bot: a.union.clone(), union_wins: 0, confederate_wins: 0 },
                Seat { bot: a.confederate.clone(), union_wins: 0, confederate_wins: 0 },
            ],
            no_winner: 0,
            better: 0,
            equal: 0,
            worse: 0,
        };
        // The first bot holds the Union seat in the first match and the Confederate one in the
        // second: its VP in the seat that counts them, less the second bot's in that seat.
        let union_counts = c.vp_side == "union";
        for (_, mine, theirs) in &pairs {
            for (outcome, union_bot) in [(mine, 0), (theirs, 1)] {
                match outcome.winner.as_deref() {
                    Some("union") => c.bots[union_bot].union_wins += 1,
                    Some("confederate") => c.bots[1 - union_bot].confederate_wins += 1,
                    _ => c.no_winner += 1,
                }
            }
            let lead = if union_counts { mine.vp - theirs.vp } else { theirs.vp - mine.vp };
            if lead > 0.0 {
                c.better += 1;
            } else if lead < 0.0 {
                c.worse += 1;
            } else {
                c.equal += 1;
            }
        }
        Ok(c)
    }

    /// The seat by seat score of the first bot: its better seeds, and half its equal ones, as a
    /// fraction of the seeds.
    #[must_use]
    pub fn score(&self) -> f64 {
        (self.better as f64 + self.equal as f64 / 2.0) / self.seeds.len() as f64
    }

    /// The comparison as text.
    ///
    /// # Errors
    /// Writing to `out` failed.
    pub fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        let n = self.seeds.len() as u64;
        let [a, b] = &self.bots;
        writeln!(out, "scenario:      {} (options [{}])", self.scenario, self.options.join(", "))?;
        writeln!(
            out,
            "bots:          {} against {}, each seed played both ways: {n} seeds, {} games",
            a.bot,
            b.bot,
            2 * n
        )?;
        for s in &self.bots {
            let won = s.union_wins + s.confederate_wins;
            writeln!(
                out,
                "games won:     {} {won} of {} ({:.1}%): as Union {} of {n}, as Confederate {} of {n}",
                s.bot,
                2 * n,
                100.0 * won as f64 / (2 * n) as f64,
                s.union_wins,
                s.confederate_wins
            )?;
        }
        if self.no_winner > 0 {
            writeln!(out, "no winner:     {} games", self.no_winner)?;
        }
        writeln!(
            out,
            "seat by seat:  in the seat whose VP count ({}), {} against {} scored more than {} against {} with the same seed in {} seeds, as many in {}, fewer in {}: a score of {:.1}% for {} (an equal seed counts half)",
            self.vp_side,
            a.bot,
            b.bot,
            b.bot,
            a.bot,
            self.better,
            self.equal,
            self.worse,
            100.0 * self.score(),
            a.bot
        )?;
        out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot_match::Matchup;

    /// A report of `union` against `confederate` on hsn-1 with games `(seed, VP, winner)`, the VP
    /// counted for `vp_side`; a game with no VP did not finish.
    fn report(union: &str, confederate: &str, vp_side: &str, games: &[(u64, Option<f64>, Option<&str>)]) -> Report {
        let matchup = Matchup {
            scenario: "hsn-1".into(),
            union: union.into(),
            confederate: confederate.into(),
            options: Vec::new(),
        };
        let results = games
            .iter()
            .map(|&(seed, vp, winner)| GameResult {
                seed,
                finished: vp.is_some(),
                decisions: 10,
                outcome: vp.map(|vp| Outcome {
                    vp_side: vp_side.into(),
                    vp,
                    level: winner.map_or("Draw".into(), |w| format!("{w} win")),
                    winner: winner.map(str::to_string),
                    losses: BTreeMap::new(),
                    thresholds: Vec::new(),
                }),
                error: None,
                think_ms: BTreeMap::new(),
                playouts: BTreeMap::new(),
            })
            .collect();
        Report::of(matchup, games[0].0, results, 1.0, 1)
    }

    #[test]
    fn where_one_side_wins_most_games_the_seats_are_compared_seed_by_seed() {
        // The Union wins at 40 VP. Each bot wins 4 of the 8 games, but the search got more for
        // the Union than the heuristic did with seeds 1 and 3, as much with seed 2, less with 4.
        let u = Some("union");
        let c = Some("confederate");
        let first = report(
            "ai-normal",
            "ai-easy",
            "union",
            &[(1, Some(50.0), u), (2, Some(45.0), u), (3, Some(30.0), c), (4, Some(40.0), u), (5, None, None)],
        );
        let second = report(
            "ai-easy",
            "ai-normal",
            "union",
            &[(1, Some(41.0), u), (2, Some(45.0), u), (3, Some(20.0), c), (4, Some(50.0), u)],
        );
        let cmp = Comparison::of(&first, &second).expect("swapped");
        assert_eq!(cmp.seeds, [1, 2, 3, 4], "seed 5 did not finish in the first match");
        assert_eq!(cmp.bots[0], Seat { bot: "ai-normal".into(), union_wins: 3, confederate_wins: 1 });
        assert_eq!(cmp.bots[1], Seat { bot: "ai-easy".into(), union_wins: 3, confederate_wins: 1 });
        assert_eq!((cmp.better, cmp.equal, cmp.worse), (2, 1, 1));
        assert!((cmp.score() - 0.625).abs() < 1e-12);
        let mut text = Vec::new();
        cmp.write_text(&mut text).expect("write");
        let text = String::from_utf8(text).expect("utf-8");
        assert!(
            text.contains("games won:     ai-normal 4 of 8 (50.0%): as Union 3 of 4, as Confederate 1 of 4"),
            "{text}"
        );
        assert!(text.contains("in 2 seeds, as many in 1, fewer in 1: a score of 62.5% for ai-normal"), "{text}");
    }

    #[test]
    fn where_the_confederate_vp_count_fewer_is_better_for_the_union_seat() {
        let first = report("ai-normal", "ai-easy", "confederate", &[(7, Some(12.0), None)]);
        let second = report("ai-easy", "ai-normal", "confederate", &[(7, Some(9.0), None)]);
        // The search, as the Confederates in the second match, got 9 VP; the heuristic 12.
        let cmp = Comparison::of(&first, &second).expect("swapped");
        assert_eq!((cmp.better, cmp.equal, cmp.worse, cmp.no_winner), (0, 0, 1, 2));
    }

    #[test]
    fn only_two_matches_of_one_scenario_with_the_players_swapped_compare() {
        let one = report("ai-normal", "ai-easy", "union", &[(1, Some(50.0), None)]);
        let same = report("ai-normal", "ai-easy", "union", &[(1, Some(50.0), None)]);
        assert_eq!(
            Comparison::of(&one, &same),
            Err(CompareError::NotSwapped { union: "ai-normal".into(), confederate: "ai-easy".into() })
        );
        let mut elsewhere = report("ai-easy", "ai-normal", "union", &[(1, Some(50.0), None)]);
        elsewhere.matchup.scenario = "hsn-2".into();
        assert!(matches!(Comparison::of(&one, &elsewhere), Err(CompareError::Different { .. })));
        let other_seeds = report("ai-easy", "ai-normal", "union", &[(2, Some(50.0), None)]);
        assert_eq!(Comparison::of(&one, &other_seeds), Err(CompareError::NoPairs));
    }
}
