//! [SR 10.11, 10.12; EX 16.0-16.4] The scenario special rules in play, called from the sequence
//! at the points the rules name: reinforcement arrival (a line placed whole in its entry hex on
//! its brigade's Full Activation, or a battery as the Artillery Phase begins, even over-stacked,
//! then the hex cleared after the first move; per-turn brigade limits, later entry hexes, the
//! delay and the fall-back hex when the enemy is at the entry hex, Wheeler's fall-back near
//! Perryville), the 7th Arkansas's free Maneuver (16.0b), Crittenden's Right Hook (16.3:
//! the secret marker, its reveal and effects), off-map withdrawal and the exits of 16.4g,
//! Sudden Death (16.1), and the optional rules chosen as game options (16.1f, 16.1g).

use caisson_hexmap::{Hex, HexRange, Hexside};
use caisson_kernel::{Choice, Decision, Pending, RollRecord, RollRequest, RuleError};
use serde::Serialize;

use crate::catalog::Side;
use crate::charts::Order;
use crate::movement::{self, Board, StepCost};
use crate::rules::BlindSwords;
use crate::scenario::{RuleKind, Scenario, Victory};
use crate::state::{ix, other, side_id, Activator, MoveFor, Moving, Place, Stage, State};

// ---------------------------------------------------------------------------------------------
// Options

/// The optional rules the players chose (`--option name=value`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Options {
    /// EX 16.1g Night: the three night turns are played.
    pub night: bool,
    /// EX 16.1f The Designer's Great-Grandfather.
    pub great_grandfather: bool,
    /// EX 16.0d The solo variant (`solo=liddell`): the side of the scenario's `solo-bot` rule is
    /// played by the rules' Command Confusion roll and a bot ([`crate::solo`]).
    pub solo: bool,
    /// SR 13.2b Rebuild Option (`rebuild=on`), a series rule offered in every scenario: a unit
    /// that came back from the Broken Track never rebuilds to its Fresh side.
    pub rebuild: bool,
}

/// The option of the SR 13.2b Rebuild Option, offered whatever the scenario.
pub const REBUILD_OPTION: &str = "rebuild";

/// The option names, with the rule kind each turns on.
const OPTIONS: [(&str, &str); 3] = [("night", "16.1g"), ("great-grandfather", "16.1f"), ("solo", "16.0d")];

impl Options {
    /// Reads `name=on|off` options; an option is known only where the scenario offers its rule.
    ///
    /// # Errors
    /// An unknown option or value, or one the scenario does not offer.
    pub fn parse(options: &[String], sc: &Scenario) -> Result<Options, String> {
        let mut offered: Vec<&str> = OPTIONS
            .iter()
            .filter(|(_, kind)| sc.rules().any(|r| r.optional && optional_name(&r.kind) == Some(kind)))
            .map(|(n, _)| *n)
            .collect();
        offered.push(REBUILD_OPTION);
        let known = offered.iter().map(|n| format!("{n}={}|off", on_word(n))).collect::<Vec<_>>().join(", ");
        let mut o = Options::default();
        for opt in options {
            let (name, value) = opt.split_once('=').unwrap_or((opt.as_str(), ""));
            let on = match value {
                "off" => false,
                v if v == on_word(name) => true,
                _ => {
                    let on = on_word(name);
                    return Err(format!("game option `{opt}`: give `{name}={on}` or `{name}=off` (known: {known})"));
                }
            };
            if name == "solo" && !offered.contains(&name) {
                return Err(format!("scenario `{}` has no solo variant (only pv-16-0 has one, EX 16.0d)", sc.id));
            }
            if !offered.contains(&name) {
                return Err(format!("unknown game option `{opt}` (known: {known})"));
            }
            match name {
                "night" => o.night = on,
                "solo" => o.solo = on,
                REBUILD_OPTION => o.rebuild = on,
                _ => o.great_grandfather = on,
            }
        }
        Ok(o)
    }
}

/// The option of an optional rule's kind (its section tag in [`OPTIONS`]).
fn optional_name(kind: &RuleKind) -> Option<&'static str> {
    match kind {
        RuleKind::Night { .. } => Some("16.1g"),
        RuleKind::GameEndsOnRoll { .. } => Some("16.1f"),
        RuleKind::SoloBot { .. } => Some("16.0d"),
        _ => None,
    }
}

/// The value that turns an option on: `on`, or the bot's name for the solo variant.
#[must_use]
pub fn on_word(name: &str) -> &'static str {
    if name == "solo" {
        "liddell"
    } else {
        "on"
    }
}

/// The game option that turns an optional rule on, for the notices.
#[must_use]
pub fn option_of(kind: &RuleKind) -> Option<&'static str> {
    let tag = optional_name(kind)?;
    OPTIONS.iter().find(|(_, k)| *k == tag).map(|(n, _)| *n)
}

// ---------------------------------------------------------------------------------------------
// State

/// What the special rules remember between steps.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Special {
    /// Reinforcement lines delayed by the enemy at their entry hexes, with the turn (SR 10.11).
    pub delayed: Vec<(usize, u16)>,
    /// Brigades that entered this turn, by reinforcement line (EX 16.1, 16.3: two a turn).
    pub entered: Vec<(usize, String)>,
    /// Lines placed by their fall-back near Perryville (EX 16.1c).
    pub fallback: Vec<usize>,
    /// Lines that never enter: their hex was held and no fall-back hex was free (EX 16.1c).
    pub skipped: Vec<usize>,
    /// The Union's secret pick of the Right Hook marker: `Some(true)` Crittenden's Right Hook
    /// (EX 16.3). Never in a Confederate view before the reveal.
    pub hook: Option<bool>,
    /// The Right Hook has been revealed.
    pub hook_revealed: bool,
    /// The per-turn VP awarded in this End Turn Phase, Union first.
    pub award: [u32; 2],
    /// The turn the Buell Marker comes back to the track (EX 16.3).
    pub buell_returns: Option<u16>,
    /// Units that left the map at a scenario's exit hexes (EX 16.4g).
    pub exited: Vec<usize>,
    /// Entry hexes reinforcements were placed in over-stacked, with the units placed there;
    /// the stacking limit is waived there until they have moved off (SR 10.11).
    pub crowded: Vec<(Hex, Vec<usize>)>,
    /// A Sudden Death victory (EX 16.1).
    pub sudden_death: Option<Side>,
    /// The game ended by a special rule, and why (EX 16.1f).
    pub ended: Option<String>,
    /// The 16.1f unit was on the Broken Track at the last look.
    pub on_track: bool,
}

// ---------------------------------------------------------------------------------------------
// Reinforcements (SR 10.11; EX 16.1-16.4)

/// The Right Hook rule of the scenario, if any.
fn hook_rule(rules: &BlindSwords) -> Option<&RuleKind> {
    rules.scenario().rules().map(|r| &r.kind).find(|k| matches!(k, RuleKind::RightHook { .. }))
}

/// The entry spans and per-turn brigade limit of reinforcement line `r` for `brigade` this turn:
/// the Right Hook's once revealed (EX 16.3), else the line's, its later spans from their turn.
fn spans<'a>(rules: &'a BlindSwords, state: &State, r: usize, brigade: Option<&str>) -> (&'a [HexRange], Option<u8>) {
    let line = &rules.scenario().reinforcement[r];
    if let Some(RuleKind::RightHook { brigades, max_brigades_per_turn, entry, later_entry, later_from_turn, .. }) =
        hook_rule(rules)
    {
        if state.special.hook_revealed && brigade.is_some_and(|b| brigades.iter().any(|x| x == b)) {
            let span = if state.turn >= *later_from_turn { later_entry } else { entry };
            return (span, Some(*max_brigades_per_turn));
        }
    }
    let later = line.later_from_turn.is_some_and(|t| state.turn >= t);
    (if later { &line.later_entry } else { &line.entry }, line.max_brigades_per_turn)
}

/// Whether a hex is occupied by or adjacent to an enemy of `side` (SR 10.11).
fn threatened(rules: &BlindSwords, state: &State, board: &Board, side: Side, hex: Hex) -> bool {
    board.occupant(state, hex) == Some(other(side)) || movement::enemy_adjacent(rules, state, board, side, hex)
}

/// The printed entry hexes of a waiting unit, and those of them neither occupied by nor adjacent
/// to the enemy; empty when its line's brigades-per-turn limit is reached by other brigades.
fn entry(rules: &BlindSwords, state: &State, board: &Board, unit: usize) -> (Vec<Hex>, Vec<Hex>) {
    let u = &state.units[unit];
    let Place::Waiting(r) = u.place else { return (Vec::new(), Vec::new()) };
    let (span, max) = spans(rules, state, r, u.brigade.as_deref());
    if let (Some(max), Some(b)) = (max, u.brigade.as_deref()) {
        let mut others: Vec<&str> =
            state.special.entered.iter().filter(|(l, x)| *l == r && x != b).map(|(_, x)| x.as_str()).collect();
        others.sort_unstable();
        others.dedup();
        if others.len() >= usize::from(max) {
            return (Vec::new(), Vec::new());
        }
    }
    let map = &rules.data().map;
    let area = &rules.scenario().area;
    let mut all: Vec<Hex> =
        span.iter().flat_map(HexRange::hexes).filter(|h| map.contains(*h) && area.contains(*h)).collect();
    all.sort_unstable();
    all.dedup();
    let open = all.iter().copied().filter(|h| !threatened(rules, state, board, u.side, *h)).collect();
    (all, open)
}

/// The hexes a waiting reinforcement may enter by (SR 10.11): its open entry hexes; none in the
/// turn its entry is found held or threatened (delayed); on a later activation with the entry
/// still threatened, the closest hexes to it that are not (the owner picks among them).
#[must_use]
pub fn entry_hexes(rules: &BlindSwords, state: &State, unit: usize) -> Vec<Hex> {
    let board = Board::new(&rules.data().map, state);
    let (all, open) = entry(rules, state, &board, unit);
    if !open.is_empty() || all.is_empty() {
        return open;
    }
    let Place::Waiting(r) = state.units[unit].place else { return Vec::new() };
    if !state.special.delayed.iter().any(|(l, t)| *l == r && *t < state.turn) {
        return Vec::new();
    }
    let map = &rules.data().map;
    let side = state.units[unit].side;
    let area = &rules.scenario().area;
    let mut best = u16::MAX;
    let mut out = Vec::new();
    for h in map.hexes().filter(|h| area.contains(*h) && !threatened(rules, state, &board, side, *h)) {
        let d = all.iter().map(|e| map.distance(*e, h)).min().unwrap_or(u16::MAX);
        if d < best {
            best = d;
            out.clear();
        }
        if d == best {
            out.push(h);
        }
    }
    out
}

/// A unit of a reinforcement line is due to arrive: if its entry hexes are all occupied by or
/// adjacent to the enemy and the line was never delayed, it is delayed to the next turn (SR 10.11).
fn mark_delay(rules: &BlindSwords, state: &mut State, unit: usize) {
    let Place::Waiting(r) = state.units[unit].place else { return };
    if state.special.delayed.iter().any(|(l, _)| *l == r) {
        return;
    }
    let board = Board::new(&rules.data().map, state);
    let (all, open) = entry(rules, state, &board, unit);
    if !all.is_empty() && open.is_empty() {
        state.special.delayed.push((r, state.turn));
        state.note(
            format!(
                "{}'s entry hexes are occupied by or adjacent to the enemy: the reinforcements are delayed to the next turn",
                state.units[unit].name
            ),
            "SR 10.11",
        );
    }
}

/// A waiting unit enters the map: its brigade counts against its line's limit this turn.
pub fn entering(state: &mut State, unit: usize) {
    let u = &state.units[unit];
    if let (Place::Waiting(r), Some(b)) = (u.place, u.brigade.clone()) {
        if !state.special.entered.iter().any(|(l, x)| *l == r && *x == b) {
            state.special.entered.push((r, b));
        }
    }
}

/// Where the game goes on once reinforcements are placed and their entry hex is cleared.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "then")]
pub enum After {
    /// The brigade's order is carried out (SR 8).
    Order {
        /// The brigade.
        brigade: String,
        /// Its order.
        order: Order,
        /// Who activated it.
        by: Activator,
    },
    /// The brigade's Movement Step ends.
    Movement {
        /// The movement.
        for_: MoveFor,
    },
    /// The Artillery Steps begin.
    Artillery,
    /// The Artillery Steps end, the Artillery Rally Step follows.
    ArtilleryEnd,
}

/// The waiting reinforcements that arrive now, one group per reinforcement line: the infantry
/// and cavalry of `brigade` on its Full Activation, or every released battery at the start of the
/// Artillery Phase (`None`) (SR 10.11).
fn groups(state: &State, brigade: Option<&str>) -> Vec<Vec<usize>> {
    let mut out: Vec<(usize, Vec<usize>)> = Vec::new();
    for (i, u) in state.units.iter().enumerate() {
        let Place::Waiting(r) = u.place else { continue };
        let due = match brigade {
            Some(b) => u.brigade.as_deref() == Some(b) && !u.ty.is_artillery(),
            None => u.ty.is_artillery() && !u.on_hold,
        };
        if !due {
            continue;
        }
        match out.iter_mut().find(|(l, _)| *l == r) {
            Some((_, g)) => g.push(i),
            None => out.push((r, vec![i])),
        }
    }
    out.into_iter().map(|(_, g)| g).collect()
}

/// Places the reinforcements due now (SR 10.11): each line's units all in one entry hex, even
/// over-stacked. A line delayed this turn, or over its brigades-per-turn limit, stays off the
/// map. Returns the decision when the owner must pick among several entry hexes.
pub fn arrive(rules: &BlindSwords, state: &mut State, brigade: Option<&str>, after: &After) -> Option<Stage> {
    for group in groups(state, brigade) {
        mark_delay(rules, state, group[0]);
        match entry_hexes(rules, state, group[0]).as_slice() {
            [] => {}
            [hex] => place(rules, state, &group, *hex),
            _ => return Some(Stage::Arrive { units: group, after: after.clone() }),
        }
    }
    None
}

/// Puts a reinforcement group in its entry hex, over-stacked if need be (SR 10.11).
fn place(rules: &BlindSwords, state: &mut State, group: &[usize], hex: Hex) {
    for &i in group {
        entering(state, i);
        crate::sequence::occupy(rules, state, i, hex);
    }
    let names: Vec<&str> = group.iter().map(|i| state.units[*i].name.as_str()).collect();
    let board = Board::new(&rules.data().map, state);
    let crowded = movement::stacking_fault(rules, state, &board, hex, None);
    let text = match &crowded {
        Some(why) => format!("{} arrive in {hex}, over-stacked ({why})", names.join(", ")),
        None => format!("{} arrive in {hex}", names.join(", ")),
    };
    state.note(text, "SR 10.11");
    if crowded.is_some() {
        state.special.crowded.push((hex, group.to_vec()));
    }
}

/// The hexes a unit forced off an over-stacked entry hex may take (SR 10.11): adjacent, in
/// play, enterable by its type, within stacking, and neither held by nor next to the enemy (a
/// forced move engages no one, ruling PG36).
fn unstack_hexes(rules: &BlindSwords, state: &State, unit: usize) -> Vec<Hex> {
    let Some(from) = state.hex_of(unit) else { return Vec::new() };
    let map = &rules.data().map;
    let board = Board::new(map, state);
    let u = &state.units[unit];
    map.neighbors(from)
        .map(|(_, n)| n)
        .filter(|n| rules.scenario().area.contains(*n) && !threatened(rules, state, &board, u.side, *n))
        .filter(|n| movement::cost(rules, u.ty, None, u.skirmish, Some(from), *n).is_some())
        .filter(|n| movement::stacking_fault(rules, state, &board, *n, Some(unit)).is_none())
        .collect()
}

/// Reinforcements still over-stacked in their entry hex once their first move is over (or when
/// they cannot move) leave it one unit at a time, the largest SP first, each to an adjacent
/// legal hex, until the hex is within the limit (SR 10.11). A unit with no such hex goes back off
/// the map to arrive again (ruling PG36). Returns the decision of the next unit to move.
pub fn unstack(rules: &BlindSwords, state: &mut State, after: &After) -> Option<Stage> {
    loop {
        let board = Board::new(&rules.data().map, state);
        let still: Vec<(Hex, Vec<usize>)> = state
            .special
            .crowded
            .iter()
            .filter(|(h, _)| movement::stacking_fault(rules, state, &board, *h, None).is_some())
            .map(|(h, g)| (*h, g.iter().copied().filter(|i| state.hex_of(*i) == Some(*h)).collect::<Vec<_>>()))
            .filter(|(_, g)| !g.is_empty())
            .collect();
        state.special.crowded.clone_from(&still);
        let (hex, mut group) = still.into_iter().next()?;
        group.sort_by_key(|i| (std::cmp::Reverse(state.units[*i].sp_halves), state.units[*i].id.clone()));
        if let Some(&unit) = group.iter().find(|i| !unstack_hexes(rules, state, **i).is_empty()) {
            return Some(Stage::Unstack { unit, after: after.clone() });
        }
        let unit = group[0];
        let crate::state::Line::Reinforcement(line) = state.units[unit].line else {
            state.special.crowded.retain(|(h, _)| *h != hex);
            continue;
        };
        state.units[unit].place = Place::Waiting(line);
        let name = state.units[unit].name.clone();
        state.note(
            format!("{name} has no adjacent hex to leave the over-stacked entry hex for: it goes back off the map"),
            "SR 10.11, PG36",
        );
    }
}

/// Goes on after reinforcements are placed or an entry hex is cleared.
fn resume(rules: &BlindSwords, state: &mut State, after: After) {
    match after {
        After::Order { brigade, order, by } => crate::sequence::start_order(rules, state, brigade, by, order),
        After::Movement { for_ } => crate::sequence::finish_move(rules, state, &for_),
        After::Artillery => {
            state.stage = arrive(rules, state, None, &After::Artillery)
                .unwrap_or(Stage::Artillery { side: rules.scenario().first_player, passes: 0 });
        }
        After::ArtilleryEnd => {
            state.stage = unstack(rules, state, &After::ArtilleryEnd)
                .unwrap_or(Stage::Rally { for_: crate::state::RallyFor::Artillery { side: Side::Union } });
        }
    }
}

/// How a "placed within N hexes of" reinforcement line comes in (EX 16.1c, 16.2e, 16.4f).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// Around its hex.
    Near,
    /// Its hex is held by the enemy: in a free hex near Perryville.
    Fallback,
    /// Its hex is held and no fall-back hex is free: it never enters.
    Never,
}

/// How reinforcement line `r` arrives now.
#[must_use]
pub fn arrival(rules: &BlindSwords, state: &State, r: usize, side: Side) -> Arrival {
    let line = &rules.scenario().reinforcement[r];
    let (Some(near), Some(_)) = (line.near, line.fallback_town_within) else { return Arrival::Near };
    if state.occupant(near) != Some(other(side)) {
        Arrival::Near
    } else if fallback(rules, state, r).is_empty() {
        Arrival::Never
    } else {
        Arrival::Fallback
    }
}

/// The free hexes within the fall-back distance of a Perryville town hex (EX 16.1c).
fn fallback(rules: &BlindSwords, state: &State, r: usize) -> Vec<Hex> {
    let Some(d) = rules.scenario().reinforcement[r].fallback_town_within else { return Vec::new() };
    let map = &rules.data().map;
    let board = Board::new(map, state);
    let area = &rules.scenario().area;
    map.hexes()
        .filter(|h| area.contains(*h) && board.units(*h).next().is_none())
        .filter(|h| rules.towns().iter().any(|t| map.distance(*t, *h) <= d))
        .collect()
}

/// The hexes a unit of a fall-back line may be placed in, or `None` if its line is not one.
#[must_use]
pub fn fallback_hexes(rules: &BlindSwords, state: &State, unit: usize) -> Option<(Vec<Hex>, u16)> {
    let crate::state::Line::Reinforcement(r) = state.units[unit].line else { return None };
    if !state.special.fallback.contains(&r) {
        return None;
    }
    let d = rules.scenario().reinforcement[r].fallback_town_within?;
    Some((fallback(rules, state, r), d))
}

// ---------------------------------------------------------------------------------------------
// 16.0b: a unit may maneuver whatever its brigade's order or roll

/// Whether `unit` may take a Maneuver order this turn whatever its brigade's (EX 16.0b).
#[must_use]
pub fn free_maneuver(rules: &BlindSwords, state: &State, unit: usize) -> bool {
    let id = &state.units[unit].id;
    rules
        .scenario()
        .rules()
        .any(|r| matches!(&r.kind, RuleKind::FreeManeuver { unit: u, turns } if u == id && turns.contains(&state.turn)))
}

/// The order a unit moves under in a movement: its brigade's, or Maneuver for EX 16.0b's unit.
#[must_use]
pub fn unit_order(rules: &BlindSwords, state: &State, for_: &MoveFor, unit: usize) -> Option<Order> {
    match for_ {
        MoveFor::Artillery { .. } => None,
        MoveFor::Brigade { .. } if free_maneuver(rules, state, unit) => Some(Order::Maneuver),
        MoveFor::Brigade { order, .. } => Some(*order),
    }
}

/// A brigade that makes no movement (a Limited Activation, a Regroup order) still lets EX 16.0b's
/// unit move under a Maneuver order: the movement of that unit alone.
#[must_use]
pub fn free_maneuver_move(rules: &BlindSwords, state: &State, brigade: &str, by: &Activator) -> Option<Stage> {
    let unit = (0..state.units.len()).find(|&i| {
        state.units[i].brigade.as_deref() == Some(brigade)
            && matches!(state.units[i].place, Place::Map(h) if state.chaos != Some(h))
            && free_maneuver(rules, state, i)
    })?;
    let others =
        (0..state.units.len()).filter(|&i| i != unit && state.units[i].brigade.as_deref() == Some(brigade)).collect();
    let mp = movement::allowance(&rules.data().charts, state.units[unit].ty, Order::Maneuver);
    Some(Stage::Move {
        for_: MoveFor::Brigade { brigade: brigade.to_string(), order: Order::Maneuver, by: by.clone() },
        moved: others,
        current: Some(Moving::new(unit, mp)),
    })
}

// ---------------------------------------------------------------------------------------------
// 16.3 Crittenden's Right Hook

/// The stage before turn 1 begins: the Union's secret pick of the Right Hook marker (EX 16.3).
#[must_use]
pub fn before_turn(rules: &BlindSwords, state: &State) -> Option<Stage> {
    (state.turn == 1 && hook_rule(rules).is_some() && state.special.hook.is_none()).then_some(Stage::RightHookSecret)
}

/// After the Buell roll (or where it would be): the Union may reveal the Right Hook (EX 16.3).
/// The decision is offered whichever side of the marker is down, so that its coming says
/// nothing to the Confederate player.
pub fn after_buell(rules: &BlindSwords, state: &mut State) {
    let Some(RuleKind::RightHook { reveal_by_turn, .. }) = hook_rule(rules) else { return };
    if state.special.hook.is_some() && !state.special.hook_revealed && state.turn <= *reveal_by_turn {
        let next = std::mem::replace(&mut state.stage, Stage::Over);
        state.stage = Stage::RightHookReveal { next: Box::new(next) };
    }
}

fn decide(side: Side, kind: &str, prompt: String, options: Vec<Choice>) -> Pending {
    Pending::Decide(Decision { side: side_id(side).into(), kind: kind.into(), prompt, options })
}

/// What the special rules' stages wait for.
#[must_use]
pub fn pending(rules: &BlindSwords, state: &State) -> Pending {
    match &state.stage {
        Stage::RightHookSecret => decide(
            Side::Union,
            "right-hook",
            "Crittenden's Right Hook: pick the marker's side, secretly (EX 16.3)".into(),
            vec![
                Choice::new("hook:right-hook", "Crittenden's Right Hook: II Corps may come early"),
                Choice::new("hook:no-right-hook", "No Right Hook"),
            ],
        ),
        Stage::RightHookReveal { .. } => {
            let last = match hook_rule(rules) {
                Some(RuleKind::RightHook { reveal_by_turn, .. }) => state.turn >= *reveal_by_turn,
                _ => true,
            };
            let mut options = Vec::new();
            if state.special.hook == Some(true) {
                options.push(Choice::new("hook:reveal", "Reveal Crittenden's Right Hook"));
            }
            if !(last && state.special.hook == Some(true)) {
                options.push(Choice::new("hook:keep", "Keep the marker hidden"));
            }
            let prompt = if last {
                "Right Hook marker: its last turn; a Right Hook must be revealed now (EX 16.3)"
            } else {
                "Right Hook marker: reveal it now, or keep it hidden (EX 16.3)"
            };
            decide(Side::Union, "right-hook", prompt.into(), options)
        }
        Stage::Arrive { units, .. } => {
            let Some(&first) = units.first() else { return Pending::Over };
            let names: Vec<&str> = units.iter().map(|i| state.units[*i].name.as_str()).collect();
            let options = entry_hexes(rules, state, first)
                .into_iter()
                .map(|h| Choice::new(format!("arrive:{h}"), format!("Place them all in {h}")))
                .collect();
            decide(
                state.units[first].side,
                "arrive",
                format!("Reinforcements {}: the entry hex they are all placed in (SR 10.11)", names.join(", ")),
                options,
            )
        }
        Stage::Unstack { unit, .. } => {
            let u = &state.units[*unit];
            let from = state.hex_of(*unit).map(|h| h.to_string()).unwrap_or_default();
            let options = unstack_hexes(rules, state, *unit)
                .into_iter()
                .map(|h| Choice::new(format!("unstack:{h}"), format!("{} moves to {h}", u.name)))
                .collect();
            decide(
                u.side,
                "unstack",
                format!("{from} is over-stacked: {}, the largest unit, moves to an adjacent hex (SR 10.11)", u.name),
                options,
            )
        }
        Stage::GreatGrandfather { .. } => {
            let (unit, roll) = grandfather(rules).unwrap_or(("", 6));
            let name = state.unit_index(unit).map_or(unit, |i| state.units[i].name.as_str());
            Pending::Roll(RollRequest {
                side: side_id(Side::Union).into(),
                purpose: format!("{name} is on the Broken Track: a {roll} ends the game"),
                rule: "EX 16.1f".into(),
                dice: 1,
                modifiers: vec![],
            })
        }
        _ => Pending::Over,
    }
}

/// Applies a choice in a special rule's stage.
///
/// # Errors
/// The option is not offered; the state is then unchanged.
pub fn choose(rules: &BlindSwords, state: &mut State, option: &str) -> Result<(), RuleError> {
    let Pending::Decide(d) = pending(rules, state) else { return Err(RuleError::NotAnOption(option.into())) };
    if !d.options.iter().any(|o| o.id == option) {
        return Err(RuleError::NotAnOption(option.into()));
    }
    match (state.stage.clone(), option) {
        (Stage::RightHookSecret, _) => {
            state.special.hook = Some(option == "hook:right-hook");
            state.note("The Union player puts the Right Hook marker face down under a heavy object", "EX 16.3");
            state.stage = Stage::TurnStart;
        }
        (Stage::RightHookReveal { next }, "hook:reveal") => {
            state.stage = *next;
            reveal(rules, state);
        }
        (Stage::Arrive { units, after }, _) => {
            let hex = option.strip_prefix("arrive:").and_then(|h| h.parse::<Hex>().ok());
            let hex = hex.ok_or_else(|| RuleError::NotAnOption(option.into()))?;
            place(rules, state, &units, hex);
            resume(rules, state, after);
        }
        (Stage::Unstack { unit, after }, _) => {
            let hex = option.strip_prefix("unstack:").and_then(|h| h.parse::<Hex>().ok());
            let hex = hex.ok_or_else(|| RuleError::NotAnOption(option.into()))?;
            let from = state.hex_of(unit).map(|h| h.to_string()).unwrap_or_default();
            crate::sequence::occupy(rules, state, unit, hex);
            let name = state.units[unit].name.clone();
            state.note(format!("{name} leaves the over-stacked {from} for {hex}"), "SR 10.11");
            resume(rules, state, after);
        }
        (Stage::RightHookReveal { next }, _) => {
            state.note("The Right Hook marker stays hidden", "EX 16.3");
            state.stage = *next;
        }
        _ => return Err(RuleError::NotAnOption(option.into())),
    }
    Ok(())
}

/// EX 16.3: the reveal's effects.
fn reveal(rules: &BlindSwords, state: &mut State) {
    let Some(RuleKind::RightHook { vp_side, vp, buell_turns_ahead, remove_chits, add_chits, brigades, .. }) =
        hook_rule(rules)
    else {
        return;
    };
    state.special.hook_revealed = true;
    state.note("The Union reveals Crittenden's Right Hook", "EX 16.3");
    state.vp[ix(*vp_side)] += u32::from(*vp);
    state.note(format!("{vp_side} scores {vp} VP for the Right Hook"), "EX 16.3");
    let award = std::mem::take(&mut state.special.award);
    for side in Side::BOTH {
        if award[ix(side)] > 0 {
            state.vp[ix(side)] = state.vp[ix(side)].saturating_sub(award[ix(side)]);
            state.note(
                format!("{side} loses this turn's {} per-turn VP: none are scored from this turn on", award[ix(side)]),
                "EX 16.3, PG21",
            );
        }
    }
    if state.buell_box.take().is_some() {
        let back = state.turn + buell_turns_ahead;
        state.special.buell_returns = Some(back);
        state.note(
            format!("The Buell Marker goes on the turn track, {buell_turns_ahead} turns ahead (turn {back})"),
            "EX 16.3",
        );
    }
    for c in remove_chits {
        state.chits.in_play.retain(|x| x != c);
        if let Some(i) = state.chits.cup.iter().position(|x| x == c) {
            let chit = state.chits.cup.remove(i);
            state.chits.out.push(chit);
        }
        state.note(format!("{} is removed from the game", chit_name(rules, c)), "EX 16.3");
    }
    for c in add_chits {
        if !state.chits.in_play.contains(c) {
            state.chits.in_play.push(c.clone());
        }
        state.note(format!("{} goes in the cup", chit_name(rules, c)), "EX 16.3");
    }
    let held: Vec<String> = brigades.iter().filter(|b| state.brigade(b).is_some_and(|s| s.on_hold)).cloned().collect();
    for b in held {
        crate::sequence::release(rules, state, &b, false);
    }
}

fn chit_name(rules: &BlindSwords, id: &str) -> String {
    rules.data().catalog.chit(id).map_or_else(|| id.to_string(), |c| c.name.clone())
}

/// The start of a turn: the brigade counts of the last turn are cleared, and the Buell Marker
/// returns to the leftmost box of the track on its turn (EX 16.3).
pub fn turn_begins(state: &mut State) {
    state.special.entered.clear();
    state.special.award = [0, 0];
    if state.special.buell_returns == Some(state.turn) {
        state.special.buell_returns = None;
        state.buell_box = Some(0);
        state.note("The Buell Marker returns to the leftmost box of the Buell Alert Track", "EX 16.3");
    }
}

/// The per-turn VP of this End Turn Phase have been scored.
pub fn awarded(state: &mut State, side: Side, vp: u32) {
    state.special.award[ix(side)] += vp;
}

// ---------------------------------------------------------------------------------------------
// SR 10.12 off-map withdrawal; EX 16.4g exits

/// Whether a hex is a map edge hex: one of its six neighbours is off the map.
fn edge(rules: &BlindSwords, hex: Hex) -> bool {
    rules.data().map.neighbors(hex).count() < 6
}

/// Whether `unit`, on the map, may leave it now at an EX 16.4g exit hex.
fn counted_exit(rules: &BlindSwords, state: &State, unit: usize) -> bool {
    state.hex_of(unit).is_some_and(|hex| counted_exit_at(rules, state, unit, hex, false))
}

/// Whether `unit` leaving the map from `hex` now counts as an EX 16.4g exit (`retreat`: it is
/// driven off by a retreat, which counts only where the scenario says so).
fn counted_exit_at(rules: &BlindSwords, state: &State, unit: usize, hex: Hex, retreat: bool) -> bool {
    let side = state.units[unit].side;
    let map = &rules.data().map;
    rules.scenario().rules().any(|r| match &r.kind {
        RuleKind::ExitHexes { from_turn, hexes, adjacent, blocker, blocked_side, retreat_counts } => {
            state.turn >= *from_turn
                && (!retreat || *retreat_counts)
                && hexes.iter().any(|h| *h == hex || (*adjacent && map.distance(*h, hex) == 1))
                && !(*blocked_side == side && state.occupant(*blocker) == Some(other(side)))
        }
        _ => false,
    })
}

/// A retreat drives `unit` off the map from one of the edge hexes `from` (SR 12.3): if one of
/// them is an EX 16.4g exit hex that counts now, the unit is exited for victory, whatever its
/// type, instead of going to the Broken Track or being eliminated (ruling PG34). Returns whether
/// it was.
pub fn retreat_exit(rules: &BlindSwords, state: &mut State, unit: usize, from: &[Hex]) -> bool {
    let Some(&hex) = from.iter().find(|h| counted_exit_at(rules, state, unit, **h, true)) else { return false };
    state.units[unit].place = Place::Exited;
    state.units[unit].skirmish = false;
    state.special.exited.push(unit);
    let name = state.units[unit].name.clone();
    state.note(format!("{name} retreats off the map from {hex}: it counts as exited"), "EX 16.4g");
    true
}

/// The exit a moving unit may take now, if any: off a map edge hex for 1 MP (SR 10.12), or at
/// the scenario's exit hexes (EX 16.4g), which count for victory.
#[must_use]
pub fn exit_option(rules: &BlindSwords, state: &State, m: &Moving) -> Option<Choice> {
    let hex = state.hex_of(m.unit)?;
    // SR 10.12: 1 MP; as for any step, the first of a move is always allowed (SR 10.3).
    if m.mp < 1.0 && m.steps > 0 {
        return None;
    }
    let name = &state.units[m.unit].name;
    if counted_exit(rules, state, m.unit) {
        Some(Choice::new("exit", format!("{name} exits the map from {hex} (1 MP; counts for victory, EX 16.4g)")))
    } else if edge(rules, hex) {
        Some(Choice::new("exit", format!("{name} withdraws off the map from {hex} (1 MP; out of the game, SR 10.12)")))
    } else {
        None
    }
}

/// A unit leaves the map (SR 10.12; EX 16.4g).
pub fn exit(rules: &BlindSwords, state: &mut State, unit: usize) {
    let from = state.hex_of(unit).map(|h| h.to_string()).unwrap_or_default();
    let counted = counted_exit(rules, state, unit);
    state.units[unit].place = Place::Exited;
    let name = state.units[unit].name.clone();
    if counted {
        state.special.exited.push(unit);
        state.note(format!("{name} exits the map from {from}"), "EX 16.4g");
    } else {
        state.note(format!("{name} withdraws off the map from {from}, out of the game"), "SR 10.12");
    }
}

/// Units of each side exited for victory, Union first (EX 16.4g).
#[must_use]
pub fn exits(state: &State) -> [usize; 2] {
    let mut out = [0, 0];
    for i in &state.special.exited {
        out[ix(state.units[*i].side)] += 1;
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Sudden Death (EX 16.1)

/// At the Victory Point Awards: a side holding every per-turn hex and enough of its own end
/// objectives wins at once (EX 16.1 Sudden Death). Returns the winner, and records it.
pub fn sudden_death(rules: &BlindSwords, state: &mut State) -> Option<Side> {
    let Victory::Points { per_turn, objective, sudden_death: Some(sd), .. } = &rules.scenario().victory else {
        return None;
    };
    let winner = Side::BOTH.into_iter().find(|&side| {
        let turn_hexes = per_turn.iter().filter(|t| state.controller(t.hex) == Some(side)).count();
        let own = objective
            .iter()
            .filter(|o| o.side == side && crate::victory::counts(rules, state, o))
            .filter(|o| state.controller(o.hex) == Some(side))
            .count();
        turn_hexes >= usize::from(sd.per_turn_hexes) && own >= usize::from(sd.objectives)
    })?;
    state.special.sudden_death = Some(winner);
    state.note(
        format!(
            "{winner} holds the {} per-turn hexes and {} of its end objectives: Sudden Death",
            sd.per_turn_hexes, sd.objectives
        ),
        "EX 16.1",
    );
    Some(winner)
}

// ---------------------------------------------------------------------------------------------
// Optional rules: 16.1f The Designer's Great-Grandfather, 16.1g Night

/// The unit and roll of 16.1f, when the option is on.
fn grandfather(rules: &BlindSwords) -> Option<(&str, u8)> {
    if !rules.options().great_grandfather {
        return None;
    }
    rules.scenario().rules().find_map(|r| match &r.kind {
        RuleKind::GameEndsOnRoll { unit, roll } => Some((unit.as_str(), *roll)),
        _ => None,
    })
}

/// Checked after every step: when 16.1f's unit has just gone to the Broken Track, the game
/// stops for the roll (EX 16.1f). Returns whether it did.
pub fn interrupt(rules: &BlindSwords, state: &mut State) -> bool {
    let Some((unit, _)) = grandfather(rules) else { return false };
    let Some(i) = state.unit_index(unit) else { return false };
    let on = matches!(state.units[i].place, Place::Broken(_));
    let fresh = on && !state.special.on_track;
    state.special.on_track = on;
    if !fresh || matches!(state.stage, Stage::Over | Stage::GreatGrandfather { .. }) {
        return false;
    }
    let next = std::mem::replace(&mut state.stage, Stage::Over);
    state.stage = Stage::GreatGrandfather { next: Box::new(next) };
    true
}

/// Applies the 16.1f roll.
///
/// # Errors
/// No such roll is pending.
pub fn roll(rules: &BlindSwords, state: &mut State, dice: &[u8]) -> Result<(), RuleError> {
    let (Stage::GreatGrandfather { next }, Pending::Roll(req), Some((_, end))) =
        (state.stage.clone(), pending(rules, state), grandfather(rules))
    else {
        return Err(RuleError::Unexpected("no roll is pending".into()));
    };
    let d = dice.first().copied().unwrap_or(0);
    let text = if d == end {
        "Albert Grossman is killed; the designer never existed, and the game ends at once".to_string()
    } else {
        format!("{d}: Albert Grossman survives")
    };
    let record = RollRecord::new(&req, dice, text.clone());
    state.log.push(caisson_kernel::LogEntry {
        turn: state.turn,
        text: text.clone(),
        rule: Some(req.rule),
        roll: Some(record),
    });
    if d == end {
        state.special.ended = Some("abandoned: the designer never existed (EX 16.1f)".into());
        state.stage = Stage::Over;
    } else {
        state.stage = *next;
    }
    Ok(())
}

/// The Night rule's parameters, on a night turn (EX 16.1g).
#[must_use]
pub fn night<'a>(rules: &'a BlindSwords, state: &State) -> Option<&'a RuleKind> {
    if !rules.options().night || state.turn <= rules.scenario().turns {
        return None;
    }
    rules.scenario().rules().map(|r| &r.kind).find(|k| matches!(k, RuleKind::Night { .. }))
}

/// The night's turns added to the scenario's when the option is on (EX 16.1g).
#[must_use]
pub fn extra_turns(sc: &Scenario, options: Options) -> (u16, Vec<String>) {
    if !options.night {
        return (0, Vec::new());
    }
    sc.rules()
        .find_map(|r| match &r.kind {
            RuleKind::Night { extra_turns, clock, .. } => Some((*extra_turns, clock.clone())),
            _ => None,
        })
        .unwrap_or_default()
}

/// A step's cost at night (EX 16.1g): a step not along a road (a trail step included) costs
/// double, a road step may use the March Column rate (PG27).
pub fn night_cost(rules: &BlindSwords, state: &State, from: Option<Hex>, to: Hex, cost: &mut StepCost) {
    let Some(RuleKind::Night { off_road_cost, .. }) = night(rules, state) else { return };
    let road = from.is_some_and(|f| rules.data().map.hexside(f, to).contains(Hexside::ROAD));
    if road {
        let column = rules.data().charts.terrain.movement().march_column;
        if column < cost.mp {
            cost.mp = column;
            cost.why.push_str(", night: March Column rate on the road, EX 16.1g");
        }
    } else {
        cost.mp *= f64::from(*off_road_cost);
        cost.why.push_str(&format!(", night ×{off_road_cost}, EX 16.1g"));
    }
}

/// Whether fire may reach `to` from `from` at night (EX 16.1g: line of sight at most `los_max`).
#[must_use]
pub fn night_sight(rules: &BlindSwords, state: &State, from: Hex, to: Hex) -> bool {
    match night(rules, state) {
        Some(RuleKind::Night { los_max, .. }) => rules.data().map.distance(from, to) <= *los_max,
        _ => true,
    }
}

/// Whether units may receive Unit Support now (EX 16.1g: none at night).
#[must_use]
pub fn support_allowed(rules: &BlindSwords, state: &State) -> bool {
    !matches!(night(rules, state), Some(RuleKind::Night { support: false, .. }))
}

/// What the view shows of the Right Hook marker to `side` (`None`: both at one table).
#[must_use]
pub fn hook_view(rules: &BlindSwords, state: &State, side: Option<Side>) -> serde_json::Value {
    if hook_rule(rules).is_none() {
        return serde_json::Value::Null;
    }
    let shown = match (state.special.hook, state.special.hook_revealed) {
        (_, true) => "revealed",
        (None, false) => "not placed",
        (Some(_), false) if side == Some(Side::Confederate) => "hidden",
        (Some(true), false) => "right-hook",
        (Some(false), false) => "no-right-hook",
    };
    serde_json::json!(shown)
}
