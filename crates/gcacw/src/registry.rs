//! The scenarios this crate offers and how front ends start, load and describe games of them.

use std::sync::{Arc, OnceLock};

use caisson_kernel::data::DataError;
use caisson_kernel::{DynGame, Game, Save, SaveError, Setup};

use crate::data::GameData;
use crate::rules::{Gcacw, Settings};

/// The rule-system id in saves.
pub const SYSTEM: &str = "gcacw";

/// The scenario ids of Hood Strikes North, in order.
pub const HSN_IDS: [&str; 9] = crate::data::HSN_SCENARIOS;

/// A scenario as listed to players.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ScenarioInfo {
    /// Id, e.g. `hsn-1`.
    pub id: String,
    /// Name.
    pub name: String,
    /// Date of the first turn.
    pub first_date: String,
    /// Date of the last turn.
    pub last_date: String,
    /// Turns.
    pub turns: u16,
    /// `basic` or `advanced`.
    pub game: String,
}

static HSN: OnceLock<Result<Arc<GameData>, String>> = OnceLock::new();

/// Hood Strikes North's data, loaded and validated once.
///
/// # Errors
/// A data file is missing or invalid; the message names file, line and field.
pub fn hsn() -> Result<Arc<GameData>, String> {
    HSN.get_or_init(|| GameData::load(&crate::data::DataDir::builtin(), "hsn").map(Arc::new).map_err(|e| e.to_string()))
        .clone()
}

/// Every scenario.
///
/// # Errors
/// The data does not load.
pub fn scenarios() -> Result<Vec<ScenarioInfo>, DataError> {
    let data = hsn().map_err(|e| DataError::invalid("data/hsn", e))?;
    Ok(data
        .scenarios
        .iter()
        .map(|s| ScenarioInfo {
            id: s.id.clone(),
            name: s.name.clone(),
            first_date: s.first_date.clone(),
            last_date: crate::turn_track::date_of(&s.first_date, s.turns),
            turns: s.turns,
            game: s.game.clone(),
        })
        .collect())
}

fn build(setup: &Setup) -> Result<(Gcacw, crate::state::State), String> {
    if setup.system != SYSTEM {
        return Err(format!("unknown rule system `{}`", setup.system));
    }
    let settings = Settings::parse(&setup.options)?;
    Gcacw::new(hsn()?, &setup.scenario, settings)
}

/// A setup for a new game of a scenario.
#[must_use]
pub fn setup(scenario: &str, seed: u64, dice: caisson_kernel::DiceMode, options: Vec<String>) -> Setup {
    Setup { system: SYSTEM.into(), scenario: scenario.into(), seed, dice, options }
}

/// Starts a game.
///
/// # Errors
/// Unknown scenario or option, or data that does not load.
pub fn new_game(setup: &Setup) -> Result<Box<dyn DynGame>, String> {
    let (rules, state) = build(setup)?;
    Ok(Box::new(Game::new(rules, state, setup.clone())))
}

/// Resumes a saved game, checking it.
///
/// # Errors
/// The save is refused (see [`SaveError`]).
pub fn load_game(save: &Save) -> Result<Box<dyn DynGame>, SaveError> {
    let (rules, state) = build(&save.setup).map_err(SaveError::Setup)?;
    Ok(Box::new(Game::load(rules, state, save)?))
}

/// What a player should know before starting: reconstructed data, and scenario rules the engine
/// does not enforce yet.
///
/// # Errors
/// Unknown scenario, or data that does not load.
pub fn notices(scenario: &str) -> Result<Vec<String>, String> {
    let data = hsn()?;
    let si = data.scenario(scenario).ok_or_else(|| format!("no scenario `{scenario}`"))?;
    let sc = &data.scenarios[si];
    let mut out = Vec::new();
    if data.map.reconstructed {
        out.push(format!("The map is a reconstruction, not the printed map: {}", data.map.source));
    }
    let reconstructed: Vec<&str> = sc
        .setup
        .iter()
        .filter_map(|r| data.catalog.index(&r.counter))
        .map(|c| data.catalog.get(c))
        .filter(|c| c.reconstructed())
        .map(|c| c.name.as_str())
        .collect();
    if !reconstructed.is_empty() {
        out.push(format!(
            "Counter values reconstructed (not printed in any source) for: {}.",
            reconstructed.join(", ")
        ));
    }
    let mut charts: Vec<(String, usize)> = Vec::new();
    for line in data.charts.reconstructed() {
        let chart = line.split(':').next().unwrap_or_default().to_string();
        match charts.iter_mut().find(|(c, _)| *c == chart) {
            Some((_, n)) => *n += 1,
            None => charts.push((chart, 1)),
        }
    }
    if !charts.is_empty() {
        let list: Vec<String> = charts.iter().map(|(c, n)| format!("{c} ({n})")).collect();
        out.push(format!(
            "Chart values reconstructed where no public source has them: {}. `caisson notes {scenario}` lists each with its reason.",
            list.join(", ")
        ));
    }
    let mut unenforced = Vec::new();
    for r in &sc.special_rule {
        use crate::scenario::RuleKind::*;
        let enforced = matches!(
            r.kind,
            ProhibitedHexes { .. }
                | ProhibitedRadius { .. }
                | ExtraActivator { .. }
                | MinimumMa { .. }
                | NoActivation { .. }
                | LateRain { .. }
                | Initiative
                | SkipTransfers { .. }
                | RailMove { .. }
                | ArrivalTable { .. }
                | Consolidation { .. }
                | Opening { .. }
                | KeepDisorganized { .. }
                | Confined { .. }
                | WagonBridgeCost { .. }
                | ExclusiveActivator { .. }
                | ArtilleryOverride { .. }
                | OffMapRetreat { .. }
                | Unfordable { .. }
                | Unmounted { .. }
                | WagonRules
                | Forts
                | DeathOfCleburne { .. }
                | Blockhouses
                | HarpethStrip { .. }
                | Barred { .. }
                | BlockhouseAttacks
                | BlockhouseTable(_)
                | Wagons { .. }
                | CommandsBarred { .. }
                | ExitHexes { .. }
                | VictoryPointPhase
                | AutomaticVictory { .. }
                | UnionReinforcementTable { .. }
                | UnionEntryAreas { .. }
                | ConstantReinforcement { .. }
                | VariableReinforcements { .. }
                | LyonRaidExclusions { .. }
                | ManpowerEnhancement { .. }
                | UnionRailMovement { .. }
                | ArmyInitiative { .. }
                | WinterWeather(_)
                | RandomEvents(_)
                | Substitutes(_)
                | UnionCavalryMounts(_)
        );
        if matches!(r.kind, Note) {
            out.push(format!("Scenario note: {} — {}", r.title, r.summary));
        } else if !enforced {
            unenforced.push(format!("Scenario rule not yet enforced: {} — {}", r.title, r.summary));
        }
    }
    if !unenforced.is_empty() {
        out.push("Not yet enforced in this version: the scenario rules listed below.".to_string());
        out.extend(unenforced);
    }
    Ok(out)
}

/// Every reconstructed value a scenario's game uses, one line each with its reason: counters,
/// charts and the map.
///
/// # Errors
/// Unknown scenario, or data that does not load.
pub fn reconstructed(scenario: &str) -> Result<Vec<String>, String> {
    let data = hsn()?;
    let si = data.scenario(scenario).ok_or_else(|| format!("no scenario `{scenario}`"))?;
    let mut out = Vec::new();
    if data.map.reconstructed {
        out.push(format!("Map {}: {}", data.map.id, data.map.source));
    }
    let sc = &data.scenarios[si];
    // HSN-A 7.0: the substitute counters of the scenario's pools are in play too.
    let pools = sc.rules().flat_map(|r| match r {
        crate::scenario::RuleKind::Substitutes(s) => s.pools.iter().flat_map(|p| p.counters.iter()).collect(),
        _ => Vec::new(),
    });
    let counters = sc.setup.iter().map(|r| &r.counter).chain(sc.arrival.iter().map(|r| &r.counter)).chain(pools);
    let mut seen = std::collections::BTreeSet::new();
    for id in counters {
        let Some(c) = data.catalog.index(id).map(|i| data.catalog.get(i)) else { continue };
        if !seen.insert(c.id.clone()) {
            continue;
        }
        for (what, source) in ["Tactical", "Artillery", "Command"].iter().zip(&c.sources) {
            if source.starts_with("reconstructed") {
                out.push(format!("Counter {}: {what} value — {source}", c.name));
            }
        }
    }
    out.extend(data.charts.reconstructed().into_iter().map(|l| format!("Chart {l}")));
    Ok(out)
}

/// The SVG drawing of a game's map.
///
/// # Errors
/// Unknown map, or data that does not load.
pub fn render_map_svg(map_id: &str) -> Result<String, String> {
    match map_id {
        "hsn" => Ok(caisson_hexmap::render::svg(&hsn()?.map)),
        other => Err(format!("no map `{other}` (known: hsn)")),
    }
}
