//! "Race", a tiny complete rule system for testing the kernel and the front ends without any real
//! rule system.
//!
//! Two sides, `union` and `confederate`, take turns. On its turn a side chooses to roll one die
//! (`roll:1`), two dice (`roll:2`, one point less) or to pass (`pass`). The points rolled are added
//! to its score; the first side to reach 15 wins. If nobody has won after turn 30, the higher score
//! wins (equal scores: a draw), so every game ends.
//!
//! Rule sections (cited in the log and in roll records):
//! - `Race 1`: sides alternate, the union first; a turn ends after the confederate's go.
//! - `Race 2`: a roll adds its total (never below 0) to the roller's score.
//! - `Race 3`: rolling two dice costs one point (a −1 modifier).
//! - `Race 4`: the first to 15 points wins; after turn 30 the higher score wins.
//!
//! Only built for tests and with the `toy` feature.

use serde::{Deserialize, Serialize};

use crate::dyn_game::Describe;
use crate::game::{Game, Save, SaveError, Setup};
use crate::protocol::{Choice, Decision, LogEntry, Modifier, Pending, RollRecord, RollRequest, RuleError, Rules};

/// The two sides, in playing order.
pub const SIDES: [&str; 2] = ["union", "confederate"];

/// The Race rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    /// Points to win.
    pub target: u32,
    /// The game ends after this turn.
    pub max_turns: u16,
}

impl Default for Race {
    fn default() -> Race {
        Race { target: 15, max_turns: 30 }
    }
}

/// The state of a Race.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceState {
    /// Game turn, from 1.
    pub turn: u16,
    /// Index into [`SIDES`] of the side whose go it is.
    pub to_move: usize,
    /// Points of each side, indexed like [`SIDES`].
    pub scores: [u32; 2],
    /// Dice the side to move has chosen to roll, while the roll is pending.
    pub rolling: Option<u8>,
    /// `union`, `confederate` or `draw` once the game is over.
    pub winner: Option<String>,
    /// The log.
    pub log: Vec<LogEntry>,
}

impl Race {
    /// The starting state.
    #[must_use]
    pub fn start(&self) -> RaceState {
        RaceState {
            turn: 1,
            to_move: 0,
            scores: [0, 0],
            rolling: None,
            winner: None,
            log: vec![LogEntry {
                turn: 1,
                text: format!("The race begins: first to {} points wins.", self.target),
                rule: Some("Race 1".to_string()),
                roll: None,
            }],
        }
    }

    fn roll_request(state: &RaceState, dice: u8) -> RollRequest {
        let side = SIDES[state.to_move % 2];
        let modifiers = if dice == 2 { vec![Modifier::new("rolling two dice", -1, "Race 3")] } else { Vec::new() };
        RollRequest {
            side: side.to_string(),
            purpose: format!("{side} advances"),
            rule: "Race 2".to_string(),
            dice,
            modifiers,
        }
    }

    fn end_go(&self, state: &mut RaceState) {
        if state.to_move == 1 {
            if state.turn >= self.max_turns {
                let [u, c] = state.scores;
                let winner = match u.cmp(&c) {
                    std::cmp::Ordering::Greater => "union",
                    std::cmp::Ordering::Less => "confederate",
                    std::cmp::Ordering::Equal => "draw",
                };
                state.winner = Some(winner.to_string());
                state.log.push(LogEntry {
                    turn: state.turn,
                    text: format!("Turn {} is over: {winner} ({u}–{c}).", state.turn),
                    rule: Some("Race 4".to_string()),
                    roll: None,
                });
                return;
            }
            state.turn += 1;
        }
        state.to_move = (state.to_move + 1) % 2;
    }
}

impl Rules for Race {
    type State = RaceState;

    fn pending(&self, state: &RaceState) -> Pending {
        if state.winner.is_some() {
            return Pending::Over;
        }
        if let Some(n) = state.rolling {
            return Pending::Roll(Race::roll_request(state, n));
        }
        let side = SIDES[state.to_move % 2];
        Pending::Decide(Decision {
            side: side.to_string(),
            kind: "action".to_string(),
            prompt: format!(
                "{side}: roll one die, two dice (−1), or pass (union {}, confederate {}; first to {} wins)",
                state.scores[0], state.scores[1], self.target
            ),
            options: vec![
                Choice::new("roll:1", "Roll one die"),
                Choice::new("roll:2", "Roll two dice (−1)"),
                Choice::new("pass", "Pass"),
            ],
        })
    }

    fn choose(&self, state: &mut RaceState, option: &str) -> Result<(), RuleError> {
        if state.winner.is_some() {
            return Err(RuleError::GameOver);
        }
        if state.rolling.is_some() {
            return Err(RuleError::Unexpected("a roll is pending".to_string()));
        }
        let side = SIDES[state.to_move % 2];
        let dice = match option {
            "roll:1" => 1,
            "roll:2" => 2,
            "pass" => {
                state.log.push(LogEntry {
                    turn: state.turn,
                    text: format!("{side} passes."),
                    rule: Some("Race 1".to_string()),
                    roll: None,
                });
                self.end_go(state);
                return Ok(());
            }
            other => return Err(RuleError::NotAnOption(other.to_string())),
        };
        state.rolling = Some(dice);
        state.log.push(LogEntry {
            turn: state.turn,
            text: format!("{side} chooses to roll {dice} {}.", if dice == 1 { "die" } else { "dice" }),
            rule: Some("Race 2".to_string()),
            roll: None,
        });
        Ok(())
    }

    fn roll(&self, state: &mut RaceState, dice: &[u8]) -> Result<(), RuleError> {
        let Some(n) = state.rolling else {
            return Err(RuleError::Unexpected("no roll is pending".to_string()));
        };
        if dice.len() != usize::from(n) || dice.iter().any(|d| !(1..=6).contains(d)) {
            return Err(RuleError::BadRoll(format!("expected {n} dice of 1 to 6, got {dice:?}")));
        }
        let req = Race::roll_request(state, n);
        let who = state.to_move % 2;
        let total = RollRecord::new(&req, dice, "").total;
        let points = u32::try_from(total.max(0)).unwrap_or(0);
        state.scores[who] += points;
        let result = format!("{} gains {points} (now {})", SIDES[who], state.scores[who]);
        state.log.push(LogEntry {
            turn: state.turn,
            text: format!("{} rolls {dice:?}: +{points}.", SIDES[who]),
            rule: Some("Race 2".to_string()),
            roll: Some(RollRecord::new(&req, dice, result)),
        });
        state.rolling = None;
        if state.scores[who] >= self.target {
            state.winner = Some(SIDES[who].to_string());
            state.log.push(LogEntry {
                turn: state.turn,
                text: format!("{} reaches {} and wins the race.", SIDES[who], state.scores[who]),
                rule: Some("Race 4".to_string()),
                roll: None,
            });
        } else {
            self.end_go(state);
        }
        Ok(())
    }

    fn view(&self, state: &RaceState, side: Option<&str>) -> serde_json::Value {
        // Race hides nothing; the view only says who is looking.
        serde_json::json!({
            "viewer": side,
            "turn": state.turn,
            "to_move": SIDES[state.to_move % 2],
            "scores": { "union": state.scores[0], "confederate": state.scores[1] },
            "winner": state.winner,
        })
    }

    fn log<'s>(&self, state: &'s RaceState) -> &'s [LogEntry] {
        &state.log
    }

    fn check(&self, state: &RaceState) -> Result<(), String> {
        if state.turn == 0 || state.turn > self.max_turns {
            return Err(format!("turn {} outside 1..={}", state.turn, self.max_turns));
        }
        if state.to_move > 1 || state.rolling.is_some_and(|n| !(1..=2).contains(&n)) {
            return Err(format!("side {} to move, rolling {:?}", state.to_move, state.rolling));
        }
        if state.winner.is_none() && state.scores.iter().any(|&p| p >= self.target) {
            return Err(format!("a score reached {} and nobody has won (Race 4)", self.target));
        }
        Ok(())
    }
}

impl Describe for Race {
    fn summary(&self, state: &RaceState) -> String {
        let status = match &state.winner {
            Some(w) if w == "draw" => "Over: a draw".to_string(),
            Some(w) => format!("Over: {w} wins"),
            None => format!("{} to move", SIDES[state.to_move % 2]),
        };
        format!(
            "Race — turn {} of {}, first to {}\n  union       {:>3}\n  confederate {:>3}\n  {status}",
            state.turn, self.max_turns, self.target, state.scores[0], state.scores[1]
        )
    }
}

/// A new Race for `setup` (its seed and dice mode; scenario and options are ignored).
#[must_use]
pub fn toy_game(setup: &Setup) -> Game<Race> {
    let rules = Race::default();
    let start = rules.start();
    Game::new(rules, start, setup.clone())
}

/// A Race rebuilt from a save.
///
/// # Errors
/// The save is refused (see [`Game::load`]).
pub fn toy_load(save: &Save) -> Result<Game<Race>, SaveError> {
    let rules = Race::default();
    let start = rules.start();
    Game::load(rules, start, save)
}

/// A setup for a Race: system `toy`, scenario `race`.
#[must_use]
pub fn toy_setup(seed: u64, dice: crate::DiceMode) -> Setup {
    Setup { system: "toy".to_string(), scenario: "race".to_string(), seed, dice, options: Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DiceMode;

    #[test]
    fn a_seeded_race_ends_with_a_winner() {
        let mut g = toy_game(&toy_setup(3, DiceMode::Seeded));
        let mut steps = 0;
        while g.pending().is_some() {
            assert!(g.choose("roll:1").is_ok());
            steps += 1;
            assert!(steps < 200, "the race does not end");
        }
        let winner = g.state().winner.clone().unwrap_or_default();
        assert!(winner == "union" || winner == "confederate");
        assert!(g.state().scores.iter().any(|&s| s >= 15));
    }

    #[test]
    fn two_dice_cost_one_point() {
        let mut g = toy_game(&toy_setup(1, DiceMode::Manual));
        assert!(g.choose("roll:2").is_ok());
        assert!(g.choose("die:1").is_ok());
        assert!(g.choose("die:1").is_ok());
        assert_eq!(g.state().scores, [1, 0]);
        let roll = g.log().iter().rev().find_map(|e| e.roll.clone()).expect("a roll is logged");
        assert_eq!(roll.dice, vec![1, 1]);
        assert_eq!(roll.total, 1);
        assert_eq!(roll.modifiers[0].rule, "Race 3");
    }

    #[test]
    fn passing_forever_ends_in_a_draw_after_the_last_turn() {
        let mut g = toy_game(&toy_setup(1, DiceMode::Seeded));
        while g.pending().is_some() {
            assert!(g.choose("pass").is_ok());
        }
        assert_eq!(g.state().winner.as_deref(), Some("draw"));
        assert_eq!(g.state().turn, 30);
        assert_eq!(g.actions().len(), 60);
    }
}
