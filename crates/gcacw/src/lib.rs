//! Great Campaigns of the American Civil War: Standard Rules v1.4 with the Hood Strikes North
//! exclusive rules, as procedures over the Caisson kernel.
//!
//! Modules follow the rulebook: [`sequence`] (3.0, 4.0), [`actions`] (5.0, 5.4, 5.5), [`march`]
//! (5.1), [`activation`] (5.2), [`movement`] (6.1, 6.2), [`zoc`] (2.4), [`transfer`] (6.3).
//! Tables are data ([`charts`], [`catalog`], [`scenario`]); [`rules::Gcacw`] ties them together.

pub mod actions;
pub mod activation;
pub mod arrival;
pub mod assault;
pub mod battle;
pub mod blockhouse;
pub mod bridges;
pub mod campaign;
pub mod catalog;
pub mod cavalry;
pub mod charts;
pub mod combat;
pub mod consolidation;
pub mod data;
pub mod enhancement;
pub mod events;
pub mod exits;
pub mod invariants;
pub mod march;
pub mod mounts;
pub mod movement;
pub mod rail;
pub mod recovery;
pub mod registry;
pub mod reinforcement;
pub mod retreat;
pub mod rules;
pub mod scenario;
pub mod sequence;
pub mod side;
pub mod state;
pub mod substitute;
pub mod swamp;
pub mod transfer;
pub mod turn_track;
pub mod victory;
pub mod view;
pub mod vp_phase;
pub mod wagons;
pub mod winter;
pub mod zoc;

pub use rules::{Gcacw, Settings};
pub use side::Side;
