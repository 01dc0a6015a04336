//! The Perryville scenarios as front ends see them: the list, new and saved games, the notices
//! a player should read first (what is reconstructed, what is not yet enforced) and the map.

use caisson_kernel::{DynGame, Game, Save, SaveError, Setup};

use crate::rules::BlindSwords;
use crate::scenario::RuleKind;
use crate::setup::Data;
use crate::special::{option_of, Options};

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
    let data = Data::builtin()?;
    let sc = data
        .scenarios
        .iter()
        .find(|s| s.id == setup.scenario)
        .ok_or_else(|| format!("no scenario `{}`", setup.scenario))?;
    let options = Options::parse(&setup.options, sc)?;
    BlindSwords::with_options(data, &setup.scenario, options)
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
    "Close Combat is enforced (declaration, Defensive Fire and Supporting Defensive Fire, alone, combined in one fire or as a Flanking Fire (rulings PC36, PC37), cavalry and horse artillery withdrawal, the CRT with Rebel Yell! and Spontaneous Charge, Close Combat Cohesion Test, retreats, Panic, Advance After Close Combat), but Spontaneous Charge starts no Close Combat of its own outside the Close Combat Step (only its reconstructed chit text says so, rulings PC26, PG35)",
    "fire (the Artillery Step's, a brigade's, Opportunity Fire) is enforced with its Fire Combat Cohesion Test (depletion, Morale Hits, Break Tests, the Broken Track boxes) and the retreats and Panic it orders; On Hold batteries do not fire in the Artillery Step (SR 6.2, 12.1, 12.3, EX 6.5e)",
    "rally is enforced (the Artillery Rally Step, Regroup and Defend Rally Steps, the Broken Track, the optional Rebuild Option of SR 13.2b as `--option rebuild=on`), and the Rally event as a Recovery of one unit; the event's own text is not in the rulebook (SR 13.1), so whatever more it allows, a Rebuild perhaps, is not in play (ruling PC40)",
];

/// What a player should know before starting.
///
/// # Errors
/// Unknown scenario, or data that does not load.
pub fn notices(scenario: &str) -> Result<Vec<String>, String> {
    let data = Data::builtin()?;
    let sc = data.scenarios.iter().find(|s| s.id == scenario).ok_or_else(|| format!("no scenario `{scenario}`"))?;
    let mut out: Vec<String> = NOT_ENFORCED.iter().map(|s| format!("Not fully enforced yet: {s}.")).collect();
    out.push(format!(
        "Optional rule offered: Rebuild Option (SR 13.2b): `--option {}=on` keeps a unit that came back from the Broken Track on its Battleworn side for good",
        crate::special::REBUILD_OPTION
    ));
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
                | RuleKind::FreeManeuver { .. }
                | RuleKind::RightHook { .. }
                | RuleKind::ExitHexes { .. }
                | RuleKind::GameEndsOnRoll { .. }
                | RuleKind::Night { .. }
        );
        if let (true, Some(name)) = (r.optional, option_of(&r.kind)) {
            out.push(format!(
                "Optional rule offered: {} (EX {}): `--option {name}={}`",
                r.title,
                r.section,
                crate::special::on_word(name)
            ));
            if matches!(r.kind, RuleKind::SoloBot { .. }) {
                out.push(format!(
                    "{}: `--confederate liddell` turns it on and plays Liddell by its orders: no activation roll for Buckner, a Command Confusion roll sets Liddell's order, all three Confederate events go in the cup",
                    r.title
                ));
            }
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
