//! The one decision protocol every front end drives: a pending decision with labelled options,
//! or a pending die roll, or the end of the game.

use serde::{Deserialize, Serialize};

/// One legal option of a decision: a stable id to send back and a label for people.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    /// Stable id, e.g. `march:cox` or `move:1221`.
    pub id: String,
    /// Human label, e.g. `Cox marches (FL 0 → 1)`.
    pub label: String,
}

impl Choice {
    /// A choice from id and label.
    #[must_use]
    pub fn new(id: impl Into<String>, label: impl Into<String>) -> Choice {
        Choice { id: id.into(), label: label.into() }
    }
}

/// A decision waiting for a player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// Who decides (a side id such as `union`).
    pub side: String,
    /// What kind of decision (`initiative`, `action`, `move`, `roll`...), for front ends.
    pub kind: String,
    /// What is asked, in words.
    pub prompt: String,
    /// The legal options; never empty.
    pub options: Vec<Choice>,
}

/// A modifier applied to a die roll, with its reason and rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    /// Why it applies.
    pub label: String,
    /// Its value.
    pub value: i32,
    /// Rule section, e.g. `GCACW 5.1`.
    pub rule: String,
}

impl Modifier {
    /// A modifier.
    #[must_use]
    pub fn new(label: impl Into<String>, value: i32, rule: impl Into<String>) -> Modifier {
        Modifier { label: label.into(), value, rule: rule.into() }
    }
}

/// A die roll the rules need before they can go on. The modifiers known before the roll are
/// listed, so a player sees them before the dice fall.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollRequest {
    /// Who rolls.
    pub side: String,
    /// What the roll is for, e.g. `Movement Allowance for Cox`.
    pub purpose: String,
    /// Rule section.
    pub rule: String,
    /// Number of six-sided dice.
    pub dice: u8,
    /// Modifiers that will be applied.
    pub modifiers: Vec<Modifier>,
}

/// What the game waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// A player's decision.
    Decide(Decision),
    /// A die roll.
    Roll(RollRequest),
    /// Nothing: the game is over.
    Over,
}

/// A record of one die roll, kept in the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollRecord {
    /// What it was for.
    pub purpose: String,
    /// Rule section.
    pub rule: String,
    /// The raw dice.
    pub dice: Vec<u8>,
    /// Modifiers applied.
    pub modifiers: Vec<Modifier>,
    /// Raw sum plus modifiers.
    pub total: i32,
    /// What the roll did, in words.
    pub result: String,
}

impl RollRecord {
    /// A record whose total is the dice plus the modifiers.
    #[must_use]
    pub fn new(req: &RollRequest, dice: &[u8], result: impl Into<String>) -> RollRecord {
        let total =
            dice.iter().map(|&d| i32::from(d)).sum::<i32>() + req.modifiers.iter().map(|m| m.value).sum::<i32>();
        RollRecord {
            purpose: req.purpose.clone(),
            rule: req.rule.clone(),
            dice: dice.to_vec(),
            modifiers: req.modifiers.clone(),
            total,
            result: result.into(),
        }
    }
}

/// One line of the game log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    /// Game turn.
    pub turn: u16,
    /// What happened.
    pub text: String,
    /// Rule section, when one explains it.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub rule: Option<String>,
    /// The die roll, when the entry records one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub roll: Option<RollRecord>,
}

/// Why the rules refused a choice. The state is left as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// The option is not among the pending decision's options.
    #[error("`{0}` is not one of the options now; ask `pending` for the legal ones")]
    NotAnOption(String),
    /// A die value outside 1..=6, or the wrong number of dice.
    #[error("bad die roll: {0}")]
    BadRoll(String),
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Nothing is pending of that kind.
    #[error("{0}")]
    Unexpected(String),
}

/// A rule system: how to read a state's pending decision and how a choice or roll changes it.
///
/// Architecture invariant: `pending` is the only place that says what is legal; `choose` may
/// assume the id came from `pending`'s options (the kernel checks that) and only interprets it.
pub trait Rules {
    /// The whole changeable game state; the rules' static data (map, charts) stays in `self`.
    type State: Clone + Serialize;

    /// What the game waits for.
    fn pending(&self, state: &Self::State) -> Pending;

    /// Applies an option of the pending decision.
    ///
    /// # Errors
    /// The id cannot be interpreted; the state must then be unchanged.
    fn choose(&self, state: &mut Self::State, option: &str) -> Result<(), RuleError>;

    /// Applies the dice of the pending roll request.
    ///
    /// # Errors
    /// Nothing waits for a roll; the state must then be unchanged.
    fn roll(&self, state: &mut Self::State, dice: &[u8]) -> Result<(), RuleError>;

    /// What `side` may see of the state (`None`: an observer, or both sides at one table).
    fn view(&self, state: &Self::State, side: Option<&str>) -> serde_json::Value;

    /// The log so far.
    fn log<'s>(&self, state: &'s Self::State) -> &'s [LogEntry];

    /// Checks the invariants the rules promise of every state they reach (for fuzzers and
    /// property tests; the kernel never calls it in play).
    ///
    /// # Errors
    /// A broken invariant, described in words.
    fn check(&self, state: &Self::State) -> Result<(), String>;
}
