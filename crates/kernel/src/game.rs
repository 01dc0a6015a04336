//! A game in play: rules, state, dice and the list of choices that made it.
//!
//! A game is its scenario, seed, dice mode and choices; the state is derived by replaying them.
//! Saves hold exactly that, with a hash chain over the choices and the hash of the final state.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::dice::Dice;
use crate::protocol::{Choice, Decision, LogEntry, Pending, RollRequest, RuleError, Rules};

/// How dice are rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiceMode {
    /// The engine rolls with its seeded generator.
    Seeded,
    /// Every roll is a decision: the player rolls real dice and enters each die.
    Manual,
}

impl std::str::FromStr for DiceMode {
    type Err = String;
    fn from_str(s: &str) -> Result<DiceMode, String> {
        match s {
            "seeded" => Ok(DiceMode::Seeded),
            "manual" => Ok(DiceMode::Manual),
            other => Err(format!("dice mode `{other}`: expected `seeded` or `manual`")),
        }
    }
}

/// What identifies a game apart from its choices: enough to rebuild the starting state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Rule system id, e.g. `gcacw`.
    pub system: String,
    /// Scenario id, e.g. `hsn-1`.
    pub scenario: String,
    /// Dice seed.
    pub seed: u64,
    /// Dice mode.
    pub dice: DiceMode,
    /// Game options (optional rules) as `name=value` strings, sorted.
    #[serde(default)]
    pub options: Vec<String>,
}

/// The id prefix of the options of a manual die-roll decision (`die:4`).
pub const DIE_PREFIX: &str = "die:";

/// A game in play.
#[derive(Clone)]
pub struct Game<R: Rules> {
    rules: R,
    setup: Setup,
    start: R::State,
    state: R::State,
    dice: Dice,
    actions: Vec<String>,
    chain: Vec<[u8; 32]>,
    manual_dice: Vec<u8>,
    /// Undo may not go back before this many actions (a die was rolled, or the side changed).
    undo_floor: usize,
    last_side: Option<String>,
    /// What the rules wait for in `state`, kept so that it is computed once per change.
    current: Pending,
}

/// Something went wrong applying a choice; the game is unchanged.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// The rules refused it.
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// Undo is not possible.
    #[error("nothing to undo: {0}")]
    Undo(&'static str),
}

impl<R: Rules> Game<R> {
    /// Starts a game from its starting state. In seeded mode, rolls due at once are made.
    pub fn new(rules: R, start: R::State, mut setup: Setup) -> Game<R> {
        setup.options.sort();
        let dice = Dice::new(setup.seed);
        let current = rules.pending(&start);
        let chain = vec![setup_hash(&setup)];
        let mut g = Game {
            rules,
            state: start.clone(),
            start,
            setup,
            dice,
            actions: Vec::new(),
            chain,
            manual_dice: Vec::new(),
            undo_floor: 0,
            last_side: None,
            current,
        };
        g.settle();
        g.last_side = g.pending_side();
        g
    }

    /// The rules.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// The current state.
    pub fn state(&self) -> &R::State {
        &self.state
    }

    /// The setup (scenario, seed, dice mode, options).
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The choices made so far.
    pub fn actions(&self) -> &[String] {
        &self.actions
    }

    /// The log.
    pub fn log(&self) -> &[LogEntry] {
        self.rules.log(&self.state)
    }

    /// The pending decision, or `None` when the game is over. In manual dice mode a roll is a
    /// decision for the rolling side, one die at a time.
    pub fn pending(&self) -> Option<Decision> {
        match &self.current {
            Pending::Decide(d) => Some(d.clone()),
            Pending::Roll(req) => Some(self.manual_roll_decision(req)),
            Pending::Over => None,
        }
    }

    fn pending_side(&self) -> Option<String> {
        self.pending().map(|d| d.side)
    }

    fn manual_roll_decision(&self, req: &RollRequest) -> Decision {
        let which =
            if req.dice > 1 { format!(" (die {} of {})", self.manual_dice.len() + 1, req.dice) } else { String::new() };
        let mods: Vec<String> =
            req.modifiers.iter().map(|m| format!("{:+} {} [{}]", m.value, m.label, m.rule)).collect();
        let mods = if mods.is_empty() { String::new() } else { format!("; modifiers: {}", mods.join(", ")) };
        Decision {
            side: req.side.clone(),
            kind: "roll".to_string(),
            prompt: format!("Roll for {} [{}]{which}{mods}", req.purpose, req.rule),
            options: (1..=6).map(|d| Choice::new(format!("{DIE_PREFIX}{d}"), format!("rolled {d}"))).collect(),
        }
    }

    /// Applies one option of the pending decision. An option not offered is an error and the
    /// game is unchanged.
    ///
    /// # Errors
    /// The option is not legal now, or the game is over.
    pub fn choose(&mut self, option: &str) -> Result<(), GameError> {
        let decision = self.pending().ok_or(RuleError::GameOver)?;
        if !decision.options.iter().any(|c| c.id == option) {
            return Err(RuleError::NotAnOption(option.to_string()).into());
        }
        match self.current.clone() {
            Pending::Roll(req) => {
                let die = option
                    .strip_prefix(DIE_PREFIX)
                    .and_then(|d| d.parse::<u8>().ok())
                    .ok_or_else(|| RuleError::BadRoll(option.to_string()))?;
                self.manual_dice.push(die);
                if self.manual_dice.len() == usize::from(req.dice) {
                    let dice = std::mem::take(&mut self.manual_dice);
                    if let Err(e) = self.rules.roll(&mut self.state, &dice) {
                        self.manual_dice = dice;
                        self.manual_dice.pop();
                        return Err(e.into());
                    }
                    self.current = self.rules.pending(&self.state);
                }
                self.record(option);
                self.undo_floor = self.actions.len();
            }
            Pending::Decide(_) => {
                // `Rules::choose` leaves the state as it was when it refuses, so no copy is made.
                self.rules.choose(&mut self.state, option)?;
                self.current = self.rules.pending(&self.state);
                self.record(option);
            }
            Pending::Over => return Err(RuleError::GameOver.into()),
        }
        let rolled = self.settle();
        let side = self.pending_side();
        if rolled || side != self.last_side {
            self.undo_floor = self.actions.len();
        }
        self.last_side = side;
        Ok(())
    }

    fn record(&mut self, option: &str) {
        let prev = self.chain.last().copied().unwrap_or_default();
        self.chain.push(link(&prev, option));
        self.actions.push(option.to_string());
    }

    /// In seeded mode, makes every roll the rules wait for. Returns whether any was made.
    fn settle(&mut self) -> bool {
        let mut rolled = false;
        if self.setup.dice != DiceMode::Seeded {
            return false;
        }
        while let Pending::Roll(req) = &self.current {
            let dice = self.dice.roll(req.dice);
            if self.rules.roll(&mut self.state, &dice).is_err() {
                break;
            }
            self.current = self.rules.pending(&self.state);
            rolled = true;
        }
        rolled
    }

    /// Whether [`Game::undo`] would do anything.
    pub fn can_undo(&self) -> bool {
        self.actions.len() > self.undo_floor
    }

    /// Takes back the last choice by replaying all the others. Never past a die roll or a change
    /// of deciding side, so undo cannot re-roll dice or take back what the opponent has seen.
    ///
    /// # Errors
    /// Nothing may be undone.
    pub fn undo(&mut self) -> Result<(), GameError>
    where
        R: Clone,
    {
        if !self.can_undo() {
            return Err(GameError::Undo("the last choice was followed by a die roll or a change of player"));
        }
        let keep = self.actions[..self.actions.len() - 1].to_vec();
        let floor = self.undo_floor;
        let mut g = Game::new(self.rules.clone(), self.start.clone(), self.setup.clone());
        for a in &keep {
            g.choose(a)?;
        }
        g.undo_floor = floor.min(g.actions.len());
        *self = g;
        Ok(())
    }

    /// Checks the protocol's promises about the pending decision (at least one option, no id
    /// offered twice, no empty id) and then the rules' own invariants ([`Rules::check`]).
    ///
    /// # Errors
    /// The first broken promise, in words.
    pub fn check(&self) -> Result<(), String> {
        if let Some(d) = self.pending() {
            if d.options.is_empty() {
                return Err(format!("a decision with no options ({}: {})", d.kind, d.prompt));
            }
            let mut ids: Vec<&str> = d.options.iter().map(|c| c.id.as_str()).collect();
            ids.sort_unstable();
            if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
                return Err(format!("option `{}` offered twice ({}: {})", w[0], d.kind, d.prompt));
            }
            if ids.first() == Some(&"") {
                return Err(format!("an option with an empty id ({}: {})", d.kind, d.prompt));
            }
        }
        self.rules.check(&self.state)
    }

    /// Hash of the current state (SHA-256 of its JSON), hex.
    pub fn state_hash(&self) -> String {
        hex(&Sha256::digest(serde_json::to_vec(&self.state).unwrap_or_default()).into())
    }

    /// A save: setup, choices with their chain links, and the final state hash.
    pub fn save(&self) -> Save {
        Save {
            format: SAVE_FORMAT.to_string(),
            version: SAVE_VERSION,
            setup: self.setup.clone(),
            setup_hash: hex(&setup_hash(&self.setup)),
            actions: self
                .actions
                .iter()
                .zip(self.chain.iter().skip(1))
                .map(|(a, h)| SavedAction { choice: a.clone(), chain: hex(h) })
                .collect(),
            state_hash: self.state_hash(),
        }
    }

    /// Rebuilds a game from a save: checks the format, the hash chain, every choice's legality and
    /// the final state hash. `rules` and `start` must come from the save's setup.
    ///
    /// # Errors
    /// Any check fails; the message says which.
    pub fn load(rules: R, start: R::State, save: &Save) -> Result<Game<R>, SaveError> {
        if save.format != SAVE_FORMAT {
            return Err(SaveError::Format(save.format.clone()));
        }
        if save.version != SAVE_VERSION {
            return Err(SaveError::Version(save.version));
        }
        let mut prev = setup_hash(&save.setup);
        if hex(&prev) != save.setup_hash {
            return Err(SaveError::SetupHash);
        }
        for (i, a) in save.actions.iter().enumerate() {
            let h = link(&prev, &a.choice);
            if hex(&h) != a.chain {
                return Err(SaveError::Chain(i + 1));
            }
            prev = h;
        }
        let mut g = Game::new(rules, start, save.setup.clone());
        for (i, a) in save.actions.iter().enumerate() {
            g.choose(&a.choice).map_err(|e| SaveError::Replay(i + 1, e.to_string()))?;
        }
        if g.state_hash() != save.state_hash {
            return Err(SaveError::StateHash);
        }
        Ok(g)
    }
}

/// Save file format name.
pub const SAVE_FORMAT: &str = "caisson-save";
/// Save file version.
pub const SAVE_VERSION: u32 = 1;

/// A saved game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Save {
    /// Always `caisson-save`.
    pub format: String,
    /// Format version.
    pub version: u32,
    /// Scenario, seed, dice mode, options.
    pub setup: Setup,
    /// SHA-256 of the setup's JSON, hex: the first link of the chain.
    pub setup_hash: String,
    /// Every choice, with its chain hash.
    pub actions: Vec<SavedAction>,
    /// Hash of the state after the last choice.
    pub state_hash: String,
}

/// One choice in a save.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedAction {
    /// The option id.
    pub choice: String,
    /// SHA-256 of the previous link and this choice, hex.
    pub chain: String,
}

/// Why a save was refused.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// Not JSON, or not a save.
    #[error("not a Caisson save: {0}")]
    Parse(String),
    /// Wrong format name.
    #[error("not a Caisson save (format `{0}`)")]
    Format(String),
    /// A version this program cannot read.
    #[error("save version {0} is not supported (this program reads version {SAVE_VERSION})")]
    Version(u32),
    /// The setup does not match its hash.
    #[error(
        "the save has been altered or corrupted: its setup (scenario, seed, dice, options) does not match its hash"
    )]
    SetupHash,
    /// The hash chain breaks.
    #[error("the save has been altered or corrupted: the hash chain breaks at choice {0}")]
    Chain(usize),
    /// A choice was not legal on replay.
    #[error("the save does not replay: choice {0} is refused ({1})")]
    Replay(usize, String),
    /// The final state differs.
    #[error("the save has been altered or corrupted: the replayed state does not match its hash")]
    StateHash,
    /// The setup names something unknown.
    #[error("{0}")]
    Setup(String),
}

impl Save {
    /// Parses a save from JSON.
    ///
    /// # Errors
    /// Not JSON, or not shaped like a save.
    pub fn from_json(text: &str) -> Result<Save, SaveError> {
        serde_json::from_str(text).map_err(|e| SaveError::Parse(e.to_string()))
    }

    /// The save as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

fn setup_hash(setup: &Setup) -> [u8; 32] {
    Sha256::digest(serde_json::to_vec(setup).unwrap_or_default()).into()
}

fn link(prev: &[u8; 32], choice: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(prev);
    h.update(choice.as_bytes());
    h.finalize().into()
}

fn hex(bytes: &[u8; 32]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
