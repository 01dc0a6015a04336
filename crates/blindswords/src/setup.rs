//! [EX 16.0-16.4] The game's static data loaded once (catalog, charts, map, scenarios) and a
//! scenario's set-up expanded into the starting [`State`]: exact-hex lines placed, "within N
//! hexes of" lines left to their owner (ruling PO11), reinforcements waiting for their turn or
//! trigger, brigades On Hold, the chits where the scenario puts them, the Buell Marker in its box
//! and the control markers.

use std::sync::{Arc, OnceLock};

use caisson_hexmap::Map;
use caisson_kernel::data::{DataDir, DataError};

use crate::catalog::{Catalog, ChitKind, Owner, Side, UnitType};
use crate::charts::Charts;
use crate::scenario::{Placement, RuleKind, Scenario, Start, Status};
use crate::state::{ix, BrigadeState, Chits, Line, Place, Stage, State, UnitState};
use crate::victory;

/// Everything the rules read and never change.
#[derive(Debug)]
pub struct Data {
    /// Counters, commands and chits.
    pub catalog: Catalog,
    /// The series tables.
    pub charts: Charts,
    /// The Perryville map.
    pub map: Map,
    /// The five scenarios.
    pub scenarios: Vec<Scenario>,
}

impl Data {
    /// Loads and checks the data of a folder laid out like `data/`.
    ///
    /// # Errors
    /// A file is missing or invalid; the error names file, line and field.
    pub fn load(dir: &DataDir) -> Result<Data, DataError> {
        let game = dir.join("perryville");
        let catalog = Catalog::load(&game)?;
        let charts = Charts::load(dir)?;
        let map = crate::map::load(dir, "perryville")?;
        let scenarios = Scenario::load_all(&game, &catalog)?;
        Ok(Data { catalog, charts, map, scenarios })
    }

    /// The built-in data, loaded once per process.
    ///
    /// # Errors
    /// The built-in data does not load (the message names file, line and field).
    pub fn builtin() -> Result<Arc<Data>, String> {
        static DATA: OnceLock<Result<Arc<Data>, String>> = OnceLock::new();
        DATA.get_or_init(|| Data::load(&DataDir::builtin()).map(Arc::new).map_err(|e| e.to_string())).clone()
    }

    /// The index of a scenario.
    #[must_use]
    pub fn scenario_index(&self, id: &str) -> Option<usize> {
        self.scenarios.iter().position(|s| s.id == id)
    }
}

/// The starting state of a scenario, waiting at the start of turn 1.
#[must_use]
pub fn start(data: &Data, sc: &Scenario) -> State {
    let cat = &data.catalog;
    let mut units = Vec::new();
    let mut first = Vec::new();
    let mut second = Vec::new();
    let setter = sc.sets_up_first.unwrap_or(sc.first_player);
    for (u, how) in sc.units(cat) {
        let face = u.starting();
        let (place, line, status) = match how {
            Start::Setup(i) => {
                let row = &sc.setup[i];
                let place = match row.placement() {
                    Some(Placement::Hex(h)) => Place::Map(h),
                    _ => Place::SetUp,
                };
                (place, Line::Setup(i), row.status)
            }
            Start::Reinforcement(i) => (Place::NotYet(i), Line::Reinforcement(i), None),
        };
        let index = units.len();
        if place == Place::SetUp {
            if u.side == setter {
                first.push(index);
            } else {
                second.push(index);
            }
        }
        units.push(UnitState {
            id: u.id.clone(),
            name: u.name.clone(),
            side: u.side,
            ty: u.ty,
            line,
            brigade: u.brigade.clone(),
            division: u.division.clone(),
            place,
            battleworn: u.fresh.is_none(),
            sp_halves: face.sp.halves(),
            cr: face.cr,
            morale_hits: 0,
            skirmish: status == Some(Status::Skirmish),
            shaken: status == Some(Status::Shaken),
            on_hold: sc.on_hold.units.contains(&u.id),
            acted: false,
            returned: false,
        });
    }
    let mut brigades: Vec<BrigadeState> = Vec::new();
    for u in &units {
        let Some(b) = &u.brigade else { continue };
        if brigades.iter().all(|x| &x.id != b) {
            brigades.push(BrigadeState {
                id: b.clone(),
                side: u.side,
                on_hold: sc.on_hold.brigades.contains(b),
                activated: false,
                order: None,
            });
        }
    }
    for u in &mut units {
        if u.brigade.as_ref().is_some_and(|b| sc.on_hold.brigades.contains(b)) {
            u.on_hold = true;
        }
    }
    let mut chits = Chits::default();
    let mut all: Vec<String> = Vec::new();
    let add = |id: &String, all: &mut Vec<String>| {
        if !all.contains(id) {
            all.push(id.clone());
        }
    };
    for id in sc.chits.activation.iter().chain(&sc.chits.wild) {
        add(id, &mut all);
        chits.in_play.push(id.clone());
    }
    let later = sc.reinforcement.iter().flat_map(|r| r.chits.iter());
    let hook = sc.rules().flat_map(|r| match &r.kind {
        RuleKind::RightHook { add_chits, .. } => add_chits.iter().collect(),
        _ => Vec::new(),
    });
    for id in sc.chits.set_aside.iter().chain(&sc.chits.events).chain(later).chain(hook) {
        add(id, &mut all);
    }
    for id in &sc.chits.held {
        if let Some(side) = cat.chit(id).and_then(|c| c.side.side()) {
            chits.held[ix(side)].push(id.clone());
        }
    }
    chits.out = all.into_iter().filter(|id| !sc.chits.held.contains(id)).collect();
    chits.out.sort();
    let no_track = sc.rules().any(|r| matches!(r.kind, RuleKind::NoBuellTrack));
    let buell_box = if no_track { None } else { sc.buell_box.as_deref().and_then(|b| data.charts.buell.box_index(b)) };
    let mut state = State {
        scenario: sc.id.clone(),
        turn: 1,
        stage: Stage::TurnStart,
        volley: None,
        units,
        brigades,
        chits,
        to_place: first.into_iter().chain(second).collect(),
        maneuvers: Vec::new(),
        buell_box,
        courier: false,
        chaos: None,
        events: crate::state::EventState::default(),
        artillery_start: Vec::new(),
        vp: [0, 0],
        control: Vec::new(),
        special: crate::special::Special::default(),
        log: Vec::new(),
    };
    for hex in victory::hexes(sc) {
        let marker = sc.marker.iter().find(|m| m.hex == hex).map(|m| m.side);
        let holder =
            state.units_at(hex).find(|i| matches!(state.units[*i].ty, UnitType::Infantry | UnitType::Artillery));
        if let Some(side) = marker.or_else(|| holder.map(|i| state.units[i].side)) {
            state.control.push((hex, side));
        }
    }
    state.note(format!("{} ({}): {} turns, {} first", sc.name, sc.source, sc.turns, sc.first_player), "EX 16.0");
    state
}

/// Whether a chit is an activation chit (Division, Brigade or CIC).
#[must_use]
pub fn is_activation(cat: &Catalog, id: &str) -> bool {
    cat.chit(id).is_some_and(|c| matches!(c.kind, ChitKind::Division | ChitKind::Brigade | ChitKind::Cic))
}

/// The side a chit belongs to, if any.
#[must_use]
pub fn chit_side(cat: &Catalog, id: &str) -> Option<Side> {
    cat.chit(id).and_then(|c| match c.side {
        Owner::Neutral => None,
        o => o.side(),
    })
}
