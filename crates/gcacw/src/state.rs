//! The changeable state of a GCACW game: where every counter is, its fatigue, strength and
//! markers, the turn, and the step of the sequence of play the game waits in.

use std::collections::BTreeMap;

use caisson_hexmap::Hex;
use caisson_kernel::LogEntry;
use serde::Serialize;

use crate::charts::Half;
use crate::scenario::Entrenchment;
use crate::Side;

/// Index of a counter in the catalog.
pub type Id = u16;

/// A military unit in play (GCACW 2.2, 6.5, 11.0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unit {
    /// Catalog index.
    pub counter: Id,
    /// Where it is; `None` before it arrives or after elimination.
    pub hex: Option<Hex>,
    /// Manpower value.
    pub manpower: u8,
    /// Organized (front of the Strength marker) or disorganized.
    pub organized: bool,
    /// On its exhausted side.
    pub exhausted: bool,
    /// Fatigue level 0–4.
    pub fatigue: u8,
    /// Demoralization 0–2.
    pub demoralized: u8,
    /// Entrenchment marker.
    pub entrenchment: Option<Entrenchment>,
    /// Eliminated.
    pub eliminated: bool,
    /// Horses Worn Out/Unmounted marker of a Union cavalry unit (HSN-A 5.0; Sc 6/7 Biddle).
    pub mount: Mount,
}

/// A cavalry unit's Horses Worn Out/Unmounted marker (HSN-A 5.0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mount {
    /// No marker.
    #[default]
    Mounted,
    /// Horses Worn Out side: no effect but the Unmounted Segment roll (HSN-A 5.3, 5.5).
    WornOut,
    /// Unmounted side: infantry in all but the march roll (HSN-A 5.5).
    Unmounted,
    /// Remounted (HSN-A 5.2): the marker is gone and never comes back.
    Remounted,
}

impl Mount {
    /// Whether the unit carries the Horses Worn Out/Unmounted marker.
    #[must_use]
    pub fn marked(self) -> bool {
        matches!(self, Mount::WornOut | Mount::Unmounted)
    }

    /// The marker's words, if any.
    #[must_use]
    pub fn marker(self) -> Option<&'static str> {
        match self {
            Mount::WornOut => Some("Horses Worn Out"),
            Mount::Unmounted => Some("Unmounted"),
            Mount::Mounted | Mount::Remounted => None,
        }
    }
}

/// A leader in play: always attached to a unit (GCACW 2.1, 6.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Leader {
    /// Catalog index.
    pub counter: Id,
    /// Index into [`State::units`] of the unit carrying him; `None` off map or eliminated.
    pub with: Option<usize>,
}

/// Why Manpower was lost: scenario victory points count losses "in combat, retreat or cavalry
/// retreat" and not those of marching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LossCause {
    /// Extended march (GCACW 5.1).
    ExtendedMarch,
    /// Force march (GCACW 5.1).
    ForceMarch,
    /// Moving from an enemy ZOC to another off the roads (GCACW 6.2).
    ZocToZoc,
    /// A combat result (GCACW 7.5).
    Combat,
    /// A retreat or rout, surrender included (GCACW 7.6).
    Retreat,
    /// A cavalry retreat (GCACW 7.7).
    CavalryRetreat,
    /// Manpower over the maximum when units consolidate (HSN Sc 2); never scores.
    Consolidation,
    /// A unit caught in a provisional swamp by the rain with nowhere to go (GCACW 12.0).
    RainSwamp,
    /// The Manpower of a unit a scenario rule removes from the game with no loss (HSN Sc 6 and 7
    /// Movement Restrictions, Sc 8 Map Edge); never scores.
    RemovedFromPlay,
}

/// One Manpower loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Loss {
    /// Turn.
    pub turn: u16,
    /// Unit index.
    pub unit: usize,
    /// Manpower lost.
    pub amount: u8,
    /// Cause.
    pub cause: LossCause,
}

/// One Manpower gain (HSN-A 11.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Gain {
    /// Turn.
    pub turn: u16,
    /// Unit index.
    pub unit: usize,
    /// Manpower gained.
    pub amount: u8,
}

/// Burn RR Station markers (GCACW 5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StationMark {
    /// Damaged.
    Damaged,
    /// Destroyed.
    Destroyed,
}

/// What a unit selected in an Activate Leader action will do (GCACW 5.2, 1864 rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Intent {
    /// March.
    March,
    /// Entrench.
    Entrench,
}

/// An Activate Leader action in progress (GCACW 5.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Activation {
    /// The active leader (index into [`State::leaders`]).
    pub leader: usize,
    /// The Movement Allowance rolled for the whole activation.
    pub ma: Option<u8>,
    /// Units still to go, with what they will do.
    pub remaining: Vec<(usize, Intent)>,
    /// Whether the leader has used his transfer (step 5).
    pub transfer_done: bool,
    /// The first cavalry unit to march in it: under a cavalry division leader only that one may
    /// attack (GCACW 5.2).
    pub first_cavalry: Option<usize>,
}

/// The march of one unit (GCACW 5.1 steps 2–5, 6.1, 6.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct March {
    /// The marching unit.
    pub unit: usize,
    /// Movement Allowance before any force-march bonus.
    pub ma: u8,
    /// Movement points left.
    pub left: Half,
    /// Whether it has entered any hex yet (minimum move, GCACW 6.1).
    pub moved: bool,
    /// Whether it began the march in an enemy normal ZOC.
    pub started_in_zoc: bool,
    /// Whether a wagon has paid its one-time non-pike penalty (HSN-B 2.2).
    pub wagon_paid: bool,
    /// Whether it has entered an enemy ZOC (or advanced into one) and may only attack or stop
    /// (GCACW 6.2, 7.6).
    pub stopped: bool,
    /// Enemy cavalry hexes whose owner declined a cavalry retreat in this march (GCACW 7.7).
    pub declined: Vec<Hex>,
    /// Whether it has attacked a blockhouse in this march (HSN Sc 5: once per march).
    pub blockhouse_tried: bool,
    /// The hexes it has been in during this march, in order: the one it began in, then each hex
    /// entered or advanced into (GCACW 6.1, 7.6).
    pub path: Vec<Hex>,
}

/// Where in the sequence of play the game waits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "step", rename_all = "kebab-case")]
pub enum Stage {
    /// Leader Transfer Phase: a side picks leaders to transfer (GCACW 6.3).
    Transfers {
        /// Side transferring.
        side: Side,
        /// Leaders already transferred this phase.
        done: Vec<usize>,
        /// A leader picked, waiting for the target unit.
        picking: Option<usize>,
    },
    /// Initiative Segment: dice (GCACW 4.2).
    InitiativeRoll {
        /// The Union roll, once made.
        union: Option<u8>,
    },
    /// A side has the initiative: take it with an action, or pass (GCACW 4.2, 4.3).
    Action {
        /// Side with the initiative.
        side: Side,
        /// Whether the other side has already passed in this Action Phase.
        other_passed: bool,
    },
    /// Rolling a March's Movement Allowance.
    MarchAllowance {
        /// Unit.
        unit: usize,
    },
    /// Rolling on the Extended March Table.
    ExtendedMarch {
        /// March so far.
        march: March,
    },
    /// Deciding whether to force march (GCACW 5.1 step 3).
    ForceMarch {
        /// March so far.
        march: March,
    },
    /// Rolling the force-march bonus.
    ForceMarchRoll {
        /// March so far.
        march: March,
    },
    /// Rolling on the Blockhouse Table (HSN Sc 5 (a)).
    BlockhouseRoll {
        /// March in progress, its MP already spent on the attack.
        march: March,
        /// The attack type declared.
        ty: crate::charts::AttackType,
    },
    /// Army or district leaders in the hex may switch to the marching unit (GCACW 6.3).
    Riders {
        /// March about to move.
        march: March,
    },
    /// Moving hex by hex.
    Moving {
        /// March in progress.
        march: March,
    },
    /// Rolling on a scenario's Arrival Table at the start of the Action Cycle.
    ArrivalRoll,
    /// A set just placed must take a March or Activate Leader action at once.
    ArrivalAction,
    /// Choosing where a once-only railroad move ends (HSN Sc 1, 2, 9: Moore).
    RailMove {
        /// The unit.
        unit: usize,
    },
    /// Selecting units for an Activate Leader action (step 2).
    ActivateSelect {
        /// Leader index.
        leader: usize,
        /// Selected units with their intents.
        selected: Vec<(usize, Intent)>,
    },
    /// Rolling the leader's Movement Allowance (step 3).
    ActivateAllowance,
    /// The leader's one transfer (step 5).
    ActivateTransfer,
    /// Choosing the next unit of the activation (steps 6–8).
    ActivateNext,
    /// Recovery Phase step 1: a side's units at fatigue 0 may entrench, build a pontoon bridge
    /// or repair a bridge (GCACW 8.0, 9.0, 10.1, 10.3).
    Recovery {
        /// Side deciding.
        side: Side,
        /// Units that have done their one activity this phase.
        done: Vec<usize>,
        /// Hexes where a pontoon has been tried this phase (one try per hex).
        pontoon_hexes: Vec<Hex>,
        /// Whether the side has made its one repair attempt.
        repair_used: bool,
        /// A bridge roll waiting: the unit, the hexside, and whether it is a repair.
        roll: Option<(usize, crate::bridges::Side2, bool)>,
    },
    /// A unit that ended its march by a bridge may try to destroy it (GCACW 10.2).
    DestroyBridge {
        /// The unit.
        unit: usize,
        /// Whether it stayed in its hex all march.
        stayed: bool,
        /// The hexside chosen, waiting for the roll.
        site: Option<crate::bridges::Side2>,
    },
    /// Choosing the units of an assault (GCACW 7.1 step 1).
    AssaultSelect {
        /// The active leader.
        leader: usize,
        /// Units chosen.
        selected: Vec<usize>,
    },
    /// Choosing the hex assaulted (step 3).
    AssaultTarget {
        /// The active leader.
        leader: usize,
        /// Units chosen.
        selected: Vec<usize>,
    },
    /// The command roll (step 5).
    AssaultCommand {
        /// The active leader.
        leader: usize,
        /// Units chosen.
        selected: Vec<usize>,
        /// The hex assaulted.
        target: Hex,
    },
    /// Choosing which units attack when the Assault Number allows fewer than chosen.
    AssaultPick {
        /// The active leader.
        leader: usize,
        /// Units chosen.
        selected: Vec<usize>,
        /// The hex assaulted.
        target: Hex,
        /// How many may attack.
        allowed: usize,
        /// Those picked so far.
        picked: Vec<usize>,
    },
    /// A grand assault may be tried (GCACW 7.1 step 6).
    GrandOffer {
        /// The active leader.
        leader: usize,
        /// The assault's units.
        attackers: Vec<usize>,
        /// The hex assaulted.
        target: Hex,
    },
    /// The grand assault roll.
    GrandRoll {
        /// The active leader.
        leader: usize,
        /// The assault's units.
        attackers: Vec<usize>,
        /// The hex assaulted.
        target: Hex,
        /// The army or district leader whose Command is used.
        by: usize,
    },
    /// Choosing the units that join the grand assault.
    GrandJoin {
        /// The active leader.
        leader: usize,
        /// The assault's units.
        attackers: Vec<usize>,
        /// The hex assaulted.
        target: Hex,
        /// The army or district leader whose Command is used.
        by: usize,
        /// Grand Assault Number: most hexes that may join.
        number: usize,
        /// Units chosen so far.
        joined: Vec<usize>,
    },
    /// Union Cavalry Phase (HSN-A 5.1): a segment waiting for a roll or a decision.
    UnionCavalry {
        /// The segment and what it has done so far.
        segment: crate::mounts::Step,
    },
    /// A cavalry retreat interrupting a march (GCACW 7.7).
    CavalryRetreat {
        /// The retreat.
        c: Box<crate::cavalry::CavalryRetreat>,
    },
    /// A combat in progress (GCACW 7.0).
    Battle {
        /// The combat.
        battle: Box<crate::battle::Battle>,
    },
    /// The Union player picks the wagon trains he destroys (HSN Sc 9 Wagons).
    DestroyWagons {
        /// Wagons picked so far.
        chosen: Vec<usize>,
    },
    /// Rolling for a side's reinforcements (HSN-A 12.0, 13.0).
    ReinforcementRoll {
        /// The side rolling.
        side: Side,
    },
    /// Placing a side's reinforcements, or holding them back (HSN-A 12.0, 13.0).
    Reinforcement {
        /// The side placing.
        side: Side,
    },
    /// Rolling for Union Manpower Enhancement (HSN-A 11.0).
    EnhancementRoll,
    /// Choosing the units that gain Manpower (HSN-A 11.0).
    Enhancement {
        /// Cavalry units still to gain one Manpower.
        cavalry: u8,
        /// Infantry units still to gain one Manpower.
        infantry: u8,
    },
    /// Choosing where a Union rail move ends (HSN-A 9.0).
    RailMarch {
        /// The unit.
        unit: usize,
    },
    /// The Winter Weather Table roll (HSN-A 4.0).
    WinterWeatherRoll,
    /// A roll of the Random Events Phase (HSN-A 2.0, 2.2).
    EventRoll {
        /// Which roll.
        roll: crate::events::EventRoll,
    },
    /// The Union player chooses between a Night March and one normal action (HSN-A 2.2).
    NightMarchChoice,
    /// Units caught in provisional swamps by the rain move out, the first one's owner choosing
    /// where (GCACW 12.0).
    SwampEscape {
        /// The units still to move, in order.
        units: Vec<usize>,
        /// Where play goes next.
        then: crate::swamp::Then,
    },
    /// Attachment Phase: a side may attach substitutes and small units (HSN-A 7.2).
    Attachment {
        /// Side attaching.
        side: Side,
    },
    /// The game is over.
    Over,
}

/// The whole changeable state.
#[derive(Clone, Debug, Serialize)]
pub struct State {
    /// Current turn, from 1.
    pub turn: u16,
    /// Units, in catalog order of their counters.
    pub units: Vec<Unit>,
    /// Leaders.
    pub leaders: Vec<Leader>,
    /// Station markers.
    pub stations: BTreeMap<Hex, StationMark>,
    /// Pontoons, destroyed bridges and this turn's bridge attempts.
    pub bridges: crate::bridges::Bridges,
    /// The phase of the turn (GCACW 3.0; HSN-A 1.0).
    pub phase: crate::sequence::Phase,
    /// Where the game waits.
    pub stage: Stage,
    /// What an Advanced Game remembers across procedures (HSN-A).
    pub campaign: crate::campaign::Campaign,
    /// This turn's random event and its effects (HSN-A 2.2).
    pub events: crate::events::Events,
    /// Activate Leader action in progress.
    pub activation: Option<Activation>,
    /// Automatic initiative wins still due on this turn.
    pub automatic: Vec<Side>,
    /// Whether each side has gained the initiative this turn (Union, Confederate) — Late Rain.
    pub gained: [bool; 2],
    /// Rain in effect this turn.
    pub rain: bool,
    /// Whether the action in progress was taken with an automatic initiative.
    pub automatic_action: bool,
    /// Arrival sets the Confederate player may still place this turn (HSN Sc 2 Arrival Table).
    pub arrivals_due: u8,
    /// Fatigue level of divisions arriving this turn.
    pub arrival_fatigue: u8,
    /// The set just placed, which must act at once and gets the first-action bonus.
    pub arriving: Option<u16>,
    /// Hexes with a Flanks Refused marker (GCACW 7.8).
    pub flanks_refused: std::collections::BTreeSet<Hex>,
    /// The Confederate corps leader who has had Hood's assault bonus this turn (HSN-B 7.4).
    pub hood_corps: Option<usize>,
    /// Counters freed from a scenario's activation restriction (catalog indices).
    pub released: std::collections::BTreeSet<u16>,
    /// Units that have been activated at least once (for "first activation" rules).
    pub activated_once: std::collections::BTreeSet<usize>,
    /// Every Manpower loss, with its cause.
    pub losses: Vec<Loss>,
    /// Every Manpower gain (HSN-A 11.0 Manpower Enhancement).
    pub gains: Vec<Gain>,
    /// Reinforcements made available and placed (HSN-A 12.0, 13.0).
    pub reinforcement: crate::reinforcement::Progress,
    /// Union rail moves of the turn (HSN-A 9.0).
    pub rail_used: crate::rail::RailUse,
    /// Facts the victory conditions remember (e.g. "a Confederate unit entered Columbia by Turn 4"),
    /// kept by [`crate::victory::observe`].
    pub flags: BTreeMap<String, i32>,
    /// The log.
    pub log: Vec<LogEntry>,
}

impl State {
    /// Logs a line.
    pub fn note(&mut self, text: impl Into<String>, rule: Option<&str>) {
        self.log.push(LogEntry { turn: self.turn, text: text.into(), rule: rule.map(str::to_string), roll: None });
    }
}

/// Index of a side in two-element arrays.
#[must_use]
pub const fn side_index(side: Side) -> usize {
    match side {
        Side::Union => 0,
        Side::Confederate => 1,
    }
}
