//! Blind Swords Series Rules v1.2 (chit-pull, tactical: 150-yard hexes, regiments) with the
//! exclusive rules of Grand Havoc: Perryville merged in at their sections (an exclusive rule wins
//! where the two differ). Tables are data (`data/blind-swords/`, `data/perryville/`), loaded and
//! validated at start-up; procedures are code, in modules named after the rulebook.

pub mod catalog;
pub mod charts;
pub mod chits;
pub mod close;
pub mod close_step;
pub mod cohesion;
pub mod combat_step;
pub mod defensive;
pub mod events;
pub mod fire;
pub mod ground;
pub mod los;
pub mod map;
pub mod movement;
pub mod rally;
pub mod rally_step;
pub mod registry;
pub mod retreat_step;
pub mod rules;
pub mod scenario;
pub mod sequence;
pub mod setup;
pub mod solo;
pub mod special;
pub mod state;
pub mod victory;
pub mod view;
pub mod withdraw;

pub use rules::BlindSwords;
