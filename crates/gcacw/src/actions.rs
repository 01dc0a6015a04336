//! The actions a player with the initiative may take (GCACW 5.0): March (5.1), Activate Leader
//! (5.2), Burn RR Station (5.4) and Entrenchment (5.5, 1864). Assault (5.3) arrives with combat.

use caisson_hexmap::Terrain;
use caisson_kernel::Choice;

use crate::catalog::CounterType;
use crate::charts::Half;
use crate::rules::Gcacw;
use crate::scenario::Entrenchment;
use crate::state::{Stage, State, StationMark};
use crate::{activation, sequence, Side};

/// Whether a unit may be chosen to act at all: on the map, fatigue 3 or less, and not held back
/// by a scenario rule (GCACW 5.1, 6.5).
#[must_use]
pub fn may_act(rules: &Gcacw, state: &State, u: usize) -> bool {
    let unit = &state.units[u];
    unit.hex.is_some()
        && unit.fatigue <= 3
        && !rules.restricted(state, unit.counter as usize)
        && !(rules.opening_once(state, u) && state.activated_once.contains(&u))
}

/// Whether a unit may march: as [`may_act`], or at fatigue 4 with an organized marker under the
/// optional Fatigue-Level-4 march (GCACW 5.1).
#[must_use]
pub fn may_march(rules: &Gcacw, state: &State, u: usize) -> bool {
    let unit = &state.units[u];
    may_act(rules, state, u)
        || (unit.fatigue == 4
            && !too_tired_to_march(rules, state, u)
            && unit.hex.is_some()
            && !rules.restricted(state, unit.counter as usize))
}

/// Whether its fatigue alone bars a unit from marching (GCACW 5.1): above 3, unless the optional
/// Fatigue-Level-4 march lets an organized unit at 4 go. Fatigue falls only in the Recovery
/// Phase, so such a unit marches no more this turn.
#[must_use]
pub fn too_tired_to_march(rules: &Gcacw, state: &State, u: usize) -> bool {
    let unit = &state.units[u];
    unit.fatigue > 3 && !(rules.settings.fatigue4_march && unit.fatigue == 4 && unit.organized)
}

/// What a Burn RR Station action by this unit would leave (GCACW 5.4), if it would change
/// anything: Combat 2–4 damages, 5 or more destroys.
#[must_use]
pub fn burn_result(rules: &Gcacw, state: &State, u: usize) -> Option<StationMark> {
    let hex = state.units[u].hex?;
    if !rules.is_station(hex) {
        return None;
    }
    let cv = rules.combat_value(state, u);
    let now = state.stations.get(&hex).copied();
    let mark = if cv >= Half::whole(5) {
        StationMark::Destroyed
    } else if cv >= Half::whole(2) {
        StationMark::Damaged
    } else {
        return None;
    };
    (now.is_none_or(|n| mark > n)).then_some(mark)
}

/// Whether a unit may take an Entrenchment action (GCACW 5.5, 1864): not demoralized, not under
/// a completed fort, not a wagon (HSN-B 2.2), not in rain, not in winter (HSN-A 4.0) and not in a
/// Night March (HSN-A 2.2).
#[must_use]
pub fn may_entrench(rules: &Gcacw, state: &State, u: usize) -> bool {
    let unit = &state.units[u];
    !state.rain
        && crate::events::entrenching_allowed(state)
        && unit.demoralized == 0
        && unit.entrenchment != Some(Entrenchment::FortComplete)
        && rules.unit_type(state, u) != CounterType::Wagon
}

/// The next marker of an Entrenchment action (GCACW 5.5, 1864 procedure). A unit in a redoubt
/// hex starts at Breastworks-Build.
#[must_use]
pub fn next_entrenchment(now: Option<Entrenchment>, in_redoubt: bool) -> Option<Entrenchment> {
    use Entrenchment::*;
    Some(match now {
        None if in_redoubt => BreastworksBuild,
        None => Abatis,
        Some(Abatis) => BreastworksBuild,
        Some(BreastworksBuild) => Breastworks,
        Some(Breastworks) => FortBuild1,
        Some(FortBuild1) => FortBuild2,
        Some(FortBuild2) => FortComplete,
        Some(FortComplete) => return None,
    })
}

/// Every action the side may take now, as options.
#[must_use]
pub fn options(rules: &Gcacw, state: &State, side: Side) -> Vec<Choice> {
    gather(rules, state, side, usize::MAX)
}

/// Whether the side has any action to take now (GCACW 4.2, 4.4): [`options`] is not empty. It
/// stops at the first action found.
#[must_use]
pub fn any(rules: &Gcacw, state: &State, side: Side) -> bool {
    !gather(rules, state, side, 1).is_empty()
}

/// The options of [`options`], in order, as they are found.
struct Sink {
    out: Vec<Choice>,
    /// How many options are wanted.
    limit: usize,
    /// HSN-A 2.2 Night March: only March and Activate Leader actions.
    night: bool,
}

impl Sink {
    /// Keeps an option the turn allows; `true` once there are as many as wanted.
    fn push(&mut self, c: Choice) -> bool {
        if !self.night || c.id.starts_with("march:") || c.id.starts_with("activate:") {
            self.out.push(c);
        }
        self.out.len() >= self.limit
    }
}

/// The first `limit` actions the side may take now.
fn gather(rules: &Gcacw, state: &State, side: Side, limit: usize) -> Vec<Choice> {
    let mut out = Sink { out: Vec::new(), limit, night: crate::events::night_march(state) };
    for u in 0..state.units.len() {
        if rules.unit_side(state, u) != side || !may_march(rules, state, u) {
            continue;
        }
        let (id, name, unit) = (rules.unit_id(state, u), rules.unit_name(state, u), &state.units[u]);
        let hex = unit.hex.map(|h| rules.map().label(h)).unwrap_or_default();
        // HSN-A 4.0: in winter no March that would raise a unit to Fatigue Level 3 or 4.
        if crate::events::march_allowed(state, u)
            && out.push(Choice::new(
                format!("march:{id}"),
                format!("March {name} from {hex} (fatigue {} → {})", unit.fatigue, (unit.fatigue + 1).min(4)),
            ))
        {
            return out.out;
        }
        if !may_act(rules, state, u) {
            continue;
        }
        if crate::rail::available(rules, state, u)
            && out.push(Choice::new(format!("rail:{id}"), format!("{name} makes its once-only railroad move")))
        {
            return out.out;
        }
        if !crate::rail::rail_march_destinations(rules, state, u).is_empty()
            && out.push(Choice::new(
                format!("rail-march:{id}"),
                format!(
                    "{name} moves by rail from {hex} (fatigue {} → {})",
                    unit.fatigue,
                    (unit.fatigue + crate::rail::rail_march_fatigue(rules)).min(4)
                ),
            ))
        {
            return out.out;
        }
        // HSN-A 4.0: no Burn RR Station actions in winter.
        if let Some(mark) = burn_result(rules, state, u).filter(|_| !crate::winter::on(state)) {
            if out.push(Choice::new(format!("burn:{id}"), format!("{name} burns the station in {hex} ({mark:?})"))) {
                return out.out;
            }
        }
        if may_entrench(rules, state, u) {
            let redoubt = rules.in_redoubt(state, u);
            if let Some(next) = next_entrenchment(unit.entrenchment, redoubt) {
                if out.push(Choice::new(
                    format!("entrench:{id}"),
                    format!("{name} entrenches in {hex} (→ {})", next.name()),
                )) {
                    return out.out;
                }
            }
        }
    }
    let arrivals = if side == Side::Confederate { crate::arrival::options(rules, state) } else { Vec::new() };
    for c in arrivals
        .into_iter()
        .chain(crate::consolidation::options(rules, state, side))
        .chain(crate::wagons::options(rules, state, side))
    {
        if out.push(c) {
            return out.out;
        }
    }
    let board = rules.board(state);
    for l in 0..state.leaders.len() {
        if rules.leader_counter(state, l).side == side && activation::eligible(rules, state, l, &board) {
            let c = rules.leader_counter(state, l);
            let hex = rules.leader_hex(state, l).map(|h| rules.map().label(h)).unwrap_or_default();
            if out.push(Choice::new(format!("activate:{}", c.id), format!("Activate {} in {hex}", c.name))) {
                return out.out;
            }
        }
        if rules.leader_counter(state, l).side == side
            && crate::events::assault_allowed(state, side)
            && crate::assault::eligible(rules, state, l)
        {
            let c = rules.leader_counter(state, l);
            let hex = rules.leader_hex(state, l).map(|h| rules.map().label(h)).unwrap_or_default();
            if out.push(Choice::new(format!("assault:{}", c.id), format!("{} assaults from {hex}", c.name))) {
                return out.out;
            }
        }
    }
    out.out
}

/// Starts the chosen action; `None` if the option cannot be read.
pub fn start(rules: &Gcacw, state: &mut State, side: Side, option: &str) -> Option<()> {
    let (verb, id) = option.split_once(':')?;
    match verb {
        "march" => {
            let u = rules.unit_by_id(id)?;
            state.note(format!("{side}: {} marches.", rules.unit_name(state, u)), Some("GCACW 5.1"));
            state.activated_once.insert(u);
            state.stage = Stage::MarchAllowance { unit: u };
        }
        "arrive" => crate::arrival::place(rules, state, option)?,
        "consolidate" => crate::consolidation::apply(rules, state, side, id)?,
        "destroy-wagons" if side == Side::Union => crate::wagons::start(state),
        "rail" => {
            let u = rules.unit_by_id(id)?;
            state.stage = Stage::RailMove { unit: u };
        }
        "rail-march" => {
            let u = rules.unit_by_id(id)?;
            state.note(format!("{side}: {} marches by rail.", rules.unit_name(state, u)), Some("HSN-A 9.0"));
            state.stage = Stage::RailMarch { unit: u };
        }
        "activate" => {
            let l = rules.leader_by_id(id)?;
            state.note(format!("{side}: {} activates.", rules.leader_counter(state, l).name), Some("GCACW 5.2"));
            state.stage = Stage::ActivateSelect { leader: l, selected: Vec::new() };
        }
        "assault" => {
            let l = rules.leader_by_id(id)?;
            crate::assault::start(rules, state, side, l);
        }
        "burn" => {
            let u = rules.unit_by_id(id)?;
            state.activated_once.insert(u);
            burn(rules, state, u);
            sequence::next_action_phase(rules, state);
        }
        "entrench" => {
            let u = rules.unit_by_id(id)?;
            state.activated_once.insert(u);
            entrench(rules, state, u);
            sequence::next_action_phase(rules, state);
        }
        _ => return None,
    }
    Some(())
}

/// Burn RR Station (GCACW 5.4): the unit gains a fatigue level and marks the station.
pub fn burn(rules: &Gcacw, state: &mut State, u: usize) {
    let Some(hex) = state.units[u].hex else { return };
    let Some(mark) = burn_result(rules, state, u) else {
        return;
    };
    state.units[u].fatigue = (state.units[u].fatigue + 1).min(4);
    state.stations.insert(hex, mark);
    let cv = rules.combat_value(state, u);
    state.note(
        format!(
            "{} (Combat {cv}) burns the station at {}: {mark:?}; fatigue now {}.",
            rules.unit_name(state, u),
            rules.map().label(hex),
            state.units[u].fatigue
        ),
        Some("GCACW 5.4"),
    );
}

/// Entrenchment action (GCACW 5.5, 1864): one fatigue level, never an extended march, and the
/// marker moves one step.
pub fn entrench(rules: &Gcacw, state: &mut State, u: usize) {
    let Some(hex) = state.units[u].hex else { return };
    let redoubt = rules.in_redoubt(state, u);
    let Some(next) = next_entrenchment(state.units[u].entrenchment, redoubt) else {
        return;
    };
    state.units[u].fatigue = (state.units[u].fatigue + 1).min(4);
    state.units[u].entrenchment = Some(next);
    let terrain = rules.map().terrain(hex).unwrap_or(Terrain::Clear);
    state.note(
        format!(
            "{} entrenches in {} ({terrain}): {}; fatigue now {}.",
            rules.unit_name(state, u),
            rules.map().label(hex),
            next.name(),
            state.units[u].fatigue
        ),
        Some("GCACW 5.5"),
    );
}
