//! [SR 4.0] The changeable state of a Blind Swords game: the turn, where in the sequence of play
//! the game waits ([`Stage`]), the units, each brigade's order and activation status, On Hold,
//! the chits (cup, held, key, played, set aside), the Buell Alert Track, each battery at the start
//! of the Artillery Phase (the Broken Track is each unit's [`Place`]), victory points, control and the log.

use caisson_hexmap::Hex;
use caisson_kernel::LogEntry;
use serde::Serialize;

use crate::catalog::{Side, UnitType};
use crate::charts::Order;
use crate::fire::FireKind;

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
    /// Left the map (SR 10.12; EX 16.4g): out of the game, not a loss.
    Exited,
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
    /// Came back to the map from the Broken Track's "Available" box (SR 13.2b, for the Rebuild
    /// Option).
    pub returned: bool,
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
    /// One-use event chits played (EX 5.2: Hidden Enemy), out of the game.
    pub removed: Vec<String>,
}

/// Where the playing of held chits stands (SR 7.1, 14.1) and the events in effect.
#[derive(Clone, Debug, Default, Serialize)]
pub struct EventState {
    /// The held-chit play before the next draw is over (both sides declined in succession).
    pub asked: bool,
    /// Who is asked first when the held-chit play opens again (the other side after a play).
    pub next: Option<Side>,
    /// The brigade a Brigade Initiative activates this moment: its On Hold units on the map may
    /// move (EX 7.5c).
    pub initiative: Option<String>,
    /// The Confederate brigade whose Movement Step Hidden Enemy was played on: its units may not
    /// move adjacent to a Union unit in that step.
    pub hidden: Option<String>,
}

/// A unit that may or must step away from an enemy that moved near it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Withdrawal {
    /// Index into [`State::units`].
    pub unit: usize,
    /// The hex it steps away from (the moving enemy's).
    pub from: Hex,
    /// A skirmisher (EX 15.3, 15.4): it must withdraw; otherwise cavalry that may (SR 10.8).
    pub must: bool,
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
    /// Took up Skirmish Order during this move (EX 15.1): it has spent MP, so the one hex always
    /// allowed (SR 10.3) no longer applies.
    pub formed: bool,
}

impl Moving {
    /// A unit starting its move with `mp`.
    #[must_use]
    pub const fn new(unit: usize, mp: f64) -> Moving {
        Moving { unit, mp, steps: 0, formed: false }
    }

    /// No MP spent yet: the one hex always allowed (SR 10.3) still applies.
    #[must_use]
    pub const fn first(&self) -> bool {
        self.steps == 0 && !self.formed
    }
}

/// The step a rally happens in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum RallyFor {
    /// The Artillery Rally Step of a side (SR 6.4).
    Artillery {
        /// Whose pick.
        side: Side,
    },
    /// The Rally Step of the active brigade (SR 13).
    Brigade {
        /// The brigade.
        brigade: String,
        /// Its order.
        order: Order,
        /// How it was activated.
        by: Activator,
        /// Units that have rallied in this step (SR 13.2: one action each).
        done: Vec<usize>,
    },
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
    /// The Fire Combat Step of an activated brigade (SR 4.0 4b, 9.0): its units fire, alone or
    /// combined, each at most once (SR 9.1), before it moves.
    FireStep {
        /// The brigade.
        brigade: String,
        /// Its order; `None`: a Limited Activation, which only fires (ruling A-01b).
        order: Option<Order>,
        /// How it was activated.
        by: Activator,
        /// Units that have fired in this step.
        fired: Vec<usize>,
    },
    /// Opportunity Fire (SR 10.7): `mover` has announced a step out of a hex adjacent to the
    /// enemy, who may fire at it first from the adjacent hexes.
    OppFire {
        /// What the movement serves.
        for_: MoveFor,
        /// Units that have moved.
        moved: Vec<usize>,
        /// The unit moving, before its step.
        moving: Moving,
        /// The hex it leaves.
        from: Hex,
        /// The hex it means to enter.
        to: Hex,
        /// Enemy units that have fired at it on this step.
        fired: Vec<usize>,
    },
    /// Flanking Fire (SR 9.3c): fires at `target` are announced together, then resolved one
    /// after another with the shift.
    FlankFire {
        /// The stage it was announced in and returns to: a [`Stage::FireStep`] or a
        /// [`Stage::OppFire`], whose `fired` takes an announced fire's units once it is resolved.
        back: Box<Stage>,
        /// The hex fired at.
        target: Hex,
        /// The fires announced and not yet resolved, each a group of units.
        announced: Vec<Vec<usize>>,
        /// `false` while announcing, `true` once resolving has begun.
        resolving: bool,
    },
    /// Opportunity Fire at a unit a Wayward Move takes out of a hex next to the enemy (EX 7.3b,
    /// SR 10.7): the player making the move may fire at it first.
    WaywardFire {
        /// The unit moved.
        unit: usize,
        /// The hex it leaves.
        from: Hex,
        /// The hex it is moved to.
        to: Hex,
        /// Units that have fired at it.
        fired: Vec<usize>,
    },
    /// A retreat paused where the unit is to leave a hex next to the enemy, who may fire
    /// Opportunity Fire at it first (SR 10.7, 12.3 note).
    RetreatFire {
        /// The retreat under way.
        walk: RetreatWalk,
        /// Enemy units that have fired at it in this hex.
        fired: Vec<usize>,
    },
    /// The fire of a held event `side` plays (Firefight, Sharpshooters: `events.toml`); once it
    /// is over (`resolved`) the Chit Draw Phase goes on.
    EventFire {
        /// The side that played the event.
        side: Side,
        /// The event id.
        event: String,
        /// Whether the fire has been made.
        resolved: bool,
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
    /// Before a draw (SR 7.1) or in the End Turn Phase (SR 14.1, cup empty): `side` may play a
    /// held chit.
    HeldChits {
        /// Who is asked.
        side: Side,
        /// Declines in succession so far.
        passes: u8,
    },
    /// The Rally event, or A. McCook used as one (EX 6.5e, 7.3c): `side` picks the unit.
    RallyEvent {
        /// Who rallies.
        side: Side,
    },
    /// Brigade Initiative: the Union player picks a brigade on the map (EX 7.5c).
    Initiative,
    /// A brigade has its order: the other side may play Command Confusion (SR 7.3).
    Confusion {
        /// The brigade.
        brigade: String,
        /// How it was activated.
        by: Activator,
        /// The order it received.
        order: Order,
    },
    /// Command Confusion: the die for the brigade's new order (SR 7.3).
    ConfusionRoll {
        /// The brigade.
        brigade: String,
        /// How it was activated.
        by: Activator,
    },
    /// A Confederate activation roll gave a Limited Activation: Aggressive Leader may be played.
    Aggressive {
        /// The activation chit.
        chit: String,
        /// The brigade.
        brigade: String,
    },
    /// A Confederate brigade's Movement Step begins: the Union player may play Hidden Enemy.
    HiddenEnemy {
        /// The movement about to start.
        for_: MoveFor,
    },
    /// Hidden Enemy played: Union units within two hexes of the brigade each step one hex towards
    /// it, ending Engaged, before it moves.
    HiddenMoves {
        /// The brigade's movement, which follows.
        for_: MoveFor,
        /// Union units that have stepped.
        moved: Vec<usize>,
    },
    /// Skirmish screen (EX 15.3, 15.4) and cavalry withdrawal (SR 10.8): the owner of the first
    /// unit in `queue` steps it away; then the interrupted stage resumes.
    Withdraw {
        /// Units to step away, in turn.
        queue: Vec<Withdrawal>,
        /// Where the game resumes.
        resume: Box<Stage>,
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
    /// What a Cohesion Test left to do: retreats and Panic (SR 12.1b, 12.2c, 12.3).
    Aftermath {
        /// The work left.
        after: Aftermath,
    },
    /// Close Combat Step: the active player declares the attacks (SR 11.2).
    CloseDeclare {
        /// The active brigade.
        brigade: String,
        /// How it was activated.
        by: Activator,
        /// The attacks declared so far.
        declared: Vec<Declared>,
        /// The attack being declared: its target, and the attackers picked so far.
        building: Option<Declared>,
    },
    /// A declared Close Combat being resolved (SR 11.3), the others waiting their turn.
    CloseCombat {
        /// The active brigade.
        brigade: String,
        /// How it was activated.
        by: Activator,
        /// The declared attacks still to resolve.
        queue: Vec<Declared>,
        /// This one.
        fight: CloseFight,
    },
    /// Advance After Close Combat (SR 12.7): the owners move units into the emptied hexes.
    Advance {
        /// The active brigade.
        brigade: String,
        /// How it was activated.
        by: Activator,
        /// The declared attacks still to resolve.
        queue: Vec<Declared>,
        /// The advances offered, the first the current one.
        offers: Vec<AdvanceOffer>,
        /// A unit that entered the emptied hex and may go one hex further.
        second: Option<usize>,
    },
    /// Before turn 1: the Union picks the Right Hook marker's side, secretly (EX 16.3).
    RightHookSecret,
    /// After the Buell roll: the Union may reveal the Right Hook (EX 16.3).
    RightHookReveal {
        /// Where the game goes on.
        next: Box<Stage>,
    },
    /// Reinforcements arrive: their owner picks the one entry hex they are all placed in
    /// (SR 10.11, ruling PG3).
    Arrive {
        /// The units of one reinforcement line arriving together.
        units: Vec<usize>,
        /// Where the game goes on.
        after: crate::special::After,
    },
    /// An entry hex is still over-stacked: its owner moves the largest arrived unit to an
    /// adjacent legal hex (SR 10.11, ruling PG36).
    Unstack {
        /// The unit to move.
        unit: usize,
        /// Where the game goes on.
        after: crate::special::After,
    },
    /// The roll for the unit of EX 16.1f, gone to the Broken Track.
    GreatGrandfather {
        /// Where the game goes on.
        next: Box<Stage>,
    },
    /// A rally: a side's pick in the Artillery Rally Step, or the next unit of a Rally Step
    /// (SR 6.4, 13.2).
    Rally {
        /// Which step.
        for_: RallyFor,
    },
    /// A Rebuild roll (SR 13.2b).
    Rebuild {
        /// Which step.
        for_: RallyFor,
        /// Index into [`State::units`].
        unit: usize,
    },
    /// A unit rebuilt from the "Available" box: its owner places it (SR 13.2b).
    RallyPlace {
        /// Which step.
        for_: RallyFor,
        /// Index into [`State::units`].
        unit: usize,
    },
    /// A unit rebuilt to its Fresh side over-stacks its hex: its owner moves it away (SR 13.2b).
    RallyDisplace {
        /// Which step.
        for_: RallyFor,
        /// Index into [`State::units`].
        unit: usize,
    },
    /// The game is over.
    Over,
}

/// One Close Combat declared (SR 11.2): the defending hex and the attacking units.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Declared {
    /// The defending hex.
    pub target: Hex,
    /// The attacking units, indexes into [`State::units`].
    pub attackers: Vec<usize>,
    /// The targets of the step's other declared Close Combats: their units give no Supporting
    /// Defensive Fire to this one (SR 11.3a).
    pub others: Vec<Hex>,
}

/// A Close Combat being resolved (SR 11.3).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CloseFight {
    /// The defending hex.
    pub target: Hex,
    /// The attacking units still in the combat.
    pub attackers: Vec<usize>,
    /// The Assaulting Hex, once known (SR 11.3c).
    pub assault: Option<Hex>,
    /// The defending Lead Unit, an index into [`State::units`], once known (SR 9.2).
    pub lead: Option<usize>,
    /// The CRT's Cohesion Test, once the d66 is rolled (or the Close Fight without a roll).
    pub section: Option<crate::charts::Section>,
    /// The defending owner's pick of the second unit of a "D2" (a unit index).
    pub second: Option<usize>,
    /// The attacking owner's pick of the attacker hit among ties (a unit index).
    pub attacker: Option<usize>,
    /// The test's two dice, then the Break Test dice, as rolled (before the CRT roll: the
    /// Break Test dice of the withdrawing horse artillery's Morale Hit).
    pub dice: Vec<u8>,
    /// Each attacker's hex when the combat began: one that has left it (retreated, broken) after
    /// Defensive Fire is out of the combat (SR 11.3a, 11.3c).
    pub posts: Vec<(usize, Hex)>,
    /// The targets of the step's other declared Close Combats (SR 11.3a).
    pub others: Vec<Hex>,
    /// The defending units that have fired Defensive or Supporting Defensive Fire in this combat.
    pub fired: Vec<usize>,
    /// The defending player has ended Defensive Fire and withdrawal (SR 11.3a-b).
    pub defence_over: bool,
    /// A withdrawing horse artillery unit whose Morale Hit is still to apply (EX 11.3b).
    pub hit: Option<usize>,
    /// The attacker's held-chit choice before the dice (EX 11.3c xvii-xviii): `None` not yet
    /// made, `Some(true)` Rebel Yell! or Spontaneous Charge played for this combat.
    pub charge: Option<bool>,
}

/// A retreat still to make (SR 12.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RetreatOrder {
    /// The unit, an index into [`State::units`].
    pub unit: usize,
    /// Hexes to retreat.
    pub hexes: u8,
    /// The result that ordered it.
    pub rule: String,
    /// The enemy units that caused it (SR 12.3: the path avoids their neighbourhood first).
    pub causers: Vec<usize>,
}

/// A retreat being made hex by hex, so that it can stop for Opportunity Fire (SR 10.7, 12.3).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RetreatWalk {
    /// The aftermath the retreat belongs to.
    pub after: Aftermath,
    /// The retreat.
    pub order: RetreatOrder,
    /// Whether it is of the after-Panic list.
    pub later: bool,
    /// The hex it started from.
    pub origin: Hex,
    /// The path's hexes, in order.
    pub hexes: Vec<Hex>,
    /// How many of them the unit has entered.
    pub step: usize,
    /// The path's Chaplin crossings off a ford or bridge (EX 2.10k).
    pub river_crossings: u8,
    /// The path as logged.
    pub label: String,
    /// The fire whose test ordered the retreat, set aside while the retreat draws fire.
    pub outer: Option<Box<Volley>>,
}

/// Retreats and Panic a Cohesion Test ordered, worked through one at a time (SR 12.1b, 12.2c,
/// 12.3), then the game goes on as `then` says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Aftermath {
    /// The side whose fire or attack caused the test: it picks among Panic ties.
    pub by: Side,
    /// The units that caused it.
    pub causers: Vec<usize>,
    /// The tested hex: Panic looks at it and its neighbours.
    pub target: Hex,
    /// The Lead Unit, which never panics.
    pub lead: usize,
    /// Retreats to make before the Panic (the Lead Unit's, the attacker's).
    pub retreats: Vec<RetreatOrder>,
    /// Units still to pick for Panic.
    pub panic: u8,
    /// Units picked to panic whose Morale Hit is still to come, in order.
    pub panicking: Vec<usize>,
    /// Break Test dice for the current panicking unit's Morale Hit.
    pub dice: Vec<u8>,
    /// Retreats after the Panic: panicked units and the units stacked with the Lead Unit.
    pub later: Vec<RetreatOrder>,
    /// Retreats made so far: the unit and the hexes it went (SR 12.7 looks at the longest).
    pub done: Vec<(usize, u8)>,
    /// Where the game goes afterwards.
    pub then: Then,
}

/// Where the game goes once a Cohesion Test's retreats and Panic are done.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Then {
    /// A fire is over: a battery's Artillery Step passes to the other side (SR 6.3), a volley
    /// returns to its stage ([`crate::combat_step::fired`]).
    Fire {
        /// The battery, or the first unit of the volley.
        firer: usize,
        /// The ids of the units the test ordered to retreat (an Opportunity Fire target's move
        /// is then cancelled, SR 10.7).
        retreating: Vec<String>,
    },
    /// A Close Combat: Advance After Close Combat, then the next declared attack (SR 11.3, 12.7).
    Close {
        /// The active brigade.
        brigade: String,
        /// How it was activated.
        by: Activator,
        /// The declared attacks still to resolve.
        queue: Vec<Declared>,
        /// The defending hex.
        target: Hex,
        /// The attacking units that took part.
        attackers: Vec<usize>,
        /// The hexes they attacked from.
        hexes: Vec<Hex>,
        /// The defending units.
        defenders: Vec<usize>,
    },
}

/// An Advance After Close Combat offered to one side (SR 12.7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AdvanceOffer {
    /// The emptied hex.
    pub into: Hex,
    /// The units that may advance.
    pub units: Vec<usize>,
    /// How far: 1, or 2 when the enemy retreated 2 or more hexes or broke.
    pub reach: u8,
}

/// A fire by other units than one battery of the Artillery Step, while its fire stages
/// ([`Stage::FireLead`], [`Stage::FireRoll`], [`Stage::FireTest`]) play it out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Volley {
    /// Every unit firing (the stages' `firer` is the first).
    pub firers: Vec<usize>,
    /// Why they fire: a brigade's Fire Combat Step or Opportunity Fire.
    pub kind: FireKind,
    /// The stage the game returns to once the fire is over.
    pub then: Stage,
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
    /// The fire being played out, when it is not a battery's in the Artillery Step.
    pub volley: Option<Volley>,
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
    /// Held-chit play and events in effect (SR 7.1, 14.1).
    pub events: EventState,
    /// Each battery's place and whether it was Battleworn when this turn's Artillery Phase began,
    /// by unit index: what the Artillery Rally Step asks of "retreated" and "flipped" (SR 6.4).
    pub artillery_start: Vec<(usize, Place, bool)>,
    /// Victory points by side, Union first (SR 14.2).
    pub vp: [u32; 2],
    /// Control of the victory hexes: the side that last occupied each.
    pub control: Vec<(Hex, Side)>,
    /// What the scenario special rules remember (`crate::special`).
    pub special: crate::special::Special,
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

    /// The units on the Broken Track, in any box, "Available" included (SR 12.8).
    pub fn broken_units(&self) -> impl Iterator<Item = usize> + '_ {
        self.units.iter().enumerate().filter(|(_, u)| matches!(u.place, Place::Broken(_))).map(|(i, _)| i)
    }

    /// The controller of a victory hex.
    #[must_use]
    pub fn controller(&self, hex: Hex) -> Option<Side> {
        self.control.iter().find(|(h, _)| *h == hex).map(|c| c.1)
    }
}
