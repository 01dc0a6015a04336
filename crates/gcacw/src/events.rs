//! Random Events (HSN-A 2.0, 2.2) and Army Initiative (3.0). From the table's first turn, two
//! dice on the Random Events Table each turn; the table, its turn-dependent alternatives and the
//! numbers of each event are data (the `random-events` rule of the scenario). What an event does
//! for the rest of the turn is kept in [`Events`] (`State::events`), cleared when a turn begins;
//! what lasts longer is in `State::campaign`.
//!
//! Where the effects are enforced: Movement Allowances ([`adjust_ma`], from `march` and
//! `activation`), force marches (`march`), Assault actions ([`assault_allowed`]), grand assaults
//! (`assault`), Late Rain (`sequence::late_rain`), entrenchment and pontoons in the Recovery Phase
//! (`recovery`), and the Night March restrictions ([`night_march`]: `actions`, `march`,
//! `activation`).

use caisson_hexmap::Hex;
use caisson_kernel::{Choice, Decision, RollRequest};
use serde::{Deserialize, Serialize};

use crate::campaign::ArmyInitiative;
use crate::catalog::CounterType;
use crate::rules::Gcacw;
use crate::scenario::RuleKind;
use crate::sequence::{self, Phase};
use crate::state::{Stage, State};
use crate::Side;

/// An event of the Random Events Table (HSN-A 2.0, 2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Event {
    /// Command Paralysis.
    CommandParalysis,
    /// Accelerated Union Reinforcements.
    AcceleratedUnionReinforcements,
    /// Grant Relieves Thomas.
    GrantRelievesThomas,
    /// Rain.
    Rain,
    /// Winter Weather End Change.
    WinterWeatherEndChange,
    /// Enhanced Movement.
    EnhancedMovement,
    /// Late Rain.
    LateRain,
    /// Union Night March.
    UnionNightMarch,
    /// Army Initiative Change—A.
    ArmyInitiativeChangeA,
    /// Lyon's Kentucky Raid.
    LyonsKentuckyRaid,
    /// Union Pontoon Bridge Prohibition.
    UnionPontoonBridgeProhibition,
    /// Army Initiative Change—B.
    ArmyInitiativeChangeB,
    /// No Effect.
    NoEffect,
}

impl Event {
    /// Name for people.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Event::CommandParalysis => "Command Paralysis",
            Event::AcceleratedUnionReinforcements => "Accelerated Union Reinforcements",
            Event::GrantRelievesThomas => "Grant Relieves Thomas",
            Event::Rain => "Rain",
            Event::WinterWeatherEndChange => "Winter Weather End Change",
            Event::EnhancedMovement => "Enhanced Movement",
            Event::LateRain => "Late Rain",
            Event::UnionNightMarch => "Union Night March",
            Event::ArmyInitiativeChangeA => "Army Initiative Change—A",
            Event::LyonsKentuckyRaid => "Lyon's Kentucky Raid",
            Event::UnionPontoonBridgeProhibition => "Union Pontoon Bridge Prohibition",
            Event::ArmyInitiativeChangeB => "Army Initiative Change—B",
            Event::NoEffect => "No Effect",
        }
    }
}

/// A row of the Random Events Table: the event of a two-dice total and what replaces it.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EventRow {
    /// Two-dice total.
    pub roll: u8,
    /// The event.
    pub event: Event,
    /// The event only from this turn on.
    #[serde(default)]
    pub from_turn: Option<u16>,
    /// The event only up to this turn.
    #[serde(default)]
    pub until_turn: Option<u16>,
    /// What happens on the other turns.
    #[serde(default)]
    pub otherwise: Option<Event>,
    /// What happens instead while winter weather is in effect.
    #[serde(default)]
    pub in_winter: Option<Event>,
    /// What happens instead once the event has already happened (once-per-game events).
    #[serde(default)]
    pub once: Option<Event>,
}

/// A change to marching Movement Allowances by unit type (Command Paralysis, Enhanced Movement).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MaChange {
    /// Infantry (and Union wagon trains).
    pub infantry: i32,
    /// Cavalry.
    pub cavalry: i32,
    /// Lowest Movement Allowance after the change.
    #[serde(default)]
    pub minimum: u8,
}

/// Grant Relieves Thomas: the towns, how many the Confederates must hold, and the flip.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GrantRule {
    /// Town hexes.
    pub towns: Vec<Hex>,
    /// Fewest towns held by undemoralized Confederate infantry for the event to take effect.
    pub at_least: usize,
    /// The army leader relieved.
    pub leader: String,
    /// His replacement (the back of the counter).
    pub replacement: String,
}

/// Night March numbers (HSN-A 2.2).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NightMarchRule {
    /// Action Phases the Union player wins without a roll.
    pub phases: u8,
    /// Lowest unmodified Movement Allowance roll of infantry marches and infantry leaders.
    pub infantry_min: u8,
    /// Lowest unmodified Movement Allowance roll of cavalry marches and cavalry leaders.
    pub cavalry_min: u8,
}

/// The Random Events Table and the numbers of its events (HSN-A 2.0, 2.2).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EventTable {
    /// First turn of the Random Events Phase.
    pub from_turn: u16,
    /// Rows, by two-dice total.
    pub rows: Vec<EventRow>,
    /// Command Paralysis.
    pub paralysis: MaChange,
    /// Enhanced Movement.
    pub enhanced: MaChange,
    /// Grant Relieves Thomas.
    pub grant: GrantRule,
    /// Union Night March.
    pub night_march: NightMarchRule,
}

/// What this turn's random event does for the rest of the turn (HSN-A 2.2), and the one effect
/// that lasts several turns (No Grand Assaults).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Events {
    /// This turn's event, once rolled.
    pub event: Option<Event>,
    /// The side under Command Paralysis this turn.
    pub paralysis: Option<Side>,
    /// The side with Enhanced Movement this turn.
    pub enhanced: Option<Side>,
    /// A Rain event this turn (no entrenching or bridge work in the Recovery Phase).
    pub rain: bool,
    /// Late Rain this turn: double 1s for initiative start rain.
    pub late_rain: bool,
    /// No Union pontoon bridges in this turn's Recovery Phase.
    pub no_pontoon: bool,
    /// The Union player declared a Night March this turn.
    pub night_march: bool,
    /// The last turn on which the Union player may not attempt a grand assault (Grant Relieves
    /// Thomas); kept across turns.
    pub no_grand_assaults_through: Option<u16>,
}

impl Events {
    /// Clears the effects of the last turn (the No Grand Assaults marker stays).
    pub fn new_turn(&mut self) {
        *self = Events { no_grand_assaults_through: self.no_grand_assaults_through, ..Events::default() };
    }
}

/// A die an event needs after the table roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EventRoll {
    /// The Random Events Table (two dice).
    Table,
    /// Command Paralysis under Neutral Army Initiative: odd Confederate, even Union.
    ParalysisSide,
    /// Enhanced Movement: odd Confederate, even Union.
    EnhancedSide,
    /// Winter Weather End Change: odd one turn later, even one turn earlier.
    WinterEnd,
    /// Grant Relieves Thomas: turns without Union grand assaults.
    NoGrandAssaults,
}

/// The scenario's Random Events Table, with the rule's source, if it has one.
#[must_use]
pub fn table(rules: &Gcacw) -> Option<(&EventTable, &str)> {
    rules.scenario().special_rule.iter().find_map(|r| match &r.kind {
        RuleKind::RandomEvents(t) => Some((t, r.source.as_str())),
        _ => None,
    })
}

/// The Army Initiative level a scenario starts with (HSN-A 3.0), if it uses Army Initiative.
#[must_use]
pub fn army_initiative_start(rules: &Gcacw) -> Option<ArmyInitiative> {
    rules.scenario().rules().find_map(|r| match r {
        RuleKind::ArmyInitiative { start } => Some(*start),
        _ => None,
    })
}

/// Who wins a tied initiative roll of `die`-`die` under an Army Initiative level (HSN-A 3.0).
#[must_use]
pub fn tie_winner(level: ArmyInitiative, die: u8) -> Side {
    match level {
        ArmyInitiative::Confederate => Side::Confederate,
        ArmyInitiative::Union => Side::Union,
        ArmyInitiative::Neutral if die <= 3 => Side::Union,
        ArmyInitiative::Neutral => Side::Confederate,
    }
}

/// Name of an Army Initiative level.
#[must_use]
pub const fn level_name(level: ArmyInitiative) -> &'static str {
    match level {
        ArmyInitiative::Confederate => "Confederate Advantage",
        ArmyInitiative::Neutral => "Neutral",
        ArmyInitiative::Union => "Union Advantage",
    }
}

/// Random Events Phase (HSN-A 1.0, 2.0): two dice from the table's first turn.
pub fn begin(rules: &Gcacw, state: &mut State) {
    match table(rules) {
        Some((t, _)) if state.turn >= t.from_turn => state.stage = Stage::EventRoll { roll: EventRoll::Table },
        _ => sequence::phase_done(rules, state, Phase::RandomEvents),
    }
}

/// The roll the phase waits for.
#[must_use]
pub fn roll_request(state: &State, roll: EventRoll) -> RollRequest {
    let (purpose, dice) = match roll {
        EventRoll::Table => ("Random Events Table".to_string(), 2),
        EventRoll::ParalysisSide => {
            ("Command Paralysis under Neutral Army Initiative (odd Confederate, even Union)".into(), 1)
        }
        EventRoll::EnhancedSide => ("Enhanced Movement (odd Confederate, even Union)".into(), 1),
        EventRoll::WinterEnd => ("Winter Weather End Change (odd one turn later, even one turn earlier)".into(), 1),
        EventRoll::NoGrandAssaults => ("No Grand Assaults: turns from this one".into(), 1),
    };
    let _ = state;
    RollRequest { side: Side::Union.id().into(), purpose, rule: "HSN-A 2.2".into(), dice, modifiers: Vec::new() }
}

/// Whether an event has already happened in the game (for once-per-game events).
fn happened(state: &State, event: Event) -> bool {
    match event {
        Event::LyonsKentuckyRaid => state.campaign.lyon_raid,
        _ => false,
    }
}

/// The event a row gives now: the turn alternatives, then winter, then once-per-game.
#[must_use]
pub fn resolve(row: &EventRow, state: &State) -> Event {
    let in_turns = row.from_turn.is_none_or(|f| state.turn >= f) && row.until_turn.is_none_or(|u| state.turn <= u);
    let mut event = if in_turns { row.event } else { row.otherwise.unwrap_or(Event::NoEffect) };
    if event == row.event {
        if let Some(w) = row.in_winter.filter(|_| crate::winter::on(state)) {
            event = w;
        }
    }
    if happened(state, event) {
        event = row.once.unwrap_or(Event::NoEffect);
    }
    event
}

/// Applies the pending roll of the phase.
pub fn apply_roll(rules: &Gcacw, state: &mut State, roll: EventRoll, req: &RollRequest, dice: &[u8]) {
    let Some((t, _)) = table(rules) else {
        sequence::phase_done(rules, state, Phase::RandomEvents);
        return;
    };
    let die = dice.first().copied().unwrap_or(1);
    let odd = die % 2 == 1;
    match roll {
        EventRoll::Table => {
            let total: u8 = dice.iter().sum();
            let event = t.rows.iter().find(|r| r.roll == total).map_or(Event::NoEffect, |r| resolve(r, state));
            sequence::log_roll(state, req, dice, format!("{total}: {}", event.name()));
            state.events.event = Some(event);
            apply_event(rules, state, event);
        }
        EventRoll::ParalysisSide => {
            let side = if odd { Side::Confederate } else { Side::Union };
            sequence::log_roll(state, req, dice, format!("{side} suffers Command Paralysis"));
            paralyse(state, side);
            finish(rules, state);
        }
        EventRoll::EnhancedSide => {
            let side = if odd { Side::Confederate } else { Side::Union };
            sequence::log_roll(state, req, dice, format!("{side} has Enhanced Movement"));
            state.events.enhanced = Some(side);
            state.note(
                format!(
                    "Enhanced Movement: this turn {side} infantry{} march with +{} MA, cavalry +{}.",
                    if side == Side::Union { " and wagon trains" } else { "" },
                    t.enhanced.infantry,
                    t.enhanced.cavalry
                ),
                Some("HSN-A 2.2"),
            );
            finish(rules, state);
        }
        EventRoll::WinterEnd => {
            let turn = state.turn;
            let Some(w) = state.campaign.winter.as_mut() else {
                finish(rules, state);
                return;
            };
            let text = if odd {
                w.last = w.last.saturating_add(1);
                format!("Last Turn of Winter moves one turn later, to Turn {}", w.last)
            } else if w.last <= turn {
                w.last = turn.saturating_sub(1);
                "the Last Turn of Winter marker is on this turn: winter ends now".to_string()
            } else {
                w.last -= 1;
                format!("Last Turn of Winter moves one turn earlier, to Turn {}", w.last)
            };
            sequence::log_roll(state, req, dice, text);
            finish(rules, state);
        }
        EventRoll::NoGrandAssaults => {
            let last = state.turn.saturating_add(u16::from(die)).saturating_sub(1);
            state.events.no_grand_assaults_through = Some(last);
            sequence::log_roll(
                state,
                req,
                dice,
                format!("the Union player may not attempt a grand assault through Turn {last}"),
            );
            finish(rules, state);
        }
    }
}

fn paralyse(state: &mut State, side: Side) {
    state.events.paralysis = Some(side);
    state.note(
        format!(
            "Command Paralysis: this turn {side} marches have a lower Movement Allowance, no force marches, and no Assault actions."
        ),
        Some("HSN-A 2.2"),
    );
}

fn finish(rules: &Gcacw, state: &mut State) {
    sequence::phase_done(rules, state, Phase::RandomEvents);
}

/// Carries out an event, or sets the roll or decision it needs.
fn apply_event(rules: &Gcacw, state: &mut State, event: Event) {
    let rule = Some("HSN-A 2.2");
    match event {
        Event::CommandParalysis => match state.campaign.army_initiative {
            ArmyInitiative::Confederate => paralyse(state, Side::Confederate),
            ArmyInitiative::Union => paralyse(state, Side::Union),
            ArmyInitiative::Neutral => {
                state.stage = Stage::EventRoll { roll: EventRoll::ParalysisSide };
                return;
            }
        },
        Event::AcceleratedUnionReinforcements => {
            state.campaign.accelerated_sets = state.campaign.accelerated_sets.saturating_add(1);
            state.note(
                "Accelerated Union Reinforcements: the next Union reinforcement set is placed in this turn's Reinforcement Phase, besides the normal roll (ruling R48).",
                rule,
            );
        }
        Event::GrantRelievesThomas => {
            if grant_relieves_thomas(rules, state) {
                state.stage = Stage::EventRoll { roll: EventRoll::NoGrandAssaults };
                return;
            }
        }
        Event::Rain => {
            state.rain = true;
            state.events.rain = true;
            state.note(
                "Rain for this turn (GCACW 12.0); Minor River Rain Number 0, so minor rivers are unfordable this turn only.",
                rule,
            );
            crate::swamp::rain_begins(rules, state, crate::swamp::Then::EventsDone);
            return;
        }
        Event::WinterWeatherEndChange => {
            state.stage = Stage::EventRoll { roll: EventRoll::WinterEnd };
            return;
        }
        Event::EnhancedMovement => {
            state.stage = Stage::EventRoll { roll: EventRoll::EnhancedSide };
            return;
        }
        Event::LateRain => {
            state.events.late_rain = true;
            state.note(
                "Late Rain: rain begins when both players roll 1 for initiative, once both have gained the initiative this turn.",
                rule,
            );
        }
        Event::UnionNightMarch => {
            state.stage = Stage::NightMarchChoice;
            return;
        }
        Event::ArmyInitiativeChangeA => set_level(state, ArmyInitiative::Neutral),
        Event::ArmyInitiativeChangeB => {
            let next = match state.campaign.army_initiative {
                ArmyInitiative::Confederate | ArmyInitiative::Union => ArmyInitiative::Neutral,
                ArmyInitiative::Neutral => ArmyInitiative::Union,
            };
            set_level(state, next);
        }
        Event::LyonsKentuckyRaid => {
            state.campaign.lyon_raid = true;
            state.note(
                "Lyon's Kentucky Raid: Lyon and the Union cavalry of McCook, LaGrange, Watkins, Long, A. Miller and Minty will not arrive as reinforcements.",
                rule,
            );
        }
        Event::UnionPontoonBridgeProhibition => {
            state.events.no_pontoon = true;
            state.note("No Union pontoon bridges may be built in this turn's Recovery Phase.", rule);
        }
        Event::NoEffect => state.note("No effect.", rule),
    }
    finish(rules, state);
}

fn set_level(state: &mut State, level: ArmyInitiative) {
    let before = state.campaign.army_initiative;
    state.campaign.army_initiative = level;
    state.note(format!("Army Initiative: {} → {}.", level_name(before), level_name(level)), Some("HSN-A 2.2, 3.0"));
}

/// Grant Relieves Thomas: no effect unless undemoralized Confederate infantry holds at least the
/// rule's number of towns; otherwise the leader counter flips to its replacement in place.
/// Returns whether it took effect.
fn grant_relieves_thomas(rules: &Gcacw, state: &mut State) -> bool {
    let Some((t, _)) = table(rules) else { return false };
    let g = &t.grant;
    let held: Vec<Hex> = g
        .towns
        .iter()
        .copied()
        .filter(|&town| {
            rules.on_map(state).any(|(u, h)| {
                h == town
                    && rules.unit_side(state, u) == Side::Confederate
                    && rules.unit_counter(state, u).ty == CounterType::Infantry
                    && state.units[u].demoralized == 0
            })
        })
        .collect();
    let rule = Some("HSN-A 2.2");
    if held.len() < g.at_least {
        state.note(
            format!(
                "Grant Relieves Thomas: undemoralized Confederate infantry holds {} of the {} towns (needs {}): No Effect.",
                held.len(),
                g.towns.len(),
                g.at_least
            ),
            rule,
        );
        return false;
    }
    let (Some(l), Some(rep)) = (rules.leader_by_id(&g.leader), rules.catalog().index(&g.replacement)) else {
        state.note("Grant Relieves Thomas: the leader is not in this game: No Effect.", rule);
        return false;
    };
    if state.leaders[l].counter as usize == rep {
        state.note("Grant Relieves Thomas: already relieved: No Effect.", rule);
        return false;
    }
    let before = rules.leader_counter(state, l).name.clone();
    state.leaders[l].counter = rep as u16;
    let after = rules.leader_counter(state, l).name.clone();
    state.note(format!("Grant Relieves Thomas: {after} replaces {before} in the same place."), rule);
    true
}

/// The Night March decision (HSN-A 2.2).
#[must_use]
pub fn night_march_decision() -> Decision {
    Decision {
        side: Side::Union.id().into(),
        kind: "night-march".into(),
        prompt: "Union Night March: declare a Night March, or take one normal action now (HSN-A 2.2)".into(),
        options: vec![
            Choice::new("night-march", "Night March: win the first two Action Phases, marches only"),
            Choice::new("normal-action", "One normal action at once"),
        ],
    }
}

/// Applies the Night March decision: a Night March gives the Union player the first Action Phases
/// without a roll under its restrictions; a normal action gives him the first one (ruling R50).
pub fn choose_night_march(rules: &Gcacw, state: &mut State, option: &str) -> Option<()> {
    let phases = table(rules).map_or(2, |(t, _)| t.night_march.phases);
    match option {
        "night-march" => {
            state.events.night_march = true;
            for _ in 0..phases {
                state.automatic.insert(0, Side::Union);
            }
            state.note(
                format!(
                    "The Union player declares a Night March: he wins the first {phases} Action Phases without a roll."
                ),
                Some("HSN-A 2.2"),
            );
        }
        "normal-action" => {
            state.automatic.insert(0, Side::Union);
            state.note(
                "The Union player takes one normal action: he wins the first Action Phase without a roll.",
                Some("HSN-A 2.2"),
            );
        }
        _ => return None,
    }
    finish(rules, state);
    Some(())
}

/// Whether the action in progress is part of a Night March (HSN-A 2.2): only March and Activate
/// Leader actions, no extended march roll, no entering enemy ZOC unless Union-occupied, no
/// attacks, no entrenching.
#[must_use]
pub fn night_march(state: &State) -> bool {
    state.events.night_march && state.automatic_action && state.phase == Phase::ActionCycle
}

/// The minimum unmodified Movement Allowance roll of a Night March (HSN-A 2.2): `cavalry` for a
/// cavalry unit's March or a cavalry leader's activation. The whole roll (both dice of cavalry)
/// counts as at least the minimum.
#[must_use]
pub fn night_minimum(rules: &Gcacw, state: &State, dice: &[u8], cavalry: bool) -> (Vec<u8>, Option<String>) {
    let Some((t, _)) = table(rules).filter(|_| night_march(state)) else { return (dice.to_vec(), None) };
    let min = if cavalry { t.night_march.cavalry_min } else { t.night_march.infantry_min };
    let sum: u8 = dice.iter().sum();
    if sum < min {
        (vec![min], Some(format!("Night March: roll {sum} counts as {min} (HSN-A 2.2)")))
    } else {
        (dice.to_vec(), None)
    }
}

/// A marching unit's Movement Allowance after Command Paralysis or Enhanced Movement (HSN-A 2.2),
/// with the reason when it changes. Infantry (and wagon trains) get the infantry change, cavalry
/// the cavalry change; Confederates have no wagons.
#[must_use]
pub fn ma_change(rules: &Gcacw, state: &State, u: usize, ma: u8) -> (u8, Option<String>) {
    let Some((t, _)) = table(rules) else { return (ma, None) };
    let side = rules.unit_side(state, u);
    let ty = rules.unit_type(state, u);
    let pick = |c: &MaChange| match ty {
        CounterType::Cavalry => Some(c.cavalry),
        CounterType::Infantry | CounterType::Wagon => Some(c.infantry),
        _ => None,
    };
    let mut out = i32::from(ma);
    let mut why = Vec::new();
    if state.events.paralysis == Some(side) {
        if let Some(d) = pick(&t.paralysis) {
            out = (out + d).max(i32::from(t.paralysis.minimum));
            why.push(format!("Command Paralysis {d:+}, at least {}", t.paralysis.minimum));
        }
    }
    if state.events.enhanced == Some(side) {
        if let Some(d) = pick(&t.enhanced) {
            out += d;
            why.push(format!("Enhanced Movement {d:+}"));
        }
    }
    let out = u8::try_from(out.max(0)).unwrap_or(u8::MAX);
    if why.is_empty() {
        (ma, None)
    } else {
        (out, Some(format!("Movement Allowance {ma} → {out} ({}; HSN-A 2.2)", why.join("; "))))
    }
}

/// Whether a side is under Command Paralysis this turn (no force marches, no Assault actions).
#[must_use]
pub fn paralysed(state: &State, side: Side) -> bool {
    state.events.paralysis == Some(side)
}

/// Whether a side may take an Assault action now: not in winter (HSN-A 4.0), not under Command
/// Paralysis, not in a Night March (2.2).
#[must_use]
pub fn assault_allowed(state: &State, side: Side) -> bool {
    !crate::winter::on(state) && !paralysed(state, side) && !night_march(state)
}

/// Whether a side may attempt a grand assault this turn (Grant Relieves Thomas, HSN-A 2.2).
#[must_use]
pub fn grand_assault_allowed(state: &State, side: Side) -> bool {
    side != Side::Union || state.events.no_grand_assaults_through.is_none_or(|last| state.turn > last)
}

/// Whether units may entrench in an action now: not in winter (HSN-A 4.0), not in a Night March
/// (2.2).
#[must_use]
pub fn entrenching_allowed(state: &State) -> bool {
    !crate::winter::on(state) && !night_march(state)
}

/// Whether a side may build pontoon bridges in this turn's Recovery Phase (Union Pontoon Bridge
/// Prohibition, HSN-A 2.2).
#[must_use]
pub fn pontoons_allowed(state: &State, side: Side) -> bool {
    !(side == Side::Union && state.events.no_pontoon)
}

/// Whether unit `u` may be picked for a March now, alone or in an Activate Leader action: winter
/// forbids marches to Fatigue Level 3 or 4 (HSN-A 4.0).
#[must_use]
pub fn march_allowed(state: &State, u: usize) -> bool {
    !crate::winter::bars_march(state, u)
}
