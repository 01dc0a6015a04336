//! The Caisson game kernel: the one decision protocol, seeded dice, the log, saves with a hash
//! chain, and replay. It knows no rule system: each series implements [`Rules`].
//!
//! Architecture invariant: the kernel never does I/O and never waits; front ends ask for the
//! pending decision and send back a choice.

#![warn(missing_docs)]

pub mod data;
pub mod dice;
pub mod dyn_game;
pub mod game;
pub mod protocol;
#[cfg(any(test, feature = "toy"))]
pub mod toy;

pub use dice::Dice;
pub use dyn_game::{random_choice, Describe, DynGame};
pub use game::{DiceMode, Game, GameError, Save, SaveError, Setup};
pub use protocol::{Choice, Decision, LogEntry, Modifier, Pending, RollRecord, RollRequest, RuleError, Rules};
