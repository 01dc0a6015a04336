//! The Blind Swords rules as a [`caisson_kernel::Rules`]: [`BlindSwords`] holds the static data
//! and the scenario; `pending`, `choose` and `roll` are the sequence of play (`sequence`),
//! `view` what a side may see (`view`), and `check` the invariants every reachable state keeps.

use std::sync::Arc;

use caisson_hexmap::{Hex, TacticalTerrain};
use caisson_kernel::{Describe, LogEntry, Pending, RuleError, Rules};

use crate::catalog::Side;
use crate::movement::{self, Board};
use crate::scenario::{RuleKind, Scenario};
use crate::setup::{self, Data};
use crate::special::{self, Options};
use crate::state::{Place, Stage, State};
use crate::{sequence, view};

/// The rules of one scenario.
#[derive(Clone, Debug)]
pub struct BlindSwords {
    data: Arc<Data>,
    scenario: usize,
    /// Every chit of the scenario, sorted: what `check` finds conserved.
    chits: Vec<String>,
    victory_hexes: Vec<Hex>,
    towns: Vec<Hex>,
    /// Each unit's printed SP (in halves) and CR, Fresh (or starting) then Battleworn.
    printed: Vec<[(u8, u8); 2]>,
    /// The optional rules chosen.
    options: Options,
    /// Turns, night turns included (EX 16.1g).
    turns: u16,
    /// The clock of every turn, night turns included.
    clock: Vec<String>,
}

impl BlindSwords {
    /// The rules and starting state of a scenario (already advanced to its first decision).
    ///
    /// # Errors
    /// Unknown scenario.
    pub fn new(data: Arc<Data>, scenario: &str) -> Result<(BlindSwords, State), String> {
        BlindSwords::with_options(data, scenario, Options::default())
    }

    /// The rules and starting state of a scenario with optional rules chosen.
    ///
    /// # Errors
    /// Unknown scenario.
    pub fn with_options(data: Arc<Data>, scenario: &str, options: Options) -> Result<(BlindSwords, State), String> {
        let index = data.scenario_index(scenario).ok_or_else(|| format!("no scenario `{scenario}`"))?;
        let sc = &data.scenarios[index];
        if options.solo && !sc.rules().any(|r| matches!(r.kind, RuleKind::SoloBot { .. })) {
            return Err(format!("scenario `{scenario}` has no solo variant (only pv-16-0 has one, EX 16.0d)"));
        }
        let start = setup::start(&data, sc);
        let mut chits: Vec<String> = start.chits.out.iter().chain(start.chits.held.iter().flatten()).cloned().collect();
        chits.sort();
        let victory_hexes = crate::victory::hexes(sc);
        let towns = data.map.hexes().filter(|h| data.map.tactical(*h) == Some(TacticalTerrain::Town)).collect();
        let printed = start
            .units
            .iter()
            .filter_map(|u| data.catalog.unit(&u.id))
            .map(|c| [(c.starting().sp.halves(), c.starting().cr), (c.worn.sp.halves(), c.worn.cr)])
            .collect();
        let (night, night_clock) = special::extra_turns(sc, options);
        let turns = sc.turns + night;
        let clock = sc.clock.iter().chain(&night_clock).cloned().collect();
        let rules = BlindSwords { data, scenario: index, chits, victory_hexes, towns, printed, options, turns, clock };
        let mut state = start;
        sequence::advance(&rules, &mut state);
        Ok((rules, state))
    }

    /// The static data.
    #[must_use]
    pub fn data(&self) -> &Data {
        &self.data
    }

    /// The scenario.
    #[must_use]
    pub fn scenario(&self) -> &Scenario {
        &self.data.scenarios[self.scenario]
    }

    /// The hexes the victory conditions look at.
    #[must_use]
    pub fn victory_hexes(&self) -> &[Hex] {
        &self.victory_hexes
    }

    /// The Perryville town hexes.
    #[must_use]
    pub fn towns(&self) -> &[Hex] {
        &self.towns
    }

    /// The clock time of a turn (night turns included, EX 16.1g).
    #[must_use]
    pub fn clock(&self, turn: u16) -> &str {
        self.clock.get(usize::from(turn).saturating_sub(1)).map_or("", String::as_str)
    }

    /// The game's length in turns: the scenario's, and the night turns if chosen (EX 16.1g).
    #[must_use]
    pub fn turns(&self) -> u16 {
        self.turns
    }

    /// The optional rules chosen.
    #[must_use]
    pub fn options(&self) -> Options {
        self.options
    }

    /// Every chit of the scenario, sorted.
    #[must_use]
    pub fn all_chits(&self, state: &State) -> Vec<String> {
        let c = &state.chits;
        let mut all: Vec<String> = c
            .cup
            .iter()
            .chain(c.held.iter().flatten())
            .chain(&c.played)
            .chain(&c.out)
            .chain(&c.on_buell)
            .chain(&c.removed)
            .cloned()
            .collect();
        all.sort();
        all
    }
}

impl Rules for BlindSwords {
    type State = State;

    fn pending(&self, state: &State) -> Pending {
        sequence::pending(self, state)
    }

    fn choose(&self, state: &mut State, option: &str) -> Result<(), RuleError> {
        sequence::choose(self, state, option)?;
        sequence::advance(self, state);
        Ok(())
    }

    fn roll(&self, state: &mut State, dice: &[u8]) -> Result<(), RuleError> {
        sequence::roll(self, state, dice)?;
        sequence::advance(self, state);
        Ok(())
    }

    fn view(&self, state: &State, side: Option<&str>) -> serde_json::Value {
        let side = match side {
            Some("union") => Some(Side::Union),
            Some("confederate") => Some(Side::Confederate),
            _ => None,
        };
        view::view(self, state, side)
    }

    fn log<'s>(&self, state: &'s State) -> &'s [LogEntry] {
        &state.log
    }

    fn check(&self, state: &State) -> Result<(), String> {
        let sc = self.scenario();
        let data = &self.data;
        // Chits are conserved: each chit of the scenario in exactly one place.
        let all = self.all_chits(state);
        if all != self.chits {
            return Err(format!("chits not conserved: {all:?} against {:?}", self.chits));
        }
        let board = Board::new(&data.map, state);
        for key in state.chits.key.iter().flatten() {
            if !state.chits.cup.contains(key) {
                return Err(format!("key chit {key} is not in the cup"));
            }
        }
        let passing = crate::retreat_step::paused_in(state);
        for (i, u) in state.units.iter().enumerate() {
            if let Place::Map(h) = u.place {
                if !data.map.contains(h) || !sc.area.contains(h) {
                    return Err(format!("{} in {h}, outside the playable area", u.name));
                }
                if board.units(h).any(|j| state.units[j].side != u.side) {
                    return Err(format!("{h} holds units of both sides"));
                }
                // SR 10.11: reinforcements may stand over-stacked in their entry hex until they move.
                let crowded = state.special.crowded.iter().any(|(c, _)| *c == h);
                // EX 6.5c: artillery on the move may pass through a hex it over-stacks.
                let jammed = match &state.stage {
                    Stage::Move { current: Some(m), .. } => {
                        state.units[m.unit].ty.is_artillery() && state.hex_of(m.unit) == Some(h)
                    }
                    _ => false,
                };
                if board.units(h).next() == Some(i) && !passing.contains(&h) && !crowded && !jammed {
                    if let Some(fault) = movement::stacking_fault(self, state, &board, h, None) {
                        return Err(fault);
                    }
                }
            }
            let printed = self.printed.get(i).map(|p| p[usize::from(u.battleworn)]);
            if printed.is_none_or(|(sp, cr)| sp < u.sp_halves || cr != u.cr) || u.cr > 6 {
                return Err(format!("{}: SP or CR beyond its printed values", u.name));
            }
        }
        for b in &state.brigades {
            if b.on_hold && b.activated {
                return Err(format!("brigade {} is On Hold and activated", b.id));
            }
        }
        if state.turn > self.turns {
            return Err(format!("turn {} beyond the game's {}", state.turn, self.turns));
        }
        Ok(())
    }
}

impl Describe for BlindSwords {
    fn summary(&self, state: &State) -> String {
        view::summary(self, state)
    }
}
