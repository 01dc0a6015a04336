//! The Perryville scenarios as front ends see them: the list, new and saved games, the notices
//! a player should read first (what is reconstructed, what is not yet enforced) and the map.

use caisson_kernel::{DynGame, Game, Save, SaveError, Setup};

use crate::rules::{BlindSwords, Settings};
use crate::scenario::RuleKind;
use crate::setup::Data;

/// The rule-system id in saves.
pub const SYSTEM: &str = "blind-swords";

/// A scenario as listed to players.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ScenarioInfo {
    /// Id, e.g. `pv-16-1`.
    pub id: String,
    /// Name.
    pub name: String,
    /// Clock time of the first turn, with the date of the battle.
    pub first: String,
    /// Clock time of the last turn.
    pub last: String,
    /// Turns.
    pub turns: u16,
}

/// Every scenario, in rulebook order.
///
/// # Errors
/// The data does not load.
pub fn scenarios() -> Result<Vec<ScenarioInfo>, String> {
    let data = Data::builtin()?;
    Ok(data
        .scenarios
        .iter()
        .map(|s| ScenarioInfo {
            id: s.id.clone(),
            name: s.name.clone(),
            first: format!("1862-10-08 {}", s.clock.first().map_or("", String::as_str)),
            last: format!("1862-10-08 {}", s.clock.last().map_or("", String::as_str)),
            turns: s.turns,
        })
        .collect())
}

fn build(setup: &Setup) -> Result<(BlindSwords, crate::state::State), String> {
    if setup.system != SYSTEM {
        return Err(format!("unknown rule system `{}`", setup.system));
    }
    let settings = Settings::parse(&setup.options)?;
    BlindSwords::with_settings(Data::builtin()?, &setup.scenario, settings)
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

/// The rules of this version that are not enforced, for every scenario.
pub const NOT_ENFORCED: &[&str] = &[
    "a brigade's own Fire Combat Step and Close Combat are not yet enforced: an Attack order's brigade may move adjacent to the enemy, but only artillery fires (SR 9, 11)",
    "artillery fire in the Artillery Step is enforced with its Fire Combat Cohesion Test (depletion, Morale Hits, Break Tests, the Broken Track boxes); the retreats and Panic a test orders are logged but not carried out, and On Hold batteries do not fire (SR 6.2, 12.1, 12.3, EX 6.5e)",
    "rally and rebuild not yet enforced, and broken units never leave the Broken Track (SR 12.8, 13; the Artillery Rally Step is skipped)",
    "event chits are drawn and held, but playing them is not yet enforced (SR 7.1, 7.3, 14.1); A. McCook's Rally Event use likewise",
    "taking up or leaving Skirmish Order is not yet offered (EX 15.1); skirmishers' movement and stacking are enforced",
    "reinforcement limits per turn, later entry hexes and the fall-back near Perryville (EX 16.1-16.4), Sudden Death (EX 16.1) and units exiting the map (EX 16.4g) are not yet enforced",
];

/// What a player should know before starting.
///
/// # Errors
/// Unknown scenario, or data that does not load.
pub fn notices(scenario: &str) -> Result<Vec<String>, String> {
    let data = Data::builtin()?;
    let sc = data.scenarios.iter().find(|s| s.id == scenario).ok_or_else(|| format!("no scenario `{scenario}`"))?;
    let mut out: Vec<String> = NOT_ENFORCED.iter().map(|s| format!("Not yet enforced: {s}.")).collect();
    out.push(format!(
        "Reconstructed data (the Blind Swords charts, the Perryville map and counter values are not public): {} tables; `caisson notes {scenario}` lists each with its reason.",
        data.charts.reconstructed().len()
    ));
    for r in sc.rules() {
        let enforced = matches!(
            r.kind,
            RuleKind::NoArtilleryPhase { .. }
                | RuleKind::AutoActivation { .. }
                | RuleKind::FogOfWarSix { .. }
                | RuleKind::OnHoldTrigger { .. }
                | RuleKind::TimedRelease { .. }
                | RuleKind::ProhibitedUntilClear { .. }
                | RuleKind::ActivationModifier { .. }
                | RuleKind::DivisionChitLimit { .. }
                | RuleKind::NoBuellTrack
        );
        if let RuleKind::SoloBot { .. } = r.kind {
            out.push(format!(
                "Optional rule: {} (EX {}), with the game option solo=liddell (`--confederate liddell` turns it on): no activation roll for Buckner, a Command Confusion roll sets Liddell's order, all three Confederate events go in the cup, the 7th Arkansas maneuvers on turn 1; events are drawn and held but, as in every game, not yet played",
                r.title, r.section
            ));
        } else if r.optional {
            out.push(format!("Optional rule not offered yet: {} (EX {})", r.title, r.section));
        } else if !enforced {
            out.push(format!("Scenario rule not yet enforced: {} (EX {})", r.title, r.section));
        }
    }
    Ok(out)
}

/// Every reconstructed value a scenario's game uses, one line each with its reason.
///
/// # Errors
/// Unknown scenario, or data that does not load.
pub fn reconstructed(scenario: &str) -> Result<Vec<String>, String> {
    let data = Data::builtin()?;
    let sc = data.scenarios.iter().find(|s| s.id == scenario).ok_or_else(|| format!("no scenario `{scenario}`"))?;
    let mut out: Vec<String> = data.charts.reconstructed().iter().map(|l| format!("Chart {l}")).collect();
    out.extend(data.catalog.reconstructed().iter().map(|r| format!("{}: {}", r.file, r.what)));
    out.extend(sc.reconstructed().into_iter().map(|l| format!("Scenario {}: {l}", sc.id)));
    out.push("Map perryville: reconstructed (see the header of data/perryville/map.txt)".to_string());
    Ok(out)
}
