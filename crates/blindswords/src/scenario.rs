//! [EX 16.0-16.4] Scenario files (`data/perryville/scenarios/pv-16-*.toml`): length and clock,
//! map area, chits, set-ups, On Hold lists, reinforcements, markers, special rules as typed kinds,
//! and victory conditions. Parsed, then checked against the [`Catalog`].

use std::collections::BTreeSet;

use caisson_hexmap::{Hex, HexRange};
use caisson_kernel::data::{parse_toml, DataDir, DataError};
use serde::Deserialize;

use crate::catalog::{Catalog, ChitKind, Side, Unit, UnitType};

/// The scenarios of Grand Havoc: Perryville, in rulebook order.
pub const SCENARIOS: [&str; 5] = ["pv-16-0", "pv-16-1", "pv-16-2", "pv-16-3", "pv-16-4"];

/// The printed grid: columns 10-40, rows 00-40, ids `CCRR` (digest §6.1).
pub const GRID_COLS: (i16, i16) = (10, 40);
/// See [`GRID_COLS`].
pub const GRID_ROWS: (i16, i16) = (0, 40);

/// Whether a hex lies inside the printed grid.
#[must_use]
pub fn in_grid(hex: Hex) -> bool {
    (GRID_COLS.0..=GRID_COLS.1).contains(&hex.col) && (GRID_ROWS.0..=GRID_ROWS.1).contains(&hex.row)
}

/// The part of the map in play (EX 16.0c).
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Area {
    /// First and last column.
    pub cols: [i16; 2],
    /// First and last row.
    pub rows: [i16; 2],
    /// The Broken Track box of a unit that cannot retreat without leaving the area.
    #[serde(default)]
    pub retreat_blocked_box: Option<u8>,
    /// Source.
    pub source: String,
}

impl Area {
    /// Whether a hex is in play.
    #[must_use]
    pub fn contains(&self, hex: Hex) -> bool {
        (self.cols[0]..=self.cols[1]).contains(&hex.col) && (self.rows[0]..=self.rows[1]).contains(&hex.row)
    }
}

/// The chits of a scenario at the start (SR 5.0; EX 5.1, 5.2).
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct ChitSetup {
    /// Activation and CIC chits in the cup each turn from the start.
    pub activation: Vec<String>,
    /// Activation chits set aside until a reinforcement or release brings them in.
    #[serde(default)]
    pub set_aside: Vec<String>,
    /// Chits held by their owners at the start.
    #[serde(default)]
    pub held: Vec<String>,
    /// The event chits in play, both sides.
    pub events: Vec<String>,
    /// Key Chits per side per turn (EX 5.1).
    pub key: u8,
    /// Random event chits per side per turn (EX 5.2).
    pub random: u8,
    /// Wild chits.
    pub wild: Vec<String>,
    /// Source.
    pub source: String,
}

/// Brigades and units On Hold at the start (EX 7.5).
#[derive(Clone, Debug, Default, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct OnHold {
    /// Brigades.
    pub brigades: Vec<String>,
    /// Units outside those brigades (Sheridan's artillery).
    #[serde(default)]
    pub units: Vec<String>,
    /// Source.
    pub source: String,
}

/// A marker on a unit at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// In Skirmish Order (EX 15.0).
    Skirmish,
    /// Shaken (SR 12.5).
    Shaken,
}

/// One set-up line: a unit or a whole brigade, at a hex or within some hexes of one.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// A unit id.
    #[serde(default)]
    pub unit: Option<String>,
    /// A brigade id: every unit of the brigade not set up by a line of its own.
    #[serde(default)]
    pub brigade: Option<String>,
    /// The exact hex.
    #[serde(default)]
    pub hex: Option<Hex>,
    /// The centre of a "within N hexes of" placement, made by the owner at set-up (EX 16.0).
    #[serde(default)]
    pub near: Option<Hex>,
    /// The N of "within N hexes of".
    #[serde(default)]
    pub within: Option<u16>,
    /// A marker on the unit.
    #[serde(default)]
    pub status: Option<Status>,
    /// Source.
    pub source: String,
}

/// Where a set-up line puts its units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// This hex.
    Hex(Hex),
    /// Any hex within `radius` of `center` the owner picks, within stacking and EX 3.1a.
    Within {
        /// Centre.
        center: Hex,
        /// Distance, inclusive.
        radius: u16,
    },
}

impl Setup {
    /// The placement (`None` only for a line that [`Scenario::parse`] refuses).
    #[must_use]
    pub fn placement(&self) -> Option<Placement> {
        match (self.hex, self.near, self.within) {
            (Some(h), None, None) => Some(Placement::Hex(h)),
            (None, Some(center), Some(radius)) => Some(Placement::Within { center, radius }),
            _ => None,
        }
    }
}

/// What brings a reinforcement in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Trigger {
    /// Its turn.
    #[default]
    Turn,
    /// Its release (Buell Track, EX 14.2), not before its turn if it has one.
    Released,
    /// The release of the first II Corps unit (EX 16.1c).
    IiCorpsReleased,
    /// The arrival of the first II Corps unit (EX 16.2e, 16.4f).
    IiCorpsEnters,
}

/// Units that enter after the start.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Reinforcement {
    /// Earliest turn.
    #[serde(default)]
    pub turn: Option<u16>,
    /// The clock time of that turn, as printed.
    #[serde(default)]
    pub time: Option<String>,
    /// Units.
    #[serde(default)]
    pub units: Vec<String>,
    /// Whole brigades.
    #[serde(default)]
    pub brigades: Vec<String>,
    /// Chits added to the cup with them.
    #[serde(default)]
    pub chits: Vec<String>,
    /// What brings them in.
    #[serde(default)]
    pub trigger: Trigger,
    /// Entry hexes.
    #[serde(default)]
    pub entry: Vec<HexRange>,
    /// Or placed within `within` hexes of `near`.
    #[serde(default)]
    pub near: Option<Hex>,
    /// See `near`.
    #[serde(default)]
    pub within: Option<u16>,
    /// If `near` is held by the enemy: any free hex within this distance of a Perryville hex.
    #[serde(default)]
    pub fallback_town_within: Option<u16>,
    /// At most this many brigades enter per turn.
    #[serde(default)]
    pub max_brigades_per_turn: Option<u8>,
    /// Entry hexes from `later_from_turn` on.
    #[serde(default)]
    pub later_entry: Vec<HexRange>,
    /// See `later_entry`.
    #[serde(default)]
    pub later_from_turn: Option<u16>,
    /// Source.
    pub source: String,
}

/// A marker placed at the start.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Marker {
    /// Kind (`control`).
    pub kind: MarkerKind,
    /// Owner.
    pub side: Side,
    /// Hex.
    pub hex: Hex,
    /// Source.
    pub source: String,
}

/// Kinds of start marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MarkerKind {
    /// Control of an objective (EX 16.0 preamble).
    Control,
}

/// What a Fog of War roll of 6 does in a scenario that changes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FogSix {
    /// Nothing (EX 16.0a).
    NoEffect,
    /// The Union player fully activates any brigade, as a CIC chit used at once (EX 16.4e).
    BuellCommands,
}

/// A modifier to the Union activation roll for a number of Union DACs in the cup (EX 16.4c).
#[derive(Clone, Copy, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct ChitPenalty {
    /// DACs in the cup.
    pub chits: u8,
    /// Added to the roll.
    pub modifier: i8,
}

/// A scenario special rule's parameters, by kind.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum RuleKind {
    /// No Artillery Phase on these turns (EX 16.0b).
    NoArtilleryPhase {
        /// Turns.
        turns: Vec<u16>,
    },
    /// A chit's activation succeeds without a roll on these turns (EX 16.0b, 16.2c; A-41).
    AutoActivation {
        /// The chit.
        chit: String,
        /// Turns.
        turns: Vec<u16>,
    },
    /// A unit may take a Maneuver order whatever its brigade's order or roll (EX 16.0b).
    FreeManeuver {
        /// The unit.
        unit: String,
        /// Turns.
        turns: Vec<u16>,
    },
    /// The Fog of War table's 6 reads differently (EX 16.0a, 16.4e).
    FogOfWarSix {
        /// What it does.
        result: FogSix,
    },
    /// A side is played by the Command Confusion roll instead of a player (EX 16.0d).
    SoloBot {
        /// The side the bot plays.
        side: Side,
        /// Its division chit, drawn without an activation roll.
        chit: String,
        /// The brigade whose orders the roll sets.
        brigade: String,
        /// Every event chit of the side goes in the cup each turn.
        all_events_in_cup: bool,
    },
    /// Brigades On Hold until a Union unit moves near a hex or near Perryville (EX 16.1b).
    OnHoldTrigger {
        /// The brigades.
        brigades: Vec<String>,
        /// The hex.
        union_near: Hex,
        /// Distance from it.
        union_within: u16,
        /// Distance from a Perryville town hex.
        town_within: u16,
    },
    /// Brigades released at the start of a turn if still On Hold (EX 16.1b).
    TimedRelease {
        /// The brigades.
        brigades: Vec<String>,
        /// The turn.
        turn: u16,
    },
    /// Units of some types may not enter the hexes west of a column and north of a row until a
    /// hex and its neighbours hold no enemy unit (EX 16.1d; A-33).
    ProhibitedUntilClear {
        /// The side restricted.
        side: Side,
        /// Unit types restricted.
        types: Vec<UnitType>,
        /// Columns below this one.
        west_of: i16,
        /// Rows below this one.
        north_of: i16,
        /// The hex that must be clear, with its neighbours.
        clear_hex: Hex,
    },
    /// A modifier to a side's activation rolls on some turns (EX 16.1e).
    ActivationModifier {
        /// The side.
        side: Side,
        /// Added to the roll (negative makes activation likelier).
        value: i8,
        /// Turns.
        turns: Vec<u16>,
    },
    /// The game ends at once on a roll when a unit is broken (EX 16.1f, optional).
    GameEndsOnRoll {
        /// The unit.
        unit: String,
        /// The roll that ends it.
        roll: u8,
    },
    /// Night turns after the last daylight turn (EX 16.1g, optional).
    Night {
        /// How many.
        extra_turns: u16,
        /// Their clock times.
        clock: Vec<String>,
        /// Where the times come from.
        clock_source: String,
        /// Line of sight, in hexes.
        los_max: u16,
        /// Multiplier of terrain costs off roads.
        off_road_cost: u8,
        /// Whether units may receive Unit Support.
        support: bool,
    },
    /// The secret Crittenden's Right Hook marker (EX 16.3).
    RightHook {
        /// The last turn it may be revealed.
        reveal_by_turn: u16,
        /// The side awarded VP on the reveal.
        vp_side: Side,
        /// How many.
        vp: u16,
        /// Turns the Buell Marker is moved ahead on the turn track.
        buell_turns_ahead: u16,
        /// Chits removed from the game.
        remove_chits: Vec<String>,
        /// Chits put in the cup.
        add_chits: Vec<String>,
        /// The brigades that then enter.
        brigades: Vec<String>,
        /// Brigades per turn.
        max_brigades_per_turn: u8,
        /// Entry hexes.
        entry: Vec<HexRange>,
        /// Entry hexes from `later_from_turn`.
        later_entry: Vec<HexRange>,
        /// See `later_entry`.
        later_from_turn: u16,
    },
    /// The Union may add, remove or swap one DAC a turn; more than `free` in the cup worsen the
    /// Union activation roll (EX 16.4c).
    DivisionChitLimit {
        /// DACs with no penalty.
        free: u8,
        /// Penalties.
        penalties: Vec<ChitPenalty>,
    },
    /// No Buell roll or track (EX 16.4d).
    NoBuellTrack,
    /// Units may leave the map at some hexes and their neighbours from a turn on (EX 16.4g).
    ExitHexes {
        /// First turn.
        from_turn: u16,
        /// The hexes.
        hexes: Vec<Hex>,
        /// Whether hexes adjacent to them also serve.
        adjacent: bool,
        /// A hex that, held by the enemy, stops `blocked_side` exiting.
        blocker: Hex,
        /// See `blocker`.
        blocked_side: Side,
        /// Whether a retreat off the map there counts as an exit.
        retreat_counts: bool,
    },
}

/// A special rule.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
pub struct SpecialRule {
    /// Title.
    pub title: String,
    /// Rulebook section, e.g. `16.1b`.
    pub section: String,
    /// An optional rule, off unless the players choose it.
    #[serde(default)]
    pub optional: bool,
    /// Parameters.
    #[serde(flatten)]
    pub kind: RuleKind,
}

/// A per-turn VP hex (EX 16.1, 16.2; SR 14.2).
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct TurnHex {
    /// Hex.
    pub hex: Hex,
    /// Name.
    pub name: String,
    /// VP a turn.
    pub vp: u16,
}

/// A condition on an end objective.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ObjectiveCondition {
    /// Only if a brigade of the Union II Corps has entered the map (3440).
    IiCorpsEntered,
}

/// An end-of-battle objective.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Objective {
    /// The side it scores for.
    pub side: Side,
    /// Hex.
    pub hex: Hex,
    /// VP.
    pub vp: u16,
    /// Condition.
    #[serde(default)]
    pub only_if: Option<ObjectiveCondition>,
}

/// A victory level by VP margin.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// Smallest margin.
    pub margin: u16,
    /// Name.
    pub name: String,
}

/// The Sudden Death rule (EX 16.1).
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct SuddenDeath {
    /// Per-turn hexes held.
    pub per_turn_hexes: u8,
    /// Own end objectives held.
    pub objectives: u8,
    /// Source.
    pub source: String,
}

/// What a result is when both or neither side meets its conditions (EX 16.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// A draw.
    Draw,
}

/// Victory conditions.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Victory {
    /// A side wins by controlling `need` of `hexes` at the end; otherwise the other side wins (EX 16.0).
    Control {
        /// Source.
        source: String,
        /// The side.
        side: Side,
        /// The hexes.
        hexes: Vec<Hex>,
        /// How many.
        need: u8,
        /// The winner otherwise.
        otherwise: Side,
    },
    /// Victory points: per-turn hexes, end objectives, losses; levels by margin (EX 16.1, 16.2).
    Points {
        /// Source.
        source: String,
        /// Per-turn VP hexes.
        per_turn: Vec<TurnHex>,
        /// End objectives.
        objective: Vec<Objective>,
        /// A unit with at least this starting CR costs VP when eliminated or broken.
        loss_min_cr: u8,
        /// VP per such unit.
        loss_vp: u16,
        /// Source of the loss rule.
        loss_source: String,
        /// Margins below this are a draw.
        draw_below: u16,
        /// Levels, by smallest margin.
        levels: Vec<Level>,
        /// Source of the levels.
        levels_source: String,
        /// Sudden Death.
        #[serde(default)]
        sudden_death: Option<SuddenDeath>,
    },
    /// EX 16.4: the Union holds `union_need` of `union_hexes` and exits more units; the
    /// Confederates have `ratio` times the Union's broken and eliminated units, or exit `ratio`
    /// times as many units.
    GreatDay {
        /// Source.
        source: String,
        /// Union hexes.
        union_hexes: Vec<Hex>,
        /// Source of the hexes.
        union_hexes_source: String,
        /// How many the Union must hold.
        union_need: u8,
        /// The Confederate ratio.
        ratio: u8,
        /// Both sides meet their conditions.
        both: Outcome,
        /// Neither does.
        neither: Outcome,
        /// Source of `neither`.
        neither_source: String,
    },
}

/// One scenario.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Id, e.g. `pv-16-1`.
    pub id: String,
    /// Rulebook section.
    pub section: String,
    /// Name.
    pub name: String,
    /// Source.
    pub source: String,
    /// Length in turns.
    pub turns: u16,
    /// The clock time of each turn.
    pub clock: Vec<String>,
    /// Where the times come from.
    pub clock_source: String,
    /// Who acts first (SR 6.1, 7.1).
    pub first_player: Side,
    /// Source.
    pub first_player_source: String,
    /// Who sets up first, when the scenario says.
    #[serde(default)]
    pub sets_up_first: Option<Side>,
    /// The Buell Alert Track box of the Buell Marker at the start (EX 2.12); none: not used.
    #[serde(default)]
    pub buell_box: Option<String>,
    /// Map area in play.
    pub area: Area,
    /// Chits.
    pub chits: ChitSetup,
    /// On Hold at the start.
    pub on_hold: OnHold,
    /// Set-up.
    pub setup: Vec<Setup>,
    /// Reinforcements.
    #[serde(default)]
    pub reinforcement: Vec<Reinforcement>,
    /// Markers.
    #[serde(default)]
    pub marker: Vec<Marker>,
    /// Special rules.
    #[serde(default)]
    pub special_rule: Vec<SpecialRule>,
    /// Victory conditions.
    pub victory: Victory,
}

/// How a unit comes into a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// By the set-up line with this index.
    Setup(usize),
    /// By the reinforcement with this index.
    Reinforcement(usize),
}

struct Check<'a> {
    file: &'a str,
    text: &'a str,
}

impl Check<'_> {
    /// An error at the first occurrence of `needle` in the file (or at its start).
    fn err(&self, needle: &str, message: String) -> DataError {
        DataError::at(self.file, self.text, self.text.find(needle).unwrap_or(0), message)
    }
}

impl Scenario {
    /// Loads one scenario by id from a game's folder.
    ///
    /// # Errors
    /// The file is missing or invalid, naming file, line and field.
    pub fn load(dir: &DataDir, id: &str, catalog: &Catalog) -> Result<Scenario, DataError> {
        let p = dir.join("scenarios").join(&format!("{id}.toml"));
        Scenario::parse(&p.read()?, &p.display(), catalog)
    }

    /// Loads every scenario of [`SCENARIOS`].
    ///
    /// # Errors
    /// As [`Scenario::load`].
    pub fn load_all(dir: &DataDir, catalog: &Catalog) -> Result<Vec<Scenario>, DataError> {
        SCENARIOS.iter().map(|id| Scenario::load(dir, id, catalog)).collect()
    }

    /// Parses and checks a scenario against the catalog.
    ///
    /// # Errors
    /// Syntax; unknown units, brigades or chits; a unit brought in twice; hexes off the grid or
    /// outside the area; turns outside the scenario; naming file, line and field.
    pub fn parse(text: &str, file: &str, catalog: &Catalog) -> Result<Scenario, DataError> {
        let s: Scenario = parse_toml(text, file)?;
        let c = Check { file, text };
        s.check_turns(&c)?;
        s.check_chits(&c, catalog)?;
        s.check_units(&c, catalog)?;
        s.check_cup(&c, catalog)?;
        s.check_rules(&c, catalog)?;
        s.check_victory(&c)?;
        Ok(s)
    }

    fn turn_ok(&self, turn: u16) -> bool {
        (1..=self.turns).contains(&turn)
    }

    fn check_turns(&self, c: &Check) -> Result<(), DataError> {
        if self.turns == 0 || self.clock.len() != usize::from(self.turns) {
            return Err(c.err(
                "clock =",
                format!("field `clock`: {} times for {} turns (one a turn)", self.clock.len(), self.turns),
            ));
        }
        let a = &self.area;
        let corners = [Hex::new(a.cols[0], a.rows[0]), Hex::new(a.cols[1], a.rows[1])];
        if a.cols[0] > a.cols[1] || a.rows[0] > a.rows[1] || !corners.iter().all(|&h| in_grid(h)) {
            return Err(c.err(
                "[area]",
                "area: field `cols`/`rows`: must be ordered and inside columns 10-40, rows 00-40".into(),
            ));
        }
        for m in &self.marker {
            if !in_grid(m.hex) {
                return Err(
                    c.err(&format!("hex = \"{}\"", m.hex), format!("marker: field `hex`: {} is off the grid", m.hex))
                );
            }
        }
        Ok(())
    }

    fn check_chits(&self, c: &Check, catalog: &Catalog) -> Result<(), DataError> {
        let ch = &self.chits;
        let mut seen = BTreeSet::new();
        let lists: [(&str, &Vec<String>, &[ChitKind]); 5] = [
            ("activation", &ch.activation, &[ChitKind::Cic, ChitKind::Division, ChitKind::Brigade]),
            ("set_aside", &ch.set_aside, &[ChitKind::Cic, ChitKind::Division, ChitKind::Brigade]),
            ("held", &ch.held, &[ChitKind::Cic, ChitKind::Event]),
            ("events", &ch.events, &[ChitKind::Event]),
            ("wild", &ch.wild, &[ChitKind::Wild]),
        ];
        for (field, ids, kinds) in lists {
            for id in ids {
                let at = |m: String| c.err(&format!("\"{id}\""), m);
                let Some(chit) = catalog.chit(id) else {
                    return Err(at(format!("chits: field `{field}`: unknown chit `{id}`")));
                };
                if !kinds.contains(&chit.kind) {
                    return Err(at(format!("chits: field `{field}`: `{id}` is a {:?} chit", chit.kind)));
                }
                if field != "events" && field != "held" && !seen.insert(id.as_str()) {
                    return Err(at(format!("chits: field `{field}`: chit `{id}` is listed twice")));
                }
            }
        }
        for side in Side::BOTH {
            let n = ch.events.iter().filter(|e| catalog.chit(e).is_some_and(|x| x.side.side() == Some(side))).count();
            if usize::from(ch.key) + usize::from(ch.random) > n {
                return Err(c.err(
                    "random =",
                    format!(
                        "chits: field `random`: {} key and {} random events, but {side} has {n}",
                        ch.key, ch.random
                    ),
                ));
            }
        }
        for r in &self.reinforcement {
            for id in &r.chits {
                if catalog.chit(id).is_none() {
                    return Err(
                        c.err(&format!("\"{id}\""), format!("reinforcement: field `chits`: unknown chit `{id}`"))
                    );
                }
            }
        }
        Ok(())
    }

    /// EX 7.5a: an activation chit in the cup at the start needs a brigade of its command on the
    /// map at the start and not On Hold (a CIC chit needs one of its wing).
    fn check_cup(&self, c: &Check, catalog: &Catalog) -> Result<(), DataError> {
        let active: BTreeSet<&str> = self
            .units(catalog)
            .into_iter()
            .filter(|(_, st)| matches!(st, Start::Setup(_)))
            .filter_map(|(u, _)| u.brigade.as_deref())
            .filter(|b| !self.on_hold.brigades.iter().any(|h| h == b))
            .collect();
        for id in &self.chits.activation {
            let Some(chit) = catalog.chit(id) else { continue };
            let command = chit.command.as_deref().unwrap_or_default();
            let fits = |b: &&str| {
                catalog.brigade(b).is_some_and(|x| match chit.kind {
                    ChitKind::Division => x.division.as_deref() == Some(command),
                    ChitKind::Brigade => x.id == command,
                    _ => x.wing == command,
                })
            };
            if !active.iter().any(fits) {
                return Err(c.err(
                    "activation =",
                    format!("chits: field `activation`: `{id}` is in the cup but none of its brigades is on the map and released at the start (EX 7.5a)"),
                ));
            }
        }
        Ok(())
    }

    fn check_hex(&self, c: &Check, what: &str, hex: Hex) -> Result<(), DataError> {
        if !in_grid(hex) {
            return Err(
                c.err(&format!("\"{hex}\""), format!("{what}: hex {hex} is off the grid (columns 10-40, rows 00-40)"))
            );
        }
        Ok(())
    }

    fn check_units(&self, c: &Check, catalog: &Catalog) -> Result<(), DataError> {
        let brig = |id: &str, field: &str| {
            if catalog.brigade(id).is_some() {
                Ok(())
            } else {
                Err(c.err(&format!("\"{id}\""), format!("{field}: unknown brigade `{id}`")))
            }
        };
        let unit = |id: &str, field: &str| {
            if catalog.unit(id).is_some() {
                Ok(())
            } else {
                Err(c.err(&format!("\"{id}\""), format!("{field}: unknown unit `{id}`")))
            }
        };
        for b in &self.on_hold.brigades {
            brig(b, "on_hold: field `brigades`")?;
        }
        for u in &self.on_hold.units {
            unit(u, "on_hold: field `units`")?;
        }
        for row in &self.setup {
            let (key, label) = match (&row.unit, &row.brigade) {
                (Some(u), _) => ("unit", u.as_str()),
                (None, Some(b)) => ("brigade", b.as_str()),
                (None, None) => ("unit", "?"),
            };
            let at = c.text.find(&format!("{key} = \"{label}\"")).unwrap_or(0);
            let err = |m: String| DataError::at(c.file, c.text, at, m);
            match (&row.unit, &row.brigade) {
                (Some(u), None) => unit(u, "setup: field `unit`")?,
                (None, Some(b)) => brig(b, "setup: field `brigade`")?,
                _ => return Err(err("setup: give one of the fields `unit` and `brigade`".into())),
            }
            let hex = match row.placement() {
                Some(Placement::Hex(h) | Placement::Within { center: h, .. }) => h,
                None => return Err(err(format!("setup `{label}`: give the field `hex`, or both `near` and `within`"))),
            };
            if !in_grid(hex) || !self.area.contains(hex) {
                let field = if row.hex.is_some() { "hex" } else { "near" };
                let line = c.text[at..].find(&format!("{field} =")).map_or(at, |o| at + o);
                return Err(DataError::at(
                    c.file,
                    c.text,
                    line,
                    format!("setup `{label}`: field `{field}`: {hex} is off the grid or outside the scenario's area"),
                ));
            }
        }
        for r in &self.reinforcement {
            for u in &r.units {
                unit(u, "reinforcement: field `units`")?;
            }
            for b in &r.brigades {
                brig(b, "reinforcement: field `brigades`")?;
            }
            let (key, label) = match (r.units.first(), r.brigades.first()) {
                (Some(u), _) => ("units", u.as_str()),
                (None, Some(b)) => ("brigades", b.as_str()),
                (None, None) => ("units", ""),
            };
            let at = c.text.find(&format!("{key} = [\"{label}\"")).unwrap_or(0);
            let err = |m: String| DataError::at(c.file, c.text, at, m);
            if let Some(t) = r.turn {
                if !self.turn_ok(t) {
                    return Err(err(format!(
                        "reinforcement `{label}`: field `turn`: {t} is not a turn of the scenario (1-{})",
                        self.turns
                    )));
                }
                if let Some(time) = &r.time {
                    let clock = &self.clock[usize::from(t) - 1];
                    if time != clock {
                        return Err(err(format!(
                            "reinforcement `{label}`: field `time`: {time} but turn {t} is {clock}"
                        )));
                    }
                }
            }
            if r.trigger == Trigger::Turn && r.turn.is_none() {
                return Err(err(format!(
                    "reinforcement `{label}`: field `turn`: needed unless a `trigger` brings it in"
                )));
            }
            if r.later_entry.is_empty() != r.later_from_turn.is_none() {
                return Err(err(format!(
                    "reinforcement `{label}`: give both `later_entry` and `later_from_turn`, or neither"
                )));
            }
            if r.later_from_turn.is_some_and(|t| !self.turn_ok(t)) {
                return Err(err(format!(
                    "reinforcement `{label}`: field `later_from_turn`: not a turn of the scenario"
                )));
            }
            let placed = !r.entry.is_empty() || (r.near.is_some() && r.within.is_some());
            if !placed {
                return Err(err(format!("reinforcement `{label}`: give the field `entry`, or `near` and `within`")));
            }
            for h in r.entry.iter().chain(&r.later_entry).flat_map(|x| [x.from, x.to]).chain(r.near) {
                if !in_grid(h) {
                    return Err(err(format!(
                        "reinforcement `{label}`: hex {h} is off the grid (columns 10-40, rows 00-40)"
                    )));
                }
            }
        }
        let mut brigades = BTreeSet::new();
        for b in self
            .setup
            .iter()
            .filter_map(|r| r.brigade.as_deref())
            .chain(self.reinforcement.iter().flat_map(|r| r.brigades.iter().map(String::as_str)))
        {
            if !brigades.insert(b) {
                let needle = [format!("brigade = \"{b}\""), format!("\"{b}\"")]
                    .into_iter()
                    .find(|n| c.text.contains(n.as_str()));
                return Err(c.err(&needle.unwrap_or_default(), format!("brigade `{b}` comes into the scenario twice")));
            }
        }
        // Each unit comes in once.
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        for (u, _) in self.units(catalog) {
            if !seen.insert(u.id.as_str()) {
                // Brigade lines leave out the units named by themselves, so a unit comes in twice
                // only when two lines name it: the error points at the first.
                return Err(c.err(
                    &format!("\"{}\"", u.id),
                    format!("unit `{}` comes into the scenario twice (set-up and reinforcement lines)", u.id),
                ));
            }
        }
        // What is On Hold must be in the scenario.
        let held =
            self.on_hold.brigades.iter().map(|b| (b, catalog.brigade_units(b).any(|u| seen.contains(u.id.as_str()))));
        let held = held.chain(self.on_hold.units.iter().map(|u| (u, seen.contains(u.as_str()))));
        if let Some((id, _)) = held.into_iter().find(|(_, present)| !present) {
            let at = c.text.find("[on_hold]").unwrap_or(0);
            return Err(DataError::at(
                c.file,
                c.text,
                at,
                format!("on_hold: `{id}` is On Hold but no set-up or reinforcement line brings it in"),
            ));
        }
        // EX 15.0: at most two units of a side in Skirmish Order.
        for side in Side::BOTH {
            let skirmishers = self
                .units(catalog)
                .into_iter()
                .filter(|(u, st)| {
                    u.side == side && matches!(st, Start::Setup(i) if self.setup[*i].status == Some(Status::Skirmish))
                })
                .count();
            if skirmishers > 2 {
                return Err(c.err(
                    "status = \"skirmish\"",
                    format!("setup: field `status`: {skirmishers} {side} units in Skirmish Order, at most 2 (EX 15.0)"),
                ));
            }
        }
        Ok(())
    }

    /// Whether a set-up or reinforcement line names the unit itself.
    fn names_unit(&self, id: &str) -> bool {
        self.setup.iter().any(|r| r.unit.as_deref() == Some(id))
            || self.reinforcement.iter().any(|r| r.units.iter().any(|u| u == id))
    }

    fn check_rules(&self, c: &Check, catalog: &Catalog) -> Result<(), DataError> {
        for rule in &self.special_rule {
            let at = c.text.find(&format!("title = \"{}\"", rule.title)).unwrap_or(0);
            let err = |m: String| DataError::at(c.file, c.text, at, format!("special_rule {}: {m}", rule.section));
            let turns_ok = |turns: &[u16]| match turns.iter().find(|t| !self.turn_ok(**t)) {
                Some(t) => Err(err(format!("field `turns`: {t} is not a turn of the scenario (1-{})", self.turns))),
                None => Ok(()),
            };
            let unit_ok =
                |u: &str| catalog.unit(u).map(|_| ()).ok_or_else(|| err(format!("field `unit`: unknown unit `{u}`")));
            let chit_ok = |ids: &[String]| match ids.iter().find(|x| catalog.chit(x).is_none()) {
                Some(x) => Err(err(format!("unknown chit `{x}`"))),
                None => Ok(()),
            };
            let brigades_ok = |ids: &[String]| match ids.iter().find(|x| catalog.brigade(x).is_none()) {
                Some(x) => Err(err(format!("field `brigades`: unknown brigade `{x}`"))),
                None => Ok(()),
            };
            let hexes_ok = |hs: &[Hex]| match hs.iter().find(|h| !in_grid(**h)) {
                Some(h) => Err(err(format!("hex {h} is off the grid (columns 10-40, rows 00-40)"))),
                None => Ok(()),
            };
            match &rule.kind {
                RuleKind::NoArtilleryPhase { turns } => turns_ok(turns)?,
                RuleKind::AutoActivation { chit, turns } => {
                    chit_ok(std::slice::from_ref(chit))?;
                    turns_ok(turns)?;
                }
                RuleKind::FreeManeuver { unit, turns } => {
                    unit_ok(unit)?;
                    turns_ok(turns)?;
                }
                RuleKind::FogOfWarSix { .. } | RuleKind::NoBuellTrack => {}
                RuleKind::SoloBot { chit, brigade, .. } => {
                    chit_ok(std::slice::from_ref(chit))?;
                    brigades_ok(std::slice::from_ref(brigade))?;
                }
                RuleKind::OnHoldTrigger { brigades, union_near, .. } => {
                    brigades_ok(brigades)?;
                    hexes_ok(&[*union_near])?;
                }
                RuleKind::TimedRelease { brigades, turn } => {
                    brigades_ok(brigades)?;
                    turns_ok(&[*turn])?;
                }
                RuleKind::ProhibitedUntilClear { clear_hex, .. } => hexes_ok(&[*clear_hex])?,
                RuleKind::ActivationModifier { turns, .. } => turns_ok(turns)?,
                RuleKind::GameEndsOnRoll { unit, roll } => {
                    unit_ok(unit)?;
                    if !(1..=6).contains(roll) {
                        return Err(err("field `roll`: a die roll runs 1-6".into()));
                    }
                }
                RuleKind::Night { extra_turns, clock, .. } => {
                    if clock.len() != usize::from(*extra_turns) {
                        return Err(err("field `clock`: one time per night turn".into()));
                    }
                }
                RuleKind::RightHook {
                    reveal_by_turn,
                    remove_chits,
                    add_chits,
                    brigades,
                    entry,
                    later_entry,
                    later_from_turn,
                    ..
                } => {
                    turns_ok(&[*reveal_by_turn, *later_from_turn])?;
                    chit_ok(remove_chits)?;
                    chit_ok(add_chits)?;
                    brigades_ok(brigades)?;
                    let hs: Vec<Hex> = entry.iter().chain(later_entry).flat_map(|r| [r.from, r.to]).collect();
                    hexes_ok(&hs)?;
                }
                RuleKind::DivisionChitLimit { .. } => {}
                RuleKind::ExitHexes { from_turn, hexes, blocker, .. } => {
                    turns_ok(&[*from_turn])?;
                    hexes_ok(hexes)?;
                    hexes_ok(&[*blocker])?;
                }
            }
        }
        Ok(())
    }

    fn check_victory(&self, c: &Check) -> Result<(), DataError> {
        let at = c.text.find("[victory]").unwrap_or(0);
        let err = |m: String| DataError::at(c.file, c.text, at, format!("victory: {m}"));
        let hexes: Vec<Hex> = match &self.victory {
            Victory::Control { hexes, need, .. } => {
                if usize::from(*need) > hexes.len() {
                    return Err(err(format!("field `need`: {need} of {} hexes", hexes.len())));
                }
                hexes.clone()
            }
            Victory::Points { per_turn, objective, levels, draw_below, .. } => {
                if levels.first().is_none_or(|l| l.margin != *draw_below)
                    || levels.windows(2).any(|w| w[0].margin >= w[1].margin)
                {
                    return Err(err("field `levels`: margins must rise, the first at `draw_below`".into()));
                }
                per_turn.iter().map(|t| t.hex).chain(objective.iter().map(|o| o.hex)).collect()
            }
            Victory::GreatDay { union_hexes, union_need, .. } => {
                if usize::from(*union_need) > union_hexes.len() {
                    return Err(err(format!("field `union_need`: {union_need} of {} hexes", union_hexes.len())));
                }
                union_hexes.clone()
            }
        };
        for h in hexes {
            self.check_hex(c, "victory", h)?;
        }
        Ok(())
    }

    /// Every unit of the scenario with how it comes in: set-up lines first, then reinforcements.
    /// A brigade line stands for the brigade's units that no line names by themselves.
    #[must_use]
    pub fn units<'a>(&self, catalog: &'a Catalog) -> Vec<(&'a Unit, Start)> {
        let mut out = Vec::new();
        let expand = |brigade: &str, out: &mut Vec<(&'a Unit, Start)>, start: Start| {
            for u in catalog.brigade_units(brigade).filter(|u| !self.names_unit(&u.id)) {
                out.push((u, start));
            }
        };
        for (i, row) in self.setup.iter().enumerate() {
            if let Some(u) = row.unit.as_deref().and_then(|u| catalog.unit(u)) {
                out.push((u, Start::Setup(i)));
            }
            if let Some(b) = &row.brigade {
                expand(b, &mut out, Start::Setup(i));
            }
        }
        for (i, r) in self.reinforcement.iter().enumerate() {
            for u in r.units.iter().filter_map(|u| catalog.unit(u)) {
                out.push((u, Start::Reinforcement(i)));
            }
            for b in &r.brigades {
                expand(b, &mut out, Start::Reinforcement(i));
            }
        }
        out
    }

    /// The reconstructed parts of the scenario (sources that start with `reconstructed`): what a
    /// player who owns the game may want to check against the printed scenario.
    #[must_use]
    pub fn reconstructed(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut note = |what: &str, source: &str| {
            if source.starts_with("reconstructed") {
                out.push(format!("{what}: {source}"));
            }
        };
        note("clock", &self.clock_source);
        for r in &self.special_rule {
            if let RuleKind::Night { clock_source, .. } = &r.kind {
                note(&format!("{} night clock", r.section), clock_source);
            }
        }
        out
    }

    /// The special rules, optional ones included (see [`SpecialRule::optional`]).
    pub fn rules(&self) -> impl Iterator<Item = &SpecialRule> {
        self.special_rule.iter()
    }
}
