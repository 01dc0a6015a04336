//! A combat from declaration to its last consequence (GCACW 7.1, 7.5, 7.6): a marching unit
//! declares an attack, sees the full assessment and may still call it off; the dice are rolled
//! (the artillery parity die first when the modifier needs one, GCACW 7.4); the defender's result
//! is applied first — Manpower divided as its owner likes, letters to every unit, then its
//! retreat or rout, or else the Defender's Retreat Option — then the attacker's, with the advance
//! after combat; and the march goes on or ends.

use caisson_hexmap::Hex;
use caisson_kernel::{Choice, Decision, Modifier, RollRequest};
use serde::Serialize;
use serde_json::json;

use crate::catalog::CounterType;
use crate::charts::{AttackType, CombatCells, CombatResult, Half};
use crate::combat::{self, Assessment, Attack, Forts};
use crate::retreat::{self, Retreat, RetreatKind};
use crate::rules::{Gcacw, ReleaseEvent};
use crate::state::{LossCause, March, Stage, State};
use crate::zoc::Zoc;
use crate::{march, sequence, Side};

/// Where a combat stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "step", rename_all = "kebab-case")]
pub enum Step {
    /// The attacker sees the assessment and commits or calls it off.
    Confirm,
    /// Dice: the parity die (if needed), the attacker's, the defender's.
    Dice,
    /// The defender divides a Manpower loss among his units.
    DefenderLoss {
        /// Points still to take.
        left: u8,
    },
    /// The defending stack retreats or routs.
    DefenderRetreat {
        /// The retreat in progress.
        retreat: Retreat,
    },
    /// The defender may retreat units voluntarily (GCACW 7.6 Defender's Retreat Option).
    Voluntary {
        /// Units chosen so far.
        chosen: Vec<usize>,
    },
    /// The attacker divides a Manpower loss.
    AttackerLoss {
        /// Points still to take.
        left: u8,
    },
    /// The attacker may advance into the vacated hex; before a unit advances, a leader in its hex
    /// may attach to it (GCACW 6.3, 7.6), once per leader.
    Advance {
        /// Leaders already reattached in this advance.
        reattached: Vec<usize>,
    },
}

/// What brought the combat about.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "by", rename_all = "kebab-case")]
pub enum Mode {
    /// A marching unit's attack of a type (GCACW 6.1, 7.1); the march resumes afterwards.
    March {
        /// Attack type.
        ty: AttackType,
        /// The march to resume.
        march: March,
    },
    /// An assault by a leader (GCACW 5.3, 7.1); the action ends afterwards.
    Assault {
        /// The active leader (index into `state.leaders`).
        leader: usize,
        /// Whether a grand assault joined it.
        grand: bool,
    },
}

/// A combat in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Battle {
    /// Attacking side.
    pub attacker: Side,
    /// Attacking units.
    pub attackers: Vec<usize>,
    /// The hex attacked.
    pub target: Hex,
    /// The units that defend it.
    pub defenders: Vec<usize>,
    /// A march attack or an assault.
    pub mode: Mode,
    /// The dice rolled so far: parity (if needed), attacker, defender.
    pub dice: Vec<u8>,
    /// The defender's and attacker's results, as the chart prints them, once rolled.
    pub results: Option<(String, String)>,
    /// Extra Manpower the attacker loses in a grand assault of 80 or more (GCACW 7.2), added to a
    /// loss number.
    pub extra_loss: u8,
    /// Where the combat stands.
    pub step: Step,
}

impl Battle {
    fn attack(&self, rules: &Gcacw, state: &State) -> Attack {
        match &self.mode {
            Mode::March { ty, .. } => {
                let u = self.attackers.first().copied().unwrap_or(0);
                let mut a = Attack::march(rules, state, u, self.target, *ty);
                a.flanks_refused = state.flanks_refused.contains(&self.target);
                a
            }
            Mode::Assault { leader, grand } => {
                let mut a = Attack::assault(rules, state, *leader, self.attackers.clone(), self.target, *grand);
                a.flanks_refused = state.flanks_refused.contains(&self.target);
                a.assault_bonus = crate::assault::bonus(rules, state, *leader);
                a
            }
        }
    }

    /// The hex of the active unit or leader: retreats may never come closer to it (GCACW 7.6).
    fn active_hex(&self, rules: &Gcacw, state: &State) -> Hex {
        match &self.mode {
            Mode::March { march, .. } => state.units[march.unit].hex,
            Mode::Assault { leader, .. } => rules.leader_hex(state, *leader),
        }
        .unwrap_or(self.target)
    }

    fn what(&self, rules: &Gcacw, state: &State) -> String {
        match &self.mode {
            Mode::March { ty, march } => format!("{} ({})", rules.unit_name(state, march.unit), type_word(*ty)),
            Mode::Assault { leader, .. } => {
                let names: Vec<String> = self.attackers.iter().map(|&u| rules.unit_name(state, u)).collect();
                format!("{}'s assault with {}", rules.leader_counter(state, *leader).name, names.join(", "))
            }
        }
    }

    /// The assessment of this combat.
    #[must_use]
    pub fn assess(&self, rules: &Gcacw, state: &State) -> Assessment {
        combat::assess(rules, state, &self.attack(rules, state))
    }

    fn result(&self, defender: bool) -> CombatResult {
        self.results.as_ref().and_then(|(d, a)| if defender { d } else { a }.parse().ok()).unwrap_or_default()
    }
}

/// The attack type as an option-id word.
pub(crate) fn type_word(ty: AttackType) -> &'static str {
    match ty {
        AttackType::ColumnOfRoute => "column-of-route",
        AttackType::Hasty => "hasty",
        AttackType::Normal => "normal",
        AttackType::Prepared => "prepared",
    }
}

/// The MP an attack type costs this unit, and the MP it must have left to declare it (GCACW 6.1).
pub(crate) fn cost(rules: &Gcacw, state: &State, u: usize, ty: AttackType) -> (Half, Half) {
    let row = rules.charts().attack_type(ty);
    let mp = if rules.unit_type(state, u) == CounterType::Cavalry { row.cavalry_mp } else { row.infantry_mp };
    (mp, row.min_ma)
}

/// GCACW 5.2: in a cavalry division leader's activation only the first cavalry unit to march may
/// attack.
pub(crate) fn may_attack_in_activation(rules: &Gcacw, state: &State, u: usize) -> bool {
    let Some(act) = &state.activation else { return true };
    let lc = state.leaders[act.leader].counter as usize;
    let division = rules.catalog().get(lc).ty == CounterType::Division && rules.catalog().is_cavalry_leader(lc);
    !(division && act.first_cavalry.is_some_and(|f| f != u))
}

/// The attacks the marching unit may declare now (GCACW 6.1, 7.1): each legal target with each
/// attack type it has the Movement Points for.
#[must_use]
pub fn attack_options(rules: &Gcacw, state: &State, m: &March) -> Vec<Choice> {
    let u = m.unit;
    let Some(from) = state.units[u].hex else { return Vec::new() };
    if !may_attack_in_activation(rules, state, u) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for target in combat::legal_targets(rules, state, u, from, !m.moved, &Forts::default()) {
        // One assessment per target (as a normal attack, which has no modifier of its own); each
        // type shifts the net modifier by its own (GCACW 7.4). The full preview comes on choosing.
        let a = combat::assess(rules, state, &Attack::march(rules, state, u, target, AttackType::Normal));
        let net = a.attacker_total() + i32::from(a.artillery.value) - a.defender_total();
        for ty in AttackType::ALL {
            let (mp, min) = cost(rules, state, u, ty);
            if m.left < mp || m.left < min || m.left == Half::whole(0) {
                continue;
            }
            let drm = i32::from(rules.charts().attack_type(ty).drm)
                - i32::from(rules.charts().attack_type(AttackType::Normal).drm);
            out.push(Choice::new(
                format!("attack:{target}:{}", type_word(ty)),
                format!(
                    "{} attack on {} ({mp} MP): ratio {}, net modifier {:+}",
                    type_word(ty),
                    rules.map().label(target),
                    a.ratio,
                    net + drm
                ),
            ));
        }
    }
    out
}

/// Declares an attack: its Movement Points are spent at once (GCACW 6.1) and the assessment is
/// shown before the dice. `None` if the option cannot be read.
pub fn declare(rules: &Gcacw, state: &mut State, mut m: March, option: &str) -> Option<()> {
    let mut parts = option.strip_prefix("attack:")?.split(':');
    let target: Hex = parts.next()?.parse().ok()?;
    let word = parts.next()?;
    let ty = AttackType::ALL.into_iter().find(|t| type_word(*t) == word)?;
    let (mp, _) = cost(rules, state, m.unit, ty);
    m.left = m.left - mp;
    lone_attacker_lifts_flanks(rules, state, &[m.unit]);
    let attacker = rules.unit_side(state, m.unit);
    let defenders = rules.on_map(state).filter(|&(_, h)| h == target).map(|(v, _)| v).collect();
    state.stage = Stage::Battle {
        battle: Box::new(Battle {
            attacker,
            attackers: vec![m.unit],
            target,
            defenders,
            mode: Mode::March { ty, march: m },
            dice: Vec::new(),
            results: None,
            extra_loss: 0,
            step: Step::Confirm,
        }),
    };
    Some(())
}

/// A combat at its Confirm step, assessed once: the decision's prompt ([`Preview::prompt`]) and
/// the view's `combat` table ([`Preview::json`]) both read this one [`Assessment`], so the text
/// and the table cannot disagree.
struct Preview {
    what: String,
    target: Hex,
    attackers: Vec<usize>,
    a: Assessment,
}

impl Preview {
    fn new(rules: &Gcacw, state: &State, b: &Battle) -> Preview {
        Preview {
            what: b.what(rules, state),
            target: b.target,
            attackers: b.attackers.clone(),
            a: b.assess(rules, state),
        }
    }

    fn prompt(&self, rules: &Gcacw) -> String {
        let a = &self.a;
        let mods = |ms: &[Modifier]| {
            if ms.is_empty() {
                "none".to_string()
            } else {
                ms.iter().map(|m| format!("{:+} {} [{}]", m.value, m.label, m.rule)).collect::<Vec<_>>().join("; ")
            }
        };
        let rows: Vec<String> = a
            .rows
            .iter()
            .map(|r| format!("{:+}: {}/{} {}/{}", r.row, r.cells.defender, r.cells.attacker, r.ways, r.out_of))
            .collect();
        format!(
            "{} attacks {}: Combat {} against {} (ratio {}); attacker: {}; artillery: {}; defender: {}; columns: defender {}, attacker {}; rows (defender/attacker, chances): {}",
            self.what,
            rules.map().label(self.target),
            a.attacker_cv,
            a.defender_cv,
            a.ratio,
            mods(&a.attacker_modifiers),
            a.artillery_label,
            mods(&a.defender_modifiers),
            a.defender_column,
            a.attacker_column,
            rows.join(", ")
        )
    }

    /// The same figures as a table for front ends (docs/web-api.md, `combat`).
    fn json(&self, rules: &Gcacw, state: &State) -> serde_json::Value {
        let a = &self.a;
        let units = |us: &[usize]| -> Vec<serde_json::Value> {
            us.iter().map(|&u| json!({"id": rules.unit_id(state, u), "name": rules.unit_name(state, u)})).collect()
        };
        // The attacker's loss in a cell: the chart's number, plus a grand assault's extra Manpower
        // where the chart has a loss (GCACW 7.2; as `attacker_result` applies it).
        let attacker_loss = |r: &CombatResult| if r.loss > 0 { r.loss + a.extra_attacker_loss } else { 0 };
        let most = a.rows.iter().map(|r| r.ways).max().unwrap_or(0);
        let rows: Vec<serde_json::Value> = a
            .rows
            .iter()
            .map(|r| {
                json!({
                    "row": r.row,
                    "differentials": [r.differentials.0, r.differentials.1],
                    "defender": {"result": r.cells.defender.to_string(), "loss": r.cells.defender.loss},
                    "attacker": {"result": r.cells.attacker.to_string(), "loss": attacker_loss(&r.cells.attacker)},
                    "ways": r.ways,
                    "out_of": r.out_of,
                    "chance": r.probability,
                    "percent": (r.probability * 1000.0).round() / 10.0,
                    "most_likely": r.ways == most,
                })
            })
            .collect();
        // Expected Manpower lost by each side: the sum over the rows of chance × the loss number
        // of its cell (the attacker's with a grand assault's extra). Letters count nothing: D, F,
        // f, E, r, R, * and a are fatigue, disorganization, demoralization or movement, and any
        // Manpower a retreat or rout costs later (GCACW 7.6) depends on the path, not on the cell.
        let expected = |loss: &dyn Fn(&CombatCells) -> u8| -> f64 {
            a.rows.iter().map(|r| r.probability * f64::from(loss(&r.cells))).sum()
        };
        let modifiers = |ms: &[Modifier]| -> Vec<serde_json::Value> {
            ms.iter().map(|m| json!({"label": m.label, "value": m.value, "rule": m.rule})).collect()
        };
        json!({
            "hex": self.target,
            "target": rules.map().label(self.target),
            "attacker": {
                "side": a.attacker_side,
                "what": self.what,
                "units": units(&self.attackers),
                "combat": a.attacker_cv.to_string(),
                "modifiers": modifiers(&a.attacker_modifiers),
                "total": a.attacker_total(),
            },
            "defender": {
                "side": a.attacker_side.enemy(),
                "units": units(&a.defenders),
                "combat": a.defender_cv.to_string(),
                "entrenched": a.defender_cv_entrenched.to_string(),
                "modifiers": modifiers(&a.defender_modifiers),
                "total": a.defender_total(),
            },
            "artillery": {
                "attacker": a.attacker_artillery,
                "defender": a.defender_artillery,
                "differential": a.artillery_differential,
                "modifier": a.artillery.to_string(),
                "label": a.artillery_label,
                "rule": "GCACW 7.4",
            },
            "ratio": a.ratio,
            "columns": {"defender": a.defender_column, "attacker": a.attacker_column},
            "extra_attacker_loss": a.extra_attacker_loss,
            "rows": rows,
            "expected_loss": {
                "defender": expected(&|c| c.defender.loss),
                "attacker": expected(&|c| attacker_loss(&c.attacker)),
            },
            "notes": a.notes,
        })
    }
}

/// The view's `combat`: the preview of the combat waiting at its Confirm step as a table, or
/// `null` at any other moment. The same for both sides (nothing in it is hidden).
#[must_use]
pub fn combat_view(rules: &Gcacw, state: &State) -> serde_json::Value {
    match &state.stage {
        Stage::Battle { battle } if matches!(battle.step, Step::Confirm) => {
            Preview::new(rules, state, battle).json(rules, state)
        }
        _ => serde_json::Value::Null,
    }
}

/// A Flanks Refused marker goes when the only unit in its hex attacks, or when every unit in it
/// joins an assault (GCACW 7.8).
pub fn lone_attacker_lifts_flanks(rules: &Gcacw, state: &mut State, attackers: &[usize]) {
    let Some(at) = attackers.first().and_then(|&u| state.units[u].hex) else { return };
    if !state.flanks_refused.contains(&at) {
        return;
    }
    let all_attack = rules.on_map(state).filter(|&(_, h)| h == at).all(|(v, _)| attackers.contains(&v));
    if all_attack {
        state.flanks_refused.remove(&at);
        state.note(
            format!("The Flanks Refused marker in {} is removed: its units attack.", rules.map().label(at)),
            Some("GCACW 7.8"),
        );
    }
}

/// The decision a combat waits for, if it waits for one.
#[must_use]
pub fn decision(rules: &Gcacw, state: &State, b: &Battle) -> Option<Decision> {
    let (side, kind, prompt, options) = match &b.step {
        Step::Confirm => (
            b.attacker,
            "attack-confirm",
            Preview::new(rules, state, b).prompt(rules),
            match b.mode {
                Mode::March { .. } => {
                    vec![Choice::new("commit", "Attack"), Choice::new("cancel", "Call it off (the MP come back)")]
                }
                Mode::Assault { .. } => vec![Choice::new("commit", "Roll the combat dice")],
            },
        ),
        Step::DefenderLoss { left } | Step::AttackerLoss { left } => {
            let defender = matches!(b.step, Step::DefenderLoss { .. });
            let units = if defender { &b.defenders } else { &b.attackers };
            let options = units
                .iter()
                .filter(|&&u| state.units[u].hex.is_some())
                .map(|&u| {
                    Choice::new(
                        format!("lose:{}", rules.unit_id(state, u)),
                        format!("{} loses 1 (Manpower {})", rules.unit_name(state, u), state.units[u].manpower),
                    )
                })
                .collect();
            let side = if defender { b.attacker.enemy() } else { b.attacker };
            (side, "loss", format!("Take {left} Manpower from your units, one at a time (GCACW 7.5)"), options)
        }
        Step::DefenderRetreat { retreat } => {
            let mut d = retreat::decision(rules, state, retreat);
            d.options.extend(retreat::off_map_choice(rules, state, retreat));
            return Some(d);
        }
        Step::Voluntary { chosen } => {
            let mut options: Vec<Choice> = b
                .defenders
                .iter()
                // Wagon trains never use the Defender's Retreat Option (HSN-B 2.2).
                .filter(|&&u| {
                    state.units[u].hex == Some(b.target)
                        && !chosen.contains(&u)
                        && rules.unit_type(state, u) != CounterType::Wagon
                })
                .map(|&u| {
                    Choice::new(
                        format!("volunteer:{}", rules.unit_id(state, u)),
                        format!("{} retreats voluntarily", rules.unit_name(state, u)),
                    )
                })
                .collect();
            options
                .push(Choice::new("stand", if chosen.is_empty() { "Stand fast" } else { "Retreat the chosen units" }));
            (
                b.attacker.enemy(),
                "retreat-option",
                "Defender's Retreat Option: retreat some units 1–4 hexes? (GCACW 7.6)".to_string(),
                options,
            )
        }
        Step::Advance { reattached } => {
            let mut options: Vec<Choice> = b
                .attackers
                .iter()
                .filter(|&&u| state.units[u].hex.is_some() && state.units[u].hex != Some(b.target))
                // A unit barred from the hex by a scenario rule may not advance into it (HSN Sc 9
                // Union Unit Restrictions (d); docs/rulings.md R86).
                .filter(|&&u| {
                    !rules
                        .barred(state, u, b.target, false)
                        .is_some_and(|r| matches!(r.kind, crate::scenario::RuleKind::CommandsBarred { .. }))
                })
                .map(|&u| {
                    Choice::new(
                        format!("advance:{}", rules.unit_id(state, u)),
                        format!("{} advances into {}", rules.unit_name(state, u), rules.map().label(b.target)),
                    )
                })
                .collect();
            for (l, u) in reattachments(rules, state, b, reattached) {
                options.push(Choice::new(
                    format!("attach:{}:{}", rules.leader_counter(state, l).id, rules.unit_id(state, u)),
                    format!(
                        "Before the advance, attach {} to {}",
                        rules.leader_counter(state, l).name,
                        rules.unit_name(state, u)
                    ),
                ));
            }
            options.push(Choice::new("hold", "No more advance"));
            (b.attacker, "advance", "Advance after combat? (GCACW 7.6)".to_string(), options)
        }
        Step::Dice => return None,
    };
    Some(Decision { side: side.id().into(), kind: kind.into(), prompt, options })
}

/// The die the combat waits for, if any.
#[must_use]
pub fn roll_request(rules: &Gcacw, state: &State, b: &Battle) -> Option<RollRequest> {
    if b.step != Step::Dice {
        return None;
    }
    let a = b.assess(rules, state);
    let parity = a.artillery.needs_roll();
    let n = b.dice.len();
    let parity_die = if parity { b.dice.first().copied() } else { None };
    let (side, purpose, modifiers) = match (parity, n) {
        (true, 0) => (b.attacker, format!("artillery parity die ({})", a.artillery_label), Vec::new()),
        (true, 1) | (false, 0) => {
            (b.attacker, "attacker's combat die".to_string(), a.attacker_roll_modifiers(parity_die))
        }
        _ => (b.attacker.enemy(), "defender's combat die".to_string(), a.defender_modifiers.clone()),
    };
    Some(RollRequest { side: side.id().into(), purpose, rule: "GCACW 7.4".into(), dice: 1, modifiers })
}

/// Applies a die of the combat.
pub fn apply_roll(rules: &Gcacw, state: &mut State, mut b: Battle, req: &RollRequest, dice: &[u8]) {
    b.dice.extend_from_slice(dice);
    let a = b.assess(rules, state);
    let needed = if a.artillery.needs_roll() { 3 } else { 2 };
    if b.dice.len() < needed {
        sequence::log_roll(state, req, dice, "rolled");
        state.stage = Stage::Battle { battle: Box::new(b) };
        return;
    }
    let (parity, ad, dd) =
        if needed == 3 { (Some(b.dice[0]), b.dice[1], b.dice[2]) } else { (None, b.dice[0], b.dice[1]) };
    let Ok(o) = combat::outcome(&a, ad, dd, parity) else {
        state.stage = Stage::Battle { battle: Box::new(b) };
        return;
    };
    sequence::log_roll(
        state,
        req,
        dice,
        format!(
            "attacker {} → {}, defender {} → {}: differential {:+}; defender ({}) {}, attacker ({}) {}",
            o.attacker_die,
            o.attacker_roll,
            o.defender_die,
            o.defender_roll,
            o.differential,
            o.cells.defender_column,
            o.cells.defender,
            o.cells.attacker_column,
            o.cells.attacker
        ),
    );
    b.results = Some((o.cells.defender.to_string(), o.cells.attacker.to_string()));
    b.extra_loss = o.extra_attacker_loss;
    // HSN Sc 2, 3, 9: an attack frees the units it falls on from their scenario restriction.
    rules.update_releases(state, ReleaseEvent::Attacked(b.target));
    if let Some(fort) = combat::fort_destroyed(&a, &b.attack(rules, state), &o) {
        state.flags.insert(combat::fort_flag(fort), 1);
        state.note(format!("The Union fort in {} is destroyed.", rules.map().label(fort)), Some("HSN-A 8.0"));
    }
    if let Some((u, counter)) = combat::death_of_cleburne(rules, state, &b.attackers, &o) {
        state.units[u].counter = counter as u16;
        state.note(
            format!("Equal dice: Cleburne falls; his division fights on as {}.", rules.unit_name(state, u)),
            Some("HSN-A 6.0"),
        );
    }
    defender_result(rules, state, b);
}

fn fatigue(state: &mut State, u: usize, n: u8) {
    state.units[u].fatigue = (state.units[u].fatigue + n).min(4);
}

/// Letters of a result applied to one unit (GCACW 7.5).
fn letters(rules: &Gcacw, state: &mut State, u: usize, r: &CombatResult) {
    let mut said = Vec::new();
    if r.disorganize {
        state.units[u].organized = false;
        fatigue(state, u, 3);
        said.push("disorganized, fatigue +3");
    }
    if r.fatigue_2 {
        fatigue(state, u, 2);
        said.push("fatigue +2");
    }
    if r.fatigue_1 {
        fatigue(state, u, 1);
        said.push("fatigue +1");
    }
    if r.rout {
        let unit = &mut state.units[u];
        if r.demoralize_2 {
            if unit.demoralized == 2 {
                said.push("already Demoralize-2: loses 1 more");
                rules.lose_manpower(state, u, 1, LossCause::Combat, "R* on a Demoralize-2 unit", "GCACW 7.5");
            } else {
                state.units[u].demoralized = 2;
                said.push("Demoralize-2");
            }
        } else {
            unit.demoralized = (unit.demoralized + 1).min(2);
            said.push(if unit.demoralized == 2 { "Demoralize-2" } else { "Demoralize-1" });
        }
    }
    if !said.is_empty() && state.units[u].hex.is_some() {
        let text = format!("{}: {}.", rules.unit_name(state, u), said.join(", "));
        state.note(text, Some("GCACW 7.5"));
    }
}

fn alive(state: &State, units: &[usize]) -> Vec<usize> {
    units.iter().copied().filter(|&u| state.units[u].hex.is_some()).collect()
}

fn defender_result(rules: &Gcacw, state: &mut State, mut b: Battle) {
    let r = b.result(true);
    b.defenders = alive(state, &b.defenders);
    if r.loss > 0 && !b.defenders.is_empty() {
        if b.defenders.len() == 1 {
            let u = b.defenders[0];
            rules.lose_manpower(state, u, r.loss, LossCause::Combat, "combat", "GCACW 7.5");
            after_defender_loss(rules, state, b);
        } else {
            b.step = Step::DefenderLoss { left: r.loss };
            state.stage = Stage::Battle { battle: Box::new(b) };
        }
        return;
    }
    after_defender_loss(rules, state, b);
}

fn after_defender_loss(rules: &Gcacw, state: &mut State, mut b: Battle) {
    let r = b.result(true);
    b.defenders = alive(state, &b.defenders);
    for &u in &b.defenders {
        letters(rules, state, u, &r);
    }
    b.defenders = alive(state, &b.defenders);
    if b.defenders.is_empty() {
        attacker_result(rules, state, b);
        return;
    }
    if r.retreat || r.rout {
        let kind = if r.rout { RetreatKind::Rout } else { RetreatKind::Retreat };
        start_retreat(rules, state, b, kind, None);
    } else {
        b.step = Step::Voluntary { chosen: Vec::new() };
        state.stage = Stage::Battle { battle: Box::new(b) };
    }
}

fn start_retreat(rules: &Gcacw, state: &mut State, mut b: Battle, kind: RetreatKind, units: Option<Vec<usize>>) {
    let units = units.unwrap_or_else(|| b.defenders.clone());
    let r = Retreat {
        side: b.attacker.enemy(),
        units,
        start: b.target,
        enemy: b.active_hex(rules, state),
        kind,
        path: Vec::new(),
        override_used: false,
    };
    if retreat::steps(rules, state, &r).is_empty() && !retreat::off_map_allowed(rules, state, &r) {
        retreat::surrender(rules, state, &r);
        attacker_result(rules, state, b);
        return;
    }
    b.step = Step::DefenderRetreat { retreat: r };
    state.stage = Stage::Battle { battle: Box::new(b) };
}

/// Applies a decision of the combat; `None` if unreadable.
pub fn choose(rules: &Gcacw, state: &mut State, mut b: Battle, option: &str) -> Option<()> {
    match b.step.clone() {
        Step::Confirm => match option {
            "commit" => {
                state.note(Preview::new(rules, state, &b).prompt(rules), Some("GCACW 7.4"));
                b.step = Step::Dice;
                state.stage = Stage::Battle { battle: Box::new(b) };
            }
            "cancel" => {
                let Mode::March { ty, march: mut m } = b.mode else { return None };
                let (mp, _) = cost(rules, state, m.unit, ty);
                m.left = m.left + mp;
                state.stage = Stage::Moving { march: m };
            }
            _ => return None,
        },
        Step::DefenderLoss { left } | Step::AttackerLoss { left } => {
            let defender = matches!(b.step, Step::DefenderLoss { .. });
            let u = rules.unit_by_id(option.strip_prefix("lose:")?)?;
            rules.lose_manpower(state, u, 1, LossCause::Combat, "combat", "GCACW 7.5");
            let left = left - 1;
            let units = alive(state, if defender { &b.defenders } else { &b.attackers });
            if left > 0 && !units.is_empty() {
                b.step = if defender { Step::DefenderLoss { left } } else { Step::AttackerLoss { left } };
                state.stage = Stage::Battle { battle: Box::new(b) };
            } else if defender {
                after_defender_loss(rules, state, b);
            } else {
                after_attacker_loss(rules, state, b);
            }
        }
        Step::DefenderRetreat { mut retreat } => {
            if option == "stop" {
                state.note(format!("The retreat ends in {}.", rules.map().label(retreat.at())), Some("GCACW 7.6"));
                let voluntary = retreat.kind == RetreatKind::Voluntary;
                if voluntary && b.result(true).is_no_effect() {
                    for &u in &retreat.units {
                        fatigue(state, u, 1);
                    }
                }
                attacker_result(rules, state, b);
                return Some(());
            }
            if option == retreat::OFF_MAP && retreat::off_map_allowed(rules, state, &retreat) {
                retreat::leave_map(rules, state, &retreat);
                attacker_result(rules, state, b);
                return Some(());
            }
            let to: Hex = option.strip_prefix("retreat:")?.parse().ok()?;
            match retreat::take_step(rules, state, &mut retreat, to)? {
                retreat::Progress::Going => {
                    b.step = Step::DefenderRetreat { retreat };
                    state.stage = Stage::Battle { battle: Box::new(b) };
                }
                retreat::Progress::Over => attacker_result(rules, state, b),
            }
        }
        Step::Voluntary { mut chosen } => {
            if option == "stand" {
                if chosen.is_empty() {
                    attacker_result(rules, state, b);
                } else {
                    start_retreat(rules, state, b, RetreatKind::Voluntary, Some(chosen));
                }
            } else {
                chosen.push(rules.unit_by_id(option.strip_prefix("volunteer:")?)?);
                b.step = Step::Voluntary { chosen };
                state.stage = Stage::Battle { battle: Box::new(b) };
            }
        }
        Step::Advance { reattached } => {
            if option == "hold" {
                finish(rules, state, b);
            } else if let Some(rest) = option.strip_prefix("attach:") {
                let (lid, uid) = rest.split_once(':')?;
                let (l, u) = (rules.leader_by_id(lid)?, rules.unit_by_id(uid)?);
                if !reattachments(rules, state, &b, &reattached).contains(&(l, u)) {
                    return None;
                }
                state.leaders[l].with = Some(u);
                state.note(
                    format!(
                        "{} attaches to {} before the advance.",
                        rules.leader_counter(state, l).name,
                        rules.unit_name(state, u)
                    ),
                    Some("GCACW 6.3, 7.6"),
                );
                let mut reattached = reattached;
                reattached.push(l);
                b.step = Step::Advance { reattached };
                state.stage = Stage::Battle { battle: Box::new(b) };
            } else {
                let u = rules.unit_by_id(option.strip_prefix("advance:")?)?;
                let from = state.units[u].hex?;
                rules.relocate(state, u, b.target);
                state.note(
                    format!(
                        "{} advances from {} into {}.",
                        rules.unit_name(state, u),
                        from,
                        rules.map().label(b.target)
                    ),
                    Some("GCACW 7.6"),
                );
                crate::bridges::overrun(rules, state, u);
                let more =
                    b.attackers.iter().any(|&v| state.units[v].hex.is_some() && state.units[v].hex != Some(b.target));
                if matches!(b.mode, Mode::Assault { .. }) && more {
                    state.stage = Stage::Battle { battle: Box::new(b) };
                } else {
                    finish(rules, state, b);
                }
            }
        }
        Step::Dice => return None,
    }
    Some(())
}

/// Leaders who may attach to an attacking unit of their hex that has not yet advanced (GCACW 6.3
/// exception, 7.6): subordinate to it, not already with it, not reattached in this advance, and not
/// pinned to their unit by a scenario rule.
fn reattachments(rules: &Gcacw, state: &State, b: &Battle, reattached: &[usize]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for &u in &b.attackers {
        let Some(hex) = state.units[u].hex.filter(|&h| h != b.target) else { continue };
        for l in 0..state.leaders.len() {
            let ok = !reattached.contains(&l)
                && state.leaders[l].with.is_some_and(|w| w != u)
                && rules.leader_hex(state, l) == Some(hex)
                && rules.leader_counter(state, l).side == b.attacker
                && rules.may_attach(state, state.leaders[l].counter as usize, u)
                && rules.pinned(state, l).is_none();
            if ok {
                out.push((l, u));
            }
        }
    }
    out
}

fn attacker_result(rules: &Gcacw, state: &mut State, mut b: Battle) {
    let r = b.result(false);
    b.attackers = alive(state, &b.attackers);
    let loss = if r.loss > 0 { r.loss + b.extra_loss } else { 0 };
    if b.extra_loss > 0 && r.loss > 0 {
        state.note(
            format!("A grand assault of 80 or more: the attacker loses {} more.", b.extra_loss),
            Some("GCACW 7.2"),
        );
    }
    if loss > 0 && !b.attackers.is_empty() {
        if b.attackers.len() == 1 {
            rules.lose_manpower(state, b.attackers[0], loss, LossCause::Combat, "combat", "GCACW 7.5");
        } else {
            b.step = Step::AttackerLoss { left: loss };
            state.stage = Stage::Battle { battle: Box::new(b) };
            return;
        }
    }
    after_attacker_loss(rules, state, b);
}

fn after_attacker_loss(rules: &Gcacw, state: &mut State, mut b: Battle) {
    let r = b.result(false);
    b.attackers = alive(state, &b.attackers);
    for &u in &b.attackers {
        letters(rules, state, u, &r);
    }
    b.attackers = alive(state, &b.attackers);
    let vacated = rules.occupant(state, b.target) != Some(b.attacker.enemy());
    if r.advance && vacated && !b.attackers.is_empty() {
        b.step = Step::Advance { reattached: Vec::new() };
        state.stage = Stage::Battle { battle: Box::new(b) };
    } else {
        finish(rules, state, b);
    }
}

/// After the combat: the march goes on unless the attacker's result ended it (D, F, f, E) or the
/// unit has nothing left to do; a unit that advanced into an enemy ZOC must attack again or stop
/// (GCACW 7.5, 7.6).
fn finish(rules: &Gcacw, state: &mut State, b: Battle) {
    let r = b.result(false);
    let Mode::March { march: mut m, .. } = b.mode else {
        // An assault ends with its combat (GCACW 5.3).
        sequence::next_action_phase(rules, state);
        return;
    };
    m.moved = true;
    let u = m.unit;
    if let Some(h) = state.units[u].hex.filter(|h| m.path.last() != Some(h)) {
        // It advanced after the combat (GCACW 7.6).
        m.path.push(h);
    }
    if state.units[u].hex.is_none() || r.ends_march() {
        if state.units[u].hex.is_some() {
            state.note(format!("{}'s march is over ({}).", rules.unit_name(state, u), r), Some("GCACW 7.5"));
        }
        march::conclude(rules, state, u, true);
        return;
    }
    let in_zoc = state.units[u].hex.is_some_and(|h| {
        let zoc = rules.zoc_of(state, rules.unit_side(state, u).enemy());
        rules.map().index(h).is_some_and(|i| zoc[i] == Zoc::Normal)
    });
    m.stopped = in_zoc;
    // An advance into a cavalry unit's ZOC lets it retreat (GCACW 7.7).
    if state.units[u].hex == Some(b.target)
        && crate::cavalry::offer(rules, state, m.clone(), crate::cavalry::Resume::Moving)
    {
        return;
    }
    if m.left == Half::whole(0) && (!in_zoc || attack_options(rules, state, &m).is_empty()) {
        march::conclude(rules, state, u, true);
    } else {
        state.stage = Stage::Moving { march: m };
    }
}
