//! Scenario files: set-up, arrivals, initiative, special rules and victory tables
//! (`data/<game>/scenarios/*.toml`).

use caisson_hexmap::{Hex, HexRange};
use caisson_kernel::data::{parse_toml, DataError};
use serde::Deserialize;

use crate::catalog::Catalog;
use crate::Side;

/// Who wins tied initiative rolls (GCACW 4.2 and each scenario).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ties {
    /// The Confederate player wins every tie.
    Confederate,
    /// The Union player wins every tie.
    Union,
    /// The Union player wins 1-1, 2-2 and 3-3; the Confederate 4-4, 5-5 and 6-6.
    Split,
}

/// The scenario's initiative rules.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Initiative {
    /// Tie rule.
    pub ties: Ties,
    /// Sides that win the first initiatives of Turn 1 without a roll, in order.
    #[serde(default)]
    pub automatic: Vec<Side>,
    /// Source.
    pub source: String,
}

/// Entrenchment markers, in order of strength (GCACW 5.5, 9.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Entrenchment {
    /// Abatis.
    Abatis,
    /// Breastworks under construction.
    BreastworksBuild,
    /// Breastworks.
    Breastworks,
    /// Fort, first stage of construction.
    #[serde(rename = "fort-build-1")]
    FortBuild1,
    /// Fort, second stage of construction.
    #[serde(rename = "fort-build-2")]
    FortBuild2,
    /// Completed fort.
    FortComplete,
}

impl Entrenchment {
    /// Name for people.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Entrenchment::Abatis => "Abatis",
            Entrenchment::BreastworksBuild => "Breastworks-Build",
            Entrenchment::Breastworks => "Breastworks",
            Entrenchment::FortBuild1 => "Fort-Build-1",
            Entrenchment::FortBuild2 => "Fort-Build-2",
            Entrenchment::FortComplete => "Fort-Complete",
        }
    }
}

/// One counter on the map at the start.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct SetupRow {
    /// Counter id.
    pub counter: String,
    /// Hex.
    pub hex: Hex,
    /// Manpower (units).
    #[serde(default)]
    pub manpower: Option<u8>,
    /// Fatigue level.
    #[serde(default)]
    pub fatigue: u8,
    /// Starts on its exhausted side.
    #[serde(default)]
    pub exhausted: bool,
    /// Starts disorganized.
    #[serde(default)]
    pub disorganized: bool,
    /// Starting entrenchment marker.
    #[serde(default)]
    pub entrenchment: Option<Entrenchment>,
    /// Demoralization level.
    #[serde(default)]
    pub demoralized: u8,
    /// Source.
    pub source: String,
}

/// A marker the scenario puts on the Turn Track at the start (HSN Sc 9 "Turn Track Markers").
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct TurnMarker {
    /// The turn whose box holds it.
    pub turn: u16,
    /// What it says.
    pub text: String,
    /// Source.
    pub source: String,
}

/// A marker at the start that is not a unit.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct MarkerRow {
    /// Kind word.
    pub kind: String,
    /// Hexside, `XXYY-XXYY`.
    #[serde(default)]
    pub hexside: Option<String>,
    /// Hex.
    #[serde(default)]
    pub hex: Option<Hex>,
    /// Owner.
    #[serde(default)]
    pub owner: Option<Side>,
    /// What it is.
    pub text: String,
    /// Source.
    pub source: String,
}

/// A counter that enters later.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct ArrivalRow {
    /// Earliest turn, where fixed.
    #[serde(default)]
    pub turn: Option<u16>,
    /// Set number.
    #[serde(default)]
    pub set: Option<u16>,
    /// Which list.
    pub group: String,
    /// Counter id.
    pub counter: String,
    /// Manpower (units).
    #[serde(default)]
    pub manpower: Option<u8>,
    /// Entry hexes.
    #[serde(default)]
    pub entry: Vec<HexRange>,
    /// Alternative entry hexes.
    #[serde(default)]
    pub alternative_entry: Vec<HexRange>,
    /// Fatigue on entry.
    #[serde(default)]
    pub fatigue: u8,
    /// Enters exhausted.
    #[serde(default)]
    pub exhausted: bool,
    /// Source.
    pub source: String,
}

/// One entry of an arrival table (e.g. HSN Sc 2).
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct ArrivalResult {
    /// Exact modified roll.
    #[serde(default)]
    pub roll: Option<i32>,
    /// At least this roll.
    #[serde(default)]
    pub min: Option<i32>,
    /// At most this roll.
    #[serde(default)]
    pub max: Option<i32>,
    /// Sets due.
    pub sets: u8,
    /// Fatigue of arriving divisions.
    #[serde(default)]
    pub fatigue: u8,
}

/// A per-turn modifier.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct TurnModifier {
    /// Turn.
    pub turn: u16,
    /// Modifier.
    pub value: i32,
}

/// An event that frees counters held back by a scenario rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Release {
    /// An enemy unit comes next to the counter.
    EnemyAdjacent,
    /// An enemy unit ends a March action one or two hexes from the counter.
    #[serde(rename = "enemy-march-within-2")]
    EnemyMarchWithin2,
    /// An enemy unit attacks the counter: the combat dice fall on its hex.
    Attacked,
    /// An enemy unit is in the rule's county.
    EnemyInCounty,
}

/// What a retreat into hexes a scenario closes to a side does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClosedRetreat {
    /// They are no retreat hexes: a stack with no other way out surrenders, its loss scoring
    /// (HSN Sc 1, 2, 9: "eliminated").
    Eliminated,
    /// A retreat may enter them, and the stack leaves the game with no VP penalty (HSN Sc 6).
    RemovedNoVp,
}

/// A scenario special rule's parameters, by kind.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum RuleKind {
    /// Hexes a side may not enter.
    ProhibitedHexes {
        /// The side restricted.
        side: Side,
        /// Hexes.
        hexes: Vec<HexRange>,
        /// What a retreat into them does.
        retreat: ClosedRetreat,
        /// Turns the prohibition holds (empty: every turn), e.g. HSN Sc 9 Turns 1–5.
        #[serde(default)]
        turns: Vec<u16>,
    },
    /// A one-time railroad move (HSN Moore).
    RailMove {
        /// Counter.
        counter: String,
        /// Maximum hexes.
        max_hexes: u16,
        /// Fatigue gained.
        fatigue: u8,
        /// Enemy ZOC rule.
        enemy_zoc: String,
        /// Enemy-occupied rule.
        enemy_occupied: String,
        /// Damaged-station rule.
        damaged_station: String,
    },
    /// A leader who may activate a unit outside his command.
    ExtraActivator {
        /// The unit.
        counter: String,
        /// The leaders.
        leaders: Vec<String>,
        /// Whether he may also take the counter into an Assault (HSN Sc 4 Croxton; Sc 3 and 4
        /// Johnson); otherwise an Activate Leader action only.
        #[serde(default)]
        assault: bool,
    },
    /// A side's infantry divisions march with minimum Movement Allowances, and perhaps a
    /// modifier to their Extended March Table rolls (HSN Sc 3, Sc 4; Sc 7 Hood's Retreat).
    MinimumMa {
        /// Side.
        side: Side,
        /// Turns (empty: every turn).
        #[serde(default)]
        turns: Vec<u16>,
        /// Minimum for a March.
        march: u8,
        /// Minimum for an Activate Leader action.
        activate: u8,
        /// Units not affected.
        #[serde(default)]
        exempt: Vec<String>,
        /// Only for marches reaching at most this fatigue level.
        #[serde(default)]
        max_fatigue: Option<u8>,
        /// Added to the Extended March Table rolls of the marches the rule covers (GCACW 5.1).
        #[serde(default)]
        extended: i8,
    },
    /// Counters that may not activate.
    NoActivation {
        /// Counters.
        counters: Vec<String>,
        /// Turns.
        #[serde(default)]
        turns: Vec<u16>,
        /// Restricted until this turn.
        #[serde(default)]
        until_turn: Option<u16>,
        /// What lifts it, in words.
        #[serde(default)]
        released_by: Option<String>,
        /// What lifts it, as events the engine watches for (none: nothing does).
        #[serde(default)]
        release: Vec<Release>,
        /// The county of an `enemy-in-county` release.
        #[serde(default)]
        county: Option<String>,
        /// Whether a release frees every counter of the rule at once.
        #[serde(default)]
        group: bool,
        /// Whether held counters also skip the Recovery Phase.
        #[serde(default)]
        no_recovery: bool,
        /// Whether held leaders may not transfer either.
        #[serde(default)]
        no_transfer: bool,
        /// Whether held units may not entrench in the Recovery Phase either.
        #[serde(default)]
        no_entrench: bool,
    },
    /// Counters whose Strength marker stays disorganized in the Recovery Phase of some turns.
    KeepDisorganized {
        /// Counters.
        counters: Vec<String>,
        /// Turns.
        turns: Vec<u16>,
    },
    /// An arrival table.
    ArrivalTable {
        /// Results.
        results: Vec<ArrivalResult>,
        /// Turn modifiers.
        #[serde(default)]
        modifiers: Vec<TurnModifier>,
        /// Extra fatigue at the alternative entry.
        #[serde(default)]
        alt_entry_fatigue: u8,
        /// Movement bonus of the first action after arrival.
        #[serde(default)]
        first_action_bonus: u8,
    },
    /// Initiative rules carried by the scenario's `[initiative]` table (ties, automatic wins).
    Initiative,
    /// No Leader Transfer Phase on these turns.
    SkipTransfers {
        /// Turns.
        turns: Vec<u16>,
    },
    /// Hexes within a distance of some hexes that a side may not enter.
    ProhibitedRadius {
        /// The side restricted.
        side: Side,
        /// Centre hexes.
        centers: Vec<Hex>,
        /// Distance (inclusive).
        radius: u16,
    },
    /// Smaller units may merge back into their division instead of an action (HSN Sc 2).
    Consolidation {
        /// The side that may consolidate.
        side: Side,
        /// Largest Manpower after merging.
        max_manpower: u8,
        /// Divisions and their parts.
        groups: Vec<crate::consolidation::Group>,
    },
    /// Limits on the actions taken with automatic initiatives (HSN Sc 4 Turn 1): a minimum die for
    /// the Movement Allowance of some unit types, and units of some types acting once only.
    Opening {
        /// Dice below this count as this.
        min_die: u8,
        /// Unit types whose marches (or activations by their leaders) get the minimum.
        min_die_for: Vec<crate::catalog::CounterType>,
        /// Unit types that may act only once in those actions.
        no_repeat: Vec<crate::catalog::CounterType>,
    },
    /// Counters that must stay inside some counties (HSN Sc 3 Hammond).
    Confined {
        /// The counters.
        counters: Vec<String>,
        /// County names.
        counties: Vec<String>,
    },
    /// Wagon trains pay extra to cross any bridge (HSN Sc 4).
    WagonBridgeCost {
        /// Extra Movement Points.
        extra: u8,
    },
    /// Only these leaders may activate the unit (HSN Sc 7 Croxton).
    ExclusiveActivator {
        /// The unit.
        counter: String,
        /// The leaders.
        leaders: Vec<String>,
    },
    /// Cavalry units with an Unmounted counter all scenario (HSN-A 5.5): infantry in all respects
    /// but the march roll (cavalry dice, halved, rounded up) and the extended march.
    Unmounted {
        /// The units.
        counters: Vec<String>,
    },
    /// The HSN Basic Game wagon-train rules (HSN-B 2.2) apply; the engine applies them to every
    /// wagon train in every scenario, so this only records that the scenario names them.
    WagonRules,
    /// A statement of the scenario that needs no procedure of its own, shown to the players as a
    /// note (e.g. a cross-reference to a section that holds no rule).
    Note,
    /// Late Rain from a turn on.
    LateRain {
        /// First turn.
        from_turn: u16,
    },
    /// An Artillery value in place of the printed one for some units (HSN Sc 3 and 4 Artillery
    /// Penalty, Sc 7 Confederate Artillery). Read by `combat::artillery_value`.
    ArtilleryOverride {
        /// The side whose units it changes.
        side: Side,
        /// Unit type.
        #[serde(rename = "type")]
        ty: crate::catalog::CounterType,
        /// Unit size (`division`, `brigade`, `regiment`); none: every size.
        #[serde(default)]
        size: Option<String>,
        /// Counters not affected (they keep their printed values).
        #[serde(default)]
        except: Vec<String>,
        /// Turns (empty: every turn).
        #[serde(default)]
        turns: Vec<u16>,
        /// The Artillery value.
        value: u8,
    },
    /// Rivers are unfordable on some turns (HSN Sc 7 Turn 3; GCACW 12.0 unfordable rivers): no
    /// crossing at fords or destroyed bridges. Read by `combat::unfordable`.
    Unfordable {
        /// Turns.
        turns: Vec<u16>,
    },
    /// The printed Union forts are in play (HSN-B 7.4: Basic Scenario 5; HSN-A 8.0). Destroyed
    /// forts are kept in `State::flags` as `fort-destroyed/XXYY`. Read by `combat::forts_in_play`.
    Forts,
    /// A side's units may retreat or rout off the map edge, with no Manpower loss for the off-map
    /// part, and are then removed from the game (HSN Sc 8 Map Edge). Read by
    /// `retreat::off_map_allowed`.
    OffMapRetreat {
        /// The side.
        side: Side,
    },
    /// Death of Cleburne (HSN-A 6.0): equal combat dice in an attack by `counter` kill him; his
    /// division becomes `replacement`. Read by `combat::cleburne_dies`.
    DeathOfCleburne {
        /// The division whose commander may die.
        counter: String,
        /// The counter that replaces it.
        replacement: String,
    },
    /// Low hexrows south of the Harpeth River are closed to both sides (HSN Sc 7 Common Movement
    /// Restriction): off the map for Confederates, out of play for Union units. Read by
    /// `Gcacw::prohibited` and `retreat::surrender`.
    HarpethStrip {
        /// Hexes whose row (`YY`) is at most this.
        rows_at_most: i16,
    },
    /// Counters barred from an area (HSN Sc 7 Union and Confederate Movement Restrictions):
    /// they may not enter it in a march, nor attack into it when `attacks` says so, on `turns`
    /// (empty: every turn) until one of them enters `until_hex`. `leaders` stay attached to them
    /// meanwhile, and leave the game if their unit is eliminated first. Read by `Gcacw::barred`.
    Barred {
        /// The units.
        counters: Vec<String>,
        /// Leaders pinned to them until release.
        #[serde(default)]
        leaders: Vec<String>,
        /// Whole counties barred.
        #[serde(default)]
        counties: Vec<String>,
        /// Counties barred north of the Duck River only.
        #[serde(default)]
        counties_north_of_duck: Vec<String>,
        /// Everything south of the Harpeth River is barred.
        #[serde(default)]
        south_of_harpeth: bool,
        /// Attacks into the area are barred too.
        #[serde(default)]
        attacks: bool,
        /// Turns the bar holds (empty: all).
        #[serde(default)]
        turns: Vec<u16>,
        /// Entering this hex lifts the bar.
        #[serde(default)]
        until_hex: Option<Hex>,
    },
    /// Union blockhouse markers (HSN Sc 5): placed by the set-up's `blockhouse` markers; no ZOC,
    /// no values, no effect on movement, retreat or command radius. Read by `blockhouse::standing`.
    Blockhouses,
    /// Confederate attacks on blockhouses (HSN Sc 5 (a)), by the procedure of `blockhouse`.
    BlockhouseAttacks,
    /// The Blockhouse Table (HSN Sc 5): its rows and modifiers. Read by `blockhouse::table`.
    BlockhouseTable(BlockhouseTable),
    /// Union wagon trains of the campaign (HSN Sc 9 Wagons): removed on entering `nashville`,
    /// `murfreesboro` or a `fortress` hex whose fort stands; voluntary destruction in an
    /// Activation Segment (not south of the Duck River); removal when winter starts. Procedure:
    /// [`crate::wagons`].
    Wagons {
        /// Nashville city hexes.
        nashville: Vec<Hex>,
        /// Murfreesboro.
        murfreesboro: Vec<Hex>,
        /// Fortress Rosecrans hexes: a wagon is removed there only while the hex's fort stands.
        fortress: Vec<Hex>,
    },
    /// Units of some commands may not enter hexes whose column (`XX`) is at most `max_column`
    /// until the turn is past the Last Turn of Winter (HSN Sc 9 Union Unit Restrictions (d)).
    /// Read by `Gcacw::barred`.
    CommandsBarred {
        /// The side.
        side: Side,
        /// Command abbreviations (e.g. `DE`, `DN`).
        commands: Vec<String>,
        /// Highest barred column.
        max_column: i16,
    },
    /// Map-edge exit hexes of each side (HSN-A 14.0): units there may march or retreat off the
    /// map and leave the game for good. Procedure: [`crate::exits`].
    ExitHexes {
        /// Union exit hexes.
        union: Vec<Hex>,
        /// Confederate exit hexes.
        confederate: Vec<Hex>,
    },
    /// The Victory Point Phase of the campaign (HSN Sc 9 VC): the per-phase awards are recorded
    /// each turn. Procedure: [`crate::vp_phase`].
    VictoryPointPhase,
    /// An undemoralized infantry division of `side` in one of `hexes` in a VP Phase ends the game
    /// at once with `result` (HSN Sc 9 Automatic Victory). Read by [`crate::vp_phase`].
    AutomaticVictory {
        /// The side that wins.
        side: Side,
        /// The hexes.
        hexes: Vec<Hex>,
        /// The victory level.
        result: String,
    },
    /// The Union Reinforcement Table (HSN-A 12.0): from the first turn of its arrival rows, one die
    /// each Reinforcement Phase gives the number of `group` sets made available. Procedure:
    /// `reinforcement`.
    UnionReinforcementTable {
        /// The arrival rows it governs.
        group: String,
        /// Results, as for an arrival table.
        results: Vec<ArrivalResult>,
        /// Turn modifiers.
        #[serde(default)]
        modifiers: Vec<TurnModifier>,
        /// Once this set has been made available in an earlier turn, `late_modifier` applies.
        late_set: u16,
        /// The modifier after `late_set`.
        late_modifier: i32,
    },
    /// The Union entry areas (HSN Sc 9 "Entry Areas"; HSN-A 9.0): an arrival row's
    /// `alternative_entry` hexes take infantry that arrives with a leader of its set, if a path
    /// along `railroad` joins the hex to `rail_to` clear of damaged or destroyed stations,
    /// Confederate ZOC, Confederate-occupied hexes and destroyed bridges. Procedure: `reinforcement`.
    UnionEntryAreas {
        /// The named railroad of the map.
        railroad: String,
        /// Where the path must reach.
        rail_to: Hex,
    },
    /// A reinforcement that is due from the first turn of its `group` rows, with no roll (HSN-A
    /// 13.0 Constant Reinforcement). Procedure: `reinforcement`.
    ConstantReinforcement {
        /// The arrival rows.
        group: String,
    },
    /// Variable reinforcements (HSN-A 13.0): from the first turn of the `group` rows, one die each
    /// Reinforcement Phase; a roll in `success` makes the lowest-numbered set left available.
    /// Procedure: `reinforcement`.
    VariableReinforcements {
        /// The arrival rows.
        group: String,
        /// Rolls that give a set.
        success: Vec<u8>,
    },
    /// Counters that never arrive once Lyon's Kentucky Raid has happened (HSN-A 2.2, 12.0, 13.0).
    /// Read by `reinforcement`.
    LyonRaidExclusions {
        /// The counters.
        counters: Vec<String>,
    },
    /// The Union Manpower Enhancement Phase (HSN-A 11.0). Procedure: `enhancement`.
    ManpowerEnhancement {
        /// First turn.
        first_turn: u16,
        /// Last turn.
        last_turn: u16,
        /// What each die roll allows.
        results: Vec<EnhancementResult>,
        /// Highest Manpower by type and size (HSN-A 7.2).
        caps: Vec<ManpowerCap>,
    },
    /// Union railroad movement (HSN-A 9.0). Procedure: `rail::general`.
    UnionRailMovement {
        /// The named railroad of the map the moves follow.
        railroad: String,
        /// Highest Fatigue Level to start a rail move.
        max_fatigue: u8,
        /// Fatigue Levels gained.
        fatigue: u8,
        /// Infantry Manpower that may move by rail per turn.
        manpower_per_turn: u8,
    },
    /// The Army Initiative level at the start (HSN-A 3.0): who wins tied initiative rolls, kept in
    /// `State::campaign` and changed by random events. Read by `sequence::initiative_winner`.
    ArmyInitiative {
        /// The level at the start.
        start: crate::campaign::ArmyInitiative,
    },
    /// The Winter Weather Phase and its table (HSN-A 4.0), by the procedure of `winter`.
    WinterWeather(crate::winter::WinterTable),
    /// The Random Events Phase and its table (HSN-A 2.0, 2.2), by the procedure of `events`.
    RandomEvents(crate::events::EventTable),
    /// Substitute units, detachment and the Attachment Phase (HSN-A 7.0–7.3): the substitute
    /// counters of each side and type, their Manpower limits, the attachment caps by unit size and
    /// the commands Union infantry may only attach within. Read by `substitute`.
    Substitutes(crate::substitute::SubstituteRule),
    /// The Union Cavalry Mounts procedure (HSN-A 5.0–5.4, Sc 9 reinforcements note): its turns,
    /// hexes, tables and the A/B counters. Read by [`crate::mounts`].
    UnionCavalryMounts(crate::mounts::MountRules),
    /// Any other rule, described in words.
    Rule,
}

/// One roll of the Union Manpower Enhancement table (HSN-A 11.0).
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct EnhancementResult {
    /// The die.
    pub roll: u8,
    /// Cavalry units that may gain one Manpower.
    #[serde(default)]
    pub cavalry: u8,
    /// Infantry units that may gain one Manpower.
    #[serde(default)]
    pub infantry: u8,
}

/// A Manpower cap (HSN-A 7.2 Attachment Restrictions, Size).
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct ManpowerCap {
    /// Unit type.
    #[serde(rename = "type")]
    pub ty: crate::catalog::CounterType,
    /// Unit size (`division`, `brigade`, `regiment`).
    pub size: String,
    /// Highest Manpower.
    pub max: u8,
}

/// The Blockhouse Table of HSN Scenario 5: one die, modified, read from the top row down.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct BlockhouseTable {
    /// Rows in order: the first whose `at_most` the modified roll does not exceed applies; a roll
    /// above every row destroys the blockhouse.
    pub rows: Vec<BlockhouseRow>,
    /// Modifier for each attack type.
    pub attack_type: BlockhouseTypeModifiers,
    /// Modifier when the attacking unit's Combat value is ½.
    pub half_combat: i32,
    /// Modifier when its Combat value is 2 or more.
    pub combat_two: i32,
    /// Modifier when its Artillery value is 2 or more.
    pub artillery_two: i32,
    /// Modifier when `leader` is stacked with the attacking unit.
    pub leader_bonus: i32,
    /// The leader of `leader_bonus`.
    pub leader: String,
}

/// A No Effect row of the Blockhouse Table.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct BlockhouseRow {
    /// Highest modified roll of the row.
    pub at_most: i32,
    /// Fatigue Levels the attacker gains.
    pub fatigue: u8,
}

/// Blockhouse Table modifiers by attack type.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct BlockhouseTypeModifiers {
    /// Column of route.
    pub column_of_route: i32,
    /// Hasty.
    pub hasty: i32,
    /// Normal.
    pub normal: i32,
    /// Prepared.
    pub prepared: i32,
}

/// A scenario special rule.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
pub struct SpecialRule {
    /// Title.
    pub title: String,
    /// Own-words summary.
    pub summary: String,
    /// Source.
    pub source: String,
    /// Parameters.
    #[serde(flatten)]
    pub kind: RuleKind,
}

/// A victory-point award.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Award {
    /// Slug.
    pub id: String,
    /// VP.
    pub vp: f64,
    /// Condition.
    pub text: String,
}

/// A victory level.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// Lowest VP.
    #[serde(default)]
    pub min: Option<f64>,
    /// Highest VP.
    #[serde(default)]
    pub max: Option<f64>,
    /// Result.
    pub result: String,
}

/// Victory conditions.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Victory {
    /// Whose VP are counted.
    pub side: Side,
    /// Source.
    pub source: String,
    /// Awards.
    #[serde(default)]
    pub award: Vec<Award>,
    /// Levels.
    #[serde(default)]
    pub level: Vec<Level>,
}

/// A scenario.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Id, e.g. `hsn-1`.
    pub id: String,
    /// Number in the rulebook.
    pub number: u16,
    /// Name.
    pub name: String,
    /// Date of Turn 1 (`YYYY-MM-DD`).
    pub first_date: String,
    /// Length in turns.
    pub turns: u16,
    /// `basic` or `advanced`.
    pub game: String,
    /// Source.
    pub source: String,
    /// Initiative rules.
    pub initiative: Initiative,
    /// Set-up.
    pub setup: Vec<SetupRow>,
    /// Markers.
    #[serde(default)]
    pub marker: Vec<MarkerRow>,
    /// Later arrivals.
    #[serde(default)]
    pub arrival: Vec<ArrivalRow>,
    /// Turn Track markers placed at the start.
    #[serde(default)]
    pub turn_marker: Vec<TurnMarker>,
    /// Special rules.
    #[serde(default)]
    pub special_rule: Vec<SpecialRule>,
    /// Victory conditions.
    pub victory: Victory,
}

impl Scenario {
    /// Parses and checks a scenario against the catalog and map.
    ///
    /// # Errors
    /// Syntax, unknown counters, off-map hexes, a counter set up twice; naming file and line.
    pub fn parse(text: &str, file: &str, catalog: &Catalog, map: &caisson_hexmap::Map) -> Result<Scenario, DataError> {
        let s: Scenario = parse_toml(text, file)?;
        let locate = |needle: &str| text.find(needle).unwrap_or(0);
        let mut seen = std::collections::BTreeSet::new();
        for row in &s.setup {
            let at = locate(&format!("\"{}\"", row.counter));
            if catalog.index(&row.counter).is_none() {
                return Err(DataError::at(
                    file,
                    text,
                    at,
                    format!("setup: counter `{}` is not in the counters file", row.counter),
                ));
            }
            if !map.contains(row.hex) {
                return Err(DataError::at(
                    file,
                    text,
                    at,
                    format!("setup `{}`: hex {} is not a playable hex of the map", row.counter, row.hex),
                ));
            }
            if !seen.insert(row.counter.as_str()) {
                return Err(DataError::at(file, text, at, format!("setup: counter `{}` is set up twice", row.counter)));
            }
            if row.fatigue > 4 || row.demoralized > 2 {
                return Err(DataError::at(
                    file,
                    text,
                    at,
                    format!("setup `{}`: fatigue 0–4 and demoralized 0–2", row.counter),
                ));
            }
        }
        for row in &s.arrival {
            if catalog.index(&row.counter).is_none() {
                let at = locate(&format!("\"{}\"", row.counter));
                return Err(DataError::at(
                    file,
                    text,
                    at,
                    format!("arrival: counter `{}` is not in the counters file", row.counter),
                ));
            }
        }
        for m in &s.turn_marker {
            if !(1..=s.turns).contains(&m.turn) {
                let at = locate(&format!("\"{}\"", m.text));
                return Err(DataError::at(
                    file,
                    text,
                    at,
                    format!("turn_marker `{}`: turn {} is not a turn of the scenario (1–{})", m.text, m.turn, s.turns),
                ));
            }
        }
        Ok(s)
    }

    /// Special rules of one kind.
    pub fn rules(&self) -> impl Iterator<Item = &RuleKind> {
        self.special_rule.iter().map(|r| &r.kind)
    }
}
