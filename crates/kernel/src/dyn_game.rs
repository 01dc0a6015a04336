//! An object-safe face of [`Game`], so one front end (terminal, engine, server) can hold a game of
//! any rule system.

use crate::game::{Game, GameError, Save, Setup};
use crate::protocol::{Decision, LogEntry, Rules};

/// A game of any rule system.
pub trait DynGame: Send {
    /// Scenario, seed, dice mode, options.
    fn setup(&self) -> &Setup;
    /// The pending decision, or `None` when the game is over.
    fn pending(&self) -> Option<Decision>;
    /// Applies an option of the pending decision.
    ///
    /// # Errors
    /// The option is not legal now; nothing changes.
    fn choose(&mut self, option: &str) -> Result<(), GameError>;
    /// Takes back the last choice, where allowed.
    ///
    /// # Errors
    /// Nothing may be undone.
    fn undo(&mut self) -> Result<(), GameError>;
    /// Whether undo is possible.
    fn can_undo(&self) -> bool;
    /// The whole state as JSON.
    fn state_json(&self) -> serde_json::Value;
    /// SHA-256 of the state.
    fn state_hash(&self) -> String;
    /// What a side may see (`None`: both sides at one table).
    fn view(&self, side: Option<&str>) -> serde_json::Value;
    /// The log.
    fn log(&self) -> &[LogEntry];
    /// A plain-text status screen (turn, phase, roster) for terminals.
    fn summary(&self) -> String;
    /// Choices made so far.
    fn actions(&self) -> &[String];
    /// A save of the game.
    fn save(&self) -> Save;
    /// Checks the pending decision and the rules' invariants ([`Game::check`]).
    ///
    /// # Errors
    /// The first broken invariant, in words.
    fn check(&self) -> Result<(), String>;
    /// The game itself, for a front end that knows its rule system (a computer player that
    /// searches a `Game<R>` of its own rules downcasts it).
    fn as_any(&self) -> &dyn std::any::Any;
}

/// Rules that can also describe a state in plain text for terminals.
pub trait Describe: Rules {
    /// A plain-text status screen.
    fn summary(&self, state: &Self::State) -> String;
}

impl<R> DynGame for Game<R>
where
    R: Describe + Clone + Send + 'static,
    R::State: Send,
{
    fn setup(&self) -> &Setup {
        Game::setup(self)
    }
    fn pending(&self) -> Option<Decision> {
        Game::pending(self)
    }
    fn choose(&mut self, option: &str) -> Result<(), GameError> {
        Game::choose(self, option)
    }
    fn undo(&mut self) -> Result<(), GameError> {
        Game::undo(self)
    }
    fn can_undo(&self) -> bool {
        Game::can_undo(self)
    }
    fn state_json(&self) -> serde_json::Value {
        serde_json::to_value(self.state()).unwrap_or(serde_json::Value::Null)
    }
    fn state_hash(&self) -> String {
        Game::state_hash(self)
    }
    fn view(&self, side: Option<&str>) -> serde_json::Value {
        self.rules().view(self.state(), side)
    }
    fn log(&self) -> &[LogEntry] {
        Game::log(self)
    }
    fn summary(&self) -> String {
        self.rules().summary(self.state())
    }
    fn actions(&self) -> &[String] {
        Game::actions(self)
    }
    fn save(&self) -> Save {
        Game::save(self)
    }
    fn check(&self) -> Result<(), String> {
        Game::check(self)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Picks a uniformly random option, for random players and fuzzing.
pub fn random_choice<'d>(decision: &'d Decision, dice: &mut crate::Dice) -> &'d str {
    let i = dice.below(decision.options.len());
    decision.options.get(i).map_or("", |c| c.id.as_str())
}
