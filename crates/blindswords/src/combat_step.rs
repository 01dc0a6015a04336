//! [SR 6.2, 9, 12.1] Fire Combat in play: the pure procedures of [`crate::fire`] and
//! [`crate::cohesion`] fed from the game state, their dice asked through [`RollRequest`]s and
//! their results written back.
//!
//! Enforced: the artillery fire of the Artillery Step (SR 6.2), a brigade's Fire Combat Step
//! (SR 9.0-9.3: each unit alone or combined with units of its hex, each once) and Opportunity
//! Fire at a unit leaving a hex next to the enemy (SR 10.7: half SP, the mover the Lead Unit,
//! never at a skirmisher, EX 15.3): each legal group and target offered with its preview (SP, column,
//! itemised shifts), the owner's pick of the Lead Unit among ties (SR 9.2), the d66 on the CRT
//! (SR 9.3), and the Fire Combat Cohesion Test it calls for with its Break Test dice (SR 12.1,
//! 12.6): depletion, the Battleworn flip, Morale Hits and units broken to the Broken Track or
//! eliminated; the retreats and Panic it orders are then played by [`crate::retreat_step`]. A
//! fire other than a battery's is a [`Volley`] that knows the stage to return to ([`fired`]).
//! Units of one brigade in two adjacent hexes combine their fire (SR 9.1e, ruling PC30); a
//! Flanking Fire is announced and resolved in the Fire Combat Step, in Opportunity Fire and in
//! Defensive Fire (SR 9.3c, [`Stage::FlankFire`], PC31, PC37); Opportunity Fire also meets a Wayward Move ([`Stage::WaywardFire`], EX 7.3b, PC32) and a
//! retreating unit leaving a hex next to the enemy after its first ([`Stage::RetreatFire`],
//! SR 12.3 note, PC33); Firefight and Sharpshooters fire from the hand ([`Stage::EventFire`],
//! PC34).

use caisson_hexmap::algorithms::LineStep;
use caisson_hexmap::{Hex, Hexside, TacticalTerrain};
use caisson_kernel::{Choice, Decision, Modifier, Pending, RollRequest, RuleError};

use crate::catalog::{Side, UnitType};
use crate::charts::{Order, RangeBand, Section, D66};
use crate::cohesion::{self, CombatUnit, FireTest, Morale, Nearby, Need, Stack};
use crate::defensive;
use crate::fire::{self, FireAssessment, FireInput, FireKind, Firer, Over, Target};
use crate::los;
use crate::movement::terrain_key;
use crate::retreat_step;
use crate::rules::BlindSwords;
use crate::state::{other, side_id, Aftermath, Place, RetreatOrder, Stage, State, Then, Volley};

/// The Morale Hit marker a unit carries (SR 12.5): the hits counted, or the Shaken status it set
/// up with.
fn morale_of(hits: u8, shaken: bool) -> Morale {
    match hits.max(u8::from(shaken)) {
        0 => Morale::Steady,
        1 => Morale::Shaken,
        _ => Morale::Disrupted,
    }
}

/// Whether a hex lets its units give and get Unit Support (EX 12.4 iv: the TEC's `support`).
fn hex_support(rules: &BlindSwords, hex: Hex) -> bool {
    let terrain = rules.data().map.tactical(hex).map_or("clear", terrain_key);
    rules.data().charts.terrain.hex_effects(terrain).is_none_or(|fx| fx.support)
}

/// Unit `i` of the state as combat sees it, support from outside its hex not yet judged.
pub(crate) fn bare_unit(rules: &BlindSwords, state: &State, i: usize) -> Option<CombatUnit> {
    let u = &state.units[i];
    let mut c = CombatUnit::from_catalog(rules.data().catalog.unit(&u.id)?);
    c.battleworn = u.battleworn || c.fresh.is_none();
    c.morale = morale_of(u.morale_hits, u.shaken);
    c.skirmish = u.skirmish;
    c.chaos = matches!(u.place, Place::Map(h) if state.chaos == Some(h));
    Some(c)
}

/// The units of a hex as a [`Stack`], with support from adjacent hexes judged (SR 12.4), and
/// their indexes in the state.
pub(crate) fn stack_at(rules: &BlindSwords, state: &State, hex: Hex) -> (Stack, Vec<usize>) {
    let ids: Vec<usize> = state.units_at(hex).collect();
    let around: Vec<(CombatUnit, bool)> = rules
        .data()
        .map
        .neighbors(hex)
        .flat_map(|(_, n)| state.units_at(n).map(move |j| (j, n)))
        .filter_map(|(j, n)| Some((bare_unit(rules, state, j)?, hex_support(rules, n))))
        .collect();
    // EX 16.1g: no unit receives support on a night turn.
    let night_ok = crate::special::support_allowed(rules, state);
    let nearby: Vec<Nearby<'_>> =
        around.iter().map(|(unit, allows)| Nearby { unit, hex_allows_support: *allows && night_ok }).collect();
    let allows_support = hex_support(rules, hex) && night_ok;
    let units = ids
        .iter()
        .filter_map(|&i| {
            let mut c = bare_unit(rules, state, i)?;
            c.nearby_support = cohesion::supported(&c, allows_support, &nearby, false);
            Some(c)
        })
        .collect();
    (Stack { units, allows_support }, ids)
}

/// The hexes a line enters its target from (the last step before the target).
fn entries(line: &[LineStep]) -> Vec<Hex> {
    match line.len().checked_sub(2).and_then(|k| line.get(k)) {
        Some(LineStep::Hex(h)) => vec![*h],
        Some(LineStep::Hexside(a, b)) => vec![*a, *b],
        None => Vec::new(),
    }
}

/// The fire of `firers` at `target` with Lead Unit `lead` (an index into the target's stack),
/// as [`fire::assess`] wants it; `None` when a line of sight cannot be traced.
pub(crate) fn fire_input(
    rules: &BlindSwords,
    state: &State,
    firers: &[usize],
    kind: FireKind,
    target: Hex,
    lead: usize,
    bonus: Bonus,
) -> Option<FireInput> {
    let map = &rules.data().map;
    let mut out = Vec::new();
    let mut fence = None;
    for &i in firers {
        let u = &state.units[i];
        let Place::Map(from) = u.place else { return None };
        let line = los::line_of_sight(map, from, target, |h| state.units_at(h).next().is_some()).ok()?;
        let c = bare_unit(rules, state, i)?;
        let over = line
            .over_units
            .iter()
            .map(|h| Over {
                friendly: state.occupant(*h) == Some(u.side),
                adjacent_to_target: map.distance(*h, target) == 1,
            })
            .collect();
        let brigade_hold = u.brigade.as_deref().and_then(|b| state.brigade(b)).is_some_and(|b| b.on_hold);
        // EX 9.3 iv (ruling A-16): the target directly behind a fence the line of fire crosses.
        fence = fence.or_else(|| {
            entries(&line.line).into_iter().find_map(|e| {
                let side = map.hexside(e, target);
                [Hexside::STONE_FENCE, Hexside::WOOD_FENCE].into_iter().find(|f| side.contains(*f))
            })
        });
        out.push(Firer {
            id: u.id.clone(),
            side: u.side,
            ty: u.ty,
            brigade: u.brigade.clone(),
            hex: from,
            sp: c.printed_sp(),
            morale: c.morale,
            weapon: c.weapon,
            range: u32::from(map.distance(from, target)),
            sight: line.sight,
            over,
            skirmish: u.skirmish,
            in_woods: map.tactical(from) == Some(TacticalTerrain::Woods),
            on_hold: u.on_hold || brigade_hold,
            chaos: c.chaos,
            attacked_by_cavalry: false,
            supporting: bonus.defended.is_some_and(|d| d != from),
        });
    }
    let (stack, _) = stack_at(rules, state, target);
    let lead_unit = stack.units.get(lead)?;
    let t = Target {
        hex: target,
        terrain: map.tactical(target).map_or("clear", terrain_key).to_string(),
        fence: fence.and_then(|f| f.words().next()).map(str::to_string),
        lead_cavalry: lead_unit.ty == UnitType::Cavalry,
        lead_skirmish: lead_unit.skirmish,
    };
    let extra = if bonus.sharpshooters {
        vec![Modifier::new("Sharpshooters", 1, "events.toml (reconstructed, ruling A-10)")]
    } else {
        Vec::new()
    };
    Some(FireInput { kind, firers: out, target: t, flanking: bonus.flanking, grid: map.parity(), extra })
}

/// What raises a fire beyond its own shifts: a Flanking Fire (SR 9.3c), the Sharpshooters event.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Bonus {
    /// Part of a Flanking Fire.
    flanking: bool,
    /// The Sharpshooters event's fire.
    sharpshooters: bool,
    /// The attacked hex of the Close Combat a Defensive Fire is made in: its units fire at full
    /// SP, units of an adjacent hex joining them as Supporting Defensive Fire at half (SR 11.3a,
    /// 9.1d, ruling PC36).
    defended: Option<Hex>,
}

impl Bonus {
    /// A Defensive Fire in the Close Combat on `hex` (SR 11.3a), part of a Flanking Fire or not.
    pub(crate) fn defending(hex: Hex, flanking: bool) -> Self {
        Self { flanking, sharpshooters: false, defended: Some(hex) }
    }
}

/// The units firing in a fire stage whose first firer is `firer` at `target`, why, and whether
/// as part of a Flanking Fire at it (SR 9.3c): the volley's, or the battery alone in the
/// Artillery Step.
fn shot(state: &State, firer: usize, target: Hex) -> (Vec<usize>, FireKind, Bonus) {
    match &state.volley {
        Some(v) => {
            let flanking = matches!(v.then, Stage::FlankFire { target: t, .. } if t == target);
            let sharpshooters = matches!(&v.then, Stage::EventFire { event, .. } if event == "sharpshooters");
            let fight = match &v.then {
                Stage::FlankFire { back, .. } => back.as_ref(),
                then => then,
            };
            let defended = match fight {
                Stage::CloseCombat { fight, .. } if v.kind == FireKind::Defensive => Some(fight.target),
                _ => None,
            };
            (v.firers.clone(), v.kind, Bonus { flanking, sharpshooters, defended })
        }
        None => (vec![firer], FireKind::Artillery, Bonus::default()),
    }
}

/// The assessment of a fire, if it is legal (SR 9.1-9.3).
fn assessment(
    rules: &BlindSwords,
    state: &State,
    firers: &[usize],
    kind: FireKind,
    target: Hex,
    lead: usize,
    bonus: Bonus,
) -> Option<FireAssessment> {
    let input = fire_input(rules, state, firers, kind, target, lead, bonus)?;
    fire::assess(&rules.data().charts, &input).ok()
}

/// The longest range of a weapon, to skip targets that cannot be in reach.
fn reach(rules: &BlindSwords, unit: &CombatUnit) -> u16 {
    let arm = if unit.ty.is_artillery() { crate::charts::Arm::Artillery } else { crate::charts::Arm::SmallArms };
    let w = rules.data().charts.weapons.weapon(arm, fire::weapon_code(unit.weapon));
    let far = w.map_or(0, |w| [w.canister, w.effective, w.long, w.extreme].into_iter().flatten().max().unwrap_or(0));
    u16::try_from(far).unwrap_or(u16::MAX)
}

/// How a fire reads before the dice: SP, column and each shift; where a firer's SP is halved
/// (Opportunity or Supporting Defensive Fire, SR 9.1d; Battlefield Chaos, EX 7.3b), each
/// firer's share after them, the halved ones from their SP before the halving
/// ("41GA 7 SP, 27TN 4→2 SP supporting").
pub fn preview(rules: &BlindSwords, a: &FireAssessment) -> String {
    let crt = &rules.data().charts.crt;
    let shifts = if a.shifts.is_empty() {
        "no shift".to_string()
    } else {
        a.shifts.iter().map(|m| format!("{} {:+} [{}]", m.label, m.value, m.rule)).collect::<Vec<_>>().join(", ")
    };
    let end = a.final_column.and_then(|c| crt.label(c)).map_or("beyond C: ignored".to_string(), |l| format!("→ {l}"));
    let text = format!("{} SP, column {} {shifts} {end}", a.total_sp, crt.label(a.initial_column).unwrap_or("?"));
    match shares(rules, a) {
        Some(shares) => format!("{text}; {shares}"),
        None => text,
    }
}

/// Each firer's SP in a fire where some are halved (SR 9.1d, EX 7.3b); `None` if none is.
fn shares(rules: &BlindSwords, a: &FireAssessment) -> Option<String> {
    let halving = |s: &fire::SpStep| s.rule == "SR 9.1d" || s.rule.starts_with("EX 7.3b");
    if !a.contributions.iter().any(|c| c.steps.iter().any(halving)) {
        return None;
    }
    let shares: Vec<String> = a
        .contributions
        .iter()
        .map(|c| {
            let name = rules.data().catalog.unit(&c.unit).map_or(c.unit.as_str(), |u| u.name.as_str());
            let first = c.steps.iter().position(halving);
            match first.and_then(|k| k.checked_sub(1)).and_then(|k| c.steps.get(k)) {
                Some(before) => {
                    let why: Vec<&str> = c
                        .steps
                        .iter()
                        .filter(|s| halving(s))
                        .map(|s| if s.label == "Supporting Defensive Fire" { "supporting" } else { s.label.as_str() })
                        .collect();
                    format!("{name} {}→{} SP {}", before.sp, c.sp, why.join(" and "))
                }
                None => format!("{name} {} SP", c.sp),
            }
        })
        .collect();
    Some(shares.join(", "))
}

/// The fires a side's battery may make in the Artillery Step (SR 6.2): each enemy hex in
/// reach whose fire [`fire::assess`] allows and that has a column to roll on, with its preview.
#[must_use]
pub fn artillery_fires(rules: &BlindSwords, state: &State, firer: usize) -> Vec<(Hex, String)> {
    targets(rules, state, &[firer], FireKind::Artillery, None, Bonus::default())
}

/// The hexes `firers` may fire at together, with each fire's preview: every enemy hex in reach
/// of them all (only `only` when given) whose fire [`fire::assess`] allows with a column to roll
/// on. The Lead Unit of the preview is `lead` (Opportunity Fire's moving unit, SR 10.7) or the
/// first of the largest units (SR 9.2), previewed with the `bonus`.
fn targets(
    rules: &BlindSwords,
    state: &State,
    firers: &[usize],
    kind: FireKind,
    lead: Option<usize>,
    bonus: Bonus,
) -> Vec<(Hex, String)> {
    let map = &rules.data().map;
    let Some(&first) = firers.first() else { return Vec::new() };
    let side = state.units[first].side;
    let mut reaches = Vec::new();
    for &i in firers {
        let (Some(from), Some(c)) = (state.hex_of(i), bare_unit(rules, state, i)) else { return Vec::new() };
        reaches.push((from, reach(rules, &c)));
    }
    let mut hexes: Vec<Hex> = match lead.and_then(|l| state.hex_of(l)) {
        Some(h) => vec![h],
        None => state
            .units
            .iter()
            .filter(|e| e.side != side)
            .filter_map(|e| if let Place::Map(h) = e.place { Some(h) } else { None })
            .collect(),
    };
    hexes.retain(|h| {
        reaches
            .iter()
            .all(|(from, far)| map.distance(*from, *h) <= *far && crate::special::night_sight(rules, state, *from, *h))
    });
    hexes.sort_by_key(|h| (h.col, h.row));
    hexes.dedup();
    hexes
        .into_iter()
        .filter_map(|h| {
            let (stack, ids) = stack_at(rules, state, h);
            let l = match lead {
                Some(l) => ids.iter().position(|&i| i == l)?,
                None => stack.largest().first().copied()?,
            };
            let a = assessment(rules, state, firers, kind, h, l, bonus)?;
            a.final_column?;
            Some((h, preview(rules, &a)))
        })
        .collect()
}

/// One fire a decision offers: the units firing together, the target hex and the preview.
pub type Offer = (Vec<usize>, Hex, String);

/// Every non-empty subset of a hex's units (a hex holds a few units at most, SR 3.1).
pub(crate) fn subsets(units: &[usize]) -> Vec<Vec<usize>> {
    let n = units.len().min(6);
    (1u32..(1 << n)).map(|mask| (0..n).filter(|b| mask & (1 << b) != 0).map(|b| units[b]).collect()).collect()
}

/// Whether units may add their SP across two adjacent hexes (SR 9.1e): all infantry of one
/// brigade (ruling PC30).
fn one_brigade_infantry(state: &State, group: &[usize]) -> bool {
    let brigade = group.first().and_then(|&i| state.units[i].brigade.as_ref());
    brigade.is_some()
        && group.iter().all(|&i| state.units[i].ty == UnitType::Infantry && state.units[i].brigade.as_ref() == brigade)
}

/// The fires `eligible` units may make (SR 9.1, 9.1e): each unit alone, each combination of
/// units sharing a hex, and each combination of infantry of one brigade in two adjacent hexes
/// (ruling PC30), at each target they may fire at together (only the moving unit for
/// Opportunity Fire, `mover`).
fn offers(
    rules: &BlindSwords,
    state: &State,
    eligible: &[usize],
    kind: FireKind,
    mover: Option<usize>,
    bonus: Bonus,
) -> Vec<Offer> {
    let mut by_hex: Vec<(Hex, Vec<usize>)> = Vec::new();
    for &i in eligible {
        let Some(h) = state.hex_of(i) else { continue };
        match by_hex.iter_mut().find(|(x, _)| *x == h) {
            Some((_, v)) => v.push(i),
            None => by_hex.push((h, vec![i])),
        }
    }
    let map = &rules.data().map;
    let mut groups: Vec<Vec<usize>> = by_hex.iter().flat_map(|(_, units)| subsets(units)).collect();
    for (k, (a, units_a)) in by_hex.iter().enumerate() {
        for (b, units_b) in &by_hex[k + 1..] {
            if map.distance(*a, *b) != 1 {
                continue;
            }
            let infantry = |v: &&Vec<usize>| one_brigade_infantry(state, v);
            for left in subsets(units_a).iter().filter(infantry) {
                for right in subsets(units_b).iter().filter(infantry) {
                    let group: Vec<usize> = left.iter().chain(right).copied().collect();
                    if one_brigade_infantry(state, &group) {
                        groups.push(group);
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for group in groups {
        for (h, shown) in targets(rules, state, &group, kind, mover, bonus) {
            out.push((group.clone(), h, shown));
        }
    }
    out
}

/// The option id of a fire: `fire:<unit>+<unit>…@<hex>`.
fn offer_id(state: &State, group: &[usize], target: Hex) -> String {
    let ids: Vec<&str> = group.iter().map(|&i| state.units[i].id.as_str()).collect();
    format!("fire:{}@{target}", ids.join("+"))
}

fn offer_label(state: &State, group: &[usize], target: Hex, shown: &str) -> String {
    let names: Vec<&str> = group.iter().map(|&i| state.units[i].name.as_str()).collect();
    format!("{} fire{} at {target}: {shown}", names.join(" + "), if group.len() == 1 { "s" } else { "" })
}

/// The fire order of a brigade's Fire Combat Step: its order's (SR 8.2-8.3), or Defend's for a
/// Limited Activation (ruling A-01b).
fn step_kind(order: Option<Order>) -> FireKind {
    FireKind::Brigade(order.unwrap_or(Order::Defend))
}

/// The fires a brigade's Fire Combat Step still offers (SR 9.0, 9.1): its units on the map
/// that have not fired this step, outside the Battlefield Chaos hex (EX 7.3b: they initiate no
/// combat), alone or combined, at each legal target, with the preview.
#[must_use]
pub fn brigade_fires(rules: &BlindSwords, state: &State) -> Vec<Offer> {
    let Stage::FireStep { brigade, order, fired, .. } = &state.stage else { return Vec::new() };
    offers(rules, state, &step_units(state, brigade, fired), step_kind(*order), None, Bonus::default())
}

/// The units of `brigade` that may still fire in its Fire Combat Step: on the map, not fired,
/// not artillery, outside the Battlefield Chaos hex.
fn step_units(state: &State, brigade: &str, fired: &[usize]) -> Vec<usize> {
    state
        .units
        .iter()
        .enumerate()
        .filter(|(i, u)| u.brigade.as_deref() == Some(brigade) && !fired.contains(i) && !u.ty.is_artillery())
        .filter(|(_, u)| matches!(u.place, Place::Map(h) if state.chaos != Some(h)))
        .map(|(i, _)| i)
        .collect()
}

/// The hexes the lines of sight of `group` enter `target` from (the last hexes before it).
fn group_entries(rules: &BlindSwords, state: &State, group: &[usize], target: Hex) -> Vec<Hex> {
    let map = &rules.data().map;
    group
        .iter()
        .filter_map(|&i| state.hex_of(i))
        .filter_map(|from| los::line_of_sight(map, from, target, |h| state.units_at(h).next().is_some()).ok())
        .flat_map(|line| entries(&line.line))
        .collect()
}

/// Whether fires at `target` make Flanking Fire (SR 9.3c, ruling A-14e): the lines of two of
/// them enter the target by hexsides with a full hexside between.
pub(crate) fn flanks(rules: &BlindSwords, state: &State, fires: &[Vec<usize>], target: Hex) -> bool {
    let grid = rules.data().map.parity();
    let lines: Vec<Vec<Hex>> = fires.iter().map(|g| group_entries(rules, state, g, target)).collect();
    lines.iter().enumerate().any(|(k, a)| {
        lines[k + 1..].iter().any(|b| a.iter().any(|x| b.iter().any(|y| fire::flanking_fire(grid, target, &[*x, *y]))))
    })
}

/// The hexes a Fire Combat Step may announce a Flanking Fire at (SR 9.3c, ruling PC31): two
/// units that may each fire alone at the hex flank it.
fn flank_targets(rules: &BlindSwords, state: &State, offers: &[Offer]) -> Vec<Hex> {
    let mut out: Vec<Hex> = Vec::new();
    for (g, h, _) in offers.iter().filter(|(g, _, _)| g.len() == 1) {
        if out.contains(h) {
            continue;
        }
        let others = offers.iter().filter(|(o, t, _)| t == h && o.len() == 1 && o != g);
        if others.into_iter().any(|(o, _, _)| flanks(rules, state, &[g.clone(), o.clone()], *h)) {
            out.push(*h);
        }
    }
    out
}

/// Who may still fire in the stage a Flanking Fire was announced in, leaving out `busy` units,
/// why they fire, and the Lead Unit forced on the target: a brigade's units in its Fire Combat
/// Step, or the enemy units next to a moving unit, the Lead Unit, in an Opportunity Fire.
fn flank_pool(
    rules: &BlindSwords,
    state: &State,
    back: &Stage,
    busy: &[usize],
) -> (Vec<usize>, FireKind, Option<usize>) {
    match back {
        Stage::FireStep { brigade, order, fired, .. } => {
            let all: Vec<usize> = fired.iter().chain(busy).copied().collect();
            (step_units(state, brigade, &all), step_kind(*order), None)
        }
        Stage::OppFire { moving, from, fired, .. } => {
            let all: Vec<usize> = fired.iter().chain(busy).copied().collect();
            (opp_eligible(rules, state, moving.unit, *from, &all), FireKind::Opportunity, Some(moving.unit))
        }
        Stage::WaywardFire { unit, from, fired, .. } => {
            let all: Vec<usize> = fired.iter().chain(busy).copied().collect();
            (opp_eligible(rules, state, *unit, *from, &all), FireKind::Opportunity, Some(*unit))
        }
        Stage::RetreatFire { walk, fired } => {
            let all: Vec<usize> = fired.iter().chain(busy).copied().collect();
            let unit = walk.order.unit;
            let pool = state.hex_of(unit).map(|here| opp_eligible(rules, state, unit, here, &all)).unwrap_or_default();
            (pool, FireKind::Opportunity, Some(unit))
        }
        _ => (Vec::new(), FireKind::Opportunity, None),
    }
}

/// The fires a [`Stage::FlankFire`] still lets the player announce at its target: groups not
/// fired nor announced, previewed with the Flanking Fire shift.
#[must_use]
pub fn flank_offers(rules: &BlindSwords, state: &State) -> Vec<Offer> {
    let Stage::FlankFire { back, target, announced, resolving: false } = &state.stage else {
        return Vec::new();
    };
    let busy: Vec<usize> = announced.iter().flatten().copied().collect();
    if let Stage::CloseCombat { fight, .. } = back.as_ref() {
        return defensive::flank_offers(rules, state, fight, *target, &busy);
    }
    let (pool, kind, mover) = flank_pool(rules, state, back, &busy);
    offers(rules, state, &pool, kind, mover, Bonus { flanking: true, ..Bonus::default() })
        .into_iter()
        .filter(|(_, h, _)| h == target)
        .collect()
}

/// The enemy units that may fire Opportunity Fire at `mover` leaving `from` (SR 10.7): next to
/// it, not in `fired`, outside the Battlefield Chaos hex (EX 7.3b); none at a skirmisher (EX
/// 15.3) or a unit no longer there.
fn opp_eligible(rules: &BlindSwords, state: &State, mover: usize, from: Hex, fired: &[usize]) -> Vec<usize> {
    let u = &state.units[mover];
    if u.skirmish || u.place != Place::Map(from) {
        return Vec::new();
    }
    rules
        .data()
        .map
        .neighbors(from)
        .filter(|(_, n)| state.chaos != Some(*n))
        .flat_map(|(_, n)| state.units_at(n))
        .filter(|i| state.units[*i].side != u.side && !fired.contains(i))
        .collect()
}

/// The Opportunity Fires at a unit about to leave `from` (SR 10.7): by the enemy units adjacent
/// to it that have not yet fired at this step, outside the Battlefield Chaos hex (EX 7.3b), the
/// moving unit the Lead Unit; none at a skirmisher (EX 15.3).
fn opportunity_offers(rules: &BlindSwords, state: &State, mover: usize, from: Hex, fired: &[usize]) -> Vec<Offer> {
    let eligible = opp_eligible(rules, state, mover, from, fired);
    offers(rules, state, &eligible, FireKind::Opportunity, Some(mover), Bonus::default())
}

/// The Opportunity Fires a [`Stage::OppFire`] or [`Stage::WaywardFire`] still offers.
#[must_use]
pub fn opportunity_fires(rules: &BlindSwords, state: &State) -> Vec<Offer> {
    match &state.stage {
        Stage::OppFire { moving, from, fired, .. } => opportunity_offers(rules, state, moving.unit, *from, fired),
        Stage::WaywardFire { unit, from, fired, .. } => opportunity_offers(rules, state, *unit, *from, fired),
        Stage::RetreatFire { walk, fired } => match state.hex_of(walk.order.unit) {
            Some(here) => opportunity_offers(rules, state, walk.order.unit, here, fired),
            None => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// The fires a held event of `side` offers (`events.toml`, ruling PC34), never from the
/// Battlefield Chaos hex (EX 7.3b: no friendly event there), each as in a Fire Combat Step under
/// Defend orders: Firefight, units of one hex next to the enemy, alone or together, at an
/// adjacent enemy hex; Sharpshooters (Confederate), one infantry unit at an enemy hex within
/// its Effective range, one column right.
#[must_use]
pub fn event_fires(rules: &BlindSwords, state: &State, side: Side, event: &str) -> Vec<Offer> {
    let map = &rules.data().map;
    let kind = FireKind::Brigade(Order::Defend);
    let mut by_hex: Vec<(Hex, Vec<usize>)> = Vec::new();
    for (i, u) in state.units.iter().enumerate() {
        let Place::Map(h) = u.place else { continue };
        let fits = match event {
            "firefight" => {
                !u.ty.is_artillery() && map.neighbors(h).any(|(_, n)| state.occupant(n) == Some(other(side)))
            }
            "sharpshooters" => side == Side::Confederate && u.ty == UnitType::Infantry,
            _ => false,
        };
        if u.side != side || state.chaos == Some(h) || !fits {
            continue;
        }
        match by_hex.iter_mut().find(|(x, _)| *x == h) {
            Some((_, v)) => v.push(i),
            None => by_hex.push((h, vec![i])),
        }
    }
    if event == "firing-on-friends" {
        return friends_fires(rules, state, side);
    }
    let mut out = Vec::new();
    for (from, units) in by_hex {
        if event == "firefight" {
            for group in subsets(&units) {
                let near = targets(rules, state, &group, kind, None, Bonus::default());
                out.extend(
                    near.into_iter().filter(|(h, _)| map.distance(from, *h) == 1).map(|(h, s)| (group.clone(), h, s)),
                );
            }
            continue;
        }
        let bonus = Bonus { sharpshooters: true, ..Bonus::default() };
        for i in units {
            for (h, shown) in targets(rules, state, &[i], kind, None, bonus) {
                let (stack, _) = stack_at(rules, state, h);
                let effective = stack
                    .largest()
                    .first()
                    .and_then(|&l| assessment(rules, state, &[i], kind, h, l, bonus))
                    .is_some_and(|a| a.contributions.first().is_some_and(|c| c.band == RangeBand::Effective));
                if effective {
                    out.push((vec![i], h, shown));
                }
            }
        }
    }
    out
}

/// The fires Firing on Friends played by `side` offers (`events.toml`, EX 16.1g, ruling PC35):
/// enemy units (not artillery, not in the Battlefield Chaos hex, as they start no combat), alone
/// or with units of their hex, fire under Defend orders at an adjacent hex of their own side
/// holding no unit of their brigades; on a night turn also at an adjacent hex of `side`'s units
/// of other brigades.
fn friends_fires(rules: &BlindSwords, state: &State, side: Side) -> Vec<Offer> {
    let map = &rules.data().map;
    let foe = other(side);
    let night = crate::special::night(rules, state).is_some();
    let kind = FireKind::Brigade(Order::Defend);
    let mut by_hex: Vec<(Hex, Vec<usize>)> = Vec::new();
    for (i, u) in state.units.iter().enumerate() {
        let Place::Map(h) = u.place else { continue };
        if u.side != foe || u.ty.is_artillery() || state.chaos == Some(h) {
            continue;
        }
        match by_hex.iter_mut().find(|(x, _)| *x == h) {
            Some((_, v)) => v.push(i),
            None => by_hex.push((h, vec![i])),
        }
    }
    let mut out = Vec::new();
    for (from, units) in by_hex {
        let near: Vec<Hex> = map
            .neighbors(from)
            .map(|(_, n)| n)
            .filter(|n| state.occupant(*n) == Some(foe) || (night && state.occupant(*n) == Some(side)))
            .collect();
        if near.is_empty() {
            continue;
        }
        for group in subsets(&units) {
            let brigades: Vec<Option<&String>> = group.iter().map(|&i| state.units[i].brigade.as_ref()).collect();
            for &h in &near {
                if state.units_at(h).any(|j| brigades.contains(&state.units[j].brigade.as_ref())) {
                    continue;
                }
                let (stack, _) = stack_at(rules, state, h);
                let Some(&l) = stack.largest().first() else { continue };
                let Some(a) = assessment(rules, state, &group, kind, h, l, Bonus::default()) else { continue };
                if a.final_column.is_some() {
                    out.push((group.clone(), h, preview(rules, &a)));
                }
            }
        }
    }
    out
}

/// Whether `mover`, about to leave `from`, may be fired on first (SR 10.7).
#[must_use]
pub fn opportunity_due(rules: &BlindSwords, state: &State, mover: usize, from: Hex) -> bool {
    !opportunity_offers(rules, state, mover, from, &[]).is_empty()
}

fn decide(side: Side, kind: &str, prompt: String, options: Vec<Choice>) -> Pending {
    Pending::Decide(Decision { side: side_id(side).into(), kind: kind.into(), prompt, options })
}

fn need_pending(side: Side, need: Need, stack: &Stack, kind: &str) -> Pending {
    match need {
        Need::Roll(r) => Pending::Roll(r),
        Need::Choose { what, candidates, rule } => {
            let options = candidates
                .iter()
                .filter_map(|&i| stack.units.get(i).map(|u| Choice::new(format!("unit:{i}"), u.id.clone())))
                .collect();
            decide(side, kind, format!("{side}: pick {what} ({rule})"), options)
        }
    }
}

/// Whether a [`Stage::FireTest`] is a Routine test from the Sharpshooters' fire, which the
/// Lead Unit takes as one Morale Hit instead (`events.toml`, reconstructed, ruling A-10).
fn sharpshot(rules: &BlindSwords, state: &State) -> bool {
    let Stage::FireTest { target, lead, column, roll, .. } = &state.stage else { return false };
    let sharpshooters = matches!(state.volley.as_ref().map(|v| &v.then), Some(Stage::EventFire { event, .. }) if event == "sharpshooters");
    let (stack, _) = stack_at(rules, state, *target);
    let (cr, _) = stack.modified_cr(*lead);
    let section = D66::from_value(*roll).and_then(|r| rules.data().charts.crt.result(*column, r, cr));
    sharpshooters && section == Some(Section::Routine)
}

/// The Fire Combat Cohesion Test of a [`Stage::FireTest`], with the dice given so far; `None`
/// in any other stage.
fn run_test(rules: &BlindSwords, state: &State) -> Option<Result<cohesion::TestOutcome, Need>> {
    let Stage::FireTest { target, lead, column, roll, second, dice, .. } = &state.stage else { return None };
    let charts = &rules.data().charts;
    let (stack, _) = stack_at(rules, state, *target);
    let (cr, _) = stack.modified_cr(*lead);
    let section = D66::from_value(*roll).and_then(|r| charts.crt.result(*column, r, cr))?;
    if sharpshot(rules, state) {
        let hit = cohesion::morale_hits(charts, &stack, *lead, 1, true, dice);
        return Some(hit.map(|(target, steps)| cohesion::TestOutcome {
            depletion: "-".into(),
            skedaddle: "MH".into(),
            target,
            attackers: None,
            steps,
            retreats: Vec::new(),
            panic: 0,
        }));
    }
    let opportunity = state.volley.as_ref().is_some_and(|v| v.kind == FireKind::Opportunity);
    let test = FireTest { section, target: stack, lead: *lead, opportunity, second: *second };
    let (coloured, white) = (dice.first().copied().unwrap_or(0), dice.get(1).copied().unwrap_or(0));
    Some(cohesion::fire_test(charts, &test, coloured, white, dice.get(2..).unwrap_or(&[])))
}

/// The option announcing a Flanking Fire at `hex` (SR 9.3c).
pub(crate) fn flank_choice(hex: Hex) -> Choice {
    Choice::new(
        format!("flank:{hex}"),
        format!("Announce a Flanking Fire at {hex}: fires from two sides, each one column right (SR 9.3c)"),
    )
}

/// The options of Opportunity Fire at a Wayward or retreating unit: each fire, and a Flanking
/// Fire at its hex where two lines flank it (SR 9.3c, ruling PC37).
fn fire_options(rules: &BlindSwords, state: &State, fires: &[Offer]) -> Vec<Choice> {
    let flank = flank_targets(rules, state, fires);
    let mut options: Vec<Choice> = fires
        .iter()
        .map(|(g, h, shown)| Choice::new(offer_id(state, g, *h), offer_label(state, g, *h, shown)))
        .collect();
    options.extend(flank.into_iter().map(flank_choice));
    options
}

/// What a fire stage waits for.
#[must_use]
pub fn pending(rules: &BlindSwords, state: &State) -> Option<Pending> {
    match &state.stage {
        Stage::FireLead { firer, target } => {
            let (stack, _) = stack_at(rules, state, *target);
            // The target's owner: the firer's enemy, or its own side under Firing on Friends.
            let owner = stack.units.first().map_or_else(|| other(state.units[*firer].side), |u| u.side);
            let need = Need::Choose { what: "the Lead Unit".into(), candidates: stack.largest(), rule: "SR 9.2" };
            Some(need_pending(owner, need, &stack, "fire-lead"))
        }
        Stage::FireStep { brigade, order, .. } => {
            let side = state.brigade(brigade).map_or(Side::Union, |b| b.side);
            let fires = brigade_fires(rules, state);
            let flank = flank_targets(rules, state, &fires);
            let mut options: Vec<Choice> = fires
                .into_iter()
                .map(|(g, h, shown)| Choice::new(offer_id(state, &g, h), offer_label(state, &g, h, &shown)))
                .collect();
            options.extend(flank.into_iter().map(flank_choice));
            options.push(Choice::new("done", "End the Fire Combat Step"));
            let name = rules.data().catalog.brigade(brigade).map_or(brigade.as_str(), |b| b.leader.as_str());
            let how =
                order.map_or_else(|| "Limited Activation, fire only: ruling A-01b".to_string(), |o| format!("{o:?}"));
            Some(decide(
                side,
                "fire-combat",
                format!("{name} Fire Combat Step ({how}): fire, each unit once, or end the step (SR 9.0-9.3)"),
                options,
            ))
        }
        Stage::FlankFire { back, target, announced, resolving: false } => {
            let side = match back.as_ref() {
                Stage::OppFire { moving, .. } => other(state.units[moving.unit].side),
                Stage::WaywardFire { unit, .. } => other(state.units[*unit].side),
                Stage::RetreatFire { walk, .. } => other(state.units[walk.order.unit].side),
                Stage::FireStep { brigade, .. } => state.brigade(brigade).map_or(Side::Union, |b| b.side),
                Stage::CloseCombat { fight, .. } => defensive::defender(state, fight),
                _ => Side::Union,
            };
            let mut options: Vec<Choice> = flank_offers(rules, state)
                .into_iter()
                .map(|(g, h, shown)| Choice::new(offer_id(state, &g, h), offer_label(state, &g, h, &shown)))
                .collect();
            // Once the announced lines flank, the announcement stands; before, it may be withdrawn.
            if flanks(rules, state, announced, *target) {
                options.push(Choice::new("resolve", format!("Resolve the {} announced fires", announced.len())));
            } else {
                options.push(Choice::new("cancel", "Withdraw the announcement"));
            }
            let so_far: Vec<String> = announced.iter().map(|g| offer_id(state, g, *target)).collect();
            Some(decide(
                side,
                "flanking-fire",
                format!(
                    "Flanking Fire at {target}: announce every fire first, lines entering with a full hexside between (SR 9.3c); announced: {}",
                    if so_far.is_empty() { "none".to_string() } else { so_far.join(", ") }
                ),
                options,
            ))
        }
        Stage::OppFire { moving, from, to, .. } => {
            let u = &state.units[moving.unit];
            let fires = opportunity_fires(rules, state);
            let flank = flank_targets(rules, state, &fires);
            let mut options: Vec<Choice> = fires
                .into_iter()
                .map(|(g, h, shown)| Choice::new(offer_id(state, &g, h), offer_label(state, &g, h, &shown)))
                .collect();
            options.extend(flank.into_iter().map(flank_choice));
            options.push(Choice::new("let-go", format!("Let {} go", u.name)));
            Some(decide(
                other(u.side),
                "opportunity-fire",
                format!(
                    "{} leaves {from} for {to}: Opportunity Fire at half SP, {} the Lead Unit, or let it go (SR 10.7)",
                    u.name, u.name
                ),
                options,
            ))
        }
        Stage::WaywardFire { unit, from, to, .. } => {
            let u = &state.units[*unit];
            let mut options = fire_options(rules, state, &opportunity_fires(rules, state));
            options.push(Choice::new("let-go", format!("Let {} go", u.name)));
            Some(decide(
                other(u.side),
                "opportunity-fire",
                format!(
                    "Wayward Move: {} is moved from {from} to {to}: Opportunity Fire at half SP, {} the Lead Unit, or let it go (EX 7.3b, SR 10.7)",
                    u.name, u.name
                ),
                options,
            ))
        }
        Stage::EventFire { side, event, resolved: false } => {
            let options = event_fires(rules, state, *side, event)
                .into_iter()
                .map(|(g, h, shown)| Choice::new(offer_id(state, &g, h), offer_label(state, &g, h, &shown)))
                .collect();
            let name = rules.data().charts.events.event(event).map_or(event.as_str(), |e| e.name.as_str());
            Some(decide(*side, "event-fire", format!("{side} plays {name}: pick the fire (events.toml)"), options))
        }
        Stage::RetreatFire { walk, .. } => {
            let u = &state.units[walk.order.unit];
            let mut options = fire_options(rules, state, &opportunity_fires(rules, state));
            options.push(Choice::new("let-go", format!("Let {} go", u.name)));
            let here = state.hex_of(walk.order.unit).map(|h| h.to_string()).unwrap_or_default();
            Some(decide(
                other(u.side),
                "opportunity-fire",
                format!(
                    "{} retreats out of {here}, next to your units: Opportunity Fire at half SP, {} the Lead Unit, or let it go (SR 10.7, 12.3)",
                    u.name, u.name
                ),
                options,
            ))
        }
        Stage::FireRoll { firer, target, lead } => {
            let (firers, kind, bonus) = shot(state, *firer, *target);
            let a = assessment(rules, state, &firers, kind, *target, *lead, bonus)?;
            let shown = preview(rules, &a);
            let mut r: RollRequest = a.roll?;
            // The player of an event's fire rolls it (Firing on Friends: ruling PC35).
            let roller = match state.volley.as_ref().map(|v| &v.then) {
                Some(Stage::EventFire { side, .. }) => *side,
                _ => state.units[*firer].side,
            };
            r.side = side_id(roller).into();
            r.purpose = format!("{}: {shown}", r.purpose);
            Some(Pending::Roll(r))
        }
        Stage::FireTest { target, lead, .. } => {
            let need = run_test(rules, state)?.err()?;
            let (stack, _) = stack_at(rules, state, *target);
            let owner = stack.units.get(*lead).map_or(Side::Union, |u| u.side);
            Some(match need {
                Need::Roll(mut r) => {
                    r.side = side_id(owner).into();
                    Pending::Roll(r)
                }
                n => need_pending(owner, n, &stack, "fire-second"),
            })
        }
        _ => None,
    }
}

fn bad(what: &str) -> RuleError {
    RuleError::NotAnOption(format!("not a legal {what}"))
}

/// Starts the fire of battery `firer` at `target` (the "fire" choice of the Artillery Step).
///
/// # Errors
/// The fire is not among [`artillery_fires`].
pub fn start_fire(rules: &BlindSwords, state: &mut State, firer: usize, target: Hex) -> Result<(), RuleError> {
    if !artillery_fires(rules, state, firer).iter().any(|(h, _)| *h == target) {
        return Err(bad("artillery target"));
    }
    let name = state.units[firer].name.clone();
    state.note(format!("{name} fires at {target}"), "SR 6.2, 9.0");
    to_lead(rules, state, firer, target, None);
    Ok(())
}

/// The fire's next stage: the d66 when the Lead Unit is known (`lead`, the moving unit of an
/// Opportunity Fire, SR 10.7, or the one largest unit), else the owner's pick (SR 9.2).
pub(crate) fn to_lead(rules: &BlindSwords, state: &mut State, firer: usize, target: Hex, lead: Option<usize>) {
    let (stack, ids) = stack_at(rules, state, target);
    let largest = stack.largest();
    let forced = lead.and_then(|l| ids.iter().position(|&i| i == l));
    state.stage = match (forced, largest.as_slice()) {
        (Some(l), _) | (None, &[l]) => Stage::FireRoll { firer, target, lead: l },
        _ => Stage::FireLead { firer, target },
    };
}

/// Starts a fire picked in a brigade's Fire Combat Step or as Opportunity Fire (option
/// `fire:<unit>+…@<hex>`, already checked against the offers): the firers are marked as having
/// fired, and the game returns to that stage once the fire is over.
fn start_volley(rules: &BlindSwords, state: &mut State, option: &str) -> Result<(), RuleError> {
    let (ids, hex) = option.strip_prefix("fire:").and_then(|a| a.split_once('@')).ok_or_else(|| bad("fire"))?;
    let target: Hex = hex.parse().map_err(|_| bad("fire"))?;
    let firers: Vec<usize> =
        ids.split('+').map(|id| state.unit_index(id)).collect::<Option<_>>().ok_or_else(|| bad("fire"))?;
    let &first = firers.first().ok_or_else(|| bad("fire"))?;
    let (then, kind, lead, rule) = match state.stage.clone() {
        Stage::FireStep { brigade, order, by, mut fired } => {
            fired.extend(&firers);
            (Stage::FireStep { brigade, order, by, fired }, step_kind(order), None, "SR 9.0-9.3")
        }
        Stage::OppFire { for_, moved, moving, from, to, mut fired } => {
            fired.extend(&firers);
            let mover = moving.unit;
            (Stage::OppFire { for_, moved, moving, from, to, fired }, FireKind::Opportunity, Some(mover), "SR 10.7")
        }
        Stage::EventFire { side, event, .. } => {
            let then = Stage::EventFire { side, event, resolved: true };
            (then, FireKind::Brigade(Order::Defend), None, "events.toml (reconstructed, ruling A-10)")
        }
        Stage::RetreatFire { walk, mut fired } => {
            fired.extend(&firers);
            let mover = walk.order.unit;
            (Stage::RetreatFire { walk, fired }, FireKind::Opportunity, Some(mover), "SR 10.7, 12.3")
        }
        Stage::WaywardFire { unit, from, to, mut fired } => {
            fired.extend(&firers);
            (Stage::WaywardFire { unit, from, to, fired }, FireKind::Opportunity, Some(unit), "SR 10.7, EX 7.3b")
        }
        _ => return Err(bad("fire")),
    };
    let names: Vec<&str> = firers.iter().map(|&i| state.units[i].name.as_str()).collect();
    let text = format!("{} fire{} at {target}", names.join(" + "), if firers.len() == 1 { "s" } else { "" });
    state.note(text, rule);
    state.volley = Some(Volley { firers, kind, then });
    to_lead(rules, state, first, target, lead);
    Ok(())
}

/// Resolves the next announced fire of a Flanking Fire (SR 9.3c), or returns to the Fire Combat
/// Step when none is left or the target hex is empty (the firers left may then fire elsewhere).
/// A fire no longer legal (its line now Blocked...) is dropped with a note. `true` when the
/// stage changed.
pub fn flank_next(rules: &BlindSwords, state: &mut State) -> bool {
    let Stage::FlankFire { mut back, target, mut announced, resolving: true } = state.stage.clone() else {
        return false;
    };
    let (_, kind, mover) = flank_pool(rules, state, &back, &[]);
    let side = announced.first().and_then(|g| g.first()).map(|&i| state.units[i].side);
    // The target is left when it holds no enemy of the firers, or (Opportunity Fire) when the
    // moving unit is no longer in it.
    // A Defensive Flanking Fire's target must still hold an attacker in the combat (SR 11.3a).
    let fight = match back.as_ref() {
        Stage::CloseCombat { fight, .. } => Some(fight.clone()),
        _ => None,
    };
    let occupied = state.units_at(target).any(|i| Some(state.units[i].side) != side)
        && mover.is_none_or(|m| state.hex_of(m) == Some(target))
        && fight.as_ref().is_none_or(|f| defensive::live_hexes(state, f).contains(&target));
    if announced.is_empty() || !occupied {
        if !announced.is_empty() {
            state.note(format!("{target} is left: the fires still announced may go to other targets"), "SR 9.3c");
        }
        state.stage = *back;
        return true;
    }
    let group = announced.remove(0);
    if let Stage::FireStep { fired, .. }
    | Stage::OppFire { fired, .. }
    | Stage::WaywardFire { fired, .. }
    | Stage::RetreatFire { fired, .. } = back.as_mut()
    {
        fired.extend(&group);
    }
    if let Stage::CloseCombat { fight, .. } = back.as_mut() {
        fight.fired.extend(&group);
    }
    let (kind, bonus) = match &fight {
        Some(f) => (defensive::group_kind(state, f, &group), Bonus::defending(f.target, true)),
        None => (kind, Bonus { flanking: true, ..Bonus::default() }),
    };
    let then = Stage::FlankFire { back, target, announced, resolving: true };
    let (stack, ids) = stack_at(rules, state, target);
    let lead = match mover {
        Some(m) => ids.iter().position(|&i| i == m),
        None => stack.largest().first().copied(),
    };
    let legal = lead
        .and_then(|l| assessment(rules, state, &group, kind, target, l, bonus))
        .is_some_and(|a| a.final_column.is_some());
    let names: Vec<&str> = group.iter().map(|&i| state.units[i].name.as_str()).collect();
    let text = names.join(" + ");
    if !legal {
        state.note(format!("{text} may no longer fire at {target}"), "SR 9.1");
        state.stage = then;
        return true;
    }
    state
        .note(format!("{text} fire{} at {target} (Flanking Fire)", if group.len() == 1 { "s" } else { "" }), "SR 9.3c");
    let Some(&first) = group.first() else { return true };
    state.volley = Some(Volley { firers: group, kind, then });
    to_lead(rules, state, first, target, mover);
    true
}

/// Applies an owner's choice in a fire stage.
///
/// # Errors
/// The option is not offered.
pub fn choose(rules: &BlindSwords, state: &mut State, option: &str) -> Result<(), RuleError> {
    let Some(Pending::Decide(d)) = pending(rules, state) else { return Err(bad("choice")) };
    if !d.options.iter().any(|c| c.id == option) {
        return Err(bad("choice"));
    }
    if let Some(hex) = option.strip_prefix("flank:") {
        let target: Hex = hex.parse().map_err(|_| bad("choice"))?;
        if !matches!(
            state.stage,
            Stage::FireStep { .. } | Stage::OppFire { .. } | Stage::WaywardFire { .. } | Stage::RetreatFire { .. }
        ) {
            return Err(bad("choice"));
        }
        state.note(format!("Flanking Fire announced at {target}"), "SR 9.3c");
        let back = Box::new(state.stage.clone());
        state.stage = Stage::FlankFire { back, target, announced: Vec::new(), resolving: false };
        return Ok(());
    }
    if let Stage::FlankFire { back, target, mut announced, .. } = state.stage.clone() {
        match option {
            "cancel" => {
                state.note(format!("The Flanking Fire at {target} is withdrawn before any fire"), "SR 9.3c");
                state.stage = *back;
            }
            "resolve" => {
                let all: Vec<String> = announced.iter().map(|g| offer_id(state, g, target)).collect();
                state.note(format!("Flanking Fire at {target}: {}", all.join(", ")), "SR 9.3c");
                state.stage = Stage::FlankFire { back, target, announced, resolving: true };
            }
            _ => {
                let (ids, _) =
                    option.strip_prefix("fire:").and_then(|a| a.split_once('@')).ok_or_else(|| bad("fire"))?;
                let group: Vec<usize> =
                    ids.split('+').map(|id| state.unit_index(id)).collect::<Option<_>>().ok_or_else(|| bad("fire"))?;
                announced.push(group);
                state.stage = Stage::FlankFire { back, target, announced, resolving: false };
            }
        }
        return Ok(());
    }
    if matches!(
        state.stage,
        Stage::FireStep { .. }
            | Stage::OppFire { .. }
            | Stage::WaywardFire { .. }
            | Stage::RetreatFire { .. }
            | Stage::EventFire { .. }
    ) {
        return start_volley(rules, state, option);
    }
    let pick: usize = option.strip_prefix("unit:").and_then(|s| s.parse().ok()).ok_or_else(|| bad("choice"))?;
    match state.stage.clone() {
        Stage::FireLead { firer, target } => state.stage = Stage::FireRoll { firer, target, lead: pick },
        Stage::FireTest { firer, target, lead, column, roll, dice, .. } => {
            state.stage = Stage::FireTest { firer, target, lead, column, roll, second: Some(pick), dice };
            finish_test(rules, state);
        }
        _ => return Err(bad("choice")),
    }
    Ok(())
}

/// Applies dice in a fire stage (already checked against the pending request); returns the text
/// to log with them.
#[must_use]
pub fn roll(rules: &BlindSwords, state: &mut State, dice: &[u8]) -> String {
    let charts = &rules.data().charts;
    match state.stage.clone() {
        Stage::FireRoll { firer, target, lead } => {
            let (firers, kind, bonus) = shot(state, firer, target);
            let Some(a) = assessment(rules, state, &firers, kind, target, lead, bonus) else {
                return String::new();
            };
            let (stack, _) = stack_at(rules, state, target);
            let (cr, _) = stack.modified_cr(lead);
            let d = D66::new(dice[0], dice.get(1).copied().unwrap_or(0));
            let Some((d, column)) = d.zip(a.final_column) else { return String::new() };
            let result = fire::resolve(charts, &a, d, cr);
            let lead_id = stack.units.get(lead).map_or_else(String::new, |u| u.id.clone());
            let names: Vec<&str> = firers.iter().map(|&i| state.units[i].name.as_str()).collect();
            let text = format!(
                "{} fire{} at {target} (Lead Unit {lead_id}): {}",
                names.join(" + "),
                if firers.len() == 1 { "s" } else { "" },
                result.explanation
            );
            if result.test.is_some() {
                state.stage =
                    Stage::FireTest { firer, target, lead, column, roll: d.value(), second: None, dice: Vec::new() };
            } else {
                fired(rules, state, firer, &[]);
            }
            text
        }
        Stage::FireTest { firer, target, lead, column, roll, second, dice: mut so_far } => {
            let first = so_far.is_empty();
            so_far.extend_from_slice(dice);
            state.stage = Stage::FireTest { firer, target, lead, column, roll, second, dice: so_far };
            let text = if first && !sharpshot(rules, state) {
                format!(
                    "Fire Combat Cohesion Test at {target}: coloured {}, white {}",
                    dice[0],
                    dice.get(1).unwrap_or(&0)
                )
            } else {
                format!("Break Test die at {target}: {}", dice[0])
            };
            text
        }
        _ => String::new(),
    }
}

/// Ends a Fire Combat Cohesion Test once it needs no more dice or choices (called after the
/// dice are logged), writing the outcome back to the state (SR 12.1, 12.5, 12.6, 12.8).
pub fn finish_test(rules: &BlindSwords, state: &mut State) {
    let Stage::FireTest { firer, target, lead, .. } = state.stage.clone() else { return };
    let Some(Ok(outcome)) = run_test(rules, state) else { return };
    let (_, ids) = stack_at(rules, state, target);
    if sharpshot(rules, state) {
        state.note(
            format!("Sharpshooters at {target}: one Morale Hit in place of the Routine test"),
            "events.toml (reconstructed, ruling A-10)",
        );
    } else {
        state.note(
            format!(
                "Cohesion Test at {target}: Depletion \"{}\", Skedaddle \"{}\"",
                outcome.depletion, outcome.skedaddle
            ),
            "SR 12.1",
        );
    }
    for step in &outcome.steps {
        let name = state.unit_index(&step.unit).map_or_else(|| step.unit.clone(), |i| state.units[i].name.clone());
        state.note(format!("{name}: {}", step.what), step.rule);
    }
    for (c, &i) in outcome.target.units.iter().zip(&ids) {
        retreat_step::write_back(state, i, c);
    }
    let retreating: Vec<String> = outcome.retreats.iter().map(|r| r.unit.clone()).collect();
    // SR 12.3 note: a unit fired on as it retreats adds a new Retreat to the hexes it had left.
    let walking = match state.volley.as_ref().map(|v| &v.then) {
        Some(Stage::RetreatFire { walk, .. }) => {
            Some((walk.order.unit, u8::try_from(walk.hexes.len().saturating_sub(walk.step)).unwrap_or(u8::MAX)))
        }
        _ => None,
    };
    let mut retreats = Vec::new();
    for r in &outcome.retreats {
        let Some(unit) = state.unit_index(&r.unit) else { continue };
        let left = walking.filter(|(w, _)| *w == unit).map_or(0, |(_, n)| n);
        let hexes = r.hexes.saturating_add(left);
        if left > 0 {
            let name = &state.units[unit].name;
            state.note(
                format!("{name}'s new Retreat adds the {left} hexes left of its retreat under way: {hexes} hexes"),
                "SR 12.3",
            );
        }
        retreats.push(RetreatOrder { unit, hexes, rule: r.rule.to_string(), causers: vec![firer] });
    }
    let after = Aftermath {
        // The side that picks among Panic ties: the tested units' enemy (SR 12.1b), which is not
        // the firer's under Firing on Friends.
        by: ids.get(lead).map_or(state.units[firer].side, |&i| other(state.units[i].side)),
        causers: vec![firer],
        target,
        lead: ids.get(lead).copied().unwrap_or(usize::MAX),
        retreats,
        panic: outcome.panic,
        panicking: Vec::new(),
        dice: Vec::new(),
        later: Vec::new(),
        done: Vec::new(),
        then: Then::Fire { firer, retreating },
    };
    retreat_step::start(state, after);
}

/// Where the game goes once a fire is over (`retreating`: the units its test ordered to
/// retreat). A battery of the Artillery Step has acted: the other side's step (SR 6.3). A
/// volley returns to its stage: the brigade's Fire Combat Step, or the Opportunity Fire, where
/// a moving unit that must retreat or is no longer in its hex has its move cancelled (SR 10.7).
pub fn fired(rules: &BlindSwords, state: &mut State, firer: usize, retreating: &[String]) {
    let Some(v) = state.volley.take() else {
        state.units[firer].acted = true;
        let side = state.units[firer].side;
        state.stage = Stage::Artillery { side: other(side), passes: 0 };
        return;
    };
    state.stage = v.then;
    // SR 10.7: a Flanking Fire at a moving (Wayward, retreating) unit ends with its move when the
    // unit is retreated or broken; the Opportunity Fire below then cancels the move.
    if let Stage::FlankFire { back, .. } = state.stage.clone() {
        let mover = match back.as_ref() {
            Stage::OppFire { moving, from, .. } => Some((moving.unit, Some(*from))),
            Stage::WaywardFire { unit, from, .. } => Some((*unit, Some(*from))),
            Stage::RetreatFire { walk, .. } => {
                Some((walk.order.unit, walk.step.checked_sub(1).and_then(|k| walk.hexes.get(k)).copied()))
            }
            _ => None,
        };
        if let Some((m, at)) = mover {
            if retreating.contains(&state.units[m].id) || state.hex_of(m) != at {
                state.stage = *back;
            }
        }
    }
    if let Stage::OppFire { for_, moved, moving, from, .. } = state.stage.clone() {
        let u = &state.units[moving.unit];
        if retreating.contains(&u.id) || u.place != Place::Map(from) {
            state.note(format!("{}'s move is cancelled", u.name), "SR 10.7");
            crate::sequence::stop_unit(rules, state, for_, moved, &moving);
        }
    }
    // SR 12.3 note: a retreating unit given a new Retreat, or broken, by the fire has made its
    // new retreat (the hexes left added, PC33) in place of the rest of the old one.
    if let Stage::RetreatFire { walk, .. } = &state.stage {
        let u = &state.units[walk.order.unit];
        if retreating.contains(&u.id)
            || state.hex_of(walk.order.unit) != walk.step.checked_sub(1).and_then(|k| walk.hexes.get(k)).copied()
        {
            retreat_step::cut(state);
            return;
        }
    }
    // EX 7.3b: a Wayward Move retreated or broken by the fire is not made.
    if let Stage::WaywardFire { unit, from, .. } = state.stage.clone() {
        let u = &state.units[unit];
        if retreating.contains(&u.id) || u.place != Place::Map(from) {
            state.note(format!("Wayward Move: {} is not moved", u.name), "SR 10.7");
            state.stage = Stage::Draw;
        }
    }
}
