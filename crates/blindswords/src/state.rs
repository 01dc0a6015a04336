//! [SR 4.0] The changeable state of a Blind Swords game: the turn, where in the sequence of play
//! the game waits ([`Stage`]), the units, each brigade's order and activation status, On Hold,
//! the chits (cup, held, key, played, set aside), the Buell Alert Track, the Broken Track,
//! victory points, control and the log.

use caisson_hexmap::Hex;
use caisson_kernel::LogEntry;
use serde::Serialize;

use crate::catalog::{Side, UnitType};
use crate::charts::Order;

/// A side as an index into per-side arrays: Union 0, Confederate 1.
#[must_use]
pub const fn ix(side: Side) -> usize {
    match side {
        Side::Union => 0,
        Side::Confederate => 1,
    }
}

/// The other side.
#[must_use]
pub const fn other(side: Side) -> Side {
    match side {
        Side::Union => Side::Confederate,
        Side::Confederate => Side::Union,
    }
}

/// The side id used in decisions (`union`, `confederate`).
#[must_use]
pub const fn side_id(side: Side) -> &'static str {
    match side {
        Side::Union => "union",
        Side::Confederate => "confederate",
    }
}

/// Where a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "hex")]
pub enum Place {
    /// To be placed at set-up by its owner (a "within N hexes of" line).
    SetUp,
    /// On the map.
    Map(Hex),
    /// A reinforcement whose time has not come (the index of its scenario line).
    NotYet(usize),
    /// A reinforcement that may enter at its entry hexes during its activation (SR 10.11).
    Waiting(usize),
    /// On the Broken Track (SR 12.8): box 1-3, or 0 for the "Available" box.
    Broken(u8),
    /// Out of the game (SR 12.6, 12.8: artillery and Fragile units that break).
    Eliminated,
}

/// The scenario line a unit comes in by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "index")]
pub enum Line {
    /// A set-up line.
    Setup(usize),
    /// A reinforcement.
    Reinforcement(usize),
}

/// One unit in play (SR 2.1).
#[derive(Clone, Debug, Serialize)]
pub struct UnitState {
    /// Catalog id.
    pub id: String,
    /// Printed name.
    pub name: String,
    /// Side.
    pub side: Side,
    /// Type.
    pub ty: UnitType,
    /// The scenario line that brings it in: a set-up line, or a reinforcement.
    pub line: Line,
    /// Brigade, if any.
    pub brigade: Option<String>,
    /// Division, if any.
    pub division: Option<String>,
    /// Where it is.
    pub place: Place,
    /// Battleworn side up (SR 2.1).
    pub battleworn: bool,
    /// Printed SP of the face up, in halves.
    pub sp_halves: u8,
    /// Printed CR of the face up.
    pub cr: u8,
    /// Morale Hit markers (SR 12.2).
    pub morale_hits: u8,
    /// In Skirmish Order (EX 15.0).
    pub skirmish: bool,
    /// Shaken (SR 12.5).
    pub shaken: bool,
    /// On Hold outside a brigade (EX 7.5: Sheridan's artillery).
    pub on_hold: bool,
    /// Moved or acted in this Artillery Phase (SR 6.1).
    pub acted: bool,
}

/// One brigade in the scenario (SR 8; EX 2.3, 7.5).
#[derive(Clone, Debug, Serialize)]
pub struct BrigadeState {
    /// Catalog id.
    pub id: String,
    /// Side.
    pub side: Side,
    /// On Hold (EX 7.5).
    pub on_hold: bool,
    /// Activated this turn (SR 14.3).
    pub activated: bool,
    /// Its current order (SR 8.1), if it has had a Full Activation this turn.
    pub order: Option<Order>,
}

/// The chits of the game, each in exactly one place (SR 5.0, 7.4).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Chits {
    /// In the cup, sorted by id.
    pub cup: Vec<String>,
    /// Held by each side, Union first.
    pub held: [Vec<String>; 2],
    /// Each side's Key Chit this turn (also in the cup until drawn).
    pub key: [Option<String>; 2],
    /// Drawn and discarded this turn (SR 7.4).
    pub played: Vec<String>,
    /// Out of the cup this turn: excluded events, activation chits not eligible, set aside.
    pub out: Vec<String>,
    /// A. McCook's chit placed on the Buell Marker (EX 7.3c).
    pub on_buell: Option<String>,
    /// Activation chits that have come into play (the scenario's, then reinforcements').
    pub in_play: Vec<String>,
    /// Chits whose leader is a casualty (EX 7.3b): their Casualty version is the one in play.
    pub casualties: Vec<String>,
    /// Fortunes of War negates the next chit drawn (SR 7.3a).
    pub fortunes: bool,
}

/// How a brigade or unit was activated, for what follows the activation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Activator {
    /// A Division or Brigade Activation chit.
    Chit {
        /// The chit.
        chit: String,
    },
    /// A CIC chit or Buell Commands: the brigade's marker is not changed by a second activation.
    Command,
    /// A release by the Buell Track (EX 14.2b).
    Release,
}

/// What a movement serves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum MoveFor {
    /// An Artillery Step (SR 6.1).
    Artillery {
        /// Whose step.
        side: Side,
    },
    /// A brigade's Movement Step (SR 10).
    Brigade {
        /// The brigade.
        brigade: String,
        /// Its order.
        order: Order,
        /// How it was activated.
        by: Activator,
    },
}

/// A unit moving, hex by hex (SR 10.2).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Moving {
    /// Index into [`State::units`].
    pub unit: usize,
    /// Movement points left.
    pub mp: f64,
    /// Hexes entered so far.
    pub steps: u16,
}

/// Where the game waits, with any procedure in progress.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "stage")]
pub enum Stage {
    /// A unit set up "within N hexes of" a hex: its owner picks the hex (EX 16.0; ruling PO11).
    Place {
        /// Index into [`State::units`].
        unit: usize,
    },
    /// Start of a turn: releases, arrivals (automatic).
    TurnStart,
    /// The Command Decision Phase begins (automatic, SR 5.0).
    Command,
    /// Command Decision Phase: a side picks its Key Chit (SR 5.1, EX 5.1).
    KeyChit {
        /// Who picks.
        side: Side,
    },
    /// Command Decision Phase: random events drawn face down into the cup (SR 5.2, EX 5.2).
    RandomEvents {
        /// Whose events.
        side: Side,
        /// How many still to draw.
        left: u8,
    },
    /// Artillery Phase: a side's Artillery Step (SR 6.1-6.3).
    Artillery {
        /// Whose step.
        side: Side,
        /// Passes in succession so far.
        passes: u8,
    },
    /// Artillery fire: the target's owner picks the Lead Unit among ties (SR 9.2).
    FireLead {
        /// The firing battery.
        firer: usize,
        /// The target hex.
        target: Hex,
    },
    /// Artillery fire: the d66 on the CRT (SR 9.3a).
    FireRoll {
        /// The firing battery.
        firer: usize,
        /// The target hex.
        target: Hex,
        /// The Lead Unit, an index into the target hex's units in state order.
        lead: usize,
    },
    /// The Fire Combat Cohesion Test the CRT called for, with its Break Test dice (SR 12.1, 12.6).
    FireTest {
        /// The firing battery.
        firer: usize,
        /// The target hex.
        target: Hex,
        /// The Lead Unit, an index into the target hex's units in state order.
        lead: usize,
        /// The CRT column fired on.
        column: usize,
        /// The d66 rolled (its value, 11-66).
        roll: u8,
        /// The owner's pick of the second unit of a "D2" (same indexing as `lead`).
        second: Option<usize>,
        /// The test's two dice, then the Break Test dice, as rolled.
        dice: Vec<u8>,
    },
    /// Chit Draw Phase: the next chit is drawn (SR 7.3).
    Draw,
    /// Fog of War: the non-pulling player rolls (SR 7.3b).
    Fog,
    /// Battlefield Chaos: the player opposing `affected` picks a hex of `affected`'s units.
    Chaos {
        /// The affected side.
        affected: Side,
    },
    /// Wayward Move: the player opposing `affected` moves one of its units one hex.
    Wayward {
        /// The affected side.
        affected: Side,
    },
    /// Possible General Casualty: the d66 roll (EX 7.3b).
    Casualty,
    /// A DAC was drawn: its owner picks a brigade of the division (SR 7.3; ruling A-01).
    PickBrigade {
        /// The chit.
        chit: String,
        /// Negated by Fortunes of War (SR 7.3a): the brigade is marked and does nothing.
        negated: bool,
    },
    /// The activation roll of a brigade (ruling A-01).
    ActivationRoll {
        /// The chit.
        chit: String,
        /// The brigade.
        brigade: String,
    },
    /// Solo variant: the Command Confusion roll sets the bot brigade's order (EX 16.0d).
    SoloOrders {
        /// The chit.
        chit: String,
        /// The brigade.
        brigade: String,
    },
    /// A. McCook's chit was drawn: the Union player uses it (EX 7.3c).
    Mccook,
    /// Buell Commands (EX 16.4e): the Union player fully activates any brigade.
    BuellCommands,
    /// The Orders Step of a fully activated brigade (SR 8.1).
    Orders {
        /// The brigade.
        brigade: String,
        /// How it was activated.
        by: Activator,
    },
    /// Movement: pick the next unit, or end (SR 10).
    Move {
        /// What the movement serves.
        for_: MoveFor,
        /// Units that have moved.
        moved: Vec<usize>,
        /// The unit moving now.
        current: Option<Moving>,
    },
    /// End Turn: the Union Buell roll (EX 14.2a).
    BuellRoll,
    /// End Turn: the Union player picks brigades to release (EX 14.2b).
    Release {
        /// How many still to pick.
        left: u8,
        /// Corps whose brigades may be picked.
        corps: Vec<String>,
    },
    /// End Turn: released brigades take their Maneuver activations (EX 14.2b).
    ReleaseManeuvers,
    /// The game is over.
    Over,
}

/// The whole changeable state.
#[derive(Clone, Debug, Serialize)]
pub struct State {
    /// Scenario id.
    pub scenario: String,
    /// Game turn, from 1.
    pub turn: u16,
    /// Where the game waits.
    pub stage: Stage,
    /// Units, in scenario order.
    pub units: Vec<UnitState>,
    /// Brigades of the scenario.
    pub brigades: Vec<BrigadeState>,
    /// Chits.
    pub chits: Chits,
    /// Units still to place at set-up or arrival, in order.
    pub to_place: Vec<usize>,
    /// Released brigades still owed their Maneuver activation (EX 14.2b).
    pub maneuvers: Vec<String>,
    /// Buell Alert Track box index, if the scenario uses the track (EX 2.12).
    pub buell_box: Option<usize>,
    /// "Courier Finds Buell" this turn (EX 7.3b, 14.2a).
    pub courier: bool,
    /// The Battlefield Chaos hex this turn (EX 7.3b).
    pub chaos: Option<Hex>,
    /// The Broken Track, boxes 1-3, by unit index (SR 12.8).
    pub broken: [Vec<usize>; 3],
    /// Victory points by side, Union first (SR 14.2).
    pub vp: [u32; 2],
    /// Control of the victory hexes: the side that last occupied each.
    pub control: Vec<(Hex, Side)>,
    /// The log.
    pub log: Vec<LogEntry>,
}

impl State {
    /// The brigade with this id.
    #[must_use]
    pub fn brigade(&self, id: &str) -> Option<&BrigadeState> {
        self.brigades.iter().find(|b| b.id == id)
    }

    /// The brigade with this id, to change.
    pub fn brigade_mut(&mut self, id: &str) -> Option<&mut BrigadeState> {
        self.brigades.iter_mut().find(|b| b.id == id)
    }

    /// The unit with this catalog id.
    #[must_use]
    pub fn unit_index(&self, id: &str) -> Option<usize> {
        self.units.iter().position(|u| u.id == id)
    }

    /// Where a unit is on the map.
    #[must_use]
    pub fn hex_of(&self, unit: usize) -> Option<Hex> {
        match self.units.get(unit)?.place {
            Place::Map(h) => Some(h),
            _ => None,
        }
    }

    /// The units in a hex.
    pub fn units_at(&self, hex: Hex) -> impl Iterator<Item = usize> + '_ {
        self.units.iter().enumerate().filter(move |(_, u)| u.place == Place::Map(hex)).map(|(i, _)| i)
    }

    /// Which side occupies a hex, if any.
    #[must_use]
    pub fn occupant(&self, hex: Hex) -> Option<Side> {
        self.units_at(hex).next().map(|i| self.units[i].side)
    }

    /// Adds a log line.
    pub fn note(&mut self, text: impl Into<String>, rule: &str) {
        self.log.push(LogEntry {
            turn: self.turn,
            text: text.into(),
            rule: (!rule.is_empty()).then(|| rule.to_string()),
            roll: None,
        });
    }

    /// The controller of a victory hex.
    #[must_use]
    pub fn controller(&self, hex: Hex) -> Option<Side> {
        self.control.iter().find(|(h, _)| *h == hex).map(|c| c.1)
    }
}
