//! Winter weather (HSN-A 4.0): the Winter Weather Phase from Turn 14 until winter starts, and the
//! questions the other procedures ask about it. The table (first turn, the roll that starts
//! winter, the turn modifiers, how many turns after the start the last winter turn is) is data:
//! the `winter-weather` rule of the scenario.
//!
//! What winter changes, and where it is enforced:
//! - no entrenching in the Action Cycle or the Recovery Phase: `actions::may_entrench`,
//!   `recovery::may_entrench`;
//! - no Burn RR Station action: `actions::options`;
//! - the Action Cycle ends on the first tied initiative roll: `sequence::roll`;
//! - rain movement costs, with creeks and fords open as in clear weather: `movement::step`;
//! - no March that would bring a unit to Fatigue Level 3 or 4: [`bars_march`];
//! - the attacker's −2 in every combat: `combat` (the modifiers of an attack);
//! - no Assault actions: [`crate::events::assault_allowed`].

use caisson_kernel::{Modifier, RollRequest};
use serde::{Deserialize, Serialize};

use crate::campaign::Winter;
use crate::rules::Gcacw;
use crate::scenario::RuleKind;
use crate::sequence::{self, Phase};
use crate::state::{Stage, State};

/// A modifier of the Winter Weather Table for a range of turns.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TurnsModifier {
    /// First turn.
    pub from: u16,
    /// Last turn (none: every turn after `from`).
    #[serde(default)]
    pub to: Option<u16>,
    /// Modifier.
    pub value: i32,
}

/// The Winter Weather Table (HSN-A 4.0).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WinterTable {
    /// First turn of the Winter Weather Phase.
    pub from_turn: u16,
    /// Lowest modified roll that starts winter.
    pub starts_at: i32,
    /// Turns from the Winter Weather Start marker to the Last Turn of Winter marker.
    pub last_after: u16,
    /// Turn modifiers.
    #[serde(default)]
    pub modifiers: Vec<TurnsModifier>,
}

/// The scenario's Winter Weather Table, with the rule's source, if it has one.
#[must_use]
pub fn table(rules: &Gcacw) -> Option<(&WinterTable, &str)> {
    rules.scenario().special_rule.iter().find_map(|r| match &r.kind {
        RuleKind::WinterWeather(t) => Some((t, r.source.as_str())),
        _ => None,
    })
}

/// Whether winter weather is in effect now (HSN-A 4.0).
#[must_use]
pub fn on(state: &State) -> bool {
    state.campaign.winter_on(state.turn)
}

/// Winter Weather Phase (HSN-A 1.0, 4.0): from the table's first turn, a roll each turn until
/// winter has started; otherwise the phase passes.
pub fn begin(rules: &Gcacw, state: &mut State) {
    match table(rules) {
        Some((t, _)) if state.turn >= t.from_turn && state.campaign.winter.is_none() => {
            state.stage = Stage::WinterWeatherRoll;
        }
        _ => sequence::phase_done(rules, state, Phase::WinterWeather),
    }
}

/// The Union player's Winter Weather roll with this turn's modifier.
#[must_use]
pub fn roll_request(rules: &Gcacw, state: &State) -> Option<RollRequest> {
    let (t, source) = table(rules)?;
    let modifiers = t
        .modifiers
        .iter()
        .filter(|m| state.turn >= m.from && m.to.is_none_or(|to| state.turn <= to))
        .map(|m| Modifier::new(format!("Turn {}", state.turn), m.value, source))
        .collect();
    Some(RollRequest {
        side: crate::Side::Union.id().into(),
        purpose: "Winter Weather Table".into(),
        rule: "HSN-A 4.0".into(),
        dice: 1,
        modifiers,
    })
}

/// Applies the Winter Weather roll: at or above the table's number winter starts this turn, and
/// the Last Turn of Winter marker goes `last_after` turns ahead.
pub fn apply_roll(rules: &Gcacw, state: &mut State, req: &RollRequest, dice: &[u8]) {
    let Some((t, _)) = table(rules) else {
        sequence::phase_done(rules, state, Phase::WinterWeather);
        return;
    };
    let total = sequence::total(dice, &req.modifiers);
    if total >= t.starts_at {
        let winter = Winter { start: state.turn, last: state.turn.saturating_add(t.last_after) };
        sequence::log_roll(
            state,
            req,
            dice,
            format!("{total}: Winter Weather Start on Turn {}; Last Turn of Winter {}", winter.start, winter.last),
        );
        state.campaign.winter = Some(winter);
        state.note(
            format!("Winter weather is in effect from this turn through Turn {}.", winter.last),
            Some("HSN-A 4.0"),
        );
        // HSN-A 4.0, Sc 9 Wagons: Union wagons still on the map when winter starts are removed.
        crate::wagons::remove_for_winter(rules, state);
    } else {
        sequence::log_roll(state, req, dice, format!("{total}: no effect"));
    }
    sequence::phase_done(rules, state, Phase::WinterWeather);
}

/// Whether winter forbids unit `u` a March, alone or in an Activate Leader action, because the
/// march would raise its Fatigue Level to 3 or 4 (HSN-A 4.0; a unit at Fatigue Level 4 may not
/// march either: ruling R46).
#[must_use]
pub fn bars_march(state: &State, u: usize) -> bool {
    on(state) && state.units.get(u).is_some_and(|unit| unit.fatigue >= 2)
}
