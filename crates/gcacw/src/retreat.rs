//! Retreats, routs and cavalry retreats (GCACW 7.6, 7.7): the retreating stack moves hex by hex,
//! each hex chosen by the owner among the legal hexes with the lowest Priority Number of the
//! Retreat Chart in force, paying that description's Manpower loss; surrender when no legal hex
//! is left; one override of the priorities when it alone avoids surrender.

use caisson_hexmap::{Hex, Hexside, Terrain};
use caisson_kernel::{Choice, Decision};
use serde::Serialize;

use crate::charts::{RetreatHex, RetreatRow};
use crate::rules::Gcacw;
use crate::state::{Loss, LossCause, State};
use crate::zoc::Zoc;
use crate::Side;

/// The kind of retreat, which sets its length and charts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RetreatKind {
    /// "r": two to four hexes.
    Retreat,
    /// "R": four to six hexes.
    Rout,
    /// Cavalry retreat (7.7): four to six hexes, no chart losses but for enemy-occupied hexes.
    Cavalry,
    /// The Defender's Retreat Option: one to four hexes, may end next to the start.
    Voluntary,
}

impl RetreatKind {
    /// Fewest and most hexes.
    #[must_use]
    pub const fn length(self) -> (usize, usize) {
        match self {
            RetreatKind::Retreat => (2, 4),
            RetreatKind::Rout | RetreatKind::Cavalry => (4, 6),
            RetreatKind::Voluntary => (1, 4),
        }
    }

    /// The chart for the `n`-th hex entered (1-based), when not leaving an enemy ZOC (7.6).
    #[must_use]
    pub const fn chart(self, n: usize) -> u8 {
        match self {
            RetreatKind::Retreat | RetreatKind::Voluntary if n <= 1 => 1,
            RetreatKind::Rout | RetreatKind::Cavalry if n <= 4 => 1,
            _ => 2,
        }
    }
}

/// A retreat in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Retreat {
    /// Retreating side.
    pub side: Side,
    /// The stack (unit indices).
    pub units: Vec<usize>,
    /// Where it began.
    pub start: Hex,
    /// The hex of the active enemy unit or leader: the retreat may never come closer to it.
    pub enemy: Hex,
    /// Kind.
    pub kind: RetreatKind,
    /// Hexes entered so far.
    pub path: Vec<Hex>,
    /// Whether the one override of priorities has been used.
    pub override_used: bool,
}

/// One hex the stack may enter next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetreatStep {
    /// The hex.
    pub hex: Hex,
    /// Its retreat description.
    pub row: RetreatRow,
    /// Manpower each unit loses there.
    pub loss: u8,
    /// Whether taking it uses the override.
    pub override_needed: bool,
}

impl Retreat {
    /// Where the stack is now.
    #[must_use]
    pub fn at(&self) -> Hex {
        self.path.last().copied().unwrap_or(self.start)
    }

    /// Whether the stack may stop where it is: enough hexes, not in an enemy-occupied hex, and
    /// (but for a voluntary retreat) not next to the start.
    #[must_use]
    pub fn may_stop(&self, rules: &Gcacw, state: &State) -> bool {
        let (min, _) = self.kind.length();
        let at = self.at();
        self.path.len() >= min
            && rules.occupant(state, at) != Some(self.side.enemy())
            && (self.kind == RetreatKind::Voluntary || at.distance(self.start) > 1)
    }

    /// Whether the stack must stop: the most hexes, unless it stands in an enemy hex (then it
    /// goes on until it is out of one).
    #[must_use]
    pub fn must_stop(&self, rules: &Gcacw, state: &State) -> bool {
        let (_, max) = self.kind.length();
        self.path.len() >= max && self.may_stop(rules, state)
    }
}

/// Whether the stack may enter `to` from `from` at all (7.6 retreat restrictions; GCACW 12.0 and
/// HSN Sc 7 Turn 3: no ford or destroyed bridge while rain or a scenario makes rivers
/// unfordable; HSN-A 8.0: no Confederate retreat into an undestroyed Union fort).
fn legal(rules: &Gcacw, state: &State, r: &Retreat, from: Hex, to: Hex) -> bool {
    let map = rules.map();
    let Some(terrain) = map.terrain(to) else { return false };
    if terrain == Terrain::Water || to == r.start || to == r.enemy || r.path.contains(&to) {
        return false;
    }
    if to.distance(r.enemy) < from.distance(r.enemy)
        || (rules.prohibited_on(r.side, to, state.turn) && rules.retreat_removes(r.side, to, state.turn).is_none())
    {
        return false;
    }
    // HSN-A 8.0: no Confederate retreat into an undestroyed Union fort.
    if r.side == Side::Confederate && crate::combat::undestroyed_fort(rules, state, to) {
        return false;
    }
    let side = map.hexside(from, to);
    let route = side.intersects(Hexside::ANY_ROUTE);
    if side.contains(Hexside::ALL_WATER) {
        return false;
    }
    let swampy = |t: Option<Terrain>| {
        matches!(t, Some(Terrain::Swamp | Terrain::Mountain)) || (state.rain && t == Some(Terrain::ProvisionalSwamp))
    };
    if !route && (swampy(map.terrain(from)) || swampy(Some(terrain))) {
        return false;
    }
    if side.intersects(Hexside::RIVER) {
        let c = state.bridges.crossing(map, from, to);
        let own_pontoon = c.pontoon.is_some_and(|(owner, _)| owner == r.side);
        let fordable = !state.rain && !crate::combat::unfordable(rules, state);
        if !(c.bridge || own_pontoon || (c.ford && fordable))
            || (side.contains(Hexside::MAJOR_RIVER) && r.side == Side::Confederate)
        {
            return false;
        }
    }
    if state.rain && side.contains(Hexside::CREEK) && !route {
        return false;
    }
    true
}

/// The hexes the stack may enter next, with their descriptions: the legal hexes of the lowest
/// Priority Number on the chart in force, or — when following the priorities can only end in
/// surrender and the override is unused — every legal hex from which the retreat can be completed.
#[must_use]
pub fn steps(rules: &Gcacw, state: &State, r: &Retreat) -> Vec<RetreatStep> {
    let candidates = described(rules, state, r);
    let best = candidates.iter().map(|s| s.row.priority).min();
    let by_priority: Vec<RetreatStep> = candidates.iter().filter(|s| Some(s.row.priority) == best).cloned().collect();
    if r.override_used || by_priority.iter().any(|s| completes(rules, state, &advance(r, s.hex), false, 12)) {
        return by_priority;
    }
    // Surrender is otherwise certain: one override, anywhere on the path (7.6).
    candidates
        .into_iter()
        .filter(|s| completes(rules, state, &advance(r, s.hex), true, 12))
        .map(|mut s| {
            s.override_needed = best != Some(s.row.priority);
            s
        })
        .chain(by_priority.into_iter().filter(|s| completes(rules, state, &advance(r, s.hex), true, 12)))
        .fold(Vec::new(), |mut acc: Vec<RetreatStep>, s| {
            if !acc.iter().any(|a| a.hex == s.hex) {
                acc.push(s);
            }
            acc
        })
}

fn advance(r: &Retreat, hex: Hex) -> Retreat {
    let mut next = r.clone();
    next.path.push(hex);
    next
}

/// Every legal next hex with its description on the chart in force.
fn described(rules: &Gcacw, state: &State, r: &Retreat) -> Vec<RetreatStep> {
    let map = rules.map();
    let from = r.at();
    let enemy_zoc = rules.zoc_of(state, r.side.enemy());
    let in_zoc = |h: Hex| map.index(h).is_some_and(|i| enemy_zoc[i] != Zoc::None);
    let chart = if in_zoc(from) { 1 } else { r.kind.chart(r.path.len() + 1) };
    let mut out = Vec::new();
    for (_, to) in map.neighbors(from) {
        if !legal(rules, state, r, from, to) {
            continue;
        }
        let occupant = rules
            .on_map(state)
            .find(|&(u, h)| h == to && !r.units.contains(&u))
            .map(|(u, _)| rules.unit_side(state, u));
        let city = map.terrain(from) == Some(Terrain::City) || map.terrain(to) == Some(Terrain::City);
        let hex = RetreatHex {
            farther: to.distance(r.enemy) > from.distance(r.enemy),
            across_route: map.hexside(from, to).intersects(Hexside::ANY_ROUTE) || city,
            enemy_zoc: in_zoc(to),
            enemy_occupied: occupant == Some(r.side.enemy()),
            friendly_occupied: occupant == Some(r.side),
        };
        let Some(row) = rules.charts().retreat_description(chart, &hex) else { continue };
        let removed = rules.retreat_removes(r.side, to, state.turn).is_some();
        let loss = if removed || (r.kind == RetreatKind::Cavalry && !hex.enemy_occupied) {
            0
        } else {
            row.loss_for(hex.across_route, hex.friendly_occupied)
        };
        out.push(RetreatStep { hex: to, row: row.clone(), loss, override_needed: false });
    }
    out
}

/// Whether the retreat can be brought to a legal end from here, following the priorities (and,
/// with `override_left`, breaking them once). Bounded in depth; retreats are at most six hexes
/// plus the hexes needed to leave enemy-occupied ones.
fn completes(rules: &Gcacw, state: &State, r: &Retreat, override_left: bool, depth: u8) -> bool {
    if r.may_stop(rules, state) || rules.retreat_removes(r.side, r.at(), state.turn).is_some() {
        return true;
    }
    if depth == 0 {
        return false;
    }
    let candidates = described(rules, state, r);
    let best = candidates.iter().map(|s| s.row.priority).min();
    candidates.iter().any(|s| {
        let keeps = Some(s.row.priority) == best;
        (keeps || override_left) && completes(rules, state, &advance(r, s.hex), override_left && keeps, depth - 1)
    })
}

/// Where a retreat stands after a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// It goes on: the owner chooses the next hex, or stops.
    Going,
    /// It is over: it reached its most hexes, the stack is gone, or it surrendered.
    Over,
}

/// Moves the stack one hex (an option of [`decision`]), paying the description's loss per unit
/// (cavalry retreats: only for enemy-occupied hexes), overrunning enemy pontoons, and ending the
/// retreat when it must end or surrendering when it cannot go on. `None` if `to` is not a legal
/// step now.
pub fn take_step(rules: &Gcacw, state: &mut State, r: &mut Retreat, to: Hex) -> Option<Progress> {
    let step = steps(rules, state, r).into_iter().find(|s| s.hex == to)?;
    r.override_used |= step.override_needed;
    r.path.push(to);
    if let Some(rule) = rules.retreat_removes(r.side, to, state.turn) {
        let what = format!("retreats into {} (closed to its side)", rules.map().label(to));
        remove_from_game(rules, state, &r.units, &what, rule);
        return Some(Progress::Over);
    }
    let cause = if r.kind == RetreatKind::Cavalry { LossCause::CavalryRetreat } else { LossCause::Retreat };
    for &u in &r.units.clone() {
        if state.units[u].hex.is_some() {
            rules.relocate(state, u, to);
            if step.loss > 0 {
                rules.lose_manpower(state, u, step.loss, cause, &step.row.description, "GCACW 7.6");
            }
            if let Some(rule) = forced_out(rules, state, u, to) {
                let left = state.units[u].manpower;
                let why = format!("retreat out of the counties it must keep to ({})", rule.title);
                rules.lose_manpower(state, u, left, cause, &why, &rule.source);
            }
        }
    }
    r.units.retain(|&u| state.units[u].hex.is_some());
    crate::bridges::overrun_all(rules, state, &r.units);
    if r.units.is_empty() {
        return Some(Progress::Over);
    }
    if r.must_stop(rules, state) {
        state.note(format!("The retreat ends in {}.", rules.map().label(to)), Some("GCACW 7.6"));
        return Some(Progress::Over);
    }
    if steps(rules, state, r).is_empty() && !r.may_stop(rules, state) && !off_map_allowed(rules, state, r) {
        surrender(rules, state, r);
        return Some(Progress::Over);
    }
    Some(Progress::Going)
}

/// The scenario rule that keeps unit `u` to some counties, if `to` is outside them: a unit forced
/// to retreat out of them is eliminated (HSN Sc 3 Hammond's Cavalry Brigade).
fn forced_out<'r>(rules: &'r Gcacw, state: &State, u: usize, to: Hex) -> Option<&'r crate::scenario::SpecialRule> {
    let id = rules.unit_id(state, u);
    let county = rules.map().county(to);
    rules.scenario().special_rule.iter().find(|r| {
        matches!(&r.kind, crate::scenario::RuleKind::Confined { counters, counties }
            if counters.iter().any(|c| c == id) && !counties.iter().any(|c| Some(c.as_str()) == county))
    })
}

/// The stack has nowhere legal to go: every unit surrenders and is eliminated (GCACW 7.6). A
/// Union stack forced into the closed strip south of the Harpeth (HSN Sc 7 Common Movement
/// Restriction) is instead out of play: removed with no Manpower loss, so no VP. (Confederate
/// units forced there are eliminated and their loss scores, which is a surrender.)
pub fn surrender(rules: &Gcacw, state: &mut State, r: &Retreat) {
    if forced_into_strip(rules, r) {
        let what = "is forced into the closed area south of the Harpeth (out of play for the Union)";
        remove_from_game(rules, state, &r.units, what, "HSN Sc 7 Common Movement Restriction");
        return;
    }
    for &u in &r.units {
        if state.units[u].hex.is_some() {
            let left = state.units[u].manpower;
            state.note(
                format!("{} has nowhere to retreat and surrenders.", rules.unit_name(state, u)),
                Some("GCACW 7.6"),
            );
            rules.lose_manpower(state, u, left, LossCause::Retreat, "surrender", "GCACW 7.6");
        }
    }
}

/// Whether a Union stack stands next to a hex of the HSN Sc 7 closed strip that is no closer to
/// the enemy: the strip is what stops its retreat.
fn forced_into_strip(rules: &Gcacw, r: &Retreat) -> bool {
    let strip = rules.scenario().rules().find_map(|k| match k {
        crate::scenario::RuleKind::HarpethStrip { rows_at_most } => Some(*rows_at_most),
        _ => None,
    });
    let Some(rows) = strip else { return false };
    let at = r.at();
    r.side == Side::Union
        && rules
            .map()
            .neighbors(at)
            .any(|(_, n)| n.row <= rows && rules.south_of_harpeth(n) && n.distance(r.enemy) >= at.distance(r.enemy))
}

/// The decision of the next retreat hex (or stopping).
#[must_use]
pub fn decision(rules: &Gcacw, state: &State, r: &Retreat) -> Decision {
    let names: Vec<String> = r.units.iter().map(|&u| rules.unit_name(state, u)).collect();
    let steps = if r.must_stop(rules, state) { Vec::new() } else { steps(rules, state, r) };
    let mut options: Vec<Choice> = steps
        .into_iter()
        .map(|s| {
            let loss = if s.loss > 0 { format!(", −{} Manpower each", s.loss) } else { String::new() };
            let ov = if s.override_needed { ", overriding the priorities once" } else { "" };
            let out = if rules.retreat_removes(r.side, s.hex, state.turn).is_some() {
                ", then removed from the game (no VP)"
            } else {
                ""
            };
            Choice::new(
                format!("retreat:{}", s.hex),
                format!(
                    "To {} — priority {}: {}{loss}{ov}{out}",
                    rules.map().label(s.hex),
                    s.row.priority,
                    s.row.description
                ),
            )
        })
        .collect();
    if r.may_stop(rules, state) {
        options.push(Choice::new("stop", format!("Stop in {}", rules.map().label(r.at()))));
    }
    let (min, max) = r.kind.length();
    Decision {
        side: r.side.id().into(),
        kind: "retreat".into(),
        prompt: format!(
            "{} {:?}: {min}–{max} hexes, {} so far, from {} away from {} (GCACW 7.6)",
            names.join(", "),
            r.kind,
            r.path.len(),
            rules.map().label(r.start),
            rules.map().label(r.enemy)
        ),
        options,
    }
}

/// The option id of leaving the map in a retreat ([`off_map_choice`], [`leave_map`]).
pub const OFF_MAP: &str = "retreat:off";

/// Whether the retreating stack may leave the map now (HSN Sc 8 Map Edge, the scenario's
/// `off-map-retreat` rule for its side): it stands on a map-edge hex (a playable hex with a
/// neighbour off the map) that it may still leave, and an off-map neighbour is no closer to the
/// active enemy (GCACW 7.6). Rulings: any map edge counts, as the rule names none (digest A22:
/// the scenario notes point to the south edge, where the Sc 8 forces stand); a retreat, a rout
/// and the Defender's Retreat Option (a retreat) may leave, a cavalry retreat (GCACW 7.7) may
/// not, as the HSN texts keep "retreat" and "cavalry retreat" apart; the stack may leave from
/// the defender's hex itself, before any on-map hex.
/// In a scenario with exit hexes (HSN-A 14.0), the stack may leave from them instead
/// ([`crate::exits::retreat_may_exit`]), cavalry retreats included.
#[must_use]
pub fn off_map_allowed(rules: &Gcacw, state: &State, r: &Retreat) -> bool {
    if crate::exits::retreat_may_exit(rules, state, r) {
        return true;
    }
    let ruled = rules
        .scenario()
        .rules()
        .any(|k| matches!(k, crate::scenario::RuleKind::OffMapRetreat { side } if *side == r.side));
    if !ruled || r.kind == RetreatKind::Cavalry || r.units.is_empty() || r.must_stop(rules, state) {
        return false;
    }
    let map = rules.map();
    let at = r.at();
    map.contains(at) && at.neighbors().any(|(_, n)| !map.contains(n) && n.distance(r.enemy) >= at.distance(r.enemy))
}

/// The retreat decision's option to leave the map, when [`off_map_allowed`].
#[must_use]
pub fn off_map_choice(rules: &Gcacw, state: &State, r: &Retreat) -> Option<Choice> {
    if crate::exits::retreat_may_exit(rules, state, r) {
        return Some(Choice::new(
            OFF_MAP,
            format!(
                "Leave the map from {}: out of the game for good, no extra Manpower lost (HSN-A 14.0)",
                rules.map().label(r.at())
            ),
        ));
    }
    off_map_allowed(rules, state, r).then(|| {
        Choice::new(
            OFF_MAP,
            format!(
                "Leave the map from {}: removed from the game, no Manpower lost off the map (scenario rule)",
                rules.map().label(r.at())
            ),
        )
    })
}

/// The stack leaves the map (HSN Sc 8 Map Edge): every unit and the leaders with it are removed
/// from the game with no Manpower loss (so no VP), and the retreat is over. Losses already paid
/// on the map stand. The caller checks [`off_map_allowed`] first.
pub fn leave_map(rules: &Gcacw, state: &mut State, r: &Retreat) -> Progress {
    let from = rules.map().label(r.at());
    if crate::exits::retreat_may_exit(rules, state, r) {
        crate::exits::leave(rules, state, &r.units, &format!("retreats off the map from {from}"));
        return Progress::Over;
    }
    remove_from_game(rules, state, &r.units, &format!("retreats off the map from {from}"), "HSN Sc 8 Map Edge");
    Progress::Over
}

/// Removes retreating units and the leaders with them from the game with no Manpower loss: their
/// Manpower goes to the ledger as removed from play, a cause that never scores, so that like any
/// unit out of the game they keep none.
fn remove_from_game(rules: &Gcacw, state: &mut State, units: &[usize], what: &str, rule: &str) {
    for &u in units {
        if state.units[u].hex.is_none() {
            continue;
        }
        state.units[u].hex = None;
        state.units[u].eliminated = true;
        state.units[u].entrenchment = None;
        let amount = std::mem::take(&mut state.units[u].manpower);
        if amount > 0 {
            state.losses.push(Loss { turn: state.turn, unit: u, amount, cause: LossCause::RemovedFromPlay });
        }
        state.note(format!("{} {what} and is removed from the game.", rules.unit_name(state, u)), Some(rule));
        for l in 0..state.leaders.len() {
            if state.leaders[l].with == Some(u) {
                state.leaders[l].with = None;
                let name = rules.leader_counter(state, l).name.clone();
                state.note(format!("{name} goes with it."), Some(rule));
            }
        }
    }
    let occupied: std::collections::BTreeSet<Hex> = state.units.iter().filter_map(|u| u.hex).collect();
    state.flanks_refused.retain(|h| occupied.contains(h));
    crate::victory::observe(rules, state);
}
