//! The Union Manpower Enhancement Phase (HSN-A 11.0): on its turns the Union player rolls a die;
//! the roll lets one cavalry unit, one infantry unit (regiments included), or one of each gain one
//! Manpower, up to the caps of HSN-A 7.2, unless the unit is hemmed in.

use caisson_kernel::{Choice, Decision, RollRequest};

use crate::catalog::CounterType;
use crate::rules::Gcacw;
use crate::scenario::{EnhancementResult, ManpowerCap, RuleKind};
use crate::sequence::{self, Phase};
use crate::state::{side_index, Gain, Stage, State};
use crate::zoc::Zoc;
use crate::Side;

struct Table<'a> {
    first: u16,
    last: u16,
    results: &'a [EnhancementResult],
    caps: &'a [ManpowerCap],
    source: &'a str,
}

fn table(rules: &Gcacw) -> Option<Table<'_>> {
    rules.scenario().special_rule.iter().find_map(|r| match &r.kind {
        RuleKind::ManpowerEnhancement { first_turn, last_turn, results, caps } => {
            Some(Table { first: *first_turn, last: *last_turn, results, caps, source: &r.source })
        }
        _ => None,
    })
}

/// Union Manpower Enhancement Phase: a roll on its turns, else straight on.
pub fn begin(rules: &Gcacw, state: &mut State) {
    match table(rules) {
        Some(t) if (t.first..=t.last).contains(&state.turn) => state.stage = Stage::EnhancementRoll,
        _ => sequence::phase_done(rules, state, Phase::ManpowerEnhancement),
    }
}

/// The enhancement roll.
#[must_use]
pub fn roll_request(rules: &Gcacw) -> Option<RollRequest> {
    let t = table(rules)?;
    Some(RollRequest {
        side: Side::Union.id().into(),
        purpose: "Union Manpower Enhancement".into(),
        rule: t.source.to_string(),
        dice: 1,
        modifiers: Vec::new(),
    })
}

/// Applies the roll: the units that may gain Manpower, chosen next.
pub fn apply_roll(rules: &Gcacw, state: &mut State, req: &RollRequest, dice: &[u8]) {
    let found = table(rules).and_then(|t| t.results.iter().find(|r| dice.first() == Some(&r.roll)));
    let (cavalry, infantry) = found.map_or((0, 0), |r| (r.cavalry, r.infantry));
    let text = match (cavalry, infantry) {
        (0, 0) => "no effect".to_string(),
        (c, i) => format!("{c} cavalry and {i} infantry unit(s) may gain 1 Manpower"),
    };
    sequence::log_roll(state, req, dice, text);
    next(rules, state, cavalry, infantry);
}

fn next(rules: &Gcacw, state: &mut State, cavalry: u8, infantry: u8) {
    if options(rules, state, cavalry, infantry).is_empty() {
        if cavalry + infantry > 0 {
            state.note("No Union unit may gain the Manpower the roll allows.", table(rules).map(|t| t.source));
        }
        sequence::phase_done(rules, state, Phase::ManpowerEnhancement);
    } else {
        state.stage = Stage::Enhancement { cavalry, infantry };
    }
}

/// The printed type a unit counts as here: cavalry (unmounted or not), infantry, or neither.
fn arm(rules: &Gcacw, state: &State, u: usize) -> Option<CounterType> {
    match rules.unit_counter(state, u).ty {
        t @ (CounterType::Cavalry | CounterType::Infantry) => Some(t),
        _ => None,
    }
}

/// The unit's Manpower cap (HSN-A 7.2), if the table has one for its type and size.
#[must_use]
pub fn cap(rules: &Gcacw, state: &State, u: usize) -> Option<u8> {
    let t = table(rules)?;
    let c = rules.unit_counter(state, u);
    t.caps.iter().find(|k| k.ty == c.ty && k.size == c.size).map(|k| k.max)
}

/// Whether a Union unit may gain Manpower now: on the map, under its cap, and not with every
/// adjacent hex enemy-occupied or in an enemy ZOC no Union unit holds (HSN-A 11.0; off-map
/// neighbours do not hem it in, docs/rulings.md R60).
#[must_use]
pub fn eligible(rules: &Gcacw, state: &State, u: usize, board: &crate::rules::Board) -> bool {
    let unit = &state.units[u];
    let Some(hex) = unit.hex else { return false };
    if rules.unit_side(state, u) != Side::Union || unit.eliminated || arm(rules, state, u).is_none() {
        return false;
    }
    if cap(rules, state, u).is_none_or(|c| unit.manpower >= c) {
        return false;
    }
    let map = rules.map();
    let enemy = side_index(Side::Confederate);
    let hemmed = map.neighbors(hex).all(|(_, n)| {
        map.index(n).is_some_and(|i| {
            board.occupant[i] == Some(Side::Confederate)
                || (board.zoc[enemy][i] != Zoc::None && board.occupant[i] != Some(Side::Union))
        })
    }) && map.neighbors(hex).count() == 6;
    !hemmed
}

fn options(rules: &Gcacw, state: &State, cavalry: u8, infantry: u8) -> Vec<Choice> {
    let board = rules.board(state);
    let mut out = Vec::new();
    for u in 0..state.units.len() {
        let ty = arm(rules, state, u);
        let due = match ty {
            Some(CounterType::Cavalry) => cavalry > 0,
            Some(CounterType::Infantry) => infantry > 0,
            _ => false,
        };
        if !due || !eligible(rules, state, u, &board) {
            continue;
        }
        let unit = &state.units[u];
        let hex = unit.hex.map(|h| rules.map().label(h)).unwrap_or_default();
        out.push(Choice::new(
            format!("enhance:{}", rules.unit_id(state, u)),
            format!(
                "{} in {hex} gains 1 Manpower ({} → {})",
                rules.unit_name(state, u),
                unit.manpower,
                unit.manpower + 1
            ),
        ));
    }
    out
}

/// The choice of unit.
#[must_use]
pub fn decision(rules: &Gcacw, state: &State, cavalry: u8, infantry: u8) -> Decision {
    let mut options = options(rules, state, cavalry, infantry);
    options.push(Choice::new("none", "Enhance no (more) units this turn"));
    let what = match (cavalry > 0, infantry > 0) {
        (true, true) => "a cavalry unit and an infantry unit",
        (true, false) => "a cavalry unit",
        _ => "an infantry unit",
    };
    Decision {
        side: Side::Union.id().into(),
        kind: "enhancement".into(),
        prompt: format!("Union Manpower Enhancement: choose {what} to gain 1 Manpower"),
        options,
    }
}

/// Applies the choice; `None` if unreadable or not open.
pub fn choose(rules: &Gcacw, state: &mut State, cavalry: u8, infantry: u8, option: &str) -> Option<()> {
    if option == "none" {
        state.note("The Union player enhances no more units this turn.", table(rules).map(|t| t.source));
        sequence::phase_done(rules, state, Phase::ManpowerEnhancement);
        return Some(());
    }
    let id = option.strip_prefix("enhance:")?;
    let u = rules.unit_by_id(id)?;
    if !options(rules, state, cavalry, infantry).iter().any(|c| c.id == option) {
        return None;
    }
    let source = table(rules).map(|t| t.source.to_string()).unwrap_or_default();
    state.units[u].manpower += 1;
    state.gains.push(Gain { turn: state.turn, unit: u, amount: 1 });
    let side = if state.units[u].organized { "organized" } else { "disorganized" };
    state.note(
        format!(
            "{} gains 1 Manpower: now {}, its marker still {side}.",
            rules.unit_name(state, u),
            state.units[u].manpower
        ),
        Some(&source),
    );
    let (cavalry, infantry) = match arm(rules, state, u) {
        Some(CounterType::Cavalry) => (cavalry.saturating_sub(1), infantry),
        _ => (cavalry, infantry.saturating_sub(1)),
    };
    next(rules, state, cavalry, infantry);
    Some(())
}
