//! The flank attack bonus (GCACW 7.4 Flank Attacks, 7.8, 9.0; HSN-B 2.2, 10.0; HSN-A 8.0).

use caisson_hexmap::{Hex, Hexside, Map, Terrain};

use crate::bridges::Bridges;
use crate::rules::Gcacw;
use crate::state::State;
use crate::zoc::{self, Zoc};
use crate::Side;

use super::values::{is_wagon, Quarters};
use super::Forts;

/// One of the six hexes around the defender, as the flank procedure sees it (GCACW 7.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlankHex {
    /// The hex (it may lie off the map).
    pub hex: Hex,
    /// Why it is covered (Step 1, clauses a–e), or `None`.
    pub covered: Option<String>,
    /// Why it lowers the bonus (Step 3, clauses a–d), if it is covered and does.
    pub reduces: Option<String>,
    /// Why the attacker's units next to it do not cover it, if they do not (the one-quarter rule,
    /// demoralized units, wagons).
    pub not_covered: Option<String>,
}

/// The flank bonus of one attack (GCACW 7.4 Steps 1–4 and the Flank Bonus Reductions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flank {
    /// The six hexes around the defender, in direction order.
    pub hexes: Vec<FlankHex>,
    /// Covered hexes (Step 1).
    pub covered: usize,
    /// Basic bonus: +4 for six, +2 for five, 0 otherwise (Step 2).
    pub basic: i32,
    /// Step 3 reduction, at most 3.
    pub reduction: i32,
    /// Final flank bonus (Step 3), before the Flank Bonus Reductions.
    pub final_bonus: i32,
    /// The flank bonus that applies after Flanks Refused, redoubt, cavalry and fort rules.
    pub bonus: i32,
    /// +1 for a non-flank attack on a hex with a Flanks Refused marker (GCACW 7.8).
    pub refused_bonus: i32,
    /// How the final bonus was changed, in words with sections.
    pub adjustments: Vec<String>,
}

impl Flank {
    /// Whether this is a flank attack: the final bonus of Step 3 is above 0. Ruling: an attack
    /// whose five or six covered hexes are all reduced away (final bonus 0) is a non-flank attack,
    /// so it gets the Flanks Refused +1 (GCACW 7.8).
    #[must_use]
    pub fn is_flank_attack(&self) -> bool {
        self.final_bonus > 0
    }

    /// The covered hexes, for labels.
    #[must_use]
    pub fn covered_hexes(&self) -> Vec<Hex> {
        self.hexes.iter().filter(|h| h.covered.is_some()).map(|h| h.hex).collect()
    }
}

/// What the flank procedure needs to know about the attack.
pub(super) struct FlankInput<'a> {
    pub attacker: Side,
    pub defender_hex: Hex,
    /// The defender's Combat value with entrenchment, capped (the one-quarter test).
    pub defender_cv: Quarters,
    /// The active attacking unit is cavalry, or the assault's active leader a cavalry leader.
    pub cavalry_attack: bool,
    /// More than half of the defender's Combat value is cavalry.
    pub cavalry_defence: bool,
    pub flanks_refused: bool,
    /// The defenders hold a redoubt for the flank rules (GCACW 9.0).
    pub redoubt: bool,
    /// A Confederate attack on a hex with an undestroyed Union fort (HSN-A 8.0).
    pub against_fort: bool,
    pub forts: &'a Forts,
    /// Whether to say why (the reasons of [`FlankHex`], the adjustments); without, every reason
    /// is an empty string and only the numbers and which hexes are covered and reduce count.
    pub words: bool,
}

/// Ruling: HSN-B 10.0 treats 5805 and 5806 as off the map for the Confederate player, so they
/// count as off-map hexes (Step 1e) when he attacks a defender next to them.
fn off_map_for(map: &Map, side: Side, h: Hex) -> bool {
    !map.contains(h) || (side == Side::Confederate && (h == Hex::new(58, 5) || h == Hex::new(58, 6)))
}

/// Step 1c/3c: a mountain or swamp (provisional swamp in rain) on either side, no route.
fn closed_terrain(rules: &Gcacw, rain: bool, a: Hex, b: Hex) -> bool {
    let map = rules.map();
    let closed = |h: Hex| {
        map.terrain(h)
            .map(|t| rules.charts().effective_terrain(t, rain))
            .is_some_and(|t| matches!(t, Terrain::Mountain | Terrain::Swamp))
    };
    !map.hexside(a, b).intersects(Hexside::ANY_ROUTE) && (closed(a) || closed(b))
}

/// Step 1d/3d: a river hexside with no bridge (standing or pontoon, of either side), dam, ferry
/// or ford (a destroyed bridge is a ford, GCACW 10.2); in rain a ford (HSN minor rivers are
/// unfordable in a rain turn, HSN Sc 2 Rain, GCACW 12.0) and a creek without a route; a ford
/// while a scenario makes rivers unfordable (HSN Sc 7 Turn 3).
fn water_between(map: &Map, bridges: &Bridges, rain: bool, unfordable: bool, a: Hex, b: Hex) -> Option<&'static str> {
    let hs = map.hexside(a, b);
    if hs.intersects(Hexside::RIVER) {
        let c = bridges.crossing(map, a, b);
        let bridged = c.bridge || c.pontoon.is_some();
        if !bridged && !c.ford {
            return Some("across a river with no bridge or ford");
        }
        if !bridged && rain {
            return Some("across a ford over an unfordable river (rain)");
        }
        if !bridged && unfordable {
            return Some("across a ford over an unfordable river (scenario rule)");
        }
    }
    if rain && hs.contains(Hexside::CREEK) && !hs.intersects(Hexside::ANY_ROUTE) {
        return Some("across a creek with no route in a rain turn");
    }
    None
}

/// Reduces a final bonus: +4 to +2, +3 or +2 to +1, +1 to `one` (GCACW 7.4, 7.8, 9.0).
const fn reduce(bonus: i32, one: i32) -> i32 {
    match bonus {
        4.. => 2,
        2 | 3 => 1,
        1 => one,
        _ => 0,
    }
}

/// Computes the flank bonus (GCACW 7.4).
///
/// Step 1 (a, b): a hex is covered by the attacker's units that occupy it or exert a zone of
/// control into it, restricted zones included, if together they have at least one quarter of
/// the defender's Combat value (with entrenchment, capped); units in different hexes next to it
/// combine. Demoralized units never help; wagon trains never help (HSN-B 2.2). (c) mountain or
/// swamp without a route; (d) river without a crossing, ford in rain or while rivers are
/// unfordable (HSN Sc 7 Turn 3; no ZOC crosses such a ford either, GCACW 12.0), creek without
/// route in rain; (e) off the map (HSN-B 10.0: 5805/5806 for the Confederate player); HSN-A 8.0: an
/// undestroyed Union fort hex next to a Confederate defender.
///
/// Step 3 reductions, one per covered hex, at most 3: (a) a defender's undemoralized unit in it
/// (ruling: wagon trains count; ruling: an undestroyed fort hex counts as Union-occupied, HSN-A
/// 8.0 and digest A27); (b) it is empty and every attacker unit covering it does so across a woods
/// hexside without a route (ruling: "all adjacent units" are the units that cover the hex, so an
/// off-map hex or one covered only by water is not reduced by (b)); (c) and (d) as in Step 1.
///
/// Flank Bonus Reductions: a Confederate attack on an undestroyed fort gets no flank bonus (HSN-A
/// 8.0); in an eligible redoubt +4 → +2, +3/+2 → +1, +1 → 0 (GCACW 9.0); with Flanks Refused +4
/// → +2, +3/+2 → +1, +1 stays (GCACW 7.8); ruling: with both, the redoubt's reduction applies and
/// they do not compound. A cavalry attacker against a mostly-cavalry defender: +4 → +2, +3/+2 →
/// +1, +1 → 0, unless Flanks Refused or a redoubt applies. A non-flank attack on a Flanks Refused
/// hex gets +1 (GCACW 7.8), also in a redoubt or against a fort (ruling: that +1 is not a flank
/// bonus).
pub(super) fn flank(rules: &Gcacw, state: &State, input: &FlankInput<'_>) -> Flank {
    let map = rules.map();
    let rain = state.rain;
    let unfordable = super::unfordable(rules, state);
    let side = input.attacker;
    let dh = input.defender_hex;
    let fort_at = |h: Hex| super::values::fort_values(rules, input.forts, h).is_some();
    let words = input.words;
    // A reason, worded only when wanted.
    let say = |text: &dyn Fn() -> String| if words { text() } else { String::new() };
    // The attacker's units that can reach a hex next to the defender (in it, or one hex off):
    // none farther than two hexes from the defender.
    let near: Vec<(usize, Hex)> = rules
        .on_map(state)
        .filter(|&(u, h)| rules.unit_side(state, u) == side && h != dh && h.distance(dh) <= 2)
        .collect();
    let mut hexes = Vec::new();
    let mut reducing = 0;
    for (_, n) in dh.neighbors() {
        let mut fh = FlankHex { hex: n, covered: None, reduces: None, not_covered: None };
        if off_map_for(map, side, n) {
            fh.covered = Some(say(&|| "(e) off the map".into()));
            hexes.push(fh);
            continue;
        }
        // Attacker units occupying n or exerting a ZOC into it.
        let mut helpers: Vec<(usize, Hex)> = Vec::new();
        let mut idle: Vec<String> = Vec::new();
        for &(u, h) in &near {
            // No ZOC across a ford of an unfordable river (GCACW 12.0; HSN Sc 7 Turn 3).
            let reaches = h == n
                || (h.distance(n) == 1
                    && zoc::exerted_with(map, &state.bridges, h, n, rain, unfordable) != Zoc::None
                    && !(unfordable && super::closed_ford(rules, state, h, n)));
            if !reaches {
                continue;
            }
            if state.units[u].demoralized > 0 {
                idle.push(say(&|| format!("{} is demoralized", rules.unit_name(state, u))));
            } else if is_wagon(rules, state, u) {
                idle.push(say(&|| format!("{} is a wagon train (HSN-B 2.2)", rules.unit_name(state, u))));
            } else {
                helpers.push((u, h));
            }
        }
        let mut why: Vec<String> = Vec::new();
        let mut by_units = false;
        if !helpers.is_empty() {
            let cv: crate::charts::Half = helpers.iter().map(|&(u, _)| rules.combat_value(state, u)).sum();
            let names = || {
                let names: Vec<String> = helpers
                    .iter()
                    .map(|&(u, h)| {
                        let how = if h == n { "in it" } else { "ZOC" };
                        format!("{} {how}", rules.unit_name(state, u))
                    })
                    .collect();
                names.join(", ")
            };
            if Quarters::from_half(cv).quarters() * 4 >= input.defender_cv.quarters() {
                by_units = true;
                let clause = if helpers.iter().any(|&(_, h)| h == n) { "(a)" } else { "(b)" };
                why.push(say(&|| format!("{clause} {}", names())));
            } else {
                idle.push(say(&|| {
                    format!(
                        "{} with Combat {cv} is less than one quarter of the defender's {}",
                        names(),
                        input.defender_cv
                    )
                }));
            }
        }
        if closed_terrain(rules, rain, dh, n) {
            why.push(say(&|| "(c) mountain or swamp without a route".into()));
            fh.reduces = Some(say(&|| "(c) mountain or swamp without a route".into()));
        }
        if let Some(w) = water_between(map, &state.bridges, rain, unfordable, dh, n) {
            why.push(say(&|| format!("(d) {w}")));
            fh.reduces.get_or_insert_with(|| say(&|| format!("(d) {w}")));
        }
        if side == Side::Union && fort_at(n) {
            why.push(say(&|| "Union fort next to a Confederate defender (HSN-A 8.0)".into()));
        }
        if !why.is_empty() {
            fh.covered = Some(say(&|| why.join("; ")));
            let held = |&(u, h): &(usize, Hex)| {
                h == n && rules.unit_side(state, u) == side.enemy() && state.units[u].demoralized == 0
            };
            if rules.on_map(state).any(|p| held(&p)) {
                fh.reduces = Some(say(&|| {
                    let friends: Vec<String> =
                        rules.on_map(state).filter(held).map(|(u, _)| rules.unit_name(state, u)).collect();
                    format!("(a) held by {}", friends.join(", "))
                }));
            } else if side == Side::Confederate && fort_at(n) {
                fh.reduces = Some(say(&|| "(a) an undestroyed Union fort counts as Union-occupied (HSN-A 8.0)".into()));
            } else if by_units
                && fh.reduces.is_none()
                && rules.occupant(state, n).is_none()
                && helpers.iter().all(|&(_, h)| {
                    h != n && map.is_woods_hexside(h, n) && !map.hexside(h, n).intersects(Hexside::ANY_ROUTE)
                })
            {
                fh.reduces = Some(say(&|| "(b) empty, and reached only across woods hexsides without a route".into()));
            }
            if fh.reduces.is_some() {
                reducing += 1;
            }
        } else if !idle.is_empty() {
            fh.not_covered = Some(say(&|| idle.join("; ")));
        }
        hexes.push(fh);
    }
    let covered = hexes.iter().filter(|h| h.covered.is_some()).count();
    let basic = match covered {
        6 => 4,
        5 => 2,
        _ => 0,
    };
    let reduction = if basic > 0 { reducing.min(3) } else { 0 };
    let final_bonus = (basic - reduction).max(0);
    let mut adjustments = Vec::new();
    let bonus = if final_bonus == 0 {
        0
    } else if input.against_fort {
        adjustments.push(say(&|| "no flank bonus in a Confederate attack on a Union fort (HSN-A 8.0)".into()));
        0
    } else if input.redoubt {
        let b = reduce(final_bonus, 0);
        adjustments.push(say(&|| format!("redoubt: +{final_bonus} becomes +{b} (GCACW 9.0)")));
        b
    } else if input.flanks_refused {
        let b = reduce(final_bonus, 1);
        adjustments.push(say(&|| format!("Flanks Refused: +{final_bonus} becomes +{b} (GCACW 7.8)")));
        b
    } else if input.cavalry_attack && input.cavalry_defence {
        let b = reduce(final_bonus, 0);
        adjustments.push(say(&|| format!("cavalry against cavalry: +{final_bonus} becomes +{b} (GCACW 7.4)")));
        b
    } else {
        final_bonus
    };
    let refused_bonus = i32::from(input.flanks_refused && final_bonus == 0);
    Flank { hexes, covered, basic, reduction, final_bonus, bonus, refused_bonus, adjustments }
}
