//! The March action (GCACW 5.1) and the march of each unit in an Activate Leader action (5.2
//! steps 6–8): fatigue, the Extended March Table, force marching, then moving hex by hex (6.1).

use caisson_kernel::{Choice, Decision, Modifier, RollRequest};

use crate::catalog::CounterType;
use crate::charts::{EmtResult, Half, Mover};
use crate::movement::{self, MoveContext};
use crate::rules::{Gcacw, ReleaseEvent};
use crate::scenario::{RuleKind, SpecialRule};
use crate::state::{Intent, LossCause, March, Stage, State};
use crate::{activation, sequence, Side};

fn mover(ty: CounterType) -> Mover {
    match ty {
        CounterType::Cavalry => Mover::Cavalry,
        CounterType::Wagon => Mover::Wagon,
        _ => Mover::Infantry,
    }
}

/// A row of the Movement Allowance table in words.
#[must_use]
pub fn mover_words(m: Mover) -> &'static str {
    match m {
        Mover::Infantry => "infantry march",
        Mover::Cavalry => "cavalry march",
        Mover::Wagon => "wagon train march",
        Mover::InfantryLeader => "infantry leader activation",
        Mover::CavalryDivisionLeader => "cavalry division leader activation",
        Mover::CavalryCorpsLeader => "cavalry corps leader activation",
    }
}

/// The Movement Allowance roll of a March (GCACW 5.1 step 1).
#[must_use]
pub fn allowance_request(rules: &Gcacw, state: &State, u: usize) -> RollRequest {
    let side = rules.unit_side(state, u);
    // An unmounted cavalry unit rolls as cavalry and halves the result (HSN-A 5.5).
    let ty = if rules.unmounted(state, u) { CounterType::Cavalry } else { rules.unit_type(state, u) };
    let dice = rules.charts().movement_allowance(side, mover(ty));
    let mut modifiers = Vec::new();
    if dice.plus != 0 {
        modifiers.push(Modifier::new(format!("{side} {}", mover_words(mover(ty))), i32::from(dice.plus), "GCACW 5.1"));
    }
    modifiers.extend(crate::arrival::bonus(rules, state, rules.unit_id(state, u)));
    RollRequest {
        side: side.id().into(),
        purpose: format!("Movement Allowance of {}", rules.unit_name(state, u)),
        rule: "GCACW 5.1".into(),
        dice: dice.dice,
        modifiers,
    }
}

/// A scenario's minimum Movement Allowance for this unit now (e.g. HSN Sc 3), if any.
#[must_use]
pub fn minimum_ma(rules: &Gcacw, state: &State, u: usize, activate: bool) -> Option<(u8, String)> {
    march_rule(rules, state, u, state.units[u].fatigue + 1)
        .map(|m| (if activate { m.activate } else { m.march }, m.rule.source.clone()))
}

/// What a scenario's `minimum-ma` rule gives one march.
struct MarchHelp<'r> {
    /// The minimum Movement Allowance of a March action.
    march: u8,
    /// The same in an Activate Leader action.
    activate: u8,
    /// The Extended March Table modifier.
    extended: i8,
    rule: &'r SpecialRule,
}

/// The scenario's `minimum-ma` rule that covers a march of unit `u` to fatigue `reached` now:
/// every such rule in HSN is for the side's infantry divisions only (Sc 3 and Sc 4 Confederate
/// Infantry March Bonus, Sc 7 Hood's Retreat), on its turns, not its exempt divisions, and only
/// up to its fatigue level.
fn march_rule<'r>(rules: &'r Gcacw, state: &State, u: usize, reached: u8) -> Option<MarchHelp<'r>> {
    let c = rules.unit_counter(state, u);
    if c.ty != CounterType::Infantry || c.size != "division" || rules.unmounted(state, u) {
        return None;
    }
    rules.scenario().special_rule.iter().find_map(|rule| match &rule.kind {
        RuleKind::MinimumMa { side, turns, march, activate, exempt, max_fatigue, extended }
            if *side == c.side
                && (turns.is_empty() || turns.contains(&state.turn))
                && !exempt.contains(&c.id)
                && max_fatigue.is_none_or(|m| reached <= m) =>
        {
            Some(MarchHelp { march: *march, activate: *activate, extended: *extended, rule })
        }
        _ => None,
    })
}

/// Applies the March allowance roll and goes on to fatigue.
pub fn apply_allowance(rules: &Gcacw, state: &mut State, u: usize, req: &RollRequest, dice: &[u8]) {
    let (used, raised) = sequence::minimum_die(dice, rules.opening_min_die(state, rules.unit_type(state, u)));
    // HSN-A 2.2 Night March: the roll counts as at least the night minimum.
    let cavalry = rules.unit_counter(state, u).ty == CounterType::Cavalry;
    let (used, night) = crate::events::night_minimum(rules, state, &used, cavalry);
    let raised = raised.or(night);
    let mut ma = sequence::total(&used, &req.modifiers).max(0) as u8;
    if rules.unmounted(state, u) {
        ma = ma.div_ceil(2);
    }
    let mut result = match raised {
        Some(note) => format!("{note}: Movement Allowance {ma}"),
        None => format!("Movement Allowance {ma}"),
    };
    if rules.unmounted(state, u) {
        result.push_str(" (half the cavalry roll, rounded up: unmounted, HSN-A 5.5)");
    }
    let (changed, why) = crate::events::ma_change(rules, state, u, ma);
    if let Some(why) = why {
        ma = changed;
        result.push_str(&format!(", {why}"));
    }
    if let Some((min, source)) = minimum_ma(rules, state, u, false) {
        if ma < min {
            ma = min;
            result.push_str(&format!(", raised to the scenario minimum {min} ({source})"));
        }
    }
    sequence::log_roll(state, req, dice, result);
    begin_unit_march(rules, state, u, ma);
}

/// A march about to begin with `ma` Movement Points, noting whether it starts in an enemy ZOC.
#[must_use]
pub fn new_march(rules: &Gcacw, state: &State, u: usize, ma: u8) -> March {
    March {
        unit: u,
        ma,
        left: Half::whole(u16::from(ma)),
        moved: false,
        started_in_zoc: in_enemy_zoc_now(rules, state, u),
        wagon_paid: false,
        stopped: false,
        declined: Vec::new(),
        blockhouse_tried: false,
        path: state.units[u].hex.into_iter().collect(),
    }
}

/// Steps 2–3 of a unit's march: the fatigue gain, an extended march roll if due, then force march.
pub fn begin_unit_march(rules: &Gcacw, state: &mut State, u: usize, ma: u8) {
    crate::substitute::begin_march(rules, state, u);
    if state.units[u].fatigue == 4 {
        // Optional Fatigue-Level-4 march: disorganized, stays at 4, no extended march roll and
        // no force march (GCACW 5.1).
        state.units[u].organized = false;
        state.note(
            format!("{} marches at fatigue 4 (optional rule): disorganized.", rules.unit_name(state, u)),
            Some("GCACW 5.1"),
        );
        let march = new_march(rules, state, u, ma);
        start_moving(rules, state, march);
        return;
    }
    let unit = &mut state.units[u];
    unit.fatigue = (unit.fatigue + 1).min(4);
    let (fl, exhausted) = (unit.fatigue, unit.exhausted);
    let name = rules.unit_name(state, u);
    let march = new_march(rules, state, u, ma);
    // HSN-A 2.2: no extended march rolls in a Night March.
    let extended = (if exhausted { fl >= 2 } else { fl >= 3 }) && !crate::events::night_march(state);
    if extended {
        state.note(
            format!(
                "{name} reaches fatigue {fl} on its {} side: an extended march.",
                if exhausted { "exhausted" } else { "normal" }
            ),
            Some("GCACW 5.1"),
        );
        state.stage = Stage::ExtendedMarch { march };
    } else {
        state.note(format!("{name}: fatigue {fl}."), Some("GCACW 5.1"));
        offer_force_march(rules, state, march);
    }
}

/// The Extended March Table roll with its modifiers (GCACW 5.1; HSN-B 2.2).
#[must_use]
pub fn extended_request(rules: &Gcacw, state: &State, march: &March) -> RollRequest {
    let u = march.unit;
    let side = rules.unit_side(state, u);
    RollRequest {
        side: side.id().into(),
        purpose: format!("Extended March Table for {}", rules.unit_name(state, u)),
        rule: "GCACW 5.1".into(),
        dice: 1,
        modifiers: extended_modifiers(rules, state, u, state.units[u].fatigue),
    }
}

/// The Extended March Table modifiers of unit `u` marching to fatigue `reached` (GCACW 5.1;
/// HSN-B 2.2; a scenario's `minimum-ma` rule).
fn extended_modifiers(rules: &Gcacw, state: &State, u: usize, reached: u8) -> Vec<Modifier> {
    let unit = &state.units[u];
    let mut modifiers = Vec::new();
    if rules.unit_side(state, u) == Side::Union {
        modifiers.push(Modifier::new("Other Union Units", 1, "GCACW 5.1 (Union Army Modifiers)"));
    }
    match (unit.exhausted, reached) {
        (true, 3) => modifiers.push(Modifier::new("exhausted unit reaching fatigue 3", 1, "GCACW 5.1")),
        (true, 4) => modifiers.push(Modifier::new("exhausted unit reaching fatigue 4", 3, "GCACW 5.1")),
        (false, 4) => modifiers.push(Modifier::new("unit reaching fatigue 4", 1, "GCACW 5.1")),
        _ => {}
    }
    if let Some(m) = march_rule(rules, state, u, reached).filter(|m| m.extended != 0) {
        modifiers.push(Modifier::new(m.rule.title.clone(), i32::from(m.extended), m.rule.source.clone()));
    }
    if rules.unit_type(state, u) == CounterType::Wagon {
        let south = unit.hex.is_some_and(|h| rules.south_of_duck(h));
        if !south {
            modifiers.push(Modifier::new("wagon train north of the Duck River", 1, "HSN-B 2.2"));
        }
    }
    modifiers
}

/// The chance that unit `u`'s next march, should it be an extended one, meets any effect on the
/// Extended March Table (disorder or a Manpower loss, GCACW 5.1), with the modifiers it would
/// roll with now. 0 where no roll can hurt it (HSN Sc 7 Hood's Retreat: a 6 less 1 is no effect).
#[must_use]
pub fn extended_risk(rules: &Gcacw, state: &State, u: usize) -> f64 {
    let unit = &state.units[u];
    let reached = (unit.fatigue + 1).min(4);
    let plus: i32 = extended_modifiers(rules, state, u, reached).iter().map(|m| m.value).sum();
    let hurt = (1..=6)
        .filter(|d| rules.charts().extended_march(d + plus, unit.organized, unit.manpower) != EmtResult::NoEffect)
        .count();
    hurt as f64 / 6.0
}

/// Applies the Extended March Table result.
pub fn apply_extended(rules: &Gcacw, state: &mut State, march: March, req: &RollRequest, dice: &[u8]) {
    let u = march.unit;
    let total = sequence::total(dice, &req.modifiers);
    let (organized, manpower) = (state.units[u].organized, state.units[u].manpower);
    let column = if organized { "Organized".to_string() } else { format!("Disorganized {manpower}") };
    let result = rules.charts().extended_march(total, organized, manpower);
    let text = match result {
        EmtResult::NoEffect => "NE: no effect".to_string(),
        EmtResult::Disorganize => "D: disorganized".to_string(),
        EmtResult::Loss(n) => format!("{n}: loses {n} Manpower"),
    };
    sequence::log_roll(state, req, dice, format!("{text} (column {column}, row {total})"));
    match result {
        EmtResult::NoEffect => {}
        EmtResult::Disorganize => state.units[u].organized = false,
        EmtResult::Loss(n) => rules.lose_manpower(state, u, n, LossCause::ExtendedMarch, "extended march", "GCACW 5.1"),
    }
    if state.units[u].hex.is_none() {
        end_march(rules, state);
    } else {
        offer_force_march(rules, state, march);
    }
}

/// Whether the unit may force march (GCACW 5.1 step 3): organized, not a wagon, and its side not
/// under Command Paralysis (HSN-A 2.2).
fn may_force_march(rules: &Gcacw, state: &State, u: usize) -> bool {
    state.units[u].organized
        && rules.unit_type(state, u) != CounterType::Wagon
        && !crate::events::paralysed(state, rules.unit_side(state, u))
}

/// Step 3 of a march: enemy cavalry in whose ZOC the unit begins may retreat first (GCACW 7.7),
/// then the force-march decision.
pub fn offer_force_march(rules: &Gcacw, state: &mut State, march: March) {
    if crate::cavalry::offer(rules, state, march.clone(), crate::cavalry::Resume::BeforeForceMarch) {
        return;
    }
    if may_force_march(rules, state, march.unit) {
        state.stage = Stage::ForceMarch { march };
    } else {
        start_moving(rules, state, march);
    }
}

/// The force-march decision.
#[must_use]
pub fn force_march_decision(rules: &Gcacw, state: &State, march: &March) -> Decision {
    let name = rules.unit_name(state, march.unit);
    let cav = rules.unit_type(state, march.unit) == CounterType::Cavalry;
    let bonus = if cav { "2d6 − 1, at least 4" } else { "1d6 − 1, at least 2" };
    Decision {
        side: rules.unit_side(state, march.unit).id().into(),
        kind: "force-march".into(),
        prompt: format!("{name} has {} MP. Force march? It becomes disorganized, gains {bonus} MP and may lose Manpower (GCACW 5.1).", march.left),
        options: vec![Choice::new("force-march", format!("Force march {name}")), Choice::new("no-force-march", "March normally")],
    }
}

/// Applies the force-march decision; `None` if unreadable.
pub fn choose_force_march(rules: &Gcacw, state: &mut State, march: March, option: &str) -> Option<()> {
    match option {
        "force-march" => {
            state.units[march.unit].organized = false;
            state.note(
                format!("{} force marches: disorganized.", rules.unit_name(state, march.unit)),
                Some("GCACW 5.1"),
            );
            state.stage = Stage::ForceMarchRoll { march };
        }
        "no-force-march" => start_moving(rules, state, march),
        _ => return None,
    }
    Some(())
}

/// The force-march roll: one die for infantry, two for cavalry.
#[must_use]
pub fn force_march_request(rules: &Gcacw, state: &State, march: &March) -> RollRequest {
    let cav = rules.unit_type(state, march.unit) == CounterType::Cavalry;
    RollRequest {
        side: rules.unit_side(state, march.unit).id().into(),
        purpose: format!("force march of {}", rules.unit_name(state, march.unit)),
        rule: "GCACW 5.1".into(),
        dice: if cav { 2 } else { 1 },
        modifiers: vec![Modifier::new("force march", -1, "GCACW 5.1")],
    }
}

/// Force-march bonus and Manpower loss from the unmodified roll (GCACW 5.1): infantry gains
/// roll − 1 (at least 2) and loses 2 on a 6 if at 6+ Manpower (else 1), 1 on 2–5, none on 1;
/// cavalry gains 2d6 − 1 (at least 4) and loses 1 on 8 or more.
#[must_use]
pub fn force_march_outcome(cavalry: bool, raw: u8, manpower: u8) -> (u8, u8) {
    if cavalry {
        ((raw.saturating_sub(1)).max(4), u8::from(raw >= 8))
    } else {
        let loss = match raw {
            6 if manpower >= 6 => 2,
            2..=6 => 1,
            _ => 0,
        };
        ((raw.saturating_sub(1)).max(2), loss)
    }
}

/// Applies the force-march roll.
pub fn apply_force_march(rules: &Gcacw, state: &mut State, mut march: March, req: &RollRequest, dice: &[u8]) {
    let u = march.unit;
    let cav = rules.unit_type(state, u) == CounterType::Cavalry;
    let raw: u8 = dice.iter().sum();
    let (bonus, loss) = force_march_outcome(cav, raw, state.units[u].manpower);
    march.left = march.left + Half::whole(u16::from(bonus));
    sequence::log_roll(state, req, dice, format!("+{bonus} MP (now {}), Manpower loss {loss}", march.left));
    if loss > 0 {
        rules.lose_manpower(state, u, loss, LossCause::ForceMarch, "force march", "GCACW 5.1");
    }
    if state.units[u].hex.is_none() {
        end_march(rules, state);
    } else {
        start_moving(rules, state, march);
    }
}

fn start_moving(rules: &Gcacw, state: &mut State, march: March) {
    state.note(format!("{} has {} MP to move.", rules.unit_name(state, march.unit), march.left), Some("GCACW 5.1"));
    state.stage =
        if riders(rules, state, march.unit).is_empty() { Stage::Moving { march } } else { Stage::Riders { march } };
}

/// Army and district leaders in the marching unit's hex, attached to another unit, who may switch
/// to it as it leaves (GCACW 6.3): it must be a subordinate infantry unit.
#[must_use]
pub fn riders(rules: &Gcacw, state: &State, u: usize) -> Vec<usize> {
    let Some(hex) = state.units[u].hex else { return Vec::new() };
    (0..state.leaders.len())
        .filter(|&l| state.leaders[l].with != Some(u) && rules.leader_hex(state, l) == Some(hex))
        .filter(|&l| matches!(rules.leader_counter(state, l).ty, CounterType::Army | CounterType::District))
        .filter(|&l| rules.may_attach(state, state.leaders[l].counter as usize, u))
        .collect()
}

/// Which army or district leaders leave with the marching unit.
#[must_use]
pub fn riders_decision(rules: &Gcacw, state: &State, march: &March) -> Decision {
    let name = rules.unit_name(state, march.unit);
    let mut options: Vec<Choice> = riders(rules, state, march.unit)
        .into_iter()
        .map(|l| {
            let c = rules.leader_counter(state, l);
            Choice::new(format!("ride:{}", c.id), format!("{} goes with {name}", c.name))
        })
        .collect();
    options.push(Choice::new("alone", format!("{name} leaves without them")));
    Decision {
        side: rules.unit_side(state, march.unit).id().into(),
        kind: "riders".into(),
        prompt: format!("An army or district leader may switch to {name} as it leaves the hex (GCACW 6.3)"),
        options,
    }
}

/// Applies the riders decision; `None` if unreadable.
pub fn choose_riders(rules: &Gcacw, state: &mut State, march: March, option: &str) -> Option<()> {
    if let Some(id) = option.strip_prefix("ride:") {
        let l = rules.leader_by_id(id)?;
        if !riders(rules, state, march.unit).contains(&l) {
            return None;
        }
        state.leaders[l].with = Some(march.unit);
        state.note(
            format!("{} switches to {}.", rules.leader_counter(state, l).name, rules.unit_name(state, march.unit)),
            Some("GCACW 6.3"),
        );
        state.stage =
            if riders(rules, state, march.unit).is_empty() { Stage::Moving { march } } else { Stage::Riders { march } };
    } else if option == "alone" {
        state.stage = Stage::Moving { march };
    } else {
        return None;
    }
    Some(())
}

/// The legal moves of a marching unit, as options: each adjacent hex it may enter, and ending the
/// march.
#[must_use]
pub fn moving_decision(rules: &Gcacw, state: &State, march: &March) -> Decision {
    let u = march.unit;
    let map = rules.map();
    let name = rules.unit_name(state, u);
    let mut options = Vec::new();
    let night = crate::events::night_march(state);
    // Moves into an enemy ZOC not occupied by the marcher's side (HSN-A 2.2 Night March).
    let mut into_zoc = Vec::new();
    if let Some(at) = state.units[u].hex.filter(|_| !march.stopped) {
        let ctx = MoveContext::new(rules, state, u);
        for (_, to) in map.neighbors(at) {
            let Some(s) = movement::step(rules, &ctx, at, to, !march.moved, march.started_in_zoc, march.wagon_paid)
            else {
                continue;
            };
            let affordable = s.zoc_to_zoc || s.cost <= march.left || !march.moved;
            if !affordable || (s.zoc_to_zoc && march.moved) {
                continue;
            }
            let terrain = map.terrain(to).map(|t| t.name()).unwrap_or("?");
            let what = if s.zoc_to_zoc {
                format!("enemy ZOC to enemy ZOC: all MP{}", if s.disorganizes { ", and disorganized" } else { "" })
            } else if s.cost > march.left {
                format!("{} MP, the minimum move", s.cost)
            } else {
                format!("{} MP", s.cost)
            };
            let stop = if s.ends && !s.zoc_to_zoc { "; enters enemy ZOC and stops" } else { "" };
            if night
                && map.index(to).is_some_and(|i| {
                    ctx.enemy_zoc.get(i).is_some_and(|z| *z != crate::zoc::Zoc::None)
                        && ctx.occupant.get(i).copied().flatten() != Some(ctx.side)
                })
            {
                into_zoc.push(format!("move:{to}"));
            }
            options.push(Choice::new(
                format!("move:{to}"),
                format!("Move to {} ({terrain}, {what}{stop})", map.label(to)),
            ));
        }
    }
    // HSN-A 2.2 Night March: no entering an enemy ZOC that is not Union-occupied, unless every way
    // out of the hex leads into one; no attacks of any kind.
    if night && options.len() > into_zoc.len() {
        options.retain(|c: &Choice| !into_zoc.contains(&c.id));
    }
    if !night {
        options.extend(crate::battle::attack_options(rules, state, march));
        options.extend(crate::blockhouse::options(rules, state, march));
    }
    if let Some(at) = state.units[u].hex {
        // GCACW 7.8: refuse flanks for 1 MP (not in a mountain or swamp, not on entering an enemy
        // ZOC); a marker already there may be lifted by a unit that begins its march in the hex.
        let terrain = map.terrain(at);
        let closed = matches!(terrain, Some(caisson_hexmap::Terrain::Mountain | caisson_hexmap::Terrain::Swamp));
        let entered_zoc = march.stopped && march.moved;
        if !state.flanks_refused.contains(&at) && !closed && !entered_zoc && march.left >= Half::whole(1) {
            options.push(Choice::new(
                "refuse-flanks",
                format!("Refuse flanks in {} (1 MP; the march ends)", map.label(at)),
            ));
        }
        if state.flanks_refused.contains(&at) && !march.moved {
            options.push(Choice::new("lift-flanks", format!("Take the Flanks Refused marker off {}", map.label(at))));
        }
    }
    if let Some(at) = state.units[u].hex {
        let side = rules.unit_side(state, u);
        for p in state.bridges.pontoons.iter().filter(|p| p.owner == side && (p.side.0 == at || p.side.1 == at)) {
            let (a, b) = p.side;
            options.push(Choice::new(format!("dismantle:{a}-{b}"), format!("Dismantle the pontoon bridge {a}–{b}")));
        }
    }
    options.extend(crate::exits::march_option(rules, state, march));
    // HSN-A 7.1: a substitute may be left in any hex of the march, the start hex included.
    options.extend(crate::substitute::detach_options(rules, state, march));
    options.push(Choice::new("end", format!("End {name}'s march")));
    let at = state.units[u].hex.map(|h| map.label(h)).unwrap_or_default();
    Decision {
        side: rules.unit_side(state, u).id().into(),
        kind: "move".into(),
        prompt: format!("{name} in {at}, {} MP left: move or end the march", march.left),
        options,
    }
}

/// Applies a move; `None` if unreadable.
pub fn choose_move(rules: &Gcacw, state: &mut State, mut march: March, option: &str) -> Option<()> {
    if option == "end" {
        state.note(format!("{} ends its march.", rules.unit_name(state, march.unit)), Some("GCACW 5.1"));
        conclude(rules, state, march.unit, march.moved);
        return Some(());
    }
    if option.starts_with("attack:") {
        return crate::battle::declare(rules, state, march, option);
    }
    if option == crate::exits::EXIT {
        // HSN-A 14.0: off the map for the cost of a pike hex; the march is over.
        crate::exits::march_option(rules, state, &march)?;
        let cost = crate::exits::cost(rules, state, &march);
        let from = rules.map().label(state.units[march.unit].hex?);
        crate::exits::leave(rules, state, &[march.unit], &format!("marches off the map from {from} for {cost} MP"));
        end_march(rules, state);
        return Some(());
    }
    if option.starts_with("blockhouse:") {
        return crate::blockhouse::declare(rules, state, march, option);
    }
    if let Some(arg) = option.strip_prefix("detach:") {
        return crate::substitute::detach(rules, state, march, arg);
    }
    if option == "refuse-flanks" {
        let at = state.units[march.unit].hex?;
        march.left = march.left - Half::whole(1);
        state.flanks_refused.insert(at);
        state.note(
            format!(
                "{} refuses its flanks in {}; its march ends.",
                rules.unit_name(state, march.unit),
                rules.map().label(at)
            ),
            Some("GCACW 7.8"),
        );
        conclude(rules, state, march.unit, march.moved);
        return Some(());
    }
    if option == "lift-flanks" {
        let at = state.units[march.unit].hex?;
        state.flanks_refused.remove(&at);
        state.note(format!("The Flanks Refused marker in {} is removed.", rules.map().label(at)), Some("GCACW 7.8"));
        state.stage = Stage::Moving { march };
        return Some(());
    }
    if let Some(site) = option.strip_prefix("dismantle:").and_then(crate::bridges::parse_site) {
        // GCACW 10.2: free of MP, and the march goes on.
        state.bridges.pontoons.retain(|p| p.side != site);
        state.note(format!("The pontoon bridge {}–{} is dismantled.", site.0, site.1), Some("GCACW 10.2"));
        state.stage = Stage::Moving { march };
        return Some(());
    }
    let to: caisson_hexmap::Hex = option.strip_prefix("move:")?.parse().ok()?;
    let u = march.unit;
    let from = state.units[u].hex?;
    let ctx = MoveContext::new(rules, state, u);
    let s = movement::step(rules, &ctx, from, to, !march.moved, march.started_in_zoc, march.wagon_paid)?;
    let side = rules.map().hexside(from, to);
    rules.relocate(state, u, to);
    if state.units[u].hex.is_none() {
        // A wagon removed on entering Nashville, Murfreesboro or Fortress Rosecrans (HSN Sc 9).
        end_march(rules, state);
        return Some(());
    }
    if rules.unit_type(state, u) == CounterType::Wagon && !side.contains(caisson_hexmap::Hexside::PIKE) {
        march.wagon_paid = true;
    }
    let minimum = s.cost > march.left && !s.zoc_to_zoc;
    let name = rules.unit_name(state, u);
    let label = rules.map().label(to);
    if s.zoc_to_zoc || minimum {
        march.left = Half::whole(0);
    } else {
        march.left = march.left - s.cost;
    }
    march.moved = true;
    march.path.push(to);
    let how = if s.zoc_to_zoc {
        "from enemy ZOC to enemy ZOC, spending its whole allowance".to_string()
    } else if minimum {
        format!("for {} MP as its minimum move", s.cost)
    } else {
        format!("for {} MP ({} left)", s.cost, march.left)
    };
    state.note(format!("{name} moves to {label} {how}."), Some(if minimum { "GCACW 6.1" } else { "GCACW 6.1, 6.2" }));
    if s.disorganizes {
        if state.units[u].organized {
            state.units[u].organized = false;
            state.note(
                format!("{name} is disorganized: no road, pike, trail or railroad joins the two ZOC hexes."),
                Some("GCACW 6.2"),
            );
        } else {
            rules.lose_manpower(
                state,
                u,
                1,
                LossCause::ZocToZoc,
                "moving from enemy ZOC to enemy ZOC off the roads",
                "GCACW 6.2",
            );
        }
    }
    if s.ends && !s.zoc_to_zoc {
        state.note(
            format!("{name} entered an enemy zone of control: it may attack, or its march ends."),
            Some("GCACW 6.2"),
        );
        march.stopped = true;
    }
    if !s.zoc_to_zoc && crate::cavalry::offer(rules, state, march.clone(), crate::cavalry::Resume::Moving) {
        return Some(());
    }
    let can_attack = march.stopped && !s.zoc_to_zoc && !crate::battle::attack_options(rules, state, &march).is_empty();
    // HSN-A 7.1: a unit whose march would end here (entering an enemy ZOC, or out of MP) may still
    // leave a substitute in this hex first.
    let over =
        ((s.ends || march.left == Half::whole(0)) && !can_attack && !crate::substitute::may_detach(rules, state, u))
            || state.units[u].hex.is_none();
    if over {
        conclude(rules, state, u, true);
    } else {
        state.stage = Stage::Moving { march };
    }
    Some(())
}

/// Whether the unit stands in an enemy normal ZOC now.
#[must_use]
pub fn in_enemy_zoc_now(rules: &Gcacw, state: &State, u: usize) -> bool {
    let ctx = MoveContext::new(rules, state, u);
    state.units[u].hex.is_some_and(|h| movement::in_enemy_zoc(rules, &ctx, h))
}

/// Goes on with a march after an interruption (a cavalry retreat): moving if it can, attacking
/// if it must stop, or ending.
pub fn resume_moving(rules: &Gcacw, state: &mut State, m: March) {
    let u = m.unit;
    let can_attack = !crate::battle::attack_options(rules, state, &m).is_empty();
    let stuck = m.moved && (m.stopped || m.left == Half::whole(0));
    if state.units[u].hex.is_none() || (stuck && !can_attack && !crate::substitute::may_detach(rules, state, u)) {
        conclude(rules, state, u, m.moved);
    } else {
        state.stage = Stage::Moving { march: m };
    }
}

/// What happens where a march ends: restrictions freed by it (scenario rules), enemy pontoons
/// overrun (GCACW 10.2), and the chance to destroy a bridge (10.2) before the march is over.
pub fn conclude(rules: &Gcacw, state: &mut State, u: usize, moved: bool) {
    if state.units[u].hex.is_some() {
        rules.update_releases(state, ReleaseEvent::Ended(u));
        crate::bridges::overrun(rules, state, u);
        if crate::bridges::offer_destroy(rules, state, u, !moved) {
            return;
        }
    }
    end_march(rules, state);
}

/// A unit's march is over: back to its activation, or on to the next Action Phase.
pub fn end_march(rules: &Gcacw, state: &mut State) {
    if state.activation.is_some() {
        activation::after_unit(rules, state);
    } else {
        sequence::next_action_phase(rules, state);
    }
}

/// Starts the march (or entrenchment) of one unit of an activation, with the leader's allowance.
pub fn activated_unit(rules: &Gcacw, state: &mut State, u: usize, intent: Intent, ma: u8) {
    match intent {
        Intent::Entrench => {
            crate::actions::entrench(rules, state, u);
            activation::after_unit(rules, state);
        }
        Intent::March => begin_unit_march(rules, state, u, ma),
    }
}
