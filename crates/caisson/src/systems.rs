//! Every rule system the binary serves, as one [`Registry`]: [`Systems`] lists the scenarios of
//! GCACW (Hood Strikes North) then of Blind Swords (Perryville), and routes each game to the
//! registry that owns its scenario (a new game) or its rule system (a save).
//!
//! Front ends build a [`Setup`] with [`Registry::system`], the default system; [`Systems`]
//! writes the owning system into the setup before it starts the game, so saves name the right
//! one.

use caisson_kernel::{DynGame, Save, SaveError, Setup};

use crate::blindswords::BlindSwords;
use crate::charts::{Chart, ChartInfo, CombatQuery, CombatReading};
use crate::gcacw::Gcacw;
use crate::{Outcome, Registry, ScenarioRow};

/// Every rule system: GCACW first (the default), then Blind Swords.
pub struct Systems;

const ALL: [&(dyn Registry + Sync); 2] = [&Gcacw, &BlindSwords];

impl Systems {
    /// The registry that owns a scenario.
    fn for_scenario(scenario: &str) -> Result<&'static (dyn Registry + Sync), String> {
        for reg in ALL {
            if reg.scenarios()?.iter().any(|s| s.id == scenario) {
                return Ok(reg);
            }
        }
        Err(format!("no scenario `{scenario}` (see `caisson scenarios`)"))
    }

    /// Every rule system's registry, the default first.
    #[must_use]
    pub fn all() -> [&'static (dyn Registry + Sync); 2] {
        ALL
    }

    /// The registry of a rule system.
    #[must_use]
    pub fn for_system(system: &str) -> Option<&'static (dyn Registry + Sync)> {
        ALL.into_iter().find(|r| r.system() == system)
    }
}

impl Registry for Systems {
    fn system(&self) -> &str {
        Gcacw.system()
    }
    fn scenarios(&self) -> Result<Vec<ScenarioRow>, String> {
        let mut out = Vec::new();
        for reg in ALL {
            out.extend(reg.scenarios()?);
        }
        Ok(out)
    }
    fn new_game(&self, setup: &Setup) -> Result<Box<dyn DynGame>, String> {
        let reg = Systems::for_scenario(&setup.scenario)?;
        reg.new_game(&Setup { system: reg.system().to_string(), ..setup.clone() })
    }
    fn load_game(&self, save: &Save) -> Result<Box<dyn DynGame>, SaveError> {
        match Systems::for_system(&save.setup.system) {
            Some(reg) => reg.load_game(save),
            None => Err(SaveError::Setup(format!("unknown rule system `{}`", save.setup.system))),
        }
    }
    fn notices(&self, scenario: &str) -> Result<Vec<String>, String> {
        Systems::for_scenario(scenario)?.notices(scenario)
    }
    fn reconstructed(&self, scenario: &str) -> Result<Vec<String>, String> {
        Systems::for_scenario(scenario)?.reconstructed(scenario)
    }
    fn render_map_svg(&self, map: &str) -> Result<String, String> {
        let mut errors = Vec::new();
        for reg in ALL {
            match reg.render_map_svg(map) {
                Ok(svg) => return Ok(svg),
                Err(e) => errors.push(e),
            }
        }
        Err(errors.join("; "))
    }
    fn charts(&self) -> Result<Vec<ChartInfo>, String> {
        Gcacw.charts()
    }
    fn chart(&self, name: &str) -> Result<Chart, String> {
        Gcacw.chart(name)
    }
    fn combat_reading(&self, query: &CombatQuery) -> Result<CombatReading, String> {
        Gcacw.combat_reading(query)
    }
    fn outcome(&self, game: &dyn DynGame) -> Option<Outcome> {
        Systems::for_system(&game.setup().system)?.outcome(game)
    }
}
