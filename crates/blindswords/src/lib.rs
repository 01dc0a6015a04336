//! Blind Swords Series Rules v1.2 (chit-pull, tactical: 150-yard hexes, regiments) with the
//! exclusive rules of Grand Havoc: Perryville merged in at their sections (an exclusive rule wins
//! where the two differ). Tables are data (`data/blind-swords/`, `data/perryville/`), loaded and
//! validated at start-up; procedures are code, in modules named after the rulebook.

pub mod catalog;
pub mod charts;
pub mod close;
pub mod cohesion;
pub mod fire;
pub mod los;
pub mod map;
pub mod rally;
pub mod scenario;
