//! Cavalry retreat (GCACW 7.7): when an enemy infantry unit begins its march in, or moves into,
//! the normal ZOC of a cavalry unit, the cavalry's owner may at once retreat it — one die,
//! modified and halved, comes off the marching unit's Movement Allowance; an unmodified 1 costs
//! one unit a Manpower point; the cavalry retreats four to six hexes (losses only for enemy-occupied
//! hexes), then gains a fatigue level and is disorganized. Declining forfeits the retreat from that
//! hex for the rest of the march. The triggers are the start of a march, a move and an advance
//! after combat into the cavalry's ZOC, and an assault declared on the cavalry's hex (the roll
//! then only decides the loss; if the hex is emptied, a successful assault just advances).

use caisson_hexmap::Hex;
use caisson_kernel::{Choice, Decision, Modifier, RollRequest};
use serde::Serialize;

use crate::catalog::CounterType;
use crate::charts::Half;
use crate::retreat::{self, Progress, Retreat, RetreatKind};
use crate::rules::Gcacw;
use crate::state::{LossCause, March, Stage, State};
use crate::zoc::{self, Zoc};
use crate::{march, sequence, Side};

/// Where the interrupted march goes on afterwards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Resume {
    /// The march had just begun: force march comes next (GCACW 5.1 step 3).
    BeforeForceMarch,
    /// The unit was moving.
    Moving,
    /// An assault was declared on the cavalry's hex: the command roll comes next.
    Assault {
        /// The active leader.
        leader: usize,
        /// The units chosen.
        selected: Vec<usize>,
        /// The hex assaulted.
        target: Hex,
    },
}

impl CavalryRetreat {
    /// The side whose cavalry retreats.
    fn cavalry_side(&self, rules: &Gcacw, state: &State) -> Side {
        match (&self.march, &self.resume) {
            (Some(m), _) => rules.unit_side(state, m.unit).enemy(),
            (None, Resume::Assault { leader, .. }) => rules.leader_counter(state, *leader).side.enemy(),
            (None, _) => Side::Union,
        }
    }

    /// The enemy unit or leader that caused it, by name.
    fn active_name(&self, rules: &Gcacw, state: &State) -> String {
        match (&self.march, &self.resume) {
            (Some(m), _) => rules.unit_name(state, m.unit),
            (None, Resume::Assault { leader, .. }) => rules.leader_counter(state, *leader).name.clone(),
            (None, _) => String::new(),
        }
    }

    /// Where the enemy unit or leader stands: the retreat may not come closer to it.
    fn active_hex(&self, rules: &Gcacw, state: &State) -> Option<Hex> {
        match (&self.march, &self.resume) {
            (Some(m), _) => state.units[m.unit].hex,
            (None, Resume::Assault { leader, .. }) => rules.leader_hex(state, *leader),
            (None, _) => None,
        }
    }
}

/// What the cavalry retreat waits for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "phase", rename_all = "kebab-case")]
pub enum Phase {
    /// The cavalry's owner decides for the first hex of the queue.
    Offer,
    /// The cavalry retreat roll for a hex.
    Roll {
        /// The cavalry's hex.
        hex: Hex,
    },
    /// The cavalry moving away.
    Moving {
        /// The retreat.
        retreat: Retreat,
    },
}

/// A cavalry retreat interrupting a march.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CavalryRetreat {
    /// The march interrupted (none for an assault).
    pub march: Option<March>,
    /// How it resumes.
    pub resume: Resume,
    /// Cavalry hexes still to be asked.
    pub queue: Vec<Hex>,
    /// Where it stands.
    pub phase: Phase,
}

fn cavalry_in(rules: &Gcacw, state: &State, hex: Hex, side: Side) -> Vec<usize> {
    rules
        .on_map(state)
        .filter(|&(u, h)| {
            h == hex && rules.unit_side(state, u) == side && rules.unit_type(state, u) == CounterType::Cavalry
        })
        .map(|(u, _)| u)
        .collect()
}

/// Enemy cavalry hexes whose normal ZOC covers the marching infantry unit's hex now, and that have
/// not declined in this march.
#[must_use]
pub fn triggered(rules: &Gcacw, state: &State, m: &March) -> Vec<Hex> {
    let u = m.unit;
    let Some(at) = state.units[u].hex else { return Vec::new() };
    if rules.unit_type(state, u) != CounterType::Infantry {
        return Vec::new();
    }
    let enemy = rules.unit_side(state, u).enemy();
    rules
        .map()
        .neighbors(at)
        .map(|(_, n)| n)
        .filter(|&n| !m.declined.contains(&n) && !cavalry_in(rules, state, n, enemy).is_empty())
        .filter(|&n| {
            zoc::exerted_with(rules.map(), &state.bridges, n, at, state.rain, crate::combat::unfordable(rules, state))
                == Zoc::Normal
        })
        .collect()
}

/// Offers the cavalry retreats a march has triggered; returns whether the game now waits for one.
pub fn offer(rules: &Gcacw, state: &mut State, m: March, resume: Resume) -> bool {
    let queue = triggered(rules, state, &m);
    if queue.is_empty() {
        return false;
    }
    state.stage =
        Stage::CavalryRetreat { c: Box::new(CavalryRetreat { march: Some(m), resume, queue, phase: Phase::Offer }) };
    true
}

/// The decision the cavalry retreat waits for.
#[must_use]
pub fn decision(rules: &Gcacw, state: &State, c: &CavalryRetreat) -> Option<Decision> {
    let side = c.cavalry_side(rules, state);
    match &c.phase {
        Phase::Offer => {
            let hex = *c.queue.first()?;
            let names: Vec<String> =
                cavalry_in(rules, state, hex, side).iter().map(|&u| rules.unit_name(state, u)).collect();
            Some(Decision {
                side: side.id().into(),
                kind: "cavalry-retreat".into(),
                prompt: format!(
                    "{} enters the zone of control of {} in {}: cavalry retreat? (GCACW 7.7)",
                    c.active_name(rules, state),
                    names.join(", "),
                    rules.map().label(hex)
                ),
                options: vec![
                    Choice::new(format!("cavalry-retreat:{hex}"), format!("{} retreat from {}", names.join(", "), hex)),
                    Choice::new("stand", "Stand (no cavalry retreat from that hex in this march)"),
                ],
            })
        }
        Phase::Moving { retreat } => {
            let mut d = retreat::decision(rules, state, retreat);
            d.options.extend(retreat::off_map_choice(rules, state, retreat));
            Some(d)
        }
        Phase::Roll { .. } => None,
    }
}

/// The cavalry retreat roll (GCACW 7.7 step 1).
#[must_use]
pub fn roll_request(rules: &Gcacw, state: &State, c: &CavalryRetreat) -> Option<RollRequest> {
    let Phase::Roll { hex } = c.phase else { return None };
    let side = c.cavalry_side(rules, state);
    let units = cavalry_in(rules, state, hex, side);
    let manpower: u8 = units.iter().map(|&u| state.units[u].manpower).sum();
    let terrain = rules.map().terrain(hex)?;
    let value = rules.charts().cavalry_retreat_modifier(terrain, state.rain, manpower, false);
    let modifiers = if value == 0 {
        Vec::new()
    } else {
        vec![Modifier::new(format!("Cavalry Retreat Table: {terrain}, Manpower {manpower}"), value, "GCACW 7.7")]
    };
    Some(RollRequest {
        side: side.id().into(),
        purpose: format!("cavalry retreat from {} (half the roll comes off the enemy's MA)", rules.map().label(hex)),
        rule: "GCACW 7.7".into(),
        dice: 1,
        modifiers,
    })
}

/// Applies the roll: the enemy's MA falls, an unmodified 1 costs a Manpower point, and the
/// retreat begins.
pub fn apply_roll(rules: &Gcacw, state: &mut State, mut c: CavalryRetreat, req: &RollRequest, dice: &[u8]) {
    let Phase::Roll { hex } = c.phase else { return };
    let raw = dice.first().copied().unwrap_or(1);
    let modifier = req.modifiers.iter().map(|m| m.value).sum();
    let cut = rules.charts().cavalry_retreat_reduction(raw, modifier);
    let loss = rules.charts().cavalry_retreat_loss(raw);
    let name = c.active_name(rules, state);
    let effect = match c.march.as_mut() {
        Some(m) => {
            m.left = m.left - Half::whole(u16::from(cut));
            format!("{name}'s Movement Allowance falls by {cut} to {}", m.left)
        }
        None => "no effect on an assault".to_string(),
    };
    let one = if loss > 0 { "; an unmodified 1: one cavalry unit loses 1" } else { "" };
    sequence::log_roll(state, req, dice, format!("{effect}{one}"));
    let side = c.cavalry_side(rules, state);
    let units = cavalry_in(rules, state, hex, side);
    if loss > 0 {
        if let Some(&u) = units.iter().max_by_key(|&&u| state.units[u].manpower) {
            rules.lose_manpower(state, u, loss, LossCause::CavalryRetreat, "cavalry retreat roll of 1", "GCACW 7.7");
        }
    }
    let units: Vec<usize> = units.into_iter().filter(|&u| state.units[u].hex.is_some()).collect();
    let r = Retreat {
        side,
        units,
        start: hex,
        enemy: c.active_hex(rules, state).unwrap_or(hex),
        kind: RetreatKind::Cavalry,
        path: Vec::new(),
        override_used: false,
    };
    if r.units.is_empty() {
        next(rules, state, c);
    } else if retreat::steps(rules, state, &r).is_empty() && !retreat::off_map_allowed(rules, state, &r) {
        retreat::surrender(rules, state, &r);
        next(rules, state, c);
    } else {
        c.phase = Phase::Moving { retreat: r };
        state.stage = Stage::CavalryRetreat { c: Box::new(c) };
    }
}

/// Applies a decision of the cavalry retreat; `None` if unreadable.
pub fn choose(rules: &Gcacw, state: &mut State, mut c: CavalryRetreat, option: &str) -> Option<()> {
    match c.phase.clone() {
        Phase::Offer => {
            let hex = c.queue.remove(0);
            if option == "stand" {
                if let Some(m) = c.march.as_mut() {
                    m.declined.push(hex);
                }
                next(rules, state, c);
            } else {
                let chosen: Hex = option.strip_prefix("cavalry-retreat:")?.parse().ok()?;
                if chosen != hex {
                    return None;
                }
                c.phase = Phase::Roll { hex };
                state.stage = Stage::CavalryRetreat { c: Box::new(c) };
            }
        }
        Phase::Moving { mut retreat } => {
            let over = if option == retreat::OFF_MAP && retreat::off_map_allowed(rules, state, &retreat) {
                retreat::leave_map(rules, state, &retreat);
                true
            } else if option == "stop" {
                state.note(
                    format!("The cavalry retreat ends in {}.", rules.map().label(retreat.at())),
                    Some("GCACW 7.7"),
                );
                true
            } else {
                let to: Hex = option.strip_prefix("retreat:")?.parse().ok()?;
                retreat::take_step(rules, state, &mut retreat, to)? == Progress::Over
            };
            if over {
                for &u in &retreat.units {
                    if state.units[u].hex.is_some() {
                        let unit = &mut state.units[u];
                        unit.fatigue = (unit.fatigue + 1).min(4);
                        unit.organized = false;
                    }
                }
                if !retreat.units.is_empty() {
                    let names: Vec<String> = retreat.units.iter().map(|&u| rules.unit_name(state, u)).collect();
                    state.note(format!("{}: fatigue +1, disorganized.", names.join(", ")), Some("GCACW 7.7"));
                }
                next(rules, state, c);
            } else {
                c.phase = Phase::Moving { retreat };
                state.stage = Stage::CavalryRetreat { c: Box::new(c) };
            }
        }
        Phase::Roll { .. } => return None,
    }
    Some(())
}

/// The next cavalry hex to ask, or the march resumes.
fn next(rules: &Gcacw, state: &mut State, mut c: CavalryRetreat) {
    let side = c.cavalry_side(rules, state);
    c.queue.retain(|&h| !cavalry_in(rules, state, h, side).is_empty());
    if !c.queue.is_empty() {
        c.phase = Phase::Offer;
        state.stage = Stage::CavalryRetreat { c: Box::new(c) };
        return;
    }
    match (c.march, c.resume) {
        (Some(m), Resume::BeforeForceMarch) => march::offer_force_march(rules, state, m),
        (Some(mut m), Resume::Moving) => {
            m.stopped = march::in_enemy_zoc_now(rules, state, m.unit);
            march::resume_moving(rules, state, m);
        }
        (_, Resume::Assault { leader, selected, target }) => {
            state.stage = Stage::AssaultCommand { leader, selected, target };
        }
        (None, _) => sequence::next_action_phase(rules, state),
    }
}

/// An assault declared on a hex with cavalry: its owner may retreat it first, unless a cavalry
/// leader assaults (GCACW 7.7). Returns whether the game now waits for that decision.
pub fn offer_against_assault(
    rules: &Gcacw,
    state: &mut State,
    leader: usize,
    selected: Vec<usize>,
    target: Hex,
) -> bool {
    let lc = state.leaders[leader].counter as usize;
    let side = rules.catalog().get(lc).side.enemy();
    if rules.catalog().is_cavalry_leader(lc) || cavalry_in(rules, state, target, side).is_empty() {
        return false;
    }
    let c = CavalryRetreat {
        march: None,
        resume: Resume::Assault { leader, selected, target },
        queue: vec![target],
        phase: Phase::Offer,
    };
    state.stage = Stage::CavalryRetreat { c: Box::new(c) };
    true
}
