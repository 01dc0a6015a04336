//! Confederate arrivals by table (HSN Sc 2, and HSN-A 13.0 in Sc 9): at the start of each Action
//! Cycle from Turn 2 the Confederate player rolls for the number of arrival sets due; each time he
//! has the initiative he may place the lowest-numbered set not yet arrived in an entry hex
//! (an alternative entry hex costs one more fatigue level), and that set must at once take a March
//! or Activate Leader action, with +1 on its Movement Allowance roll.

use caisson_hexmap::Hex;
use caisson_kernel::{Choice, Decision, Modifier, RollRequest};

use crate::catalog::CounterType;
use crate::rules::Gcacw;
use crate::scenario::{ArrivalResult, ArrivalRow, RuleKind};
use crate::state::{Stage, State};
use crate::{actions, sequence, Side};

/// The list of arrivals the table governs.
pub const GROUP: &str = "confederate-arrivals";

struct Table<'a> {
    results: &'a [ArrivalResult],
    modifiers: &'a [crate::scenario::TurnModifier],
    alt_fatigue: u8,
    bonus: u8,
    source: &'a str,
}

fn table(rules: &Gcacw) -> Option<Table<'_>> {
    rules.scenario().special_rule.iter().find_map(|r| match &r.kind {
        RuleKind::ArrivalTable { results, modifiers, alt_entry_fatigue, first_action_bonus } => Some(Table {
            results,
            modifiers,
            alt_fatigue: *alt_entry_fatigue,
            bonus: *first_action_bonus,
            source: &r.source,
        }),
        _ => None,
    })
}

fn rows(rules: &Gcacw) -> impl Iterator<Item = &ArrivalRow> {
    rules.scenario().arrival.iter().filter(|r| r.group == GROUP)
}

/// Whether the counter of an arrival row has come on (or gone from) the map. A leader comes with
/// the units of his set: once one of them has arrived, so has he, even if he has since been
/// eliminated with them (GCACW 6.3) and is off the map again.
fn arrived(rules: &Gcacw, state: &State, row: &ArrivalRow) -> bool {
    let unit_arrived = |id: &str| {
        rules
            .unit_by_id(id)
            .map(|u| state.units[u].hex.is_some() || state.units[u].eliminated || crate::exits::exited(state, u))
    };
    if let Some(arrived) = unit_arrived(&row.counter) {
        return arrived;
    }
    rules.leader_by_id(&row.counter).is_some_and(|l| state.leaders[l].with.is_some())
        || rows(rules).any(|r| r.set.is_some() && r.set == row.set && unit_arrived(&r.counter) == Some(true))
}

/// The lowest-numbered set not yet on the map.
#[must_use]
pub fn next_set(rules: &Gcacw, state: &State) -> Option<u16> {
    rows(rules).filter(|r| !arrived(rules, state, r)).filter_map(|r| r.set).min()
}

fn sets_left(rules: &Gcacw, state: &State) -> usize {
    let mut sets: Vec<u16> = rows(rules).filter(|r| !arrived(rules, state, r)).filter_map(|r| r.set).collect();
    sets.sort_unstable();
    sets.dedup();
    sets.len()
}

/// Whether the arrival roll is made now: the scenario has a table, its first turn has come, and
/// some set has still to arrive.
#[must_use]
pub fn roll_due(rules: &Gcacw, state: &State) -> bool {
    let first = rows(rules).filter_map(|r| r.turn).min();
    table(rules).is_some() && first.is_some_and(|t| state.turn >= t) && next_set(rules, state).is_some()
}

/// The arrival roll.
#[must_use]
pub fn roll_request(rules: &Gcacw, state: &State) -> Option<RollRequest> {
    let t = table(rules)?;
    let modifiers = t
        .modifiers
        .iter()
        .filter(|m| m.turn == state.turn && m.value != 0)
        .map(|m| Modifier::new(format!("Turn {}", m.turn), m.value, t.source))
        .collect();
    Some(RollRequest {
        side: Side::Confederate.id().into(),
        purpose: "Confederate arrivals".into(),
        rule: t.source.to_string(),
        dice: 1,
        modifiers,
    })
}

/// The row of an arrival-style table a modified roll falls in.
pub(crate) fn lookup(results: &[ArrivalResult], roll: i32) -> Option<&ArrivalResult> {
    results.iter().find(|r| {
        r.roll == Some(roll) || r.min.is_some_and(|m| roll >= m) && r.roll.is_none() || r.max.is_some_and(|m| roll <= m)
    })
}

/// Applies the arrival roll: the number of sets due this turn and their fatigue.
pub fn apply_roll(rules: &Gcacw, state: &mut State, req: &RollRequest, dice: &[u8]) {
    let total = sequence::total(dice, &req.modifiers);
    let (sets, fatigue) = table(rules).and_then(|t| lookup(t.results, total)).map_or((0, 0), |r| (r.sets, r.fatigue));
    let sets = sets.min(u8::try_from(sets_left(rules, state)).unwrap_or(u8::MAX));
    state.arrivals_due = sets;
    state.arrival_fatigue = fatigue;
    let tired = if fatigue > 0 { format!(", arriving at fatigue {fatigue}") } else { String::new() };
    sequence::log_roll(state, req, dice, format!("{sets} set(s) of arrivals due this turn{tired}"));
    sequence::next_action_phase(rules, state);
}

/// Where the next set may be placed, with the extra fatigue of each hex.
fn entries(rules: &Gcacw, state: &State) -> Vec<(Hex, u8)> {
    let (Some(set), Some(t)) = (next_set(rules, state), table(rules)) else { return Vec::new() };
    let Some(row) = rows(rules).find(|r| r.set == Some(set)) else { return Vec::new() };
    let mut out = Vec::new();
    for (ranges, extra) in [(&row.entry, 0), (&row.alternative_entry, t.alt_fatigue)] {
        for hex in ranges.iter().flat_map(|r| r.hexes()) {
            let open = rules.map().contains(hex) && rules.occupant(state, hex) != Some(Side::Union);
            if open && out.iter().all(|(h, _)| *h != hex) {
                out.push((hex, extra));
            }
        }
    }
    out
}

/// Placement options for the Confederate player, when a set is due.
#[must_use]
pub fn options(rules: &Gcacw, state: &State) -> Vec<Choice> {
    if state.arrivals_due == 0 {
        return Vec::new();
    }
    let Some(set) = next_set(rules, state) else { return Vec::new() };
    let names: Vec<String> = rows(rules)
        .filter(|r| r.set == Some(set))
        .filter_map(|r| rules.catalog().index(&r.counter).map(|c| rules.catalog().get(c).name.clone()))
        .collect();
    entries(rules, state)
        .into_iter()
        .map(|(hex, extra)| {
            let fl = state.arrival_fatigue + extra;
            Choice::new(
                format!("arrive:{hex}"),
                format!("Arrival set {set} ({}) enters at {} (fatigue {fl})", names.join(", "), rules.map().label(hex)),
            )
        })
        .collect()
}

/// Places the next set; `None` if the option cannot be read.
pub fn place(rules: &Gcacw, state: &mut State, option: &str) -> Option<()> {
    let hex: Hex = option.strip_prefix("arrive:")?.parse().ok()?;
    let set = next_set(rules, state)?;
    let extra = entries(rules, state).into_iter().find(|(h, _)| *h == hex)?.1;
    let fatigue = state.arrival_fatigue + extra;
    let members: Vec<String> = rows(rules).filter(|r| r.set == Some(set)).map(|r| r.counter.clone()).collect();
    let mut divisions = Vec::new();
    for id in &members {
        if let Some(u) = rules.unit_by_id(id) {
            rules.relocate(state, u, hex);
            state.units[u].fatigue = fatigue;
            divisions.push(u);
        }
    }
    for id in &members {
        let Some(l) = rules.leader_by_id(id) else { continue };
        let lc = state.leaders[l].counter as usize;
        let carrier = divisions
            .iter()
            .copied()
            .find(|&u| rules.may_attach(state, lc, u))
            .or_else(|| divisions.iter().copied().find(|&u| rules.unit_type(state, u) == CounterType::Infantry));
        state.leaders[l].with = carrier;
    }
    state.arrivals_due -= 1;
    state.arriving = Some(set);
    let source = table(rules).map(|t| t.source.to_string()).unwrap_or_default();
    let names: Vec<String> = members
        .iter()
        .filter_map(|id| rules.catalog().index(id).map(|c| rules.catalog().get(c).name.clone()))
        .collect();
    state.note(
        format!(
            "Arrival set {set} ({}) enters at {}, fatigue {fatigue}; it must march or activate at once.",
            names.join(", "),
            rules.map().label(hex)
        ),
        Some(&source),
    );
    state.stage = Stage::ArrivalAction;
    if action_options(rules, state).is_empty() {
        sequence::next_action_phase(rules, state);
    }
    Some(())
}

fn in_arriving_set(rules: &Gcacw, state: &State, id: &str) -> bool {
    state.arriving.is_some_and(|set| rows(rules).any(|r| r.set == Some(set) && r.counter == id))
}

/// The first-action bonus for a unit's March, or an activating leader's roll.
#[must_use]
pub fn bonus(rules: &Gcacw, state: &State, id: &str) -> Option<Modifier> {
    let t = table(rules)?;
    (t.bonus > 0 && in_arriving_set(rules, state, id))
        .then(|| Modifier::new("first action after arrival", i32::from(t.bonus), t.source))
}

fn action_options(rules: &Gcacw, state: &State) -> Vec<Choice> {
    actions::options(rules, state, Side::Confederate)
        .into_iter()
        .filter(|c| {
            let Some((verb, id)) = c.id.split_once(':') else { return false };
            matches!(verb, "march" | "activate") && in_arriving_set(rules, state, id)
        })
        .collect()
}

/// The arriving set's compulsory action.
#[must_use]
pub fn action_decision(rules: &Gcacw, state: &State) -> Decision {
    Decision {
        side: Side::Confederate.id().into(),
        kind: "action".into(),
        prompt: "The arriving set must now take a March or Activate Leader action".into(),
        options: action_options(rules, state),
    }
}
