//! Union blockhouses and the Confederate attacks on them (HSN Scenario 5, "Union Blockhouses",
//! special rule (a) and the Blockhouse Table).
//!
//! A blockhouse is a marker, not a unit: it has no ZOC and no values and changes nothing for
//! movement, retreat or command radius, so the only code that knows of it is here. A marching
//! Confederate unit in a blockhouse hex may attack it once per march: it declares an attack type
//! and pays that type's MP, then one die on the Blockhouse Table (instead of the Combat Chart)
//! leaves the blockhouse standing, perhaps with fatigue for the attacker, or destroys it for 6 VP
//! (recorded by [`victory::record_blockhouse_destroyed`]). Either way the march goes on.

use caisson_hexmap::Hex;
use caisson_kernel::{Choice, Modifier, RollRequest};

use crate::battle::{cost, may_attack_in_activation, type_word};
use crate::catalog::CounterType;
use crate::charts::{AttackType, Half};
use crate::rules::Gcacw;
use crate::scenario::{BlockhouseTable, RuleKind};
use crate::state::{March, Stage, State};
use crate::{march, sequence, victory, Side};

const RULE: &str = "HSN Sc 5 Blockhouse Table";

/// The scenario's Blockhouse Table, if it has one.
#[must_use]
pub fn table(rules: &Gcacw) -> Option<&BlockhouseTable> {
    rules.scenario().special_rule.iter().find_map(|r| match &r.kind {
        RuleKind::BlockhouseTable(t) => Some(t),
        _ => None,
    })
}

/// The blockhouses still standing, with their names: the set-up's `blockhouse` markers less
/// those destroyed.
#[must_use]
pub fn standing<'r>(rules: &'r Gcacw, state: &State) -> Vec<(Hex, &'r str)> {
    rules
        .scenario()
        .marker
        .iter()
        .filter(|m| m.kind == "blockhouse")
        .filter_map(|m| Some((m.hex?, m.text.as_str())))
        .filter(|(h, _)| !state.flags.contains_key(&format!("{}{h}", victory::BLOCKHOUSE_DESTROYED)))
        .collect()
}

/// The Blockhouse Table modifiers for unit `u` attacking with `ty`, each with its reason.
#[must_use]
pub fn modifiers(rules: &Gcacw, state: &State, table: &BlockhouseTable, u: usize, ty: AttackType) -> Vec<Modifier> {
    let mut out = Vec::new();
    let by_type = match ty {
        AttackType::ColumnOfRoute => table.attack_type.column_of_route,
        AttackType::Hasty => table.attack_type.hasty,
        AttackType::Normal => table.attack_type.normal,
        AttackType::Prepared => table.attack_type.prepared,
    };
    if by_type != 0 {
        out.push(Modifier::new(format!("{} attack", type_word(ty)), by_type, RULE));
    }
    let combat = rules.combat_value(state, u);
    if combat == Half::from_halves(1) {
        out.push(Modifier::new("Combat value ½", table.half_combat, RULE));
    } else if combat >= Half::whole(2) {
        out.push(Modifier::new(format!("Combat value {combat} (2 or more)"), table.combat_two, RULE));
    }
    let artillery = crate::combat::artillery_value(rules, state, u);
    if artillery >= 2 {
        out.push(Modifier::new(format!("Artillery value {artillery} (2 or more)"), table.artillery_two, RULE));
    }
    let hex = state.units[u].hex;
    let leader = rules.leader_by_id(&table.leader).filter(|&l| hex.is_some() && rules.leader_hex(state, l) == hex);
    if let Some(l) = leader {
        out.push(Modifier::new(
            format!("{} stacked with the attacker", rules.leader_counter(state, l).name),
            table.leader_bonus,
            RULE,
        ));
    }
    out
}

/// What a modified roll does: `None` destroys the blockhouse, `Some(fl)` leaves it standing and
/// gives the attacker `fl` Fatigue Levels.
#[must_use]
pub fn result(table: &BlockhouseTable, modified: i32) -> Option<u8> {
    table.rows.iter().find(|r| modified <= r.at_most).map(|r| r.fatigue)
}

/// The six faces of the one die with modifier `drm` (HSN Sc 5 Blockhouse Table): how
/// many destroy the blockhouse, and the Fatigue Levels the others give the attacker in all.
#[must_use]
pub fn faces(table: &BlockhouseTable, drm: i32) -> (u8, u8) {
    (1..=6).fold((0, 0), |(destroys, fatigue), d| match result(table, d + drm) {
        None => (destroys + 1, fatigue),
        Some(fl) => (destroys, fatigue + fl),
    })
}

/// The sum of the Blockhouse Table modifiers for unit `u` attacking with `ty` ([`modifiers`]).
#[must_use]
pub fn drm(rules: &Gcacw, state: &State, table: &BlockhouseTable, u: usize, ty: AttackType) -> i32 {
    modifiers(rules, state, table, u, ty).iter().map(|x| x.value).sum()
}

/// The blockhouse attacks the marching unit may declare now, one option per attack type it has
/// the MP for: a Confederate combat unit in a standing blockhouse's hex that has not attacked it
/// in this march.
#[must_use]
pub fn options(rules: &Gcacw, state: &State, m: &March) -> Vec<Choice> {
    let u = m.unit;
    let Some(table) = table(rules) else { return Vec::new() };
    let Some(at) = state.units[u].hex else { return Vec::new() };
    if m.blockhouse_tried
        || rules.unit_side(state, u) != Side::Confederate
        || rules.unit_type(state, u) == CounterType::Wagon
        || !may_attack_in_activation(rules, state, u)
    {
        return Vec::new();
    }
    let Some((_, name)) = standing(rules, state).into_iter().find(|(h, _)| *h == at) else { return Vec::new() };
    let mut out = Vec::new();
    for ty in AttackType::ALL {
        let (mp, min) = cost(rules, state, u, ty);
        if m.left < mp || m.left < min || m.left == Half::ZERO {
            continue;
        }
        let drm = drm(rules, state, table, u, ty);
        let (destroys, _) = faces(table, drm);
        out.push(Choice::new(
            format!("blockhouse:{}", type_word(ty)),
            format!("{} attack on {name} ({mp} MP): die {drm:+}, destroys it on {destroys} in 6", type_word(ty)),
        ));
    }
    out
}

/// Declares a blockhouse attack: the MP are spent and the roll is next. `None` if unreadable.
pub fn declare(rules: &Gcacw, state: &mut State, mut m: March, option: &str) -> Option<()> {
    let word = option.strip_prefix("blockhouse:")?;
    let ty = AttackType::ALL.into_iter().find(|t| type_word(*t) == word)?;
    if !options(rules, state, &m).iter().any(|c| c.id == option) {
        return None;
    }
    let (mp, _) = cost(rules, state, m.unit, ty);
    m.left = m.left - mp;
    m.blockhouse_tried = true;
    state.note(
        format!(
            "{} makes a {} attack on the blockhouse for {mp} MP ({} left).",
            rules.unit_name(state, m.unit),
            type_word(ty),
            m.left
        ),
        Some("HSN Sc 5 (a)"),
    );
    state.stage = Stage::BlockhouseRoll { march: m, ty };
    Some(())
}

/// The Blockhouse Table roll.
#[must_use]
pub fn roll_request(rules: &Gcacw, state: &State, m: &March, ty: AttackType) -> Option<RollRequest> {
    let table = table(rules)?;
    Some(RollRequest {
        side: Side::Confederate.id().into(),
        purpose: format!("Blockhouse Table for {}", rules.unit_name(state, m.unit)),
        rule: RULE.into(),
        dice: 1,
        modifiers: modifiers(rules, state, table, m.unit, ty),
    })
}

/// Applies the Blockhouse Table roll, then the march goes on (or ends, with no MP left).
pub fn apply_roll(rules: &Gcacw, state: &mut State, m: March, req: &RollRequest, dice: &[u8]) {
    let u = m.unit;
    let total = sequence::total(dice, &req.modifiers);
    let outcome = table(rules).map(|t| result(t, total));
    let name = rules.unit_name(state, u);
    let text = match outcome {
        Some(None) => {
            if let Some(at) = state.units[u].hex {
                victory::record_blockhouse_destroyed(state, at);
            }
            let vp =
                rules.scenario().victory.award.iter().find(|a| a.id == "blockhouse-destroyed").map_or(0.0, |a| a.vp);
            format!("{total}: Destroyed — the blockhouse is removed (+{vp} Confederate VP)")
        }
        Some(Some(0)) | None => format!("{total}: No Effect"),
        Some(Some(fl)) => {
            let unit = &mut state.units[u];
            let before = unit.fatigue;
            unit.fatigue = (unit.fatigue + fl).min(4);
            format!(
                "{total}: No Effect (+{fl} FL): {name} goes from fatigue {before} to {} (at most 4; no extended march)",
                unit.fatigue
            )
        }
    };
    sequence::log_roll(state, req, dice, text);
    if m.left == Half::ZERO {
        march::conclude(rules, state, u, m.moved);
    } else {
        march::resume_moving(rules, state, m);
    }
}
