//! What an Advanced Game remembers from turn to turn and several procedures read: the Army
//! Initiative level (HSN-A 3.0), winter weather (4.0), the Lyon's Kentucky Raid event (2.2),
//! reinforcement sets owed by a random event (2.2, 12.0), when each reinforcement arrived
//! (Sc 9 note on Union cavalry; 5.0), and the units that have left the map (14.0).
//!
//! Each procedure owns its own fields; this struct only holds the facts that cross modules.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

/// Which side wins tied initiative rolls (HSN-A 3.0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ArmyInitiative {
    /// The Confederate player wins every tie.
    #[default]
    Confederate,
    /// The Union player wins ties of 1, 2 or 3; the Confederate player ties of 4, 5 or 6.
    Neutral,
    /// The Union player wins every tie.
    Union,
}

/// Winter weather once it has started (HSN-A 4.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Winter {
    /// The turn of the Winter Weather Start marker.
    pub start: u16,
    /// The turn of the Last Turn of Winter marker (moved by random events).
    pub last: u16,
}

/// Facts of an Advanced Game shared between procedures.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Campaign {
    /// Army Initiative (HSN-A 3.0).
    pub army_initiative: ArmyInitiative,
    /// Winter weather, once started (HSN-A 4.0).
    pub winter: Option<Winter>,
    /// Whether Lyon's Kentucky Raid has happened (HSN-A 2.2).
    pub lyon_raid: bool,
    /// Union reinforcement sets due from Accelerated Union Reinforcements events, still to be
    /// placed (HSN-A 2.2, 12.0).
    pub accelerated_sets: u8,
    /// Unit → the turn it entered the map as a reinforcement (HSN Sc 9 note: Union cavalry
    /// arriving after Turn 10 keeps its horses).
    pub reinforced_on: BTreeMap<usize, u16>,
    /// Units that have left the map by an exit hex (HSN-A 14.0): out of the game, not lost.
    pub exited: BTreeSet<usize>,
    /// Substitutes on the map, Artillery markers and units attached to others (HSN-A 7.0–7.3),
    /// kept by [`crate::substitute`].
    pub substitutes: crate::substitute::Substitutes,
    /// Union cavalry units temporarily off the map for remounts (HSN-A 5.1 C–E): no hex, not
    /// eliminated, still in play (they recover, and leaders may ride with them).
    pub off_map: BTreeSet<usize>,
}

impl Campaign {
    /// Whether winter weather is in effect on `turn`: from its start until the turn passes the
    /// Last Turn of Winter marker (HSN-A 4.0).
    #[must_use]
    pub fn winter_on(&self, turn: u16) -> bool {
        self.winter.is_some_and(|w| (w.start..=w.last).contains(&turn))
    }
}
