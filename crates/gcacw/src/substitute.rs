//! Substitute units (HSN-A 7.0–7.3): detaching a substitute brigade or regiment from a marching
//! unit (7.1), the Attachment Phase in which substitutes and small units join a friendly unit of
//! their type in their hex (7.2), and the Artillery they carry either way (7.3).
//!
//! The substitute counters are ordinary units of the state, off the map with no Manpower while in
//! their side's pool (the pool is the strict limit of 7.1). What a substitute takes over from its
//! parent — its command and its Tactical value — and every Artillery value changed by a
//! detachment or an attachment (the Artillery markers of 7.3) are kept in [`Substitutes`], in
//! [`crate::campaign::Campaign::substitutes`]. A phase or option here only exists when the
//! scenario has the `substitutes` rule (HSN Sc 9).

use std::collections::{BTreeMap, BTreeSet};

use caisson_hexmap::Hex;
use caisson_kernel::{Choice, Decision};
use serde::{Deserialize, Serialize};

use crate::catalog::CounterType;
use crate::rules::Gcacw;
use crate::scenario::RuleKind;
use crate::state::{March, Stage, State};
use crate::{sequence, Side};

const RULE_DETACH: &str = "HSN-A 7.1";
const RULE_ATTACH: &str = "HSN-A 7.2";
const RULE_ARTILLERY: &str = "HSN-A 7.3";

/// One side's pool of substitutes of one type (HSN-A 7.0, 7.1 Size).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Pool {
    /// The side.
    pub side: Side,
    /// Infantry (brigades) or cavalry (regiments).
    #[serde(rename = "type")]
    pub ty: CounterType,
    /// Least Manpower a substitute may be given.
    #[serde(default = "one")]
    pub min_manpower: u8,
    /// Most Manpower a substitute may be given.
    pub max_manpower: u8,
    /// The substitute counters, in the order they are used.
    pub counters: Vec<String>,
}

const fn one() -> u8 {
    1
}

/// The most Manpower a unit of a side, type and size may reach by attachment (HSN-A 7.2 Size).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Cap {
    /// The side.
    pub side: Side,
    /// Unit type.
    #[serde(rename = "type")]
    pub ty: CounterType,
    /// Unit size (`division`, `brigade`, `regiment`).
    pub size: String,
    /// Highest Manpower after attaching.
    pub max: u8,
}

/// Commands whose infantry (and their detachments) may attach only to units of the same group
/// (HSN-A 7.2 Union Commands).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CommandGroup {
    /// The side.
    pub side: Side,
    /// Command codes of the group (a unit belongs to it if its command is one of them or below).
    pub commands: Vec<String>,
}

/// The parameters of the `substitutes` scenario rule (HSN-A 7.0–7.3).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SubstituteRule {
    /// Least Manpower of a marching unit that detaches (7.1).
    pub parent_min: u8,
    /// Manpower the parent keeps at least (7.1 Size).
    pub parent_keeps: u8,
    /// The pools.
    pub pools: Vec<Pool>,
    /// Attachment caps.
    pub caps: Vec<Cap>,
    /// Command groups of the Union Commands restriction.
    #[serde(default)]
    pub command_groups: Vec<CommandGroup>,
}

/// What a substitute on the map took over from its parent (HSN-A 7.1 Command; ruling R75).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Detached {
    /// The parent's counter id.
    pub parent: String,
    /// The command it belongs to: the parent's.
    pub command: String,
    /// Its Tactical value: the parent's defending value at detachment (ruling R75).
    pub tactical: Option<u8>,
}

/// Where and how the march in progress began, for the status of a substitute placed in the start
/// hex (HSN-A 7.1 Determining Status).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Origin {
    /// The marching unit.
    pub unit: usize,
    /// The hex it began its march in.
    pub hex: Hex,
    /// Its Fatigue Level before it was selected to march.
    pub fatigue: u8,
}

/// The substitutes' bookkeeping (HSN-A 7.0–7.3).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Substitutes {
    /// Substitutes placed on the map, by unit index.
    pub detached: BTreeMap<usize, Detached>,
    /// Artillery markers: a unit's Artillery value where a detachment or attachment changed it
    /// from the printed one (HSN-A 7.3).
    pub artillery: BTreeMap<usize, u8>,
    /// Non-substitute units that have attached to another unit: off the map, not lost (7.2).
    pub attached: BTreeSet<usize>,
    /// The march in progress.
    pub origin: Option<Origin>,
}

/// The scenario's substitute rule, if it has one.
#[must_use]
pub fn rule(rules: &Gcacw) -> Option<&SubstituteRule> {
    rules.scenario().rules().find_map(|r| match r {
        RuleKind::Substitutes(s) => Some(s),
        _ => None,
    })
}

/// Whether unit `u` is one of the substitute counters.
#[must_use]
pub fn is_substitute(rules: &Gcacw, state: &State, u: usize) -> bool {
    let id = rules.unit_id(state, u);
    rule(rules).is_some_and(|r| r.pools.iter().any(|p| p.counters.iter().any(|c| c == id)))
}

/// Whether a unit off the map is out of play without having been lost: a substitute in its pool,
/// or a unit that attached to another (HSN-A 7.2). Victory never counts these as destroyed.
#[must_use]
pub fn withdrawn(rules: &Gcacw, state: &State, u: usize) -> bool {
    state.units[u].hex.is_none() && (state.campaign.substitutes.attached.contains(&u) || is_substitute(rules, state, u))
}

/// The command code unit `u` belongs to: a substitute's parent's, else its counter's.
#[must_use]
pub fn command<'a>(rules: &'a Gcacw, state: &'a State, u: usize) -> &'a str {
    match state.campaign.substitutes.detached.get(&u) {
        Some(d) if detached_in_play(state, u) => &d.command,
        _ => &rules.unit_counter(state, u).command,
    }
}

/// Whether a detached substitute is still in play with its parent's command and values: on the
/// map, off it for remounts (HSN-A 5.1) or gone by an exit hex (14.0) — not back in the pool.
fn detached_in_play(state: &State, u: usize) -> bool {
    state.units[u].hex.is_some() || state.campaign.off_map.contains(&u) || state.campaign.exited.contains(&u)
}

/// A unit's attacking Tactical value: a substitute's is its parent's (ruling R75).
#[must_use]
pub fn tactical(rules: &Gcacw, state: &State, u: usize) -> Option<u8> {
    match state.campaign.substitutes.detached.get(&u) {
        Some(d) if detached_in_play(state, u) => d.tactical,
        _ => rules.unit_counter(state, u).tactical,
    }
}

/// A unit's defending Tactical value: a substitute's is its parent's (ruling R75).
#[must_use]
pub fn tactical_defense(rules: &Gcacw, state: &State, u: usize) -> Option<u8> {
    match state.campaign.substitutes.detached.get(&u) {
        Some(d) if detached_in_play(state, u) => d.tactical,
        _ => {
            let c = rules.unit_counter(state, u);
            c.tactical_defense.or(c.tactical)
        }
    }
}

/// The Artillery value a unit holds (its Artillery marker, or the printed value), whether or not
/// it may fire now (HSN-A 7.3).
#[must_use]
pub fn artillery(rules: &Gcacw, state: &State, u: usize) -> u8 {
    state
        .campaign
        .substitutes
        .artillery
        .get(&u)
        .copied()
        .unwrap_or_else(|| rules.unit_counter(state, u).artillery.unwrap_or(0))
}

/// Records where a march begins (HSN-A 7.1 Determining Status): call before the march's fatigue
/// is gained.
pub fn begin_march(rules: &Gcacw, state: &mut State, u: usize) {
    if rule(rules).is_none() {
        return;
    }
    state.campaign.substitutes.origin =
        state.units[u].hex.map(|hex| Origin { unit: u, hex, fatigue: state.units[u].fatigue });
}

fn pool(r: &SubstituteRule, side: Side, ty: CounterType) -> Option<&Pool> {
    r.pools.iter().find(|p| p.side == side && p.ty == ty)
}

/// The first substitute of a pool waiting off the map: not one that left the game by an exit hex
/// (HSN-A 14.0; ruling R82) nor one off the map for remounts (HSN-A 5.1).
fn free(rules: &Gcacw, state: &State, p: &Pool) -> Option<usize> {
    p.counters.iter().filter_map(|id| rules.unit_by_id(id)).find(|&s| {
        state.units[s].hex.is_none() && !state.campaign.exited.contains(&s) && !state.campaign.off_map.contains(&s)
    })
}

/// One detachment the marching unit may make now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Detachment {
    substitute: usize,
    manpower: u8,
    artillery: u8,
}

/// The detachments unit `u` may make in its hex now (HSN-A 7.1, 7.3): a free substitute of its
/// type, each Manpower its pool allows that leaves the parent its minimum, with none, some or all
/// of its Artillery.
fn detachments(rules: &Gcacw, state: &State, u: usize) -> Vec<Detachment> {
    let Some(r) = rule(rules) else { return Vec::new() };
    let unit = &state.units[u];
    if unit.hex.is_none() || unit.eliminated || unit.manpower < r.parent_min {
        return Vec::new();
    }
    let c = rules.unit_counter(state, u);
    let Some(p) = pool(r, c.side, c.ty) else { return Vec::new() };
    let Some(substitute) = free(rules, state, p) else { return Vec::new() };
    let most = p.max_manpower.min(unit.manpower.saturating_sub(r.parent_keeps));
    let guns = artillery(rules, state, u);
    let mut out = Vec::new();
    for manpower in p.min_manpower.max(1)..=most {
        for artillery in 0..=guns {
            out.push(Detachment { substitute, manpower, artillery });
        }
    }
    out
}

/// Whether the marching unit could detach a substitute now.
#[must_use]
pub fn may_detach(rules: &Gcacw, state: &State, u: usize) -> bool {
    !detachments(rules, state, u).is_empty()
}

/// The detachment options of the Moving decision: `detach:<manpower>` or
/// `detach:<manpower>:<artillery>`.
#[must_use]
pub fn detach_options(rules: &Gcacw, state: &State, march: &March) -> Vec<Choice> {
    let u = march.unit;
    let Some(hex) = state.units[u].hex else { return Vec::new() };
    let name = rules.unit_name(state, u);
    let have = state.units[u].manpower;
    let at = rules.map().label(hex);
    detachments(rules, state, u)
        .into_iter()
        .map(|d| {
            let sub = rules.unit_name(state, d.substitute);
            let id = if d.artillery == 0 {
                format!("detach:{}", d.manpower)
            } else {
                format!("detach:{}:{}", d.manpower, d.artillery)
            };
            let guns = if d.artillery == 0 { String::new() } else { format!(" and Artillery {}", d.artillery) };
            Choice::new(
                id,
                format!(
                    "Detach {sub} with Manpower {}{guns} from {name} (Manpower {have}) in {at}: {name} keeps {}",
                    d.manpower,
                    have - d.manpower
                ),
            )
        })
        .collect()
}

/// Applies a `detach:` option (the text after the prefix); `None` if it is not one offered.
/// The march goes on: the parent may move on, the substitute stays (HSN-A 7.1 Placement).
pub fn detach(rules: &Gcacw, state: &mut State, march: March, arg: &str) -> Option<()> {
    let mut parts = arg.split(':');
    let manpower: u8 = parts.next()?.parse().ok()?;
    let guns: u8 = match parts.next() {
        Some(a) => a.parse().ok()?,
        None => 0,
    };
    if parts.next().is_some() {
        return None;
    }
    let u = march.unit;
    let d = detachments(rules, state, u).into_iter().find(|d| d.manpower == manpower && d.artillery == guns)?;
    let hex = state.units[u].hex?;
    let s = d.substitute;
    let origin = state.campaign.substitutes.origin.filter(|o| o.unit == u && o.hex == hex);
    let parent = state.units[u].clone();
    let parent_guns = artillery(rules, state, u);
    let detached = Detached {
        parent: rules.unit_id(state, u).to_string(),
        command: command(rules, state, u).to_string(),
        tactical: tactical_defense(rules, state, u),
    };
    state.units[u].manpower -= manpower;
    rules.relocate(state, s, hex);
    let sub = &mut state.units[s];
    sub.manpower = manpower;
    sub.eliminated = false;
    sub.organized = parent.organized;
    sub.exhausted = parent.exhausted;
    sub.demoralized = parent.demoralized;
    // In the start hex: the fatigue before the march and the parent's entrenchment (which it
    // only still has if it has not left the hex); elsewhere the fatigue now and no entrenchment.
    sub.fatigue = origin.map_or(parent.fatigue, |o| o.fatigue);
    sub.entrenchment = if origin.is_some() { parent.entrenchment } else { None };
    state.campaign.substitutes.detached.insert(s, detached);
    state.campaign.substitutes.artillery.insert(s, guns);
    if guns > 0 {
        state.campaign.substitutes.artillery.insert(u, parent_guns - guns);
    }
    let name = rules.unit_name(state, u);
    let sub_name = rules.unit_name(state, s);
    let status = status_words(state, s);
    state.note(
        format!(
            "{name} detaches {sub_name} with Manpower {manpower} in {}: {name} keeps Manpower {}; {sub_name} {status}, command {}.",
            rules.map().label(hex),
            state.units[u].manpower,
            command(rules, state, s),
        ),
        Some(RULE_DETACH),
    );
    if guns > 0 {
        state.note(
            format!("{sub_name} takes Artillery {guns} from {name}, which keeps {}.", parent_guns - guns),
            Some(RULE_ARTILLERY),
        );
    }
    crate::march::resume_moving(rules, state, march);
    Some(())
}

fn status_words(state: &State, u: usize) -> String {
    let unit = &state.units[u];
    let mut out = format!("fatigue {}", unit.fatigue);
    if !unit.organized {
        out.push_str(", disorganized");
    }
    if unit.exhausted {
        out.push_str(", exhausted");
    }
    if unit.demoralized > 0 {
        out.push_str(&format!(", demoralized {}", unit.demoralized));
    }
    if let Some(e) = unit.entrenchment {
        out.push_str(&format!(", {}", e.name()));
    }
    out
}

/// Whether unit `a` may attach to unit `t` now (HSN-A 7.2): both on the map in the same hex, of
/// the same side and type; `a` a substitute, an infantry regiment or brigade, or a cavalry
/// regiment (a non-substitute cavalry regiment only onto a cavalry brigade); within the cap of
/// `t`'s size; within the Union command groups; and every leader with `a` has a unit to go to.
#[must_use]
pub fn may_attach(rules: &Gcacw, state: &State, a: usize, t: usize) -> bool {
    let Some(r) = rule(rules) else { return false };
    let (ua, ut) = (&state.units[a], &state.units[t]);
    if a == t || ua.hex.is_none() || ua.hex != ut.hex || ua.eliminated || ut.eliminated {
        return false;
    }
    let (ca, ct) = (rules.unit_counter(state, a), rules.unit_counter(state, t));
    if ca.side != ct.side || ca.ty != ct.ty {
        return false;
    }
    let sub = is_substitute(rules, state, a);
    let allowed = match ca.ty {
        CounterType::Infantry => sub || matches!(ca.size.as_str(), "regiment" | "brigade"),
        CounterType::Cavalry => sub || (ca.size == "regiment" && ct.size == "brigade"),
        _ => false,
    };
    if !allowed {
        return false;
    }
    let Some(cap) = r.caps.iter().find(|c| c.side == ct.side && c.ty == ct.ty && c.size == ct.size) else {
        return false;
    };
    if u16::from(ua.manpower) + u16::from(ut.manpower) > u16::from(cap.max) {
        return false;
    }
    if ca.ty == CounterType::Infantry && !same_group(rules, state, r, a, t) {
        return false;
    }
    (0..state.leaders.len())
        .filter(|&l| state.leaders[l].with == Some(a))
        .all(|l| leader_home(rules, state, l, a, t).is_some())
}

/// HSN-A 7.2 Union Commands: infantry of a command group (and its detachments) attaches only to
/// units of the same group.
fn same_group(rules: &Gcacw, state: &State, r: &SubstituteRule, a: usize, t: usize) -> bool {
    let side = rules.unit_side(state, a);
    let cat = rules.catalog();
    let group_of = |u: usize| {
        let code = command(rules, state, u);
        r.command_groups.iter().position(|g| g.side == side && g.commands.iter().any(|c| cat.within(side, code, c)))
    };
    match group_of(a) {
        Some(g) => group_of(t) == Some(g),
        None => true,
    }
}

/// Where leader `l`, now with the attaching unit `a`, goes when it attaches to `t`: to `t` if he
/// may be attached to it, else to another unit of his in the hex (ruling R79).
fn leader_home(rules: &Gcacw, state: &State, l: usize, a: usize, t: usize) -> Option<usize> {
    let lc = state.leaders[l].counter as usize;
    if rules.may_attach(state, lc, t) {
        return Some(t);
    }
    let hex = state.units[a].hex?;
    rules.on_map(state).find(|&(v, h)| h == hex && v != a && rules.may_attach(state, lc, v)).map(|(v, _)| v)
}

/// Every attachment a side may make now, as (attaching, survivor).
#[must_use]
pub fn attachments(rules: &Gcacw, state: &State, side: Side) -> Vec<(usize, usize)> {
    if rule(rules).is_none() {
        return Vec::new();
    }
    let units: Vec<(usize, Hex)> = rules.on_map(state).filter(|&(u, _)| rules.unit_side(state, u) == side).collect();
    let mut out = Vec::new();
    for &(a, ha) in &units {
        for &(t, ht) in &units {
            if ha == ht && may_attach(rules, state, a, t) {
                out.push((a, t));
            }
        }
    }
    out
}

/// Enters the Attachment Phase (HSN-A 1.0, 7.2): the Union player attaches first, then the
/// Confederate player (ruling R77). A scenario without substitutes passes straight on.
pub fn begin_phase(rules: &Gcacw, state: &mut State) {
    if rule(rules).is_none() {
        sequence::phase_done(rules, state, sequence::Phase::Attachment);
        return;
    }
    state.note("Attachment Phase.", Some(RULE_ATTACH));
    offer(rules, state, Side::Union);
}

/// Gives `side` the attachment decision, or passes on when it has no attachment to make.
fn offer(rules: &Gcacw, state: &mut State, side: Side) {
    if !attachments(rules, state, side).is_empty() {
        state.stage = Stage::Attachment { side };
        return;
    }
    match side {
        Side::Union => offer(rules, state, Side::Confederate),
        Side::Confederate => end_phase(rules, state),
    }
}

fn end_phase(rules: &Gcacw, state: &mut State) {
    // GCACW 10.2: an enemy pontoon goes when the last Recovery Phase or this Attachment Phase has
    // left a unit of Combat 5 or more in one of its two hexes.
    let on_map: Vec<usize> = (0..state.units.len()).filter(|&u| state.units[u].hex.is_some()).collect();
    crate::bridges::overrun_all(rules, state, &on_map);
    sequence::phase_done(rules, state, sequence::Phase::Attachment);
}

/// The attachment decision of a side: `attach:<attaching id>:<survivor id>`, or `done`.
#[must_use]
pub fn decision(rules: &Gcacw, state: &State, side: Side) -> Decision {
    let map = rules.map();
    let mut options: Vec<Choice> = attachments(rules, state, side)
        .into_iter()
        .map(|(a, t)| {
            let (ma, mt) = (state.units[a].manpower, state.units[t].manpower);
            let at = state.units[t].hex.map(|h| map.label(h)).unwrap_or_default();
            Choice::new(
                format!("attach:{}:{}", rules.unit_id(state, a), rules.unit_id(state, t)),
                format!(
                    "Attach {} (Manpower {ma}) to {} (Manpower {mt}) in {at}: Manpower {}",
                    rules.unit_name(state, a),
                    rules.unit_name(state, t),
                    ma + mt
                ),
            )
        })
        .collect();
    options.push(Choice::new("done", format!("No more {side} attachments")));
    Decision {
        side: side.id().into(),
        kind: "attach".into(),
        prompt: format!(
            "Attachment Phase: a {side} substitute, infantry regiment or brigade, or cavalry regiment may attach whole to a unit of its type in its hex (HSN-A 7.2)"
        ),
        options,
    }
}

/// Applies an option of the attachment decision; `None` if unreadable or not allowed.
pub fn choose(rules: &Gcacw, state: &mut State, side: Side, option: &str) -> Option<()> {
    if option == "done" {
        state.note(format!("{side} makes no more attachments."), Some(RULE_ATTACH));
        match side {
            Side::Union => offer(rules, state, Side::Confederate),
            Side::Confederate => end_phase(rules, state),
        }
        return Some(());
    }
    let (a_id, t_id) = option.strip_prefix("attach:")?.split_once(':')?;
    let (a, t) = (rules.unit_by_id(a_id)?, rules.unit_by_id(t_id)?);
    if rules.unit_side(state, a) != side || !may_attach(rules, state, a, t) {
        return None;
    }
    attach(rules, state, a, t);
    offer(rules, state, side);
    Some(())
}

/// Attaches unit `a` whole to unit `t` (HSN-A 7.2 How To Attach, Determining Status; 7.3).
pub fn attach(rules: &Gcacw, state: &mut State, a: usize, t: usize) {
    let (ua, ut) = (state.units[a].clone(), state.units[t].clone());
    let (ga, gt) = (artillery(rules, state, a), artillery(rules, state, t));
    let marked = state.campaign.substitutes.artillery.contains_key(&t);
    let survivor = &mut state.units[t];
    survivor.manpower = ut.manpower + ua.manpower;
    survivor.organized = if ua.manpower > ut.manpower { ua.organized } else { ut.organized };
    survivor.fatigue = ut.fatigue.max(ua.fatigue);
    survivor.exhausted = ut.exhausted || ua.exhausted;
    survivor.demoralized = ut.demoralized.max(ua.demoralized);
    // Entrenchment: the survivor keeps its own.
    if ga > 0 || marked {
        state.campaign.substitutes.artillery.insert(t, ga + gt);
    }
    // HSN-A 5.4: the Unmounted / Horses Worn Out markers of two cavalry units that attach.
    crate::mounts::merge_markers(state, t, a);
    for l in 0..state.leaders.len() {
        if state.leaders[l].with == Some(a) {
            if let Some(home) = leader_home(rules, state, l, a, t) {
                state.leaders[l].with = Some(home);
                state.note(
                    format!("{} goes to {}.", rules.leader_counter(state, l).name, rules.unit_name(state, home)),
                    Some(RULE_ATTACH),
                );
            }
        }
    }
    let sub = is_substitute(rules, state, a);
    let gone = &mut state.units[a];
    gone.hex = None;
    gone.manpower = 0;
    gone.entrenchment = None;
    if sub {
        // Back to the pool, with none of the markers it had (HSN-A 7.1 Counter Limits).
        gone.organized = true;
        gone.exhausted = false;
        gone.fatigue = 0;
        gone.demoralized = 0;
        state.campaign.substitutes.detached.remove(&a);
    } else {
        state.campaign.substitutes.attached.insert(a);
    }
    state.campaign.substitutes.artillery.remove(&a);
    let (na, nt) = (rules.unit_name(state, a), rules.unit_name(state, t));
    let hex = ut.hex.map(|h| rules.map().label(h)).unwrap_or_default();
    let status = status_words(state, t);
    let back = if sub { "; the substitute returns to the pool" } else { "" };
    state.note(
        format!(
            "{na} (Manpower {}) attaches to {nt} in {hex}: {nt} has Manpower {}, Artillery {}, {status}{back}.",
            ua.manpower,
            state.units[t].manpower,
            artillery(rules, state, t)
        ),
        Some(RULE_ATTACH),
    );
}
